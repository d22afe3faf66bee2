/* A typical mistake: the search probes one step up and one step down and
   keeps the best of the three points - no bracketing, no refinement - so
   it ends a whole step from the minimum, and system identification's
   next step (twice this move) shrinks to nothing.
   expect: FAIL quadratic, minimum inside: within 4 tol of it */
#define MISTAKE_FIRST_PROBE
#include "right.c"
