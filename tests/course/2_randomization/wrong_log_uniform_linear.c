/* A typical mistake: the log-uniform range is drawn uniformly in x, not
   in log(x), so large values are too likely (0.7-1.0 and 1.0-1.4 should
   be equally likely; here the upper part gets 57 % of the draws).
   expect: FAIL log-uniform: KS test against the exact CDF */
#define MISTAKE_LOG_UNIFORM_LINEAR
#include "right.c"
