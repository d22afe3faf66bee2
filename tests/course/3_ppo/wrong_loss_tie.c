/* A typical mistake: the tie rule.  Where the two terms are equal - all
   through the clip range, where clamp(ratio) = ratio, and exactly at its
   edges - the contract takes the unclipped branch's derivative, -A ratio;
   this one gives 0 there, so the policy gets no gradient at all.
   expect: FAIL clipped loss: the tie rule (ratio 1, 1 - clip, 1 + clip) */
#define MISTAKE_LOSS_TIE
#include "right.c"
