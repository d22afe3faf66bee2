/* A typical mistake: the counts are not validated (only the config is), so
   70 successes of 60 episodes, or 0 of -5, give a large llr and PASS: a
   gate fed a corrupted log would promote the policy.
   expect: FAIL sprt: invalid counts or config give FAIL */
#define MISTAKE_PASS_ON_INVALID
#include "right.c"
