/* A typical mistake: the buffers read env-major, [N][T] (env n's steps
   side by side), when the rollout is step-major [T][N] (row t holds every
   env's step t).  With one environment the two are the same.
   expect: FAIL GAE: N environments, step-major [T][N] */
#define MISTAKE_GAE_ENV_MAJOR
#include "right.c"
