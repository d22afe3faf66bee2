/* A correct sampler written apart from the reference: uniform draws map u
   to hi - (hi - lo) u, log-uniform ones to lo (hi/lo)^u, and the truncated
   normal chooses its proposal by the mass of the interval rather than its
   width.  Its draws differ from the reference's, so the grader's
   statistical bands are what it passes by.  It must pass every check of
   course/2_randomization.  The typical mistakes of
   tests/course/2_randomization/wrong_*.c each switch on a wrong variant
   here (#ifdef MISTAKE_...). */
#include "sim2real.h"
#include <math.h>

#ifdef MISTAKE_HIDDEN_RAND
/* the mistake: every uniform number below comes from the C library's rand(), not from the rng passed in */
#include <stdlib.h>
static double hidden_uniform(s2r_rng* rng) { (void)rng; return rand() / ((double)RAND_MAX + 1.0); }
#define s2r_rng_uniform hidden_uniform
#endif

/* Phi(b) - Phi(a) for the standard normal. */
static double mass_between(double a, double b) {
    return 0.5 * (erfc(-b / sqrt(2.0)) - erfc(-a / sqrt(2.0)));
}

/* z ~ N(0, 1) restricted to [a, b], a <= b: rejection from the normal
   when it lands inside often enough, else from a uniform on [a, b]
   accepted with the density relative to its largest value on [a, b]. */
static double standard_truncated(s2r_rng* rng, double a, double b) {
    double peak = a > 0 ? a : b < 0 ? b : 0;
    int tries;
#ifdef MISTAKE_TRUNC_NORMAL_CLAMPED
    /* the mistake: one normal draw clamped to [a, b] instead of drawn again, its mass outside piled on a and b */
    return s2r_clamp(s2r_rng_normal(rng), a, b);
#endif
#ifdef MISTAKE_NORMAL_PROPOSAL_ONLY
    if (1) {   /* the mistake: always the normal, which a narrow interval rarely holds: draws pile on the peak */
#else
    if (mass_between(a, b) >= 0.5) {
#endif
        for (tries = 0; tries < S2R_TRUNC_NORMAL_TRIES; tries++) {
            double z = s2r_rng_normal(rng);
            if (a <= z && z <= b) return z;
        }
        return peak;
    }
    for (tries = 0; tries < S2R_TRUNC_NORMAL_TRIES; tries++) {
        double z = s2r_rng_range(rng, a, b);
        if (s2r_rng_uniform(rng) * exp(-0.5 * peak * peak) <= exp(-0.5 * z * z)) return z;
    }
    return peak;
}

S2RDEF double s2r_dist_sample(const s2r_dist* d, s2r_rng* rng) {
    double x;
    if (d->kind == S2R_DIST_FIXED) return d->mean;
    if (d->kind != S2R_DIST_UNIFORM && d->kind != S2R_DIST_LOG_UNIFORM && d->kind != S2R_DIST_TRUNC_NORMAL) return NAN;
    if (d->hi <= d->lo) return d->kind == S2R_DIST_TRUNC_NORMAL ? s2r_clamp(d->mean, d->lo, d->hi) : d->lo;
    if (d->kind == S2R_DIST_UNIFORM) {
        x = d->hi - (d->hi - d->lo) * s2r_rng_uniform(rng);
    } else if (d->kind == S2R_DIST_LOG_UNIFORM) {
#ifdef MISTAKE_LOG_UNIFORM_LINEAR
        /* the mistake: uniform in x, not in log(x), as for a uniform range */
        x = d->hi - (d->hi - d->lo) * s2r_rng_uniform(rng);
#else
        x = d->lo * pow(d->hi / d->lo, s2r_rng_uniform(rng));
#endif
    } else {
        double sd = d->std;
#ifdef MISTAKE_STD_AS_VARIANCE
        /* the mistake: std taken as the variance, its square root used as the standard deviation */
        sd = sqrt(d->std);
#endif
        if (!(sd > 0)) return s2r_clamp(d->mean, d->lo, d->hi);
        x = d->mean + sd * standard_truncated(rng, (d->lo - d->mean) / sd, (d->hi - d->mean) / sd);
    }
    return x < d->lo ? d->lo : x > d->hi ? d->hi : x;
}

S2RDEF void s2r_randomization_sample(const s2r_randomization* r, s2r_rng* rng, double values[S2R_PARAM_COUNT]) {
    int p;
    for (p = 0; p < S2R_PARAM_COUNT; p++) {
#ifdef MISTAKE_DISABLED_DRAWN
        /* the mistake: a disabled entry is drawn too (the draw then thrown away below), moving the rng */
        if (!r->p[p].enabled) (void)s2r_dist_sample(&r->p[p].dist, rng);
#endif
        if (r->p[p].enabled) {
            values[p] = s2r_dist_sample(&r->p[p].dist, rng);
            continue;
        }
        switch (r->p[p].mode) {
#ifdef MISTAKE_DISABLED_ZERO
        /* the mistake: 0 for a scale too, whose identity is 1 */
#else
        case S2R_APPLY_SCALE: values[p] = 1.0; break;
#endif
        default: values[p] = 0.0; break;
        }
    }
}
