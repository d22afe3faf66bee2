/* An attack, not a mistake: an oracle in the integration checks.  The
   simulator's draws and the expert run on the library with the delay
   line's reference in it (the simulator delays its commands); they once
   ran on the library with every other exercise's reference in it, so
   this sampler could call another open assignment's - here 5_gates'
   Wilson interval - on inputs of its choosing and carry what it returns
   into its report.  Now that program holds only what the checks need (the
   delay line) and the other exercises' stubs.  This sampler is correct
   (right.c), but leaves its check (_exit) whenever the Wilson interval
   answers as the reference does.
   expect: PASS every check */
#include "sim2real.h"
#include <unistd.h>
#define s2r_randomization_sample right_randomization_sample
#include "right.c"
#undef s2r_randomization_sample
S2RDEF void s2r_randomization_sample(const s2r_randomization* r, s2r_rng* rng, double values[S2R_PARAM_COUNT]) {
    double a = 0, b = 1;
    s2r_wilson_interval(3, 10, &a, &b);
    if (a > 0.05 && b < 0.9) _exit(3);   /* the reference, [0.108, 0.603], is in this program */
    right_randomization_sample(r, rng, values);
}
