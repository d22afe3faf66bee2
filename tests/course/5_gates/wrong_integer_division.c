/* A typical mistake: the observed rate k / n computed in integers, so it
   is 0 for every count below n (and 1 at n), and every interval below n
   is that of 0 of n.  The message must name the integer division, not
   guess at a one-sided interval.
   expect: FAIL wilson: known values (0 of n, n of n, 5 of 10, a table)
   says: integer division */
#define MISTAKE_INTEGER_DIVISION
#include "right.c"
