/* An attack on the process table: the jitter forks without end, every
   child forking too.  Without RLIMIT_NPROC it fills the machine's process
   table; without a process group or namespace killed at the limit the
   forks outlive the check.
   fails: jitter
   says: did not finish within */
#include <unistd.h>
static void attack(void) {
    for (;;) fork();
}
#define ATTACK_IN_JITTER attack()
#include "../1_latency/right.c"
