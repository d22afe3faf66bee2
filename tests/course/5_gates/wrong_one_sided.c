/* A typical mistake: only a lower bound (the one-sided 95 % Wilson bound,
   z = 1.645) with the upper bound left at 1 - "the rate is at least lo" -
   where the contract asks for the two-sided interval; it covers the true
   rate about 97 % of the time instead of 95 %.
   expect: FAIL wilson: coverage near 95 % (exact binomial sums) */
#define MISTAKE_ONE_SIDED
#include "right.c"
