/* course/3_ppo/ppo.c - assignment 3: PPO's advantages and clipped objective.

   Write the two functions below; their contracts are the comments above
   their declarations in sim2real.h (search "--- GAE" and
   "s2r_ppo_clipped_loss").  s2r_ppo calls them once per rollout (GAE)
   and once per sample and minibatch (the loss), so once they pass the
   grader, every policy the library trains learns through your code.

   Grade:   sh course/grade.sh 3_ppo course/3_ppo/ppo.c
   Use it:  compile the library with -DS2R_EXERCISE_PPO and link this
            file (course/3_ppo/README.md shows the line). */
#include "sim2real.h"
#include <math.h>

/* >> stub begin */
/* TODO(course 3_ppo): replace both bodies below with yours.  Until then
   every advantage is 0 (and every return 0) and the clipped loss is 0
   with derivative 0, so PPO runs but its policy never learns anything. */

/* Advantages and returns of a step-major [T][N] rollout (see the
   contract in sim2real.h). */
S2RDEF void s2r_gae(int T, int N,
                    const float* rewards, const float* values, const unsigned char* done,
                    const float* end_value, const float* last_value,
                    float gamma, float lambda, float* advantages, float* returns) {
    int k;
    (void)rewards; (void)values; (void)done; (void)end_value; (void)last_value; (void)gamma; (void)lambda;
    for (k = 0; k < T * N; k++) advantages[k] = returns[k] = 0.0f;   /* wrong: nothing estimated */
}

/* The clipped surrogate loss of one sample and its derivative with
   respect to log pi_new (see the contract in sim2real.h). */
S2RDEF double s2r_ppo_clipped_loss(double logratio, double advantage, double clip,
                                   double* dloss_dlogp) {
    (void)logratio; (void)advantage; (void)clip;
    *dloss_dlogp = 0.0;   /* wrong: no gradient, the policy never moves */
    return 0.0;
}
/* >> stub end */
