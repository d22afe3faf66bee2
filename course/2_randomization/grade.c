/* course/2_randomization/grade.c - the grader of assignment 2 (drawing
   the simulator's parameters).

   Unit checks hold s2r_dist_sample and s2r_randomization_sample to their
   contracts (sim2real.h, "Randomization (1/3): scalar distributions" and
   "Draw one episode"): the support, the degenerate cases that draw
   nothing, the distribution of many draws against each kind's exact CDF
   (Kolmogorov-Smirnov tests at a stated significance), the mean against
   s2r_dist_mean, the generator as the only source of randomness, and the
   per-episode table with enabled and disabled entries of every mode.

   What decides: each check sends the judge raw results of the student's
   functions (draws' quantiles and ends, means, values, the generator's
   next numbers), which the judge compares with the reference's - where a
   correct sampler of another design draws other numbers, within the band
   the reference's own draws give (stated at each check).  The tests in
   words below (KS against the exact CDF, the mean against s2r_dist_mean)
   say what is wrong; they can fail a check, never pass one.

   The statistical checks use fixed seeds, so a given implementation
   passes or fails them the same way every run; a correct sampler that
   maps the uniform numbers differently from the reference fails one of
   them by chance with a probability below the significance stated there.
   On the instructor's run every unit check also draws from the grading
   seed (grade_seed()): the generators' seeds, and distributions and table
   entries of their own (parameters drawn from it), so its answers there
   are not the public expected.txt; the same seed gives the same grade.

   The integration checks run the randomized simulator on your sampler
   with the default training ranges: over many resets its draws must
   follow the ranges (a KS test per parameter), and the scripted reach
   expert must succeed about as often as on the reference's draws.

   Run through course/grade.sh (it compiles this file with your
   randomization.c); it prints one line per check and "N passed, N failed". */
#include "grade.h"
#include "sim2real.h"

/* ---- helpers: exact CDFs and the Kolmogorov-Smirnov statistic ---------- */

/* The standard normal CDF, from erfc (exact to rounding in both tails). */
static double normal_cdf(double z) { return 0.5 * erfc(-z * 0.7071067811865476); }

/* P(draw <= x) for a valid, non-degenerate distribution of any kind. */
static double exact_cdf(const s2r_dist* d, double x) {
    double a, b;
    if (d->kind == S2R_DIST_FIXED) return x >= d->mean ? 1.0 : 0.0;
    if (x < d->lo) return 0.0;
    if (x >= d->hi) return 1.0;
    switch (d->kind) {
    case S2R_DIST_UNIFORM: return (x - d->lo) / (d->hi - d->lo);
    case S2R_DIST_LOG_UNIFORM: return log(x / d->lo) / log(d->hi / d->lo);
    case S2R_DIST_TRUNC_NORMAL:
        a = normal_cdf((d->lo - d->mean) / d->std);
        b = normal_cdf((d->hi - d->mean) / d->std);
        return (normal_cdf((x - d->mean) / d->std) - a) / (b - a);
    default: return NAN;
    }
}

/* A distribution in words, for messages: "truncnormal [1, 4] mean 1 std 1". */
static const char* describe(const s2r_dist* d) {
    static char buf[160];
    if (d->kind == S2R_DIST_TRUNC_NORMAL)
        snprintf(buf, sizeof buf, "truncnormal on [%g, %g] with mean %g, std %g", d->lo, d->hi, d->mean, d->std);
    else if (d->kind == S2R_DIST_FIXED)
        snprintf(buf, sizeof buf, "fixed %g", d->mean);
    else
        snprintf(buf, sizeof buf, "%s on [%g, %g]", s2r_dist_kind_name(d->kind), d->lo, d->hi);
    return buf;
}

static int compare_doubles(const void* a, const void* b) {
    double x = *(const double*)a, y = *(const double*)b;
    return x < y ? -1 : x > y;
}

/* The KS critical value of sqrt(n) D at significance alpha (Kolmogorov's
   limit: P(sqrt(n) D > K) = 2 exp(-2 K^2) for large n). */
static double ks_critical(double alpha) { return sqrt(-0.5 * log(0.5 * alpha)); }

/* The Kolmogorov-Smirnov distance of sorted x [n] from d's exact CDF. */
static double ks_distance(const double* x, int n, const s2r_dist* d) {
    double D = 0;
    int i, j;
    for (i = 0; i < n; i = j) {
        double F = exact_cdf(d, x[i]);
        for (j = i; j < n && x[j] == x[i]; j++) {}
        if (fabs((double)j / n - F) > D) D = fabs((double)j / n - F);
        if (fabs(F - (double)i / n) > D) D = fabs(F - (double)i / n);
    }
    return D;
}

/* Test x [n] (sorted here) against d's exact CDF at significance alpha;
   on a rejection report where the empirical CDF is furthest from the
   exact one.  `what` (may be "") starts the message; `hint` ends it.
   1: passed. */
static int ks_test(double* x, int n, const s2r_dist* d, double alpha, const char* what, const char* hint) {
    double D = 0, at = 0, emp = 0, want = 0, limit = ks_critical(alpha) / sqrt((double)n);
    int i, j, below = 0;
    qsort(x, (size_t)n, sizeof *x, compare_doubles);
    for (i = 0; i < n; i = j) {
        double F = exact_cdf(d, x[i]);
        for (j = i; j < n && x[j] == x[i]; j++) {}   /* ties: the empirical CDF jumps over all of them */
        if (fabs((double)j / n - F) > D) { D = fabs((double)j / n - F); at = x[i]; emp = (double)j / n; want = F; below = 0; }
        if (fabs(F - (double)i / n) > D) { D = fabs(F - (double)i / n); at = x[i]; emp = (double)i / n; want = F; below = 1; }
    }
    if (!(D <= limit) && d->kind == S2R_DIST_TRUNC_NORMAL && d->std > 0) {
        /* which wrong sampler the draws fit: clamped (mass on the ends), or the std taken as a variance */
        static char why[300];
        s2r_dist alt = *d;
        int ends = 0;
        for (i = 0; i < n; i++) ends += x[i] == d->lo || x[i] == d->hi;
        alt.std = sqrt(d->std);
        if (ends > n / 200)
            snprintf(why, sizeof why, "%.1f %% of the draws are exactly lo or hi: a draw outside was clamped, not drawn "
                     "again (rejection).", 100.0 * ends / n);
        else if (fabs(d->std - 1) > 0.05 && ks_distance(x, n, &alt) <= limit)
            snprintf(why, sizeof why, "The draws fit a truncated normal with std %g = sqrt(std): std is the standard "
                     "deviation itself, not a variance to take the square root of.", alt.std);
        else if (fabs(d->std - 1) > 0.05 && (alt.std = d->std * d->std, ks_distance(x, n, &alt) <= limit))
            snprintf(why, sizeof why, "The draws fit a truncated normal with std %g = std^2: std is the standard "
                     "deviation, not its square root.", alt.std);
        else why[0] = 0;
        if (why[0]) hint = why;
    }
    if (!(D <= limit)) {
        grade_fail("%s%s%s: the Kolmogorov-Smirnov distance of %d draws from the exact CDF is %.4f, above %.4f "
                   "(significance %g): %.1f %% of the draws are %s %.6g, the exact CDF there is %.1f %%. %s",
                   what, *what ? " " : "", describe(d), n, D, limit, alpha, 100 * emp, below ? "below" : "at or below",
                   at, 100 * want, hint);
        return 0;
    }
    return 1;
}

/* n draws of d from rng into x; 0 (after a failure) if one is not finite. */
static int draw_many(const s2r_dist* d, s2r_rng* rng, double* x, int n) {
    int i;
    for (i = 0; i < n; i++) {
        x[i] = s2r_dist_sample(d, rng);
        if (!isfinite(x[i])) {
            grade_fail("%s: draw %d is %g", describe(d), i + 1, x[i]);
            return 0;
        }
    }
    return 1;
}

/* The QN quantiles of x [n] (sorted here) at the levels j / (QN + 1), one
   key each (key.j), for the judge: it compares each with the reference's
   within the band the reference's own draws give, the distance from its
   quantile at the level u to those at u - eps and u + eps (the larger),
   eps = 2 sqrt(-log(alpha / 2) / 2) / sqrt(n): two samples' empirical CDFs
   each within half of eps of the exact one, at significance alpha. */
#define QN 31
static void send_quantiles(const char* key, double* x, int n, double alpha, const char* what) {
    double eps = 2 * ks_critical(alpha) / sqrt((double)n);
    int j;
    qsort(x, (size_t)n, sizeof *x, compare_doubles);
    for (j = 1; j <= QN; j++) {
        double u = (double)j / (QN + 1), q, below, above;
        int i = (int)(u * n), lo = (int)((u - eps) * n), hi = (int)((u + eps) * n);
        char part[96];
        if (i >= n) i = n - 1;
        if (lo < 0) lo = 0;
        if (hi >= n) hi = n - 1;
        q = x[i];
        below = q - x[lo];
        above = x[hi] - q;
        snprintf(part, sizeof part, "%s.q%d", key, j);
        grade_label(part, 1, 0, "%s: the %.1f %% quantile of %d draws (within the spread of the reference's draws)", what,
                    100 * u, n);
        grade_answer_within(part, &q, 1, below > above ? below : above);
    }
}

/* The next number of a generator, for the judge, as two exact halves. */
static void next_number(s2r_rng* rng, double out[2]) {
    uint64_t x = s2r_rng_u64(rng);
    out[0] = (double)(x >> 32);
    out[1] = (double)(x & 0xffffffffu);
}

/* ---- unit checks ------------------------------------------------------- */

/* A distribution of the kind drawn from rng with parameters drawn from it
   (a seeded run's own cases): uniform, log-uniform or truncated normal. */
static s2r_dist seeded_dist(s2r_rng* rng, s2r_dist_kind kind) {
    double lo = s2r_rng_range(rng, -2, 2), w = exp(s2r_rng_range(rng, log(0.05), log(4)));
    if (kind == S2R_DIST_UNIFORM) return s2r_dist_uniform(lo, lo + w);
    if (kind == S2R_DIST_LOG_UNIFORM) { lo = exp(s2r_rng_range(rng, log(0.01), log(2))); return s2r_dist_log_uniform(lo, lo * (1 + w)); }
    return s2r_dist_trunc_normal(lo, lo + w, lo + w * s2r_rng_uniform(rng), w * exp(s2r_rng_range(rng, log(0.1), log(2))));
}

/* Every draw in [lo, hi], and the draws reaching near both ends. */
static void check_support(void) {
    s2r_dist cases[16];   /* 13 fixed, 3 more on a seeded run */
    s2r_rng rng = s2r_rng_make(grade_seeded(101), 0);
    enum { N = 2000 };
    double outside_count[sizeof cases / sizeof cases[0]];   /* one per case: all of them, to the judge */
    int c, i, n = 0;
    cases[n++] = s2r_dist_uniform(0.5, 1.5);
    cases[n++] = s2r_dist_uniform(-3, -1);
    cases[n++] = s2r_dist_uniform(1, 1 + 1e-12);            /* a width at the rounding level */
    cases[n++] = s2r_dist_uniform(-1e300, 1e300);
    cases[n++] = s2r_dist_log_uniform(0.7, 1.4);
    cases[n++] = s2r_dist_log_uniform(0.1, 0.3);           /* exp(log(x)) rounds past the ends */
    cases[n++] = s2r_dist_log_uniform(1e-6, 1e6);
    cases[n++] = s2r_dist_trunc_normal(0, 1, 0.5, 0.1);
    cases[n++] = s2r_dist_trunc_normal(1, 4, 1, 1);          /* the mean at the lower end */
    cases[n++] = s2r_dist_trunc_normal(0, 0.5, 0.5, 0.4);    /* the mean at the upper end */
    cases[n++] = s2r_dist_trunc_normal(-10, 10, 2, 1.5);
    cases[n++] = s2r_dist_trunc_normal(0, 1, 0.3, 1e3);      /* nearly uniform */
    cases[n++] = s2r_dist_trunc_normal(0, 1, 0.5, 1e-6);     /* nearly fixed */
    if (grade_seed()) {   /* three of the seed's own */
        s2r_rng draw = s2r_rng_make(grade_seed(), 1);
        cases[n++] = seeded_dist(&draw, S2R_DIST_UNIFORM);
        cases[n++] = seeded_dist(&draw, S2R_DIST_LOG_UNIFORM);
        cases[n++] = seeded_dist(&draw, S2R_DIST_TRUNC_NORMAL);
    }
    for (c = 0; c < n; c++) {
        const s2r_dist* d = &cases[c];
        double lo = INFINITY, hi = -INFINITY;
        int outside = 0;
        for (i = 0; i < N; i++) {
            double x = s2r_dist_sample(d, &rng);
            if (!(x >= d->lo && x <= d->hi)) {
                if (outside++ == 0)
                    grade_fail("%s: draw %d is %.17g, outside [lo, hi] (clamp against rounding as the last step)",
                               describe(d), i + 1, x);
                continue;
            }
            if (x < lo) lo = x;
            if (x > hi) hi = x;
        }
        outside_count[c] = outside;
        grade_label("support_draws_outside", n, c, "%s: the draws outside [lo, hi] of %d", describe(d), N);
        if (d->kind == S2R_DIST_UNIFORM || d->kind == S2R_DIST_LOG_UNIFORM) {
            /* the ends the draws reach, within 2 % of the width of the reference's (log scale: log-uniform);
               a truncated normal's ends depend on the draws (any correct sampler's differ) */
            char key[48];
            double ends[2], w = d->hi - d->lo;
            snprintf(key, sizeof key, "support_ends_case%d", c);
            ends[0] = lo; ends[1] = hi;
            if (d->kind == S2R_DIST_LOG_UNIFORM) { ends[0] = log(lo); ends[1] = log(hi); w = log(d->hi / d->lo); }
            grade_label(key, 2, 0, "%s: the lowest of %d draws%s", describe(d), N, d->kind == S2R_DIST_LOG_UNIFORM ? " (its log)" : "");
            grade_label(key, 2, 1, "%s: the highest of %d draws%s", describe(d), N, d->kind == S2R_DIST_LOG_UNIFORM ? " (its log)" : "");
            grade_answer_within(key, ends, 2, 0.02 * w);
        }
        if (outside) continue;
        if (d->kind == S2R_DIST_UNIFORM) {
            double w = d->hi - d->lo;
            GRADE_EXPECT(lo - d->lo <= 0.02 * w && d->hi - hi <= 0.02 * w,
                         "%s: %d draws ranged over [%.6g, %.6g]; they must spread over the whole interval "
                         "(the lowest within 2 %% of the width from lo, the highest within 2 %% from hi)",
                         describe(d), N, lo, hi);
        } else if (d->kind == S2R_DIST_LOG_UNIFORM) {
            double w = log(d->hi / d->lo);
            GRADE_EXPECT(log(lo / d->lo) <= 0.02 * w && log(d->hi / hi) <= 0.02 * w,
                         "%s: %d draws ranged over [%.6g, %.6g]; they must spread over the whole interval "
                         "(in log scale, the lowest within 2 %% of log(hi/lo) from lo, the highest from hi)",
                         describe(d), N, lo, hi);
        }
    }
    grade_answer("support_draws_outside", outside_count, n, 0);
}

/* The draws and the generator's next numbers, for the judge. */
static double degenerate_sent[40];
static int n_degenerate_sent;

/* How many values the check sends: 7 cases, 3 more on a seeded run. */
static int n_degenerate_total(void) { return grade_seed() ? 30 : 21; }

/* One degenerate case: the value `want` and an untouched generator. */
static void expect_degenerate(const s2r_dist* d, double want, const char* why) {
    s2r_rng rng = s2r_rng_make(grade_seeded(202), 1), before = rng, after;
    double x = s2r_dist_sample(d, &rng);
    int m = n_degenerate_sent;
    after = rng;
    degenerate_sent[m] = x;
    next_number(&after, &degenerate_sent[m + 1]);
    grade_label("degenerate_draws", n_degenerate_total(), m, "%s (%s): the draw", describe(d), why);
    grade_label("degenerate_draws", n_degenerate_total(), m + 1, "%s (%s): the generator's next number after it (high half; a degenerate "
                "distribution draws none)", describe(d), why);
    grade_label("degenerate_draws", n_degenerate_total(), m + 2, "%s (%s): the generator's next number after it (low half)", describe(d), why);
    n_degenerate_sent += 3;
    GRADE_EXPECT(x == want, "%s (%s): the draw is %.17g, expected %.17g", describe(d), why, x, want);
    GRADE_EXPECT(memcmp(&rng, &before, sizeof rng) == 0,
                 "%s (%s): the generator changed; a degenerate distribution draws no random number", describe(d), why);
}

static void check_degenerate(void) {
    s2r_dist d = s2r_dist_fixed(3);
    s2r_rng rng = s2r_rng_make(grade_seeded(202), 2);
    double x;
    d.lo = 0;   /* FIXED reads only its value (mean); the other fields are ignored */
    d.hi = 10;
    d.std = 2;
    expect_degenerate(&d, 3, "FIXED with lo 0, hi 10 and std 2 still gives its value, mean");
    d = s2r_dist_fixed(-2.5);
    expect_degenerate(&d, -2.5, "FIXED");
    d = s2r_dist_uniform(2, 2);
    expect_degenerate(&d, 2, "lo == hi");
    d = s2r_dist_log_uniform(0.3, 0.3);
    expect_degenerate(&d, 0.3, "lo == hi");
    d = s2r_dist_trunc_normal(0, 1, 0.25, 0);
    expect_degenerate(&d, 0.25, "std 0 returns the mode, the mean");
    d = s2r_dist_trunc_normal(0.4, 0.4, 0.4, 1);
    expect_degenerate(&d, 0.4, "lo == hi");
    d = s2r_dist_uniform(0, 1);
    d.kind = S2R_DIST_COUNT;
    x = s2r_dist_sample(&d, &rng);
    GRADE_EXPECT(isnan(x), "an unknown kind (%d) must give NaN, gave %g", (int)d.kind, x);
    degenerate_sent[n_degenerate_sent] = x;
    next_number(&rng, &degenerate_sent[n_degenerate_sent + 1]);
    grade_label("degenerate_draws", n_degenerate_total(), n_degenerate_sent, "an unknown kind (%d): the draw (the contract: NaN)", (int)d.kind);
    grade_label("degenerate_draws", n_degenerate_total(), n_degenerate_sent + 1, "an unknown kind: the generator's next number (high half)");
    grade_label("degenerate_draws", n_degenerate_total(), n_degenerate_sent + 2, "an unknown kind: the generator's next number (low half)");
    n_degenerate_sent += 3;
    if (grade_seed()) {   /* values of the seed's own */
        s2r_rng draw = s2r_rng_make(grade_seed(), 1);
        double v = s2r_rng_range(&draw, -5, 5), w = exp(s2r_rng_range(&draw, -3, 1));
        d = s2r_dist_fixed(v);
        expect_degenerate(&d, v, "FIXED, a value drawn from the grading seed");
        d = s2r_dist_trunc_normal(v - w, v + w, v, 0);
        expect_degenerate(&d, v, "std 0 returns the mode, the mean (drawn from the grading seed)");
        d = s2r_dist_log_uniform(w, w);
        expect_degenerate(&d, w, "lo == hi, drawn from the grading seed");
    }
    grade_answer("degenerate_draws", degenerate_sent, n_degenerate_sent, 0);
}

/* KS of N draws for each case, at significance 0.001 per case. */
/* On a seeded run, two cases of the kind with parameters of the seed's
   own follow the n given (cases has room for them). */
static void ks_cases(s2r_dist* cases, int n, uint64_t seed, const char* hint) {
    enum { N = 20000 };
    static double x[N];
    s2r_rng rng = s2r_rng_make(grade_seeded(seed), 0);
    int c;
    if (grade_seed()) {
        s2r_rng draw = s2r_rng_make(grade_seed(), 1);
        cases[n] = seeded_dist(&draw, cases[0].kind);
        cases[n + 1] = seeded_dist(&draw, cases[0].kind);
        n += 2;
    }
    for (c = 0; c < n; c++) {
        char key[48];
        snprintf(key, sizeof key, "draws_seed%d_case%d", (int)seed, c);
        if (!draw_many(&cases[c], &rng, x, N)) continue;
        ks_test(x, N, &cases[c], 1e-3, "", hint);
        send_quantiles(key, x, N, 1e-3, describe(&cases[c]));
    }
}

static void check_ks_uniform(void) {
    s2r_dist cases[5];
    cases[0] = s2r_dist_uniform(0.5, 1.5);
    cases[1] = s2r_dist_uniform(-0.01, 0.01);
    cases[2] = s2r_dist_uniform(0, 0.6);
    ks_cases(cases, 3, 303, "A uniform draw is lo + (hi - lo) u with u = s2r_rng_uniform(rng).");
}

static void check_ks_log_uniform(void) {
    s2r_dist cases[5];
    cases[0] = s2r_dist_log_uniform(0.7, 1.4);
    cases[1] = s2r_dist_log_uniform(0.01, 1);
    cases[2] = s2r_dist_log_uniform(0.5, 2);
    ks_cases(cases, 3, 404, "log(x) must be uniform on [log lo, log hi] (every factor of two equally likely), "
             "not x itself.");
}

static void check_ks_trunc_normal(void) {
    s2r_dist cases[8];
    cases[0] = s2r_dist_trunc_normal(1, 4, 1, 1);         /* the interval on one side of the mean, wide */
    cases[1] = s2r_dist_trunc_normal(0, 0.5, 0.5, 0.4);   /* on one side, narrow */
    cases[2] = s2r_dist_trunc_normal(-0.3, 1, 0, 1);      /* narrow, both sides */
    cases[3] = s2r_dist_trunc_normal(0.8, 1.2, 1, 0.1);   /* mean +- 2 std */
    cases[4] = s2r_dist_trunc_normal(-10, 10, 2, 1.5);    /* wide: nearly the normal itself */
    cases[5] = s2r_dist_trunc_normal(0, 1e-4, 0, 1);      /* 1e-4 std wide: the normal lands inside once in
                                                             25000 draws, past S2R_TRUNC_NORMAL_TRIES */
    ks_cases(cases, 6, 505, "A truncated normal is the normal conditioned on [lo, hi]: draw again until the "
             "draw falls inside (rejection); clamping a draw piles the mass outside onto lo and hi; on an "
             "interval narrow against std the normal rarely lands inside: propose uniformly on [lo, hi] and accept "
             "with the density's ratio to its peak there.");
}

/* The sample mean of N draws within 4.5 standard errors of s2r_dist_mean
   (a correct sampler strays that far with probability 7e-6). */
static void check_mean(void) {
    enum { N = 20000 };
    static double x[N];
    s2r_dist cases[10];
    s2r_rng rng = s2r_rng_make(grade_seeded(606), 0);
    int c, i, n = 0;
    cases[n++] = s2r_dist_fixed(1.25);
    cases[n++] = s2r_dist_uniform(0.010, 0.030);
    cases[n++] = s2r_dist_log_uniform(0.7, 1.4);
    cases[n++] = s2r_dist_log_uniform(0.01, 1);
    cases[n++] = s2r_dist_trunc_normal(1, 4, 1, 1);
    cases[n++] = s2r_dist_trunc_normal(-0.3, 1, 0, 1);
    cases[n++] = s2r_dist_trunc_normal(0, 0.5, 0.5, 0.4);
    if (grade_seed()) {   /* three of the seed's own */
        s2r_rng draw = s2r_rng_make(grade_seed(), 1);
        cases[n++] = seeded_dist(&draw, S2R_DIST_UNIFORM);
        cases[n++] = seeded_dist(&draw, S2R_DIST_LOG_UNIFORM);
        cases[n++] = seeded_dist(&draw, S2R_DIST_TRUNC_NORMAL);
    }
    for (c = 0; c < n; c++) {
        double mean = 0, var = 0, want = s2r_dist_mean(&cases[c]), se;
        if (!draw_many(&cases[c], &rng, x, N)) continue;
        for (i = 0; i < N; i++) mean += x[i];
        mean /= N;
        for (i = 0; i < N; i++) var += (x[i] - mean) * (x[i] - mean);
        se = sqrt(var / (N - 1) / N);
        {   /* against the reference's mean of its own draws: two samples, sqrt(2) x 4.5 standard errors */
            char key[48];
            snprintf(key, sizeof key, "mean_of_20000_case%d", c);
            grade_label(key, 1, 0, "%s: the mean of %d draws (within 6.4 standard errors of the reference's)",
                        describe(&cases[c]), N);
            grade_answer_within(key, &mean, 1, 6.4 * se + 1e-12);
        }
        GRADE_EXPECT(fabs(mean - want) <= 4.5 * se && (se > 0 || mean == want),
                     "%s: the mean of %d draws is %.6g, s2r_dist_mean gives %.6g (%.1f standard errors of %.2g away; "
                     "at most 4.5 allowed)", describe(&cases[c]), N, mean, want, se > 0 ? fabs(mean - want) / se : INFINITY, se);
    }
}

/* The rng passed in is the only randomness: equal states give equal
   draws; uniform and log-uniform take exactly one number from it. */
static void check_determinism(void) {
    s2r_dist cases[3];
    double sent[3 * 22];
    int c, i, m = 0;
    cases[0] = s2r_dist_uniform(0.5, 1.5);
    cases[1] = s2r_dist_log_uniform(0.7, 1.4);
    cases[2] = s2r_dist_trunc_normal(0.8, 1.2, 1, 0.1);
    for (c = 0; c < 3; c++) {
        const s2r_dist* d = &cases[c];
        s2r_rng a = s2r_rng_make(grade_seeded(707), (uint64_t)c), b = a, one = a, other = s2r_rng_make(grade_seeded(708), (uint64_t)c);
        double x = 0, y = 0;
        int same = 1, seeds_differ = 0, first = 0;
        for (i = 0; i < 20; i++) {
            double xi = s2r_dist_sample(d, &a), yi = s2r_dist_sample(d, &b);
            if (same) { x = xi; y = yi; same = xi == yi; first = i + 1; }
            sent[m] = xi - yi;
            grade_label("rng_only_randomness", 66, m++, "%s: draw %d from two generators in the same state, their "
                        "difference (no rand(), no static state)", describe(d), i + 1);
        }

        GRADE_EXPECT(same, "%s: two generators in the same state gave different draws (%.9g and %.9g at draw %d): "
                     "the rng passed in must be the only source of randomness (no rand(), no static state)",
                     describe(d), x, y, first);
        a = b = one;
        for (i = 0; i < 5; i++) seeds_differ |= s2r_dist_sample(d, &a) != s2r_dist_sample(d, &other);
        GRADE_EXPECT(seeds_differ, "%s: generators from two different seeds gave the same 5 draws: is the rng used?",
                     describe(d));
        a = one;
        x = s2r_dist_sample(d, &a);
        if (d->kind == S2R_DIST_TRUNC_NORMAL) {
            GRADE_EXPECT(memcmp(&a, &one, sizeof a) != 0, "%s: the generator did not move; a draw must come from the "
                         "rng passed in", describe(d));
            sent[m] = sent[m + 1] = 0;
        } else {
            (void)s2r_rng_u64(&b);   /* b = one, one number ahead */
            GRADE_EXPECT(memcmp(&a, &b, sizeof a) == 0, "%s: one draw must take exactly one number from the rng "
                         "(one s2r_rng_uniform), the generator ended elsewhere", describe(d));
            next_number(&a, &sent[m]);
        }
        grade_label("rng_only_randomness", 66, m++, "%s: the generator's next number after one draw (high half; one "
                    "draw takes one number)", describe(d));
        grade_label("rng_only_randomness", 66, m++, "%s: the generator's next number after one draw (low half)", describe(d));
    }
    grade_answer("rng_only_randomness", sent, m, 0);
}

/* Set entry p of r. */
static void set_entry(s2r_randomization* r, s2r_param p, int enabled, s2r_apply_mode mode, s2r_dist dist) {
    r->p[p].enabled = enabled;
    r->p[p].mode = mode;
    r->p[p].dist = dist;
}

/* The table's draw against a replay: enabled entries in enum order through
   s2r_dist_sample, disabled ones the identity of their mode. */
/* For the judge, per episode and entry: a disabled or degenerate entry's
   value (the same for every correct sampler), an enabled one's difference
   from the replay (0); then the generator's next numbers after the episode,
   less the replay's (0). */
static void expect_table_draw(const s2r_randomization* r, uint64_t seed, const char* what, const char* key) {
    s2r_rng rng = s2r_rng_make(grade_seeded(seed), 0), replay = rng;
    double values[S2R_PARAM_COUNT], want[S2R_PARAM_COUNT];
    static double sent[4 * (S2R_PARAM_COUNT + 2)];
    int e, p, shown = 0, m = 0, total = 4 * (S2R_PARAM_COUNT + 2);
    for (e = 0; e < 4; e++) {   /* four episodes from one generator */
        for (p = 0; p < S2R_PARAM_COUNT; p++) values[p] = NAN;
        s2r_randomization_sample(r, &rng, values);
        for (p = 0; p < S2R_PARAM_COUNT; p++)
            want[p] = r->p[p].enabled ? s2r_dist_sample(&r->p[p].dist, &replay) : r->p[p].mode == S2R_APPLY_SCALE ? 1.0 : 0.0;
        for (p = 0; p < S2R_PARAM_COUNT; p++, m++) {
            const s2r_dist* d = &r->p[p].dist;
            int fixed = !r->p[p].enabled || d->kind == S2R_DIST_FIXED || d->lo == d->hi;
            sent[m] = fixed ? values[p] : values[p] - want[p];
            grade_label(key, total, m, "%s, episode %d: values[%s] (%s%s)%s", what, e + 1, s2r_param_name((s2r_param)p),
                        r->p[p].enabled ? "enabled, " : "disabled, mode ", r->p[p].enabled ? describe(d)
                        : s2r_apply_mode_name(r->p[p].mode), fixed ? "" : ", less the replay's draw through s2r_dist_sample");
        }
        {
            s2r_rng a = rng, b = replay;
            double x[2], y[2];
            next_number(&a, x);
            next_number(&b, y);
            sent[m] = x[0] - y[0]; grade_label(key, total, m++, "%s, episode %d: the generator's next number after it, less the "
                                               "replay's (high half)", what, e + 1);
            sent[m] = x[1] - y[1]; grade_label(key, total, m++, "%s, episode %d: the same, low half", what, e + 1);
        }
        for (p = 0; p < S2R_PARAM_COUNT; p++) {
            if (values[p] == want[p] || shown >= 4) continue;
            shown++;
            if (!r->p[p].enabled)
                grade_fail("%s, episode %d: values[%s] (disabled, mode %s) is %g, expected %g: a disabled entry takes its "
                           "mode's identity (1 for scale, 0 for offset and absolute), whatever its dist holds",
                           what, e + 1, s2r_param_name((s2r_param)p), s2r_apply_mode_name(r->p[p].mode), values[p], want[p]);
            else
                grade_fail("%s, episode %d: values[%s] (enabled, %s) is %.9g; drawing the enabled entries in enum "
                           "order with s2r_dist_sample from the same generator gives %.9g (are disabled entries drawn, "
                           "or entries drawn out of order?)",
                           what, e + 1, s2r_param_name((s2r_param)p), describe(&r->p[p].dist), values[p], want[p]);
        }
        if (memcmp(&rng, &replay, sizeof rng) != 0) {
            grade_fail("%s, episode %d: the generator ended elsewhere than after drawing only the enabled entries, once "
                       "each, in enum order (disabled entries draw nothing)", what, e + 1);
            break;
        }
    }
    grade_answer(key, sent, m, 0);
}

static void check_table(void) {
    s2r_randomization r = s2r_randomization_none(), d = s2r_randomization_default();
    s2r_dist garbage = s2r_dist_uniform(NAN, NAN);
    char error[S2R_ERROR_LEN];
    garbage.kind = S2R_DIST_COUNT;
    /* enabled entries of every kind and mode */
    set_entry(&r, S2R_PARAM_FRICTION, 1, S2R_APPLY_SCALE, s2r_dist_uniform(0.5, 1.5));
    set_entry(&r, S2R_PARAM_ARMATURE, 1, S2R_APPLY_SCALE, s2r_dist_log_uniform(0.7, 1.4));
    set_entry(&r, S2R_PARAM_KV, 1, S2R_APPLY_SCALE, s2r_dist_fixed(1.1));
    set_entry(&r, S2R_PARAM_TORQUE_LIMIT, 1, S2R_APPLY_SCALE, s2r_dist_trunc_normal(0.8, 1.2, 1, 0.1));
    set_entry(&r, S2R_PARAM_ACTION_LATENCY, 1, S2R_APPLY_ABSOLUTE, s2r_dist_uniform(0.01, 0.03));
    set_entry(&r, S2R_PARAM_OBS_LATENCY, 1, S2R_APPLY_OFFSET, s2r_dist_uniform(0.002, 0.004));
    set_entry(&r, S2R_PARAM_TABLE_HEIGHT, 1, S2R_APPLY_OFFSET, s2r_dist_uniform(-0.01, 0.01));
    set_entry(&r, S2R_PARAM_OBJECT_DROPOUT, 1, S2R_APPLY_ABSOLUTE, s2r_dist_uniform(0.05, 0.05));   /* lo == hi */
    /* disabled entries of every mode, holding ranges that must not be drawn */
    set_entry(&r, S2R_PARAM_DAMPING, 0, S2R_APPLY_SCALE, s2r_dist_log_uniform(0.7, 1.4));
    set_entry(&r, S2R_PARAM_KP, 0, S2R_APPLY_SCALE, s2r_dist_fixed(1.2));
    set_entry(&r, S2R_PARAM_FRICTIONLOSS, 0, S2R_APPLY_OFFSET, s2r_dist_uniform(0, 0.6));
    set_entry(&r, S2R_PARAM_TIMESTEP, 0, S2R_APPLY_OFFSET, s2r_dist_fixed(0.5));
    set_entry(&r, S2R_PARAM_PAYLOAD, 0, S2R_APPLY_ABSOLUTE, s2r_dist_fixed(0.3));
    set_entry(&r, S2R_PARAM_QPOS_NOISE, 0, S2R_APPLY_ABSOLUTE, s2r_dist_uniform(0, 0.001));
    set_entry(&r, S2R_PARAM_OBJECT_MASS, 0, S2R_APPLY_SCALE, s2r_dist_trunc_normal(0.7, 1.3, 1, 0.2));
    set_entry(&r, S2R_PARAM_QVEL_NOISE, 0, S2R_APPLY_ABSOLUTE, garbage);   /* off is off, whatever it holds */
    if (s2r_randomization_check(&r, error) != S2R_OK) { grade_fail("grader bug: the test table is invalid: %s", error); return; }
    expect_table_draw(&r, 808, "a table with enabled and disabled entries of every mode", "table_every_mode");
    expect_table_draw(&d, 809, "the default training ranges", "table_default");
    if (grade_seed()) {   /* the first table, its fixed values, enabled entries and disabled modes drawn from the seed */
        s2r_rng draw = s2r_rng_make(grade_seed(), 1);
        int p;
        r.p[S2R_PARAM_KV].dist = s2r_dist_fixed(s2r_rng_range(&draw, 0.8, 1.25));
        r.p[S2R_PARAM_KP] = r.p[S2R_PARAM_KV];
        r.p[S2R_PARAM_KP].enabled = s2r_rng_uniform(&draw) < 0.5;
        r.p[S2R_PARAM_OBJECT_DROPOUT].dist.lo = r.p[S2R_PARAM_OBJECT_DROPOUT].dist.hi = s2r_rng_range(&draw, 0, 0.1);
        for (p = 0; p < S2R_PARAM_COUNT; p++)
            if (!r.p[p].enabled && p != S2R_PARAM_QVEL_NOISE) r.p[p].mode = (s2r_apply_mode)s2r_rng_int(&draw, 3);
        if (s2r_randomization_check(&r, error) != S2R_OK) { grade_fail("grader bug: the seeded table is invalid: %s", error); return; }
        expect_table_draw(&r, 811, "a table drawn from the grading seed", "table_seeded");
    }
    d = s2r_randomization_none();
    expect_table_draw(&d, 810, "everything off (s2r_randomization_none)", "table_none");
}

/* ---- integration ------------------------------------------------------- */

/* A UR5e reach simulator drawing from `r`; 0 (after a failure) if it did
   not start. */
static int start_sim(s2r_sim* sim, const s2r_randomization* r) {
    s2r_sim_config sc = s2r_task_sim_config(S2R_TASK_REACH, S2R_ROBOT_UR5E);
    sc.randomization = *r;
    if (s2r_sim_init(sim, &sc) != S2R_OK) {
        grade_fail("the randomized simulator did not start: %s (it runs its delays on the delay line of "
                   "assignment 1: a header that still holds that assignment's stub cannot start it)", sim->error);
        return 0;
    }
    return 1;
}

/* The parameters the simulator draws once per joint (s2r_sim_draw.joint). */
static int joint_wise(s2r_param p) {
    return p == S2R_PARAM_KP || p == S2R_PARAM_KV || p == S2R_PARAM_TORQUE_LIMIT || p == S2R_PARAM_DAMPING ||
           p == S2R_PARAM_ARMATURE || p == S2R_PARAM_FRICTIONLOSS;
}

/* Over RESETS resets of the randomized simulator with the default reach
   ranges, every enabled parameter's draws (sim.draw: the episode's
   parameters, which s2r_sim_privileged summarizes for a privileged
   critic; all joints pooled for the per-joint ones) pass a KS test
   against its range at significance 1e-4 per parameter (16 parameters: a
   correct sampler fails one by chance with probability below 0.2 %), and
   every disabled one stays at its mode's identity. */
static void check_sim_draws(void) {
    enum { RESETS = 1000 };
    static double x[RESETS * S2R_MAX_JOINTS];
    static s2r_sim_draw draws[RESETS];
    s2r_randomization r = s2r_task_randomization(S2R_TASK_REACH);
    s2r_sim sim;
    int i, j, p, n, tested = 0;
    if (!start_sim(&sim, &r)) return;
    n = sim.robot.info.n_joints;
    for (i = 0; i < RESETS; i++) {
        s2r_rng rng = s2r_rng_make(2024, (uint64_t)i);
        if (s2r_backend_reset(s2r_sim_backend(&sim), NULL, NULL, &rng) != S2R_OK) {
            grade_fail("reset %d of the randomized simulator failed: %s", i + 1, sim.error);
            s2r_sim_free(&sim);
            return;
        }
        draws[i] = sim.draw;
    }
    s2r_sim_free(&sim);
    for (p = 0; p < S2R_PARAM_COUNT; p++) {
        const s2r_param_range* e = &r.p[p];
        char what[96];
        int m = 0;
        if (!e->enabled) {
            double identity = e->mode == S2R_APPLY_SCALE ? 1.0 : 0.0, off = 0;
            char key[64];
            for (i = 0; i < RESETS; i++) off += draws[i].value[p] != identity;
            snprintf(key, sizeof key, "sim_off_%s", s2r_param_name((s2r_param)p));
            grade_label(key, 1, 0, "%s (off in the default ranges): the resets of %d that drew other than its mode's identity",
                        s2r_param_name((s2r_param)p), RESETS);
            grade_answer(key, &off, 1, 0);
            for (i = 0; i < RESETS && draws[i].value[p] == identity; i++) {}
            GRADE_EXPECT(i == RESETS, "%s is off in the default ranges, yet reset %d drew %g for it (expected %g, its "
                         "mode's identity)", s2r_param_name((s2r_param)p), i + 1, draws[i < RESETS ? i : 0].value[p], identity);
            continue;
        }
        for (i = 0; i < RESETS; i++) {
            if (joint_wise((s2r_param)p)) for (j = 0; j < n; j++) x[m++] = draws[i].joint[p][j];
            else if (p == S2R_PARAM_LINK_MASS) for (j = 0; j < n; j++) x[m++] = draws[i].link_mass[j];
            else x[m++] = draws[i].value[p];
        }
        snprintf(what, sizeof what, "the simulator's %s over %d resets (%s):", s2r_param_name((s2r_param)p), RESETS,
                 m > RESETS ? "all joints" : "once per episode");
        ks_test(x, m, &e->dist, 1e-4, what, "The simulator draws through your s2r_randomization_sample and s2r_dist_sample.");
        {
            char key[64];
            snprintf(key, sizeof key, "sim_draws_%s", s2r_param_name((s2r_param)p));
            send_quantiles(key, x, m, 1e-4, what);
        }
        tested++;
    }
    GRADE_EXPECT(tested >= 10, "grader bug: only %d parameters tested", tested);
}

/* The reach expert on the randomized simulator: `episodes` episodes from
   `seed`; its success rate and mean final distance (m) into out[2]. */
static int expert_run(const s2r_randomization* r, int episodes, uint64_t seed, double out[2]) {
    s2r_task_config tc = s2r_task_config_default(S2R_TASK_REACH);
    s2r_expert_config ec = s2r_expert_config_default();
    s2r_sim sim;
    s2r_task task;
    s2r_expert expert;
    s2r_controller controller;
    s2r_eval_result res;
    s2r_result status;
    if (!start_sim(&sim, r)) return 0;
    if (s2r_task_init(&task, &tc, s2r_sim_backend(&sim)) != S2R_OK) {
        grade_fail("the task did not start: %s", task.error ? task.error : "?");
        s2r_sim_free(&sim);
        return 0;
    }
    if (s2r_expert_init(&expert, &ec, &tc, s2r_sim_backend(&sim)->info) != S2R_OK) {
        grade_fail("the expert did not start: %s", expert.error);
        s2r_task_free(&task);
        s2r_sim_free(&sim);
        return 0;
    }
    controller = s2r_expert_controller(&expert);
    status = s2r_evaluate(&controller, &task, episodes, seed, &res, NULL);
    GRADE_EXPECT(status == S2R_OK, "the evaluation failed: %s", s2r_result_string(status));
    out[0] = res.success_rate;
    out[1] = res.mean_distance;
    s2r_expert_free(&expert);
    s2r_task_free(&task);
    s2r_sim_free(&sim);
    return status == S2R_OK;
}

/* The expert's success rate on the default ranges and on them stretched
   3x (where it fails about one episode in five) against the reference's,
   episode i of each run from s2r_rng_make(1, i).
   The band: the reference's Wilson 95 % interval (the library's
   s2r_wilson_interval, run when the reference's answers are recorded:
   the tolerance recorded then is the one the judge uses) stretched 2x
   about its rate, its larger side on both.  A sampler that maps the
   uniform numbers exactly as the reference does reproduces its episodes
   bit for bit; one that maps them another correct way sees other
   episodes of the same distribution, and the difference of two
   independent rates has sqrt(2) times the spread of one, so 2x the
   half-width (z = 1.96 * 2 / sqrt(2) = 2.8) holds it with probability
   above 99 %. */
static void check_expert(void) {
    static const int episodes[2] = {100, 200};
    static const double stretch[2] = {1, 3};
    double got[4];
    int k;
    for (k = 0; k < 2; k++) {
        s2r_randomization r = s2r_task_randomization(S2R_TASK_REACH);
        if (stretch[k] != 1 && s2r_randomization_widen(&r, stretch[k]) != S2R_OK) { grade_fail("grader bug: widen"); return; }
        if (!expert_run(&r, episodes[k], 1, got + 2 * k)) return;
        printf("      default ranges x%g: the expert succeeds in %5.1f %% of %d episodes, final distance %.4f m\n",
               stretch[k], 100 * got[2 * k], episodes[k], got[2 * k + 1]);
    }
    for (k = 0; k < 2; k++) {
        double lo = NAN, hi = NAN, p = got[2 * k], half;
        char key[64];
        s2r_wilson_interval((int)lround(p * episodes[k]), episodes[k], &lo, &hi);
        half = 2 * fmax(p - lo, hi - p);
        snprintf(key, sizeof key, "expert_success_default_x%g", stretch[k]);
        grade_label(key, 1, 0, "default ranges x%g: the expert's success rate over %d episodes on your draws (within the "
                    "reference's Wilson interval stretched 2x; are the simulator's parameters drawn as the ranges say?)",
                    stretch[k], episodes[k]);
        grade_answer_within(key, &got[2 * k], 1, isfinite(half) ? half : 0);
    }
}

int main(int argc, char** argv) {
    static const grade_check checks[] = {
        {"support: draws lie in [lo, hi] and reach both ends", 2, 20, GRADE_UNIT, check_support},
        {"degenerate cases draw nothing; unknown kind is NaN", 1, 10, GRADE_UNIT, check_degenerate},
        {"uniform: KS test against the exact CDF", 1, 20, GRADE_UNIT, check_ks_uniform},
        {"log-uniform: KS test against the exact CDF", 2, 20, GRADE_UNIT, check_ks_log_uniform},
        {"truncated normal: KS test against the exact CDF", 3, 30, GRADE_UNIT, check_ks_trunc_normal},
        {"the mean of many draws matches s2r_dist_mean", 1, 20, GRADE_UNIT, check_mean},
        {"the rng is the only randomness (one draw per uniform)", 2, 10, GRADE_UNIT, check_determinism},
        {"table: enabled entries drawn, disabled at identity", 3, 10, GRADE_UNIT, check_table},
        {"integration: the simulator's draws follow the ranges", 3, 120, GRADE_INTEGRATION, check_sim_draws, "latency"},
        {"integration: the expert on randomized simulators", 3, 180, GRADE_INTEGRATION, check_expert, "latency"},
    };
    return grade_main(argc, argv, "2_randomization (drawing the simulator's parameters)", checks,
                      (int)(sizeof checks / sizeof *checks));
}
