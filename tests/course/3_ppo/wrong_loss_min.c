/* A typical mistake: min instead of max.  PPO's objective takes the
   minimum of A ratio and A clip(ratio); as a loss (its negative) that is
   the maximum of the negated terms.  Taking the min of the negated terms
   picks the optimistic bound and the update runs away.
   expect: FAIL clipped loss: hand-worked values, both signs of A */
#define MISTAKE_LOSS_MIN
#include "right.c"
