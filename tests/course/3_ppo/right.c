/* A correct implementation written apart from the reference: GAE in
   double precision, one environment's column at a time, with the
   "next-step-is-not-terminal" mask of CleanRL's loop written out; the
   clipped loss decided by the advantage's sign instead of comparing the
   two terms.  The grader must accept it.  The typical mistakes of
   tests/course/3_ppo/wrong_*.c each switch on a wrong variant here
   (#ifdef MISTAKE_...). */
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
#ifdef MISTAKE_GAE_ENV_MAJOR
            /* the mistake: env-major [N][T] indexing, env n's steps side by side (the next step at k + 1) */
            size_t k = (size_t)n * (size_t)T + (size_t)t, next = k + 1;
#else
            size_t k = (size_t)t * (size_t)N + (size_t)n, next = k + (size_t)N;   /* step-major [T][N] */
#endif
#ifdef MISTAKE_GAE_NOT_CUT
            double keep = 1.0;   /* the mistake: the chain goes on past an episode's end */
#else
            double keep = done[k] ? 0.0 : 1.0;
#endif
            double v_next;
#if defined(MISTAKE_GAE_NEXT_VALUES)
            /* the mistake: an ended episode bootstraps from values[t+1] (the next episode's reset), not end_value */
            if (done[k]) v_next = t + 1 < T ? values[next] : last_value[n];
#elif defined(MISTAKE_GAE_ZERO_BOOTSTRAP)
            /* the mistake: every ended episode bootstraps with 0, as if terminated, a truncation too */
            if (done[k]) v_next = 0.0;
#else
            if (done[k]) v_next = end_value[k];
#endif
            else if (t + 1 < T) v_next = values[next];
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
    /* the clipped term -A clamp(r) is the larger only past one edge: above
       1 + clip for A > 0, below 1 - clip for A < 0 (never for A = 0) */
#ifdef MISTAKE_LOSS_MIN
    /* the mistake (min for max): each sign clipped past the other edge, where the clipped term is the smaller */
    int clipped = advantage > 0.0 ? r < 1.0 - clip : advantage < 0.0 && r > 1.0 + clip;
    double edge = advantage > 0.0 ? 1.0 - clip : 1.0 + clip;
#else
    int clipped = advantage > 0.0 ? r > 1.0 + clip : advantage < 0.0 && r < 1.0 - clip;
    double edge = advantage > 0.0 ? 1.0 + clip : 1.0 - clip;
#endif
    if (clipped) {
#ifdef MISTAKE_LOSS_GRAD_UNCLIPPED
        *dloss_dlogp = -advantage * r;   /* the mistake: -A r here too, where the loss is flat */
#else
        *dloss_dlogp = 0.0;   /* the loss is flat in r there */
#endif
        return -advantage * edge;
    }
#ifdef MISTAKE_LOSS_TIE
    /* the mistake: derivative 0 where the two terms are equal (r in [1 - clip, 1 + clip], edges included) */
    if (r >= 1.0 - clip && r <= 1.0 + clip) {
        *dloss_dlogp = 0.0;
        return -advantage * r;
    }
#endif
    *dloss_dlogp = -advantage * r;   /* -A r is the larger term, or the two are equal (the tie rule) */
    return -advantage * r;
}
