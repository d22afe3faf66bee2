/* A typical mistake: strict comparisons with the boundaries (llr > upper,
   llr < lower) where the contract says "once llr >= log((1 - beta) /
   alpha)" and "once llr <= log(beta / (1 - alpha))": a count whose llr
   lands exactly on a boundary is left undecided.
   expect: FAIL sprt: a crossing exactly on a boundary decides */
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
    if (s2r_sprt_check(c, NULL) != S2R_OK || n < 0 || k < 0 || k > n) return S2R_VERDICT_FAIL;
    l = k * log(c->p1 / c->p0) + (n - k) * log((1 - c->p1) / (1 - c->p0));
    if (llr) *llr = l;
    if (l > log((1 - c->beta) / c->alpha)) return S2R_VERDICT_PASS;
    if (l < log(c->beta / (1 - c->alpha)) || n >= c->max_n) return S2R_VERDICT_FAIL;
    return S2R_VERDICT_CONTINUE;
}
