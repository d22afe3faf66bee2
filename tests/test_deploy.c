/* tests/test_deploy.c - tests of the Deployment section: every gate passes and
   fails at its stated threshold on constructed statistics; the safety
   monitor blocks every injected unsafe command (NaN, Inf, beyond the
   limits, large jumps, leaving the workspace, and a fuzz of random ones)
   and leaves safe ones alone; the e-stop halts both arms within 50 ms of
   simulated time; the CUSUM detectors fire within a stated number of
   episodes after a change and stay silent over long unchanged runs
   (rates measured over 200 seeds); a policy that fails the tethered stage
   never reaches autonomous; the log holds only complete records.

   Included by tests/test_main.c.  The log test writes to S2R_TEST_TMP
   (default /tmp) and removes its file. */
#include "test.h"
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------------
   Helpers
   ------------------------------------------------------------------------- */

/* `episodes` episodes behind the monitor, episode i on stream stream0 + i
   of `seed`, summed into `out` (the loop a stage runs, without its gates). */
static s2r_result deploy_episodes(const s2r_controller* policy, s2r_task* task, s2r_safety* safety, int episodes,
                                  uint64_t seed, uint64_t stream0, s2r_run_summary* out) {
    int i;
    memset(out, 0, sizeof *out);
    for (i = 0; i < episodes; i++) {
        s2r_rng rng = s2r_rng_make(seed, stream0 + (uint64_t)i);
        s2r_episode_stats e;
        s2r_result res = s2r_deploy_episode(policy, task, safety, &rng, &e);
        if (res != S2R_OK) return res;
        s2r_run_summary_add(out, &e);
    }
    return S2R_OK;
}

/* A nominal simulator with a safety monitor in front and a task on it
   (reach unless deploy_rig_init_task says push). */
typedef struct deploy_rig {
    s2r_sim    sim;
    s2r_safety safety;
    s2r_task   task;
    s2r_expert expert;
} deploy_rig;

/* The scripted expert for a running reach task. */
static s2r_result deploy_expert_init(s2r_expert* e, const s2r_expert_config* ec, const s2r_reach* reach) {
    s2r_task_config tc = s2r_task_config_default(S2R_TASK_REACH);
    tc.reach = reach->config;
    return s2r_expert_init(e, ec, &tc, reach->backend->info);
}

static int deploy_rig_init_task(deploy_rig* r, s2r_robot_kind kind, s2r_task_kind task, const s2r_safety_config* sc) {
    s2r_sim_config c = s2r_task_sim_config(task, kind);
    s2r_task_config tc = s2r_task_config_default(task);
    s2r_expert_config ec = s2r_expert_config_default();
    memset(r, 0, sizeof *r);
    if (s2r_sim_init(&r->sim, &c) != S2R_OK) return 1;
    if (s2r_safety_init(&r->safety, sc, s2r_sim_backend(&r->sim)) != S2R_OK) return 1;
    if (s2r_task_init(&r->task, &tc, s2r_safety_backend(&r->safety)) != S2R_OK) return 1;
    return s2r_expert_init(&r->expert, &ec, &tc, r->sim.backend.info) != S2R_OK;
}

static int deploy_rig_init(deploy_rig* r, s2r_robot_kind kind, const s2r_safety_config* sc) {
    return deploy_rig_init_task(r, kind, S2R_TASK_REACH, sc);
}

static void deploy_rig_free(deploy_rig* r) {
    s2r_expert_free(&r->expert);
    s2r_task_free(&r->task);
    s2r_safety_free(&r->safety);
    s2r_sim_free(&r->sim);
}

/* Controllers for the tests: do nothing; push every joint the same way;
   answer NaN now and then. */
static void deploy_noop_reset(void* self) { (void)self; }
static s2r_result deploy_zero_act(void* self, const float* obs, float* a) {
    (void)obs;
    memset(a, 0, (size_t)(*(int*)self) * sizeof(float));
    return S2R_OK;
}
static s2r_result deploy_push_act(void* self, const float* obs, float* a) {
    int j;
    (void)obs;
    for (j = 0; j < *(int*)self; j++) a[j] = 1.0f;
    return S2R_OK;
}
static s2r_result deploy_nan_act(void* self, const float* obs, float* a) {
    int* calls = (int*)self + 1, j;
    (void)obs;
    for (j = 0; j < *(int*)self; j++) a[j] = 0.2f;
    if (++*calls % 5 == 0) a[0] = NAN;
    return S2R_OK;
}
static s2r_controller deploy_controller(int* state, s2r_result (*act)(void*, const float*, float*)) {
    s2r_controller c = {0};
    c.self = state;
    c.reset = deploy_noop_reset;
    c.act = act;
    return c;
}

static double deploy_norm3(const double v[3]) { return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }

static double deploy_flange_speed(const s2r_backend* b) {
    s2r_ground_truth gt;
    s2r_backend_ground_truth(b, &gt);
    return deploy_norm3(gt.flange_vel);
}

/* The safety invariants on a target that reached the simulator, given the
   one before: finite, inside the soft limits (or no further out than
   before), within max_step per joint, and its flange inside the box (or no
   further out than before). */
static int deploy_target_safe(s2r_safety* s, const double* prev, const double* sent) {
    const s2r_arm_info* info = s->inner->info;
    int j, n = info->n_joints, ok = s2r_all_finite(sent, n);
    double out_prev, out_sent;
    for (j = 0; ok && j < n; j++) {
        double lo = fmin(s->soft_lo[j], prev[j]) - 1e-12, hi = fmax(s->soft_hi[j], prev[j]) + 1e-12;
        if (sent[j] < lo || sent[j] > hi || fabs(sent[j] - prev[j]) > s->config.max_step + 1e-12) ok = 0;
    }
    if (!ok) return 0;
    out_prev = s2r__safety_outside(s, prev);
    out_sent = s2r__safety_outside(s, sent);
    return out_sent <= 1e-9 || out_sent <= out_prev + 1e-9;
}

/* ---------------------------------------------------------------------------
   Names
   ------------------------------------------------------------------------- */

static int test_deploy_names(void) {
    int i;
    for (i = 0; i < S2R_STAGE_COUNT; i++) CHECK(strcmp(s2r_stage_name((s2r_stage)i), "unknown") != 0);
    for (i = 0; i < S2R_VERDICT_COUNT; i++) CHECK(strcmp(s2r_verdict_name((s2r_verdict)i), "unknown") != 0);
    for (i = 0; i < S2R_INTERVENTION_COUNT; i++)
        CHECK(strcmp(s2r_intervention_name((s2r_intervention)i), "unknown") != 0);
    for (i = 0; i < S2R_ALARM_COUNT; i++) CHECK(strcmp(s2r_alarm_name((s2r_alarm)i), "unknown") != 0);
    for (i = 0; i < S2R_DRIFT_KIND_COUNT; i++) CHECK(strcmp(s2r_drift_kind_name((s2r_drift_kind)i), "unknown") != 0);
    for (i = 0; i < S2R_ALARM_RESPONSE_COUNT; i++)
        CHECK(strcmp(s2r_alarm_response_name((s2r_alarm_response)i), "unknown") != 0);
    CHECK(strcmp(s2r_stage_name(S2R_STAGE_COUNT), "unknown") == 0);
    CHECK(strcmp(s2r_stage_name(S2R_STAGE_TETHERED), "tethered") == 0);
    CHECK(strcmp(s2r_intervention_name(S2R_INTERVENTION_WORKSPACE), "workspace") == 0);
    return 0;
}

/* ---------------------------------------------------------------------------
   Gates at their thresholds
   ------------------------------------------------------------------------- */

static int test_deploy_gate_sim_regression(void) {
    s2r_gate_config c = s2r_gate_config_default();
    CHECK(s2r_gate_sim_regression(&c, 17, 20).verdict == S2R_VERDICT_PASS);   /* exactly 0.85 */
    CHECK(s2r_gate_sim_regression(&c, 85, 100).verdict == S2R_VERDICT_PASS);
    CHECK(s2r_gate_sim_regression(&c, 16, 20).verdict == S2R_VERDICT_FAIL);
    CHECK(s2r_gate_sim_regression(&c, 84, 100).verdict == S2R_VERDICT_FAIL);
    CHECK(s2r_gate_sim_regression(&c, 0, 0).verdict == S2R_VERDICT_FAIL);
    return 0;
}

static int test_deploy_gate_sysid(void) {
    s2r_gate_config c = s2r_gate_config_default();
    CHECK(c.sysid_good_relative == S2R_SYSID_REL_GOOD && c.sysid_block_relative == S2R_SYSID_REL_BLOCK);
    CHECK(s2r_gate_sysid(&c, 0.0).verdict == S2R_VERDICT_PASS);
    CHECK(s2r_gate_sysid(&c, 0.0299999).verdict == S2R_VERDICT_PASS);
    CHECK(s2r_gate_sysid(&c, 0.03).verdict == S2R_VERDICT_WARN);      /* 3 % is not < 3 % */
    CHECK(s2r_gate_sysid(&c, 0.05).verdict == S2R_VERDICT_WARN);      /* 3-5 % inclusive */
    CHECK(s2r_gate_sysid(&c, 0.0500001).verdict == S2R_VERDICT_FAIL);
    CHECK(s2r_gate_sysid(&c, 0.08).verdict == S2R_VERDICT_FAIL);      /* the least a datasheet model was off */
    CHECK(s2r_gate_sysid(&c, NAN).verdict == S2R_VERDICT_FAIL);
    CHECK(s2r_gate_sysid(&c, -1.0).verdict == S2R_VERDICT_FAIL);
    CHECK(s2r_gate_sysid(&c, INFINITY).verdict == S2R_VERDICT_FAIL);
    return 0;
}

static int test_deploy_gate_shadow(void) {
    s2r_gate_config c = s2r_gate_config_default();
    s2r_shadow_stats s;
    memset(&s, 0, sizeof s);
    s.proposals = 300;
    s.agreements = 150;
    CHECK(s2r_gate_shadow(&c, &s).verdict == S2R_VERDICT_PASS);
    s.unsafe = 1;                                                     /* one unsafe proposal */
    CHECK(s2r_gate_shadow(&c, &s).verdict == S2R_VERDICT_FAIL);
    s.unsafe = 0;
    s.proposals = 299;
    CHECK(s2r_gate_shadow(&c, &s).verdict == S2R_VERDICT_CONTINUE);
    s.proposals = 300;
    c.shadow_min_agreement = 0.5;                                     /* agreement exactly 0.5 */
    CHECK(s2r_gate_shadow(&c, &s).verdict == S2R_VERDICT_PASS);
    s.agreements = 149;
    CHECK(s2r_gate_shadow(&c, &s).verdict == S2R_VERDICT_FAIL);
    c.shadow_min_agreement = 0;
    c.shadow_max_unsafe_rate = 0.01;                                  /* 3 of 300 allowed */
    s.unsafe = 3;
    CHECK(s2r_gate_shadow(&c, &s).verdict == S2R_VERDICT_PASS);
    s.unsafe = 4;
    CHECK(s2r_gate_shadow(&c, &s).verdict == S2R_VERDICT_FAIL);
    return 0;
}

/* Largest k with the Wilson upper bound of k/n at or below t (-1: none). */
static int deploy_last_k_hi_below(int n, double t) {
    int k, last = -1;
    for (k = 0; k <= n; k++) {
        double lo, hi;
        s2r_wilson_interval(k, n, &lo, &hi);
        if (hi <= t) last = k;
    }
    return last;
}

static int test_deploy_gate_tethered(void) {
    s2r_gate_config c = s2r_gate_config_default();
    double lo, hi;
    int k;
    c.rule = S2R_GATE_INTERVAL;   /* the earlier rule, as it was */
    c.tethered_max_episodes = 50;
    CHECK(s2r_gate_tethered(&c, 19, 19).verdict == S2R_VERDICT_CONTINUE);   /* before 20 */
    CHECK(s2r_gate_tethered(&c, 0, 19).verdict == S2R_VERDICT_CONTINUE);
    s2r_wilson_interval(20, 20, &lo, &hi);
    CHECK(lo > 0.8);
    CHECK(s2r_gate_tethered(&c, 20, 20).verdict == S2R_VERDICT_PASS);       /* lower bound above */
    CHECK(s2r_gate_tethered(&c, 19, 20).verdict == S2R_VERDICT_CONTINUE);
    k = deploy_last_k_hi_below(20, 0.8);                                    /* upper bound at/below */
    CHECK(k > 0);
    CHECK(s2r_gate_tethered(&c, k, 20).verdict == S2R_VERDICT_FAIL);
    CHECK(s2r_gate_tethered(&c, k + 1, 20).verdict == S2R_VERDICT_CONTINUE);
    s2r_wilson_interval(40, 50, &lo, &hi);
    CHECK(lo <= 0.8 && hi > 0.8);                    /* so the cap's point rule decides */
    CHECK(s2r_gate_tethered(&c, 40, 50).verdict == S2R_VERDICT_FAIL);        /* exactly 0.80 */
    s2r_wilson_interval(41, 50, &lo, &hi);
    CHECK(lo <= 0.8);
    CHECK(s2r_gate_tethered(&c, 41, 50).verdict == S2R_VERDICT_PASS);        /* 0.82 > 0.80 */
    CHECK(s2r_gate_tethered(&c, 40, 49).verdict == S2R_VERDICT_CONTINUE);
    return 0;
}

static int test_deploy_gate_constrained(void) {
    s2r_gate_config c = s2r_gate_config_default();
    c.rule = S2R_GATE_INTERVAL;
    c.constrained_episodes = 100;
    CHECK(s2r_gate_constrained(&c, 85, 100, 0).verdict == S2R_VERDICT_PASS);   /* exactly 0.85 */
    CHECK(s2r_gate_constrained(&c, 84, 100, 0).verdict == S2R_VERDICT_FAIL);
    CHECK(s2r_gate_constrained(&c, 100, 100, 1).verdict == S2R_VERDICT_FAIL);  /* a catastrophe */
    CHECK(s2r_gate_constrained(&c, 99, 99, 0).verdict == S2R_VERDICT_CONTINUE);
    CHECK(s2r_gate_constrained(&c, 10, 10, 1).verdict == S2R_VERDICT_FAIL);    /* at once */
    return 0;
}

/* The SPRT's boundaries with the default tethered design (0.95 against
   0.80, alpha 0.05, beta 0.10): a success adds log(0.95/0.8) = 0.172, a
   failure log(0.05/0.2) = -1.386; pass at log(0.9/0.05) = 2.890 (17
   straight successes), fail at log(0.1/0.95) = -2.251 (two failures
   first); the reason names the boundary; at the cap it fails; the same
   counts give the same verdict and words. */
static int test_deploy_gate_sequential(void) {
    s2r_gate_config c = s2r_gate_config_default();
    s2r_sprt_config t = s2r_gate_sprt(&c, S2R_STAGE_TETHERED), bad = t;
    s2r_gate_result g, again;
    double llr;
    char e[S2R_ERROR_LEN];
    CHECK(c.rule == S2R_GATE_SEQUENTIAL && t.p0 == 0.80 && t.p1 == 0.95 && t.max_n == 80);
    CHECK(s2r_sprt_decide(&t, 16, 16, &llr) == S2R_VERDICT_CONTINUE && fabs(llr - 16 * log(0.95 / 0.8)) < 1e-12);
    g = s2r_gate_tethered(&c, 17, 17);
    CHECKF(g.verdict == S2R_VERDICT_PASS && strstr(g.reason, "pass boundary"), "%s", g.reason);
    CHECK(s2r_gate_tethered(&c, 0, 1).verdict == S2R_VERDICT_CONTINUE);
    g = s2r_gate_tethered(&c, 0, 2);
    CHECKF(g.verdict == S2R_VERDICT_FAIL && strstr(g.reason, "fail boundary"), "%s", g.reason);
    CHECK(s2r_sprt_decide(&t, 71, 79, &llr) == S2R_VERDICT_CONTINUE);   /* 71 of 80: llr -0.27, inside */
    CHECK(s2r_sprt_decide(&t, 71, 80, &llr) == S2R_VERDICT_FAIL && llr > log(0.1 / 0.95) && llr < log(0.9 / 0.05));
    g = s2r_gate_tethered(&c, 71, 80);
    CHECKF(strstr(g.reason, "the cap"), "%s", g.reason);
    again = s2r_gate_tethered(&c, 71, 80);
    CHECK(again.verdict == g.verdict && strcmp(again.reason, g.reason) == 0);
    CHECK(s2r_gate_constrained(&c, 30, 30, 1).verdict == S2R_VERDICT_FAIL);   /* a catastrophe still fails at once */
    bad.p1 = 0.7;
    CHECK(s2r_sprt_check(&bad, e) == S2R_ERR_INVALID_ARGUMENT && strstr(e, "p0 < p1"));
    bad = t; bad.alpha = 0.6;
    CHECK(s2r_sprt_check(&bad, e) == S2R_ERR_INVALID_ARGUMENT && strstr(e, "alpha"));
    c.tethered_good = 0.5;   /* a design that makes no sense never passes */
    g = s2r_gate_tethered(&c, 40, 40);
    CHECKF(g.verdict == S2R_VERDICT_FAIL && strstr(g.reason, "bad gate design"), "%s", g.reason);
    return 0;
}

/* Run one gate on Bernoulli(p) episodes from rng until it decides. */
static int deploy_gate_trial(const s2r_gate_config* c, s2r_stage stage, double p, s2r_rng* rng, int* episodes) {
    int k = 0, n = 0;
    s2r_verdict v;
    do {
        k += s2r_rng_uniform(rng) < p;
        n++;
        v = stage == S2R_STAGE_TETHERED ? s2r_gate_tethered(c, k, n).verdict : s2r_gate_constrained(c, k, n, 0).verdict;
    } while (v == S2R_VERDICT_CONTINUE);
    *episodes = n;
    return v == S2R_VERDICT_PASS;
}

/* The exact operating characteristic (s2r_gate_oc) against 20000
   simulated runs of each gate at the threshold and at the good rate:
   pass rates within 4 standard errors, mean episodes too; at the
   threshold the sequential gates pass at most alpha, at the good rate at
   least 1 - beta; the interval rule as it was passes a policy at exactly
   0.80 far more often than 5 %. */
static int test_deploy_gate_oc(void) {
    static const double rates[2] = {0.80, 0.95};
    s2r_gate_config c = s2r_gate_config_default(), old = c;
    int st, i, r, rule;
    old.rule = S2R_GATE_INTERVAL;
    old.tethered_max_episodes = 50;
    old.constrained_episodes = 100;
    for (rule = 0; rule < 2; rule++)
        for (st = 0; st < 2; st++) {
            const s2r_gate_config* g = rule == 0 ? &c : &old;
            s2r_stage stage = st == 0 ? S2R_STAGE_TETHERED : S2R_STAGE_CONSTRAINED;
            for (i = 0; i < 2; i++) {
                double p = rates[i] + (st == 1 && i == 0 ? 0.05 : 0), exact, asn, passed = 0, sum = 0, sum2 = 0, se, se_n;
                int longest, runs = 20000;
                s2r_rng rng = s2r_rng_make(77, (uint64_t)(4 * rule + 2 * st + i));
                CHECK(s2r_gate_oc(g, stage, p, &exact, &asn, &longest) == S2R_OK);
                for (r = 0; r < runs; r++) {
                    int n;
                    passed += deploy_gate_trial(g, stage, p, &rng, &n);
                    sum += n;
                    sum2 += (double)n * n;
                }
                se = sqrt(exact * (1 - exact) / runs) + 1e-9;
                se_n = sqrt((sum2 / runs - (sum / runs) * (sum / runs)) / runs) + 1e-9;
                CHECKF(fabs(passed / runs - exact) < 4 * se, "%s %s p %.2f: simulated %.4f, exact %.4f",
                       s2r_gate_rule_name(g->rule), s2r_stage_name(stage), p, passed / runs, exact);
                CHECKF(fabs(sum / runs - asn) < 4 * se_n, "%s %s p %.2f: simulated %.2f episodes, exact %.2f",
                       s2r_gate_rule_name(g->rule), s2r_stage_name(stage), p, sum / runs, asn);
                if (rule == 0 && i == 0) CHECKF(exact <= s2r_gate_sprt(g, stage).alpha, "false pass %.4f", exact);
                if (rule == 0 && i == 1) CHECKF(exact >= 1 - s2r_gate_sprt(g, stage).beta, "power %.4f", exact);
                if (rule == 1 && st == 0 && i == 0) CHECKF(exact > 0.2, "interval rule at 0.80 passes %.3f", exact);
            }
        }
    return 0;
}

/* The sequential canary on pairs (a worse candidate wins a third of the
   disagreements, an equal one half): a win adds log(1.5) = 0.405, a loss
   log(0.75) = -0.288; 8 straight wins pass, 8 straight losses fail; at the
   cap the observed drop decides against the margin.  Over 20000 simulated
   canaries whose candidate wins exactly a third of the disagreements it
   passes at most Wald's bound alpha / (1 - beta), and one winning half of
   them passes at least 1 - beta; the same counts give the same words. */
static int test_deploy_gate_canary_pairs(void) {
    s2r_gate_config c = s2r_gate_config_default();
    s2r_gate_result g, again;
    int th, r;
    CHECK(s2r_gate_canary_pairs(&c, 7, 7, 0).verdict == S2R_VERDICT_CONTINUE);
    g = s2r_gate_canary_pairs(&c, 8, 8, 0);
    CHECKF(g.verdict == S2R_VERDICT_PASS && strstr(g.reason, "pass boundary"), "%s", g.reason);
    CHECK(s2r_gate_canary_pairs(&c, 7, 0, 7).verdict == S2R_VERDICT_CONTINUE);
    g = s2r_gate_canary_pairs(&c, 8, 0, 8);
    CHECKF(g.verdict == S2R_VERDICT_FAIL && strstr(g.reason, "fail boundary"), "%s", g.reason);
    CHECK(s2r_gate_canary_pairs(&c, 199, 0, 7).verdict == S2R_VERDICT_CONTINUE);   /* the controllers agree */
    g = s2r_gate_canary_pairs(&c, 200, 0, 7);
    CHECKF(g.verdict == S2R_VERDICT_PASS && strstr(g.reason, "the cap"), "%s", g.reason);   /* drop 0.035 */
    g = s2r_gate_canary_pairs(&c, 200, 20, 31);                                 /* llr -0.81, drop 0.055 */
    CHECKF(g.verdict == S2R_VERDICT_FAIL && strstr(g.reason, "beyond the margin"), "%s", g.reason);
    again = s2r_gate_canary_pairs(&c, 200, 20, 31);
    CHECK(again.verdict == g.verdict && strcmp(again.reason, g.reason) == 0);
    CHECK(s2r_gate_canary_pairs(&c, 10, 6, 5).verdict == S2R_VERDICT_FAIL);     /* more disagreements than pairs */
    CHECK(s2r_gate_canary_pairs(&c, -1, 0, 0).verdict == S2R_VERDICT_FAIL);
    for (th = 0; th < 2; th++) {   /* every pair a disagreement: the share alone decides */
        double share = th ? 0.5 : 1.0 / 3.0, passed = 0;
        int runs = 20000;
        s2r_rng rng = s2r_rng_make(31, (uint64_t)th);
        for (r = 0; r < runs; r++) {
            int n = 0, w = 0;
            do {
                w += s2r_rng_uniform(&rng) < share;
                n++;
                g = s2r_gate_canary_pairs(&c, n, w, n - w);
            } while (g.verdict == S2R_VERDICT_CONTINUE);
            passed += g.verdict == S2R_VERDICT_PASS;
        }
        printf("    sequential canary, candidate winning %.3f of the disagreements: passes %.4f\n", share, passed / runs);
        if (th == 0) CHECKF(passed / runs <= c.canary_alpha / (1 - c.canary_beta) + 3 * sqrt(0.05 * 0.95 / runs),
                            "false pass %.4f", passed / runs);
        else CHECKF(passed / runs >= 1 - c.canary_beta - 3 * sqrt(0.1 * 0.9 / runs), "power %.4f", passed / runs);
    }
    return 0;
}

static int test_deploy_gate_canary(void) {
    s2r_gate_config c = s2r_gate_config_default();
    s2r_gate_result g;
    int k, flip = -1;
    g = s2r_gate_canary(&c, 45, 100, 50, 100);                               /* drop exactly 0.05 */
    CHECK(g.hi > 0);
    CHECK(g.verdict == S2R_VERDICT_PASS);
    CHECK(s2r_gate_canary(&c, 44, 100, 50, 100).verdict == S2R_VERDICT_FAIL);  /* drop 0.06 */
    CHECK(s2r_gate_canary(&c, 60, 100, 50, 100).verdict == S2R_VERDICT_PASS);
    CHECK(s2r_gate_canary(&c, 39, 39, 39, 39).verdict == S2R_VERDICT_CONTINUE);
    c.canary_margin = 1.0;                        /* isolate the interval rule: hi < 0 fails */
    for (k = 60; k >= 0 && flip < 0; k--)
        if (s2r_gate_canary(&c, k, 60, 50, 60).hi < 0) flip = k;
    CHECK(flip > 0);
    CHECK(s2r_gate_canary(&c, flip, 60, 50, 60).verdict == S2R_VERDICT_FAIL);
    CHECK(s2r_gate_canary(&c, flip + 1, 60, 50, 60).hi >= 0);
    CHECK(s2r_gate_canary(&c, flip + 1, 60, 50, 60).verdict == S2R_VERDICT_PASS);
    return 0;
}

static int test_deploy_gate_garbage(void) {
    s2r_gate_config c = s2r_gate_config_default();
    s2r_shadow_stats s;
    memset(&s, 0, sizeof s);
    s.proposals = 500;
    s.unsafe = -1;
    CHECK(s2r_gate_sim_regression(&c, 21, 20).verdict == S2R_VERDICT_FAIL);
    CHECK(s2r_gate_sim_regression(&c, -1, 20).verdict == S2R_VERDICT_FAIL);
    CHECK(s2r_gate_tethered(&c, 60, 50).verdict == S2R_VERDICT_FAIL);
    CHECK(s2r_gate_constrained(&c, 100, 100, -1).verdict == S2R_VERDICT_FAIL);
    CHECK(s2r_gate_canary(&c, 50, 40, 10, 40).verdict == S2R_VERDICT_FAIL);
    CHECK(s2r_gate_shadow(&c, &s).verdict == S2R_VERDICT_FAIL);
    return 0;
}

/* ---------------------------------------------------------------------------
   Safety monitor
   ------------------------------------------------------------------------- */

/* Send `target` through the monitor; check what reached the simulator. */
static int deploy_send_and_check(deploy_rig* r, const double* target) {
    double prev[S2R_MAX_JOINTS];
    memcpy(prev, r->sim.q_cmd, sizeof prev);
    s2r_backend_command(s2r_safety_backend(&r->safety), target);
    return deploy_target_safe(&r->safety, prev, r->sim.q_cmd);
}

static int deploy_injected_commands(s2r_robot_kind kind) {
    s2r_safety_config sc = s2r_safety_config_default();
    deploy_rig r;
    const s2r_arm_info* info;
    double q[S2R_MAX_JOINTS], before[S2R_MAX_JOINTS];
    int j, n, i, blocked = 0;
    CHECK(deploy_rig_init(&r, kind, &sc) == 0);
    info = &r.sim.robot.info;
    n = info->n_joints;
    CHECK(s2r_backend_reset(s2r_safety_backend(&r.safety), NULL, NULL, NULL) == S2R_OK);
    memcpy(before, r.sim.q_cmd, sizeof before);
    memcpy(q, info->q_home, sizeof q);
    q[0] = NAN;                                                  /* NaN: blocked, error */
    CHECK(s2r_backend_command(s2r_safety_backend(&r.safety), q) == S2R_ERR_INVALID_ARGUMENT);
    CHECK(memcmp(before, r.sim.q_cmd, sizeof before) == 0);
    q[0] = INFINITY;                                             /* Inf: blocked, error */
    CHECK(s2r_backend_command(s2r_safety_backend(&r.safety), q) == S2R_ERR_INVALID_ARGUMENT);
    CHECK(memcmp(before, r.sim.q_cmd, sizeof before) == 0);
    CHECK(r.safety.episode_count[S2R_INTERVENTION_NONFINITE] == 2);
    for (j = 0; j < n; j++) {                                    /* beyond the hard limits */
        memcpy(q, r.sim.q_cmd, sizeof q);
        q[j] = info->q_max[j] + 1.0;
        CHECK(deploy_send_and_check(&r, q));
        q[j] = info->q_min[j] - 1.0;
        CHECK(deploy_send_and_check(&r, q));
    }
    CHECK(r.safety.episode_count[S2R_INTERVENTION_HARD_LIMIT] == 2 * n);
    for (j = 0; j < n; j++) q[j] = r.sim.q_cmd[j] + 0.7;         /* a large jump */
    CHECK(deploy_send_and_check(&r, q));
    CHECK(r.safety.episode_count[S2R_INTERVENTION_STEP] > 0);
    for (i = 0; i < 400; i++) {                                  /* walk out of the workspace */
        memcpy(q, r.sim.q_cmd, sizeof q);
        q[1] += 0.04;
        q[2] -= 0.04;
        CHECK(deploy_send_and_check(&r, q));
    }
    blocked = r.safety.episode_count[S2R_INTERVENTION_WORKSPACE] + r.safety.episode_count[S2R_INTERVENTION_SOFT_LIMIT];
    CHECK(blocked > 0);
    deploy_rig_free(&r);
    return 0;
}

static int test_deploy_safety_injected(void) {
    CHECK(deploy_injected_commands(S2R_ROBOT_UR5E) == 0);
    CHECK(deploy_injected_commands(S2R_ROBOT_PANDA) == 0);
    return 0;
}

/* 3000 random commands of every kind: every target that reaches the
   simulator satisfies the invariants. */
static int test_deploy_safety_fuzz(void) {
    s2r_safety_config sc = s2r_safety_config_default();
    deploy_rig r;
    s2r_rng rng = s2r_rng_make(11, 0);
    const s2r_arm_info* info;
    int i, j, n;
    CHECK(deploy_rig_init(&r, S2R_ROBOT_PANDA, &sc) == 0);
    info = &r.sim.robot.info;
    n = info->n_joints;
    CHECK(s2r_backend_reset(s2r_safety_backend(&r.safety), NULL, NULL, NULL) == S2R_OK);
    for (i = 0; i < 3000; i++) {
        double q[S2R_MAX_JOINTS];
        int kind = s2r_rng_int(&rng, 4);
        for (j = 0; j < n; j++) {
            if (kind == 0) q[j] = s2r_rng_range(&rng, info->q_min[j] - 1, info->q_max[j] + 1);
            else if (kind == 1) q[j] = r.sim.q_cmd[j] + s2r_rng_range(&rng, -0.06, 0.06);
            else if (kind == 2) q[j] = r.sim.q_cmd[j] + s2r_rng_range(&rng, -3, 3);
            else q[j] = s2r_rng_int(&rng, 8) == 0 ? NAN : r.sim.q_cmd[j];
        }
        CHECKF(deploy_send_and_check(&r, q), "command %d (kind %d)", i, kind);
        if (i % 50 == 0) s2r_backend_advance(s2r_safety_backend(&r.safety), 0.04);
    }
    deploy_rig_free(&r);
    return 0;
}

/* The expert behind the monitor: no intervention, and NaN actions from a
   bad policy are caught and counted without ending the episode. */
static int test_deploy_safety_leaves_safe_alone(void) {
    s2r_safety_config sc = s2r_safety_config_default();
    deploy_rig r;
    s2r_controller expert;
    s2r_run_summary sum;
    int state[2] = {0, 0}, e;
    s2r_controller nanny;
    s2r_episode_stats stats;
    s2r_rng rng = s2r_rng_make(5, 5);
    CHECK(deploy_rig_init(&r, S2R_ROBOT_UR5E, &sc) == 0);
    expert = s2r_expert_controller(&r.expert);
    CHECK(deploy_episodes(&expert, &r.task, &r.safety, 6, 3, 0, &sum) == S2R_OK);
    CHECKF(sum.interventions == 0, "%ld interventions", sum.interventions);
    CHECK(sum.successes == 6 && sum.catastrophic == 0);
    CHECK(sum.torque_peak > 0 && sum.torque_peak < 1);
    state[0] = r.task.reach.n_joints;
    nanny = deploy_controller(state, deploy_nan_act);
    CHECK(s2r_deploy_episode(&nanny, &r.task, &r.safety, &rng, &stats) == S2R_OK);
    e = stats.intervention[S2R_INTERVENTION_NONFINITE];
    CHECKF(e == stats.steps / 5, "%d nonfinite of %d steps", e, stats.steps);
    deploy_rig_free(&r);
    return 0;
}

/* Speed and torque limits (made tiny so the expert trips them) hold the
   arm; a kind in estop_on latches the e-stop and calls the halt hook. */
static int deploy_halt_calls;
static s2r_result deploy_halt(void* context) { (void)context; deploy_halt_calls++; return S2R_OK; }

static int test_deploy_safety_watch(void) {
    s2r_safety_config sc = s2r_safety_config_default();
    deploy_rig r;
    s2r_controller expert;
    s2r_run_summary sum;
    double q[S2R_MAX_JOINTS];
    sc.velocity_fraction = 0.05;
    sc.torque_fraction = 0.05;
    sc.torque_time = 0.01;
    CHECK(deploy_rig_init(&r, S2R_ROBOT_UR5E, &sc) == 0);
    expert = s2r_expert_controller(&r.expert);
    CHECK(deploy_episodes(&expert, &r.task, &r.safety, 2, 3, 0, &sum) == S2R_OK);
    CHECK(sum.intervention[S2R_INTERVENTION_VELOCITY] > 0);
    CHECK(sum.intervention[S2R_INTERVENTION_TORQUE] > 0);
    CHECK(sum.catastrophic == 0);
    deploy_rig_free(&r);

    sc = s2r_safety_config_default();
    sc.estop_on = S2R_INTERVENTION_BIT(S2R_INTERVENTION_STEP);
    sc.halt = deploy_halt;
    deploy_halt_calls = 0;
    CHECK(deploy_rig_init(&r, S2R_ROBOT_UR5E, &sc) == 0);
    CHECK(s2r_backend_reset(s2r_safety_backend(&r.safety), NULL, NULL, NULL) == S2R_OK);
    memcpy(q, r.sim.q_cmd, sizeof q);
    q[0] += 0.5;                                                   /* a jump: escalates */
    CHECK(s2r_backend_command(s2r_safety_backend(&r.safety), q) == S2R_OK);
    CHECK(r.safety.estopped == 1 && deploy_halt_calls == 1);
    memcpy(q, r.sim.q_cmd, sizeof q);
    q[1] += 0.01;                                                  /* ignored while stopped */
    CHECK(s2r_backend_command(s2r_safety_backend(&r.safety), q) == S2R_OK);
    CHECK(r.sim.q_cmd[1] != q[1] && r.safety.ignored_commands == 1);
    CHECK(s2r_safety_estop(&r.safety, "again") == S2R_OK && deploy_halt_calls == 1);
    CHECK(s2r_backend_reset(s2r_safety_backend(&r.safety), NULL, NULL, NULL) == S2R_OK);
    CHECK(r.safety.estopped == 0);                                 /* released by a reset */
    deploy_rig_free(&r);
    return 0;
}

/* E-stop mid-motion on the nominal UR5e: the flange's true speed falls
   below 0.05 m/s (the task's own "at rest") within 50 ms of simulated time
   and stays below for the next 250 ms; commands after it change nothing. */
static int check_estop_halts(s2r_robot_kind kind) {
    s2r_safety_config sc = s2r_safety_config_default();
    deploy_rig r;
    const s2r_backend* b;
    double worst = 0, fastest = 0;
    int e;
    CHECK(deploy_rig_init(&r, kind, &sc) == 0);
    b = s2r_safety_backend(&r.safety);
    for (e = 0; e < 10; e++) {
        s2r_rng rng = s2r_rng_make(21, (uint64_t)e);
        float obs[S2R_REACH_MAX_OBS], a[S2R_MAX_JOINTS];
        double held[S2R_MAX_JOINTS], t = 0, stop = -1;
        s2r_step_result res;
        int k;
        CHECK(s2r_reach_reset(&r.task.reach, &rng, obs) == S2R_OK);
        s2r_expert_reset(&r.expert);
        for (k = 0; k < 1 + e % 8; k++) {
            CHECK(s2r_expert_act(&r.expert, obs, NULL, a, NULL) == S2R_OK);
            CHECK(s2r_reach_step(&r.task.reach, a, obs, &res) == S2R_OK);
        }
        fastest = fmax(fastest, deploy_flange_speed(b));
        CHECK(s2r_safety_estop(&r.safety, "test") == S2R_OK);
        memcpy(held, r.sim.q_cmd, sizeof held);
        while (t < 0.3 - 1e-9) {
            CHECK(s2r_backend_advance(b, b->info->physics_dt) == S2R_OK);   /* one physics step at a time */
            t += b->info->physics_dt;
            if (deploy_flange_speed(b) < 0.05) { if (stop < 0) stop = t; }
            else stop = -1;                    /* moving again: the stop did not hold */
        }
        if (getenv("DEPLOY_TRACE")) printf("    episode %d: %d steps, stop %.0f ms\n", e, 1 + e % 8, stop * 1000);
        CHECKF(stop >= 0 && stop <= 0.050 + 1e-9, "episode %d: halted after %.0f ms", e, stop * 1000);
        worst = fmax(worst, stop);
        CHECK(s2r_expert_act(&r.expert, obs, NULL, a, NULL) == S2R_OK);
        CHECK(s2r_reach_step(&r.task.reach, a, obs, &res) == S2R_OK);
        CHECK(memcmp(held, r.sim.q_cmd, sizeof held) == 0);
    }
    CHECKF(fastest > 0.3, "the arm was not moving fast (%.2f m/s)", fastest);
    printf("    e-stop (%s): flange from up to %.2f m/s to rest in at most %.0f ms\n", s2r_robot_kind_name(kind),
           fastest, worst * 1000);
    deploy_rig_free(&r);
    return 0;
}

/* The e-stop engages the backend's brakes (drive-level halt) and sends the
   halt command: both arms at rest within 50 ms of simulated time. */
static int test_deploy_estop_halts(void) {
    return check_estop_halts(S2R_ROBOT_UR5E) || check_estop_halts(S2R_ROBOT_PANDA);
}

static int test_deploy_safety_bad_config(void) {
    s2r_safety_config sc = s2r_safety_config_default();
    s2r_sim sim;
    s2r_sim_config c = s2r_sim_config_default(S2R_ROBOT_UR5E);
    s2r_safety s;
    CHECK(s2r_sim_init(&sim, &c) == S2R_OK);
    sc.max_step = -1;
    CHECK(s2r_safety_init(&s, &sc, s2r_sim_backend(&sim)) == S2R_ERR_INVALID_ARGUMENT);
    CHECK(strstr(s.error, "max_step") != NULL);
    sc = s2r_safety_config_default();
    sc.workspace_margin = NAN;
    CHECK(s2r_safety_init(&s, &sc, s2r_sim_backend(&sim)) == S2R_ERR_INVALID_ARGUMENT);
    sc = s2r_safety_config_default();
    sc.workspace_scale = 1.5;
    CHECK(s2r_safety_init(&s, &sc, s2r_sim_backend(&sim)) == S2R_ERR_INVALID_ARGUMENT);
    sc = s2r_safety_config_default();
    CHECK(s2r_safety_init(&s, &sc, NULL) == S2R_ERR_INVALID_ARGUMENT);
    CHECK(s2r_safety_init(&s, &sc, s2r_sim_backend(&sim)) == S2R_OK);
    CHECK(s2r_safety_set_workspace_scale(&s, -0.1) == S2R_ERR_INVALID_ARGUMENT);
    CHECK(s2r_safety_set_workspace_scale(&s, 0.5) == S2R_OK);
    s2r_safety_free(&s);
    s2r_sim_free(&sim);
    return 0;
}

/* ---------------------------------------------------------------------------
   Regression suite and shadow mode
   ------------------------------------------------------------------------- */

static int test_deploy_regression_suite(void) {
    s2r_safety_config sc = s2r_safety_config_default();
    s2r_gate_config gc = s2r_gate_config_default();
    deploy_rig r;
    const s2r_regression_case* cases;
    s2r_regression_result res;
    s2r_controller expert, zero;
    int n = s2r_regression_suite_default(&cases), state = 0, i;
    CHECK(n >= 10 && n <= S2R_REGRESSION_MAX_CASES);
    for (i = 0; i < n; i++) CHECK(cases[i].name && cases[i].name[0]);
    CHECK(deploy_rig_init(&r, S2R_ROBOT_UR5E, &sc) == 0);
    expert = s2r_expert_controller(&r.expert);
    CHECK(s2r_regression_run(&expert, &r.task, cases, n, 1, 7, &res) == S2R_OK);
    CHECKF(s2r_gate_sim_regression(&gc, res.passed, res.runs).verdict == S2R_VERDICT_PASS, "%d of %d", res.passed, res.runs);
    state = r.task.reach.n_joints;
    zero = deploy_controller(&state, deploy_zero_act);
    CHECK(s2r_regression_run(&zero, &r.task, cases, n, 1, 7, &res) == S2R_OK);
    CHECKF(s2r_gate_sim_regression(&gc, res.passed, res.runs).verdict == S2R_VERDICT_FAIL, "%d of %d", res.passed, res.runs);
    deploy_rig_free(&r);
    return 0;
}

static int test_deploy_shadow(void) {
    s2r_safety_config sc = s2r_safety_config_default();
    s2r_gate_config gc = s2r_gate_config_default();
    s2r_expert_config ec = s2r_expert_config_default();
    deploy_rig r;
    s2r_expert twin;
    s2r_controller fallback, policy, wild;
    s2r_shadow_stats st;
    int state[2];
    CHECK(deploy_rig_init(&r, S2R_ROBOT_UR5E, &sc) == 0);
    CHECK(deploy_expert_init(&twin, &ec, &r.task.reach) == S2R_OK);
    fallback = s2r_expert_controller(&r.expert);
    policy = s2r_expert_controller(&twin);
    CHECK(s2r_shadow_run(&policy, &fallback, &r.task, &r.safety, 6, 9, S2R_SHADOW_AGREE_TOL, &st, NULL) == S2R_OK);
    CHECK(st.proposals == 6 * r.task.reach.config.episode_steps && st.proposals >= gc.shadow_min_proposals);
    CHECK(st.agreements == st.proposals && st.unsafe == 0 && st.max_difference == 0);
    CHECK(st.fallback_successes == 6);
    CHECKF(s2r_gate_shadow(&gc, &st).verdict == S2R_VERDICT_PASS, "%s", s2r_gate_shadow(&gc, &st).reason);
    state[0] = r.task.reach.n_joints;             /* NaN every fifth step: unsafe proposals */
    state[1] = 0;
    wild = deploy_controller(state, deploy_nan_act);
    CHECK(s2r_shadow_run(&wild, &fallback, &r.task, &r.safety, 6, 9, S2R_SHADOW_AGREE_TOL, &st, NULL) == S2R_OK);
    CHECK(st.unsafe == st.proposals / 5 && st.by_kind[S2R_INTERVENTION_NONFINITE] == st.unsafe);
    CHECK(st.fallback_successes == 6);      /* the fallback acted, unharmed */
    CHECK(s2r_safety_episode_interventions(&r.safety) == 0);
    CHECK(s2r_gate_shadow(&gc, &st).verdict == S2R_VERDICT_FAIL);
    wild = deploy_controller(state, deploy_push_act);   /* always full push: disagrees */
    CHECK(s2r_shadow_run(&wild, &fallback, &r.task, &r.safety, 6, 9, S2R_SHADOW_AGREE_TOL, &st, NULL) == S2R_OK);
    CHECK(st.agreement_rate < 0.5 && st.max_difference > 1.0);
    gc.shadow_min_agreement = 0.5;
    CHECK(s2r_gate_shadow(&gc, &st).verdict == S2R_VERDICT_FAIL);
    s2r_expert_free(&twin);
    deploy_rig_free(&r);
    return 0;
}

/* ---------------------------------------------------------------------------
   Drift detection
   ------------------------------------------------------------------------- */

#define DEPLOY_SEEDS 200

/* Bernoulli success stream p0 -> p1 after `before` post-warm-up samples:
   the episodes until the alarm (0 when it fired before the change, 999
   when it did not fire within 200). */
static int deploy_bernoulli_delay(const s2r_drift_config* config, uint64_t seed, double p0, double p1, int before) {
    s2r_drift_config c = *config;
    s2r_drift d;
    s2r_rng rng = s2r_rng_make(seed, 77);
    int i;
    s2r_drift_init(&d, &c, NULL);
    for (i = 0; i < c.warmup + before; i++)
        if (s2r_drift_update(&d, s2r_rng_uniform(&rng) < p0) == 1) return 0;
    for (i = 1; i <= 200; i++)
        if (s2r_drift_update(&d, s2r_rng_uniform(&rng) < p1) == 1) return i;
    return 999;
}

static int deploy_gaussian_delay(const s2r_drift_config* config, uint64_t seed, double shift_sd, int before) {
    s2r_drift_config c = *config;
    s2r_drift d;
    s2r_rng rng = s2r_rng_make(seed, 78);
    const double mean = 0.3, sd = 0.05;   /* e.g. a mean |action| */
    int i;
    s2r_drift_init(&d, &c, NULL);
    for (i = 0; i < c.warmup + before; i++)
        if (s2r_drift_update(&d, mean + sd * s2r_rng_normal(&rng)) == 1) return 0;
    for (i = 1; i <= 200; i++)
        if (s2r_drift_update(&d, mean + sd * (shift_sd + s2r_rng_normal(&rng))) == 1) return i;
    return 999;
}

/* Stated bounds (defaults, 200 seeds):
     success 0.95, unchanged for 1000 episodes after warm-up: false alarm in
     at most 5 % of seeds; a fall to 0.5: alarm within 40 episodes in at
     least 95 % of seeds (counting false alarms before the change as misses).
     Gaussian, unchanged for 1000: false alarm in at most 5 %; a 2-std
     shift: alarm within 25 episodes in at least 95 %. */
static int deploy_cmp_int(const void* a, const void* b) { return *(const int*)a - *(const int*)b; }

/* 95th percentile of delays, false alarms before the change counted as
   never detected. */
static int deploy_p95(int* delay, int n) {
    int i;
    for (i = 0; i < n; i++) if (delay[i] == 0) delay[i] = 999;
    qsort(delay, (size_t)n, sizeof *delay, deploy_cmp_int);
    return delay[(int)ceil(0.95 * n) - 1];
}

/* Both detectors on the same streams: CUSUM (defaults) and Page-Hinkley
   (s2r_drift_config_page_hinkley), each held to the stated bounds. */
static int test_deploy_drift_bernoulli(void) {
    int m;
    for (m = 0; m < 2; m++) {
        s2r_drift_config c = m ? s2r_drift_config_page_hinkley(S2R_DRIFT_BERNOULLI) : s2r_drift_config_default(S2R_DRIFT_BERNOULLI);
        int s, silent = 0, fast = 0, delay[DEPLOY_SEEDS];
        for (s = 0; s < DEPLOY_SEEDS; s++) {
            int d = deploy_bernoulli_delay(&c, (uint64_t)s, 0.95, 0.95, 1000);   /* never changes */
            silent += d == 999;
            d = deploy_bernoulli_delay(&c, (uint64_t)s + 1000, 0.95, 0.5, 50);
            if (d > 0 && d <= 40) fast++;
            delay[s] = d;
        }
        printf("    bernoulli %s: silent over 1000 episodes in %d/%d seeds; fall 0.95->0.5 caught within 40 in %d/%d "
               "(95th percentile %d)\n", s2r_drift_method_name(c.method), silent, DEPLOY_SEEDS, fast, DEPLOY_SEEDS,
               deploy_p95(delay, DEPLOY_SEEDS));
        CHECK(silent >= 0.95 * DEPLOY_SEEDS);
        CHECK(fast >= 0.95 * DEPLOY_SEEDS);
    }
    return 0;
}

static int test_deploy_drift_gaussian(void) {
    int m;
    for (m = 0; m < 2; m++) {
        s2r_drift_config c = m ? s2r_drift_config_page_hinkley(S2R_DRIFT_GAUSSIAN) : s2r_drift_config_default(S2R_DRIFT_GAUSSIAN);
        int s, silent = 0, fast = 0, delay[DEPLOY_SEEDS];
        for (s = 0; s < DEPLOY_SEEDS; s++) {
            int d = deploy_gaussian_delay(&c, (uint64_t)s, 0.0, 1000);
            silent += d == 999;
            d = deploy_gaussian_delay(&c, (uint64_t)s + 1000, 2.0, 50);
            if (d > 0 && d <= 25) fast++;
            delay[s] = d;
        }
        printf("    gaussian %s: silent over 1000 episodes in %d/%d seeds; 2-std shift caught within 25 in %d/%d "
               "(95th percentile %d)\n", s2r_drift_method_name(c.method), silent, DEPLOY_SEEDS, fast, DEPLOY_SEEDS,
               deploy_p95(delay, DEPLOY_SEEDS));
        CHECK(silent >= 0.95 * DEPLOY_SEEDS);
        CHECK(fast >= 0.95 * DEPLOY_SEEDS);
    }
    return 0;
}

static int test_deploy_drift_config(void) {
    s2r_drift_config c = s2r_drift_config_default(S2R_DRIFT_GAUSSIAN);
    s2r_drift d;
    char err[S2R_ERROR_LEN];
    int i;
    c.threshold = -1;
    CHECK(s2r_drift_init(&d, &c, err) == S2R_ERR_INVALID_ARGUMENT);
    c = s2r_drift_config_default(S2R_DRIFT_BERNOULLI);
    c.warmup = 0;
    c.ref_mean = 1.0;                                           /* p0 = 1: no alternative */
    CHECK(s2r_drift_init(&d, &c, err) == S2R_ERR_INVALID_ARGUMENT);
    c.ref_mean = 0.9;
    CHECK(s2r_drift_init(&d, &c, err) == S2R_OK);
    CHECK(s2r_drift_update(&d, NAN) == -1 && d.samples == 0);
    for (i = 0; i < 6; i++) s2r_drift_update(&d, 0.0);       /* 6 x log(0.4 / 0.1) > 7 nats */
    CHECK(d.alarm == 1 && d.alarm_at > 0 && s2r_drift_level(&d) > 1);
    CHECK(s2r_drift_update(&d, 0.0) == 0);                    /* latched: reported once */
    return 0;
}

static int test_deploy_monitor(void) {
    s2r_monitor_config c = s2r_monitor_config_default();
    s2r_monitor m;
    s2r_episode_stats e;
    unsigned raised = 0;
    int i;
    c.window = 5;
    CHECK(s2r_monitor_init(&m, &c) == S2R_OK);
    memset(&e, 0, sizeof e);
    e.success = 1;
    e.action_mean_abs = 0.3;
    e.torque_peak = 0.4;
    for (i = 0; i < 40; i++) CHECK(s2r_monitor_update(&m, &e) == 0);
    CHECK(m.rolling_success == 1.0 && m.rolling_torque > 0.39);
    e.interventions = 1;                                    /* 1 per episode > 0.5 */
    for (i = 0; i < 5; i++) raised |= s2r_monitor_update(&m, &e);
    CHECK(raised == S2R_ALARM_BIT(S2R_ALARM_INTERVENTIONS));
    CHECK(s2r_monitor_update(&m, &e) == 0);                 /* already raised */
    e.catastrophic = 1;
    CHECK(s2r_monitor_update(&m, &e) == S2R_ALARM_BIT(S2R_ALARM_CATASTROPHIC));
    c.window = 0;
    CHECK(s2r_monitor_init(&m, &c) == S2R_ERR_INVALID_ARGUMENT);
    return 0;
}

/* ---------------------------------------------------------------------------
   The stage machine and its log
   ------------------------------------------------------------------------- */

#ifndef S2R_TEST_TMP
#define S2R_TEST_TMP "/tmp"
#endif
#define DEPLOY_LOG S2R_TEST_TMP "/s2r_test_deploy_log.jsonl"

/* Lines in the log; 0 if any line is not one complete {...} record. */
static int deploy_log_records(const char* path) {
    static char text[1 << 16];
    FILE* f = fopen(path, "rb");
    size_t n;
    int lines = 0;
    char* p;
    if (!f) return -1;
    n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    if (n == 0) return 0;
    if (text[n - 1] != '\n') return 0;
    for (p = text; *p; ) {
        char* end = strchr(p, '\n');
        if (*p != '{' || end[-1] != '}') return 0;
        lines++;
        p = end + 1;
    }
    return lines;
}

/* A passing (or failing) gate result for `stage`, made by hand. */
static s2r_gate_result deploy_gate(s2r_stage stage, s2r_verdict v) {
    s2r_gate_result g;
    memset(&g, 0, sizeof g);
    g.stage = stage;
    g.verdict = v;
    g.n = 20;
    g.value = 0.9;
    snprintf(g.reason, sizeof g.reason, "constructed \"%s\"\nresult", s2r_verdict_name(v));
    return g;
}

static int test_deploy_stage_machine(void) {
    s2r_deploy_config c = s2r_deploy_config_default();
    s2r_deploy d;
    s2r_gate_result g;
    int s;
    CHECK(s2r_deploy_init(&d, &c, "v1", DEPLOY_LOG) == S2R_OK);
    CHECK(d.stage == S2R_STAGE_SIM_REGRESSION);
    g = deploy_gate(S2R_STAGE_SHADOW, S2R_VERDICT_PASS);               /* skipping is refused */
    CHECK(s2r_deploy_apply(&d, &g) == S2R_ERR_STATE && d.stage == S2R_STAGE_SIM_REGRESSION);
    for (s = S2R_STAGE_SIM_REGRESSION; s < S2R_STAGE_AUTONOMOUS; s++) {
        g = deploy_gate((s2r_stage)s, S2R_VERDICT_CONTINUE);
        CHECK(s2r_deploy_apply(&d, &g) == S2R_OK && d.stage == (s2r_stage)s);
        g = deploy_gate((s2r_stage)s, s == S2R_STAGE_SYSID ? S2R_VERDICT_WARN : S2R_VERDICT_PASS);
        CHECK(s2r_deploy_apply(&d, &g) == S2R_OK && d.stage == (s2r_stage)(s + 1));
        CHECK(deploy_log_records(DEPLOY_LOG) == (int)d.seq);          /* on disk at once */
    }
    CHECK(d.stage == S2R_STAGE_AUTONOMOUS && d.history_count == 6);
    CHECK(s2r_deploy_alarm(&d, 3, S2R_ALARM_BIT(S2R_ALARM_SUCCESS_DRIFT), "unit 3 drifted") == S2R_OK);
    CHECK(d.stage == S2R_STAGE_ROLLED_BACK && d.history[6].unit == 3);
    CHECK(s2r_deploy_alarm(&d, 3, 1u, NULL) == S2R_ERR_STATE);
    g = deploy_gate(S2R_STAGE_AUTONOMOUS, S2R_VERDICT_PASS);
    CHECK(s2r_deploy_apply(&d, &g) == S2R_ERR_STATE && d.stage == S2R_STAGE_ROLLED_BACK);
    CHECK(deploy_log_records(DEPLOY_LOG) == (int)d.seq);
    s2r_deploy_free(&d);

    c.alarm_response = S2R_ALARM_RESPONSE_DEMOTE;                     /* demote instead */
    CHECK(s2r_deploy_init(&d, &c, "v2", NULL) == S2R_OK);
    for (s = S2R_STAGE_SIM_REGRESSION; s < S2R_STAGE_AUTONOMOUS; s++) {
        g = deploy_gate((s2r_stage)s, S2R_VERDICT_PASS);
        CHECK(s2r_deploy_apply(&d, &g) == S2R_OK);
    }
    CHECK(s2r_deploy_alarm(&d, -1, S2R_ALARM_BIT(S2R_ALARM_ACTION_DRIFT), NULL) == S2R_OK);
    CHECK(d.stage == S2R_STAGE_CANARY);
    s2r_deploy_free(&d);
    c.alarm_response = (s2r_alarm_response)7;
    CHECK(s2r_deploy_init(&d, &c, "v3", NULL) == S2R_ERR_INVALID_ARGUMENT);
    remove(DEPLOY_LOG);
    return 0;
}

static int test_deploy_log_records(void) {
    s2r_deploy_config c = s2r_deploy_config_default();
    s2r_deploy d;
    char junk[520];
    int before;
    memset(junk, 1, sizeof junk - 1);                /* control bytes: 6 bytes each escaped */
    junk[sizeof junk - 1] = '\0';
    CHECK(s2r_deploy_init(&d, &c, "name \"with\" quotes\n", DEPLOY_LOG) == S2R_OK);
    CHECK(s2r_deploy_note(&d, "note", "tab\there, backslash \\ and newline\n") == S2R_OK);
    before = deploy_log_records(DEPLOY_LOG);
    CHECK(before == 2);
    CHECK(s2r_deploy_note(&d, "note", "%s", junk) == S2R_ERR_INVALID_ARGUMENT);   /* too long */
    CHECK(deploy_log_records(DEPLOY_LOG) == before);  /* refused whole, nothing half-written */
    s2r_deploy_free(&d);
    c.append_log = 1;
    CHECK(s2r_deploy_init(&d, &c, "again", DEPLOY_LOG) == S2R_OK);
    CHECK(deploy_log_records(DEPLOY_LOG) == before + 1);
    s2r_deploy_free(&d);
    CHECK(s2r_deploy_init(&d, &c, "x", "/nonexistent-dir/deploy.jsonl") == S2R_ERR_IO);
    remove(DEPLOY_LOG);
    return 0;
}

/* The scripted expert passes the sim regression suite but, on a real unit
   whose camera is 2.6 cm off, fails the tethered stage - and so can never
   reach constrained, canary or autonomous. */
static int test_deploy_tethered_failure_stops(void) {
    s2r_gate_config gc = s2r_gate_config_default();
    s2r_safety_config sc = s2r_safety_config_default();
    s2r_deploy_config dc = s2r_deploy_config_default();
    s2r_task_config tc = s2r_task_config_default(S2R_TASK_REACH);
    s2r_expert_config ec = s2r_expert_config_default();
    deploy_rig r;
    s2r_real_robot unit;
    s2r_safety safety;
    s2r_task task;
    s2r_expert e1, e2;
    s2r_controller policy, fallback;
    s2r_regression_result reg;
    s2r_shadow_stats sh;
    s2r_run_summary sum;
    s2r_gate_result g;
    s2r_deploy d;
    const s2r_regression_case* cases;
    int n = s2r_regression_suite_default(&cases), s;
    CHECK(s2r_deploy_init(&d, &dc, "expert", NULL) == S2R_OK);
    CHECK(deploy_rig_init(&r, S2R_ROBOT_UR5E, &sc) == 0);        /* sim regression */
    policy = s2r_expert_controller(&r.expert);
    CHECK(s2r_regression_run(&policy, &r.task, cases, n, 1, 1, &reg) == S2R_OK);
    g = s2r_gate_sim_regression(&gc, reg.passed, reg.runs);
    CHECK(s2r_deploy_apply(&d, &g) == S2R_OK && d.stage == S2R_STAGE_SYSID);
    deploy_rig_free(&r);
    g = s2r_gate_sysid(&gc, 0.004);                               /* input from system ID */
    CHECK(s2r_deploy_apply(&d, &g) == S2R_OK && d.stage == S2R_STAGE_SHADOW);

    CHECK(s2r_real_robot_init(&unit, S2R_ROBOT_UR5E, 4) == S2R_OK);
    sc.estop_on = S2R_INTERVENTION_BIT(S2R_INTERVENTION_WORKSPACE) | S2R_INTERVENTION_BIT(S2R_INTERVENTION_VELOCITY);
    CHECK(s2r_safety_init(&safety, &sc, s2r_real_robot_backend(&unit)) == S2R_OK);
    CHECK(s2r_task_init(&task, &tc, s2r_safety_backend(&safety)) == S2R_OK);
    CHECK(deploy_expert_init(&e1, &ec, &task.reach) == S2R_OK && deploy_expert_init(&e2, &ec, &task.reach) == S2R_OK);
    policy = s2r_expert_controller(&e1);
    fallback = s2r_expert_controller(&e2);
    CHECK(s2r_shadow_run(&policy, &fallback, &task, &safety, 6, 2, S2R_SHADOW_AGREE_TOL, &sh, &d) == S2R_OK);
    g = s2r_gate_shadow(&gc, &sh);
    CHECK(s2r_deploy_apply(&d, &g) == S2R_OK && d.stage == S2R_STAGE_TETHERED);
    CHECK(s2r_stage_run(&policy, &task, &safety, &gc, S2R_STAGE_TETHERED, 3, 0, &sum, &g) == S2R_OK);
    CHECKF(g.verdict == S2R_VERDICT_FAIL, "%s: %s", s2r_verdict_name(g.verdict), g.reason);
    CHECK(sum.episodes >= 1 && sum.episodes <= gc.tethered_max_episodes);
    CHECK(s2r_deploy_apply(&d, &g) == S2R_OK && d.stage == S2R_STAGE_ROLLED_BACK);
    for (s = S2R_STAGE_TETHERED; s <= S2R_STAGE_AUTONOMOUS; s++) {
        g = deploy_gate((s2r_stage)s, S2R_VERDICT_PASS);
        CHECK(s2r_deploy_apply(&d, &g) == S2R_ERR_STATE);
        CHECK(d.stage == S2R_STAGE_ROLLED_BACK);
    }
    s2r_expert_free(&e1);
    s2r_expert_free(&e2);
    s2r_task_free(&task);
    s2r_safety_free(&safety);
    s2r_real_robot_free(&unit);
    s2r_deploy_free(&d);
    return 0;
}

/* The same stages on push: the pusher passes push's regression suite and a
   controller that does nothing fails it; in shadow mode a twin of the
   acting pusher agrees on every proposal, none unsafe - its servo targets
   predicted through the tip's IK (s2r_task_servo_targets) - and one that
   always pushes full speed along +x disagrees. */
static int test_deploy_push_stages(void) {
    s2r_safety_config sc = s2r_safety_config_default();
    s2r_gate_config gc = s2r_gate_config_default();
    s2r_expert_config ec = s2r_expert_config_default();
    s2r_task_config tc = s2r_task_config_default(S2R_TASK_PUSH);
    deploy_rig r;
    const s2r_regression_case* cases;
    s2r_regression_result res;
    s2r_shadow_stats st;
    s2r_expert twin;
    s2r_controller expert, zero, policy, wild;
    int n = s2r_regression_suite_for(S2R_TASK_PUSH, &cases), state[2] = {2, 0};
    CHECK(n >= 8 && n <= S2R_REGRESSION_MAX_CASES);
    CHECK(deploy_rig_init_task(&r, S2R_ROBOT_UR5E, S2R_TASK_PUSH, &sc) == 0);
    expert = s2r_expert_controller(&r.expert);
    CHECK(s2r_regression_run(&expert, &r.task, cases, n, 1, 7, &res) == S2R_OK);
    CHECKF(s2r_gate_sim_regression(&gc, res.passed, res.runs).verdict == S2R_VERDICT_PASS, "%d of %d", res.passed, res.runs);
    zero = deploy_controller(state, deploy_zero_act);
    CHECK(s2r_regression_run(&zero, &r.task, cases, n, 1, 7, &res) == S2R_OK);
    CHECKF(res.passed == 0, "%d of %d", res.passed, res.runs);
    CHECK(s2r_expert_init(&twin, &ec, &tc, r.sim.backend.info) == S2R_OK);
    policy = s2r_expert_controller(&twin);
    CHECK(s2r_shadow_run(&policy, &expert, &r.task, &r.safety, 2, 9, S2R_SHADOW_AGREE_TOL, &st, NULL) == S2R_OK);
    CHECK(st.proposals == 2 * r.task.episode_steps);
    CHECKF(st.agreements == st.proposals && st.unsafe == 0, "%d agreed, %d unsafe of %d", st.agreements, st.unsafe, st.proposals);
    wild = deploy_controller(state, deploy_push_act);
    CHECK(s2r_shadow_run(&wild, &expert, &r.task, &r.safety, 2, 9, S2R_SHADOW_AGREE_TOL, &st, NULL) == S2R_OK);
    CHECK(st.agreement_rate < 0.5 && st.max_difference > 1.0);
    s2r_expert_free(&twin);
    deploy_rig_free(&r);
    return 0;
}

static const test_case deploy_tests[] = {
    {"deploy: name tables cover every enum value", test_deploy_names},
    {"deploy: sim regression gate passes at 0.85, fails below", test_deploy_gate_sim_regression},
    {"deploy: sysID gate on the held-out error / motion: < 3 % pass, 3-5 % warn, > 5 % and NaN fail", test_deploy_gate_sysid},
    {"deploy: shadow gate: one unsafe proposal fails, agreement inclusive", test_deploy_gate_shadow},
    {"deploy: interval tethered gate: waits to 20, Wilson bounds early, > 0.80 at 50", test_deploy_gate_tethered},
    {"deploy: interval constrained gate: 85/100 passes, 84/100 or a catastrophe fails", test_deploy_gate_constrained},
    {"deploy: sequential gate: SPRT boundaries, the cap, reasons, bad designs", test_deploy_gate_sequential},
    {"deploy: gates' exact operating characteristic matches 20000 simulated runs; alpha and beta hold", test_deploy_gate_oc},
    {"deploy: sequential canary on pairs: boundaries, the cap, and its error rates over 20000 runs", test_deploy_gate_canary_pairs},
    {"deploy: canary gate: Newcombe bound below 0 or a drop beyond the margin fails", test_deploy_gate_canary},
    {"deploy: impossible statistics never pass a gate", test_deploy_gate_garbage},
    {"deploy: safety blocks NaN, Inf, limit, jump and workspace commands (UR5e, Panda)", test_deploy_safety_injected},
    {"deploy: safety invariants hold over 3000 random commands", test_deploy_safety_fuzz},
    {"deploy: safety leaves the expert alone, catches NaN actions", test_deploy_safety_leaves_safe_alone},
    {"deploy: speed and torque holds, escalation to e-stop, halt hook", test_deploy_safety_watch},
    {"deploy: e-stop halts the UR5e and the Panda within 50 ms of simulated time", test_deploy_estop_halts},
    {"deploy: safety rejects bad configs", test_deploy_safety_bad_config},
    {"deploy: regression suite: expert passes, do-nothing fails", test_deploy_regression_suite},
    {"deploy: shadow: twin agrees; NaN proposals unsafe, pushes disagree; fallback unharmed", test_deploy_shadow},
    {"deploy: Bernoulli CUSUM and Page-Hinkley: silent when unchanged, fast after a fall (200 seeds)", test_deploy_drift_bernoulli},
    {"deploy: Gaussian CUSUM and Page-Hinkley: silent when unchanged, fast after a shift (200 seeds)", test_deploy_drift_gaussian},
    {"deploy: drift detector config, NaN samples, latched alarm", test_deploy_drift_config},
    {"deploy: monitor raises each alarm once", test_deploy_monitor},
    {"deploy: stage machine: in order, no skipping, alarms roll back or demote", test_deploy_stage_machine},
    {"deploy: log: complete JSON lines only, escaped, too-long records refused", test_deploy_log_records},
    {"deploy: a policy failing tethered never reaches autonomous", test_deploy_tethered_failure_stops},
    {"deploy: push's regression suite and shadow mode, targets through the tip's IK", test_deploy_push_stages},
};
