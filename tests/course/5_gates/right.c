/* A correct implementation written apart from the reference: the Wilson
   bounds from the closed form (2k + z^2 -+ z sqrt(z^2 + 4k(n - k)/n)) /
   (2(n + z^2)), and the SPRT with its own validation and the
   log-likelihood ratio as the difference of two log-likelihoods (log1p for
   the failures).  It must pass every check of course/5_gates. */
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
