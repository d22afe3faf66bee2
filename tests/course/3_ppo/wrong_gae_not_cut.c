/* A typical mistake: the advantage chain is not cut where an episode
   ends - the next episode's advantages leak into the last steps of this
   one (the bootstrap value itself is right).
   expect: FAIL GAE: an episode ending mid-rollout cuts the chain */
#define MISTAKE_GAE_NOT_CUT
#include "right.c"
