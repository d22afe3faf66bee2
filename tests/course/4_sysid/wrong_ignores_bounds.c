/* A typical mistake: the probes are not clamped into [lo, hi] - the first
   step and the growing steps of the bracket go past a bound, so the loss
   is asked for (and the result may lie) outside the search box, e.g. a
   negative payload.
   expect: FAIL minimum at or beyond a bound: the bound, no call outside */
#define MISTAKE_IGNORES_BOUNDS
#include "right.c"
