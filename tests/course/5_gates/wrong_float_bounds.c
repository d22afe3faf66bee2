/* A typical mistake: the interval's bounds held in float on their way out
   (right to about 7 digits).  Printed to 9 digits the numbers look nearly
   the same, so the message must say where to look.
   expect: FAIL wilson: known values (0 of n, n of n, 5 of 10, a table)
   says: is a value held in float? */
#define MISTAKE_FLOAT_BOUNDS
#include "right.c"
