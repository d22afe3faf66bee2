/* A typical mistake: only a lower bound (the one-sided 95 % Wilson bound,
   z = 1.645) with the upper bound left at 1 - "the rate is at least lo" -
   where the contract asks for the two-sided interval; it covers the true
   rate about 97 % of the time instead of 95 %.
   expect: FAIL wilson: coverage near 95 % (exact binomial sums) */
#include "sim2real.h"
#include <math.h>

S2RDEF void s2r_wilson_interval(int k, int n, double* lo, double* hi) {
    const double z = 1.645;
    double p, den, centre, half;
    *lo = 0.0;
    *hi = 1.0;
    if (n <= 0) return;
    p = (double)k / n;
    den = 1 + z * z / n;
    centre = (p + z * z / (2.0 * n)) / den;
    half = z * sqrt(p * (1 - p) / n + z * z / (4.0 * n * n)) / den;
    *lo = centre - half > 0 ? centre - half : 0;
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
