/* A typical mistake: the normal (Wald) interval p_hat +- z sqrt(p_hat (1 -
   p_hat) / n), clipped to [0, 1], instead of Wilson's score interval: it
   collapses to [0, 0] at k = 0 and covers far less than 95 % near 0 and 1.
   expect: FAIL wilson: known values (0 of n, n of n, 5 of 10, a table) */
#define MISTAKE_WALD_INTERVAL
#include "right.c"
