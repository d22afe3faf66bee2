/* A typical mistake: the golden section stops when a probe is no lower
   than where the section started, not when the bracket is a few tol wide:
   near the minimum every probe is lower, and once the bracket has shrunk
   to a point the same probe comes back for ever.  The grader says so at
   once (the search asked for the loss thousands of times without a better
   point), not after each check's time limit.
   expect: FAIL quadratic, minimum inside: within 4 tol of it
   says: not narrowing and would never return */
#define MISTAKE_BEST_VS_F0
#include "right.c"
