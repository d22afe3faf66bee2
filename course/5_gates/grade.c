/* course/5_gates/grade.c - the grader of assignment 5 (the gates'
   statistics: the Wilson interval and Wald's sequential test).

   Unit checks hold the two functions to their contracts (sim2real.h,
   above s2r_wilson_interval and in "Deployment (5/7): the gates").  Each
   sends what the student's functions return to the judge, which compares
   it with what the reference returned on the same inputs (this file holds
   no model of either function):
     - the Wilson interval at known points (k = 0, k = n, 5 of 10) and on
       a table; its shape on every count up to n = 60 (n = 0, bounds in
       [0, 1], k/n inside, symmetry under k -> n - k, narrowing with n,
       said in words when it fails); and its coverage, computed exactly by
       summing binomial probabilities over every possible count;
     - the SPRT's log-likelihood ratio (and a NULL llr), its verdicts on
       every count of an asymmetric design (alpha != beta, so a swap
       shows), a crossing exactly on a boundary, the truncation at max_n,
       and FAIL (llr NaN) on invalid counts or configs.
   The integration checks run the deployment gates on the student's
   functions: the tethered and constrained gates' exact operating
   characteristic (s2r_gate_oc: the probability of passing a policy at
   the threshold and at 0.95, the expected episodes), compared with the
   reference's, and a few thousand simulated deployments (streams of
   Bernoulli episodes from s2r_rng with a fixed seed) through
   s2r_sprt_decide, whose pass rates and episode counts must agree with
   the reference's simulation within Monte-Carlo error.

   On the instructor's run every unit check also draws inputs from the
   grading seed (grade_seed(): counts, n's, rates, designs, caps), so its
   answers there are not the public expected.txt; on a student's own run
   they are the fixed ones.

   Run through course/grade.sh (it compiles this file with your gates.c);
   it prints one line per check and "N passed, N failed". */
#include "grade.h"
#include "sim2real.h"

#define Z95 1.96

/* ---- mistakes, to name them in messages ------------------------------------
   No model of either function is here: the reference's answers are
   measured by running this grader on the reference. */

/* The normal (Wald) interval p_hat +- z sqrt(p_hat (1 - p_hat) / n), clipped:
   the usual mistake, to name it in a message. */
static void mistake_wald(int k, int n, double* lo, double* hi) {
    double p = (double)k / n, half = Z95 * sqrt(p * (1 - p) / n);
    *lo = p - half < 0 ? 0 : p - half;
    *hi = p + half > 1 ? 1 : p + half;
}

/* What a wrong-looking interval is, in words (or "" when nothing is
   recognised; the judge then says how it differs from the reference's). */
static const char* wilson_diagnosis(int k, int n, double lo, double hi) {
    double a, b;
    if (n <= 0) return "";
    mistake_wald(k, n, &a, &b);
    if (fabs(lo - a) < 1e-9 && fabs(hi - b) < 1e-9)
        return " - this is the normal (Wald) interval p_hat +- z sqrt(p_hat (1 - p_hat) / n); the contract asks for "
               "Wilson's score interval";
    if (lo == 0 && hi == 1) return " - [0, 1] says nothing: is the interval computed at all?";
    if (k > 0 && k < n) {   /* every count below n as if it were 0: p_hat = k / n in integers */
        s2r_wilson_interval(0, n, &a, &b);
        if (a == lo && b == hi)
            return " - it is the interval of 0 of n: is p_hat = k / n an integer division (0 for every k below n)? "
                   "Divide in double: (double)k / n";
    }
    if (k < n && hi == 1) return " - the upper bound is 1: a one-sided interval? Both bounds are needed";
    if (k > 0 && lo == 0) return " - the lower bound is 0: a one-sided interval? Both bounds are needed";
    return "";
}

/* The interval of k of n into v[0..1] and its labels (index i, 2i+1) for
   the answer under key of n_all values. */
static void wilson_send(const char* key, int n_all, int i, int k, int n, double* v) {
    s2r_wilson_interval(k, n, &v[0], &v[1]);
    grade_label(key, n_all, 2 * i, "%d of %d: the lower bound%s", k, n, wilson_diagnosis(k, n, v[0], v[1]));
    grade_label(key, n_all, 2 * i + 1, "%d of %d: the upper bound%s", k, n, wilson_diagnosis(k, n, v[0], v[1]));
}

/* An SPRT design: rates p0 < p1, error rates alpha and beta, the cap max_n. */
static s2r_sprt_config sprt_make(double p0, double p1, double alpha, double beta, int max_n) {
    s2r_sprt_config c;
    c.p0 = p0;
    c.p1 = p1;
    c.alpha = alpha;
    c.beta = beta;
    c.max_n = max_n;
    return c;
}

/* PASS, FAIL, CONTINUE as the contract writes them. */
static const char* vname(s2r_verdict v) {
    return v == S2R_VERDICT_PASS ? "PASS" : v == S2R_VERDICT_FAIL ? "FAIL" : v == S2R_VERDICT_CONTINUE ? "CONTINUE"
           : v == S2R_VERDICT_WARN ? "WARN" : "an invalid verdict";
}

/* A verdict as a number for the judge, and the legend its labels carry. */
#define VERDICTS "0 PASS, 1 WARN, 2 CONTINUE, 3 FAIL"
static double vcode(s2r_verdict v) { return (double)(int)v; }

/* The verdict (and llr) of k of n under c, sent as value i of key's n_all,
   labelled with the student's llr. */
static void verdict_send(const char* key, int n_all, int i, const s2r_sprt_config* c, int k, int n, double* out) {
    double llr = NAN;
    s2r_verdict v = s2r_sprt_decide(c, k, n, &llr);
    *out = vcode(v);
    grade_label(key, n_all, i, "p0 %.3g, p1 %.3g, alpha %.2f, beta %.2f, max_n %d: %d of %d (your llr %.4f, verdict %s; "
                "the verdicts: " VERDICTS ")", c->p0, c->p1, c->alpha, c->beta, c->max_n, k, n, llr, vname(v));
}

/* On a seeded run: `count` intervals of counts drawn from the grading
   seed (n 1 .. n_max), and `designs` SPRT designs drawn from it, each with
   the llr and verdict of `count` counts (n up to 1.2 max_n: past the cap
   too), against the reference under key. */
static void seeded_gates(const char* key, int count, int n_max, int designs, uint64_t stream) {
    s2r_rng rng;
    double v[512];
    int i, d, m = 0, total = 2 * count * ((n_max > 1) + designs);
    if (!grade_seed() || total > 512) return;
    rng = s2r_rng_make(grade_seed(), stream);
    for (i = 0; n_max > 1 && i < count; i++, m += 2) {
        int n = 1 + s2r_rng_int(&rng, n_max), k = s2r_rng_int(&rng, n + 1);
        wilson_send(key, total, m / 2, k, n, &v[m]);
    }
    for (d = 0; d < designs; d++) {
        double p0 = s2r_rng_range(&rng, 0.3, 0.85), p1 = p0 + (1 - p0) * s2r_rng_range(&rng, 0.2, 0.9);
        s2r_sprt_config c = sprt_make(p0, p1, s2r_rng_range(&rng, 0.01, 0.3), s2r_rng_range(&rng, 0.01, 0.3),
                                      1 + s2r_rng_int(&rng, 100));
        for (i = 0; i < count; i++, m += 2) {
            int n = s2r_rng_int(&rng, c.max_n + c.max_n / 5 + 1), k = s2r_rng_int(&rng, n + 1);
            verdict_send(key, total, m, &c, k, n, &v[m]);
            s2r_sprt_decide(&c, k, n, &v[m + 1]);
            grade_label(key, total, m + 1, "p0 %.4f, p1 %.4f, alpha %.4f, beta %.4f, max_n %d: %d of %d: the llr", c.p0, c.p1,
                        c.alpha, c.beta, c.max_n, k, n);
        }
    }
    grade_answer(key, v, m, 1e-9);
}

/* ---- the Wilson interval -------------------------------------------------- */

/* Known values: 0 of 10, 10 of 10, 5 of 10, and a table of 32 counts
   (fixed, then random from a fixed seed), against the reference's to 1e-9. */
static void check_wilson_known(void) {
    static const int table[][2] = {{0, 10}, {10, 10}, {5, 10}, {0, 1}, {1, 1}, {0, 5}, {3, 7}, {1, 20}, {19, 20}, {8, 20},
                                   {40, 50}, {80, 100}, {95, 100}, {1, 1000}, {500, 1000}, {999, 1000}, {17, 80}};
    const int fixed = (int)(sizeof table / sizeof *table);
    double got[70];
    s2r_rng rng = s2r_rng_make(grade_seeded(505), 0);
    int i;
    for (i = 0; i < 35; i++) {
        int k, n;
        if (i < fixed) { k = table[i][0]; n = table[i][1]; }
        else { n = 1 + s2r_rng_int(&rng, 300); k = s2r_rng_int(&rng, n + 1); }
        wilson_send("wilson_known_35", 70, i, k, n, got + 2 * i);
    }
    grade_answer("wilson_known_35", got, 70, 1e-9);
}

/* The interval's shape on every count up to n = 60: inside [0, 1], the
   observed rate inside, mirrored under k -> n - k, rising with k; n = 0;
   narrowing as n grows.  Said in words here when it fails; the judge
   compares every interval (n = 0 .. 60) with the reference's. */
#define SHAPE_VALUES (2 + 2 * (61 * 62 / 2 - 1) + 2)
static void check_wilson_shape(void) {
    double lo = -1, hi = -1, lo2, hi2, w_small, w_large;
    static double all[SHAPE_VALUES];
    int n, k, bad = 0, m = 0;
    all[m++] = lo; all[m++] = hi;
    for (n = 1; n <= 60; n++)
        for (k = 0; k <= n; k++) wilson_send("wilson_every_count_to_60", SHAPE_VALUES, m / 2, k, n, all + m), m += 2;
    s2r_wilson_interval(0, 0, &lo, &hi);
    all[0] = lo; all[1] = hi;
    grade_label("wilson_every_count_to_60", SHAPE_VALUES, 0, "0 of 0: the lower bound (n = 0: [0, 1])");
    grade_label("wilson_every_count_to_60", SHAPE_VALUES, 1, "0 of 0: the upper bound (n = 0: [0, 1])");
    GRADE_EXPECT(lo == 0 && hi == 1, "n = 0 must give [0, 1] (nothing is known), got [%g, %g]", lo, hi);
    for (n = 1; n <= 60; n++)
        for (k = 0; k <= n; k++) {
            double p = (double)k / n;
            s2r_wilson_interval(k, n, &lo, &hi);
            s2r_wilson_interval(n - k, n, &lo2, &hi2);
            if (!(lo >= 0 && hi <= 1 && lo < hi)) {
                if (bad++ < 4) grade_fail("%d of %d: [%g, %g] is not an interval inside [0, 1]%s", k, n, lo, hi,
                                          lo == hi ? " (it has zero width)" : "");
            } else if (!(lo <= p + 1e-12 && p <= hi + 1e-12)) {
                if (bad++ < 4) grade_fail("%d of %d: [%g, %g] does not contain the observed rate %g", k, n, lo, hi, p);
            } else if (!(fabs(lo - (1 - hi2)) <= 1e-12 && fabs(hi - (1 - lo2)) <= 1e-12)) {
                if (bad++ < 4)
                    grade_fail("not symmetric: %d of %d gave [%.9f, %.9f], %d of %d gave [%.9f, %.9f]; counting failures "
                               "instead of successes must mirror the interval (lo(k) = 1 - hi(n - k))",
                               k, n, lo, hi, n - k, n, lo2, hi2);
            } else if (k > 0) {
                s2r_wilson_interval(k - 1, n, &lo2, &hi2);
                if (!(lo2 < lo && hi2 < hi) && bad++ < 4)
                    grade_fail("%d of %d gave [%g, %g], %d of %d [%g, %g]: one more success must move both bounds up",
                               k - 1, n, lo2, hi2, k, n, lo, hi);
            }
        }
    s2r_wilson_interval(50, 100, &lo, &hi);
    w_small = hi - lo;
    s2r_wilson_interval(500, 1000, &lo, &hi);
    w_large = hi - lo;
    GRADE_EXPECT(w_large < 0.065 && w_large < 0.5 * w_small,
                 "the interval must narrow as evidence grows: 50 of 100 is %.4f wide, 500 of 1000 %.4f "
                 "(expected about 0.19 and 0.062)", w_small, w_large);
    all[m] = w_small; grade_label("wilson_every_count_to_60", SHAPE_VALUES, m++, "the width of 50 of 100");
    all[m] = w_large; grade_label("wilson_every_count_to_60", SHAPE_VALUES, m++, "the width of 500 of 1000");
    grade_answer("wilson_every_count_to_60", all, m, 1e-9);
    seeded_gates("wilson_seeded", 64, 5000, 0, 1);
}

/* The probability that the interval of a Binomial(n, p) count contains p,
   summed exactly over the counts 0..n. */
static double coverage(int n, double p) {
    double sum = 0;
    int k;
    for (k = 0; k <= n; k++) {
        double lo, hi;
        double logpk = lgamma(n + 1.0) - lgamma(k + 1.0) - lgamma(n - k + 1.0) + k * log(p) + (n - k) * log(1 - p);
        s2r_wilson_interval(k, n, &lo, &hi);
        if (lo <= p && p <= hi) sum += exp(logpk);
    }
    return sum;
}

/* Coverage for n = 20, 50, 100 over p = 0.05 .. 0.95: 94-96 % on average,
   nowhere below 90 %; a few values against the reference's. */
static void check_wilson_coverage(void) {
    static const int ns[3] = {20, 50, 100};
    static const double ps[4] = {0.1, 0.3, 0.5, 0.9};
    double got[12];
    int i, j;
    for (i = 0; i < 3; i++) {
        double mean = 0, least = 1, at = 0;
        int count = 0;
        for (j = 5; j <= 95; j++) {
            double c = coverage(ns[i], 0.01 * j);
            mean += c;
            count++;
            if (c < least) { least = c; at = 0.01 * j; }
        }
        mean /= count;
        printf("      n = %3d: coverage averaged over p = 0.05 .. 0.95 is %.4f, lowest %.4f (at p = %.2f)\n", ns[i], mean,
               least, at);
        GRADE_EXPECT(mean >= 0.94 && mean <= 0.96,
                     "n = %d: the interval contains the true rate %.1f %% of the time on average over p = 0.05 .. 0.95; "
                     "a 95 %% interval should be within 94-96 %%%s", ns[i], 100 * mean,
                     mean > 0.96 ? " (too wide: a one-sided bound, or a z above 1.96?)" : " (too narrow: the normal (Wald) "
                     "interval, or a z below 1.96?)");
        GRADE_EXPECT(least >= 0.90,
                     "n = %d: at p = %.2f the interval contains the true rate only %.1f %% of the time (Wilson's stays "
                     "above 92 %% there; the normal (Wald) interval collapses near 0 and 1)", ns[i], at, 100 * least);
        for (j = 0; j < 4; j++) got[4 * i + j] = coverage(ns[i], ps[j]);
    }
    /* the exact coverage at n = 20, 50, 100 and p = 0.1, 0.3, 0.5, 0.9, against the reference's */
    grade_answer("wilson_coverage_n20_50_100_p1_3_5_9", got, 12, 1e-9);
    if (grade_seed()) {   /* the exact coverage at n and p drawn from the grading seed */
        s2r_rng rng = s2r_rng_make(grade_seed(), 2);
        for (j = 0; j < 4; j++) {
            int n = 10 + s2r_rng_int(&rng, 140);
            double p = s2r_rng_range(&rng, 0.05, 0.95);
            got[j] = coverage(n, p);
            grade_label("wilson_coverage_seeded", 4, j, "the coverage at n = %d, p = %.4f (exact binomial sum)", n, p);
        }
        grade_answer("wilson_coverage_seeded", got, 4, 1e-9);
    }
}

/* ---- Wald's SPRT ----------------------------------------------------------- */

/* The llr of two designs at a few counts, and the same verdict with
   llr = NULL; the llr against the reference's. */
static void check_sprt_llr(void) {
    s2r_sprt_config cs[2];
    static const int counts[][2] = {{0, 0}, {1, 1}, {0, 1}, {7, 9}, {12, 12}, {30, 39}, {3, 11}, {60, 75}};
    int i, j;
    double got[32];
    cs[0] = sprt_make(0.80, 0.95, 0.05, 0.10, 80);
    cs[1] = sprt_make(0.60, 0.90, 0.02, 0.25, 40);
    for (i = 0; i < 2; i++)
        for (j = 0; j < 8; j++) {
            int k = counts[j][0], n = counts[j][1];
            double llr = NAN;
            s2r_verdict v, w;
            v = s2r_sprt_decide(&cs[i], k, n, &llr);
            got[8 * i + j] = llr;
            grade_label("sprt_llr_and_verdicts", 32, 8 * i + j, "p0 %.2f, p1 %.2f: the llr of %d of %d (k log(p1/p0) + "
                        "(n - k) log((1-p1)/(1-p0)))%s", cs[i].p0, cs[i].p1, k, n,
                        k == n && n > 0 && llr < 0 ? " - all successes give a negative llr: is the sign flipped? (the "
                        "llr is the evidence FOR p1)" : "");
            w = s2r_sprt_decide(&cs[i], k, n, NULL);
            GRADE_EXPECT(v == w, "%d of %d: the verdict with llr = NULL (%s) differs from the one with an llr (%s)", k, n,
                         vname(w), vname(v));
            got[16 + 8 * i + j] = vcode(w);
            grade_label("sprt_llr_and_verdicts", 32, 16 + 8 * i + j, "p0 %.2f, p1 %.2f: the verdict of %d of %d with llr = "
                        "NULL (%s; " VERDICTS ")", cs[i].p0, cs[i].p1, k, n, vname(w));
        }
    grade_answer("sprt_llr_and_verdicts", got, 32, 1e-9);
    seeded_gates("sprt_llr_seeded", 24, 1, 3, 3);
}

/* Every count of an asymmetric design (alpha != beta, so a swap shows),
   and two hand-worked crossings of the tethered design. */
#define BOUNDARY_VALUES (40 * 41 / 2 + 4)
static void check_sprt_boundaries(void) {
    s2r_sprt_config c = sprt_make(0.60, 0.90, 0.02, 0.25, 40), t = sprt_make(0.80, 0.95, 0.05, 0.10, 80);
    static double got[BOUNDARY_VALUES];
    int n, k, m = 0;
    printf("      p0 0.60, p1 0.90, alpha 0.02, beta 0.25: PASS once llr >= log((1 - beta) / alpha) = %.3f, FAIL once "
           "llr <= log(beta / (1 - alpha)) = %.3f (alpha and beta swapped would give %.3f and %.3f)\n",
           log(0.75 / 0.02), log(0.25 / 0.98), log(0.98 / 0.25), log(0.02 / 0.75));
    int differ = 0, as_swapped = 0;
    for (n = 0; n < c.max_n; n++)
        for (k = 0; k <= n; k++, m++) verdict_send("sprt_every_count", BOUNDARY_VALUES, m, &c, k, n, &got[m]);
    /* the student's verdicts against the student's own llr: where the right boundaries and the
       swapped ones part, which do they follow? */
    for (n = 1; n < c.max_n; n++)
        for (k = 0; k <= n; k++) {
            double l = NAN;
            s2r_verdict v = s2r_sprt_decide(&c, k, n, &l);
            s2r_verdict right = l >= log(0.75 / 0.02) ? S2R_VERDICT_PASS : l <= log(0.25 / 0.98) ? S2R_VERDICT_FAIL : S2R_VERDICT_CONTINUE;
            s2r_verdict swapped = l >= log(0.98 / 0.25) ? S2R_VERDICT_PASS : l <= log(0.02 / 0.75) ? S2R_VERDICT_FAIL : S2R_VERDICT_CONTINUE;
            if (!isfinite(l) || right == swapped) continue;
            differ++;
            as_swapped += v == swapped;
        }
    GRADE_EXPECT(differ == 0 || as_swapped < differ,
                 "p0 0.60, p1 0.90, alpha 0.02, beta 0.25: every verdict follows PASS at llr >= log((1 - alpha) / beta) "
                 "= %.3f and FAIL at llr <= log(alpha / (1 - beta)) = %.3f: alpha and beta swapped? (PASS once llr >= "
                 "log((1 - beta) / alpha) = %.3f, FAIL once llr <= log(beta / (1 - alpha)) = %.3f: alpha bounds the "
                 "chance to pass a policy at p0)", log(0.98 / 0.25), log(0.02 / 0.75), log(0.75 / 0.02), log(0.25 / 0.98));
    /* the tethered design: 17 straight successes cross log(0.9/0.05) = 2.89, 16 do not */
    GRADE_EXPECT(s2r_sprt_decide(&t, 16, 16, NULL) == S2R_VERDICT_CONTINUE && s2r_sprt_decide(&t, 17, 17, NULL) == S2R_VERDICT_PASS,
                 "0.95 against 0.80 (alpha 0.05, beta 0.10): 16 of 16 gave %s (expected CONTINUE), 17 of 17 %s (expected "
                 "PASS): each success adds log(0.95/0.80) = 0.172 to the llr, the pass boundary is log(0.9/0.05) = 2.890",
                 vname(s2r_sprt_decide(&t, 16, 16, NULL)), vname(s2r_sprt_decide(&t, 17, 17, NULL)));
    GRADE_EXPECT(s2r_sprt_decide(&t, 0, 1, NULL) == S2R_VERDICT_CONTINUE && s2r_sprt_decide(&t, 0, 2, NULL) == S2R_VERDICT_FAIL,
                 "0.95 against 0.80: 0 of 1 gave %s (expected CONTINUE), 0 of 2 %s (expected FAIL): each failure adds "
                 "log(0.05/0.20) = -1.386, the fail boundary is log(0.10/0.95) = -2.251",
                 vname(s2r_sprt_decide(&t, 0, 1, NULL)), vname(s2r_sprt_decide(&t, 0, 2, NULL)));
    verdict_send("sprt_every_count", BOUNDARY_VALUES, m, &t, 16, 16, &got[m]); m++;
    verdict_send("sprt_every_count", BOUNDARY_VALUES, m, &t, 17, 17, &got[m]); m++;
    verdict_send("sprt_every_count", BOUNDARY_VALUES, m, &t, 0, 1, &got[m]); m++;
    verdict_send("sprt_every_count", BOUNDARY_VALUES, m, &t, 0, 2, &got[m]); m++;
    grade_answer("sprt_every_count", got, m, 0);
    seeded_gates("sprt_boundaries_seeded", 40, 1, 4, 4);
}

/* p0 = 1/3, p1 = 2/3: every success adds log 2, every failure takes it
   away, and alpha, beta are chosen so a boundary is exactly 4 log 2. */
static void check_sprt_ties(void) {
    s2r_sprt_config up = sprt_make(1.0 / 3, 2.0 / 3, 0.05, 0.20, 30), down = sprt_make(1.0 / 3, 2.0 / 3, 0.20, 0.05, 30);
    static const struct { int k, n; s2r_verdict want; int upper; } cases[] = {
        {4, 4, S2R_VERDICT_PASS, 1}, {5, 6, S2R_VERDICT_PASS, 1}, {3, 4, S2R_VERDICT_CONTINUE, 1}, {9, 14, S2R_VERDICT_PASS, 1},
        {0, 4, S2R_VERDICT_FAIL, 0}, {1, 6, S2R_VERDICT_FAIL, 0}, {0, 3, S2R_VERDICT_CONTINUE, 0}, {5, 14, S2R_VERDICT_FAIL, 0}};
    double got[8];
    int i;
    for (i = 0; i < (int)(sizeof cases / sizeof *cases); i++) {
        const s2r_sprt_config* c = cases[i].upper ? &up : &down;
        s2r_verdict v = s2r_sprt_decide(c, cases[i].k, cases[i].n, NULL);
        verdict_send("sprt_ties", 8, i, c, cases[i].k, cases[i].n, &got[i]);
        GRADE_EXPECT(v == cases[i].want,
                     "p0 1/3, p1 2/3, alpha %.2f, beta %.2f: %d of %d (llr %+d log 2) gave %s, expected %s: the %s boundary is "
                     "exactly %s4 log 2; %s", c->alpha, c->beta, cases[i].k, cases[i].n, 2 * cases[i].k - cases[i].n, vname(v),
                     vname(cases[i].want), cases[i].upper ? "pass" : "fail", cases[i].upper ? "" : "-",
                     cases[i].want == S2R_VERDICT_CONTINUE ? "short of it the test continues"
                     : cases[i].upper ? "the contract says PASS once llr >= the boundary - S2R_GATE_EPS (>=, not >; "
                                        "the tolerance for an llr that rounds a few ulps below it)"
                                      : "the contract says FAIL once llr <= the boundary + S2R_GATE_EPS (<=, not <; "
                                        "the tolerance for an llr that rounds a few ulps above it)");
    }
    grade_answer("sprt_ties", got, 8, 0);
    seeded_gates("sprt_ties_seeded", 24, 1, 2, 5);
}

/* At n = max_n and beyond: never CONTINUE, FAIL unless the pass boundary
   is reached; before it, CONTINUE; the smallest cap, max_n = 1. */
#define TRUNCATION_VALUES (81 + 82 + 201 + 4)
static void check_sprt_truncation(void) {
    s2r_sprt_config c = sprt_make(0.80, 0.95, 0.05, 0.10, 80), one = sprt_make(0.80, 0.95, 0.05, 0.10, 1);
    static double got[TRUNCATION_VALUES];
    int n, k, bad = 0, m = 0;
    static const int beyond[3] = {80, 81, 200};
    for (n = 0; n < 3; n++)
        for (k = 0; k <= beyond[n]; k++, m++) {
            double llr = NAN;
            s2r_verdict v = s2r_sprt_decide(&c, k, beyond[n], &llr);
            verdict_send("sprt_at_and_past_max_n", TRUNCATION_VALUES, m, &c, k, beyond[n], &got[m]);
            if (v == S2R_VERDICT_CONTINUE && bad++ < 4)
                grade_fail("max_n 80: k = %d, n = %d (llr %.3f) gave CONTINUE: at max_n and beyond the test never "
                           "continues - FAIL unless the llr reached the pass boundary %.3f", k, beyond[n], llr,
                           log(0.9 / 0.05));
        }
    /* just before the cap an undecided count still continues */
    GRADE_EXPECT(s2r_sprt_decide(&c, 70, 79, NULL) == S2R_VERDICT_CONTINUE,
                 "max_n 80: 70 of 79 (llr between the boundaries) gave %s, expected CONTINUE (the cap is at 80)",
                 vname(s2r_sprt_decide(&c, 70, 79, NULL)));
    GRADE_EXPECT(s2r_sprt_decide(&one, 1, 1, NULL) == S2R_VERDICT_FAIL && s2r_sprt_decide(&one, 0, 1, NULL) == S2R_VERDICT_FAIL &&
                 s2r_sprt_decide(&one, 0, 0, NULL) == S2R_VERDICT_CONTINUE,
                 "max_n 1: 1 of 1 gave %s, 0 of 1 %s (both must FAIL: one episode cannot reach the pass boundary), 0 of 0 %s "
                 "(must CONTINUE: no episode yet)", vname(s2r_sprt_decide(&one, 1, 1, NULL)),
                 vname(s2r_sprt_decide(&one, 0, 1, NULL)), vname(s2r_sprt_decide(&one, 0, 0, NULL)));
    verdict_send("sprt_at_and_past_max_n", TRUNCATION_VALUES, m, &c, 70, 79, &got[m]); m++;
    verdict_send("sprt_at_and_past_max_n", TRUNCATION_VALUES, m, &one, 1, 1, &got[m]); m++;
    verdict_send("sprt_at_and_past_max_n", TRUNCATION_VALUES, m, &one, 0, 1, &got[m]); m++;
    verdict_send("sprt_at_and_past_max_n", TRUNCATION_VALUES, m, &one, 0, 0, &got[m]); m++;
    grade_answer("sprt_at_and_past_max_n", got, m, 0);
    seeded_gates("sprt_truncation_seeded", 40, 1, 4, 6);
}

/* SIGSEGV while s2r_sprt_decide reads a NULL config: say so and fail. */
static void on_crash(int sig) {
    static const char msg[] = "      - s2r_sprt_decide(NULL, ...) crashed: a NULL config is invalid input and must give FAIL\n";
    (void)sig;
    if (write(STDOUT_FILENO, msg, sizeof msg - 1) < 0) _exit(1);
    _exit(1);
}

/* Valid designs at the edges still decide; invalid counts and configs
   (each with counts a bare formula would pass) and NULL give FAIL. */
static void check_sprt_invalid(void) {
    const s2r_sprt_config t = sprt_make(0.80, 0.95, 0.05, 0.10, 80);
    struct { const char* what; s2r_sprt_config c; int k, n; } bad[20];
    int nb = 0, i, m = 0;
    s2r_sprt_config e;
    double llr, got[48];
    /* valid designs near the edges of validity must still be tested */
    e = sprt_make(0.001, 0.999, 0.49, 0.49, 100000);
    verdict_send("sprt_edges_and_invalid", 48, m, &e, 1, 1, &got[m]); m++;
    verdict_send("sprt_edges_and_invalid", 48, m, &t, 0, 0, &got[m]); m++;
    verdict_send("sprt_edges_and_invalid", 48, m, &t, 5, 6, &got[m]); m++;
    GRADE_EXPECT(s2r_sprt_decide(&e, 1, 1, &llr) == S2R_VERDICT_PASS,
                 "p0 0.001, p1 0.999, alpha = beta = 0.49, max_n 100000 is a valid design: 1 of 1 gave %s, expected PASS",
                 vname(s2r_sprt_decide(&e, 1, 1, NULL)));
    GRADE_EXPECT(s2r_sprt_decide(&t, 0, 0, NULL) == S2R_VERDICT_CONTINUE && s2r_sprt_decide(&t, 5, 6, NULL) == S2R_VERDICT_CONTINUE,
                 "0.95 against 0.80: 0 of 0 gave %s, 5 of 6 %s; both must CONTINUE (valid counts, no boundary reached)",
                 vname(s2r_sprt_decide(&t, 0, 0, NULL)), vname(s2r_sprt_decide(&t, 5, 6, NULL)));
    /* invalid counts, each of which a formula alone would pass */
#define BAD(text, cfg, kk, nn) do { bad[nb].what = text; bad[nb].c = cfg; bad[nb].k = kk; bad[nb].n = nn; nb++; } while (0)
    BAD("more successes than episodes (70 of 60)", t, 70, 60);
    BAD("negative successes (-1 of 60)", t, -1, 60);
    BAD("negative episodes (0 of -5)", t, 0, -5);
    BAD("negative episodes (-40 of -30)", t, -40, -30);
    /* invalid configs, with counts that would pass a valid one */
    e = t; e.p0 = 0;          BAD("p0 = 0", e, 60, 60);
    e = t; e.p0 = 0.95;       BAD("p0 = p1", e, 60, 60);
    e = t; e.p0 = 0.95; e.p1 = 0.80; BAD("p0 > p1 (0.95 and 0.80)", e, 0, 60);
    e = t; e.p1 = 1;          BAD("p1 = 1", e, 60, 60);
    e = t; e.alpha = 0;       BAD("alpha = 0", e, 60, 60);
    e = t; e.alpha = 0.5;     BAD("alpha = 0.5", e, 60, 60);
    e = t; e.alpha = 0.7;     BAD("alpha = 0.7", e, 60, 60);
    e = t; e.beta = 0;        BAD("beta = 0", e, 60, 60);
    e = t; e.beta = 0.6;      BAD("beta = 0.6", e, 60, 60);
    e = t; e.max_n = 0;       BAD("max_n = 0", e, 60, 60);
    e = t; e.p0 = NAN;        BAD("p0 = NaN", e, 60, 60);
    e = t; e.alpha = NAN;     BAD("alpha = NaN", e, 60, 60);
#undef BAD
    for (i = 0; i < nb; i++) {
        s2r_verdict v;
        llr = 0;
        v = s2r_sprt_decide(&bad[i].c, bad[i].k, bad[i].n, &llr);
        GRADE_EXPECT(v == S2R_VERDICT_FAIL, "invalid input, %s: gave %s, expected FAIL (a gate never passes on garbage; "
                     "s2r_sprt_check validates a config)", bad[i].what, vname(v));
        GRADE_EXPECT(isnan(llr), "invalid input, %s: llr %g, expected NaN (the contract: FAIL, llr NaN - no number "
                     "for a test that was never valid)", bad[i].what, llr);
        got[m] = vcode(v);
        grade_label("sprt_edges_and_invalid", 48, m++, "invalid input, %s: the verdict (%s; " VERDICTS ")", bad[i].what, vname(v));
        got[m] = llr;
        grade_label("sprt_edges_and_invalid", 48, m++, "invalid input, %s: the llr (the contract: NaN)", bad[i].what);
    }
    signal(SIGSEGV, on_crash);
    signal(SIGBUS, on_crash);
    {
        s2r_verdict v = s2r_sprt_decide(NULL, 60, 60, &llr);
        GRADE_EXPECT(v == S2R_VERDICT_FAIL, "invalid input, config NULL: gave %s, expected FAIL", vname(v));
        got[m] = vcode(v);
        grade_label("sprt_edges_and_invalid", 48, m++, "invalid input, config NULL: the verdict (%s; " VERDICTS ")", vname(v));
    }
    signal(SIGSEGV, SIG_DFL);
    signal(SIGBUS, SIG_DFL);
    grade_answer("sprt_edges_and_invalid", got, m, 0);
    seeded_gates("sprt_valid_seeded", 16, 1, 2, 7);
}

/* ---- integration: the deployment gates ------------------------------------- */

/* The exact operating characteristic of the tethered and constrained gates
   (both rules: SEQUENTIAL runs on s2r_sprt_decide, INTERVAL on the Wilson
   interval) at the threshold, at 0.90 and at 0.95. */
static void check_gate_oc(void) {
    static const s2r_stage stages[2] = {S2R_STAGE_TETHERED, S2R_STAGE_CONSTRAINED};
    double got[24];
    int s, r, i, m = 0;
    for (r = 0; r < 2; r++)
        for (s = 0; s < 2; s++) {
            s2r_gate_config g = s2r_gate_config_default();
            s2r_sprt_config t;
            double ps[3];
            g.rule = r == 0 ? S2R_GATE_SEQUENTIAL : S2R_GATE_INTERVAL;
            t = s2r_gate_sprt(&g, stages[s]);
            ps[0] = t.p0; ps[1] = 0.90; ps[2] = 0.95;
            /* on the instructor's run the middle success rate is drawn from the grading seed (0.82 .. 0.98) */
            if (grade_seed()) ps[1] = 0.82 + 0.16 * (double)(grade_seeded(503) >> 11) / 9007199254740992.0;
            for (i = 0; i < 3; i++) {
                double pass = NAN, asn = NAN;
                int longest = 0;
                if (s2r_gate_oc(&g, stages[s], ps[i], &pass, &asn, &longest) != S2R_OK) {
                    grade_fail("s2r_gate_oc failed for the %s gate", s2r_stage_name(stages[s]));
                    return;
                }
                printf("      %-11s %-10s true success %.2f: passes with probability %.4f after %.1f episodes on average\n",
                       s2r_stage_name(stages[s]), s2r_gate_rule_name(g.rule), ps[i], pass, asn);
                got[m++] = pass;
                got[m++] = asn;
                if (r == 0 && i == 0)
                    GRADE_EXPECT(pass <= t.alpha + 1e-9, "the %s gate passes a policy at its threshold %.2f with probability "
                                 "%.4f, more than alpha = %.2f", s2r_stage_name(stages[s]), t.p0, pass, t.alpha);
                if (r == 0 && i == 2)
                    GRADE_EXPECT(pass >= 1 - t.beta - 1e-9, "the %s gate passes a policy at 0.95 with probability %.4f, "
                                 "less than 1 - beta = %.2f", s2r_stage_name(stages[s]), pass, 1 - t.beta);
            }
        }
    grade_answer("gate_oc_pass_and_episodes", got, m, 1e-9);
}

/* One deployment: Bernoulli(p) episodes through s2r_sprt_decide until it
   decides; 1 for PASS, 0 for FAIL, -1 when it continues past max_n. */
static int deploy_once(const s2r_sprt_config* t, double p, s2r_rng* rng, int* episodes) {
    int k = 0, n = 0;
    s2r_verdict v = S2R_VERDICT_CONTINUE;
    while (v == S2R_VERDICT_CONTINUE) {
        if (n >= t->max_n) { *episodes = n; return -1; }
        k += s2r_rng_uniform(rng) < p;
        n++;
        v = s2r_sprt_decide(t, k, n, NULL);
    }
    *episodes = n;
    return v == S2R_VERDICT_PASS;
}

/* Simulated deployments at p0 and at p1: the false-pass rate within alpha
   plus three standard errors, and every simulated rate and mean episode
   count within four standard errors of the reference's simulation (the
   same streams: a correct test gives the same deployments). */
#define RUNS 5000
static void check_simulated(void) {
    static const s2r_stage stages[2] = {S2R_STAGE_TETHERED, S2R_STAGE_CONSTRAINED};
    int s, i, r;
    for (s = 0; s < 2; s++) {
        s2r_gate_config g = s2r_gate_config_default();
        s2r_sprt_config t = s2r_gate_sprt(&g, stages[s]);
        for (i = 0; i < 2; i++) {
            double p = i == 0 ? t.p0 : t.p1, passed = 0, spent = 0, spent2 = 0, rate, se, mean, se_n;
            char key[64];
            for (r = 0; r < RUNS; r++) {
                s2r_rng rng = s2r_rng_make(2024, (uint64_t)(RUNS * (2 * s + i) + r));   /* one stream each */
                int n, res = deploy_once(&t, p, &rng, &n);
                if (res < 0) {
                    grade_fail("%s design (max_n %d): a deployment got CONTINUE after %d episodes; the test must stop at "
                               "max_n", s2r_stage_name(stages[s]), t.max_n, n);
                    return;
                }
                passed += res;
                spent += n;
                spent2 += (double)n * n;
            }
            rate = passed / RUNS;
            mean = spent / RUNS;
            se_n = sqrt((spent2 / RUNS - mean * mean) / RUNS);
            se = sqrt(rate * (1 - rate) / RUNS);
            printf("      %-11s true success %.2f: %d simulated deployments pass %.4f, %.2f episodes on average\n",
                   s2r_stage_name(stages[s]), p, RUNS, rate, mean);
            snprintf(key, sizeof key, "simulated_%s_p%d", s2r_stage_name(stages[s]), i);
            grade_label(key, 1, 0, "%s gate, true success %.2f: the pass rate of %d simulated deployments",
                        s2r_stage_name(stages[s]), p, RUNS);
            grade_answer_within(key, &rate, 1, 4 * se + 1e-12);
            snprintf(key, sizeof key, "simulated_%s_p%d_episodes", s2r_stage_name(stages[s]), i);
            grade_label(key, 1, 0, "%s gate, true success %.2f: the mean episodes per deployment", s2r_stage_name(stages[s]), p);
            grade_answer_within(key, &mean, 1, 4 * se_n + 1e-12);
            if (i == 0)
                GRADE_EXPECT(rate <= t.alpha + 3 * sqrt(t.alpha * (1 - t.alpha) / RUNS),
                             "%s gate: %d simulated policies at the threshold %.2f passed %.2f %% of the time; the design "
                             "allows alpha = %.0f %% (+ %.2f %% Monte-Carlo tolerance)", s2r_stage_name(stages[s]), RUNS,
                             p, 100 * rate, 100 * t.alpha, 300 * sqrt(t.alpha * (1 - t.alpha) / RUNS));
            else
                GRADE_EXPECT(rate >= 1 - t.beta - 3 * sqrt(t.beta * (1 - t.beta) / RUNS),
                             "%s gate: %d simulated policies at %.2f passed only %.2f %% of the time; the design asks for "
                             "1 - beta = %.0f %%", s2r_stage_name(stages[s]), RUNS, p, 100 * rate, 100 * (1 - t.beta));
        }
    }
}

int main(int argc, char** argv) {
    static const grade_check checks[] = {
        {"wilson: known values (0 of n, n of n, 5 of 10, a table)", 3, 10, GRADE_UNIT, check_wilson_known},
        {"wilson: n = 0, inside [0, 1], symmetric, narrows with n", 2, 10, GRADE_UNIT, check_wilson_shape},
        {"wilson: coverage near 95 % (exact binomial sums)", 2, 20, GRADE_UNIT, check_wilson_coverage},
        {"sprt: the log-likelihood ratio (llr output, NULL accepted)", 2, 10, GRADE_UNIT, check_sprt_llr},
        {"sprt: the pass and fail boundaries", 3, 10, GRADE_UNIT, check_sprt_boundaries},
        {"sprt: a crossing exactly on a boundary decides", 1, 10, GRADE_UNIT, check_sprt_ties},
        {"sprt: truncation at max_n (FAIL there, never CONTINUE)", 2, 10, GRADE_UNIT, check_sprt_truncation},
        {"sprt: invalid counts or config give FAIL", 2, 10, GRADE_UNIT, check_sprt_invalid},
        {"integration: the gates' exact pass probabilities", 3, 30, GRADE_INTEGRATION, check_gate_oc},
        {"integration: 5000 simulated deployments at p0 and p1", 3, 60, GRADE_INTEGRATION, check_simulated},
    };
    return grade_main(argc, argv, "5_gates (the Wilson interval and the SPRT)", checks, (int)(sizeof checks / sizeof *checks));
}
