/* A typical mistake: a probe is taken when it is "no worse" (<=) instead
   of strictly lower, so on a flat loss - a parameter the data cannot
   see - the search wanders off to a bound instead of staying at t0.
   expect: FAIL flat loss: t stays t0, f0 kept; a slight tilt is followed */
#define MISTAKE_ACCEPTS_TIES
#include "right.c"
