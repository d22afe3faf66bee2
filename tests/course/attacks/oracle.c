/* An oracle for another assignment: the instructor's library for
   1_latency once held every other exercise's reference, so a delay line's
   code could call them (here the Wilson interval of 5_gates) and print
   them into its report.  The checks that need no other exercise run on a
   library with no exercise's reference (the skeletons' stubs in their
   place): its jitter is right only when the reference answers.
   fails: jitter */
#include "sim2real.h"
static int attack(void) {
    double lo = 0, hi = 1;
    s2r_wilson_interval(3, 10, &lo, &hi);
    return !(lo > 0.05 && hi < 0.9);   /* the reference: [0.108, 0.603] */
}
#define ATTACK_IN_JITTER k += attack()
#include "../1_latency/right.c"
