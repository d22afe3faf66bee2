/* A typical mistake: the log-uniform range is drawn uniformly in x, not
   in log(x), so large values are too likely (0.7-1.0 and 1.0-1.4 should
   be equally likely; here the upper part gets 57 % of the draws).
   expect: FAIL log-uniform: KS test against the exact CDF */
#include "sim2real.h"
#include <math.h>

/* z ~ N(0, 1) on [a, b] by rejection from the normal (a <= 0 <= b wide)
   or from a uniform proposal. */
static double std_trunc(s2r_rng* rng, double a, double b) {
    double z0 = a > 0 ? a : b < 0 ? b : 0;
    int i;
    for (i = 0; i < S2R_TRUNC_NORMAL_TRIES; i++) {
        double z = a + (b - a) * s2r_rng_uniform(rng);
        if (s2r_rng_uniform(rng) < exp(0.5 * (z0 * z0 - z * z))) return z;
    }
    return z0;
}

S2RDEF double s2r_dist_sample(const s2r_dist* d, s2r_rng* rng) {
    switch (d->kind) {
    case S2R_DIST_FIXED: return d->mean;
    case S2R_DIST_UNIFORM:
    case S2R_DIST_LOG_UNIFORM:   /* wrong: log-uniform handled as uniform */
        if (d->lo == d->hi) return d->lo;
        return s2r_clamp(d->lo + (d->hi - d->lo) * s2r_rng_uniform(rng), d->lo, d->hi);
    case S2R_DIST_TRUNC_NORMAL:
        if (d->std <= 0 || d->lo == d->hi) return s2r_clamp(d->mean, d->lo, d->hi);
        return s2r_clamp(d->mean + d->std * std_trunc(rng, (d->lo - d->mean) / d->std, (d->hi - d->mean) / d->std), d->lo, d->hi);
    default: return NAN;
    }
}

S2RDEF void s2r_randomization_sample(const s2r_randomization* r, s2r_rng* rng, double values[S2R_PARAM_COUNT]) {
    int p;
    for (p = 0; p < S2R_PARAM_COUNT; p++)
        values[p] = r->p[p].enabled ? s2r_dist_sample(&r->p[p].dist, rng) : r->p[p].mode == S2R_APPLY_SCALE ? 1.0 : 0.0;
}
