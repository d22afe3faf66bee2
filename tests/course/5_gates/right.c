/* A correct implementation written apart from the reference: the Wilson
   bounds from the closed form (2k + z^2 -+ z sqrt(z^2 + 4k(n - k)/n)) /
   (2(n + z^2)), and the SPRT with its own validation and the
   log-likelihood ratio as the difference of two log-likelihoods (log1p for
   the failures).  It must pass every check of course/5_gates.  The typical
   mistakes of tests/course/5_gates/wrong_*.c each switch on a wrong
   variant here (#ifdef MISTAKE_...). */
#include "sim2real.h"
#include <math.h>

S2RDEF void s2r_wilson_interval(int k, int n, double* lo, double* hi) {
#ifdef MISTAKE_ONE_SIDED
    const double z = 1.645;   /* the mistake: the one-sided 95 % bound's z (its upper bound is left at 1 below) */
#else
    const double z = 1.96;    /* two-sided 95 % */
#endif
    const double z2 = z * z;
    double root, den;
    if (n <= 0) {
        *lo = 0.0;
        *hi = 1.0;
        return;
    }
#ifdef MISTAKE_INTEGER_DIVISION
    /* the mistake: p_hat = k / n in integers (0 for every k below n), then Wilson's centre and half-width */
    {
        double p = k / n, den = 1 + z2 / n, centre = (p + z2 / (2.0 * n)) / den;
        double half = z * sqrt(p * (1 - p) / n + z2 / (4.0 * n * n)) / den;
        *lo = centre - half < 0 ? 0 : centre - half;
        *hi = centre + half > 1 ? 1 : centre + half;
        return;
    }
#endif
#ifdef MISTAKE_WALD_INTERVAL
    /* the mistake: the normal (Wald) interval p_hat +- z sqrt(p_hat (1 - p_hat) / n), clipped to [0, 1] */
    {
        double p = (double)k / n, half = z * sqrt(p * (1 - p) / n);
        *lo = p - half < 0 ? 0 : p - half;
        *hi = p + half > 1 ? 1 : p + half;
        return;
    }
#endif
    root = z * sqrt(z2 + 4.0 * k * (double)(n - k) / n);
    den = 2.0 * (n + z2);
    *lo = k == 0 ? 0.0 : (2.0 * k + z2 - root) / den;
#ifdef MISTAKE_ONE_SIDED
    *hi = 1.0;   /* the mistake: only a lower bound, "the rate is at least lo" */
#else
    *hi = k == n ? 1.0 : (2.0 * k + z2 + root) / den;
#endif
#ifdef MISTAKE_FLOAT_BOUNDS
    *lo = (float)*lo;   /* the mistake: the bounds kept in float (about 7 digits) on their way out */
    *hi = (float)*hi;
#endif
}

/* log P(k successes in a given order of n | p), without the binomial
   coefficient (it cancels in the ratio). */
static double loglik(double p, int k, int n) { return k * log(p) + (n - k) * log1p(-p); }

S2RDEF s2r_verdict s2r_sprt_decide(const s2r_sprt_config* c, int k, int n, double* llr) {
    double l;
    int valid = c != NULL && c->p0 > 0 && c->p1 > c->p0 && c->p1 < 1 && c->alpha > 0 && c->alpha < 0.5 &&
                c->beta > 0 && c->beta < 0.5 && c->max_n >= 1;
#ifdef MISTAKE_PASS_ON_INVALID
    /* the mistake: only the config is validated, never the counts */
#else
    valid = valid && n >= 0 && k >= 0 && k <= n;
#endif
    if (!valid) {
#ifdef MISTAKE_LLR_NOT_NAN
        /* the mistake: FAIL on invalid input, but llr left as it was */
#else
        if (llr) *llr = NAN;
#endif
        return S2R_VERDICT_FAIL;
    }
    l = loglik(c->p1, k, n) - loglik(c->p0, k, n);
    if (llr) *llr = l;
#ifdef MISTAKE_SWAPPED_BOUNDARIES
    /* the mistake: alpha and beta exchanged in the boundaries (PASS at log((1 - alpha) / beta), FAIL at
       log(alpha / (1 - beta))) */
    s2r_sprt_config swapped = *c;
    swapped.alpha = c->beta;
    swapped.beta = c->alpha;
    c = &swapped;
#endif
#ifdef MISTAKE_NO_TOLERANCE
    /* the mistake: >= and <= as written, without S2R_GATE_EPS, on the llr summed per term: on a boundary
       in exact arithmetic it rounds an ulp inside, and the test goes on */
    l = k * (log(c->p1) - log(c->p0)) + (n - k) * (log1p(-c->p1) - log1p(-c->p0));
    if (l >= log((1 - c->beta) / c->alpha)) return S2R_VERDICT_PASS;
    if (l <= log(c->beta / (1 - c->alpha))) return S2R_VERDICT_FAIL;
#elif defined(MISTAKE_STRICT_INEQUALITY)
    /* the mistake: strict comparisons (no tolerance), so an llr exactly on a boundary is left undecided */
    if (l > log(1 - c->beta) - log(c->alpha)) return S2R_VERDICT_PASS;
    if (l < log(c->beta) - log(1 - c->alpha)) return S2R_VERDICT_FAIL;
#else
    if (l + S2R_GATE_EPS >= log(1 - c->beta) - log(c->alpha)) return S2R_VERDICT_PASS;   /* H1 accepted */
    if (l - S2R_GATE_EPS <= log(c->beta) - log(1 - c->alpha)) return S2R_VERDICT_FAIL;   /* H0 accepted */
#endif
#ifdef MISTAKE_NO_TRUNCATION
    return S2R_VERDICT_CONTINUE;   /* the mistake: no cap at max_n, a gate could ask for episodes forever */
#else
    return n < c->max_n ? S2R_VERDICT_CONTINUE : S2R_VERDICT_FAIL;                        /* truncated   */
#endif
}
