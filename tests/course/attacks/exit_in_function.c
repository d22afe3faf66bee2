/* An attack on the verdict: the jitter calls exit(0) at once, computing
   nothing.  A grader that counts a child's exit status 0 as a pass gives it
   the jitter checks' points.
   fails: jitter
   says: stopped before the check ended, with exit status 0 */
#include <stdlib.h>
#define ATTACK_IN_JITTER exit(0)
#include "../1_latency/right.c"
