/* A typical mistake: the truncated normal takes std as a variance and
   draws with its square root as the standard deviation.  The message must
   name that, not clamping.
   expect: FAIL truncated normal: KS test against the exact CDF
   says: not a variance */
#define MISTAKE_STD_AS_VARIANCE
#include "right.c"
