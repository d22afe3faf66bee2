/* An attack, not a mistake: an oracle in the integration checks.  The
   identifications run on the library with the delay line's reference in
   it (the simulator delays its commands); they once ran on the library
   with every other exercise's reference in it, so this search could call
   another open assignment's - here 5_gates' Wilson interval - on inputs
   of its choosing and carry what it returns into its report.  Now that
   program holds only what the checks need (the delay line) and the other
   exercises' stubs.  This search is correct (right.c), but leaves its
   check (_exit) whenever the Wilson interval answers as the reference
   does.
   expect: PASS every check */
#include "sim2real.h"
#include <unistd.h>
#define s2r_line_minimize right_line_minimize
#include "right.c"
#undef s2r_line_minimize
S2RDEF double s2r_line_minimize(s2r_line_loss loss, void* context, double lo, double hi, double t0, double f0,
                                double step, double tol, double* f_min) {
    double a = 0, b = 1;
    s2r_wilson_interval(3, 10, &a, &b);
    if (a > 0.05 && b < 0.9) _exit(3);   /* the reference, [0.108, 0.603], is in this program */
    return right_line_minimize(loss, context, lo, hi, t0, f0, step, tol, f_min);
}
