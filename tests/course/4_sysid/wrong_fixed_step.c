/* A typical mistake: the bracket is found by walking in steps of the
   first step's size instead of growing them, so a small first step far
   from the minimum costs hundreds of loss calls (each one a whole replay
   of the robot's trajectories in system identification).
   expect: FAIL loss calls: at most 100 per search at tol 1e-4 */
#define MISTAKE_FIXED_STEP
#include "right.c"
