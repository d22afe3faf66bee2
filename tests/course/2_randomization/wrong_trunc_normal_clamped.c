/* A typical mistake: the truncated normal clamps a normal draw to
   [lo, hi] instead of drawing again, so the mass outside the interval
   piles up on the bounds (with the mean at lo, half of all draws are lo).
   expect: FAIL truncated normal: KS test against the exact CDF
   says: clamped, not drawn again */
#define MISTAKE_TRUNC_NORMAL_CLAMPED
#include "right.c"
