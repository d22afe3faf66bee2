/* A subtle mistake: the truncated normal always proposes from the normal
   itself.  Exact in law, but on an interval narrow against std the normal
   lands inside once in thousands of draws: most samples run out of
   S2R_TRUNC_NORMAL_TRIES and return the peak.
   expect: FAIL truncated normal: KS test against the exact CDF */
#define MISTAKE_NORMAL_PROPOSAL_ONLY
#include "right.c"
