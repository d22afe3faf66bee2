/* A typical mistake: every ended episode bootstraps with 0, as if it had
   terminated - a time-limit truncation must bootstrap with end_value,
   V(final obs), or the agent learns that the clock running out is a
   catastrophe.
   expect: FAIL GAE: an ended episode bootstraps from end_value */
#include "sim2real.h"
#include <math.h>

S2RDEF void s2r_gae(int T, int N, const float* rewards, const float* values,
                    const unsigned char* done, const float* end_value,
                    const float* last_value, float gamma, float lambda,
                    float* advantages, float* returns) {
    int t, n;
    (void)end_value;   /* the mistake: never used */
    for (n = 0; n < N; n++) {
        float adv = 0.0f;
        for (t = T - 1; t >= 0; t--) {
            int k = t * N + n;
            float v_next;
            if (done[k]) { v_next = 0.0f; adv = 0.0f; }
            else v_next = t == T - 1 ? last_value[n] : values[k + N];
            adv = rewards[k] + gamma * v_next - values[k] + gamma * lambda * adv;
            advantages[k] = adv;
            returns[k] = adv + values[k];
        }
    }
}

S2RDEF double s2r_ppo_clipped_loss(double logratio, double advantage, double clip, double* dloss_dlogp) {
    double ratio = exp(logratio);
    double lo = 1.0 - clip, hi = 1.0 + clip;
    double clipped = ratio < lo ? lo : (ratio > hi ? hi : ratio);
    double a = -advantage * ratio, b = -advantage * clipped;
    *dloss_dlogp = a >= b ? -advantage * ratio : 0.0;
    return a > b ? a : b;
}
