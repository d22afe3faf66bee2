/* An attack on the report: the jitter calls exit(127), the code the sandbox
   once used for its own failures (the program not started), so the report
   blamed the sandbox or the grader program and sent the instructor to
   debug them.  The sandbox now says its failures on a channel of its own;
   a student's exit status is the student's.
   fails: jitter
   says: stopped before the check ended, with exit status 127 */
#include <stdlib.h>
#define ATTACK_IN_JITTER exit(127)
#include "../1_latency/right.c"
