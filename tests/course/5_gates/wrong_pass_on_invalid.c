/* A typical mistake: the counts are not validated (only the config is), so
   70 successes of 60 episodes, or 0 of -5, give a large llr and PASS: a
   gate fed a corrupted log would promote the policy.
   expect: FAIL sprt: invalid counts or config give FAIL */
#include "sim2real.h"
#include <math.h>

S2RDEF void s2r_wilson_interval(int k, int n, double* lo, double* hi) {
    const double z2 = 1.96 * 1.96;
    double root, den;
    if (n <= 0) {
        *lo = 0.0;
        *hi = 1.0;
        return;
    }
    root = 1.96 * sqrt(z2 + 4.0 * k * (double)(n - k) / n);
    den = 2.0 * (n + z2);
    *lo = k == 0 ? 0.0 : (2.0 * k + z2 - root) / den;
    *hi = k == n ? 1.0 : (2.0 * k + z2 + root) / den;
}

S2RDEF s2r_verdict s2r_sprt_decide(const s2r_sprt_config* c, int k, int n, double* llr) {
    double l;
    if (llr) *llr = NAN;
    if (s2r_sprt_check(c, NULL) != S2R_OK) return S2R_VERDICT_FAIL;   /* the counts are never checked */
    l = k * log(c->p1 / c->p0) + (n - k) * log((1 - c->p1) / (1 - c->p0));
    if (llr) *llr = l;
    if (l >= log((1 - c->beta) / c->alpha) - S2R_GATE_EPS) return S2R_VERDICT_PASS;
    if (l <= log(c->beta / (1 - c->alpha)) + S2R_GATE_EPS || n >= c->max_n) return S2R_VERDICT_FAIL;
    return S2R_VERDICT_CONTINUE;
}
