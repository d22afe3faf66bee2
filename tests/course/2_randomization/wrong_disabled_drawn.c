/* A typical mistake: every entry is drawn, and a disabled one's draw is
   then thrown away for its identity.  The values look right, but each
   disabled entry with a range still takes numbers from the generator, so
   every later parameter (and the episode's noise) differs from what the
   same seed gives with that entry truly off.
   expect: FAIL table: enabled entries drawn, disabled at identity */
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
        for (;;) {   /* rejection: draw again until inside */
            double x = d->mean + d->std * s2r_rng_normal(rng);
            if (x >= d->lo && x <= d->hi) return x;
        }
    default: return NAN;
    }
}


S2RDEF void s2r_randomization_sample(const s2r_randomization* r, s2r_rng* rng, double values[S2R_PARAM_COUNT]) {
    int p;
    for (p = 0; p < S2R_PARAM_COUNT; p++) {
        double x = s2r_dist_sample(&r->p[p].dist, rng);   /* wrong: drawn even when disabled */
        values[p] = r->p[p].enabled ? x : r->p[p].mode == S2R_APPLY_SCALE ? 1.0 : 0.0;
    }
}
