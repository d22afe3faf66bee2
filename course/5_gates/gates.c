/* course/5_gates/gates.c - assignment 5: the statistics behind the gates.

   Write the two functions below; their contracts are the comments above
   their declarations in sim2real.h (search "s2r_wilson_interval" and
   "Deployment (5/7): the gates"; the overview "Deployment (1/7)" says how
   the gates use them):

     s2r_wilson_interval  the Wilson score interval at 95 % (z = 1.96) of k
                          successes in n trials;
     s2r_sprt_decide      Wald's sequential probability ratio test on k
                          successes in n episodes: PASS, FAIL or CONTINUE,
                          truncated (FAIL) at max_n, the log-likelihood
                          ratio into *llr, FAIL on invalid input.

   This file is compiled on its own, against the header's declarations:
   the header's static helpers are not visible here, but its public
   functions and macros are (s2r_sprt_check validates a config,
   S2R_GATE_EPS is the tolerance of rate comparisons).  The tethered and
   constrained deployment gates, the canary and every success-rate
   interval the library reports run on your two functions once they pass
   the grader.

   Grade:   sh course/grade.sh 5_gates course/5_gates/gates.c
   Use it:  compile the library with -DS2R_EXERCISE_GATES and link this
            file (course/5_gates/README.md shows the line). */
#include "sim2real.h"
#include <math.h>

/* >> stub begin */
/* TODO(course 5_gates): replace both bodies below with yours.  Until then
   every interval is the uninformative [0, 1] and every sequential gate
   fails at its first episode (s2r_sprt_decide always says FAIL), so a
   deployment built on this copy of the library never gets past the
   tethered stage. */
S2RDEF void s2r_wilson_interval(int k, int n, double* lo, double* hi) {
    (void)k; (void)n;
    *lo = 0;   /* wrong for n > 0: the interval says nothing */
    *hi = 1;
}

S2RDEF s2r_verdict s2r_sprt_decide(const s2r_sprt_config* c, int k, int n, double* llr) {
    (void)c; (void)k; (void)n;
    if (llr) *llr = NAN;
    return S2R_VERDICT_FAIL;   /* wrong: never passes, never asks for more */
}
/* >> stub end */
