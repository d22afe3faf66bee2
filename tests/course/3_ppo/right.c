/* A correct implementation written apart from the reference: GAE in
   double precision, one environment's column at a time, with the
   "next-step-is-not-terminal" mask of CleanRL's loop written out; the
   clipped loss decided by the advantage's sign instead of comparing the
   two terms.  The grader must accept it. */
#include "sim2real.h"
#include <math.h>

S2RDEF void s2r_gae(int T, int N, const float* rewards, const float* values,
                    const unsigned char* done, const float* end_value,
                    const float* last_value, float gamma, float lambda,
                    float* advantages, float* returns) {
    int n, t;
    for (n = 0; n < N; n++) {
        double running = 0.0;   /* A_{t+1} of the same episode, 0 past its end */
        for (t = T - 1; t >= 0; t--) {
            size_t k = (size_t)t * (size_t)N + (size_t)n;
            double keep = done[k] ? 0.0 : 1.0;
            double v_next;
            if (done[k]) v_next = end_value[k];
            else if (t + 1 < T) v_next = values[k + (size_t)N];
            else v_next = last_value[n];
            running = (double)rewards[k] + (double)gamma * v_next - (double)values[k]
                      + (double)gamma * (double)lambda * keep * running;
            advantages[k] = (float)running;
            returns[k] = (float)(running + (double)values[k]);
        }
    }
}

S2RDEF double s2r_ppo_clipped_loss(double logratio, double advantage, double clip, double* dloss_dlogp) {
    double r = exp(logratio);
    if (advantage >= 0.0) {
        /* the clipped term wins only above 1 + clip */
        if (r > 1.0 + clip && advantage > 0.0) {
            *dloss_dlogp = 0.0;
            return -advantage * (1.0 + clip);
        }
        *dloss_dlogp = -advantage * r;
        return -advantage * r;   /* below 1 - clip too: there -A r is the larger */
    }
    /* A < 0: the clipped term wins only below 1 - clip */
    if (r < 1.0 - clip) {
        *dloss_dlogp = 0.0;
        return -advantage * (1.0 - clip);
    }
    *dloss_dlogp = -advantage * r;
    return -advantage * r;
}
