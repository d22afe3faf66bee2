/* course/2_randomization/randomization.c - assignment 2: drawing the
   simulator's parameters.

   Write the two functions below; their contracts are the comments above
   their declarations in sim2real.h (search "Randomization (1/3): scalar
   distributions" for s2r_dist_sample, and "Draw one episode" for
   s2r_randomization_sample; the table of apply modes is in "Randomization
   (2/3)").  The randomized simulator draws every episode's friction,
   masses, gains, latencies and noise levels through them, so once they
   pass the grader, every example trains and evaluates on your draws.

   Use only the library's public functions (s2r_rng_uniform,
   s2r_rng_normal, s2r_clamp, ...): this file is compiled on its own, so
   the header's static helpers are not visible here, and the rng passed in
   is the only source of random numbers you may use.

   Grade:   sh course/grade.sh 2_randomization course/2_randomization/randomization.c
   Use it:  compile the library with -DS2R_EXERCISE_RANDOMIZATION and link
            this file (course/2_randomization/README.md shows the lines). */
#include "sim2real.h"
#include <math.h>

/* >> stub begin */
/* TODO(course 2_randomization): replace both bodies below with yours.
   Until then nothing is random: every draw is the distribution's lower
   bound (lo, even for FIXED), no random number is used, and an episode's
   table draw leaves every parameter at its mode's identity (1 for scale, 0
   otherwise) - a randomized simulator built on this copy runs the nominal
   arm with the other joints at the low end of their ranges. */
S2RDEF double s2r_dist_sample(const s2r_dist* d, s2r_rng* rng) {
    (void)rng;
    return d->lo;   /* wrong: always the lower bound, never random */
}

S2RDEF void s2r_randomization_sample(const s2r_randomization* r, s2r_rng* rng,
                                     double values[S2R_PARAM_COUNT]) {
    int p;
    (void)rng;
    for (p = 0; p < S2R_PARAM_COUNT; p++)   /* wrong: enabled entries are not drawn */
        values[p] = r->p[p].mode == S2R_APPLY_SCALE ? 1.0 : 0.0;
}
/* >> stub end */
