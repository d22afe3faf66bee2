/* tests/test_gap.c - tests of the Randomization and Sensing/Latency sections:
   distributions (moments against numerical integration, bounds, validation,
   widening), the parameter table and its text file (errors name the line,
   exact round trips, the caller's struct untouched on error), noise models
   (zero config is the exact identity and draws nothing; dropout,
   quantization, saturation, drift statistics) and delay lines, jitter and
   sample-and-hold.

   Statistical checks use fixed seeds, so they are deterministic; their
   tolerances are 5 standard errors of the estimate (for a correct sampler a
   two-sided miss has probability about 6e-7 per check), so a failure means
   a real bias, not bad luck.

   Included by tests/test_main.c. */
#include "test.h"
#include <float.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------------
   Helpers
   ------------------------------------------------------------------------- */

#define GAP_N 200000               /* samples per statistical check */
static double gap_samples[GAP_N];

static int gap_same_bits(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

static int gap_same_rng(const s2r_rng* a, const s2r_rng* b) {
    return memcmp(a->s, b->s, sizeof a->s) == 0;
}

/* Fields a kind uses are bit-identical (unused fields are free). */
static int gap_same_dist(const s2r_dist* a, const s2r_dist* b) {
    if (a->kind != b->kind) return 0;
    if (a->kind == S2R_DIST_FIXED) return gap_same_bits(a->mean, b->mean);
    if (!gap_same_bits(a->lo, b->lo) || !gap_same_bits(a->hi, b->hi)) return 0;
    if (a->kind != S2R_DIST_TRUNC_NORMAL) return 1;
    return gap_same_bits(a->mean, b->mean) && gap_same_bits(a->std, b->std);
}

/* Index of the first entry that differs, or -1. */
static int gap_first_difference(const s2r_randomization* a, const s2r_randomization* b) {
    int p;
    for (p = 0; p < S2R_PARAM_COUNT; p++) {
        const s2r_param_range *x = &a->p[p], *y = &b->p[p];
        if (x->enabled != y->enabled || x->mode != y->mode || !gap_same_dist(&x->dist, &y->dist))
            return p;
    }
    if (a->n_joint_ranges != b->n_joint_ranges) return S2R_PARAM_COUNT;
    for (p = 0; p < a->n_joint_ranges; p++) {
        const s2r_joint_range *x = &a->joint_range[p], *y = &b->joint_range[p];
        if (x->param != y->param || x->joint != y->joint || !gap_same_dist(&x->dist, &y->dist)) return x->param;
    }
    return -1;
}

static void gap_mean_var(const double* x, int n, double* mean, double* var) {
    double m = 0, v = 0;
    int i;
    for (i = 0; i < n; i++) m += x[i];
    m /= n;
    for (i = 0; i < n; i++) v += (x[i] - m) * (x[i] - m);
    *mean = m;
    *var = v / (n - 1);
}

/* Mean, variance and 4th central moment of d by composite Simpson's rule
   (40000 intervals; log-uniform is integrated in log x, where it is flat).
   The quadrature error is many orders below the sampling tolerances. */
static void gap_reference(const s2r_dist* d, double* mean, double* var, double* mu4) {
    const int n = 40000;
    int log_space = d->kind == S2R_DIST_LOG_UNIFORM;
    double a = log_space ? log(d->lo) : d->lo, b = log_space ? log(d->hi) : d->hi;
    double h = (b - a) / n, z = 0, m1 = 0, c2 = 0, c4 = 0;
    int pass, i;
    for (pass = 0; pass < 2; pass++) {
        for (i = 0; i <= n; i++) {
            double u = a + h * i, x = log_space ? exp(u) : u;
            double w = (i == 0 || i == n) ? 1 : (i % 2 ? 4 : 2);
            double f = 1;
            if (d->kind == S2R_DIST_TRUNC_NORMAL) f = exp(-0.5 * pow((x - d->mean) / d->std, 2));
            if (pass == 0) { z += w * f; m1 += w * f * x; }
            else { c2 += w * f * pow(x - *mean, 2); c4 += w * f * pow(x - *mean, 4); }
        }
        if (pass == 0) *mean = m1 / z;
    }
    *var = c2 / z;
    *mu4 = c4 / z;
}

/* Draw GAP_N samples of d and compare mean and variance with the reference;
   also check every sample lies in [lo, hi] and s2r_dist_mean is exact. */
static int gap_check_moments(const s2r_dist* d, uint64_t seed) {
    s2r_rng rng = s2r_rng_make(seed, 0);
    double mean = 0, var = 0, mu4 = 0, m, v, se_mean, se_var;
    int i;
    CHECKF(s2r_dist_check(d, NULL) == S2R_OK || d->kind == S2R_DIST_TRUNC_NORMAL,
           "test distribution should be valid");
    gap_reference(d, &mean, &var, &mu4);
    for (i = 0; i < GAP_N; i++) {
        gap_samples[i] = s2r_dist_sample(d, &rng);
        CHECKF(gap_samples[i] >= d->lo && gap_samples[i] <= d->hi,
               "%s sample %.17g outside [%g, %g]", s2r_dist_kind_name(d->kind),
               gap_samples[i], d->lo, d->hi);
    }
    gap_mean_var(gap_samples, GAP_N, &m, &v);
    se_mean = sqrt(var / GAP_N);
    se_var = sqrt((mu4 - var * var) / GAP_N);
    CHECKF(fabs(m - mean) <= 5 * se_mean, "%s [%g, %g]: sample mean %.6g, expected %.6g +- %.2g",
           s2r_dist_kind_name(d->kind), d->lo, d->hi, m, mean, 5 * se_mean);
    CHECKF(fabs(v - var) <= 5 * se_var, "%s [%g, %g]: sample var %.6g, expected %.6g +- %.2g",
           s2r_dist_kind_name(d->kind), d->lo, d->hi, v, var, 5 * se_var);
    CHECKF(fabs(s2r_dist_mean(d) - mean) <= 1e-9 * (d->hi - d->lo),
           "s2r_dist_mean %.15g vs integrated %.15g", s2r_dist_mean(d), mean);
    CHECKF(fabs(s2r_dist_std(d) - sqrt(var)) <= 1e-8 * (d->hi - d->lo),
           "s2r_dist_std %.15g vs integrated %.15g", s2r_dist_std(d), sqrt(var));
    return 0;
}

/* Whether error names "line N:" and contains `what`. */
static int gap_error_says(const char* error, int line, const char* what) {
    char tag[32];
    snprintf(tag, sizeof tag, "line %d:", line);
    return strstr(error, tag) != NULL && strstr(error, what) != NULL;
}

/* ---------------------------------------------------------------------------
   Distributions
   ------------------------------------------------------------------------- */

static int test_dist_uniform_moments(void) {
    s2r_dist a = s2r_dist_uniform(0.5, 1.5), b = s2r_dist_uniform(-3.0, -1.0);
    if (gap_check_moments(&a, 1)) return 1;
    return gap_check_moments(&b, 2);
}

static int test_dist_log_uniform_moments(void) {
    s2r_dist a = s2r_dist_log_uniform(0.7, 1.4), b = s2r_dist_log_uniform(1e-3, 10.0);
    if (gap_check_moments(&a, 3)) return 1;
    return gap_check_moments(&b, 4);
}

static int test_dist_trunc_normal_moments(void) {
    /* Wide and narrow intervals (both proposal paths of the sampler), the
       mean on a bound (half-normal), a std much larger than the interval
       (nearly uniform), and an interval in the tail (not accepted by
       s2r_dist_check, but the sampler and the mean still handle it). */
    s2r_dist cases[7];
    int i;
    cases[0] = s2r_dist_trunc_normal(0.0, 0.5, 0.2, 0.1);
    cases[1] = s2r_dist_trunc_normal(0.0, 1.0, 0.0, 0.3);
    cases[2] = s2r_dist_trunc_normal(0.0, 1.0, 0.5, 5.0);
    cases[3] = s2r_dist_trunc_normal(1.0, 2.0, 1.1, 0.5);
    cases[4] = s2r_dist_trunc_normal(0.0, 1.0, 1.0, 1.0);
    cases[5] = s2r_dist_trunc_normal(-8.0, 8.0, 0.0, 1.0);
    cases[6] = s2r_dist_trunc_normal(2.0, 3.0, 0.0, 1.0);
    for (i = 0; i < 7; i++)
        if (gap_check_moments(&cases[i], 10 + (uint64_t)i)) return 1;
    CHECK(s2r_dist_check(&cases[6], NULL) == S2R_ERR_INVALID_ARGUMENT);
    return 0;
}

static int test_dist_extreme_bounds(void) {
    /* Samples stay inside the support even where rounding could push them
       out: a one-ulp interval and a log-uniform spanning 600 decades. */
    s2r_dist d[3];
    s2r_rng rng = s2r_rng_make(7, 0);
    int i, k;
    d[0] = s2r_dist_uniform(1.0, nextafter(1.0, 2.0));
    d[1] = s2r_dist_log_uniform(1e-300, 1e300);
    d[2] = s2r_dist_trunc_normal(-1e-12, 1e-12, 0.0, 1e6);
    for (k = 0; k < 3; k++) {
        CHECK(s2r_dist_check(&d[k], NULL) == S2R_OK);
        for (i = 0; i < 100000; i++) {
            double x = s2r_dist_sample(&d[k], &rng);
            CHECKF(x >= d[k].lo && x <= d[k].hi, "case %d: %.17g", k, x);
        }
    }
    /* The wide truncated normal's mean is the interval centre (the old
       phi(a) - phi(b) cancellation would give the untruncated mean). */
    d[2] = s2r_dist_trunc_normal(0.0, 1.0, 0.0, 1e9);
    CHECKF(fabs(s2r_dist_mean(&d[2]) - 0.5) < 1e-9, "%.17g", s2r_dist_mean(&d[2]));
    return 0;
}

static int test_dist_degenerate_draws_nothing(void) {
    s2r_dist d[5];
    double expect[5] = {0.25, 2.0, 3.0, 0.4, 7.0};
    s2r_rng rng = s2r_rng_make(11, 0), before = rng;
    int k;
    d[0] = s2r_dist_fixed(0.25);
    d[1] = s2r_dist_uniform(2.0, 2.0);
    d[2] = s2r_dist_log_uniform(3.0, 3.0);
    d[3] = s2r_dist_trunc_normal(0.0, 1.0, 0.4, 0.0);
    d[4] = s2r_dist_trunc_normal(7.0, 7.0, 7.0, 1.0);
    for (k = 0; k < 5; k++) {
        CHECK(s2r_dist_check(&d[k], NULL) == S2R_OK);
        CHECKF(s2r_dist_sample(&d[k], &rng) == expect[k], "case %d", k);
        CHECKF(s2r_dist_mean(&d[k]) == expect[k], "case %d mean", k);
        CHECKF(s2r_dist_std(&d[k]) == 0, "case %d std %g", k, s2r_dist_std(&d[k]));
    }
    CHECK(gap_same_rng(&rng, &before));
    /* A non-degenerate one does draw. */
    d[0] = s2r_dist_uniform(0, 1);
    s2r_dist_sample(&d[0], &rng);
    CHECK(!gap_same_rng(&rng, &before));
    return 0;
}

static int test_dist_check_rejects(void) {
    struct { s2r_dist d; const char* says; } bad[11];
    char error[S2R_ERROR_LEN];
    s2r_dist unknown = s2r_dist_uniform(0, 1);
    int i, n = 0;
    bad[n].d = s2r_dist_uniform(NAN, 1.0);                bad[n++].says = "finite";
    bad[n].d = s2r_dist_uniform(0.0, INFINITY);           bad[n++].says = "finite";
    bad[n].d = s2r_dist_uniform(1.5, 0.5);                bad[n++].says = "lo 1.5 is greater than hi 0.5";
    bad[n].d = s2r_dist_log_uniform(0.0, 1.0);            bad[n++].says = "lo must be > 0";
    bad[n].d = s2r_dist_log_uniform(-1.0, 1.0);           bad[n++].says = "lo must be > 0";
    bad[n].d = s2r_dist_log_uniform(2.0, 1.0);            bad[n++].says = "greater than";
    bad[n].d = s2r_dist_trunc_normal(0, 1, 0.5, -0.1);    bad[n++].says = "std -0.1 is negative";
    bad[n].d = s2r_dist_trunc_normal(0, 1, 2.0, 0.1);     bad[n++].says = "outside";
    bad[n].d = s2r_dist_trunc_normal(0, 1, NAN, 0.1);     bad[n++].says = "finite";
    bad[n].d = s2r_dist_trunc_normal(0, 1, 0.5, INFINITY); bad[n++].says = "finite";
    bad[n].d = s2r_dist_fixed(NAN);                       bad[n++].says = "finite";
    for (i = 0; i < n; i++) {
        error[0] = '\0';
        CHECKF(s2r_dist_check(&bad[i].d, error) == S2R_ERR_INVALID_ARGUMENT, "case %d", i);
        CHECKF(strstr(error, bad[i].says) != NULL, "case %d: message '%s'", i, error);
        CHECKF(strstr(error, s2r_dist_kind_name(bad[i].d.kind)) != NULL, "case %d: '%s'", i, error);
    }
    unknown.kind = (s2r_dist_kind)9;
    CHECK(s2r_dist_check(&unknown, error) == S2R_ERR_INVALID_ARGUMENT);
    CHECK(strstr(error, "unknown distribution kind 9") != NULL);
    CHECK(s2r_dist_check(NULL, error) == S2R_ERR_INVALID_ARGUMENT);
    CHECK(s2r_dist_check(&bad[2].d, NULL) == S2R_ERR_INVALID_ARGUMENT);  /* NULL error ok */
    return 0;
}

static int test_dist_widen(void) {
    s2r_dist u = s2r_dist_uniform(0.5, 1.5), l = s2r_dist_log_uniform(0.5, 2.0);
    s2r_dist t = s2r_dist_trunc_normal(0.0, 1.0, 0.2, 0.1), f = s2r_dist_fixed(3.0), w;
    w = s2r_dist_widen(&u, 2.0, 0.0, INFINITY);
    CHECK(w.lo == 0.0 && w.hi == 2.0);
    w = s2r_dist_widen(&u, 3.0, 0.0, INFINITY);   /* clipped at the physical floor */
    CHECK(w.lo == 0.0 && w.hi == 2.5);
    w = s2r_dist_widen(&u, 0.5, -INFINITY, INFINITY);
    CHECK(w.lo == 0.75 && w.hi == 1.25);
    w = s2r_dist_widen(&l, 2.0, 0.0, INFINITY);   /* log space: stays positive */
    CHECKF(fabs(w.lo - 0.25) < 1e-12 && fabs(w.hi - 4.0) < 1e-12, "%g %g", w.lo, w.hi);
    w = s2r_dist_widen(&t, 2.0, -INFINITY, INFINITY);
    CHECKF(fabs(w.lo + 0.2) < 1e-15 && fabs(w.hi - 1.8) < 1e-15 && w.std == 0.2 && w.mean == 0.2,
           "%g %g %g %g", w.lo, w.hi, w.mean, w.std);
    w = s2r_dist_widen(&f, 2.0, -INFINITY, INFINITY);
    CHECK(gap_same_dist(&w, &f));
    w = s2r_dist_widen(&u, NAN, -INFINITY, INFINITY);
    CHECK(gap_same_dist(&w, &u));
    w = s2r_dist_widen(&u, 0.0, -INFINITY, INFINITY);
    CHECK(gap_same_dist(&w, &u));

    return 0;
}

/* ---------------------------------------------------------------------------
   The parameter table
   ------------------------------------------------------------------------- */

static int test_param_names(void) {
    static const char* const kinds[S2R_DIST_COUNT] = {"fixed", "uniform", "loguniform", "truncnormal"};
    static const char* const modes[S2R_APPLY_COUNT] = {"scale", "offset", "absolute"};
    int p, q, k;
    for (p = 0; p < S2R_PARAM_COUNT; p++) {
        const char* name = s2r_param_name((s2r_param)p);
        CHECKF(s2r_param_find(name) == (s2r_param)p, "%s", name);
        CHECK(strlen(s2r_param_description((s2r_param)p)) > 0);
        for (q = 0; q < p; q++) CHECK(strcmp(name, s2r_param_name((s2r_param)q)) != 0);
    }
    CHECK(strcmp(s2r_param_name(S2R_PARAM_FRICTION), "friction") == 0);
    CHECK(strcmp(s2r_param_name(S2R_PARAM_ACTION_LATENCY), "action_latency") == 0);
    CHECK(strcmp(s2r_param_name(S2R_PARAM_COUNT), "unknown") == 0);
    CHECK(s2r_param_find("Friction") == S2R_PARAM_COUNT);
    CHECK(s2r_param_find(NULL) == S2R_PARAM_COUNT);
    for (k = 0; k < S2R_DIST_COUNT; k++) {
        CHECK(strcmp(s2r_dist_kind_name((s2r_dist_kind)k), kinds[k]) == 0);
        CHECK(s2r_dist_kind_find(kinds[k]) == (s2r_dist_kind)k);
    }
    CHECK(s2r_dist_kind_find("gaussian") == S2R_DIST_COUNT);
    for (k = 0; k < S2R_APPLY_COUNT; k++) {
        CHECK(strcmp(s2r_apply_mode_name((s2r_apply_mode)k), modes[k]) == 0);
        CHECK(s2r_apply_mode_find(modes[k]) == (s2r_apply_mode)k);
    }
    CHECK(s2r_apply_mode_find("multiply") == S2R_APPLY_COUNT);
    return 0;
}

static int test_randomization_none_is_identity(void) {
    s2r_randomization r = s2r_randomization_none();
    s2r_rng rng = s2r_rng_make(5, 0), before = rng;
    double v[S2R_PARAM_COUNT];
    int p;
    CHECK(s2r_randomization_check(&r, NULL) == S2R_OK);
    s2r_randomization_sample(&r, &rng, v);
    CHECK(gap_same_rng(&rng, &before));
    for (p = 0; p < S2R_PARAM_COUNT; p++) {
        double id = r.p[p].mode == S2R_APPLY_SCALE ? 1.0 : 0.0;
        CHECK(!r.p[p].enabled);
        CHECKF(v[p] == id, "%s: %g", s2r_param_name((s2r_param)p), v[p]);
        CHECK(s2r_param_apply(&r.p[p], 0.37, v[p]) == 0.37);
    }
    return 0;
}

static int test_randomization_default_sample(void) {
    s2r_randomization r = s2r_randomization_default();
    s2r_rng rng = s2r_rng_make(6, 0), replay = s2r_rng_make(60, 0);
    double v[S2R_PARAM_COUNT], again[S2R_PARAM_COUNT];
    char error[S2R_ERROR_LEN];
    int p, episode;
    CHECKF(s2r_randomization_check(&r, error) == S2R_OK, "%s", error);
    CHECK(r.p[S2R_PARAM_FRICTION].enabled && r.p[S2R_PARAM_FRICTION].dist.lo == 0.5);
    CHECK(r.p[S2R_PARAM_ACTION_LATENCY].dist.lo == 0.010 && r.p[S2R_PARAM_ACTION_LATENCY].dist.hi == 0.030);
    CHECK(!r.p[S2R_PARAM_TARGET_OFFSET].enabled && !r.p[S2R_PARAM_QPOS_BIAS].enabled);
    for (episode = 0; episode < 1000; episode++) {
        s2r_randomization_sample(&r, &rng, v);
        for (p = 0; p < S2R_PARAM_COUNT; p++) {
            double lo, hi;
            if (!r.p[p].enabled) { CHECK(v[p] == (r.p[p].mode == S2R_APPLY_SCALE ? 1.0 : 0.0)); continue; }
            s2r_dist_support(&r.p[p].dist, &lo, &hi);
            CHECKF(v[p] >= lo && v[p] <= hi, "%s: %g", s2r_param_name((s2r_param)p), v[p]);
        }
    }
    /* The documented draw order: enum order, one s2r_dist_sample each,
       nothing for disabled entries. */
    rng = replay;
    s2r_randomization_sample(&r, &replay, v);
    for (p = 0; p < S2R_PARAM_COUNT; p++)
        again[p] = r.p[p].enabled ? s2r_dist_sample(&r.p[p].dist, &rng) : (r.p[p].mode == S2R_APPLY_SCALE ? 1.0 : 0.0);
    for (p = 0; p < S2R_PARAM_COUNT; p++) CHECK(gap_same_bits(v[p], again[p]));
    CHECK(gap_same_rng(&rng, &replay));
    return 0;
}

static int test_param_apply_modes(void) {
    s2r_param_range pr = s2r_param_range_off(S2R_PARAM_DAMPING);
    CHECK(s2r_param_apply(&pr, 2.0, 5.0) == 2.0);          /* disabled: nominal */
    pr.enabled = 1;
    pr.mode = S2R_APPLY_SCALE;    CHECK(s2r_param_apply(&pr, 2.0, 1.5) == 3.0);
    pr.mode = S2R_APPLY_OFFSET;   CHECK(s2r_param_apply(&pr, 2.0, 1.5) == 3.5);
    pr.mode = S2R_APPLY_ABSOLUTE; CHECK(s2r_param_apply(&pr, 2.0, 1.5) == 1.5);
    return 0;
}

static int test_randomization_check_rejects(void) {
    struct { s2r_param p; s2r_dist d; s2r_apply_mode m; const char* says; } bad[9];
    char error[S2R_ERROR_LEN];
    int i, n = 0;
    bad[n].p = S2R_PARAM_ACTION_LATENCY; bad[n].d = s2r_dist_uniform(-0.01, 0.02);
    bad[n].m = S2R_APPLY_ABSOLUTE; bad[n++].says = "must be >= 0";
    bad[n].p = S2R_PARAM_TIMESTEP; bad[n].d = s2r_dist_uniform(0.0, 1.1);
    bad[n].m = S2R_APPLY_SCALE; bad[n++].says = "must be > 0";
    bad[n].p = S2R_PARAM_TIMESTEP; bad[n].d = s2r_dist_fixed(-1.0);
    bad[n].m = S2R_APPLY_SCALE; bad[n++].says = "must be > 0";
    bad[n].p = S2R_PARAM_QPOS_NOISE; bad[n].d = s2r_dist_uniform(-0.001, 0.001);
    bad[n].m = S2R_APPLY_ABSOLUTE; bad[n++].says = "must be >= 0";
    bad[n].p = S2R_PARAM_QVEL_NOISE; bad[n].d = s2r_dist_trunc_normal(0, 1, 0.5, -1);
    bad[n].m = S2R_APPLY_ABSOLUTE; bad[n++].says = "negative";
    bad[n].p = S2R_PARAM_FRICTION; bad[n].d = s2r_dist_uniform(1.5, 0.5);
    bad[n].m = S2R_APPLY_SCALE; bad[n++].says = "greater than";
    bad[n].p = S2R_PARAM_FRICTION; bad[n].d = s2r_dist_uniform(NAN, 1.0);
    bad[n].m = S2R_APPLY_SCALE; bad[n++].says = "finite";
    bad[n].p = S2R_PARAM_PAYLOAD; bad[n].d = s2r_dist_uniform(0.0, 1.0);
    bad[n].m = S2R_APPLY_SCALE; bad[n++].says = "mode 'scale' is not allowed (use offset, absolute)";
    bad[n].p = S2R_PARAM_KP; bad[n].d = s2r_dist_uniform(0.5, 1.0);
    bad[n].m = (s2r_apply_mode)7; bad[n++].says = "unknown apply mode 7";
    for (i = 0; i < n; i++) {
        s2r_randomization r = s2r_randomization_default();
        r.p[bad[i].p].dist = bad[i].d;
        r.p[bad[i].p].mode = bad[i].m;
        error[0] = '\0';
        CHECKF(s2r_randomization_check(&r, error) == S2R_ERR_INVALID_ARGUMENT, "case %d", i);
        CHECKF(strncmp(error, s2r_param_name(bad[i].p), strlen(s2r_param_name(bad[i].p))) == 0,
               "case %d: '%s' should start with the parameter name", i, error);
        CHECKF(strstr(error, bad[i].says) != NULL, "case %d: '%s'", i, error);
        /* Disabled, the same entry is fine: it is never applied. */
        r.p[bad[i].p].enabled = 0;
        CHECKF(s2r_randomization_check(&r, error) == S2R_OK, "case %d: %s", i, error);
    }
    {   /* Offsets of model-given nominals may be negative. */
        s2r_randomization r = s2r_randomization_default();
        r.p[S2R_PARAM_FRICTION].dist = s2r_dist_uniform(-0.2, 0.2);
        r.p[S2R_PARAM_FRICTION].mode = S2R_APPLY_OFFSET;
        CHECKF(s2r_randomization_check(&r, error) == S2R_OK, "%s", error);
    }
    CHECK(s2r_randomization_check(NULL, error) == S2R_ERR_INVALID_ARGUMENT);
    return 0;
}

static int test_randomization_widen(void) {
    s2r_randomization r = s2r_randomization_default(), saved = r;
    char error[S2R_ERROR_LEN];
    int i;
    CHECK(s2r_randomization_widen(&r, NAN) == S2R_ERR_INVALID_ARGUMENT);
    CHECK(s2r_randomization_widen(&r, -1.0) == S2R_ERR_INVALID_ARGUMENT);
    CHECK(gap_first_difference(&r, &saved) == -1);
    CHECK(s2r_randomization_widen(&r, 1.5) == S2R_OK);
    CHECKF(fabs(r.p[S2R_PARAM_KP].dist.lo - 0.775) < 1e-12 &&
           fabs(r.p[S2R_PARAM_KP].dist.hi - 1.225) < 1e-12, "%g %g",
           r.p[S2R_PARAM_KP].dist.lo, r.p[S2R_PARAM_KP].dist.hi);
    for (i = 0; i < 20; i++) CHECK(s2r_randomization_widen(&r, 2.0) == S2R_OK);
    CHECKF(s2r_randomization_check(&r, error) == S2R_OK, "%s", error);   /* still physical */
    CHECK(r.p[S2R_PARAM_FRICTION].dist.lo == 0.0);
    CHECK(r.p[S2R_PARAM_LINK_MASS].dist.lo > 0.0);
    CHECK(r.p[S2R_PARAM_ACTION_LATENCY].dist.lo == 0.0);
    CHECK(!r.p[S2R_PARAM_TARGET_OFFSET].enabled);                          /* off stays off */
    {   /* Even absurdly wide tables sample finite values inside their ranges. */
        s2r_rng rng = s2r_rng_make(8, 0);
        double v[S2R_PARAM_COUNT];
        int p, e;
        for (e = 0; e < 1000; e++) {
            s2r_randomization_sample(&r, &rng, v);
            for (p = 0; p < S2R_PARAM_COUNT; p++) {
                double lo, hi;
                s2r_dist_support(&r.p[p].dist, &lo, &hi);
                CHECKF(isfinite(v[p]) && (!r.p[p].enabled || (v[p] >= lo && v[p] <= hi)),
                       "%s: %g", s2r_param_name((s2r_param)p), v[p]);
            }
        }
    }
    {   /* A uniform over the whole double range never yields NaN or Inf. */
        s2r_dist d = s2r_dist_uniform(-DBL_MAX, DBL_MAX);
        s2r_rng rng = s2r_rng_make(9, 0);
        for (i = 0; i < 10000; i++) CHECK(isfinite(s2r_dist_sample(&d, &rng)));
    }
    return 0;
}

/* ---------------------------------------------------------------------------
   The text file of ranges
   ------------------------------------------------------------------------- */

static const char* gap_example =
    "# name        dist         lo     hi     [mean std]  [mode]\n"
    "friction      uniform      0.5    1.5                 scale\n"
    "damping       loguniform   0.7    1.4                 scale\n"
    "payload       truncnormal  0.0    0.5    0.2  0.1     absolute\n"
    "action_latency uniform     0.010  0.030\n"
    "qpos_noise    off\n";

static int test_parse_example(void) {
    s2r_randomization r = s2r_randomization_default(), none = s2r_randomization_none();
    char error[S2R_ERROR_LEN];
    const s2r_param_range* e;
    int p;
    CHECKF(s2r_randomization_parse(&r, gap_example, error) == S2R_OK, "%s", error);
    e = &r.p[S2R_PARAM_FRICTION];
    CHECK(e->enabled && e->mode == S2R_APPLY_SCALE && e->dist.kind == S2R_DIST_UNIFORM);
    CHECK(e->dist.lo == 0.5 && e->dist.hi == 1.5);
    e = &r.p[S2R_PARAM_DAMPING];
    CHECK(e->enabled && e->dist.kind == S2R_DIST_LOG_UNIFORM && e->dist.lo == 0.7 && e->dist.hi == 1.4);
    e = &r.p[S2R_PARAM_PAYLOAD];
    CHECK(e->enabled && e->mode == S2R_APPLY_ABSOLUTE && e->dist.kind == S2R_DIST_TRUNC_NORMAL);
    CHECK(e->dist.lo == 0.0 && e->dist.hi == 0.5 && e->dist.mean == 0.2 && e->dist.std == 0.1);
    e = &r.p[S2R_PARAM_ACTION_LATENCY];   /* no mode column: the default, absolute */
    CHECK(e->enabled && e->mode == S2R_APPLY_ABSOLUTE && e->dist.lo == 0.010 && e->dist.hi == 0.030);
    e = &r.p[S2R_PARAM_QPOS_NOISE];
    CHECK(!e->enabled && e->dist.kind == S2R_DIST_FIXED && e->dist.mean == 0.0);
    /* Entries not named keep the defaults they had. */
    CHECK(r.p[S2R_PARAM_KP].enabled && r.p[S2R_PARAM_KP].dist.lo == 0.85);
    /* Onto none(), the file is the whole story. */
    CHECKF(s2r_randomization_parse(&none, gap_example, error) == S2R_OK, "%s", error);
    for (p = 0; p < S2R_PARAM_COUNT; p++) {
        int named = p == S2R_PARAM_FRICTION || p == S2R_PARAM_DAMPING ||
                    p == S2R_PARAM_PAYLOAD || p == S2R_PARAM_ACTION_LATENCY;
        CHECKF(none.p[p].enabled == named, "%s", s2r_param_name((s2r_param)p));
    }
    /* Blank text, comments only, CRLF, tabs, a byte-order mark, fixed. */
    CHECK(s2r_randomization_parse(&r, "", error) == S2R_OK);
    CHECK(s2r_randomization_parse(&r, "\n  # nothing\n\t\n", error) == S2R_OK);
    CHECKF(s2r_randomization_parse(&r, "\xEF\xBB\xBFkp\tuniform\t0.9\t1.1 # gains\r\n"
                                   "payload fixed 0.25#kg\r\n", error) == S2R_OK, "%s", error);
    CHECK(r.p[S2R_PARAM_KP].dist.lo == 0.9 && r.p[S2R_PARAM_KP].dist.hi == 1.1);
    CHECK(r.p[S2R_PARAM_PAYLOAD].dist.kind == S2R_DIST_FIXED && r.p[S2R_PARAM_PAYLOAD].dist.mean == 0.25);
    CHECK(s2r_randomization_parse(&r, NULL, error) == S2R_ERR_INVALID_ARGUMENT);
    return 0;
}

static int test_parse_errors_name_the_line(void) {
    static const struct { const char* text; int line; const char* says; } bad[] = {
        {"fricton uniform 0.5 1.5\n", 1, "unknown parameter 'fricton'"},
        {"# comment\n\nfriction gaussian 0 1\n", 3, "unknown distribution 'gaussian'"},
        {"friction UNIFORM 0.5 1.5\n", 1, "unknown distribution 'UNIFORM'"},
        {"kp uniform 0.9 1.1\nfriction uniform 0.5\n", 2, "uniform needs 2 numbers (lo hi), found 1"},
        {"payload truncnormal 0 0.5 0.2\n", 1, "truncnormal needs 4 numbers (lo hi mean std), found 3"},
        {"payload fixed\n", 1, "fixed needs 1 number (value), found 0"},
        {"friction\n", 1, "'friction' needs a distribution"},
        {"friction uniform 0.5 abc\n", 1, "'abc' is not a finite number"},
        {"friction uniform 0.5x 1.5\n", 1, "'0.5x' is not a finite number"},
        {"friction uniform nan 1.5\n", 1, "'nan' is not a finite number"},
        {"friction uniform 0.5 1e999\n", 1, "'1e999' is not a finite number"},
        {"friction uniform 0.5 scale\n", 1, "'scale' is not a finite number"},
        {"friction uniform 0.5 1.5 1.7\n", 1, "expected a mode (scale, offset, absolute)"},
        {"friction uniform 0.5 1.5 scale extra\n", 1, "unexpected 'extra' after the mode"},
        {"qpos_noise off absolute\n", 1, "unexpected 'absolute' after 'off'"},
        {"friction uniform 1.5 0.5\n", 1, "friction: uniform: lo 1.5 is greater than hi 0.5"},
        {"payload uniform 0 0.5 scale\n", 1, "payload: mode 'scale' is not allowed"},
        {"action_latency uniform -0.01 0.02\n", 1, "action_latency: absolute values must be >= 0"},
        {"timestep fixed 0\n", 1, "timestep: scale values must be > 0"},
        {"friction truncnormal 0 1 2 0.1\n", 1, "mean 2 lies outside"},
        {"friction uniform 0.5 1.5\r\nkp uniform 0.9 1.1\r\ndamping loguniform 0 1.4\r\n", 3,
         "loguniform: lo must be > 0"},
        {"friction uniform 0.5 1.5\nkp uniform 0.9 1.1\nfriction uniform 0.6 1.4\n", 3,
         "'friction' was already set on line 1"},
        /* joints' own ranges */
        {"damping[9] uniform 0.5 1\n", 1, "joint 9 of damping is not 1..8"},
        {"payload[2] uniform 0 0.1\n", 1, "payload is not joint-wise"},
        {"kp[4] off\n", 1, "kp[4] needs a distribution"},
        {"kp[x] uniform 0.5 1\n", 1, "a joint is named as kp[4]"},
        {"kp[] uniform 0.5 1\n", 1, "a joint is named as kp[4]"},
        {"kp[4 uniform 0.5 1\n", 1, "a joint is named as kp[4]"},
        {"kp[4] uniform 0.5 0.7\nkp[4] uniform 0.5 0.7\n", 2, "'kp[4]' was already set on line 1"},
        {"kp[4] uniform 0.5 0.7 offset\n", 1, "kp[4] is in offset mode, kp in scale"},
        {"kp off\nkp[4] uniform 0.5 0.7\n", 2, "kp[4]: a joint's own range needs kp on"},
        {"kp[4] uniform 0.7 0.5\n", 1, "kp[4]: uniform: lo 0.7 is greater than hi 0.5"},
        {"kp uniform 0.9 1.1", 1, ""},   /* (valid: no final newline) - skipped below */
    };
    int i, n = (int)(sizeof bad / sizeof bad[0]) - 1;
    for (i = 0; i < n; i++) {
        s2r_randomization r = s2r_randomization_default(), saved;
        char error[S2R_ERROR_LEN];
        memcpy(&saved, &r, sizeof r);
        error[0] = '\0';
        CHECKF(s2r_randomization_parse(&r, bad[i].text, error) == S2R_ERR_PARSE, "case %d", i);
        CHECKF(gap_error_says(error, bad[i].line, bad[i].says),
               "case %d: got '%s', want line %d and '%s'", i, error, bad[i].line, bad[i].says);
        CHECKF(memcmp(&r, &saved, sizeof r) == 0, "case %d: the struct was modified", i);
    }
    {
        s2r_randomization r = s2r_randomization_none();
        char error[S2R_ERROR_LEN];
        CHECK(s2r_randomization_parse(&r, bad[n].text, NULL) == S2R_OK);
        CHECK(r.p[S2R_PARAM_KP].enabled);
        /* joint ranges are the file's alone: the table's earlier ones are dropped */
        CHECK(s2r_randomization_parse(&r, "kp[2] uniform 0.8 0.9\n", NULL) == S2R_OK && r.n_joint_ranges == 1);
        CHECKF(s2r_randomization_parse(&r, "kp off\n", error) == S2R_OK, "%s", error);
        CHECK(!r.p[S2R_PARAM_KP].enabled && r.n_joint_ranges == 0);
        r.n_joint_ranges = -7;   /* whatever the struct held there */
        CHECK(s2r_randomization_parse(&r, "kp uniform 0.9 1.1\nkp[3] fixed 0.7\n", NULL) == S2R_OK && r.n_joint_ranges == 1);
        r.p[S2R_PARAM_FRICTION].dist = s2r_dist_uniform(0.5, 1.5);   /* an entry the file does not name must be valid */
        r.p[S2R_PARAM_FRICTION].dist.lo = NAN;
        r.p[S2R_PARAM_FRICTION].enabled = 1;
        CHECKF(s2r_randomization_parse(&r, "kp uniform 0.9 1.1\n", error) == S2R_ERR_PARSE && strstr(error, "does not name"),
               "%s", error);
    }
    return 0;
}

/* Format r, parse it onto none(), and check every field came back exactly. */
static int gap_round_trip(const s2r_randomization* r) {
    static char text[16384], text2[16384];
    s2r_randomization back = s2r_randomization_none();
    char error[S2R_ERROR_LEN];
    size_t n = s2r_randomization_format(r, text, sizeof text);
    int diff;
    CHECK(n > 0 && n < sizeof text && strlen(text) == n);
    CHECK(s2r_randomization_format(r, NULL, 0) == n);
    CHECKF(s2r_randomization_parse(&back, text, error) == S2R_OK, "%s\n%s", error, text);
    diff = gap_first_difference(r, &back);
    CHECKF(diff < 0, "%s differs after the round trip:\n%s", s2r_param_name((s2r_param)diff), text);
    s2r_randomization_format(&back, text2, sizeof text2);
    CHECK(strcmp(text, text2) == 0);   /* writing is a fixed point */
    return 0;
}

static int test_round_trip_exact(void) {
    s2r_randomization r = s2r_randomization_default();
    s2r_rng rng = s2r_rng_make(99, 0);
    char small[40];
    int i;
    if (gap_round_trip(&r)) return 1;
    /* Awkward doubles: non-terminating decimals, subnormals, huge ranges
       (as wide as the size bounds let a range be), one-ulp intervals, a
       negative zero. */
    r.p[S2R_PARAM_FRICTION].dist = s2r_dist_uniform(1.0 / 3.0, 2.0 / 3.0);
    r.p[S2R_PARAM_DAMPING].dist = s2r_dist_log_uniform(1e-300, 1e3);
    r.p[S2R_PARAM_ARMATURE].dist = s2r_dist_trunc_normal(0.1, 0.7, 0.1 + 0.2, 0.1 * 3.0);
    r.p[S2R_PARAM_FRICTIONLOSS].dist = s2r_dist_fixed(-0.0);
    r.p[S2R_PARAM_LINK_MASS].dist = s2r_dist_uniform(nextafter(1.0, 0.0), nextafter(1.0, 2.0));
    r.p[S2R_PARAM_KP].dist = s2r_dist_fixed(3.141592653589793);
    r.p[S2R_PARAM_TARGET_OFFSET].enabled = 1;
    r.p[S2R_PARAM_TARGET_OFFSET].dist = s2r_dist_uniform(-4.9406564584124654e-324, DBL_MIN);
    r.p[S2R_PARAM_QPOS_BIAS].enabled = 1;
    r.p[S2R_PARAM_QPOS_BIAS].mode = S2R_APPLY_OFFSET;
    r.p[S2R_PARAM_QPOS_BIAS].dist = s2r_dist_uniform(-2 * 3.14159265358979323846, 2 * 3.14159265358979323846);
    r.p[S2R_PARAM_QPOS_NOISE] = s2r_param_range_off(S2R_PARAM_QPOS_NOISE);
    CHECK(s2r_randomization_check(&r, NULL) == S2R_OK);
    if (gap_round_trip(&r)) return 1;
    r.n_joint_ranges = 2;   /* joints with ranges of their own */
    r.joint_range[0].param = S2R_PARAM_KV;
    r.joint_range[0].joint = 4;
    r.joint_range[0].dist = s2r_dist_uniform(1.0 / 3.0, nextafter(1.0, 2.0));
    r.joint_range[1].param = S2R_PARAM_DAMPING;
    r.joint_range[1].joint = 1;
    r.joint_range[1].dist = s2r_dist_log_uniform(1e-300, 0.7);
    CHECK(s2r_randomization_check(&r, NULL) == S2R_OK);
    if (gap_round_trip(&r)) return 1;
    r.n_joint_ranges = 0;
    /* Random bit patterns. */
    for (i = 0; i < 2000; i++) {
        uint64_t b1 = s2r_rng_u64(&rng), b2 = s2r_rng_u64(&rng);
        double x, y;
        memcpy(&x, &b1, sizeof x);
        memcpy(&y, &b2, sizeof y);
        if (!isfinite(x) || !isfinite(y)) continue;
        {   /* every mantissa, exponents up to 2 (|x| < 4: inside target_offset's and qpos_bias's size bounds) */
            int e;
            double m = frexp(x, &e);
            if (e > 2) x = ldexp(m, 2 - e % 1000);
            m = frexp(y, &e);
            if (e > 2) y = ldexp(m, 2 - e % 1000);
        }
        r.p[S2R_PARAM_TARGET_OFFSET].dist = s2r_dist_uniform(x < y ? x : y, x < y ? y : x);
        r.p[S2R_PARAM_QPOS_BIAS].dist = s2r_dist_fixed(x);
        if (gap_round_trip(&r)) return 1;
    }
    /* The text written first reads back into what was parsed. */
    {
        s2r_randomization a = s2r_randomization_none(), b = s2r_randomization_none();
        static char text[16384];
        CHECK(s2r_randomization_parse(&a, gap_example, NULL) == S2R_OK);
        s2r_randomization_format(&a, text, sizeof text);
        CHECK(s2r_randomization_parse(&b, text, NULL) == S2R_OK);
        CHECK(gap_first_difference(&a, &b) < 0);
    }
    /* A too-small buffer is truncated but terminated; the size is still reported. */
    CHECK(s2r_randomization_format(&r, small, sizeof small) > sizeof small);
    CHECK(strlen(small) == sizeof small - 1);
    return 0;
}

/* Ranges of absurd size (friction, kp, link_mass of 1e300; noise stds of
   1e300; offsets of -1e300; a 1e3 typed for 1e-3) were accepted and the
   simulator ran on them: each is refused now naming the file, line and
   bound, while the default ranges and the committed figures' files load. */
static int test_randomization_size_bounds(void) {
    static const struct { const char* line; const char* says; } bad[] = {
        {"friction fixed 1e300", "within +-1000 of the model's value"},
        {"kp uniform 0.5 1e300", "within +-1000 of the model's value"},
        {"link_mass fixed 1e300", "within +-1000 of the model's value"},
        {"kp fixed 1e-300", "at least 0.001 of the model's value"},
        {"qpos_noise fixed 1e300", "within +-3.14159"},
        {"qpos_noise uniform 0 1e308", "within +-3.14159"},
        {"qvel_noise fixed 1e3", "within +-100"},
        {"target_noise fixed 1e3", "within +-10"},
        {"qpos_bias fixed -1e300", "within +-6.28319"},
        {"target_offset uniform -1e300 0", "within +-10"},
        {"table_height fixed -1e300", "within +-10"},
        {"friction fixed 1e300 absolute", "within +-10"},
        {"frictionloss fixed -1e300", "within +-1000"},
        {"action_latency fixed 1e9", "within +-10"},
        {"timestep fixed 1 absolute", "within +-0.01"},
    };
    static const char* const figures[] = {
        "figures/07_push_dr_ranges_ur5e.txt", "figures/07_push_dr_ranges_panda.txt",
        "figures/07_push_dr_camera_ranges_ur5e.txt", "figures/07_push_dr_camera_ranges_panda.txt"};
    const char* path = "build/test_gap_bounds.tmp.txt";
    char error[S2R_ERROR_LEN], text[128];
    s2r_randomization r = s2r_randomization_default();
    size_t i;
    CHECKF(s2r_randomization_check(&r, error) == S2R_OK, "%s", error);
    for (i = 0; i < 20; i++) CHECK(s2r_randomization_widen(&r, 2.0) == S2R_OK);   /* widening stops at the bounds */
    CHECKF(s2r_randomization_check(&r, error) == S2R_OK, "%s", error);
    for (i = 0; i < sizeof figures / sizeof figures[0]; i++) {
        r = s2r_randomization_default();
        CHECKF(s2r_randomization_load(&r, figures[i], error) == S2R_OK, "%s", error);
    }
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        FILE* f = fopen(path, "wb");
        CHECK(f != NULL);
        fprintf(f, "# a comment\n%s\n", bad[i].line);
        fclose(f);
        r = s2r_randomization_default();
        CHECKF(s2r_randomization_load(&r, path, error) == S2R_ERR_PARSE, "%s accepted", bad[i].line);
        snprintf(text, sizeof text, "%s: line 2: ", path);
        CHECKF(strstr(error, text) == error && strstr(error, bad[i].says), "%s: %s", bad[i].line, error);
    }
    remove(path);
    return 0;
}

static int test_load_write_files(void) {
    const char* path = "build/test_gap_ranges.tmp.txt";
    s2r_randomization r = s2r_randomization_default(), back = s2r_randomization_none(), saved;
    char error[S2R_ERROR_LEN];
    FILE* f;
    CHECKF(s2r_randomization_write(&r, path, error) == S2R_OK, "%s", error);
    CHECKF(s2r_randomization_load(&back, path, error) == S2R_OK, "%s", error);
    CHECK(gap_first_difference(&r, &back) < 0);
    /* A bad file: the message has the path and the line; nothing changes. */
    f = fopen(path, "wb");
    CHECK(f != NULL);
    fputs("friction uniform 0.5 1.5\npayload uniform 0 0.5 kg\n", f);
    fclose(f);
    saved = back;
    CHECK(s2r_randomization_load(&back, path, error) == S2R_ERR_PARSE);
    CHECKF(strstr(error, path) == error && strstr(error, "line 2:") && strstr(error, "'kg'"),
           "%s", error);
    CHECK(memcmp(&saved, &back, sizeof back) == 0);
    /* A file that names no range - emptied, or truncated to its comments - would train on the defaults unsaid. */
    {
        static const char* const empty[] = {"", "\n\n", "# course/6_ranges/ranges.txt\n  # only comments\n",
                                            "\xEF\xBB\xBF# a byte-order mark, then comments\r\n"};
        size_t k;
        for (k = 0; k < sizeof empty / sizeof *empty; k++) {
            f = fopen(path, "wb");
            CHECK(f != NULL);
            fputs(empty[k], f);
            fclose(f);
            CHECK(s2r_randomization_load(&back, path, error) == S2R_ERR_PARSE);
            CHECKF(strstr(error, path) == error && strstr(error, "names no range (empty, or comments only)"),
                   "%s", error);
            CHECK(memcmp(&saved, &back, sizeof back) == 0);
        }
    }
    remove(path);
    CHECK(s2r_randomization_load(&back, path, error) == S2R_ERR_IO);
    CHECKF(strstr(error, path) != NULL, "%s", error);
    CHECK(s2r_randomization_write(&r, "no_such_dir_s2r/ranges.txt", error) == S2R_ERR_IO);
    CHECKF(strstr(error, "no_such_dir_s2r") != NULL, "%s", error);
    /* An invalid table is not written at all. */
    r.p[S2R_PARAM_KV].dist = s2r_dist_uniform(1.2, 0.8);
    CHECK(s2r_randomization_write(&r, path, error) == S2R_ERR_INVALID_ARGUMENT);
    CHECKF(strstr(error, "kv:") == error, "%s", error);
    f = fopen(path, "rb");
    CHECK(f == NULL);
    return 0;
}

/* ---------------------------------------------------------------------------
   Sensing noise
   ------------------------------------------------------------------------- */

static int test_noise_zero_config_is_exact_identity(void) {
    double truth[8] = {-0.0, 0.0, NAN, INFINITY, -INFINITY, 4.9406564584124654e-324, 1e308, -1.5};
    double measured[8], inplace[8];
    s2r_noise_config cfg = s2r_noise_config_none();
    s2r_noise_state st[8];
    s2r_rng rng = s2r_rng_make(3, 0), before = rng;
    int i, step;
    CHECK(s2r_noise_config_check(&cfg, NULL) == S2R_OK);
    memset(st, 0, sizeof st);   /* a zeroed state is valid even before begin_episode */
    for (step = 0; step < 3; step++) {
        s2r_noise_apply(&cfg, st, truth, measured, 8, 0.002, &rng);
        for (i = 0; i < 8; i++) CHECKF(gap_same_bits(measured[i], truth[i]), "element %d", i);
        s2r_noise_begin_episode(&cfg, st, 8, &rng);
    }
    memcpy(inplace, truth, sizeof truth);
    s2r_noise_apply(&cfg, st, inplace, inplace, 8, 0.002, &rng);
    CHECK(memcmp(inplace, truth, sizeof truth) == 0);
    CHECK(gap_same_rng(&rng, &before));
    return 0;
}

static int test_noise_white_statistics(void) {
    s2r_noise_config cfg = s2r_noise_config_none();
    s2r_noise_state st;
    s2r_rng rng = s2r_rng_make(21, 0);
    double x = 1.0, m, v;
    int i;
    cfg.white_std = 0.3;
    s2r_noise_begin_episode(&cfg, &st, 1, &rng);
    for (i = 0; i < GAP_N; i++) s2r_noise_apply(&cfg, &st, &x, &gap_samples[i], 1, 0.002, &rng);
    gap_mean_var(gap_samples, GAP_N, &m, &v);
    /* SE of the mean sigma/sqrt(n); of the variance sigma^2 sqrt(2/n). */
    CHECKF(fabs(m - 1.0) < 5 * 0.3 / sqrt(GAP_N), "mean %g", m);
    CHECKF(fabs(v - 0.09) < 5 * 0.09 * sqrt(2.0 / GAP_N), "var %g", v);
    return 0;
}

static int test_noise_bias_and_scale_per_episode(void) {
    s2r_noise_config cfg = s2r_noise_config_none();
    s2r_noise_state st;
    s2r_rng rng = s2r_rng_make(22, 0);
    const int episodes = 50000;
    double x = 2.0, y, first, m, v, var;
    int e, k;
    cfg.bias_std = 0.2;
    cfg.scale_std = 0.05;
    for (e = 0; e < episodes; e++) {
        s2r_noise_begin_episode(&cfg, &st, 1, &rng);
        s2r_noise_apply(&cfg, &st, &x, &first, 1, 0.01, &rng);
        for (k = 0; k < 5; k++) {   /* constant within the episode */
            s2r_noise_apply(&cfg, &st, &x, &y, 1, 0.01, &rng);
            CHECK(y == first);
        }
        gap_samples[e] = first;
    }
    /* (1 + g) x + b: mean x, variance x^2 scale_std^2 + bias_std^2 (both
       Gaussian, so the variance's SE is var sqrt(2/n)). */
    var = x * x * 0.05 * 0.05 + 0.2 * 0.2;
    gap_mean_var(gap_samples, episodes, &m, &v);
    CHECKF(fabs(m - x) < 5 * sqrt(var / episodes), "mean %g", m);
    CHECKF(fabs(v - var) < 5 * var * sqrt(2.0 / episodes), "var %g vs %g", v, var);
    return 0;
}

static int test_noise_drift(void) {
    s2r_noise_config walk = s2r_noise_config_none(), ou, inf_tau;
    s2r_noise_state st, st2;
    s2r_rng rng = s2r_rng_make(23, 0), rng2;
    const int episodes = 20000;
    double zero = 0.0, y, y2, m, v, c0 = 0, c1 = 0, c01 = 0, stat_var;
    int e, k;
    /* Random walk: variance drift_std^2 t after t seconds (here 1 s). */
    walk.drift_std = 0.1;
    for (e = 0; e < episodes; e++) {
        s2r_noise_begin_episode(&walk, &st, 1, &rng);
        for (k = 0; k < 100; k++) s2r_noise_apply(&walk, &st, &zero, &y, 1, 0.01, &rng);
        gap_samples[e] = y;
    }
    gap_mean_var(gap_samples, episodes, &m, &v);
    CHECKF(fabs(v - 0.01) < 5 * 0.01 * sqrt(2.0 / episodes), "walk var %g", v);
    CHECKF(fabs(m) < 5 * 0.1 / sqrt(episodes), "walk mean %g", m);
    /* tau = +Inf is the same random walk as tau = 0, draw for draw. */
    inf_tau = walk;
    inf_tau.drift_tau = INFINITY;
    CHECK(s2r_noise_config_check(&inf_tau, NULL) == S2R_OK);
    rng = s2r_rng_make(24, 0);
    rng2 = rng;
    s2r_noise_begin_episode(&walk, &st, 1, &rng);
    s2r_noise_begin_episode(&inf_tau, &st2, 1, &rng2);
    for (k = 0; k < 50; k++) {
        s2r_noise_apply(&walk, &st, &zero, &y, 1, 0.01, &rng);
        s2r_noise_apply(&inf_tau, &st2, &zero, &y2, 1, 0.01, &rng2);
        CHECK(gap_same_bits(y, y2));
    }
    /* OU: starts stationary with variance drift_std^2 tau / 2 and keeps
       it; the correlation after 1 s is exp(-1 / tau). */
    ou = walk;
    ou.drift_std = 0.2;
    ou.drift_tau = 0.5;
    stat_var = 0.2 * 0.2 * 0.5 / 2;
    for (e = 0; e < episodes; e++) {
        double a, b;
        s2r_noise_begin_episode(&ou, &st, 1, &rng);
        s2r_noise_apply(&ou, &st, &zero, &a, 1, 0.0, &rng);
        for (k = 0; k < 50; k++) s2r_noise_apply(&ou, &st, &zero, &b, 1, 0.02, &rng);
        c0 += a * a;
        c1 += b * b;
        c01 += a * b;
    }
    c0 /= episodes;
    c1 /= episodes;
    c01 /= episodes;
    CHECKF(fabs(c0 - stat_var) < 5 * stat_var * sqrt(2.0 / episodes), "OU var at 0: %g", c0);
    CHECKF(fabs(c1 - stat_var) < 5 * stat_var * sqrt(2.0 / episodes), "OU var at 1 s: %g", c1);
    /* SE of a sample covariance of two Gaussians: var sqrt((1 + rho^2) / n). */
    CHECKF(fabs(c01 - stat_var * exp(-2.0)) < 5 * stat_var * sqrt((1 + exp(-4.0)) / episodes),
           "OU covariance %g vs %g", c01, stat_var * exp(-2.0));
    return 0;
}

static int test_noise_dropout_holds(void) {
    s2r_noise_config cfg = s2r_noise_config_none();
    s2r_noise_state st;
    s2r_rng rng = s2r_rng_make(25, 0);
    double x, y, prev = 0;
    const int n = 100000;
    int i, held = 0, e;
    /* dropout 1: after the first sample the measurement never changes. */
    cfg.dropout = 1.0;
    cfg.white_std = 0.01;
    s2r_noise_begin_episode(&cfg, &st, 1, &rng);
    for (i = 0; i < 100; i++) {
        x = i;
        s2r_noise_apply(&cfg, &st, &x, &y, 1, 0.002, &rng);
        if (i == 0) { CHECK(fabs(y) < 0.1); prev = y; }
        CHECK(y == prev);
    }
    /* dropout 0.3 on a ramp: a held sample repeats the previous measured
       value exactly; about 30 % are held (SE sqrt(p (1 - p) / n)). */
    cfg.dropout = 0.3;
    cfg.white_std = 0.0;
    s2r_noise_begin_episode(&cfg, &st, 1, &rng);
    for (i = 0; i < n; i++) {
        x = i;
        s2r_noise_apply(&cfg, &st, &x, &y, 1, 0.002, &rng);
        if (y != x) { CHECK(y == prev); held++; }
        prev = y;
    }
    CHECKF(fabs(held / (double)n - 0.3) < 5 * sqrt(0.3 * 0.7 / n), "held fraction %g", held / (double)n);
    /* The first sample of an episode is never dropped. */
    for (e = 0; e < 1000; e++) {
        s2r_noise_begin_episode(&cfg, &st, 1, &rng);
        x = 1000.0 + e;
        s2r_noise_apply(&cfg, &st, &x, &y, 1, 0.002, &rng);
        CHECK(y == x);
    }
    return 0;
}

static int test_noise_quantize_saturate(void) {
    s2r_noise_config cfg = s2r_noise_config_none();
    s2r_noise_state st;
    s2r_rng rng = s2r_rng_make(26, 0);
    double in[7] = {0.1, 0.125, 0.3, -0.1, -0.125, -0.13, 1.0};
    double want[7] = {0.0, 0.25, 0.25, 0.0, 0.0, -0.25, 1.0};
    double y, x, step = 2 * 3.141592653589793 / 4096;
    int i;
    cfg.quant_step = 0.25;   /* nearest step; halves round up */
    for (i = 0; i < 7; i++) {
        memset(&st, 0, sizeof st);
        s2r_noise_apply(&cfg, &st, &in[i], &y, 1, 0.002, &rng);
        CHECKF(y == want[i], "quantize %g -> %g, want %g", in[i], y, want[i]);
    }
    cfg.quant_step = step;   /* a 12-bit encoder */
    for (i = 0; i < 1000; i++) {
        x = -3.0 + 0.006 * i;
        s2r_noise_apply(&cfg, &st, &x, &y, 1, 0.002, &rng);
        CHECK(fabs(y - x) <= 0.5 * step * (1 + 1e-12));
        CHECK(fabs(y / step - floor(y / step + 0.5)) < 1e-9);
    }
    cfg = s2r_noise_config_none();
    cfg.sat_lo = -1.0;
    cfg.sat_hi = 2.0;
    x = 5.0;  s2r_noise_apply(&cfg, &st, &x, &y, 1, 0.002, &rng); CHECK(y == 2.0);
    x = -3.0; s2r_noise_apply(&cfg, &st, &x, &y, 1, 0.002, &rng); CHECK(y == -1.0);
    x = 0.5;  s2r_noise_apply(&cfg, &st, &x, &y, 1, 0.002, &rng); CHECK(y == 0.5);
    cfg.sat_lo = cfg.sat_hi = 0.0;   /* both 0: off */
    x = 5.0;  s2r_noise_apply(&cfg, &st, &x, &y, 1, 0.002, &rng); CHECK(y == 5.0);
    cfg.sat_lo = 3.0; cfg.sat_hi = 1.0;   /* lo >= hi: off */
    x = 5.0;  s2r_noise_apply(&cfg, &st, &x, &y, 1, 0.002, &rng); CHECK(y == 5.0);
    cfg.sat_lo = -INFINITY; cfg.sat_hi = 1.0;   /* one-sided */
    x = -1e9; s2r_noise_apply(&cfg, &st, &x, &y, 1, 0.002, &rng); CHECK(y == -1e9);
    x = 5.0;  s2r_noise_apply(&cfg, &st, &x, &y, 1, 0.002, &rng); CHECK(y == 1.0);
    /* Order: gain and bias, then quantize, then saturate. */
    cfg = s2r_noise_config_none();
    cfg.quant_step = 0.5;
    cfg.sat_lo = -10.0;
    cfg.sat_hi = 2.4;
    memset(&st, 0, sizeof st);
    st.gain = 1.0;   /* reading = 2 x */
    st.bias = 0.3;
    x = 1.0;  s2r_noise_apply(&cfg, &st, &x, &y, 1, 0.002, &rng); CHECK(y == 2.4);   /* 2.3 -> 2.5 -> 2.4 */
    x = 0.5;  s2r_noise_apply(&cfg, &st, &x, &y, 1, 0.002, &rng); CHECK(y == 1.5);   /* 1.3 -> 1.5 */
    cfg.sat_hi = 0.4;
    cfg.sat_lo = -0.4;
    memset(&st, 0, sizeof st);
    cfg.quant_step = 1.0;
    x = 0.45; s2r_noise_apply(&cfg, &st, &x, &y, 1, 0.002, &rng); CHECK(y == 0.0);   /* not 0.4 */
    x = 0.6;  s2r_noise_apply(&cfg, &st, &x, &y, 1, 0.002, &rng); CHECK(y == 0.4);   /* 1 -> 0.4 */
    return 0;
}

static int test_noise_config_check_rejects(void) {
    struct { int field; double value; const char* says; } bad[] = {
        {0, -1.0, "white_std"}, {1, NAN, "bias_std"}, {2, INFINITY, "scale_std"},
        {3, -0.1, "drift_std"}, {4, -1.0, "drift_tau"}, {4, NAN, "drift_tau"},
        {5, 1.5, "dropout"}, {5, NAN, "dropout"}, {5, -0.1, "dropout"},
        {6, -0.1, "quant_step"}, {7, NAN, "sat_lo"}, {8, NAN, "sat_hi"},
    };
    char error[S2R_ERROR_LEN];
    int i;
    for (i = 0; i < (int)(sizeof bad / sizeof bad[0]); i++) {
        s2r_noise_config c = s2r_noise_config_none();
        double* f[9];
        f[0] = &c.white_std; f[1] = &c.bias_std; f[2] = &c.scale_std; f[3] = &c.drift_std;
        f[4] = &c.drift_tau; f[5] = &c.dropout; f[6] = &c.quant_step; f[7] = &c.sat_lo;
        f[8] = &c.sat_hi;
        *f[bad[i].field] = bad[i].value;
        error[0] = '\0';
        CHECKF(s2r_noise_config_check(&c, error) == S2R_ERR_INVALID_ARGUMENT, "case %d", i);
        CHECKF(strstr(error, bad[i].says) != NULL, "case %d: '%s'", i, error);
    }
    {
        s2r_noise_config c = s2r_noise_config_none();
        c.drift_tau = INFINITY;
        c.sat_lo = -INFINITY;
        c.sat_hi = INFINITY;
        c.dropout = 1.0;
        CHECK(s2r_noise_config_check(&c, error) == S2R_OK);
    }
    return 0;
}

/* ---------------------------------------------------------------------------
   Latency
   ------------------------------------------------------------------------- */

static int test_delay_line_exact(void) {
    s2r_delay_line line;
    double fill[3] = {-1, -2, -3}, x[3], out[3];
    int t, k;
    CHECK(s2r_delay_init(&line, 3, 6) == S2R_OK);
    for (k = 0; k < 6; k++) {   /* zero-filled at init */
        s2r_delay_read(&line, k, out);
        CHECK(out[0] == 0 && out[1] == 0 && out[2] == 0);
    }
    s2r_delay_reset(&line, fill);
    for (t = 1; t <= 20; t++) {
        x[0] = t; x[1] = 10 * t; x[2] = 100 * t;
        s2r_delay_push(&line, x);
        for (k = 0; k < 6; k++) {
            int src = t - k;   /* the push k pushes ago; before any push: the fill */
            s2r_delay_read(&line, k, out);
            if (src >= 1) CHECKF(out[0] == src && out[1] == 10 * src && out[2] == 100 * src,
                                 "t %d k %d: %g", t, k, out[0]);
            else CHECK(memcmp(out, fill, sizeof fill) == 0);
            CHECK(memcmp(out, s2r_delay_peek(&line, k), sizeof out) == 0);
        }
        s2r_delay_read(&line, 99, out);   /* clamped to the oldest kept */
        CHECK(memcmp(out, s2r_delay_peek(&line, 5), sizeof out) == 0);
        s2r_delay_read(&line, -4, out);   /* clamped to the newest */
        CHECK(out[0] == t);
    }
    s2r_delay_reset(&line, NULL);
    s2r_delay_read(&line, 0, out);
    CHECK(out[0] == 0 && out[2] == 0);
    s2r_delay_free(&line);
    CHECK(line.data == NULL);
    s2r_delay_free(&line);   /* twice is fine */
    /* Capacity 1: no delay possible, every read is the newest. */
    CHECK(s2r_delay_init(&line, 1, 1) == S2R_OK);
    x[0] = 4.0; s2r_delay_push(&line, x);
    s2r_delay_read(&line, 3, out);
    CHECK(out[0] == 4.0);
    s2r_delay_free(&line);
    return 0;
}

static int test_delay_init_errors(void) {
    s2r_delay_line line;
    CHECK(s2r_delay_init(&line, 0, 4) == S2R_ERR_INVALID_ARGUMENT && line.data == NULL);
    CHECK(s2r_delay_init(&line, 2, -1) == S2R_ERR_INVALID_ARGUMENT && line.data == NULL);
    /* INT_MAX x INT_MAX doubles overflows size_t: reported, not attempted. */
    CHECK(s2r_delay_init(&line, INT_MAX, INT_MAX) == S2R_ERR_OUT_OF_MEMORY && line.data == NULL);
    s2r_delay_free(&line);
    return 0;
}

static int test_latency_steps(void) {
    CHECK(s2r_latency_steps(0.020, 0.002) == 10);
    CHECK(s2r_latency_steps(0.030, 0.002) == 15);
    CHECK(s2r_latency_steps(0.015, 0.002) == 8);    /* a half rounds up */
    CHECK(s2r_latency_steps(0.0149, 0.002) == 7);
    CHECK(s2r_latency_steps(0.001, 0.002) == 1);
    CHECK(s2r_latency_steps(0.0009, 0.002) == 0);
    CHECK(s2r_latency_steps(0.0, 0.002) == 0);
    CHECK(s2r_latency_steps(-1.0, 0.002) == 0);
    CHECK(s2r_latency_steps(NAN, 0.002) == 0);
    CHECK(s2r_latency_steps(0.01, 0.0) == 0);
    CHECK(s2r_latency_steps(0.01, NAN) == 0);
    CHECK(s2r_latency_steps(1e300, 1e-300) == INT_MAX / 2);
    return 0;
}

static int test_delay_jitter_monotone(void) {
    s2r_delay_line line;
    s2r_delay_jitter j;
    s2r_rng rng = s2r_rng_make(31, 0), before;
    const int steps = 100000;
    double x, out;
    long t, last_index = -1000, sum = 0;   /* indexes <= 0 read the fill */
    int k, seen_lo = 0, seen_hi = 0;
    CHECK(s2r_delay_init(&line, 1, 11) == S2R_OK);
    s2r_delay_jitter_init(&j, 5, 3, 10);
    x = 0;
    s2r_delay_reset(&line, &x);
    for (t = 1; t <= steps; t++) {
        x = (double)t;
        s2r_delay_push(&line, &x);
        k = s2r_delay_jitter_next(&j, &rng);
        CHECK(k >= 2 && k <= 8);          /* base +- jitter, inside [0, max] */
        s2r_delay_read(&line, k, &out);
        CHECK(out == (double)(t - k > 0 ? t - k : 0));
        CHECKF(t - k >= last_index, "step %ld went back in time", t);   /* never older */
        last_index = t - k;
        sum += k;
        seen_lo |= k == 2;
        seen_hi |= k == 8;
    }
    CHECK(seen_lo && seen_hi);
    /* The monotone rule only ever shortens the delay: mean in (2, 5). */
    CHECKF(sum / (double)steps < 5.0 && sum / (double)steps > 2.0, "mean age %g", sum / (double)steps);
    /* No jitter: always base, and no random numbers. */
    s2r_delay_jitter_init(&j, 4, 0, 10);
    before = rng;
    for (t = 0; t < 100; t++) CHECK(s2r_delay_jitter_next(&j, &rng) == 4);
    CHECK(gap_same_rng(&rng, &before));
    /* base beyond max is clamped to max. */
    s2r_delay_jitter_init(&j, 40, 0, 10);
    CHECK(s2r_delay_jitter_next(&j, &rng) == 10);
    s2r_delay_free(&line);
    return 0;
}

static int test_sample_hold(void) {
    s2r_sample_hold sh;
    double fresh, held = -1;
    int i, count = 0;
    CHECK(s2r_sample_hold_init(&sh, NAN) == S2R_ERR_INVALID_ARGUMENT);
    CHECK(s2r_sample_hold_init(&sh, -0.01) == S2R_ERR_INVALID_ARGUMENT);
    /* 100 Hz sensor in a 500 Hz loop: refresh on every 5th call exactly. */
    CHECK(s2r_sample_hold_init(&sh, 0.01) == S2R_OK);
    for (i = 0; i < 1000; i++) {
        int r;
        fresh = i;
        r = s2r_sample_hold_step(&sh, 0.002, &fresh, &held, 1);
        CHECKF(r == (i % 5 == 0), "call %d", i);
        CHECK(held == (double)(i - i % 5));
    }
    /* 100 Hz sensor in a 250 Hz loop: 400 refreshes in 4 s, no drift. */
    s2r_sample_hold_reset(&sh, 0.0);
    for (i = 0; i < 1000; i++) count += s2r_sample_hold_step(&sh, 0.004, &fresh, &held, 1);
    CHECKF(count == 400, "%d refreshes", count);
    /* A phase of 6 ms: first call, then 4 ms later, then every 10 ms. */
    s2r_sample_hold_reset(&sh, 0.006);
    for (i = 0; i < 20; i++) {
        int r = s2r_sample_hold_step(&sh, 0.002, &fresh, &held, 1);
        CHECKF(r == (i == 0 || i == 2 || i == 7 || i == 12 || i == 17), "call %d", i);
    }
    /* Period 0: every call refreshes. */
    CHECK(s2r_sample_hold_init(&sh, 0.0) == S2R_OK);
    for (i = 0; i < 10; i++) CHECK(s2r_sample_hold_step(&sh, 0.002, &fresh, &held, 1) == 1);
    return 0;
}

/* ---------------------------------------------------------------------------
   Runner
   ------------------------------------------------------------------------- */

/* Means and centres stay inside the support at the extremes (found by
   tests/fuzz/fuzz_randomization.c): a log-uniform whose hi / lo overflows
   (the mean was 0), a truncated normal one of whose standardized bounds is
   so far out that its density underflows (0 * inf gave NaN) or that is
   infinite, and the centre of a degenerate log-uniform (sqrt(2)^2 > 2). */
static int test_dist_mean_centre_in_support(void) {
    s2r_dist d;
    double m, expect;
    d = s2r_dist_log_uniform(1e-300, 1e300);
    expect = 1e300 / (log(1e300) - log(1e-300));
    m = s2r_dist_mean(&d);
    CHECKF(fabs(m - expect) <= 1e-12 * expect, "log-uniform mean %.17g, expected %.17g", m, expect);
    d = s2r_dist_log_uniform(4.9406564584124654e-324, 1.0);
    m = s2r_dist_mean(&d);
    CHECKF(m > 0 && m <= 1.0 && fabs(m - 1.0 / 744.44007192138122) < 1e-12, "subnormal lo: %.17g", m);
    d = s2r_dist_trunc_normal(-5.002, 7.771e-317, 0.0, 0.001);   /* half a normal */
    m = s2r_dist_mean(&d);
    expect = -0.001 * sqrt(2.0 / 3.14159265358979323846);
    CHECKF(fabs(m - expect) < 1e-12, "half-normal mean %.17g, expected %.17g", m, expect);
    d = s2r_dist_trunc_normal(5.002, 100.0, 100.0, 0.001);        /* mirrored */
    m = s2r_dist_mean(&d);
    CHECKF(fabs(m - (100.0 + expect)) < 1e-9, "mirrored half-normal mean %.17g", m);
    d = s2r_dist_trunc_normal(-1.7e308, 1.7e308, 1e308, 1e-300); /* a, b infinite */
    CHECK(s2r_dist_check(&d, NULL) == S2R_OK);
    CHECKF(s2r_dist_mean(&d) == 1e308, "%.17g", s2r_dist_mean(&d));
    d = s2r_dist_log_uniform(2.0, 2.0);
    CHECKF(s2r_dist_centre(&d) == 2.0, "%.17g", s2r_dist_centre(&d));
    d = s2r_dist_log_uniform(3.0, 3.0);
    CHECKF(s2r_dist_centre(&d) == 3.0 && s2r_dist_mean(&d) == 3.0, "%.17g", s2r_dist_centre(&d));
    return 0;
}

static const test_case gap_tests[] = {
    {"dist_uniform_moments", test_dist_uniform_moments},
    {"dist_log_uniform_moments", test_dist_log_uniform_moments},
    {"dist_trunc_normal_moments", test_dist_trunc_normal_moments},
    {"dist_extreme_bounds", test_dist_extreme_bounds},
    {"dist_degenerate_draws_nothing", test_dist_degenerate_draws_nothing},
    {"dist_mean_centre_in_support", test_dist_mean_centre_in_support},
    {"dist_check_rejects", test_dist_check_rejects},
    {"dist_widen", test_dist_widen},
    {"param_names", test_param_names},
    {"randomization_none_is_identity", test_randomization_none_is_identity},
    {"randomization_default_sample", test_randomization_default_sample},
    {"param_apply_modes", test_param_apply_modes},
    {"randomization_check_rejects", test_randomization_check_rejects},
    {"randomization_widen", test_randomization_widen},
    {"randomization_size_bounds", test_randomization_size_bounds},
    {"parse_example", test_parse_example},
    {"parse_errors_name_the_line", test_parse_errors_name_the_line},
    {"round_trip_exact", test_round_trip_exact},
    {"load_write_files", test_load_write_files},
    {"noise_zero_config_is_exact_identity", test_noise_zero_config_is_exact_identity},
    {"noise_white_statistics", test_noise_white_statistics},
    {"noise_bias_and_scale_per_episode", test_noise_bias_and_scale_per_episode},
    {"noise_drift", test_noise_drift},
    {"noise_dropout_holds", test_noise_dropout_holds},
    {"noise_quantize_saturate", test_noise_quantize_saturate},
    {"noise_config_check_rejects", test_noise_config_check_rejects},
    {"delay_line_exact", test_delay_line_exact},
    {"delay_init_errors", test_delay_init_errors},
    {"latency_steps", test_latency_steps},
    {"delay_jitter_monotone", test_delay_jitter_monotone},
    {"sample_hold", test_sample_hold},
};
