/* A typical mistake: the normal (Wald) interval p_hat +- z sqrt(p_hat (1 -
   p_hat) / n), clipped to [0, 1], instead of Wilson's score interval: it
   collapses to [0, 0] at k = 0 and covers far less than 95 % near 0 and 1.
   expect: FAIL wilson: known values (0 of n, n of n, 5 of 10, a table) */
#include "sim2real.h"
#include <math.h>

S2RDEF void s2r_wilson_interval(int k, int n, double* lo, double* hi) {
    double p, half;
    if (n <= 0) {
        *lo = 0.0;
        *hi = 1.0;
        return;
    }
    p = (double)k / n;
    half = 1.96 * sqrt(p * (1 - p) / n);
    *lo = p - half < 0 ? 0 : p - half;
    *hi = p + half > 1 ? 1 : p + half;
}

/* log P(k successes in a given order of n | p), without the binomial
   coefficient (it cancels in the ratio). */
static double loglik(double p, int k, int n) { return k * log(p) + (n - k) * log1p(-p); }

S2RDEF s2r_verdict s2r_sprt_decide(const s2r_sprt_config* c, int k, int n, double* llr) {
    double l;
    int valid = c != NULL && c->p0 > 0 && c->p1 > c->p0 && c->p1 < 1 && c->alpha > 0 && c->alpha < 0.5 &&
                c->beta > 0 && c->beta < 0.5 && c->max_n >= 1 && n >= 0 && k >= 0 && k <= n;
    if (!valid) {
        if (llr) *llr = NAN;
        return S2R_VERDICT_FAIL;
    }
    l = loglik(c->p1, k, n) - loglik(c->p0, k, n);
    if (llr) *llr = l;
    if (l + S2R_GATE_EPS >= log(1 - c->beta) - log(c->alpha)) return S2R_VERDICT_PASS;   /* H1 accepted */
    if (l - S2R_GATE_EPS <= log(c->beta) - log(1 - c->alpha)) return S2R_VERDICT_FAIL;   /* H0 accepted */
    return n < c->max_n ? S2R_VERDICT_CONTINUE : S2R_VERDICT_FAIL;                        /* truncated   */
}
