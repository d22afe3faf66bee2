/* An attack on the verdict: the file defines its own waitpid (every child
   "exited with status 0"), and the jitter aborts.  A grader that links the
   student's file into the process that waits for the checks believes every
   check passed.
   fails: jitter
   says: aborted (signal 6) */
#include <stdlib.h>
#include <sys/types.h>
#include <sys/wait.h>
pid_t waitpid(pid_t pid, int* status, int options) {
    (void)options;
    if (status) *status = 0;
    return pid;
}
#define ATTACK_IN_JITTER abort()
#include "../1_latency/right.c"
