/* A typical mistake: the draws come from the C library's rand() instead
   of the generator passed in, so a seed no longer fixes an episode: two
   runs with the same seed train and evaluate on different parameters, and
   the rng's stream (the episode's noise) does not advance as it should.
   expect: FAIL the rng is the only randomness (one draw per uniform) */
#include "sim2real.h"
#include <math.h>
#include <stdlib.h>

/* u in [0, 1) from the hidden generator. */
static double hidden_uniform(void) { return rand() / ((double)RAND_MAX + 1.0); }

S2RDEF double s2r_dist_sample(const s2r_dist* d, s2r_rng* rng) {
    (void)rng;   /* wrong: never used */
    switch (d->kind) {
    case S2R_DIST_FIXED: return d->mean;
    case S2R_DIST_UNIFORM:
        if (d->lo == d->hi) return d->lo;
        return s2r_clamp(d->lo + (d->hi - d->lo) * hidden_uniform(), d->lo, d->hi);
    case S2R_DIST_LOG_UNIFORM:
        if (d->lo == d->hi) return d->lo;
        return s2r_clamp(exp(log(d->lo) + log(d->hi / d->lo) * hidden_uniform()), d->lo, d->hi);
    case S2R_DIST_TRUNC_NORMAL:
        if (d->std <= 0 || d->lo == d->hi) return s2r_clamp(d->mean, d->lo, d->hi);
        for (;;) {   /* rejection with a Box-Muller normal */
            double u1 = 1.0 - hidden_uniform(), u2 = hidden_uniform();
            double x = d->mean + d->std * sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
            if (x >= d->lo && x <= d->hi) return x;
        }
    default: return NAN;
    }
}

S2RDEF void s2r_randomization_sample(const s2r_randomization* r, s2r_rng* rng, double values[S2R_PARAM_COUNT]) {
    int p;
    for (p = 0; p < S2R_PARAM_COUNT; p++)
        values[p] = r->p[p].enabled ? s2r_dist_sample(&r->p[p].dist, rng) : r->p[p].mode == S2R_APPLY_SCALE ? 1.0 : 0.0;
}
