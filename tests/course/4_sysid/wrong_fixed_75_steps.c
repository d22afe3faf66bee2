/* A fixed count large enough for every tol: 75 golden-section steps,
   whatever tol - precise at tol 1e-9, within the 100 calls at tol 1e-4,
   but it never looks at tol: at a coarse one it spends them all.
   expect: FAIL a coarse tol, few calls: at most 30 at tol 1e-2 of the bounds */
#define MISTAKE_FIXED_ITERATIONS
#define MISTAKE_STEPS 75
#include "right.c"
