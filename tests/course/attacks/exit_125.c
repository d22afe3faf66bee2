/* An attack on the report: the jitter calls exit(125), the code the sandbox
   once used for its own failures (it could not start), so the report
   blamed the sandbox or the grader program and sent the instructor to
   debug them.  The sandbox now says its failures on a channel of its own;
   a student's exit status is the student's.
   fails: jitter
   says: stopped before the check ended, with exit status 125 */
#include <stdlib.h>
#define ATTACK_IN_JITTER exit(125)
#include "../1_latency/right.c"
