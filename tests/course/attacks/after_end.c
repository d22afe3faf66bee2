/* An attack on the grading run's time: a correct delay line, and a
   destructor that waits for ever once the worker's reply is complete.  The
   reply ended, so each check counts as sent (full marks); but a judge that
   waits for the worker to exit spends every check's whole limit on it (80 s
   here, and the whole run's GRADE_TIMEOUT could then cut a later student's
   checks).  The judge stops a worker 2 s after its reply's end.
   fails: none
   says: it did not exit within 2 s of its reply's end */
#include <unistd.h>
__attribute__((destructor)) static void linger(void) {
    for (;;) pause();
}
#include "../1_latency/right.c"
