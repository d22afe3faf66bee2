/* An attack on the time limit: the jitter ignores SIGALRM and SIGTERM and
   loops.  A grader that stops a check with alarm() or SIGTERM waits for
   the whole run's limit, and the loop outlives it.
   fails: jitter
   says: did not finish within */
#include <signal.h>
static void attack(void) {
    signal(SIGALRM, SIG_IGN);
    signal(SIGTERM, SIG_IGN);
    for (;;) {}
}
#define ATTACK_IN_JITTER attack()
#include "../1_latency/right.c"
