/* tests/test_recipe.c - the recipe's steps end to end: PPO learns the
   reach task.  Included by tests/test_main.c. */
#include "test.h"

/* Budget: 200k environment steps of s2r_task_ppo_config (the table's
   budget) on the nominal UR5e, seed 1; then 100 deterministic episodes
   must succeed >= 85 % of the time. */
static int test_ppo_learns_reach(void) {
    s2r_training training = s2r_training_default(S2R_ROBOT_UR5E, S2R_TASK_REACH);
    s2r_ppo_config pc = s2r_task_ppo_config(S2R_TASK_REACH, slow_tests_short() ? 4096 : 200000, 1, 2);
    s2r_ppo ppo;
    s2r_controller policy;
    s2r_sim sim;
    s2r_sim_config sc = s2r_sim_config_default(S2R_ROBOT_UR5E);
    s2r_task task;
    s2r_eval_result r;
    char error[S2R_ERROR_LEN];
    int obs_dim, act_dim;
    s2r_task_dims(S2R_TASK_REACH, S2R_ROBOT_UR5E, &obs_dim, &act_dim);
    CHECK(s2r_ppo_init(&ppo, &pc, obs_dim, act_dim) == S2R_OK);
    training.progress = 0;
    CHECKF(s2r_train(&training, &ppo, error) == S2R_OK, "%s", error);
    CHECK(s2r_sim_init(&sim, &sc) == S2R_OK);
    CHECK(s2r_task_init(&task, &training.task, &sim.backend) == S2R_OK);
    policy = s2r_policy_controller(&ppo.policy);
    CHECK(s2r_evaluate(&policy, &task, slow_tests_short() ? 5 : 100, 777, &r, NULL) == S2R_OK);
    printf("    reach after %lld steps: sim success %.2f, final distance %.1f mm\n", ppo.global_step, r.success_rate, 1000 * r.mean_distance);
    s2r_task_free(&task);
    s2r_sim_free(&sim);
    s2r_ppo_free(&ppo);
    if (slow_tests_short()) return 0;   /* S2R_TEST_SHORT: too few steps to have learned */
    CHECKF(r.success_rate >= 0.85, "success %.2f", r.success_rate);
    return 0;
}

/* The camera calibration, through the backend only, finds the hidden
   offset (read here through the oracle) to within 3 mm. */
static int test_calibrate_camera(void) {
    s2r_real_robot real;
    double offset[3], spread, err = 0;
    char error[S2R_ERROR_LEN];
    int i;
    CHECK(s2r_real_robot_init(&real, S2R_ROBOT_PANDA, 4) == S2R_OK);
    CHECKF(s2r_calibrate_camera(&real.backend, 8, 10, 1, offset, &spread, error) == S2R_OK, "%s", error);
    for (i = 0; i < 3; i++) err += pow(offset[i] - s2r_real_robot_oracle(&real)->draw.target_offset[i], 2);
    CHECKF(sqrt(err) < 0.003, "calibration off by %.1f mm", 1000 * sqrt(err));
    CHECK(spread >= 0 && spread < 0.01);
    CHECK(s2r_calibrate_camera(&real.backend, 0, 10, 1, offset, NULL, error) == S2R_ERR_INVALID_ARGUMENT);
    s2r_real_robot_free(&real);
    return 0;
}

/* Demonstrations recorded by 1 or 2 copies of a unit are the same data;
   the operator mostly succeeds, and each action is paired with the
   observation it reacted to (reaction_steps fewer pairs per episode). */
static int test_unit_demos_thread_independent(void) {
    s2r_task_config task = s2r_task_config_default(S2R_TASK_REACH);
    s2r_expert_config op = s2r_operator_config_default();
    s2r_dataset a, b;
    char error[S2R_ERROR_LEN];
    int ok_a, ok_b;
    CHECK(s2r_dataset_init(&a, 33, 6) == S2R_OK && s2r_dataset_init(&b, 33, 6) == S2R_OK);
    CHECKF(s2r_collect_unit_demos(S2R_ROBOT_UR5E, 2, &task, &op, 6, 9, 1, &a, &ok_a, error) == S2R_OK, "%s", error);
    CHECKF(s2r_collect_unit_demos(S2R_ROBOT_UR5E, 2, &task, &op, 6, 9, 2, &b, &ok_b, error) == S2R_OK, "%s", error);
    CHECK(a.count == 6 * (task.reach.episode_steps - op.reaction_steps) && a.count == b.count && ok_a == ok_b);
    CHECK(memcmp(a.obs, b.obs, (size_t)a.count * 33 * sizeof(float)) == 0);
    CHECK(memcmp(a.act, b.act, (size_t)a.count * 6 * sizeof(float)) == 0);
    CHECK(ok_a >= 4);
    {   /* each demonstration an episode with its outcome, the same ones for any thread count */
        int e, ok = 0;
        CHECK(a.episodes == 6 && b.episodes == 6 && !memcmp(a.episode_end, b.episode_end, 6 * sizeof(int)) &&
              !memcmp(a.episode_success, b.episode_success, 6));
        for (e = 0; e < 6; e++) {
            ok += a.episode_success[e];
            CHECK(a.episode_end[e] == (e + 1) * (task.reach.episode_steps - op.reaction_steps));
        }
        CHECK(ok == ok_a);
    }
    s2r_dataset_free(&a);
    s2r_dataset_free(&b);
    return 0;
}

/* A small reach policy for the UR5e (33 observations, 6 actions, two
   hidden layers of 16), its weights drawn from rng. */
static s2r_result reach_policy(s2r_policy* p, s2r_rng* rng) {
    s2r_policy_shape shape;
    memset(&shape, 0, sizeof shape);
    shape.obs_dim = 33; shape.act_dim = 6; shape.num_hidden = 2; shape.hidden[0] = shape.hidden[1] = 16;
    return s2r_policy_init(p, &shape, -0.5f, 10.0f, rng);
}

/* A saved policy comes back with s2r_policy_from_checkpoint and acts the
   same; a missing file is an error that names it. */
static int test_policy_from_checkpoint(void) {
    s2r_policy p, q;
    s2r_rng rng = s2r_rng_make(4, 0);
    float obs[33], a1[6], a2[6];
    char error[S2R_ERROR_LEN];
    int i;
    CHECK(reach_policy(&p, &rng) == S2R_OK);
    CHECK(s2r_policy_save(&p, NULL, "build/test_from_checkpoint.ckpt") == S2R_OK);
    CHECKF(s2r_policy_from_checkpoint(&q, "build/test_from_checkpoint.ckpt", error) == S2R_OK, "%s", error);
    for (i = 0; i < 33; i++) obs[i] = (float)s2r_rng_range(&rng, -1, 1);
    CHECK(s2r_policy_act(&p, obs, a1, 1, NULL) == S2R_OK && s2r_policy_act(&q, obs, a2, 1, NULL) == S2R_OK);
    CHECK(memcmp(a1, a2, sizeof a1) == 0);
    CHECK(s2r_policy_from_checkpoint(&q, "build/no_such.ckpt", error) != S2R_OK);
    remove("build/test_from_checkpoint.ckpt");
    s2r_policy_free(&p);
    s2r_policy_free(&q);
    return 0;
}

/* Fine-tuning on a unit keeps the candidate its canary's sequential rule
   kept: the policy ends as that candidate, made again here by hand with
   s2r_bc; the canary ran at most its episodes, every controller the first.
   The rule itself: a fine-tune that loses 4 disagreements in a row is out,
   3 is not enough; one that wins 8 in a row is kept, 7 is not enough; one
   identical to the policy never disagrees with it, runs to the cap and is
   not kept.  No canary episodes is an error that leaves the policy as it
   was. */
static int test_finetune_on_unit(void) {
    s2r_policy p, q;
    s2r_real_robot real;
    s2r_task_config task = s2r_task_config_default(S2R_TASK_REACH);
    s2r_expert_config op = s2r_operator_config_default();
    s2r_dataset d;
    s2r_bc bc;
    s2r_bc_config c = s2r_bc_config_finetune();
    s2r_rng rng = s2r_rng_make(5, 0), same = s2r_rng_make(5, 0);
    double rate[3] = {-1, -1, -1};
    char error[S2R_ERROR_LEN];
    int ok, kept = -1, e, run = -1;
    s2r_sprt_config rule = s2r_canary_keep_sprt(50);
    size_t bytes;
    CHECK(reach_policy(&p, &rng) == S2R_OK);
    CHECK(reach_policy(&q, &same) == S2R_OK);
    bytes = sizeof(float) * (size_t)p.num_actor_params;
    CHECK(s2r_dataset_init(&d, 33, 6) == S2R_OK);
    CHECKF(s2r_collect_unit_demos(S2R_ROBOT_UR5E, 2, &task, &op, 4, 9, 1, &d, &ok, error) == S2R_OK, "%s", error);
    CHECK(s2r_real_robot_init(&real, S2R_ROBOT_UR5E, 2) == S2R_OK);
    CHECK(s2r_finetune_on_unit(&p, &d, 2, 3, &real.backend, &task, 0, 11, rate, &kept, &run, error) ==
          S2R_ERR_INVALID_ARGUMENT);
    CHECK(memcmp(p.params, q.params, bytes) == 0);
    CHECKF(s2r_finetune_on_unit(&p, &d, 2, 3, &real.backend, &task, 3, 11, rate, &kept, &run, error) == S2R_OK, "%s",
           error);
    printf("    canary: %.2f following the operator, %.2f keeping its own actions, %.2f as it was; kept %d after %d "
           "unit episodes\n", rate[0], rate[1], rate[2], kept, run);
    CHECK(rate[0] >= 0 && rate[0] <= 1 && rate[1] >= 0 && rate[1] <= 1 && rate[2] >= 0 && rate[2] <= 1);
    CHECK(run >= 3 && run <= 9);
    CHECK(s2r_sprt_check(&rule, error) == S2R_OK);
    CHECK(s2r_sprt_decide(&rule, 0, 3, NULL) == S2R_VERDICT_CONTINUE && s2r_sprt_decide(&rule, 0, 4, NULL) == S2R_VERDICT_FAIL);
    CHECK(s2r_sprt_decide(&rule, 7, 7, NULL) == S2R_VERDICT_CONTINUE && s2r_sprt_decide(&rule, 8, 8, NULL) == S2R_VERDICT_PASS);
    {   /* a fine-tune identical to the policy: no disagreement, the cap, not kept */
        s2r_task unit;
        s2r__canary canary;
        float* same_params[2];
        same_params[0] = same_params[1] = q.params;
        CHECK(s2r_task_init(&unit, &task, &real.backend) == S2R_OK);
        CHECKF(s2r__canary_run(&q, same_params, NULL, 1, &unit, 6, 11, &canary, error) == S2R_OK, "%s", error);
        CHECK(canary.kept == 0 && canary.run == 12 && canary.episodes[0] == 6 && canary.episodes[1] == 6 &&
              canary.successes[0] == canary.successes[1]);
        s2r_task_free(&unit);
    }
    if (kept != S2R_KEPT_UNCHANGED) {   /* the kept fine-tune, made again */
        c.seed = 3;
        c.start_weight = kept == S2R_KEPT_OWN_ACTIONS ? 1.0f : 0.0f;
        CHECK(s2r_bc_init(&bc, &c, &q) == S2R_OK);
        for (e = 0; e < 2; e++) CHECK(s2r_bc_epoch(&bc, &d, NULL) == S2R_OK);
        s2r_bc_free(&bc);
    }
    CHECK(memcmp(p.params, q.params, bytes) == 0);
    s2r_real_robot_free(&real);
    s2r_dataset_free(&d);
    s2r_policy_free(&p);
    s2r_policy_free(&q);
    return 0;
}

/* A robustness sweep moves only the swept parameter: kp at 1x is the
   nominal simulator (the same episodes s2r_evaluate runs there), a value's
   result does not depend on the others in the sweep, a soft servo changes
   where the arm ends, and values the simulator refuses are errors that
   name the parameter. */
static int test_robustness_sweep(void) {
    s2r_policy p;
    s2r_rng rng = s2r_rng_make(8, 0);
    s2r_task_config task = s2r_task_config_default(S2R_TASK_REACH);
    s2r_controller c;
    s2r_sim sim;
    s2r_sim_config sc = s2r_sim_config_default(S2R_ROBOT_UR5E);
    s2r_task reach;
    s2r_eval_result nominal, one[1], two[2];
    const double unit[1] = {1.0}, soft_first[2] = {0.3, 1.0}, nan_kp[1] = {NAN}, long_delay[1] = {0.5};
    char error[S2R_ERROR_LEN];
    CHECK(reach_policy(&p, &rng) == S2R_OK);
    c = s2r_policy_controller(&p);
    CHECK(s2r_sim_init(&sim, &sc) == S2R_OK);
    CHECK(s2r_task_init(&reach, &task, &sim.backend) == S2R_OK);
    CHECK(s2r_evaluate(&c, &reach, 3, 21, &nominal, NULL) == S2R_OK);
    CHECKF(s2r_robustness_sweep(&c, S2R_ROBOT_UR5E, &task, S2R_PARAM_KP, unit, 1, 3, 21, one, error) == S2R_OK, "%s", error);
    CHECK(one[0].episodes == 3 && one[0].successes == nominal.successes);
    CHECKF(one[0].mean_distance == nominal.mean_distance, "%.6f vs %.6f m", one[0].mean_distance, nominal.mean_distance);
    CHECKF(s2r_robustness_sweep(&c, S2R_ROBOT_UR5E, &task, S2R_PARAM_KP, soft_first, 2, 3, 21, two, error) == S2R_OK, "%s", error);
    CHECK(two[1].mean_distance == one[0].mean_distance);
    CHECKF(fabs(two[0].mean_distance - one[0].mean_distance) > 1e-4, "kp 0.3: %.6f m, kp 1: %.6f m",
           two[0].mean_distance, one[0].mean_distance);
    CHECK(s2r_robustness_sweep(&c, S2R_ROBOT_UR5E, &task, S2R_PARAM_KP, unit, 0, 3, 21, one, error) == S2R_ERR_INVALID_ARGUMENT);
    CHECK(s2r_robustness_sweep(&c, S2R_ROBOT_UR5E, &task, S2R_PARAM_KP, NULL, 1, 3, 21, one, error) == S2R_ERR_INVALID_ARGUMENT);
    CHECK(s2r_robustness_sweep(&c, S2R_ROBOT_UR5E, &task, S2R_PARAM_KP, nan_kp, 1, 3, 21, one, error) != S2R_OK);
    CHECKF(strstr(error, "kp") != NULL, "%s", error);
    CHECK(s2r_robustness_sweep(&c, S2R_ROBOT_UR5E, &task, S2R_PARAM_ACTION_LATENCY, long_delay, 1, 3, 21, one, error) != S2R_OK);
    CHECKF(strstr(error, "action_latency") != NULL, "%s", error);
    s2r_task_free(&reach);
    s2r_sim_free(&sim);
    s2r_policy_free(&p);
    return 0;
}

/* Predicting transfer: NOMINAL is s2r_evaluate on the nominal simulator,
   episode for episode; DEPLOYED with the offset a unit's camera truly has
   is that unit with only its calibration offset on (the sign of the
   camera's residual is right), and with the policy calibrated it is
   IDENTIFIED - copied when both run, the same when DEPLOYED runs alone.
   Asking for a predictor without its evidence is an error naming it. */
static int test_predict_transfer(void) {
    s2r_policy p;
    s2r_rng rng = s2r_rng_make(8, 0);
    s2r_task_config task = s2r_task_config_default(S2R_TASK_REACH), calibrated = task;
    s2r_randomization exact = s2r_randomization_none(), dr = s2r_randomization_default();
    s2r_transfer_evidence ev = {0};
    s2r_controller c;
    s2r_sim sim;
    s2r_sim_config sc = s2r_task_sim_config(S2R_TASK_REACH, S2R_ROBOT_UR5E);
    s2r_real_robot unit;
    s2r_task t;
    s2r_eval_result nominal, on_unit, out[S2R_PREDICTOR_COUNT], alone[S2R_PREDICTOR_COUNT];
    double offset[3];
    char error[S2R_ERROR_LEN];
    CHECK(reach_policy(&p, &rng) == S2R_OK);
    c = s2r_policy_controller(&p);
    CHECK(s2r_sim_init(&sim, &sc) == S2R_OK);
    CHECK(s2r_task_init(&t, &task, &sim.backend) == S2R_OK);
    CHECK(s2r_evaluate(&c, &t, 4, 31, &nominal, NULL) == S2R_OK);
    s2r_task_free(&t);
    s2r_sim_free(&sim);
    CHECK(s2r_real_robot_init_ablated(&unit, S2R_ROBOT_UR5E, S2R_SCENE_ARM, 4,
                                      S2R_EFFECTS_ALL & ~(1u << S2R_EFFECT_CALIBRATION)) == S2R_OK);
    memcpy(offset, s2r_real_robot_oracle(&unit)->draw.target_offset, sizeof offset);   /* a perfect calibration */
    CHECK(s2r_task_init(&t, &task, &unit.backend) == S2R_OK);
    CHECK(s2r_evaluate(&c, &t, 4, 31, &on_unit, NULL) == S2R_OK);
    s2r_task_free(&t);
    s2r_real_robot_free(&unit);
    ev.randomized = &dr;
    ev.identified = &exact;
    ev.camera_offset = offset;
    CHECKF(s2r_predict_transfer(&c, S2R_ROBOT_UR5E, &task, &ev, 4, 31, out, error) == S2R_OK, "%s", error);
    CHECK(out[S2R_PREDICT_NOMINAL].successes == nominal.successes && out[S2R_PREDICT_NOMINAL].mean_distance == nominal.mean_distance);
    CHECK(out[S2R_PREDICT_IDENTIFIED].mean_distance == nominal.mean_distance);
    CHECK(out[S2R_PREDICT_DR].episodes == 4 && out[S2R_PREDICT_DR].mean_distance != nominal.mean_distance);
    CHECKF(fabs(out[S2R_PREDICT_DEPLOYED].mean_distance - on_unit.mean_distance) < 1e-9, "deployed %.9f m, the unit %.9f m",
           out[S2R_PREDICT_DEPLOYED].mean_distance, on_unit.mean_distance);
    CHECK(out[S2R_PREDICT_DEPLOYED].mean_distance != nominal.mean_distance);
    s2r_task_config_set_camera(&calibrated, offset);
    CHECKF(s2r_predict_transfer(&c, S2R_ROBOT_UR5E, &calibrated, &ev, 4, 31, out, error) == S2R_OK, "%s", error);
    CHECK(out[S2R_PREDICT_DEPLOYED].mean_distance == out[S2R_PREDICT_IDENTIFIED].mean_distance);
    ev.predictors = 1u << S2R_PREDICT_DEPLOYED;
    CHECKF(s2r_predict_transfer(&c, S2R_ROBOT_UR5E, &calibrated, &ev, 4, 31, alone, error) == S2R_OK, "%s", error);
    CHECK(alone[S2R_PREDICT_NOMINAL].episodes == 0 && alone[S2R_PREDICT_IDENTIFIED].episodes == 0);
    CHECK(alone[S2R_PREDICT_DEPLOYED].mean_distance == out[S2R_PREDICT_IDENTIFIED].mean_distance);
    ev.camera_offset = NULL;
    CHECK(s2r_predict_transfer(&c, S2R_ROBOT_UR5E, &task, &ev, 4, 31, out, error) == S2R_ERR_INVALID_ARGUMENT);
    CHECKF(strstr(error, "deployed") != NULL, "%s", error);
    ev.predictors = 1u << S2R_PREDICTOR_COUNT;
    CHECK(s2r_predict_transfer(&c, S2R_ROBOT_UR5E, &task, &ev, 4, 31, out, error) == S2R_ERR_INVALID_ARGUMENT);
    CHECK(s2r_predict_transfer(&c, S2R_ROBOT_UR5E, &task, NULL, 4, 31, out, error) == S2R_ERR_INVALID_ARGUMENT);
    CHECK(strcmp(s2r_predictor_name(S2R_PREDICT_DEPLOYED), "deployed") == 0 &&
          strcmp(s2r_predictor_name(S2R_PREDICTOR_COUNT), "unknown") == 0);
    s2r_policy_free(&p);
    return 0;
}

/* Gap attribution's baseline is exact: with every effect off the unit runs
   the nominal simulator's episodes (s2r_evaluate there, episode for
   episode); runs are deterministic; push effects are empty on reach; a
   calibrated policy loses its correction wherever the offset is off (its
   nominal condition is the uncalibrated one's, bit for bit). */
static int test_attribution_baseline(void) {
    s2r_policy p;
    s2r_rng rng = s2r_rng_make(9, 0);
    s2r_task_config task = s2r_task_config_default(S2R_TASK_REACH), calibrated = task;
    s2r_controller c;
    s2r_sim sim;
    s2r_sim_config sc = s2r_task_sim_config(S2R_TASK_REACH, S2R_ROBOT_UR5E);
    s2r_task t;
    s2r_eval_result nominal;
    static s2r_gap_attribution a, b, cal;
    const double correction[3] = {0.02, -0.01, 0.005};
    char error[S2R_ERROR_LEN];
    int e;
    CHECK(reach_policy(&p, &rng) == S2R_OK);
    c = s2r_policy_controller(&p);
    CHECK(s2r_sim_init(&sim, &sc) == S2R_OK);
    CHECK(s2r_task_init(&t, &task, &sim.backend) == S2R_OK);
    CHECK(s2r_evaluate(&c, &t, 3, 41, &nominal, NULL) == S2R_OK);
    s2r_task_free(&t);
    s2r_sim_free(&sim);
    CHECKF(s2r_attribute_gap(&c, S2R_ROBOT_UR5E, &task, 4, 3, 41, &a, error) == S2R_OK, "%s", error);
    CHECKF(fabs(a.nominal.mean_distance - nominal.mean_distance) < 1e-9, "every effect off %.9f m, nominal sim %.9f m",
           a.nominal.mean_distance, nominal.mean_distance);
    CHECK(a.nominal.successes == nominal.successes && a.unit.mean_distance != a.nominal.mean_distance);
    CHECKF(s2r_attribute_gap(&c, S2R_ROBOT_UR5E, &task, 4, 3, 41, &b, error) == S2R_OK, "%s", error);
    CHECK(b.unit.mean_distance == a.unit.mean_distance && b.nominal.mean_distance == a.nominal.mean_distance);
    for (e = 0; e < S2R_EFFECT_COUNT; e++) {
        int in_scene = s2r_effect_in_scene((s2r_effect)e, S2R_SCENE_ARM);
        CHECKF(a.without[e].episodes == (in_scene ? 3 : 0) && a.only[e].episodes == (in_scene ? 3 : 0), "%s",
               s2r_effect_name((s2r_effect)e));
        CHECK(b.without[e].mean_distance == a.without[e].mean_distance && b.only[e].mean_distance == a.only[e].mean_distance);
    }
    s2r_task_config_set_camera(&calibrated, correction);
    CHECKF(s2r_attribute_gap(&c, S2R_ROBOT_UR5E, &calibrated, 4, 3, 41, &cal, error) == S2R_OK, "%s", error);
    CHECK(cal.nominal.mean_distance == a.nominal.mean_distance);
    CHECK(cal.without[S2R_EFFECT_CALIBRATION].mean_distance == a.without[S2R_EFFECT_CALIBRATION].mean_distance);
    CHECK(cal.unit.mean_distance != a.unit.mean_distance);   /* where the offset is on, the correction applies */
    s2r_policy_free(&p);
    return 0;
}

/* Pooling two evaluations adds their counts and puts Newcombe's interval
   on the gap of the pooled rates: sim 199/200 against real 115/200 is a
   gap of 0.42 in [0.3497, 0.4894] (worked by hand from the two Wilson
   intervals).  An empty evaluation pooled in changes nothing. */
static int test_gap_interval(void) {
    s2r_sim_real_eval pooled, a, b, none;
    memset(&pooled, 0, sizeof pooled);
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    memset(&none, 0, sizeof none);
    a.sim.episodes = 100; a.sim.successes = 100; a.real.episodes = 100; a.real.successes = 60;
    b.sim.episodes = 100; b.sim.successes = 99;  b.real.episodes = 100; b.real.successes = 55;
    s2r_sim_real_eval_pool(&pooled, &a);
    s2r_sim_real_eval_pool(&pooled, &b);
    CHECK(pooled.sim.episodes == 200 && pooled.sim.successes == 199);
    CHECK(pooled.real.episodes == 200 && pooled.real.successes == 115);
    CHECKF(fabs(pooled.gap - 0.42) < 1e-12, "gap %.6f", pooled.gap);
    CHECKF(fabs(pooled.gap_lo - 0.349741) < 1e-6 && fabs(pooled.gap_hi - 0.489414) < 1e-6, "[%.6f, %.6f]",
           pooled.gap_lo, pooled.gap_hi);
    s2r_sim_real_eval_pool(&pooled, &none);
    CHECK(pooled.sim.episodes == 200 && pooled.real.successes == 115 && fabs(pooled.gap_lo - 0.349741) < 1e-6);
    return 0;
}

/* A policy with memory end to end: trained with a frame history of 2
   (the PPO sized for the stacked observation, the policy records it),
   evaluated through s2r_policy_controller (evaluation stacks the history
   itself) it gives exactly what the deployment wrapper gives when it
   stacks the history instead; a PPO sized for the raw observation is
   refused. */
static int test_history_policy(void) {
    s2r_training training = s2r_training_default(S2R_ROBOT_UR5E, S2R_TASK_REACH);
    s2r_ppo_config pc = s2r_task_ppo_config(S2R_TASK_REACH, 4000, 3, 1);
    s2r_ppo ppo, raw;
    s2r_controller policy, wrapped;
    s2r_history_controller memory;
    s2r_sim sim;
    s2r_sim_config sc = s2r_sim_config_default(S2R_ROBOT_UR5E);
    s2r_task task;
    s2r_eval_result a, b;
    char error[S2R_ERROR_LEN];
    int obs_dim, act_dim;
    s2r_task_dims(S2R_TASK_REACH, S2R_ROBOT_UR5E, &obs_dim, &act_dim);
    training.progress = 0;
    training.history = 2;
    CHECK(s2r_ppo_init(&raw, &pc, obs_dim, act_dim) == S2R_OK);
    CHECK(s2r_train(&training, &raw, error) == S2R_ERR_INVALID_ARGUMENT && strstr(error, "history 2"));
    s2r_ppo_free(&raw);
    CHECK(s2r_ppo_init(&ppo, &pc, s2r_history_obs_dim(obs_dim, act_dim, 2), act_dim) == S2R_OK);
    CHECKF(s2r_train(&training, &ppo, error) == S2R_OK, "%s", error);
    CHECK(ppo.policy.history == 2);
    CHECK(s2r_sim_init(&sim, &sc) == S2R_OK);
    CHECK(s2r_task_init(&task, &training.task, &sim.backend) == S2R_OK);
    policy = s2r_policy_controller(&ppo.policy);
    CHECK(policy.history == 2);
    CHECKF(s2r_evaluate(&policy, &task, 4, 5, &a, NULL) == S2R_OK, "%s", task.error);
    policy.history = 0;   /* the deployment wrapper stacks instead */
    CHECK(s2r_history_controller_init(&memory, &policy, obs_dim, act_dim, 2) == S2R_OK);
    wrapped = s2r_history_controller_get(&memory);
    CHECKF(s2r_evaluate(&wrapped, &task, 4, 5, &b, NULL) == S2R_OK, "%s", task.error);
    CHECK(a.successes == b.successes && a.mean_distance == b.mean_distance && a.mean_return == b.mean_return);
    CHECK(s2r_evaluate(&policy, &task, 1, 5, &b, NULL) == S2R_ERR_INVALID_ARGUMENT);   /* stacked size, no history */
    s2r_history_controller_free(&memory);
    s2r_task_free(&task);
    s2r_sim_free(&sim);
    s2r_ppo_free(&ppo);
    return 0;
}

/* A privileged critic through s2r_train, on push with DR and a frame
   history (the channel passes the history wrapper): a ppo made without
   privileged_dim is refused, naming it; one made with it trains, its
   checkpoint records the critic's extra inputs and the ranges' digest, and
   the deployed policy (the actor) is evaluated with observations only. */
static int test_privileged_critic_trains(void) {
    s2r_training training = s2r_training_default(S2R_ROBOT_UR5E, S2R_TASK_PUSH);
    s2r_ppo_config pc = s2r_task_ppo_config(S2R_TASK_PUSH, 4000, 3, 1);
    s2r_ppo ppo;
    s2r_policy back;
    s2r_controller policy;
    s2r_sim sim;
    s2r_sim_config sc = s2r_task_sim_config(S2R_TASK_PUSH, S2R_ROBOT_UR5E);
    s2r_task task;
    s2r_eval_result r;
    char error[S2R_ERROR_LEN];
    const char* path = "build/test_privileged.ckpt";
    int obs_dim, act_dim;
    s2r_task_dims(S2R_TASK_PUSH, S2R_ROBOT_UR5E, &obs_dim, &act_dim);
    obs_dim = s2r_history_obs_dim(obs_dim, act_dim, 2);
    training.progress = 0;
    training.history = 2;
    training.privileged_critic = 1;
    training.randomization = s2r_randomization_push();
    CHECK(s2r_ppo_init(&ppo, &pc, obs_dim, act_dim) == S2R_OK);
    CHECK(s2r_train(&training, &ppo, error) == S2R_ERR_INVALID_ARGUMENT && strstr(error, "privileged_dim"));
    s2r_ppo_free(&ppo);
    pc.privileged_dim = S2R_PRIVILEGED_DIM;
    CHECK(s2r_ppo_init(&ppo, &pc, obs_dim, act_dim) == S2R_OK);
    CHECKF(s2r_train(&training, &ppo, error) == S2R_OK, "%s", error);
    CHECK(s2r_policy_save(&ppo.policy, NULL, path) == S2R_OK);
    CHECKF(s2r_policy_from_checkpoint(&back, path, error) == S2R_OK, "%s", error);
    CHECK(back.shape.privileged == S2R_PRIVILEGED_DIM && back.history == 2);
    CHECK(back.randomization == s2r_randomization_digest(&training.randomization) && back.randomization != 0);
    CHECK(s2r_sim_init(&sim, &sc) == S2R_OK && s2r_task_init(&task, &training.task, &sim.backend) == S2R_OK);
    policy = s2r_policy_controller(&back);
    CHECKF(s2r_evaluate(&policy, &task, 2, 5, &r, NULL) == S2R_OK, "%s", task.error);
    s2r_task_free(&task);
    s2r_sim_free(&sim);
    s2r_policy_free(&back);
    s2r_ppo_free(&ppo);
    remove(path);
    return 0;
}

/* Automatic DR: ranges start at the centre of the training ranges, limits
   hold them, bad settings are refused; an edge with `buffer` episodes is
   judged - mostly successes widen that side by a step, mostly failures
   narrow it (never past the centre), anything between leaves it. */
static int test_adr_judges_edges(void) {
    s2r_randomization dr = s2r_randomization_default();
    s2r_adr_config c = s2r_adr_config_default();
    s2r_adr adr;
    s2r__adr_env envs[2];
    s2r__adr_env* both[2] = {&envs[0], &envs[1]};
    double lo, hi, step;
    int i, k = -1;
    CHECKF(s2r_adr_init(&adr, &c, &dr) == S2R_OK, "%s", adr.error);
    CHECK(adr.n_params > 0 && adr.n_changes == adr.n_params);
    for (i = 0; i < adr.n_params; i++) {
        s2r_param p = adr.param[i];
        s2r_dist_support(&dr.p[p].dist, &lo, &hi);
        CHECK(adr.current.p[p].dist.lo == 0.5 * (lo + hi) && adr.current.p[p].dist.hi == 0.5 * (lo + hi));
        CHECK(adr.limits.p[p].dist.lo <= lo && adr.limits.p[p].dist.hi >= hi && adr.limits.p[p].dist.lo >= 0);
        if (p == S2R_PARAM_KP) k = i;
    }
    CHECK(k >= 0);
    memset(envs, 0, sizeof envs);
    envs[0].tried[S2R_PARAM_KP][1] = 10; envs[0].succeeded[S2R_PARAM_KP][1] = 9;   /* 15 of 16: widen the top */
    envs[1].tried[S2R_PARAM_KP][1] = 6;  envs[1].succeeded[S2R_PARAM_KP][1] = 6;
    envs[1].tried[S2R_PARAM_KP][0] = 16; envs[1].succeeded[S2R_PARAM_KP][0] = 2;   /* 2 of 16 at the bottom: narrow */
    envs[0].tried[S2R_PARAM_KV][1] = 16; envs[0].succeeded[S2R_PARAM_KV][1] = 10;  /* 62 %: between, no move */
    CHECK(s2r__adr_judge(&adr, both, 2) == S2R_OK);
    s2r_dist_support(&dr.p[S2R_PARAM_KP].dist, &lo, &hi);
    step = c.step_fraction * (hi - lo);
    CHECKF(fabs(adr.current.p[S2R_PARAM_KP].dist.hi - (1.0 + step)) < 1e-12, "kp hi %g", adr.current.p[S2R_PARAM_KP].dist.hi);
    CHECK(adr.current.p[S2R_PARAM_KP].dist.lo == 1.0);                     /* already at the centre */
    CHECK(adr.current.p[S2R_PARAM_KV].dist.hi == 1.0);
    CHECK(adr.n_changes == adr.n_params + 1 && adr.changes[adr.n_changes - 1].update == 1);
    CHECK(envs[0].tried[S2R_PARAM_KP][1] == 0 && adr.tried[S2R_PARAM_KP][1] == 0 && adr.tried[S2R_PARAM_KV][1] == 0);
    for (i = 0; i < 40; i++) {   /* keep widening: it stops at the limit */
        envs[0].tried[S2R_PARAM_KP][1] = envs[0].succeeded[S2R_PARAM_KP][1] = 16;
        CHECK(s2r__adr_judge(&adr, both, 2) == S2R_OK);
    }
    CHECK(adr.current.p[S2R_PARAM_KP].dist.hi == adr.limits.p[S2R_PARAM_KP].dist.hi);
    s2r_adr_free(&adr);
    c.narrow_at = c.widen_at;
    CHECK(s2r_adr_init(&adr, &c, &dr) == S2R_ERR_INVALID_ARGUMENT && strstr(adr.error, "narrow_at"));
    c = s2r_adr_config_default();
    c.buffer = 0;
    CHECK(s2r_adr_init(&adr, &c, &dr) == S2R_ERR_INVALID_ARGUMENT);
    c = s2r_adr_config_default();
    dr = s2r_randomization_none();
    CHECK(s2r_adr_init(&adr, &c, &dr) == S2R_ERR_INVALID_ARGUMENT && strstr(adr.error, "no uniform range"));
    return 0;
}

/* An ADR training run: ranges move inside their limits, the same seed
   moves them the same way, the change log writes, and a resume is refused
   (its ranges are not in the saved state). */
static int test_adr_trains(void) {
    const char* state = "build/test_adr.state";
    s2r_randomization dr = s2r_randomization_default();
    s2r_adr_config c = s2r_adr_config_default();
    s2r_adr a, b;
    s2r_training t = s2r_training_default(S2R_ROBOT_UR5E, S2R_TASK_REACH);
    s2r_ppo_config pc = s2r_task_ppo_config(S2R_TASK_REACH, 8000, 4, 1);
    s2r_ppo ppo;
    char error[S2R_ERROR_LEN];
    int obs_dim, act_dim, i, run;
    s2r_task_dims(S2R_TASK_REACH, S2R_ROBOT_UR5E, &obs_dim, &act_dim);
    c.start_fraction = 1;   /* from the training ranges: an untrained policy fails, so edges narrow */
    c.buffer = 2;
    t.progress = 0;
    t.randomization = dr;
    for (run = 0; run < 2; run++) {
        s2r_adr* adr = run ? &b : &a;
        CHECKF(s2r_adr_init(adr, &c, &dr) == S2R_OK, "%s", adr->error);
        t.adr = adr;
        CHECK(s2r_ppo_init(&ppo, &pc, obs_dim, act_dim) == S2R_OK);
        CHECKF(s2r_train(&t, &ppo, error) == S2R_OK, "%s", error);
        s2r_ppo_free(&ppo);
    }
    CHECKF(a.n_changes > a.n_params && a.update == 2, "%d changes, %d updates", a.n_changes, a.update);
    CHECK(a.n_changes == b.n_changes && memcmp(a.changes, b.changes, (size_t)a.n_changes * sizeof *a.changes) == 0);
    for (i = 0; i < a.n_params; i++) {
        const s2r_dist* d = &a.current.p[a.param[i]].dist;
        CHECK(d->lo >= a.limits.p[a.param[i]].dist.lo && d->hi <= a.limits.p[a.param[i]].dist.hi && d->lo <= d->hi);
    }
    CHECKF(s2r_adr_write_csv(&a, "build/test_adr.csv", error) == S2R_OK, "%s", error);
    remove("build/test_adr.csv");
    /* a state on disk and resume asked for: refused, nothing trained */
    CHECK(s2r_file_write_all(state, "x", 1, error) == S2R_OK);
    t.state_path = state;
    t.resume = 1;
    CHECK(s2r_ppo_init(&ppo, &pc, obs_dim, act_dim) == S2R_OK);
    CHECK(s2r_train(&t, &ppo, error) == S2R_ERR_UNSUPPORTED && strstr(error, "cannot be resumed"));
    s2r_ppo_free(&ppo);
    remove(state);
    t.randomization = s2r_randomization_none();   /* ADR started from other ranges */
    t.resume = 0;
    t.state_path = NULL;
    CHECK(s2r_ppo_init(&ppo, &pc, obs_dim, act_dim) == S2R_OK);
    CHECK(s2r_train(&t, &ppo, error) == S2R_ERR_INVALID_ARGUMENT && strstr(error, "other ranges"));
    s2r_ppo_free(&ppo);
    s2r_adr_free(&a);
    s2r_adr_free(&b);
    return 0;
}

/* Your own arm: s2r_train on an MJCF file (here the UR5e's, written out)
   builds its environments from the file and sizes the task from its
   joints; a custom arm without a file is refused. */
static int test_train_custom_mjcf(void) {
    const char* path = "build/test_recipe_arm.xml";
    s2r_training t = s2r_training_default(S2R_ROBOT_CUSTOM, S2R_TASK_REACH);
    s2r_ppo_config pc = s2r_task_ppo_config(S2R_TASK_REACH, 4000, 2, 1);
    s2r_ppo ppo;
    char error[S2R_ERROR_LEN];
    size_t n = s2r_robot_scene_mjcf(S2R_ROBOT_UR5E, S2R_SCENE_ARM, NULL, 0);
    char* xml = (char*)malloc(n + 1);
    int obs_dim, act_dim;
    FILE* f = fopen(path, "w");
    CHECK(xml && f);
    s2r_robot_scene_mjcf(S2R_ROBOT_UR5E, S2R_SCENE_ARM, xml, n + 1);
    fputs(xml, f);
    fclose(f);
    free(xml);
    t.progress = 0;
    s2r_task_dims_n(S2R_TASK_REACH, 6, &obs_dim, &act_dim);
    CHECK(s2r_ppo_init(&ppo, &pc, obs_dim, act_dim) == S2R_OK);
    CHECK(s2r_train(&t, &ppo, error) == S2R_ERR_INVALID_ARGUMENT && strstr(error, "mjcf_path"));
    t.mjcf_path = path;
    CHECKF(s2r_train(&t, &ppo, error) == S2R_OK, "%s", error);
    CHECK(ppo.global_step >= 4000 && s2r_made_for_robot(ppo.policy.made_for) == S2R_ROBOT_CUSTOM);
    s2r_ppo_free(&ppo);
    remove(path);
    return 0;
}

/* Threads stepping different environments never write one cache line:
   PPO's lanes and the environments' objects s2r_train builds are laid out in
   whole cache lines, and stepping env e - what a worker thread does, here
   over more than an episode, resets included - changes env e's lane and
   objects and nothing else in either block, the rollout or the serially
   written env block.  (MuJoCo's own mjData is a separate allocation per
   simulator.) */
static int test_ppo_envs_own_their_lines(void) {
    s2r_training training = s2r_training_default(S2R_ROBOT_UR5E, S2R_TASK_PUSH);
    s2r_ppo_config pc = s2r_task_ppo_config(S2R_TASK_PUSH, 4000, 3, 1);
    s2r__task_envs v;
    s2r_ppo ppo;
    char error[S2R_ERROR_LEN];
    const int N = 4;
    unsigned char *lanes, *objects, *rollout, *env_block;
    size_t P = S2R_PRIVILEGED_DIM, rollout_bytes, env_bytes, lane_bytes, object_bytes;
    int obs_dim, act_dim, t, e, i, ends = 0;
    training.progress = 0;
    training.history = 2;
    training.privileged_critic = 1;
    training.randomization = s2r_randomization_push();
    CHECKF(s2r__task_envs_init(&v, &training, N, error) == S2R_OK, "%s", error);
    obs_dim = v.envs[0].obs_dim;
    act_dim = v.envs[0].act_dim;
    pc.num_envs = N;
    pc.privileged_dim = (int)P;
    CHECK(s2r_ppo_init(&ppo, &pc, obs_dim, act_dim) == S2R_OK);
    CHECK((uintptr_t)ppo.lanes % S2R_CACHE_LINE == 0 && ppo.lane_stride % S2R_CACHE_LINE == 0);
    CHECK((uintptr_t)v.objects % S2R_CACHE_LINE == 0 && v.stride % S2R_CACHE_LINE == 0);
    CHECK(v.stride >= sizeof(s2r__task_env_objects));
    for (e = 0; e < N; e++) {   /* each lane's floats inside its own lines */
        const s2r_ppo_lane* l = s2r__ppo_lane(&ppo, e);
        CHECK((const unsigned char*)(l->final_priv + P) <= (const unsigned char*)l + ppo.lane_stride);
    }
    CHECKF(s2r__ppo_reset_all(&ppo, v.envs) == S2R_OK, "%s", ppo.error);
    lane_bytes = (size_t)N * ppo.lane_stride;
    object_bytes = (size_t)N * v.stride;
    rollout_bytes = sizeof(float) * ((size_t)ppo.batch_size * (obs_dim + act_dim + 6 + P) + N);   /* as s2r__ppo_alloc */
    env_bytes = sizeof(float) * 2 * (size_t)N * obs_dim;
    lanes = (unsigned char*)malloc(lane_bytes);
    objects = (unsigned char*)malloc(object_bytes);
    rollout = (unsigned char*)malloc(rollout_bytes);
    env_block = (unsigned char*)malloc(env_bytes);
    CHECK(lanes && objects && rollout && env_block);
    for (t = 0; t < 130; t++) {   /* push episodes are 125 steps */
        for (e = 0; e < N; e++) {
            int own_lane = 0, own_objects = 0;
            memcpy(lanes, ppo.lanes, lane_bytes);
            memcpy(objects, v.objects, object_bytes);
            memcpy(rollout, ppo.rollout, rollout_bytes);
            memcpy(env_block, ppo.env_block, env_bytes);
            s2r__ppo_step_env(&ppo, &v.envs[e], e);
            CHECKF(s2r__ppo_lane(&ppo, e)->status == S2R_OK, "%s", ppo.error);
            ends += s2r__ppo_lane(&ppo, e)->step.truncated || s2r__ppo_lane(&ppo, e)->step.done;
            for (i = 0; i < (int)lane_bytes; i++)
                if (lanes[i] != ppo.lanes[i]) {
                    CHECKF(i / ppo.lane_stride == (size_t)e, "stepping env %d wrote byte %d of lane %d", e, i,
                           (int)(i / ppo.lane_stride));
                    own_lane = 1;
                }
            for (i = 0; i < (int)object_bytes; i++)
                if (objects[i] != v.objects[i]) {
                    CHECKF(i / v.stride == (size_t)e, "stepping env %d wrote byte %d of env %d's objects", e, i, (int)(i / v.stride));
                    own_objects = 1;
                }
            CHECK(own_lane && own_objects);
            CHECKF(memcmp(rollout, ppo.rollout, rollout_bytes) == 0, "stepping env %d wrote the shared rollout", e);
            CHECKF(memcmp(env_block, ppo.env_block, env_bytes) == 0, "stepping env %d wrote the serial env block", e);
        }
    }
    CHECKF(ends == N, "%d episode ends", ends);
    memcpy(rollout, ppo.rollout, rollout_bytes);   /* the serial part does write the rollout: the check can see it */
    CHECKF(s2r__ppo_act_and_step(&ppo, v.envs, 0) == S2R_OK, "%s", ppo.error);
    CHECK(memcmp(rollout, ppo.rollout, rollout_bytes) != 0);
    free(lanes);
    free(objects);
    free(rollout);
    free(env_block);
    s2r_ppo_free(&ppo);
    s2r__task_envs_free(&v);
    return 0;
}

/* --- Interventions ------------------------------------------------------- */

/* An operator's view: the thing at `at`, moving at `v`, the goal at
   `goal`, `left` seconds to go (m, m/s, s). */
static s2r_operator_view view_of(double x, double y, double z, double vx, double vy, double gx, double gy,
                                 double left) {
    s2r_operator_view v;
    memset(&v, 0, sizeof v);
    v.position[0] = x; v.position[1] = y; v.position[2] = z;
    v.velocity[0] = vx; v.velocity[1] = vy;
    v.goal[0] = gx; v.goal[1] = gy;
    v.time_left = left;
    return v;
}

/* The takeover rule on scripted situations, each with the reason it
   should or should not fire (the default push and reach rules: success
   radius 3 / 2 cm, pace 12.5 / 22 cm/s, set-up 2.8 / 0.14 s, a moving
   puck's path within 6 cm of the goal, hand back at half the allowance). */
static int test_takeover_rule(void) {
    s2r_takeover_rule push = s2r_takeover_rule_default(S2R_TASK_PUSH), reach = s2r_takeover_rule_default(S2R_TASK_REACH);
    s2r_operator_view v;
    CHECK(push.success_radius == 0.03 && reach.success_radius == 0.02);
    /* push, the operator watching: a puck at rest 10 cm from the goal is fine with 4 s left (the operator could still
       cover 0.125 x 1.2 = 15 cm), lost with 3 s left (2.5 cm, less than the 7 cm beyond the radius) */
    v = view_of(0, 0, 0.025, 0, 0, 0.10, 0, 4.0);
    CHECK(s2r_takeover_decide(&push, &v, 0) == 0);
    v.time_left = 3.0;
    CHECK(s2r_takeover_decide(&push, &v, 0) == 1);
    /* a puck on the goal is never taken over, however little time is left; the height of its centre is no distance */
    v = view_of(0.01, 0, 0.025, 0, 0, 0, 0, 0.2);
    CHECK(s2r_takeover_decide(&push, &v, 0) == 0);
    /* moving straight at the goal with time left: fine; the same speed 60 degrees off the line (its path passes the
       goal 13 cm away) or away from the goal: off course at once, time or not */
    v = view_of(0, 0, 0, 0.1, 0, 0.15, 0, 4.0);
    CHECK(s2r_takeover_decide(&push, &v, 0) == 0);
    v = view_of(0, 0, 0, 0.05, 0.0866, 0.15, 0, 4.0);
    CHECK(s2r_takeover_decide(&push, &v, 0) == 1);
    v = view_of(0, 0, 0, -0.05, 0, 0.15, 0, 4.0);
    CHECK(s2r_takeover_decide(&push, &v, 0) == 1);
    /* a slow sideways drift (1 cm/s, below moving_speed) is no course yet */
    v = view_of(0, 0, 0, 0, 0.01, 0.15, 0, 4.0);
    CHECK(s2r_takeover_decide(&push, &v, 0) == 0);
    /* the operator driving: it hands back a puck set going at the goal and ahead of half the allowance (7 < 7.5 cm),
       keeps a puck at rest, and keeps one going well when too little time is left for the margin */
    v = view_of(0, 0, 0, 0.1, 0, 0.10, 0, 4.0);
    CHECK(s2r_takeover_decide(&push, &v, 1) == 0);
    v.velocity[0] = 0;
    CHECK(s2r_takeover_decide(&push, &v, 1) == 1);
    v = view_of(0, 0, 0, 0.1, 0, 0.10, 0, 2.0);
    CHECK(s2r_takeover_decide(&push, &v, 1) == 1);
    push.release = 0;   /* release 0: the operator keeps control to the end */
    v = view_of(0, 0, 0, 0.1, 0, 0.10, 0, 4.0);
    CHECK(s2r_takeover_decide(&push, &v, 1) == 1);
    /* reach, in 3-D: 5 cm off with 1 s left is fine (0.22 x 0.86 = 19 cm), with 0.2 s lost (1.3 cm < 3 cm);
       straight above the target counts */
    v = view_of(0.05, 0, 0.3, 0, 0, 0, 0, 1.0);
    v.goal[2] = 0.3;
    CHECK(s2r_takeover_decide(&reach, &v, 0) == 0);
    v.time_left = 0.2;
    CHECK(s2r_takeover_decide(&reach, &v, 0) == 1);
    v = view_of(0, 0, 0.35, 0, 0, 0, 0, 0.2);
    v.goal[2] = 0.3;
    CHECK(s2r_takeover_decide(&reach, &v, 0) == 1);
    return 0;
}

/* A small push policy for the UR5e (20 observations, 2 actions), its
   weights drawn from rng: it does not push, so the operator has work. */
static s2r_result push_policy(s2r_policy* p, s2r_rng* rng) {
    s2r_policy_shape shape;
    memset(&shape, 0, sizeof shape);
    shape.obs_dim = S2R_PUSH_OBS; shape.act_dim = 2; shape.num_hidden = 2; shape.hidden[0] = shape.hidden[1] = 16;
    return s2r_policy_init(p, &shape, -0.5f, 10.0f, rng);
}

/* An intervention round on a stand-in unit records a correction for every
   step the operator drove and for no other; 1 and 2 threads record the
   same; a rule that never fires records nothing and leaves the episodes as
   evaluation runs them (the same successes), one that always fires has
   the operator drive from its first possible step to the end. */
static int test_interventions_record_operator_steps(void) {
    s2r_task_config task = s2r_task_config_default(S2R_TASK_PUSH);
    s2r_expert_config op = s2r_operator_config_default();
    s2r_takeover_rule rule = s2r_takeover_rule_default(S2R_TASK_PUSH), never = rule, always = rule;
    s2r_intervention_episode one[4], two[4];
    s2r_policy p;
    s2r_controller c;
    s2r_dataset a, b;
    s2r_real_robot real;
    s2r_eval_result alone;
    s2r_rng rng = s2r_rng_make(6, 0);
    char error[S2R_ERROR_LEN];
    int i, steps = 0, taken = 0, successes = 0, k = op.reaction_steps;
    CHECK(push_policy(&p, &rng) == S2R_OK);
    c = s2r_policy_controller(&p);
    CHECK(s2r_dataset_init(&a, S2R_PUSH_OBS, 2) == S2R_OK && s2r_dataset_init(&b, S2R_PUSH_OBS, 2) == S2R_OK);
    CHECKF(s2r_collect_unit_interventions(&c, S2R_ROBOT_UR5E, 1, &task, &op, &rule, 4, 7, 1, &a, one, error) == S2R_OK,
           "%s", error);
    CHECKF(s2r_collect_unit_interventions(&c, S2R_ROBOT_UR5E, 1, &task, &op, &rule, 4, 7, 2, &b, two, error) == S2R_OK,
           "%s", error);
    for (i = 0; i < 4; i++) {
        printf("    episode %d: %d of %d steps by the operator, %d takeovers, %s\n", i, one[i].operator_steps,
               one[i].steps, one[i].takeovers, one[i].success ? "on target" : "missed");
        steps += one[i].operator_steps;
        taken += one[i].takeovers > 0;
        CHECK(one[i].operator_steps <= one[i].steps - k && (one[i].operator_steps > 0) == (one[i].takeovers > 0));
    }
    CHECKF(a.count == steps, "%d corrections for %d operator steps", a.count, steps);
    CHECK(taken > 0 && steps < 4 * task.push.episode_steps);   /* it took over, and the policy drove too */
    CHECK(a.count == b.count && memcmp(one, two, sizeof one) == 0);
    CHECK(memcmp(a.obs, b.obs, (size_t)a.count * S2R_PUSH_OBS * sizeof(float)) == 0);
    CHECK(memcmp(a.act, b.act, (size_t)a.count * 2 * sizeof(float)) == 0);
    never.pace = 100;              /* 100 m/s from the first step: always time enough */
    never.setup_time = 0;
    never.max_miss = 100;          /* and never off course */
    a.count = 0;
    CHECKF(s2r_collect_unit_interventions(&c, S2R_ROBOT_UR5E, 1, &task, &op, &never, 4, 7, 1, &a, one, error) == S2R_OK,
           "%s", error);
    for (i = 0; i < 4; i++) successes += one[i].success;
    CHECK(a.count == 0 && one[0].takeovers + one[1].takeovers + one[2].takeovers + one[3].takeovers == 0);
    CHECK(s2r_real_robot_init_scene(&real, S2R_ROBOT_UR5E, S2R_SCENE_PUSH, 1) == S2R_OK);
    CHECK(s2r__evaluate_on(&c, &real.backend, &task, 4, 7, &alone, error) == S2R_OK);
    CHECKF(alone.successes == successes, "evaluation %d, interventions that never came %d", alone.successes, successes);
    s2r_real_robot_free(&real);
    always.pace = 1e-9;            /* no time is ever enough */
    always.release = 0;
    CHECKF(s2r_collect_unit_interventions(&c, S2R_ROBOT_UR5E, 1, &task, &op, &always, 4, 7, 1, &a, one, error) == S2R_OK,
           "%s", error);
    for (i = 0, steps = 0; i < 4; i++) {
        CHECK(one[i].takeovers == 1 && one[i].operator_steps == one[i].steps - k);
        steps += one[i].operator_steps;
    }
    CHECK(a.count == steps);
    rule.release = 2;   /* out of range: an error naming the rule, nothing recorded */
    CHECK(s2r_collect_unit_interventions(&c, S2R_ROBOT_UR5E, 1, &task, &op, &rule, 4, 7, 1, &a, one, error) ==
          S2R_ERR_INVALID_ARGUMENT && strstr(error, "takeover rule") && a.count == steps);
    s2r_dataset_free(&a);
    s2r_dataset_free(&b);
    s2r_policy_free(&p);
    return 0;
}

/* HG-DAgger for `rounds` rounds (init, a round at a time, free; stats
   [rounds]), as example 07 runs it; the error is hg's. */
static s2r_result hg_dagger_run(s2r_policy* policy, s2r_robot_kind robot, uint64_t unit, const s2r_task_config* task,
                                const s2r_hg_dagger_config* config, int rounds, s2r_hg_dagger_stats* stats,
                                char* error) {
    s2r_hg_dagger hg;
    s2r_result res = s2r_hg_dagger_init(&hg, config, policy, robot, unit, task);
    int r;
    for (r = 0; r < rounds && res == S2R_OK; r++) res = s2r_hg_dagger_round(&hg, &stats[r]);
    snprintf(error, S2R_ERROR_LEN, "%s", hg.error);
    s2r_hg_dagger_free(&hg);
    return res;
}

/* A short HG-DAgger run on push (3 episodes a round, a canary of 2):
   every number of its report adds up, the canary's verdict is the one
   kept, 1 and 2 threads give the same run, and bad rounds and rules are
   reported without a fine-tune on nothing. */
static int test_hg_dagger_push(void) {
    s2r_task_config task = s2r_task_config_default(S2R_TASK_PUSH);
    s2r_hg_dagger_config cfg = s2r_hg_dagger_config_default(S2R_TASK_PUSH);
    s2r_hg_dagger_stats s[2], t[2];
    s2r_policy p, q;
    s2r_rng rng = s2r_rng_make(8, 0), same = s2r_rng_make(8, 0);
    char error[S2R_ERROR_LEN];
    size_t bytes;
    int r, corrections = 0;
    CHECK(push_policy(&p, &rng) == S2R_OK && push_policy(&q, &same) == S2R_OK);
    bytes = sizeof(float) * (size_t)p.num_actor_params;
    cfg.episodes_per_round = 3;
    cfg.canary_episodes = 2;
    cfg.epochs = 2;
    CHECKF(hg_dagger_run(&p, S2R_ROBOT_UR5E, 1, &task, &cfg, 2, s, error) == S2R_OK, "%s", error);
    for (r = 0; r < 2; r++) {
        printf("    round %d: %d of %d on target, %d taken over, %d operator and %d policy steps, %d corrections, "
               "canary %.2f -> %.2f, kept %d, %lld real episodes, flags %u\n", s[r].round, s[r].successes,
               s[r].episodes, s[r].taken_over, s[r].operator_steps, s[r].policy_steps, s[r].corrections,
               s[r].canary_policy, s[r].canary_finetune, s[r].kept, s[r].real_episodes, s[r].flags);
        corrections += s[r].operator_steps;
        CHECK(s[r].round == r + 1 && s[r].episodes == 3 && s[r].corrections == corrections);
        CHECK(s[r].operator_steps + s[r].policy_steps <= 3 * task.push.episode_steps);
        CHECK(s[r].finetuned == (s[r].corrections > 0) && s[r].canary_episodes == (s[r].finetuned ? 4 : 0));   /* too few to decide: the cap */
        CHECK(s[r].real_episodes == (r ? s[r - 1].real_episodes : 0) + 3 + s[r].canary_episodes);
        CHECK(!s[r].finetuned || (s[r].canary_policy >= 0 && s[r].canary_policy <= 1 && s[r].canary_finetune >= 0 &&
                                  s[r].canary_finetune <= 1));
        CHECK(!s[r].kept);   /* two episodes cannot show a fine-tune better */
    }
    CHECK(corrections > 0);
    cfg.threads = 2;
    CHECKF(hg_dagger_run(&q, S2R_ROBOT_UR5E, 1, &task, &cfg, 2, t, error) == S2R_OK, "%s", error);
    CHECK(memcmp(s, t, sizeof s) == 0 && memcmp(p.params, q.params, bytes) == 0);
    memcpy(q.params, p.params, bytes);
    /* no episode in a round, a rule for the other task: errors, the policy as it was */
    cfg.episodes_per_round = 0;
    CHECK(hg_dagger_run(&p, S2R_ROBOT_UR5E, 1, &task, &cfg, 1, s, error) == S2R_ERR_INVALID_ARGUMENT);
    cfg.episodes_per_round = 2;
    {   /* rounds may grow between rounds, but not shrink to nothing */
        s2r_hg_dagger hg;
        CHECKF(s2r_hg_dagger_init(&hg, &cfg, &p, S2R_ROBOT_UR5E, 1, &task) == S2R_OK, "%s", hg.error);
        hg.config.episodes_per_round = 0;
        CHECK(s2r_hg_dagger_round(&hg, &s[0]) == S2R_ERR_INVALID_ARGUMENT && strstr(hg.error, "round of 0"));
        CHECK(hg.rounds == 0 && hg.real_episodes == 0 && memcmp(p.params, q.params, bytes) == 0);
        s2r_hg_dagger_free(&hg);
    }
    cfg.rule = s2r_takeover_rule_default(S2R_TASK_REACH);
    CHECK(hg_dagger_run(&p, S2R_ROBOT_UR5E, 1, &task, &cfg, 1, s, error) == S2R_ERR_INVALID_ARGUMENT &&
          strstr(error, "reach"));
    /* a rule that never fires: the round says so and fine-tunes nothing */
    cfg.rule = s2r_takeover_rule_default(S2R_TASK_PUSH);
    cfg.rule.pace = cfg.rule.max_miss = 100;
    cfg.rule.setup_time = 0;
    CHECKF(hg_dagger_run(&p, S2R_ROBOT_UR5E, 1, &task, &cfg, 1, s, error) == S2R_OK, "%s", error);
    CHECK(s[0].flags == (S2R_HG_NEVER_TOOK_OVER | S2R_HG_NOTHING_TO_LEARN) && !s[0].finetuned && !s[0].kept);
    CHECK(s[0].real_episodes == 2 && s[0].canary_policy == -1);
    /* one that always fires: said too (the operator drove throughout) */
    cfg.rule.pace = 1e-9;
    cfg.rule.max_miss = 0.06;
    cfg.rule.release = 0;
    cfg.canary_episodes = 0;
    CHECKF(hg_dagger_run(&p, S2R_ROBOT_UR5E, 1, &task, &cfg, 1, s, error) == S2R_OK, "%s", error);
    CHECK(s[0].flags == S2R_HG_ALWAYS_TOOK_OVER && s[0].finetuned && s[0].kept && s[0].real_episodes == 2);
    CHECK(memcmp(p.params, q.params, bytes) != 0);   /* no canary: the fine-tune is kept */
    s2r_policy_free(&p);
    s2r_policy_free(&q);
    return 0;
}

/* The operators are the ones the manual documents: the default's 80 ms
   and 0.05 as every committed demonstration row had them, the skilled
   teleoperator's 200 ms, 0.02 and 400 ms of set-up, the ceiling the
   scripted expert exact.  The set-up and the reaction each cost a skilled
   demonstration its first pairs (not recorded), and its first decisions
   are 0 while it takes in the scene; a set-up out of range is refused. */
static int test_operators_as_documented(void) {
    s2r_expert_config d = s2r_operator_config_default(), s = s2r_operator_config_skilled();
    s2r_expert_config c = s2r_operator_config_ceiling(), e = s2r_expert_config_default();
    s2r_task_config task = s2r_task_config_default(S2R_TASK_REACH);
    s2r_dataset data;
    s2r_expert x;
    s2r_sim sim;
    s2r_sim_config sc = s2r_sim_config_default(S2R_ROBOT_UR5E);
    char error[S2R_ERROR_LEN];
    int ok, steps = task.reach.episode_steps;
    CHECK(d.reaction_steps == 2 && d.action_noise == 0.05 && d.setup_steps == 0);
    CHECK(s.reaction_steps == 5 && s.action_noise == 0.02 && s.setup_steps == 10);
    CHECK(c.reaction_steps == 0 && c.action_noise == 0 && c.setup_steps == 0 && !memcmp(&c, &e, sizeof c));
    CHECK(s.gain_cmd == e.gain_cmd && s.gain_error == e.gain_error && s.approach_gain == e.approach_gain);
    CHECK(s2r_operator_config_human().reaction_steps == 5 && s2r_operator_config_human().setup_steps == 0);
    CHECK(s2r_dataset_init(&data, 33, 6) == S2R_OK);
    CHECKF(s2r_collect_unit_demos(S2R_ROBOT_UR5E, 2, &task, &s, 3, 9, 1, &data, &ok, error) == S2R_OK, "%s", error);
    CHECKF(data.count == 3 * (steps - s.reaction_steps - s.setup_steps), "%d pairs", data.count);
    CHECK(data.made_for == s2r_made_for(S2R_ROBOT_UR5E, S2R_TASK_REACH));
    s2r_dataset_free(&data);
    CHECK(s2r_dataset_init(&data, 33, 6) == S2R_OK);
    CHECKF(s2r_collect_unit_demos(S2R_ROBOT_UR5E, 2, &task, &c, 3, 9, 1, &data, &ok, error) == S2R_OK, "%s", error);
    CHECK(data.count == 3 * steps);   /* the ceiling reacts at once */
    s2r_dataset_free(&data);
    CHECK(s2r_sim_init(&sim, &sc) == S2R_OK);
    {   /* the skilled operator's first decisions are 0: noise only, then it acts */
        s2r_task t;
        s2r_rng rng = s2r_rng_make(3, 0);
        float obs[33], a[6], quiet[6] = {0};
        s2r_expert_config still = s;
        int k, moved = 0;
        still.action_noise = 0;
        CHECK(s2r_task_init(&t, &task, &sim.backend) == S2R_OK);
        CHECK(t.env.reset(t.env.self, &rng, obs) == S2R_OK);
        CHECKF(s2r_expert_init(&x, &still, &task, sim.backend.info) == S2R_OK, "%s", x.error);
        for (k = 0; k < still.setup_steps + still.reaction_steps; k++) {
            CHECK(s2r_expert_act(&x, obs, NULL, a, NULL) == S2R_OK);
            CHECK(memcmp(a, quiet, sizeof a) == 0);
        }
        CHECK(s2r_expert_act(&x, obs, NULL, a, NULL) == S2R_OK);
        for (k = 0; k < 6; k++) moved += a[k] != 0.0f;
        CHECK(moved > 0);
        s2r_expert_free(&x);
        s2r_task_free(&t);
        still.setup_steps = 251;
        CHECK(s2r_expert_init(&x, &still, &task, sim.backend.info) == S2R_ERR_INVALID_ARGUMENT && strstr(x.error, "setup_steps"));
        s2r_expert_free(&x);
    }
    s2r_sim_free(&sim);
    return 0;
}

/* A backend in front of a unit that counts what the pipeline asks of it:
   episodes (resets), commands, and ground-truth reads; with `scramble`
   its ground truth is wrong (the flange a metre off, moving fast, the
   joints elsewhere) except at an episode's last step, where the success
   label is judged - what the RL fine-tuning may read. */
typedef struct counting_backend {
    const s2r_backend* inner;
    s2r_backend        backend;
    int resets, commands, since_reset, truths, episode_steps, scramble;
} counting_backend;

static s2r_result counting_reset(void* self, const double* q0, const double* target, s2r_rng* rng) {
    counting_backend* c = (counting_backend*)self;
    c->resets++;
    c->since_reset = 0;
    return s2r_backend_reset(c->inner, q0, target, rng);
}
static s2r_result counting_command(void* self, const double* q) {
    counting_backend* c = (counting_backend*)self;
    c->commands++;
    c->since_reset++;
    return s2r_backend_command(c->inner, q);
}
static s2r_result counting_advance(void* self, double s) { return s2r_backend_advance(((counting_backend*)self)->inner, s); }
static s2r_result counting_sensors(void* self, s2r_sensors* out) {
    return s2r_backend_read_sensors(((counting_backend*)self)->inner, out);
}
static s2r_result counting_truth(void* self, s2r_ground_truth* out) {
    counting_backend* c = (counting_backend*)self;
    s2r_result res = s2r_backend_ground_truth(c->inner, out);
    int i;
    c->truths++;
    if (c->scramble && c->since_reset != c->episode_steps)
        for (i = 0; i < 3; i++) {
            out->flange[i] += 1.0;
            out->flange_vel[i] += 2.0;
            out->q[i] += 0.5;
        }
    return res;
}

static void counting_init(counting_backend* c, const s2r_backend* inner, int episode_steps, int scramble) {
    memset(c, 0, sizeof *c);
    c->inner = inner;
    c->backend = *inner;
    c->backend.self = c;
    c->backend.reset = counting_reset;
    c->backend.command = counting_command;
    c->backend.advance = counting_advance;
    c->backend.read_sensors = counting_sensors;
    c->backend.ground_truth = counting_truth;
    c->backend.halt = NULL;
    c->backend.place_object = NULL;
    c->episode_steps = episode_steps;
    c->scramble = scramble;
}

/* on_update of the RL fine-tuning: the episodes it says it spent and the
   resets the unit saw, after the last batch (before the canary). */
typedef struct rl_seen_at {
    const counting_backend* unit;
    int spent, resets;
} rl_seen_at;

static void rl_seen(void* context, s2r_policy* now, int spent) {
    rl_seen_at* seen = (rl_seen_at*)context;
    (void)now;
    seen->spent = spent;
    seen->resets = seen->unit->resets;
}

/* RL fine-tuning on a unit (reach, UR5e unit 2, a small random policy):
   it spends exactly its budget of episodes on the unit (counted through
   the backend: the budget, then the canary's two runs), and reads no
   ground truth beyond the success label - a unit whose ground truth is
   wrong at every step but an episode's last gives the same fine-tune bit
   for bit, while the task's own shaped reward, which reads the ground
   truth, changes.  A success label that is 0 on every episode is
   reported and not trained on (the policy stays); the bad inputs run
   nothing. */
static int test_rl_finetune_budget_and_truth(void) {
    s2r_task_config task = s2r_task_config_default(S2R_TASK_REACH);
    s2r_rl_finetune_config cfg = s2r_rl_finetune_config_default();
    s2r_rl_finetune_result r, q;
    s2r_real_robot real, other;
    counting_backend count, wrong;
    s2r_policy start, p, w;
    s2r_rng rng = s2r_rng_make(6, 0);
    char error[S2R_ERROR_LEN];
    int steps = task.reach.episode_steps;
    rl_seen_at seen;
    size_t bytes;
    CHECK(reach_policy(&start, &rng) == S2R_OK);
    CHECK(s2r_real_robot_init(&real, S2R_ROBOT_UR5E, 2) == S2R_OK);
    CHECK(s2r_real_robot_init(&other, S2R_ROBOT_UR5E, 2) == S2R_OK);
    counting_init(&count, &real.backend, steps, 0);
    counting_init(&wrong, &other.backend, steps, 1);
    bytes = sizeof(float) * (size_t)start.num_params;
    cfg.episodes = 4;
    cfg.episodes_per_update = 2;
    cfg.update_epochs = 1;
    cfg.canary_episodes = 2;
    cfg.camera_weight = 1.0;   /* a signal in every batch */
    cfg.on_update = rl_seen;
    cfg.on_update_context = &seen;
    seen.unit = &count;
    seen.spent = seen.resets = 0;
    {   /* bad input: nothing runs, the policy stays */
        s2r_rl_finetune_config bad = cfg;
        CHECK(reach_policy(&p, &rng) == S2R_OK);
        memcpy(p.params, start.params, bytes);
        bad.episodes = 1;
        CHECK(s2r_finetune_by_rl(&p, &count.backend, &task, &bad, &r, error) == S2R_ERR_INVALID_ARGUMENT &&
              strstr(error, "smaller than one PPO batch"));
        bad.episodes = 5;
        CHECK(s2r_finetune_by_rl(&p, &count.backend, &task, &bad, &r, error) == S2R_ERR_INVALID_ARGUMENT);
        bad = cfg;
        bad.kl_anchor = 0.0f;
        CHECK(s2r_finetune_by_rl(&p, &count.backend, &task, &bad, &r, error) == S2R_ERR_INVALID_ARGUMENT &&
              strstr(error, "KL anchor"));
        bad.kl_anchor = -1.0f;
        CHECK(s2r_finetune_by_rl(&p, &count.backend, &task, &bad, &r, error) == S2R_ERR_INVALID_ARGUMENT);
        bad = cfg;
        bad.label_weight = bad.camera_weight = 0;
        CHECK(s2r_finetune_by_rl(&p, &count.backend, &task, &bad, &r, error) == S2R_ERR_INVALID_ARGUMENT);
        CHECK(count.resets == 0 && count.commands == 0 && memcmp(p.params, start.params, bytes) == 0);
        s2r_policy_free(&p);
    }
    CHECK(reach_policy(&p, &rng) == S2R_OK && reach_policy(&w, &rng) == S2R_OK);
    memcpy(p.params, start.params, bytes);
    memcpy(w.params, start.params, bytes);
    CHECKF(s2r_finetune_by_rl(&p, &count.backend, &task, &cfg, &r, error) == S2R_OK, "%s", error);
    printf("    RL fine-tune: %d episodes, %d updates, KL %.2g, canary %.2f as it was, %.2f fine-tuned, kept %d\n",
           r.episodes, r.updates, (double)r.anchor_kl, r.canary_policy, r.canary_finetune, r.kept);
    CHECK(seen.spent == cfg.episodes && seen.resets == cfg.episodes && r.episodes == cfg.episodes);
    CHECK(r.updates == 2 && r.skipped == 0);
    CHECKF(count.resets == cfg.episodes + r.canary_episodes && r.canary_episodes >= 2 &&
           r.canary_episodes <= 2 * cfg.canary_episodes, "%d resets", count.resets);   /* the canary may stop early */
    CHECK(count.commands == count.resets * steps);   /* every episode whole */
    CHECK(r.anchor_kl >= 0 && isfinite(r.anchor_kl));
    CHECKF(s2r_finetune_by_rl(&w, &wrong.backend, &task, &cfg, &q, error) == S2R_OK, "%s", error);
    CHECK(wrong.resets == count.resets && wrong.truths == count.truths);
    CHECK(memcmp(&r, &q, sizeof r) == 0 && memcmp(p.params, w.params, bytes) == 0);
    {   /* the scrambling is seen by what reads the truth: the task's own reward */
        s2r_task a, b;
        s2r_rng ra = s2r_rng_make(1, 0), rb = s2r_rng_make(1, 0);
        float oa[33], ob[33], act[6] = {0};
        s2r_step_result sa, sb;
        CHECK(s2r_task_init(&a, &task, &count.backend) == S2R_OK && s2r_task_init(&b, &task, &wrong.backend) == S2R_OK);
        CHECK(a.env.reset(a.env.self, &ra, oa) == S2R_OK && b.env.reset(b.env.self, &rb, ob) == S2R_OK);
        CHECK(a.env.step(a.env.self, act, oa, &sa) == S2R_OK && b.env.step(b.env.self, act, ob, &sb) == S2R_OK);
        CHECK(sa.reward != sb.reward && memcmp(oa, ob, sizeof oa) == 0);
        s2r_task_free(&a);
        s2r_task_free(&b);
    }
    {   /* the label alone, on a policy that never succeeds: reported, not trained on */
        s2r_rl_finetune_config label = cfg;
        int before = count.resets;
        label.camera_weight = 0;
        memcpy(p.params, start.params, bytes);
        CHECKF(s2r_finetune_by_rl(&p, &count.backend, &task, &label, &r, error) == S2R_OK, "%s", error);
        CHECK(r.labelled == 0 && r.updates == 0 && r.skipped == 2 && (r.flags & S2R_RL_NO_SUCCESS) && !r.kept);
        CHECK(r.canary_episodes == 0 && r.canary_policy == -1 && count.resets - before == label.episodes);
        CHECK(memcmp(p.params, start.params, bytes) == 0);
    }
    s2r_policy_free(&start);
    s2r_policy_free(&p);
    s2r_policy_free(&w);
    s2r_real_robot_free(&real);
    s2r_real_robot_free(&other);
    return 0;
}

/* The KL anchor's derivatives are those of its KL: central differences in
   every mean and log std of a minibatch of random samples. */
static int test_ppo_anchor_gradient(void) {
    s2r_ppo ppo;
    s2r_ppo_config pc = s2r_ppo_config_default();
    s2r_policy other;
    s2r_rng rng = s2r_rng_make(8, 0);
    s2r__ppo_terms t;
    float dlog_std[6], *mean;
    int M, i, a, n, obs_dim = 5, act_dim = 3;
    double worst = 0;
    pc.rollout_steps = 8;
    pc.num_minibatches = 2;
    pc.num_hidden = 1;
    pc.hidden[0] = 8;
    pc.total_steps = 8;
    CHECK(s2r_ppo_init(&ppo, &pc, obs_dim, act_dim) == S2R_OK);
    {
        s2r_policy_shape shape = ppo.policy.shape;
        CHECK(s2r_policy_init(&other, &shape, -0.3f, 10.0f, &rng) == S2R_OK);
    }
    CHECK(s2r_ppo_anchor(&ppo, &other, 0.0f) == S2R_ERR_INVALID_ARGUMENT && ppo.anchor == NULL);
    CHECK(s2r_ppo_anchor(&ppo, &other, 0.7f) == S2R_OK);
    M = ppo.minibatch_size;
    mean = ppo.mean;
    for (i = 0; i < M * obs_dim; i++) ppo.mb_obs[i] = (float)s2r_rng_range(&rng, -1, 1);
    for (i = 0; i < M * act_dim; i++) mean[i] = (float)s2r_rng_range(&rng, -1, 1);
    for (a = 0; a < act_dim; a++) ppo.policy.log_std[a] = (float)s2r_rng_range(&rng, -1, 0);
    for (n = 0; n < M * act_dim + act_dim; n++) {   /* each mean, then each log std */
        float* x = n < M * act_dim ? &mean[n] : &ppo.policy.log_std[n - M * act_dim];
        float keep = *x, h = 1e-2f;
        double up, down, grad, want;
        memset(ppo.dmean, 0, sizeof(float) * (size_t)(M * act_dim));
        memset(dlog_std, 0, sizeof dlog_std);
        memset(&t, 0, sizeof t);
        s2r__ppo_anchor_term(&ppo, M, &t, dlog_std);
        grad = n < M * act_dim ? ppo.dmean[n] : dlog_std[n - M * act_dim];
        *x = keep + h; memset(&t, 0, sizeof t); s2r__ppo_anchor_term(&ppo, M, &t, dlog_std); up = t.anchor_kl;
        *x = keep - h; memset(&t, 0, sizeof t); s2r__ppo_anchor_term(&ppo, M, &t, dlog_std); down = t.anchor_kl;
        *x = keep;
        want = 0.7 / M * (up - down) / (2 * h);
        if (fabs(grad - want) > worst) worst = fabs(grad - want);
    }
    CHECKF(worst < 1e-3, "largest difference %g", worst);
    s2r_policy_free(&other);
    s2r_ppo_free(&ppo);
    return 0;
}

/* A demonstration set from another arm or task is refused by the
   fine-tune before the unit runs, naming both; so is mixing them. */
static int test_demos_from_another_arm_or_task(void) {
    s2r_task_config push = s2r_task_config_default(S2R_TASK_PUSH), reach = s2r_task_config_default(S2R_TASK_REACH);
    s2r_expert_config op = s2r_operator_config_default();
    s2r_dataset panda, ur5e, mixed;
    s2r_policy p, r;
    s2r_policy_shape shape;
    s2r_real_robot real;
    s2r_rng rng = s2r_rng_make(9, 0);
    char error[S2R_ERROR_LEN];
    double rate[3];
    int kept, ok;
    memset(&shape, 0, sizeof shape);
    shape.obs_dim = S2R_PUSH_OBS; shape.act_dim = 2; shape.num_hidden = 1; shape.hidden[0] = 8;
    CHECK(s2r_policy_init(&p, &shape, -0.5f, 10.0f, &rng) == S2R_OK);
    CHECK(reach_policy(&r, &rng) == S2R_OK);
    CHECK(s2r_dataset_init(&panda, S2R_PUSH_OBS, 2) == S2R_OK && s2r_dataset_init(&ur5e, S2R_PUSH_OBS, 2) == S2R_OK);
    CHECKF(s2r_collect_unit_demos(S2R_ROBOT_PANDA, 1, &push, &op, 1, 9, 1, &panda, &ok, error) == S2R_OK, "%s", error);
    CHECKF(s2r_collect_unit_demos(S2R_ROBOT_UR5E, 1, &push, &op, 1, 9, 1, &ur5e, &ok, error) == S2R_OK, "%s", error);
    CHECK(panda.made_for == s2r_made_for(S2R_ROBOT_PANDA, S2R_TASK_PUSH));
    CHECK(s2r_real_robot_init_scene(&real, S2R_ROBOT_UR5E, S2R_SCENE_PUSH, 1) == S2R_OK);
    CHECK(s2r_finetune_on_unit(&p, &panda, 1, 1, &real.backend, &push, 1, 1, rate, &kept, NULL, error) == S2R_ERR_INVALID_ARGUMENT);
    CHECKF(strstr(error, "panda push") && strstr(error, "ur5e push"), "%s", error);
    CHECK(s2r_finetune_on_unit(&r, &ur5e, 1, 1, &real.backend, &reach, 1, 1, rate, &kept, NULL, error) == S2R_ERR_INVALID_ARGUMENT);
    CHECKF(strstr(error, "another arm or task"), "%s", error);
    CHECK(s2r_dataset_init(&mixed, S2R_PUSH_OBS, 2) == S2R_OK);
    CHECK(s2r_dataset_append_episodes(&mixed, &ur5e, 0, 1, 0, NULL) == S2R_OK);
    CHECK(s2r_dataset_append_episodes(&mixed, &panda, 0, 1, 0, NULL) == S2R_ERR_INVALID_ARGUMENT && mixed.episodes == 1);
    s2r_dataset_free(&mixed);
    s2r_dataset_free(&panda);
    s2r_dataset_free(&ur5e);
    s2r_real_robot_free(&real);
    s2r_policy_free(&p);
    s2r_policy_free(&r);
    return 0;
}

static const test_case recipe_tests[] = {
    {"recipe: training on your own arm's MJCF file", test_train_custom_mjcf},
    {"recipe: a policy with a frame history trains, records it, and evaluates as deployed", test_history_policy},
    {"recipe: a privileged critic trains through s2r_train; the actor deploys alone", test_privileged_critic_trains},
    {"recipe: threads stepping different environments write no common cache line", test_ppo_envs_own_their_lines},
    {"recipe: ADR starts at the centre; an edge's successes widen it, failures narrow it", test_adr_judges_edges},
    {"recipe: ADR training moves ranges inside their limits, deterministically; no resume", test_adr_trains},
    {"recipe: camera calibration finds the unit's offset within 3 mm", test_calibrate_camera},
    {"recipe: unit demonstrations are the same for 1 and 2 threads", test_unit_demos_thread_independent},
    {"recipe: a saved policy comes back and acts the same", test_policy_from_checkpoint},
    {"recipe: fine-tuning on a unit keeps the candidate its canary preferred", test_finetune_on_unit},
    {"recipe: the operators are the documented ones: default, skilled teleoperator, ceiling", test_operators_as_documented},
    {"recipe: RL fine-tuning spends exactly its episode budget and reads only the success label", test_rl_finetune_budget_and_truth},
    {"recipe: the KL anchor's gradient is its KL's (central differences)", test_ppo_anchor_gradient},
    {"recipe: demonstrations from another arm or task are refused", test_demos_from_another_arm_or_task},
    {"recipe: interventions: the takeover rule fires where it should, hands back when recovered", test_takeover_rule},
    {"recipe: interventions: corrections only for the operator's steps, the same for 1 and 2 threads", test_interventions_record_operator_steps},
    {"recipe: interventions: a short HG-DAgger run on push adds up; bad rounds and rules are reported", test_hg_dagger_push},
    {"recipe: a robustness sweep moves only the swept parameter", test_robustness_sweep},
    {"recipe: transfer predictions: nominal, DR, identified, and the camera as deployed", test_predict_transfer},
    {"recipe: gap attribution: every effect off is the nominal simulator; deterministic; calibration", test_attribution_baseline},
    {"recipe: the gap's interval is Newcombe's on the pooled counts", test_gap_interval},
};

static const test_case recipe_slow_tests[] = {
    {"recipe: PPO learns reach on the nominal UR5e (>= 85 % in 200k steps)", test_ppo_learns_reach},
};
