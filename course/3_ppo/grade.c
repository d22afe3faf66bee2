/* course/3_ppo/grade.c - the grader of assignment 3 (PPO's advantages and
   clipped objective).

   Unit checks hold s2r_gae and s2r_ppo_clipped_loss to their contracts
   (sim2real.h, "GAE" and the comment above s2r_ppo_clipped_loss).  Each
   sends what the student's functions return to the judge, which compares
   it with what the reference returned on the same inputs; this file
   holds no model of either function (the hand-worked numbers below are
   worked in the comments; the known mistakes are recognised by name).  GAE:
   a 3-step rollout worked by hand (the numbers are in the comments, so
   you can follow them on paper), an episode ending mid-rollout, the
   bootstrap value of ended episodes (end_value, never values[t+1] nor 0),
   several environments in the step-major layout, the special cases
   lambda = 0 (one-step TD error) and lambda = 1 (discounted return minus
   V), returns = advantages + values, and random rollouts against the
   reference.  The clipped loss: values worked by hand for both signs of
   the advantage inside and outside the clip range, its derivative against
   finite differences of its own loss, the tie rule where the two terms
   are equal, and random inputs against the reference.

   The integration checks train PPO on the pendulum with your functions:
   three updates must give the reference's training statistics (up to
   rounding), and a short run on two seeds must swing the pendulum up,
   reaching the reference's return within a stated band.

   On the instructor's run every unit check also draws inputs from the
   grading seed (grade_seed(): rollouts, rewards, gammas and lambdas,
   ratios, advantages and clips), so its answers there are not the public
   expected.txt; on a student's own run they are the fixed ones.

   Run through course/grade.sh (it compiles this file with your ppo.c);
   it prints one line per check and "N passed, N failed". */
#include "grade.h"
#include "sim2real.h"

/* ---- GAE helpers ------------------------------------------------------- */

/* A rollout of T steps of N environments, step-major [T][N], with room
   for two sentinel floats after each output buffer. */
#define MAX_TN 256
typedef struct rollout {
    int           T, N;
    float         rewards[MAX_TN], values[MAX_TN], end_value[MAX_TN], last_value[8];
    unsigned char done[MAX_TN];
    float         adv[MAX_TN + 2], ret[MAX_TN + 2];
} rollout;

#define SENTINEL 12345.0f

/* Run the student's s2r_gae on r with gamma, lambda; the outputs start as
   NaN (so an entry left unwritten shows) followed by two sentinels. */
static void run_gae(rollout* r, float gamma, float lambda) {
    int k, n = r->T * r->N;
    for (k = 0; k < n; k++) r->adv[k] = r->ret[k] = NAN;
    r->adv[n] = r->adv[n + 1] = r->ret[n] = r->ret[n + 1] = SENTINEL;
    s2r_gae(r->T, r->N, r->rewards, r->values, r->done, r->end_value, r->last_value, gamma, lambda, r->adv, r->ret);
}

/* Random rollout: rewards U(-1, 1), values U(-2, 2), episodes ending with
   probability p_end per step, half of them truncated (end_value = a
   value) and half terminated (end_value = 0); where an episode does not
   end, end_value holds 1000 (the contract says it is unused there). */
static void random_rollout(rollout* r, int T, int N, double p_end, s2r_rng* rng) {
    int k, n;
    r->T = T;
    r->N = N;
    for (k = 0; k < T * N; k++) {
        r->rewards[k] = (float)s2r_rng_range(rng, -1, 1);
        r->values[k] = (float)s2r_rng_range(rng, -2, 2);
        r->done[k] = s2r_rng_uniform(rng) < p_end;
        r->end_value[k] = r->done[k] ? (s2r_rng_uniform(rng) < 0.5 ? (float)s2r_rng_range(rng, -2, 2) : 0.0f) : 1000.0f;
    }
    for (n = 0; n < N; n++) r->last_value[n] = (float)s2r_rng_range(rng, -2, 2);
}

/* Send the n = T N advantages and returns of r (and the four sentinels
   after them, which must be untouched) under key, each value labelled. */
static void send_gae(const char* key, const rollout* r, const char* what, double tol) {
    static double v[4 * MAX_TN + 4];
    int k, n = r->T * r->N, m = 0;
    for (k = 0; k < n; k++, m++) {
        v[m] = r->adv[k];
        grade_label(key, 2 * n + 4, m, "%sthe advantage at step t = %d of env %d", what, k / r->N, k % r->N);
    }
    for (k = 0; k < n; k++, m++) {
        v[m] = r->ret[k];
        grade_label(key, 2 * n + 4, m, "%sthe return at step t = %d of env %d", what, k / r->N, k % r->N);
    }
    for (k = 0; k < 2; k++, m += 2) {
        v[m] = r->adv[n + k]; v[m + 1] = r->ret[n + k];
        grade_label(key, 2 * n + 4, m, "advantages[%d], past the T * N = %d entries (must be left alone)", n + k, n);
        grade_label(key, 2 * n + 4, m + 1, "returns[%d], past the T * N = %d entries (must be left alone)", n + k, n);
    }
    grade_answer(key, v, m, tol);
}

/* Compare got with a hand-worked want at step t of env n; reports at most
   4 per call site through *shown.  what names the quantity. */
static void expect_value(const char* what, int t, int n, double got, double want, double tol, int* shown) {
    if (grade_close(got, want, tol)) return;
    if ((*shown)++ < 4) grade_fail("%s at step t = %d of env %d: got %.7g, expected %.7g", what, t, n, got, want);
}

/* On a seeded run: a rollout drawn from the grading seed (T 1 .. 12, N 1
   .. 3, episodes ending with probability p_end, gamma and lambda drawn
   too), against the reference under key. */
static void seeded_gae(const char* key, double p_end) {
    rollout r;
    s2r_rng rng;
    float gamma, lambda;
    char what[160];
    if (!grade_seed()) return;
    rng = s2r_rng_make(grade_seed(), 7);
    memset(&r, 0, sizeof r);
    random_rollout(&r, 1 + s2r_rng_int(&rng, 12), 1 + s2r_rng_int(&rng, 3), p_end, &rng);
    gamma = (float)s2r_rng_range(&rng, 0.5, 1);
    lambda = (float)s2r_rng_range(&rng, 0, 1);
    run_gae(&r, gamma, lambda);
    snprintf(what, sizeof what, "a rollout drawn from the grading seed (T = %d, N = %d, gamma %.4f, lambda %.4f): ", r.T, r.N,
             gamma, lambda);
    send_gae(key, &r, what, 1e-5);
}

/* ---- GAE checks -------------------------------------------------------- */

/* T = 3, N = 1, no episode end, gamma = lambda = 0.5:
     rewards 1, 0, 2; values 0.5, 1, 0.25; last_value 2.
     delta_2 = 2 + 0.5 * 2    - 0.25 =  2.75      A_2 =  2.75
     delta_1 = 0 + 0.5 * 0.25 - 1    = -0.875     A_1 = -0.875 + 0.25 * 2.75    = -0.1875
     delta_0 = 1 + 0.5 * 1    - 0.5  =  1         A_0 =  1     + 0.25 * -0.1875 =  0.953125
   returns = A + V = 1.453125, 0.8125, 3.0.  Then T = 1: A = r + gamma
   last_value - V. */
static void check_gae_by_hand(void) {
    static const double want_adv[3] = {0.953125, -0.1875, 2.75}, want_ret[3] = {1.453125, 0.8125, 3.0};
    rollout r;
    int t, shown = 0;
    memset(&r, 0, sizeof r);
    r.T = 3; r.N = 1;
    r.rewards[0] = 1; r.rewards[1] = 0; r.rewards[2] = 2;
    r.values[0] = 0.5f; r.values[1] = 1; r.values[2] = 0.25f;
    r.last_value[0] = 2;
    run_gae(&r, 0.5f, 0.5f);
    send_gae("gae_by_hand_T3", &r, "", 1e-6);
    for (t = 0; t < 3; t++) {
        expect_value("advantage", t, 0, r.adv[t], want_adv[t], 1e-6, &shown);
        expect_value("return", t, 0, r.ret[t], want_ret[t], 1e-6, &shown);
    }
    if (shown) grade_fail("the rollout: rewards 1, 0, 2; values 0.5, 1, 0.25; last_value 2; no episode end; gamma = lambda = 0.5. "
                          "Work it backwards from t = 2: delta_t = r_t + gamma V_{t+1} - V_t (V_3 = last_value), "
                          "A_t = delta_t + gamma lambda A_{t+1}: A = 0.953125, -0.1875, 2.75");
    r.T = 1;
    r.rewards[0] = 1; r.values[0] = 0.5f; r.last_value[0] = -2;
    run_gae(&r, 0.9f, 0.95f);
    send_gae("gae_by_hand_T1", &r, "T = 1: ", 1e-6);
    GRADE_EXPECT(grade_close(r.adv[0], 1 + 0.9 * -2 - 0.5, 1e-6),
                 "T = 1, r = 1, V = 0.5, last_value = -2, gamma 0.9: advantage %.7g, expected r + gamma last_value - V = %.7g",
                 r.adv[0], 1 + 0.9 * -2 - 0.5);
    seeded_gae("gae_seeded_no_end", 0);
}

/* T = 5, N = 1, gamma = lambda = 0.5; the episode terminates at t = 1
   (end_value 0) and a new one runs from t = 2 to the end: t = 0..1 are
   an episode of their own, t = 2..4 another, bootstrapped by last_value;
   what comes after t = 1 must not change A_0 and A_1. */
static void check_gae_cut(void) {
    rollout r, r2;
    int t;
    memset(&r, 0, sizeof r);
    r.T = 5; r.N = 1;
    for (t = 0; t < 5; t++) { r.rewards[t] = (float)(1 + t); r.values[t] = (float)(0.25 * (t + 1)); r.end_value[t] = 1000; }
    r.last_value[0] = 3;
    r2 = r;
    run_gae(&r2, 0.5f, 0.5f);   /* the same rollout with no episode end */
    r.done[1] = 1; r.end_value[1] = 0;
    run_gae(&r, 0.5f, 0.5f);
    send_gae("gae_cut_T5", &r, "the episode ends at t = 1: ", 1e-6);
    if (r.adv[0] == r2.adv[0] && r.adv[1] == r2.adv[1])
        grade_fail("A_0 and A_1 are the same (%.7g, %.7g) whether or not the episode ends at t = 1 (done[1] = 1): the chain "
                   "A_t = delta_t + gamma lambda A_{t+1} must restart there (A_{t+1} taken as 0 where done[t]), and "
                   "delta_1 bootstraps from end_value[1]", r.adv[0], r.adv[1]);
    /* what comes after the end must not matter to the ended episode */
    r2 = r;
    for (t = 2; t < 5; t++) { r2.rewards[t] += 10; r2.values[t] -= 3; }
    r2.last_value[0] = -7;
    run_gae(&r2, 0.5f, 0.5f);
    GRADE_EXPECT(r2.adv[0] == r.adv[0] && r2.adv[1] == r.adv[1],
                 "the episode ending at t = 1 changed (A_0 %.7g -> %.7g, A_1 %.7g -> %.7g) when only the rewards and "
                 "values after its end changed: cut the chain where done[t] and bootstrap with end_value[t]",
                 r.adv[0], r2.adv[0], r.adv[1], r2.adv[1]);
    seeded_gae("gae_seeded_ends", 0.3);
}

/* Ended episodes bootstrap with end_value: a truncation (end_value =
   V(final obs), here 3), a termination (0), an end at the last step
   (end_value, not last_value); where no episode ends, end_value is
   garbage (1000) and must not be used.  lambda = 0 isolates one delta. */
static void check_gae_bootstrap(void) {
    static const float end_values[2] = {3.0f, 0.0f};
    static const char* kinds[2] = {"truncated (end_value = V(final obs) = 3)", "terminated (end_value = 0)"};
    rollout r;
    char what[160];
    int i, t;
    for (i = 0; i < 2; i++) {
        double got;
        memset(&r, 0, sizeof r);
        r.T = 4; r.N = 1;
        for (t = 0; t < 4; t++) { r.rewards[t] = 1; r.values[t] = 0.5f; r.end_value[t] = 1000; }
        r.values[2] = -5;              /* V(reset obs of the next episode) */
        r.done[1] = 1;
        r.end_value[1] = end_values[i];
        r.last_value[0] = 2;
        run_gae(&r, 0.9f, 0.0f);
        snprintf(what, sizeof what, "episode %s at t = 1 (r = 1, V = 0.5, gamma 0.9, lambda 0): ", kinds[i]);
        send_gae(i == 0 ? "gae_truncated_at_t1" : "gae_terminated_at_t1", &r, what, 1e-6);
        got = r.adv[1];
        /* the two usual mistakes, recognised by the numbers they give */
        if (grade_close(got, 1 + 0.9 * -5 - 0.5, 1e-6) && end_values[i] != -5)
            grade_fail("episode %s at t = 1: the advantage %.7g bootstraps from values[2] = -5, the value of the NEXT "
                       "episode's first observation; use end_value[1]", kinds[i], got);
        else if (grade_close(got, 1 - 0.5, 1e-6) && end_values[i] != 0)
            grade_fail("episode %s at t = 1: the advantage %.7g bootstraps with 0; a time-limit truncation must "
                       "bootstrap with end_value", kinds[i], got);
    }
    /* an episode ending at the last step: end_value, not last_value */
    r.done[1] = 0; r.end_value[1] = 1000;
    r.done[3] = 1; r.end_value[3] = 4;
    r.last_value[0] = -7;
    run_gae(&r, 0.9f, 0.0f);
    send_gae("gae_truncated_at_last_step", &r, "truncated at the last step t = 3 with end_value 4 (last_value -7), no end at "
             "t = 1 (end_value[1] = 1000, unused there): ", 1e-6);
    if (grade_close(r.adv[3], 1 + 0.9 * -7 - 0.5, 1e-6))
        grade_fail("an episode truncated at the last step t = T-1 with end_value 4 (last_value -7): the advantage %.7g "
                   "bootstraps from last_value; last_value is only for episodes still running", r.adv[3]);
    if (grade_close(r.adv[1], 1 + 0.9 * 1000 - 0.5, 1e-6))
        grade_fail("no episode ends at t = 1, yet its advantage %.7g bootstraps from end_value[1] = 1000 (unused where "
                   "done[t] = 0)", r.adv[1]);
    seeded_gae("gae_seeded_many_ends", 0.6);
}

/* N = 3 environments, T = 6, step-major: against the reference, and each
   environment's column against a run of that column alone (N = 1). */
static void check_gae_envs(void) {
    rollout r, one;
    s2r_rng rng = s2r_rng_make(grade_seeded(303), 1);
    double got[18];
    int t, n, shown = 0;
    random_rollout(&r, 6, 3, 0.2, &rng);
    r.done[2 * 3 + 1] = 1;   /* env 1 ends an episode at t = 2 */
    r.end_value[2 * 3 + 1] = 0.75f;
    run_gae(&r, 0.9f, 0.8f);
    for (n = 0; n < 3; n++) {
        memset(&one, 0, sizeof one);
        one.T = 6; one.N = 1;
        for (t = 0; t < 6; t++) {
            int k = t * 3 + n;
            one.rewards[t] = r.rewards[k]; one.values[t] = r.values[k];
            one.done[t] = r.done[k]; one.end_value[t] = r.end_value[k];
        }
        one.last_value[0] = r.last_value[n];
        run_gae(&one, 0.9f, 0.8f);
        for (t = 0; t < 6; t++) expect_value("advantage (N = 3 vs env alone)", t, n, r.adv[t * 3 + n], one.adv[t], 1e-6, &shown);
    }
    if (shown) grade_fail("with N = 3 an env's advantages differ from running that env alone (N = 1): the buffers are "
                          "step-major [T][N], so env n's step t is at [t * N + n], its next step at [(t + 1) * N + n], "
                          "and last_value[n] is env n's");
    for (t = 0; t < 18; t++) {
        got[t] = r.adv[t];
        grade_label("gae_3_envs_6_steps_advantages", 18, t, "N = 3, T = 6: the advantage at step t = %d of env %d (at "
                    "[t * N + n] = [%d])", t / 3, t % 3, t);
    }
    grade_answer("gae_3_envs_6_steps_advantages", got, 18, 1e-5);
}

/* lambda = 0: A_t = delta_t, the one-step TD error.  lambda = 1: A_t is
   the discounted sum of the episode's remaining rewards in the rollout,
   plus the discounted bootstrap at its last step, minus V_t. */
static void check_gae_lambda(void) {
    rollout r;
    s2r_rng rng = s2r_rng_make(grade_seeded(17), 2);
    const double gamma = 0.9;
    random_rollout(&r, 12, 2, 0.15, &rng);
    r.done[4 * 2 + 0] = 1;   /* env 0 ends at t = 4 (truncated) */
    r.end_value[4 * 2 + 0] = 1.5f;
    run_gae(&r, (float)gamma, 0.0f);
    send_gae("gae_lambda_0", &r, "lambda = 0 (should be the TD error r_t + gamma V_next - V_t): ", 1e-5);
    run_gae(&r, (float)gamma, 1.0f);
    send_gae("gae_lambda_1", &r, "lambda = 1 (should be the discounted return minus V_t): ", 1e-5);
}

/* returns[k] = advantages[k] + values[k] for every k, every entry
   written and nothing after the T*N entries. */
static void check_gae_returns(void) {
    rollout r;
    s2r_rng rng = s2r_rng_make(grade_seeded(5), 3);
    int k, bad = 0, n;
    random_rollout(&r, 20, 4, 0.1, &rng);
    run_gae(&r, 0.99f, 0.95f);
    n = r.T * r.N;
    for (k = 0; k < n; k++) {
        if (isnan(r.adv[k]) || isnan(r.ret[k])) {
            if (bad++ < 3) grade_fail("entry %d (t = %d, env %d) of advantages or returns was not written (or is NaN)", k,
                                      k / r.N, k % r.N);
        } else if (!grade_close(r.ret[k], (double)r.adv[k] + r.values[k], 1e-6) && bad++ < 3)
            grade_fail("returns[%d] = %.7g but advantages + values = %.7g + %.7g = %.7g", k, r.ret[k], r.adv[k], r.values[k],
                       (double)r.adv[k] + r.values[k]);
    }
    GRADE_EXPECT(r.adv[n] == SENTINEL && r.adv[n + 1] == SENTINEL && r.ret[n] == SENTINEL && r.ret[n + 1] == SENTINEL,
                 "s2r_gae wrote past the T * N = %d entries of advantages or returns", n);
    send_gae("gae_T20_N4", &r, "", 1e-5);
}

/* Random rollouts (T = 32, N = 4, gamma 0.99, lambda 0.95, episode ends
   truncated and terminated) against the reference, env by env. */
static void check_gae_random(void) {
    rollout r;
    s2r_rng rng = s2r_rng_make(grade_seeded(2024), 4);
    random_rollout(&r, 32, 4, 0.08, &rng);
    run_gae(&r, 0.99f, 0.95f);
    send_gae("gae_random_T32_N4", &r, "a random rollout (T = 32, N = 4, gamma 0.99, lambda 0.95, episodes ending truncated "
             "and terminated): ", 1e-5);
}

/* ---- clipped loss ------------------------------------------------------ */

/* The loss and derivative of each call, in the order made, for the judge. */
static double loss_sent[64];
static int n_loss_sent;
static char loss_what[64][120];

/* One call: kept for the judge (as values 2i, 2i + 1, labelled by what),
   its loss and derivative into *loss, *grad. */
static void loss_call(double logratio, double A, double clip, double* loss, double* grad, const char* what) {
    *grad = NAN;
    *loss = s2r_ppo_clipped_loss(logratio, A, clip, grad);
    if (n_loss_sent < 32) {
        snprintf(loss_what[n_loss_sent], sizeof loss_what[0], "%s", what);
        loss_sent[2 * n_loss_sent] = *loss;
        loss_sent[2 * n_loss_sent + 1] = *grad;
        n_loss_sent++;
    }
}

/* Send the calls kept under key. */
static void loss_send(const char* key) {
    int i;
    for (i = 0; i < n_loss_sent; i++) {
        grade_label(key, 2 * n_loss_sent, 2 * i, "%s: the loss", loss_what[i]);
        grade_label(key, 2 * n_loss_sent, 2 * i + 1, "%s: the derivative", loss_what[i]);
    }
    grade_answer(key, loss_sent, 2 * n_loss_sent, 1e-12);
    n_loss_sent = 0;
}

/* Compare one call with the hand-worked loss and derivative. */
static void expect_loss(double ratio, double A, double clip, double want_loss, double want_grad, const char* why) {
    double grad, loss;
    char what[120];
    snprintf(what, sizeof what, "ratio %g, A = %g, clip %g", ratio, A, clip);
    loss_call(log(ratio), A, clip, &loss, &grad, what);
    if (grade_close(loss, want_loss, 1e-9) && grade_close(grad, want_grad, 1e-9)) return;
    grade_fail("ratio %g, A = %g, clip %g: loss %.9g and derivative %.9g, expected %.9g and %.9g (%s)", ratio, A, clip, loss, grad,
               want_loss, want_grad, why);
}

/* clip 0.2, so the range is [0.8, 1.2]:
     ratio 1.1, A  2: inside, -A r = -2.2 both terms   loss -2.2, d = -2.2
     ratio 1.1, A -1: inside                           loss  1.1, d =  1.1
     ratio 1.5, A  2: -3 vs -A 1.2 = -2.4, max -2.4    loss -2.4, d = 0
     ratio 1.5, A -2:  3 vs  2.4, max 3                loss  3,   d = 3
     ratio 0.5, A  2: -1 vs -1.6, max -1               loss -1,   d = -1
     ratio 0.5, A -2:  1 vs  1.6, max 1.6              loss  1.6, d = 0 */
static void check_loss_by_hand(void) {
    expect_loss(1.1, 2, 0.2, -2.2, -2.2, "inside the range both terms are -A ratio");
    expect_loss(1.1, -1, 0.2, 1.1, 1.1, "inside the range both terms are -A ratio");
    expect_loss(1.5, 2, 0.2, -2.4, 0, "max(-A ratio, -A clamp) = max(-3, -2.4): the clipped term, flat in the ratio");
    expect_loss(1.5, -2, 0.2, 3, 3, "max(3, 2.4): the unclipped term, derivative -A ratio");
    expect_loss(0.5, 2, 0.2, -1, -1, "max(-1, -1.6): the unclipped term, derivative -A ratio");
    expect_loss(0.5, -2, 0.2, 1.6, 0, "max(1, 1.6): the clipped term, flat in the ratio");
    expect_loss(1.7, 0, 0.2, 0, 0, "A = 0: nothing to gain either way");
    expect_loss(1.5, 2, 0.6, -3, -3, "clip 0.6: ratio 1.5 is inside [0.4, 1.6]");
    {
        double grad, loss = s2r_ppo_clipped_loss(log(1.5), 2, 0.2, &grad);
        if (grade_close(loss, -3, 1e-9))
            grade_fail("ratio 1.5, A = 2 gave the loss -3, the smaller of -3 and -2.4: the loss is the MAX of the negated "
                       "terms (the objective is the min of A ratio and A clamp(ratio))");
    }
    if (grade_seed()) {   /* inputs drawn from the grading seed, inside and outside the range */
        s2r_rng rng = s2r_rng_make(grade_seed(), 8);
        int i;
        for (i = 0; i < 8; i++) {
            double x = s2r_rng_range(&rng, -0.7, 0.7), A = s2r_rng_range(&rng, -3, 3), c = s2r_rng_range(&rng, 0.05, 0.5), loss, grad;
            char what[120];
            snprintf(what, sizeof what, "drawn from the grading seed: logratio %.4f, A = %.4f, clip %.3f", x, A, c);
            loss_call(x, A, c, &loss, &grad, what);
        }
    }
    loss_send("clipped_loss_by_hand");
}

/* Central differences of the loss in logratio against the derivative,
   away from the kinks at ratio = 1 - clip and 1 + clip. */
static void check_loss_derivative(void) {
    s2r_rng rng = s2r_rng_make(grade_seeded(99), 5);
    static const double clips[3] = {0.1, 0.2, 0.3};
    const double h = 1e-6;
    static double sent[600];
    int i, bad = 0, flat_inside = 0, m = 0;
    for (i = 0; i < 300; i++) {
        double x = s2r_rng_range(&rng, -0.6, 0.6), A = s2r_rng_range(&rng, -3, 3), c = clips[i % 3];
        double r = exp(x), dp, dm, fd, grad = NAN;
        if (fabs(r - (1 - c)) < 1e-3 || fabs(r - (1 + c)) < 1e-3) continue;
        sent[m] = s2r_ppo_clipped_loss(x, A, c, &grad);
        sent[m + 1] = grad;
        grade_label("clipped_loss_300_samples", 600, m, "logratio %.4f (ratio %.4f), A = %.4f, clip %.1f: the loss", x, r, A, c);
        grade_label("clipped_loss_300_samples", 600, m + 1, "logratio %.4f (ratio %.4f), A = %.4f, clip %.1f: the derivative",
                    x, r, A, c);
        m += 2;
        fd = (s2r_ppo_clipped_loss(x + h, A, c, &dp) - s2r_ppo_clipped_loss(x - h, A, c, &dm)) / (2 * h);
        if (!grade_close(grad, fd, 1e-5) && bad++ < 4)
            grade_fail("logratio %.4f (ratio %.4f), A = %.4f, clip %.1f: derivative %.7g, but the loss changes at the rate "
                       "%.7g%s", x, r, A, c, grad, fd,
                       fd == 0 ? " (the clipped term is the larger: the loss is flat there, the derivative must be 0)" : "");
        if (r > 1 - c && r < 1 + c && fabs(A) > 0.01 && grad == 0) flat_inside++;
    }
    GRADE_EXPECT(flat_inside == 0, "the derivative was 0 at %d samples with the ratio inside [1 - clip, 1 + clip] and A != 0: "
                 "there the loss is -A ratio and its derivative in log pi_new is -A ratio", flat_inside);
    grade_answer("clipped_loss_300_samples", sent, m, 1e-12);
}

/* Where the two terms are equal - ratio 1 (logratio 0), and the ratio
   exactly at 1 - clip or 1 + clip - the contract takes the unclipped
   branch: derivative -A ratio.  clip is chosen so that 1 + clip (or
   1 - clip) equals exp(logratio) exactly in double. */
static void check_loss_tie(void) {
    static const double As[2] = {1.5, -1.5};
    int i;
    for (i = 0; i < 2; i++) {
        double A = As[i], grad = NAN, r, c, loss;
        char what[120];
        snprintf(what, sizeof what, "logratio 0 (ratio 1), A = %g, clip 0.2", A);
        loss_call(0.0, A, 0.2, &loss, &grad, what);
        GRADE_EXPECT(grade_close(loss, -A, 1e-12) && grade_close(grad, -A, 1e-12), "logratio 0 (ratio 1), A = %g: loss %g and derivative %g, expected %g and %g "
                     "(the two terms are equal: the unclipped branch's derivative -A ratio applies)", A, loss, grad, -A, -A);
        r = exp(0.15);
        c = r - 1;   /* 1 + c == r exactly */
        snprintf(what, sizeof what, "ratio exactly 1 + clip (%.6f), A = %g", r, A);
        loss_call(0.15, A, c, &loss, &grad, what);
        GRADE_EXPECT(grade_close(loss, -A * r, 1e-12) && grade_close(grad, -A * r, 1e-12),
                     "ratio exactly 1 + clip (%.6f), A = %g: loss %.9g and derivative %.9g, expected %.9g for both (a tie: "
                     "-A ratio where the unclipped term is larger OR the two are equal)", r, A, loss, grad, -A * r);
        r = exp(-0.15);
        c = 1 - r;   /* 1 - c == r exactly */
        snprintf(what, sizeof what, "ratio exactly 1 - clip (%.6f), A = %g", r, A);
        loss_call(-0.15, A, c, &loss, &grad, what);
        GRADE_EXPECT(grade_close(loss, -A * r, 1e-12) && grade_close(grad, -A * r, 1e-12),
                     "ratio exactly 1 - clip (%.6f), A = %g: loss %.9g and derivative %.9g, expected %.9g for both (a tie: "
                     "-A ratio where the unclipped term is larger OR the two are equal)", r, A, loss, grad, -A * r);
    }
    if (grade_seed()) {   /* ties at a ratio and A drawn from the grading seed */
        s2r_rng rng = s2r_rng_make(grade_seed(), 9);
        for (i = 0; i < 4; i++) {
            double x = s2r_rng_range(&rng, 0.05, 0.4) * (i % 2 ? -1 : 1), A = s2r_rng_range(&rng, -3, 3), r = exp(x), loss, grad;
            double c = i % 2 ? 1 - r : r - 1;   /* the ratio exactly at 1 -+ clip */
            char what[120];
            snprintf(what, sizeof what, "drawn from the grading seed: ratio exactly 1 %c clip (%.6f), A = %.4f", i % 2 ? '-' : '+', r, A);
            loss_call(x, A, c, &loss, &grad, what);
        }
    }
    loss_send("clipped_loss_ties");
}

/* Random inputs, about a third of them outside the clip range, against
   the reference. */
static void check_loss_random(void) {
    s2r_rng rng = s2r_rng_make(grade_seeded(7), 6);
    int i;
    for (i = 0; i < 32; i++) {
        double x = s2r_rng_range(&rng, -0.5, 0.5), A = s2r_rng_normal(&rng), c = s2r_rng_range(&rng, 0.05, 0.4), loss, grad;
        char what[120];
        snprintf(what, sizeof what, "logratio %.4f (ratio %.4f), A = %.4f, clip %.3f", x, exp(x), A, c);
        loss_call(x, A, c, &loss, &grad, what);
    }
    loss_send("clipped_loss_random_32");
}

/* ---- integration: PPO on the pendulum ---------------------------------- */

#define PEND_ENVS 8

/* The pendulum PPO of these checks: 8 envs x 128 steps per rollout (1024),
   8 minibatches of 128, 5 epochs, learning rate 1e-3, CleanRL's defaults
   otherwise; 97 updates for 100k steps.  One thread, so runs repeat bit
   for bit. */
static s2r_result pendulum_ppo(s2r_ppo* ppo, s2r_pendulum* pend, s2r_env* envs, uint64_t seed) {
    s2r_ppo_config c = s2r_ppo_config_default();
    int e;
    c.num_envs = PEND_ENVS;
    c.rollout_steps = 1024;
    c.num_minibatches = 8;
    c.update_epochs = 5;
    c.learning_rate = 1e-3f;
    c.total_steps = 100000;
    c.seed = seed;
    c.num_threads = 1;
    for (e = 0; e < PEND_ENVS; e++) { s2r_pendulum_init(&pend[e]); envs[e] = s2r_pendulum_env(&pend[e]); }
    return s2r_ppo_init(ppo, &c, 3, 1);
}

/* Three updates (the second and third see episode ends): their losses,
   KL, clip fraction, explained variance and the log std they leave, next
   to the reference's.  Rounding differences grow to about 1e-5 relative;
   a mistake changes them by percents. */
static void check_three_updates(void) {
    s2r_ppo ppo;
    s2r_pendulum pend[PEND_ENVS];
    s2r_env envs[PEND_ENVS];
    s2r_ppo_stats st;
    double got[18];
    static const char* names[6] = {"policy_loss", "value_loss", "approx_kl", "clip_fraction", "explained_variance", "log_std"};
    int i, j;
    /* PPO's seed (the network's start, the rollouts) from the grading seed on the instructor's run */
    if (pendulum_ppo(&ppo, pend, envs, grade_seeded(1)) != S2R_OK) { grade_fail("s2r_ppo_init failed: %s", ppo.error); return; }
    for (i = 0; i < 3; i++) {
        if (s2r_ppo_iterate(&ppo, envs, &st) != S2R_OK) { grade_fail("update %d failed: %s", i + 1, ppo.error); s2r_ppo_free(&ppo); return; }
        got[6 * i + 0] = st.policy_loss;
        got[6 * i + 1] = st.value_loss;
        got[6 * i + 2] = st.approx_kl;
        got[6 * i + 3] = st.clip_fraction;
        got[6 * i + 4] = st.explained_variance;
        got[6 * i + 5] = ppo.policy.log_std[0];
        printf("      update %d: policy loss %.6f, value loss %.5f, approx KL %.6f, clip fraction %.4f, explained variance %.4f\n",
               i + 1, st.policy_loss, st.value_loss, st.approx_kl, st.clip_fraction, st.explained_variance);
    }
    s2r_ppo_free(&ppo);
    /* each within 1 % of the reference's (+ 1e-6): the tolerance recorded with the reference's value */
    for (i = 0; i < 3; i++)
        for (j = 0; j < 6; j++) {
            char key[64];
            double g = got[6 * i + j];
            snprintf(key, sizeof key, "pendulum_update%d_%s", i + 1, names[j]);
            grade_label(key, 1, 0, "update %d: the %s (within 1 %% of the reference's)", i + 1, names[j]);
            grade_answer_within(key, &g, 1, 1e-2 * fabs(g) + 1e-6);
        }
}

/* Train on seeds 1 and 2 (100k steps each) and evaluate the deterministic
   policy over 20 episodes.  The reference reaches -171 and -175 (a random
   policy scores about -1200, one that swings up from every start -140 ..
   -180).  A correct implementation that rounds differently takes another
   path, like another seed: over seeds 1-14 of the reference and of an
   independent correct implementation (in double precision), 28 runs, the
   final return ranged from -141 to -346, 24 of them above -180 (the others
   had not yet learned to swing up from every start); the worst two of
   them would average 162 below the reference's mean.  So the mean over
   the two seeds must be at least the reference's mean minus 250.  The
   typical mistakes that matter here learn nothing (bootstrapping
   truncations with 0, env-major indexing, min for max, a derivative that
   ignores the clip or the tie rule: -870 or lower). */
static void check_pendulum(void) {
    double got[2], mean_got;
    int s;
    for (s = 0; s < 2; s++) {
        s2r_ppo ppo;
        s2r_pendulum pend[PEND_ENVS], eval_pend;
        s2r_env envs[PEND_ENVS], eval_env;
        s2r_env_eval ev;
        s2r_rng rng = s2r_rng_make(1234, 0);
        s2r_result res;
        long long steps;
        if (pendulum_ppo(&ppo, pend, envs, (uint64_t)s + 1) != S2R_OK) { grade_fail("s2r_ppo_init failed: %s", ppo.error); return; }
        res = s2r_ppo_train(&ppo, envs, NULL, NULL);
        if (res != S2R_OK) { grade_fail("training on seed %d failed: %s", s + 1, ppo.error); s2r_ppo_free(&ppo); return; }
        s2r_pendulum_init(&eval_pend);
        eval_env = s2r_pendulum_env(&eval_pend);
        res = s2r_policy_evaluate(&ppo.policy, &eval_env, 20, 1, &rng, &ev);
        steps = ppo.global_step;
        s2r_ppo_free(&ppo);
        if (res != S2R_OK) { grade_fail("evaluation on seed %d failed: %s", s + 1, s2r_result_string(res)); return; }
        got[s] = ev.mean_return;
        printf("      seed %d: %lld steps, deterministic mean return %.1f over %d episodes\n", s + 1, steps, ev.mean_return, ev.episodes);
    }
    mean_got = 0.5 * (got[0] + got[1]);
    printf("      mean %.1f; accepted within 250 of the reference's mean (a policy that does not learn: about -1200)\n",
           mean_got);
    grade_label("pendulum_mean_return_seeds_1_2", 1, 0, "the mean return of seeds 1 and 2 (within 250 of the reference's; "
                "a policy that did not learn to swing the pendulum up scores about -1200)");
    grade_answer_within("pendulum_mean_return_seeds_1_2", &mean_got, 1, 250);
}

int main(int argc, char** argv) {
    static const grade_check checks[] = {
        {"GAE: a 3-step rollout worked by hand", 2, 10, GRADE_UNIT, check_gae_by_hand},
        {"GAE: an episode ending mid-rollout cuts the chain", 2, 10, GRADE_UNIT, check_gae_cut},
        {"GAE: an ended episode bootstraps from end_value", 2, 10, GRADE_UNIT, check_gae_bootstrap},
        {"GAE: N environments, step-major [T][N]", 2, 10, GRADE_UNIT, check_gae_envs},
        {"GAE: lambda = 0 (TD error) and lambda = 1 (return - V)", 2, 10, GRADE_UNIT, check_gae_lambda},
        {"GAE: returns = advantages + values, all written", 1, 10, GRADE_UNIT, check_gae_returns},
        {"GAE: random rollouts against the reference", 1, 10, GRADE_UNIT, check_gae_random},
        {"clipped loss: hand-worked values, both signs of A", 2, 10, GRADE_UNIT, check_loss_by_hand},
        {"clipped loss: derivative matches finite differences", 2, 10, GRADE_UNIT, check_loss_derivative},
        {"clipped loss: the tie rule (ratio 1, 1 - clip, 1 + clip)", 1, 10, GRADE_UNIT, check_loss_tie},
        {"clipped loss: random inputs against the reference", 1, 10, GRADE_UNIT, check_loss_random},
        {"integration: 3 PPO updates match the reference's stats", 2, 60, GRADE_INTEGRATION, check_three_updates},
        {"integration: PPO swings the pendulum up (2 seeds)", 4, 240, GRADE_INTEGRATION, check_pendulum},
    };
    return grade_main(argc, argv, "3_ppo (GAE and the clipped objective)", checks, (int)(sizeof checks / sizeof *checks));
}
