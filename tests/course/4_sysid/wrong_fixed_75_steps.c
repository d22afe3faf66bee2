/* A fixed count large enough for every tol: 75 golden-section steps,
   whatever tol - precise at tol 1e-9, within the 100 calls at tol 1e-4,
   but it never looks at tol: at a coarse one it spends them all.
   expect: FAIL non-smooth loss |t - c|: within 4 tol of the kink, tol 1e-9 to 1e-2 */
#define MISTAKE_FIXED_ITERATIONS
#define MISTAKE_STEPS 75
#include "right.c"
