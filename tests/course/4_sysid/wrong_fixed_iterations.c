/* A typical mistake: the golden section runs a fixed number of steps
   (12) instead of until the bracket is a few tol wide, so the precision
   asked for by tol is never reached when tol is small.
   expect: FAIL precision: smooth losses, tol 1e-2 .. 1e-6 of the bounds */
#define MISTAKE_FIXED_ITERATIONS
#include "right.c"
