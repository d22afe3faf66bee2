/* A subtler fixed count: 25 golden-section steps, whatever tol, which
   reach every tol down to 1e-6 of the bounds the smooth losses ask for,
   but not a tol of 1e-9.
   expect: FAIL non-smooth loss |t - c|: within 4 tol of the kink, tol down to 1e-9 */
#define MISTAKE_FIXED_ITERATIONS
#define MISTAKE_STEPS 25
#include "right.c"
