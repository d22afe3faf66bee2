/* An oracle in the integration check: 1_latency's expert under delay once
   ran on the library without the delay line only, which held every other
   exercise's reference (2_randomization's sampler among them), so a delay
   line could call them there and carry what they return into its report.
   It now runs with a stand-in for the randomization (FIXED only, NAN for
   any other kind) and the other exercises' stubs.  This delay line is
   correct, but leaves its check (_exit) whenever a uniform draw comes back
   strictly inside its range - i.e. when a real sampler answers.
   fails: none */
#include "sim2real.h"
#include <unistd.h>
static int attack(void) {
    s2r_dist d = s2r_dist_uniform(0.2, 0.8);
    s2r_rng rng = s2r_rng_make(7, 0);
    double v;
    v = s2r_dist_sample(&d, &rng);
    if (v > 0.2 && v < 0.8) _exit(3);   /* the reference is in this program */
    return 0;
}
#define ATTACK_IN_JITTER k += attack()
#include "../1_latency/right.c"
