/* A typical mistake: the truncated normal clamps a normal draw to
   [lo, hi] instead of drawing again, so the mass outside the interval
   piles up on the bounds (with the mean at lo, half of all draws are lo).
   expect: FAIL truncated normal: KS test against the exact CDF */
#include "sim2real.h"
#include <math.h>

S2RDEF double s2r_dist_sample(const s2r_dist* d, s2r_rng* rng) {
    switch (d->kind) {
    case S2R_DIST_FIXED: return d->mean;
    case S2R_DIST_UNIFORM:
        if (d->lo == d->hi) return d->lo;
        return s2r_clamp(d->lo + (d->hi - d->lo) * s2r_rng_uniform(rng), d->lo, d->hi);
    case S2R_DIST_LOG_UNIFORM:
        if (d->lo == d->hi) return d->lo;
        return s2r_clamp(exp(log(d->lo) + log(d->hi / d->lo) * s2r_rng_uniform(rng)), d->lo, d->hi);
    case S2R_DIST_TRUNC_NORMAL:
        if (d->std <= 0 || d->lo == d->hi) return s2r_clamp(d->mean, d->lo, d->hi);
        return s2r_clamp(d->mean + d->std * s2r_rng_normal(rng), d->lo, d->hi);   /* wrong: clamped, not truncated */
    default: return NAN;
    }
}

S2RDEF void s2r_randomization_sample(const s2r_randomization* r, s2r_rng* rng, double values[S2R_PARAM_COUNT]) {
    int p;
    for (p = 0; p < S2R_PARAM_COUNT; p++)
        values[p] = r->p[p].enabled ? s2r_dist_sample(&r->p[p].dist, rng) : r->p[p].mode == S2R_APPLY_SCALE ? 1.0 : 0.0;
}
