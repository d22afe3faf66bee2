/* tests/test_harden.c - crash-safe training, physics divergence and the bad
   inputs of the README's table that no other file covers.  Included by
   test_main.c. */
#include <signal.h>
#include <sys/wait.h>

static int harden_file_exists(const char* path) {
    FILE* f = fopen(path, "rb");
    if (f) fclose(f);
    return f != NULL;
}

/* --- training state ---------------------------------------------------------- */

static int harden_iterate(s2r_ppo* ppo, s2r_env* envs, int updates) {
    int i;
    for (i = 0; i < updates; i++)
        if (s2r_ppo_iterate(ppo, envs, NULL) != S2R_OK) return 1;
    return 0;
}

/* Saved every 3 updates and resumed from the last save by a fresh process
   (fresh trainer, fresh environments): the same parameters and optimizer
   state, bit for bit, as the run that was never stopped. */
static int test_state_resume_bit_identical(void) {
    const char* path = "build/test_state.tmp.state";
    s2r_ppo a, b;
    s2r_pendulum pa[4], pb[4];
    s2r_env ea[4], eb[4];
    CHECK(pendulum_ppo(&a, pa, ea, 5, 1, 8 * 512) == S2R_OK);
    CHECK(harden_iterate(&a, ea, 3) == 0 && s2r_ppo_save_state(&a, path) == S2R_OK);
    CHECK(harden_iterate(&a, ea, 3) == 0 && s2r_ppo_save_state(&a, path) == S2R_OK);
    CHECK(harden_iterate(&a, ea, 2) == 0);                 /* never stopped: 8 updates */
    CHECK(pendulum_ppo(&b, pb, eb, 5, 1, 8 * 512) == S2R_OK);  /* "killed" after update 7 */
    CHECK(s2r_ppo_load_state(&b, path) == S2R_OK);
    CHECK(b.update == 6 && b.global_step == 6 * 512);
    CHECK(harden_iterate(&b, eb, 2) == 0);
    CHECK(memcmp(a.policy.params, b.policy.params, sizeof(float) * (size_t)a.policy.num_params) == 0);
    CHECK(memcmp(a.adam.moments, b.adam.moments, sizeof(float) * 2 * (size_t)a.adam.n) == 0);
    CHECK(memcmp(a.policy.norm.mean, b.policy.norm.mean, sizeof(double) * 3) == 0);
    CHECK(a.adam.t == b.adam.t && a.reward_norm.var[0] == b.reward_norm.var[0]);
    s2r_ppo_free(&a);
    s2r_ppo_free(&b);
    remove(path);
    return 0;
}

/* When every rollout ends every episode (128-step episodes, 128 steps per
   env per rollout), saving after every update changes nothing: the run
   ends bit-identical to one that never saves, and a resume from a save
   ends there too. */
static int test_state_save_changes_nothing(void) {
    const char* path = "build/test_state_whole.tmp.state";
    s2r_ppo a, b, c;
    s2r_pendulum pa[4], pb[4], pc[4];
    s2r_env ea[4], eb[4], ec[4];
    int e, i;
    CHECK(pendulum_ppo(&a, pa, ea, 5, 1, 6 * 512) == S2R_OK);
    CHECK(pendulum_ppo(&b, pb, eb, 5, 1, 6 * 512) == S2R_OK);
    CHECK(pendulum_ppo(&c, pc, ec, 5, 1, 6 * 512) == S2R_OK);
    for (e = 0; e < 4; e++) pa[e].max_steps = pb[e].max_steps = pc[e].max_steps = 128;
    for (i = 0; i < 6; i++) {
        CHECK(harden_iterate(&a, ea, 1) == 0);
        if (i == 2) CHECK(s2r_ppo_save_state(&a, path) == S2R_OK);
        else CHECK(s2r_ppo_save_state(&a, "build/test_state_whole2.tmp.state") == S2R_OK);
    }
    CHECK(harden_iterate(&b, eb, 6) == 0);                  /* never saves */
    CHECK(s2r_ppo_load_state(&c, path) == S2R_OK && c.update == 3);
    CHECK(harden_iterate(&c, ec, 3) == 0);
    CHECK(memcmp(a.policy.params, b.policy.params, sizeof(float) * (size_t)a.policy.num_params) == 0);
    CHECK(memcmp(a.policy.norm.mean, b.policy.norm.mean, sizeof(double) * 3) == 0);
    CHECK(memcmp(c.policy.params, b.policy.params, sizeof(float) * (size_t)b.policy.num_params) == 0);
    CHECK(memcmp(c.adam.moments, b.adam.moments, sizeof(float) * 2 * (size_t)b.adam.n) == 0);
    CHECK(memcmp(c.policy.norm.var, b.policy.norm.var, sizeof(double) * 3) == 0);
    s2r_ppo_free(&a);
    s2r_ppo_free(&b);
    s2r_ppo_free(&c);
    remove(path);
    remove("build/test_state_whole2.tmp.state");
    return 0;
}

/* Writes `bytes` of `src` (or all but the cut, or with one byte flipped) to
   `dst`. */
static int harden_copy(const char* src, const char* dst, long cut, long flip) {
    FILE *in = fopen(src, "rb"), *out = fopen(dst, "wb");
    long i = 0, n;
    int c;
    if (!in || !out) { if (in) fclose(in); if (out) fclose(out); return 1; }
    fseek(in, 0, SEEK_END);
    n = ftell(in);
    rewind(in);
    while ((c = fgetc(in)) != EOF && i < n - cut) { fputc(i == flip ? c ^ 0x10 : c, out); i++; }
    fclose(in);
    fclose(out);
    return 0;
}

/* A state from another run, a truncated or corrupted file, or no file:
   refused with a message naming the problem, and the trainer unchanged. */
static int test_state_refused_trainer_untouched(void) {
    const char *path = "build/test_state2.tmp.state", *bad = "build/test_state3.tmp.state";
    s2r_ppo a, other;
    s2r_pendulum pa[4], po[4];
    s2r_env ea[4], eo[4];
    float* before;
    CHECK(pendulum_ppo(&a, pa, ea, 5, 1, 8 * 512) == S2R_OK);
    CHECK(harden_iterate(&a, ea, 1) == 0 && s2r_ppo_save_state(&a, path) == S2R_OK);
    CHECK(pendulum_ppo(&other, po, eo, 6, 1, 8 * 512) == S2R_OK);  /* another seed */
    before = (float*)malloc(sizeof(float) * (size_t)other.policy.num_params);
    CHECK(before != NULL);
    memcpy(before, other.policy.params, sizeof(float) * (size_t)other.policy.num_params);
    CHECK(s2r_ppo_load_state(&other, path) == S2R_ERR_INVALID_ARGUMENT && strstr(other.error, "seed"));
    CHECK(harden_copy(path, bad, 7, -1) == 0);
    CHECK(s2r_ppo_load_state(&a, bad) == S2R_ERR_CORRUPT && strstr(a.error, "truncated"));
    CHECK(harden_copy(path, bad, 0, 300) == 0);
    CHECK(s2r_ppo_load_state(&a, bad) == S2R_ERR_CORRUPT && strstr(a.error, "checksum"));
    CHECK(harden_copy(path, bad, 0, 2) == 0);                /* the magic */
    CHECK(s2r_ppo_load_state(&a, bad) == S2R_ERR_CORRUPT);
    CHECK(harden_copy(path, bad, 0, 16) == 0);               /* a bit of the seed: corruption, not another run */
    CHECK(s2r_ppo_load_state(&a, bad) == S2R_ERR_CORRUPT && strstr(a.error, "checksum"));
    CHECK(s2r_ppo_load_state(&other, "build/no_such.state") == S2R_ERR_IO);
    CHECK(other.update == 0 && other.global_step == 0);
    CHECK(memcmp(before, other.policy.params, sizeof(float) * (size_t)other.policy.num_params) == 0);
    free(before);
    s2r_ppo_free(&a);
    s2r_ppo_free(&other);
    remove(path);
    remove(bad);
    return 0;
}

/* A training state on your own arm records the arm's model (a digest of it
   as compiled): resumed on the same MJCF it continues; on another arm of
   the same joint count (examples/arm4.xml with one link 0.1 kg heavier),
   or from a state that records no model (one saved before states did),
   it is refused, naming this run's MJCF, and the trainer is untouched. */
static int test_state_refused_on_another_arm(void) {
    const char *state = "build/test_state_arm.tmp.state", *other_xml = "build/test_state_arm.tmp.xml";
    s2r_training t = s2r_training_default(S2R_ROBOT_CUSTOM, S2R_TASK_REACH);
    s2r_ppo_config c = s2r_task_ppo_config(S2R_TASK_REACH, 2 * 512, 3, 1);
    s2r_ppo a, b;
    char error[S2R_ERROR_LEN], *xml, *at;
    unsigned char* bytes;
    uint64_t h[S2R__S_WORDS];
    size_t n;
    int obs_dim, act_dim;
    FILE* f;
    c.rollout_steps = 512;
    s2r_task_dims_n(S2R_TASK_REACH, 4, &obs_dim, &act_dim);
    t.mjcf_path = "examples/arm4.xml";
    t.progress = 0;
    t.state_path = state;
    t.resume = 1;
    remove(state);
    CHECK(s2r_ppo_init(&a, &c, obs_dim, act_dim) == S2R_OK);
    CHECKF(s2r_training_check_resume(&t, &a, error) == S2R_OK && a.cfg.env_identity[2] != 0, "%s", error);
    a.update = 1;
    CHECK(s2r_ppo_save_state(&a, state) == S2R_OK);
    CHECK(s2r__read_file("examples/arm4.xml", &bytes, &n, error) == S2R_OK);   /* another arm, four joints too */
    CHECK((xml = (char*)malloc(n + 1)) != NULL);   /* the bytes as a string (the reader adds no NUL) */
    memcpy(xml, bytes, n);
    xml[n] = '\0';
    S2R_FREE(bytes);
    CHECK((at = strstr(xml, "mass='1.2'")) != NULL);
    at[8] = '3';
    CHECK((f = fopen(other_xml, "wb")) != NULL && fwrite(xml, 1, n, f) == n && fclose(f) == 0);
    free(xml);
    CHECK(s2r_ppo_init(&b, &c, obs_dim, act_dim) == S2R_OK);
    CHECKF(s2r_training_check_resume(&t, &b, error) == S2R_OK && b.update == 1, "%s", error);   /* the same arm */
    s2r_ppo_free(&b);
    t.mjcf_path = other_xml;
    CHECK(s2r_ppo_init(&b, &c, obs_dim, act_dim) == S2R_OK);
    CHECKF(s2r_training_check_resume(&t, &b, error) == S2R_ERR_INVALID_ARGUMENT && strstr(error, "another arm model") &&
           strstr(error, other_xml) && b.update == 0, "%s", error);
    s2r_ppo_free(&b);
    a.cfg.env_identity[2] = 0;                   /* a state as saved before the model was recorded */
    CHECK(s2r_ppo_save_state(&a, state) == S2R_OK);
    CHECK((f = fopen(state, "rb")) != NULL && fread(h, sizeof h, 1, f) == 1 && fclose(f) == 0 && h[S2R__S_MODEL] == 0);
    t.mjcf_path = "examples/arm4.xml";
    CHECK(s2r_ppo_init(&b, &c, obs_dim, act_dim) == S2R_OK);
    CHECKF(s2r_training_check_resume(&t, &b, error) == S2R_ERR_INVALID_ARGUMENT && strstr(error, "records no arm model") &&
           b.update == 0, "%s", error);
    s2r_ppo_free(&b);
    s2r_ppo_free(&a);
    remove(state);
    remove(other_xml);
    return 0;
}

/* Ctrl-C during s2r_train: it stops after the update, saves the state
   and says so; the rows so far are in the CSV's .partial (no half file
   under its name); a state saved with other ranges is refused, touching
   nothing; resuming finishes the run with every row once and removes the
   .partial. */
static int test_interrupt_saves_and_resumes(void) {
    const char *state = "build/test_interrupt.tmp.state", *csv = "build/test_interrupt.tmp.csv";
    s2r_training t = s2r_training_default(S2R_ROBOT_UR5E, S2R_TASK_REACH);
    s2r_ppo_config c = s2r_task_ppo_config(S2R_TASK_REACH, 3 * 1024, 3, 1);
    s2r_ppo ppo;
    char error[S2R_ERROR_LEN], line[512];
    int obs_dim, act_dim, rows = 0;
    FILE* f;
    remove(state);
    remove(csv);
    c.rollout_steps = 1024;
    c.num_minibatches = 8;
    s2r_task_dims(S2R_TASK_REACH, S2R_ROBOT_UR5E, &obs_dim, &act_dim);
    t.progress = 0;
    t.csv_path = csv;
    t.state_path = state;
    CHECK(s2r_ppo_init(&ppo, &c, obs_dim, act_dim) == S2R_OK);
    s2r_interrupt_catch();
    raise(SIGINT);                               /* caught: only a flag */
    CHECK(s2r_interrupt_requested());
    CHECK(s2r_train(&t, &ppo, error) == S2R_ERR_INTERRUPTED);
    CHECKF(strstr(error, "update 1 of 3") && strstr(error, state), "%s", error);
    CHECK(harden_file_exists(state) && !harden_file_exists(csv) && harden_file_exists("build/test_interrupt.tmp.csv.partial"));
    f = fopen("build/test_interrupt.tmp.csv.partial", "r");
    CHECK(f != NULL);
    while (fgets(line, sizeof line, f)) rows++;
    fclose(f);
    CHECKF(rows == 2, "%d lines in the partial CSV", rows);   /* header + update 1 */
    rows = 0;
    signal(SIGINT, SIG_DFL);
    s2r_ppo_free(&ppo);
    s2r_interrupt_catch();                       /* clears the flag */
    CHECK(!s2r_interrupt_requested());
    CHECK(s2r_ppo_init(&ppo, &c, obs_dim, act_dim) == S2R_OK);
    t.resume = 1;
    t.randomization = s2r_randomization_default();   /* another run's state: refused, nothing touched */
    CHECK(s2r_train(&t, &ppo, error) == S2R_ERR_INVALID_ARGUMENT);
    CHECKF(strstr(error, "randomization") != NULL, "%s", error);
    CHECK(ppo.update == 0 && harden_file_exists("build/test_interrupt.tmp.csv.partial"));
    t.randomization = s2r_randomization_none();
    CHECKF(s2r_train(&t, &ppo, error) == S2R_OK, "%s", error);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    CHECK(ppo.update == 3 && harden_file_exists(csv) && !harden_file_exists("build/test_interrupt.tmp.csv.partial"));
    f = fopen(csv, "r");
    CHECK(f != NULL);
    while (fgets(line, sizeof line, f)) rows++;
    fclose(f);
    CHECKF(rows == 4, "%d lines", rows);         /* header + updates 1, 2, 3 */
    s2r_ppo_free(&ppo);
    remove(state);
    remove(csv);
    return 0;
}

/* --- physics divergence ------------------------------------------------------ */

/* Randomized servos far too stiff for the time step (kp x 1000 with the
   torque limit lifted, kv x 0.001) blow the simulation up: those episodes
   end with the flag, are counted, the policy never sees NaN and the update
   stays finite. */
static int test_divergence_counted_never_fed(void) {
    s2r_sim sims[4];
    s2r_reach reaches[4];
    s2r_env envs[4];
    s2r_sim_config sc = s2r_sim_config_default(S2R_ROBOT_UR5E);
    s2r_reach_config rc = s2r_reach_config_default();
    s2r_ppo_config c = s2r_task_ppo_config(S2R_TASK_REACH, 1024, 9, 1);
    s2r_ppo ppo;
    s2r_ppo_stats st;
    int e, obs_dim, act_dim;
    sc.randomization.p[S2R_PARAM_KP].enabled = 1;
    sc.randomization.p[S2R_PARAM_KP].mode = S2R_APPLY_SCALE;
    sc.randomization.p[S2R_PARAM_KP].dist = s2r_dist_uniform(1, 1000);
    sc.randomization.p[S2R_PARAM_KV].enabled = 1;
    sc.randomization.p[S2R_PARAM_KV].mode = S2R_APPLY_SCALE;
    sc.randomization.p[S2R_PARAM_KV].dist = s2r_dist_fixed(0.001);
    sc.randomization.p[S2R_PARAM_TORQUE_LIMIT].enabled = 1;
    sc.randomization.p[S2R_PARAM_TORQUE_LIMIT].mode = S2R_APPLY_SCALE;
    sc.randomization.p[S2R_PARAM_TORQUE_LIMIT].dist = s2r_dist_fixed(1000);
    c.num_envs = 4;
    c.rollout_steps = 1024;
    c.num_minibatches = 4;
    for (e = 0; e < 4; e++) {
        CHECK(s2r_sim_init(&sims[e], &sc) == S2R_OK);
        CHECK(s2r_reach_init(&reaches[e], &rc, s2r_sim_backend(&sims[e])) == S2R_OK);
        envs[e] = s2r_reach_env(&reaches[e]);
    }
    s2r_task_dims(S2R_TASK_REACH, S2R_ROBOT_UR5E, &obs_dim, &act_dim);
    CHECK(s2r_ppo_init(&ppo, &c, obs_dim, act_dim) == S2R_OK);
    CHECKF(s2r_ppo_iterate(&ppo, envs, &st) == S2R_OK, "%s", ppo.error);
    CHECKF(st.diverged > 0 && st.diverged <= st.episodes, "diverged %d of %d", st.diverged, st.episodes);
    CHECK(st.skipped == 0);
    CHECK(s2r_all_finite_f(ppo.obs, ppo.batch_size * obs_dim));
    CHECK(s2r_all_finite_f(ppo.policy.params, ppo.policy.num_params));
    CHECK(s2r_all_finite_f(ppo.rewards, ppo.batch_size));
    s2r_ppo_free(&ppo);
    for (e = 0; e < 4; e++) { s2r_reach_free(&reaches[e]); s2r_sim_free(&sims[e]); }
    return 0;
}

/* MuJoCo's own alarm: a velocity past mjMAXVAL makes it warn and silently
   reset the state to the start pose; the simulator must call that a
   blow-up, not a motion that ended at home. */
static void harden_kick(void* context, s2r_sim* sim) {
    (void)context;
    if (sim->time > 0.1) sim->robot.data->qvel[0] = 1e11;
}

static int harden_warnings;
static void harden_count_warning(const char* msg) { (void)msg; harden_warnings++; }

static int test_mujoco_warning_is_divergence(void) {
    s2r_sim sim;
    s2r_sim_config sc = s2r_sim_config_default(S2R_ROBOT_PANDA);
    s2r_ground_truth gt;
    const s2r_backend* b;
    void (*saved)(const char*) = mju_user_warning;
    mju_user_warning = harden_count_warning;   /* instead of MUJOCO_LOG.TXT */
    CHECK(s2r_sim_init(&sim, &sc) == S2R_OK);
    b = s2r_sim_backend(&sim);
    sim.effects = harden_kick;
    CHECK(s2r_backend_reset(b, NULL, NULL, NULL) == S2R_OK);
    CHECK(s2r_backend_advance(b, 0.05) == S2R_OK);
    CHECK(s2r_backend_advance(b, 0.2) == S2R_ERR_DIVERGED && harden_warnings == 1);
    CHECK(s2r_backend_ground_truth(b, &gt) == S2R_OK && gt.diverged);
    CHECK(s2r_backend_advance(b, 0.01) == S2R_ERR_DIVERGED);   /* until reset */
    sim.effects = NULL;
    CHECK(s2r_backend_reset(b, NULL, NULL, NULL) == S2R_OK && s2r_backend_advance(b, 0.2) == S2R_OK);
    s2r_sim_free(&sim);
    mju_user_warning = saved;
    return 0;
}

/* --- bad inputs not covered elsewhere ---------------------------------------- */

/* Zero episodes, zero demonstrations, zero training steps: errors that say
   so, nothing run. */
static int test_zero_episodes_refused(void) {
    s2r_sim sim;
    s2r_sim_config sc = s2r_sim_config_default(S2R_ROBOT_UR5E);
    s2r_task reach;
    s2r_task_config rc = s2r_task_config_default(S2R_TASK_REACH);
    s2r_expert expert;
    s2r_expert_config ec = s2r_expert_config_default();
    s2r_controller ctl;
    s2r_eval_result r;
    s2r_ppo ppo;
    s2r_ppo_config pc = s2r_task_ppo_config(S2R_TASK_REACH, 0, 1, 1);
    int obs_dim, act_dim;
    CHECK(s2r_sim_init(&sim, &sc) == S2R_OK);
    CHECK(s2r_task_init(&reach, &rc, s2r_sim_backend(&sim)) == S2R_OK);
    CHECK(s2r_expert_init(&expert, &ec, &rc, sim.backend.info) == S2R_OK);
    ctl = s2r_expert_controller(&expert);
    CHECK(s2r_evaluate(&ctl, &reach, 0, 1, &r, NULL) == S2R_ERR_INVALID_ARGUMENT && strstr(reach.error, "episode"));
    s2r_task_dims(S2R_TASK_REACH, S2R_ROBOT_UR5E, &obs_dim, &act_dim);
    CHECK(s2r_ppo_init(&ppo, &pc, obs_dim, act_dim) == S2R_ERR_INVALID_ARGUMENT && ppo.error[0]);
    s2r_expert_free(&expert);
    s2r_task_free(&reach);
    s2r_sim_free(&sim);
    return 0;
}

/* Zero latency is exact (the command acts in the next physics step); a
   latency longer than the delay line holds is refused at init. */
static int test_zero_and_huge_latency(void) {
    s2r_sim sim;
    s2r_sim_config sc = s2r_sim_config_default(S2R_ROBOT_UR5E);
    sc.randomization.p[S2R_PARAM_ACTION_LATENCY].enabled = 1;
    sc.randomization.p[S2R_PARAM_ACTION_LATENCY].mode = S2R_APPLY_ABSOLUTE;
    sc.randomization.p[S2R_PARAM_ACTION_LATENCY].dist = s2r_dist_fixed(0);
    CHECK(s2r_sim_init(&sim, &sc) == S2R_OK);
    CHECK(s2r_backend_reset(s2r_sim_backend(&sim), NULL, NULL, NULL) == S2R_OK);
    s2r_sim_free(&sim);
    sc.randomization.p[S2R_PARAM_ACTION_LATENCY].dist = s2r_dist_fixed(1e6);
    CHECK(s2r_sim_init(&sim, &sc) != S2R_OK && sim.error[0]);
    return 0;
}

/* Inputs MuJoCo 2.2.2 would answer by ending the process ("Press Enter to
   exit") or with a singular model are refused before it sees them: an
   empty MJCF, a payload past S2R_PAYLOAD_MAX. */
static int test_mujoco_fatal_inputs_refused(void) {
    s2r_robot r;
    s2r_randomization rz = s2r_randomization_none();
    char error[S2R_ERROR_LEN];
    CHECK(s2r_robot_load_xml(&r, "") == S2R_ERR_MODEL);
    CHECKF(strstr(r.error, "empty") != NULL, "%s", r.error);
    CHECK(s2r_randomization_parse(&rz, "payload fixed 1e18\n", error) != S2R_OK);
    CHECKF(strstr(error, "payload") != NULL, "%s", error);
    CHECK(!rz.p[S2R_PARAM_PAYLOAD].enabled);
    CHECK(s2r_randomization_parse(&rz, "payload uniform 0 100\n", error) == S2R_OK);
    return 0;
}

/* MuJoCo's fatal errors come back as errors: an mju_error inside a
   library call into MuJoCo (a load, a reset, a physics step all run
   through s2r__mj_run) returns S2R_ERR_MODEL with its message, also from
   inside another guard; a model whose stack is far too small
   (<size nstack>) is refused with MuJoCo's message. */
static void raise_mujoco_error(void* arg) { (void)arg; mju_error("the test's own fatal error"); }
static void nested_mujoco_error(void* arg) {
    char inner[S2R_ERROR_LEN];
    *(s2r_result*)arg = s2r__mj_run(raise_mujoco_error, NULL, inner);
    mju_error("raised after the inner guard returned");
}
static int test_mujoco_errors_come_back(void) {
    char error[S2R_ERROR_LEN], *xml;
    s2r_result inner = S2R_OK, res;
    s2r_robot r;
    size_t n = s2r_robot_scene_mjcf(S2R_ROBOT_UR5E, S2R_SCENE_ARM, NULL, 0);
    const char* at;
    CHECK(s2r__mj_run(raise_mujoco_error, NULL, error) == S2R_ERR_MODEL);
    CHECKF(strstr(error, "the test's own fatal error") != NULL, "%s", error);
    CHECK(s2r__mj_run(nested_mujoco_error, &inner, error) == S2R_ERR_MODEL && inner == S2R_ERR_MODEL);
    CHECKF(strstr(error, "after the inner guard") != NULL, "%s", error);
    xml = (char*)malloc(n + 64);
    CHECK(xml != NULL);
    s2r_robot_scene_mjcf(S2R_ROBOT_UR5E, S2R_SCENE_ARM, xml, n + 1);
    at = strstr(xml, "<option");
    CHECK(at != NULL);
    memmove(xml + (at - xml) + 21, at, strlen(at) + 1);
    memcpy(xml + (at - xml), "<size nstack='50'/>\n ", 21);
    res = s2r_robot_load_xml(&r, xml);
    CHECKF(res == S2R_ERR_MODEL && strstr(r.error, "Stack overflow") != NULL, "%s: %s", s2r_result_string(res), r.error);
    free(xml);
    return 0;
}

/* File readers refuse what is not a file before reading it, naming the
   path: a directory where a checkpoint or a ranges file is expected, a
   FIFO where a training state is (opening it would wait forever); a
   ranges file with a NUL byte is not text.  Output files go through a
   temporary name unique to the process, so none is left behind. */
static int test_file_readers_refuse_non_files(void) {
    s2r_policy p;
    s2r_randomization r = s2r_randomization_none();
    char error[S2R_ERROR_LEN];
    FILE* f;
    CHECK(s2r_policy_from_checkpoint(&p, "build", error) == S2R_ERR_IO);
    CHECKF(strstr(error, "build") && strstr(error, "directory"), "%s", error);
    CHECK(s2r_randomization_load(&r, "build", error) != S2R_OK);
    CHECKF(strstr(error, "directory") != NULL, "%s", error);
    f = fopen("build/test_nul.tmp.txt", "wb");
    CHECK(f != NULL);
    fwrite("kp uniform 0.9 1.1\n\0payload fixed 1e18\n", 1, 40, f);
    fclose(f);
    CHECK(s2r_randomization_parse(&r, "kp uniform 0.9 1.1\nk\033[2Jp uniform 0 1\n", error) == S2R_ERR_PARSE);
    CHECKF(strchr(error, '\033') == NULL && strstr(error, "k?[2Jp") != NULL, "%s", error);   /* no terminal escapes echoed */
    CHECK(s2r_randomization_load(&r, "build/test_nul.tmp.txt", error) == S2R_ERR_PARSE);
    CHECKF(strstr(error, "NUL byte at offset 19") != NULL, "%s", error);
    remove("build/test_nul.tmp.txt");
#if defined(__unix__)
    {   /* a FIFO where each reader expects a file: refused by its path before open() would wait for a writer
           (alarm: a reader that blocks ends the suite with SIGALRM instead of hanging it) */
        const char* fifo = "build/test_fifo.tmp";
        const char* paths[1];
        s2r_ppo ppo;
        s2r_ppo_config c = s2r_task_ppo_config(S2R_TASK_REACH, 3 * 1024, 3, 1);
        s2r_training t = s2r_training_default(S2R_ROBOT_UR5E, S2R_TASK_REACH);
        s2r_trajectory_set set;
        s2r_robot robot;
        int obs_dim, act_dim;
        paths[0] = fifo;
        remove(fifo);
        CHECK(mkfifo(fifo, 0600) == 0);
        alarm(60);
        s2r_task_dims(S2R_TASK_REACH, S2R_ROBOT_UR5E, &obs_dim, &act_dim);
        c.rollout_steps = 1024;
        CHECK(s2r_ppo_init(&ppo, &c, obs_dim, act_dim) == S2R_OK);
        CHECK(s2r_ppo_load_state(&ppo, fifo) == S2R_ERR_IO);
        CHECKF(strstr(ppo.error, "not a regular file") != NULL, "%s", ppo.error);
        t.progress = 0;
        t.state_path = fifo;
        t.resume = 1;   /* --resume with a FIFO as the training state */
        CHECK(s2r_train(&t, &ppo, error) == S2R_ERR_IO && ppo.update == 0);
        CHECKF(strstr(error, fifo) && strstr(error, "not a regular file"), "%s", error);
        s2r_ppo_free(&ppo);
        CHECK(s2r_policy_from_checkpoint(&p, fifo, error) == S2R_ERR_IO && strstr(error, "not a regular file"));
        CHECK(s2r_randomization_load(&r, fifo, error) == S2R_ERR_IO && strstr(error, "not a regular file"));
        CHECK(s2r_trajectory_set_load_csv(&set, paths, 1, 0.01, error) == S2R_ERR_IO && strstr(error, "not a regular file"));
        CHECK(s2r_robot_load_file(&robot, fifo) == S2R_ERR_IO);
        CHECKF(strstr(robot.error, fifo) && strstr(robot.error, "not a regular file"), "%s", robot.error);
        alarm(0);
        remove(fifo);
    }
#endif
    {
        s2r_file a, b;
        CHECK(s2r_file_create(&a, "build/test_unique.tmp.txt", error) == S2R_OK);
        CHECK(s2r_file_create(&b, "build/test_unique.tmp.txt", error) == S2R_OK);
        CHECK(strcmp(a.tmp, b.tmp) != 0);
        fputs("a\n", a.f);
        fputs("b\n", b.f);
        CHECK(s2r_file_commit(&a, error) == S2R_OK && s2r_file_commit(&b, error) == S2R_OK);
        f = fopen("build/test_unique.tmp.txt", "r");
        CHECK(f != NULL && fgetc(f) == 'b' && fgetc(f) == '\n' && fgetc(f) == EOF);   /* the last whole, not spliced */
        fclose(f);
        remove("build/test_unique.tmp.txt");
    }
    return 0;
}

#if defined(__unix__) && defined(__GLIBC__) && !defined(__USE_XOPEN2K) && !defined(__USE_XOPEN_EXTENDED)
int symlink(const char* target, const char* link);   /* POSIX; glibc declares it under a feature macro only */
#endif

/* 1 when `path` (not following a link) is a `type`: 'p' FIFO, 'l' link, 'c' character device. */
static int is_of_type(const char* path, char type) {
#if defined(__unix__)
    struct stat st;
    if (lstat(path, &st) != 0) return 0;
    return type == 'p' ? S_ISFIFO(st.st_mode) : type == 'l' ? S_ISLNK(st.st_mode) : S_ISCHR(st.st_mode);
#else
    (void)path; (void)type;
    return 1;
#endif
}

/* Every writer goes through s2r_file_create / s2r_file_commit, which replace
   only a regular file: an empty path is refused, and a FIFO, a symbolic
   link, a device or a directory at the destination is refused naming it and
   what it is - left as it was, no .tmp beside it - whether it was there
   before the file was created or appeared before it was committed. */
static int test_file_writers_replace_only_files(void) {
    char error[S2R_ERROR_LEN];
    s2r_randomization r = s2r_randomization_default();
    s2r_file file;
    FILE* f;
    CHECK(s2r_file_create(&file, "", error) == S2R_ERR_INVALID_ARGUMENT && strstr(error, "empty path"));
    CHECK(file.f == NULL);
    CHECK(s2r_file_write_all("", "x", 1, error) == S2R_ERR_INVALID_ARGUMENT);
    CHECK(s2r_randomization_write(&r, "", error) == S2R_ERR_INVALID_ARGUMENT && strstr(error, "empty path"));
    CHECK(s2r_file_write_all("build", "x", 1, error) == S2R_ERR_IO);
    CHECKF(strstr(error, "'build' is a directory") != NULL, "%s", error);
#if defined(__unix__)
    {
        const char* fifo = "build/test_out_fifo.tmp";
        const char* link = "build/test_out_link.tmp";
        const char* target = "build/test_out_target.tmp";
        int c;
        remove(fifo);
        remove(link);
        CHECK(mkfifo(fifo, 0600) == 0);
        CHECK(s2r_file_write_all(fifo, "x", 1, error) == S2R_ERR_IO);
        CHECKF(strstr(error, fifo) && strstr(error, "a FIFO (named pipe), not a regular file"), "%s", error);
        CHECK(s2r_randomization_write(&r, fifo, error) == S2R_ERR_IO && strstr(error, "FIFO"));
        CHECK(s2r_file_create(&file, fifo, error) == S2R_ERR_IO && file.f == NULL && file.tmp[0] == 0);
        CHECK(is_of_type(fifo, 'p'));
        {   /* the deployment log, opened for appending, by the same rule: the FIFO's open would block */
            s2r_deploy d;
            s2r_deploy_config dc = s2r_deploy_config_default();
            alarm(60);
            CHECK(s2r_deploy_init(&d, &dc, "v1", fifo) == S2R_ERR_IO && d.log == NULL);
            CHECKF(strstr(d.error, fifo) && strstr(d.error, "a FIFO (named pipe), not a regular file"), "%s", d.error);
            alarm(0);
            CHECK(s2r_deploy_init(&d, &dc, "v1", "/dev/null") == S2R_ERR_IO && strstr(d.error, "character device"));
            CHECK(s2r_deploy_init(&d, &dc, "v1", "build") == S2R_ERR_IO && strstr(d.error, "a directory"));
            CHECK(s2r_deploy_init(&d, &dc, "v1", "") == S2R_ERR_INVALID_ARGUMENT && strstr(d.error, "empty path"));
            CHECK(symlink("test_out_target.tmp", link) == 0);
            dc.append_log = 1;
            CHECK(s2r_deploy_init(&d, &dc, "v1", link) == S2R_ERR_IO && strstr(d.error, "a symbolic link"));
            CHECK(is_of_type(link, 'l'));
            f = fopen(target, "rb");
            CHECKF(f == NULL, "%s was written through the link", target);
            if (f) fclose(f);
            remove(link);
            CHECK(s2r_deploy_init(&d, &dc, "v1", target) == S2R_OK && d.log != NULL);   /* a file: appended */
            s2r_deploy_free(&d);
            remove(target);
        }
        CHECK(is_of_type(fifo, 'p'));
        remove(fifo);
        CHECK(s2r_file_write_all(target, "kept", 4, error) == S2R_OK);
        CHECK(symlink("test_out_target.tmp", link) == 0);
        CHECK(s2r_randomization_write(&r, link, error) == S2R_ERR_IO);
        CHECKF(strstr(error, link) && strstr(error, "a symbolic link"), "%s", error);
        CHECK(is_of_type(link, 'l'));
        f = fopen(target, "rb");   /* neither the link nor the file it names was written */
        CHECK(f != NULL && fgetc(f) == 'k');
        fclose(f);
        remove(link);
        /* a device: refused at create, so commit (which would rename over it as root) is never reached */
        c = s2r_file_create(&file, "/dev/null", error);
        if (c == S2R_OK) s2r_file_discard(&file);
        CHECKF(c == S2R_ERR_IO && strstr(error, "'/dev/null' is a character device"), "%d %s", c, error);
        CHECK(is_of_type("/dev/null", 'c'));
        /* appeared between create and commit: the .tmp removed, the FIFO left */
        CHECK(s2r_file_create(&file, fifo, error) == S2R_OK);
        fputs("x\n", file.f);
        CHECK(mkfifo(fifo, 0600) == 0);
        CHECK(s2r_file_commit(&file, error) == S2R_ERR_IO && strstr(error, "FIFO"));
        CHECK(is_of_type(fifo, 'p'));
        f = fopen(file.tmp, "rb");
        CHECKF(f == NULL, "%s left behind", file.tmp);
        remove(fifo);
        CHECK(s2r_file_write_all(target, "new", 3, error) == S2R_OK);   /* a regular file is replaced */
        f = fopen(target, "rb");
        CHECK(f != NULL && fgetc(f) == 'n');
        fclose(f);
        remove(target);
    }
#endif
    return 0;
}

/* A 3 GB file (sparse: nothing is written) where a checkpoint, a ranges
   file, a trajectory log or a demonstration file is expected: each reader
   refuses it by its size before reading a byte, naming the path. */
/* (A log says how to cut or thin it to what the fit reads.) */
static int test_huge_files_refused_unread(void) {
    const char* path = "build/test_huge.tmp";
    const char* paths[1];
    s2r_policy p;
    s2r_randomization r;
    s2r_trajectory_set set;
    char error[S2R_ERROR_LEN];
    FILE* f = fopen(path, "wb");
    CHECK(f != NULL);
    CHECK(fseek(f, 3L << 30, SEEK_SET) == 0 && fputc('\n', f) != EOF);
    fclose(f);
    paths[0] = path;
    CHECK(s2r_policy_from_checkpoint(&p, path, error) == S2R_ERR_IO);
    CHECKF(strstr(error, path) && strstr(error, "bytes"), "%s", error);
    CHECK(s2r_randomization_load(&r, path, error) == S2R_ERR_IO);
    CHECKF(strstr(error, path) && strstr(error, "bytes"), "%s", error);
    CHECK(s2r_trajectory_set_load_csv(&set, paths, 1, 0.02, error) == S2R_ERR_IO && set.q == NULL);
    CHECKF(strstr(error, path) && strstr(error, "bytes") && strstr(error, "its first 30 s: cut it there (at 1 kHz: head -n 30010)") &&
           strstr(error, "n++%10==0' build/test_huge.tmp > thin.csv"), "%s", error);   /* the way on, whole */
    remove(path);
    return 0;
}

/* Numbers that size memory or loops have physical bounds: an advance past
   S2R_ADVANCE_MAX, a drawn timestep beyond half to twice the model's, an
   infinite max_delta, PPO's update count past 1e9, a NaN joint range or an
   inverted workspace in an MJCF, a start pose outside the joint limits -
   each refused with a message, nothing changed. */
/* `text` (from malloc, freed) with its first `find` replaced; NULL if
   there is none. */
static char* text_with(char* text, const char* find, const char* replace) {
    char *xml = text ? (char*)realloc(text, strlen(text) + strlen(replace) + 1) : NULL, *at;
    if (!xml) { free(text); return NULL; }
    if (!(at = strstr(xml, find))) { free(xml); return NULL; }
    memmove(at + strlen(replace), at + strlen(find), strlen(at + strlen(find)) + 1);
    memcpy(at, replace, strlen(replace));
    return xml;
}

/* The UR5e's MJCF with the first `find` replaced. */
static char* mjcf_with(const char* find, const char* replace) {
    size_t n = s2r_robot_scene_mjcf(S2R_ROBOT_UR5E, S2R_SCENE_ARM, NULL, 0);
    char* xml = (char*)malloc(n + 1);
    if (xml) s2r_robot_scene_mjcf(S2R_ROBOT_UR5E, S2R_SCENE_ARM, xml, n + 1);
    return text_with(xml, find, replace);
}
static int test_numbers_have_bounds(void) {
    s2r_sim sim;
    s2r_sim_config c = s2r_sim_config_default(S2R_ROBOT_UR5E);
    s2r_randomization r = s2r_randomization_none();
    s2r_robot robot;
    s2r_ppo ppo;
    s2r_ppo_config pc = s2r_ppo_config_default();
    s2r_reach reach;
    s2r_reach_config rc = s2r_reach_config_default();
    double q[S2R_MAX_JOINTS], t0;
    char* xml;
    CHECK(s2r_sim_init(&sim, &c) == S2R_OK && s2r_backend_reset(&sim.backend, NULL, NULL, NULL) == S2R_OK);
    t0 = sim.time;
    CHECK(s2r_backend_advance(&sim.backend, 1e12) == S2R_ERR_INVALID_ARGUMENT && sim.time == t0);
    CHECKF(strstr(sim.error, "3600") != NULL, "%s", sim.error);
    r.p[S2R_PARAM_TIMESTEP].enabled = 1;
    r.p[S2R_PARAM_TIMESTEP].dist = s2r_dist_fixed(50);
    CHECK(s2r_sim_set_randomization(&sim, &r) == S2R_ERR_INVALID_ARGUMENT);
    CHECKF(strstr(sim.error, "timestep") != NULL, "%s", sim.error);
    r.p[S2R_PARAM_TIMESTEP].dist = s2r_dist_fixed(1e-6);
    CHECK(s2r_sim_set_randomization(&sim, &r) == S2R_ERR_INVALID_ARGUMENT);
    r.p[S2R_PARAM_TIMESTEP].dist = s2r_dist_uniform(0.97, 1.03);
    CHECK(s2r_sim_set_randomization(&sim, &r) == S2R_OK);
    memcpy(q, sim.robot.info.q_home, sizeof q);
    q[1] = sim.robot.info.q_max[1] + 0.5;
    CHECK(s2r_backend_reset(&sim.backend, q, NULL, NULL) == S2R_ERR_INVALID_ARGUMENT);
    CHECKF(strstr(sim.error, "outside") != NULL, "%s", sim.error);
    rc.max_delta = INFINITY;
    CHECK(s2r_reach_init(&reach, &rc, &sim.backend) == S2R_ERR_INVALID_ARGUMENT);
    s2r_sim_free(&sim);
    pc.total_steps = 4000LL * 2147483647LL;
    pc.rollout_steps = 4000;
    CHECK(s2r_ppo_init(&ppo, &pc, 3, 1) == S2R_ERR_INVALID_ARGUMENT);
    CHECKF(strstr(ppo.error, "1e9") != NULL, "%s", ppo.error);
    xml = mjcf_with("range='-6.2832 6.2832'", "range='nan 1'");
    CHECK(xml != NULL);
    CHECK(s2r_robot_load_xml(&robot, xml) == S2R_ERR_MODEL);
    CHECKF(strstr(robot.error, "range") != NULL, "%s", robot.error);
    free(xml);
    xml = mjcf_with("data='-0.30 0.35 0.25 0.05 0.60 0.50'", "data='0.30 0.35 0.25 -0.05 0.60 0.50'");
    CHECK(xml != NULL);
    CHECK(s2r_robot_load_xml(&robot, xml) == S2R_ERR_MODEL);
    CHECKF(strstr(robot.error, "s2r_workspace") != NULL, "%s", robot.error);
    free(xml);
    return 0;
}

/* A log of the UR5e at home for 1 s at 50 Hz, columns t, command_J, q_J
   for `joints` joints (J from 1), after `prefix`; when `bad_row` is 0 the
   q of joint index `bad_joint` (from 0) is `bad` in every row (the start
   pose and on), when it is > 0 that row's command of that joint, when it
   is -2 or less the q of row -bad_row alone. */
static void harden_log(char* text, size_t cap, const char* prefix, int joints, int bad_row, int bad_joint, double bad) {
    static const double home[6] = {-1.5708, -1.5708, 1.5708, -1.5708, -1.5708, 0};
    size_t at = (size_t)snprintf(text, cap, "%st", prefix);
    int k, j;
    for (j = 1; j <= joints; j++) at += (size_t)snprintf(text + at, cap - at, ",command_%d", j);
    for (j = 1; j <= joints; j++) at += (size_t)snprintf(text + at, cap - at, ",q_%d", j);
    for (k = 0; k <= 50; k++) {
        at += (size_t)snprintf(text + at, cap - at, "\n%.2f", k * 0.02);
        for (j = 0; j < joints; j++) at += (size_t)snprintf(text + at, cap - at, ",%.17g", k == bad_row && j == bad_joint && k > 0 ? bad : home[j]);
        for (j = 0; j < joints; j++)
            at += (size_t)snprintf(text + at, cap - at, ",%.17g", (bad_row == 0 || (bad_row <= -2 && bad_row == -k)) && j == bad_joint ? bad : home[j]);
    }
    snprintf(text + at, cap - at, "\n");
}

/* Logs meet the arm they are identified on: a 5-joint log on the UR5e, a
   start pose outside a joint's range and commands of 1e300 rad named
   neither file nor line, or were taken (a reading of 1e300 rad: "the
   simulation diverges at the start values: " and nothing after it) (the report then said "validation
   MSE nan"); each is refused naming the file and the line (the start
   pose's, or the command's row).
   A log behind a UTF-8 byte order mark reads (it gave "unknown column
   't'"), and a report without held-out logs says so instead of "nan". */
static int test_logs_meet_the_arm(void) {
    static const struct { int joints, row, joint; double value; const char* says; } bad[] = {
        {5, -1, 0, 0, "log.csv: the trajectories have 5 joints (command_J, q_J), the arm 6"},
        {6, 0, 2, 4, "log.csv, line 2: start pose q_3 = 4 rad is outside the joint's range [-3.1416, 3.1416] (a log of another arm"},
        {6, 26, 1, 1e300, "log.csv, line 28: command_2 = 1e+300 rad at t = 0.52 s is outside the joint's range"},
        {6, 10, 3, -90, "log.csv, line 12: command_4 = -90 rad at t = 0.2 s is outside the joint's range [-6.2832, 6.2832] - in degrees? the log's angles must be in radians"},
        {6, 0, 2, 109.957, "start pose q_3 = 109.957 rad is outside the joint's range [-3.1416, 3.1416] - in degrees?"},
        {6, -30, 2, 1e300, "log.csv, line 32: q_3 = 1e+300 rad is more than a quarter turn outside the joint's range"},
    };
    static char text[65536];
    s2r_sim_config model = s2r_sim_config_default(S2R_ROBOT_UR5E);
    s2r_sysid_config cfg = s2r_sysid_config_default();
    s2r_sysid id;
    s2r_trajectory_set set;
    double values[S2R_SYSID_MAX_PARAMS], loss;
    char e[S2R_ERROR_LEN];
    int k, i;
    CHECKF(s2r_sysid_init(&id, &cfg, &model) == S2R_OK, "%s", id.error);
    for (i = 0; i < cfg.n_params; i++) values[i] = s2r_clamp(cfg.param[i].param == S2R_PARAM_KP || cfg.param[i].param == S2R_PARAM_KV ? 1 : cfg.param[i].lo, cfg.param[i].lo, cfg.param[i].hi);
    for (k = 0; k < (int)(sizeof bad / sizeof *bad); k++) {
        harden_log(text, sizeof text, "", bad[k].joints, bad[k].row, bad[k].joint, bad[k].value);
        CHECKF(s2r_trajectory_set_parse_csv(&set, text, "log.csv", 0.02, e) == S2R_OK, "case %d: %s", k, e);
        CHECKF(s2r_sysid_loss(&id, values, &set, &loss) == S2R_ERR_INVALID_ARGUMENT && strstr(id.error, bad[k].says) != NULL,
               "case %d: %s", k, id.error);
        s2r_trajectory_set_free(&set);
    }
    harden_log(text, sizeof text, "\xEF\xBB\xBF# a spreadsheet's export\n", 6, -1, 0, 0);
    CHECKF(s2r_trajectory_set_parse_csv(&set, text, "log.csv", 0.02, e) == S2R_OK, "%s", e);
    CHECKF(s2r_sysid_loss(&id, values, &set, &loss) == S2R_OK && isfinite(loss), "%s", id.error);
    CHECK(set.source != NULL && set.source[0].line == 3 && strcmp(set.source[0].file, "log.csv") == 0);
    s2r_trajectory_set_free(&set);
    s2r_sysid_free(&id);
    return 0;
}

/* An MJCF that half follows the conventions is refused at load naming
   what it breaks; each of these loaded and ran on defaults or on a wrong
   arm: a 1-value s2r_velocity_limit, a 2-value s2r_workspace, a home
   keyframe outside a joint's range, two actuators on one joint (leaving
   another undriven), joints no actuator drives, a 1e30 kg link; and what
   third-party models bring: a misspelt s2r_velocity_limit (the default
   was used), a floating base (a free joint carrying the arm, taken for
   an object's), a second arm beside the first, an actuator without a
   forcerange, a gripper's actuator listed before the arm's, a body
   'target' that is not a mocap body, integrator RK4.  Each message leaves
   room in S2R_ERROR_LEN for a caller's prefix of 200 bytes (a path), and
   the advice at the end of the longest arrives whole. */
static int test_mjcf_conventions_refused(void) {
    static const struct { const char *find, *replace, *says; } bad[] = {
        {"data='3.1416 3.1416 3.1416 3.1416 3.1416 3.1416'", "data='3.1416'", "'s2r_velocity_limit'> holds 1 values; it needs 6"},
        {"data='-0.30 0.35 0.25 0.05 0.60 0.50'", "data='-0.30 0.35'", "'s2r_workspace'> holds 2 values; it needs 6"},
        {"qpos='-1.5708 -1.5708 1.5708 -1.5708 -1.5708 0'", "qpos='-1.5708 -1.5708 4 -1.5708 -1.5708 0'",
         "keyframe 'home': joint 'elbow' at 4 rad is outside its range"},
        {"joint='wrist_3' class='small'", "joint='wrist_2' class='small'", "both drive joint 'wrist_2'"},
        {"<joint name='wrist_3'/>", "<joint name='wrist_3'/><joint name='spare' axis='1 0 0'/>",
         "joint 'spare' is driven by no actuator"},   /* (the keyframe gets the 7th joint too, below) */
        {"<inertial mass='2.275' pos='0 0 0.196' diaginertia='0.0311796 0.0311796 0.004095'",
         "<inertial mass='1e30' pos='0 0 0.196' diaginertia='1e28 1e28 1e28'", "body 'forearm_link' has a mass of 1e+30 kg; at most 1000 kg"},
        {"name='s2r_velocity_limit'", "name='s2r_velocity_limits'", "<numeric name='s2r_velocity_limits'> is not a field the library reads"},
        {"<body name='base' quat='0 0 0 -1'>", "<body name='base' quat='0 0 0 -1'><freejoint name='float'/>",
         "joint 'float' is a free joint carrying the arm (a floating base)"},
        {"<body name='target' mocap='true' pos='0 0.5 0.4'>", "<body name='second' pos='1 0 0'><inertial pos='0 0 0' mass='1' "
         "diaginertia='0.01 0.01 0.01'/><joint name='second_pan' axis='0 0 1' range='-1 1'/></body><body name='target' "
         "mocap='true' pos='0 0.5 0.4'>", "joint 'second_pan' (actuator 'second_pan') is not on the chain of joint 'wrist_3'"},
        {"<general gainprm='500' biasprm='0 -500 -100' forcerange='-28 28'/>", "<general gainprm='500' biasprm='0 -500 -100'/>",
         "actuator 'wrist_1' (joint 'wrist_1') has no forcerange"},
        {"<actuator>", "<actuator><motor name='tool' joint='wrist_3' gear='1'/>",
         "actuator 'tool' is not an arm joint's position servo (a gripper's?) and comes before the arm's servo 'shoulder_pan'"},
        {"<body name='target' mocap='true'", "<body name='target'", "body 'target' is not a mocap body"},
        {"integrator='Euler'", "integrator='RK4'", "<option integrator='RK4'>"},
        {"<actuator>", "<equality><joint joint1='wrist_1' joint2='wrist_3'/></equality><actuator>",
         "<equality> #1 (unnamed) ties arm joint 'wrist_1'"},   /* two arm joints coupled: accepted silently before */
        {"<actuator>", "<equality><weld name='held' body1='wrist_3_link'/></equality><actuator>",
         "<equality> 'held' ties arm joint 'shoulder_pan'"},   /* the wrist welded to the world: every joint on the way */
        {"joint='wrist_3' class='small'", "joint='wrist_3' class='small' gear='2'",
         "actuator 'wrist_3' (joint 'wrist_3') has gear 2: the library commands joint angles (rad) through gear 1 - write "
         "the same servo at the joint: gear='1' gainprm='2000' biasprm='0 -2000 -400' forcerange='-56 56'"},
    };
    static const char* const whole[][2] = {   /* messages once cut at 256 bytes just where the fix is */
        {"is driven by no actuator", "or moved by an actuator left out of the arm (a gripper's) or tied by an "
         "<equality> to such a joint - add its actuator or equality, or remove the joint"},
        {"ties arm joint", "remove the equality (a gripper's may tie only the gripper's joints)"},
        {"has gear", "(kp, kv x gear^2; torques x gear)"},
        {"is not on the chain of joint", "drive it through a tendon or a non-position actuator, or list it last"},
        {"has no forcerange", "on it or its <default> class"},
    };
    s2r_robot robot;
    int k, t;
    for (k = 0; k < (int)(sizeof bad / sizeof *bad); k++) {
        char* xml = mjcf_with(bad[k].find, bad[k].replace);
        if (strstr(bad[k].replace, "spare") || strstr(bad[k].replace, "second"))
            xml = text_with(xml, "-1.5708 0' ctrl", "-1.5708 0 0' ctrl");
        if (xml && (strstr(bad[k].replace, "second") || strstr(bad[k].replace, "'tool'")))
            xml = text_with(xml, "-1.5708 0'/>", "-1.5708 0 0'/>");
        if (xml && strstr(bad[k].replace, "'float'")) xml = text_with(xml, "qpos='", "qpos='0 0 0 1 0 0 0 ");
        if (xml && strstr(bad[k].replace, "second"))
            xml = text_with(xml, "</actuator>", "<general name='second_pan' joint='second_pan' class='small' ctrlrange='-1 1'/></actuator>");
        CHECKF(xml != NULL, "case %d: '%s' is not in the UR5e's MJCF", k, bad[k].find);
        CHECKF(s2r_robot_load_xml(&robot, xml) == S2R_ERR_MODEL && strstr(robot.error, bad[k].says) != NULL,
               "case %d: %s", k, robot.error);
        CHECKF(strlen(robot.error) + 200 < S2R_ERROR_LEN, "case %d: %d bytes leave no room for a caller's prefix (a "
               "path): %s", k, (int)strlen(robot.error), robot.error);
        for (t = 0; t < (int)(sizeof whole / sizeof *whole); t++)   /* the advice at their ends arrives */
            if (strstr(robot.error, whole[t][0]))
                CHECKF(strlen(robot.error) > strlen(whole[t][1]) &&
                       strcmp(robot.error + strlen(robot.error) - strlen(whole[t][1]), whole[t][1]) == 0,
                       "case %d: cut: %s", k, robot.error);
        CHECK(robot.model == NULL && robot.data == NULL);
        free(xml);
    }
    CHECKF(s2r_robot_load(&robot, S2R_ROBOT_PANDA) == S2R_OK, "%s", robot.error);   /* the built-in arms follow them */
    s2r_robot_free(&robot);
    CHECKF(s2r_robot_load_scene(&robot, S2R_ROBOT_UR5E, S2R_SCENE_PUSH) == S2R_OK, "%s", robot.error);
    s2r_robot_free(&robot);
    return 0;
}

/* A linkage gripper (a driver joint on its actuator, a follower and an
   inner knuckle closed into a four-bar by a <connect>, as Menagerie's
   xarm7 gripper is): the passive joints the equality ties to the driver
   are the gripper's, not the arm's - accepted and said (they were refused
   as "driven by no actuator", the fix cut off); the arm holds home.
   Without the connect the follower is refused, the message naming the
   fix whole. */
static int test_linkage_gripper_accepted(void) {
    static const char* const gripper =
        "<site name='flange' pos='0 0.1 0' size='0.01'/>"
        "<body name='knuckle' pos='0 0.12 0'><inertial mass='0.03' pos='0 0.02 0' diaginertia='1e-5 1e-5 1e-5'/>"
        "<joint name='driver' axis='1 0 0' range='0 0.8' damping='0.1'/>"
        "<body name='finger' pos='0 0.04 0'><inertial mass='0.03' pos='0 0.01 0' diaginertia='1e-5 1e-5 1e-5'/>"
        "<joint name='follower' axis='-1 0 0' range='-0.8 0.8'/></body></body>"
        "<body name='inner' pos='0 0.12 0.02'><inertial mass='0.02' pos='0 0.02 0' diaginertia='1e-5 1e-5 1e-5'/>"
        "<joint name='inner_knuckle' axis='1 0 0' range='-0.8 0.8'/></body>";
    const char* path = "build/test_linkage_gripper.xml";
    s2r_robot robot;
    s2r_sim sim;
    s2r_sim_config c = s2r_sim_config_default(S2R_ROBOT_CUSTOM);
    s2r_ground_truth truth;
    char* xml = mjcf_with("<site name='flange' pos='0 0.1 0' size='0.01'/>", gripper);
    FILE* f;
    int k;
    xml = text_with(xml, "<actuator>", "<equality><connect body1='finger' body2='inner' anchor='0 0.02 0.01'/></equality><actuator>");
    xml = text_with(xml, "</actuator>", "<motor name='grip' joint='driver' ctrlrange='-1 1'/></actuator>");
    xml = text_with(xml, "-1.5708 0' ctrl", "-1.5708 0 0 0 0' ctrl");
    xml = text_with(xml, "-1.5708 0'/>", "-1.5708 0 0'/>");
    xml = text_with(xml, "integrator='Euler'", "integrator='implicit'");   /* MuJoCo runs the servos (servo 0) */
    CHECK(xml != NULL);
    CHECKF(s2r_robot_load_xml(&robot, xml) == S2R_OK, "%s", robot.error);
    CHECK(robot.info.n_joints == 6);
    CHECKF(strstr(robot.info.notice, "joints 'follower', 'inner_knuckle' move with the gripper, tied by <equality> to its "
                                     "actuator's joints") != NULL, "notice: %s", robot.info.notice);
    s2r_robot_free(&robot);
    CHECK((f = fopen(path, "w")) != NULL);
    fputs(xml, f);
    fclose(f);
    c.mjcf_path = path;
    CHECKF(s2r_sim_init(&sim, &c) == S2R_OK, "%s", sim.error);
    CHECK(s2r_backend_reset(&sim.backend, NULL, NULL, NULL) == S2R_OK);
    CHECK(s2r_backend_advance(&sim.backend, 1.0) == S2R_OK && s2r_backend_ground_truth(&sim.backend, &truth) == S2R_OK);
    for (k = 0; k < 6; k++) CHECKF(fabs(truth.q[k] - sim.robot.info.q_home[k]) < 0.02, "joint %d at %g", k + 1, truth.q[k]);
    for (k = 0; k < sim.robot.model->nq; k++) CHECK(isfinite(sim.robot.data->qpos[k]));
    s2r_sim_free(&sim);
    xml = text_with(xml, "<equality><connect body1='finger' body2='inner' anchor='0 0.02 0.01'/></equality>", "");
    CHECK(xml != NULL);
    CHECK(s2r_robot_load_xml(&robot, xml) == S2R_ERR_MODEL);
    CHECKF(strstr(robot.error, "joint 'follower' is driven by no actuator") != NULL &&
           strstr(robot.error, "or tied by an <equality> to such a joint - add its actuator or equality, or remove the joint"),
           "%s", robot.error);
    free(xml);
    return 0;
}

/* A model written the way third-party arm models are (tests/models/
   arm6_gripper.xml: implicitfast, the servo damping in the joints, a
   gripper on a tendon, meshes, no target, no flange) loads with each
   inference said: implicitfast read as implicit, the target body and the
   flange added, the gripper left out of the arm (MuJoCo runs the
   actuators; the gripper holds its keyframe's control, open), the joint
   damping read as kv.  Its reach resets put the marker where asked (was:
   the origin), and it holds home within a few mrad.  The same model with
   a missing mesh names the whole path (was: cut at 256 bytes); with
   implicitfast in an included file it names the MuJoCo version and the
   edit. */
static int test_third_party_model_inferred(void) {
    static const char* const says[] = {"'implicitfast' (MuJoCo 2.3.3) read as 'implicit'", "no mocap body 'target': one was added",
        "the flange is the origin of body 'wrist_3_link'", "actuator 'gripper' left out of the arm",
        "keep the servo damping in <joint damping>"};
    s2r_sim sim;
    s2r_sim_config c = s2r_sim_config_default(S2R_ROBOT_CUSTOM);
    const double target[3] = {0.2, 0.1, 0.6};
    s2r_ground_truth truth;
    s2r_robot* r;
    char dir[200], path[600], e[S2R_ERROR_LEN];
    FILE* f;
    int k, finger;
    c.mjcf_path = "tests/models/arm6_gripper.xml";
    CHECKF(s2r_sim_init(&sim, &c) == S2R_OK, "%s", sim.error);
    r = &sim.robot;
    for (k = 0; k < (int)(sizeof says / sizeof *says); k++)
        CHECKF(strstr(r->info.notice, says[k]) != NULL, "'%s' not in: %s", says[k], r->info.notice);
    CHECK(r->info.n_joints == 6 && r->servo == 0 && r->model->opt.integrator == mjINT_IMPLICIT);
    CHECKF(fabs(r->info.kv[0] - 120) < 1e-9 && fabs(r->info.kv[5] - 20) < 1e-9 && r->model->dof_damping[r->dof_adr[0]] == 0,
           "kv %g %g", r->info.kv[0], r->info.kv[5]);
    CHECK(s2r_backend_reset(&sim.backend, NULL, target, NULL) == S2R_OK);
    CHECK(s2r_backend_advance(&sim.backend, 1.0) == S2R_OK && s2r_backend_ground_truth(&sim.backend, &truth) == S2R_OK);
    CHECKF(memcmp(truth.target, target, sizeof target) == 0, "target at %g %g %g", truth.target[0], truth.target[1], truth.target[2]);
    for (k = 0; k < 6; k++) CHECKF(fabs(truth.q[k] - r->info.q_home[k]) < 0.02, "joint %d at %g", k + 1, truth.q[k]);
    finger = mj_name2id(r->model, mjOBJ_JOINT, "finger_joint1");
    CHECKF(r->data->qpos[r->model->jnt_qposadr[finger]] > 0.03, "finger at %g m", r->data->qpos[r->model->jnt_qposadr[finger]]);
    s2r_sim_free(&sim);
    /* A mesh that is not there, deep in folders: the whole path, or the file's path from the model's folder. */
    snprintf(dir, sizeof dir, "%s", "build/test_third_party/a_folder_name_of_some_length/another_level_of_folders/"
             "menagerie_checkout_2023_07/vendor_arm_14");
    snprintf(path, sizeof path, "mkdir -p %s && sed 's/block.obj/link_7_visual_mesh_file.obj/' tests/models/arm6_gripper.xml "
             "> %s/arm.xml", dir, dir);
    CHECK(system(path) == 0);
    snprintf(path, sizeof path, "%s/arm.xml", dir);
    CHECK(s2r_sim_init(&sim, &c) == S2R_OK);   /* (the fixture again: c still names it) */
    s2r_sim_free(&sim);
    c.mjcf_path = path;
    CHECK(s2r_sim_init(&sim, &c) == S2R_ERR_MODEL);
    CHECKF(strstr(sim.error, "assets/link_7_visual_mesh_file.obj'") != NULL && strchr(sim.error, '?') == NULL, "%s", sim.error);
    printf("    %s\n", sim.error);
    /* implicitfast in an included file: the version and the edit. */
    snprintf(path, sizeof path, "%s/inc.xml", dir);
    CHECK((f = fopen(path, "w")) != NULL);
    fprintf(f, "<mujoco><option integrator='implicitfast'/></mujoco>\n");
    fclose(f);
    snprintf(path, sizeof path, "%s/top.xml", dir);
    CHECK((f = fopen(path, "w")) != NULL);
    fprintf(f, "<mujoco model='top'>\n  <include file='inc.xml'/>\n  <include file='../../../../../../tests/models/arm6_gripper.xml'/>\n</mujoco>\n");
    fclose(f);
    CHECK(s2r_sim_init(&sim, &c) == S2R_ERR_MODEL);
    CHECKF(strstr(sim.error, "MuJoCo 2.3.3's; this is MuJoCo 2.2.2: write integrator='implicit'") != NULL || mj_version() >= 233,
           "%s", sim.error);
    printf("    %s\n", sim.error);
    (void)e;
    return 0;
}

/* A pinned draw meets the bounds a ranges file meets: a timestep of 0 or
   1e-6 x (the first step never ended), a kp scale of -5, a link mass scale
   of 0 or -1 and an armature of -100 x were pinned and ran; each is
   refused naming the parameter, and the draw pinned before stays. */
static int test_pin_draw_bounds(void) {
    static const struct { s2r_param p; int joint; double value; const char* says; } bad[] = {
        {S2R_PARAM_TIMESTEP, 0, 0, "timestep"}, {S2R_PARAM_TIMESTEP, 0, 1e-6, "timestep"},
        {S2R_PARAM_KP, 0, -5, "kp"}, {S2R_PARAM_KP, 3, -5, "joint 3: kp"}, {S2R_PARAM_LINK_MASS, 2, 0, "link 2: link_mass"},
        {S2R_PARAM_LINK_MASS, 1, -1, "link_mass"}, {S2R_PARAM_ARMATURE, 0, -100, "armature"},
        {S2R_PARAM_ACTION_LATENCY, 0, 5, "latency"}};
    s2r_sim sim;
    s2r_sim_config c = s2r_sim_config_default(S2R_ROBOT_UR5E);
    s2r_sim_draw good, d;
    s2r_rng rng = s2r_rng_make(3, 0);
    int k;
    c.randomization = s2r_randomization_default();
    CHECK(s2r_sim_init(&sim, &c) == S2R_OK && s2r_backend_reset(&sim.backend, NULL, NULL, &rng) == S2R_OK);
    good = sim.draw;
    CHECKF(s2r_sim_pin_draw(&sim, &good) == S2R_OK, "%s", sim.error);
    for (k = 0; k < (int)(sizeof bad / sizeof *bad); k++) {
        d = good;
        if (bad[k].p == S2R_PARAM_LINK_MASS) d.link_mass[bad[k].joint - 1] = bad[k].value;
        else if (bad[k].joint > 0) d.joint[bad[k].p][bad[k].joint - 1] = bad[k].value;
        else { d.value[bad[k].p] = bad[k].value; d.joint[bad[k].p][0] = bad[k].value; }
        CHECKF(s2r_sim_pin_draw(&sim, &d) == S2R_ERR_INVALID_ARGUMENT && strstr(sim.error, bad[k].says) != NULL,
               "%s %g: %s", s2r_param_name(bad[k].p), bad[k].value, sim.error);
        CHECK(memcmp(&sim.draw, &good, sizeof good) == 0);
    }
    s2r_sim_free(&sim);
    return 0;
}

/* A ranges file does not know its arm: kp[7] parses, and was kept (and
   written back) on the 6-joint UR5e; a simulator of the UR5e refuses it
   naming the joint, the 7-joint Panda takes it. */
static int test_joint_range_beyond_arm(void) {
    s2r_randomization r = s2r_randomization_default();
    s2r_sim sim;
    s2r_sim_config c = s2r_sim_config_default(S2R_ROBOT_UR5E);
    char e[S2R_ERROR_LEN];
    CHECKF(s2r_randomization_parse(&r, "kp[7] uniform 0.9 1.1\n", e) == S2R_OK, "%s", e);
    c.randomization = r;
    CHECK(s2r_sim_init(&sim, &c) == S2R_ERR_INVALID_ARGUMENT);
    CHECKF(strstr(sim.error, "kp[7]: the arm has 6 joints") != NULL, "%s", sim.error);
    c.randomization = s2r_randomization_default();
    CHECK(s2r_sim_init(&sim, &c) == S2R_OK);
    CHECK(s2r_sim_set_randomization(&sim, &r) == S2R_ERR_INVALID_ARGUMENT && strstr(sim.error, "kp[7]") != NULL);
    s2r_sim_free(&sim);
    c = s2r_sim_config_default(S2R_ROBOT_PANDA);
    c.randomization = r;
    CHECKF(s2r_sim_init(&sim, &c) == S2R_OK, "%s", sim.error);
    s2r_sim_free(&sim);
    return 0;
}

/* A controller carries its sizes and what it was trained for: a policy
   made for the UR5e's reach evaluated on the Panda, or a UR5e push policy
   (saved and loaded: the checkpoint keeps it) on the Panda's push task,
   whose sizes are the same, is an error before any episode. */
static int test_controller_sizes_checked(void) {
    s2r_policy p;
    s2r_policy_shape shape;
    s2r_rng rng = s2r_rng_make(1, 0);
    s2r_sim sim;
    s2r_sim_config c = s2r_sim_config_default(S2R_ROBOT_PANDA);
    s2r_task task;
    s2r_task_config tc = s2r_task_config_default(S2R_TASK_REACH);
    s2r_controller ctl;
    s2r_eval_result r;
    memset(&shape, 0, sizeof shape);
    s2r_task_dims(S2R_TASK_REACH, S2R_ROBOT_UR5E, &shape.obs_dim, &shape.act_dim);
    shape.num_hidden = 1;
    shape.hidden[0] = 8;
    CHECK(s2r_policy_init(&p, &shape, -0.5f, 10.0f, &rng) == S2R_OK);
    ctl = s2r_policy_controller(&p);
    CHECK(ctl.obs_dim == 33 && ctl.act_dim == 6);
    CHECK(s2r_sim_init(&sim, &c) == S2R_OK && s2r_task_init(&task, &tc, &sim.backend) == S2R_OK);
    CHECK(s2r_evaluate(&ctl, &task, 3, 1, &r, NULL) == S2R_ERR_INVALID_ARGUMENT && r.episodes == 0);
    CHECKF(strstr(task.error, "another arm or task") != NULL, "%s", task.error);
    s2r_task_free(&task);
    s2r_sim_free(&sim);
    s2r_policy_free(&p);
    {   /* the same sizes, another arm: a UR5e push policy on the Panda's push task */
        s2r_task_config pc = s2r_task_config_default(S2R_TASK_PUSH);
        s2r_sim_config push = s2r_task_sim_config(S2R_TASK_PUSH, S2R_ROBOT_PANDA);
        s2r_policy q, back;
        char error[S2R_ERROR_LEN];
        s2r_task_dims(S2R_TASK_PUSH, S2R_ROBOT_UR5E, &shape.obs_dim, &shape.act_dim);
        CHECK(s2r_policy_init(&q, &shape, -0.5f, 10.0f, &rng) == S2R_OK && q.made_for == 0);
        q.made_for = s2r_made_for(S2R_ROBOT_UR5E, S2R_TASK_PUSH);
        CHECK(s2r_policy_save(&q, NULL, "build/test_made_for.tmp.ckpt") == S2R_OK);
        CHECK(s2r_policy_from_checkpoint(&back, "build/test_made_for.tmp.ckpt", error) == S2R_OK);
        CHECK(back.made_for == q.made_for && s2r_made_for_robot(back.made_for) == S2R_ROBOT_UR5E &&
              s2r_made_for_task(back.made_for) == S2R_TASK_PUSH);
        ctl = s2r_policy_controller(&back);
        CHECK(s2r_sim_init(&sim, &push) == S2R_OK && s2r_task_init(&task, &pc, &sim.backend) == S2R_OK);
        CHECK(s2r_evaluate(&ctl, &task, 1, 1, &r, NULL) == S2R_ERR_INVALID_ARGUMENT);
        CHECKF(strstr(task.error, "trained for the ur5e push task") != NULL, "%s", task.error);
        s2r_task_free(&task);
        s2r_sim_free(&sim);
        s2r_policy_free(&back);
        s2r_policy_free(&q);
        remove("build/test_made_for.tmp.ckpt");
    }
    return 0;
}

/* Small ones: a reach reset with NULL pose and target (the backend's
   "leave") keeps the target where it is; a dataset of the wrong size for
   the demonstrations' task names both sizes. */
static int test_reset_to_null_and_dataset_sizes(void) {
    s2r_sim sim;
    s2r_sim_config c = s2r_sim_config_default(S2R_ROBOT_UR5E);
    s2r_reach reach;
    s2r_reach_config rc = s2r_reach_config_default();
    s2r_task_config tc = s2r_task_config_default(S2R_TASK_REACH);
    s2r_expert_config op = s2r_operator_config_default();
    s2r_dataset d;
    float obs[S2R_REACH_MAX_OBS];
    double target[3] = {-0.1, 0.45, 0.3};
    char error[S2R_ERROR_LEN];
    int ok;
    CHECK(s2r_sim_init(&sim, &c) == S2R_OK && s2r_reach_init(&reach, &rc, &sim.backend) == S2R_OK);
    CHECK(s2r_reach_reset_to(&reach, NULL, target, NULL, obs) == S2R_OK);
    CHECK(s2r_reach_reset_to(&reach, NULL, NULL, NULL, obs) == S2R_OK);
    CHECK(reach.target[0] == target[0] && reach.target[1] == target[1] && reach.target[2] == target[2]);
    CHECK(s2r_dataset_init(&d, 5, 2) == S2R_OK);
    CHECK(s2r_collect_demos(&sim.backend, &tc, &op, 1, 1, &d, &ok, error) == S2R_ERR_INVALID_ARGUMENT);
    CHECKF(strstr(error, "dataset is 5x2, the task needs 33x6") != NULL, "%s", error);
    s2r_dataset_free(&d);
    s2r_reach_free(&reach);
    s2r_sim_free(&sim);
    return 0;
}

/* An output folder held by another live process is refused, naming it;
   a lock left by a process that is gone is taken over. */
static int test_claim_dir(void) {
    char error[S2R_ERROR_LEN], text[32];
    FILE* f;
    unsigned long owner = 0;
    CHECK(s2r_claim_dir("build/test_claim.tmp", error) == S2R_OK);
    f = fopen("build/test_claim.tmp/.sim2real.lock", "w");   /* as if process 1 (always running) held it */
    CHECK(f != NULL);
    fputs("1\n", f);
    fclose(f);
#if defined(__linux__)
    CHECK(s2r_claim_dir("build/test_claim.tmp", error) == S2R_ERR_IO);
    CHECKF(strstr(error, "in use by process 1") != NULL, "%s", error);
#endif
    f = fopen("build/test_claim.tmp/.sim2real.lock", "w");   /* a process long gone */
    CHECK(f != NULL);
    fputs("4000000000\n", f);
    fclose(f);
    CHECK(s2r_claim_dir("build/test_claim.tmp", error) == S2R_OK);
    f = fopen("build/test_claim.tmp/.sim2real.lock", "r");
    CHECK(f != NULL && fgets(text, sizeof text, f) && sscanf(text, "%lu", &owner) == 1);
    fclose(f);
    CHECK(owner == (unsigned long)getpid());
#if defined(__linux__)
    {   /* a run killed a moment ago, not yet reaped by its parent (a zombie): gone too */
        pid_t child = fork();
        char stat_path[64], text[256] = "";
        int tries;
        if (child == 0) _exit(0);
        CHECK(child > 0);
        snprintf(stat_path, sizeof stat_path, "/proc/%ld/stat", (long)child);
        for (tries = 0; tries < 1000000 && !strstr(text, ") Z"); tries++) {   /* until it has exited */
            FILE* s = fopen(stat_path, "rb");
            size_t n = s ? fread(text, 1, sizeof text - 1, s) : 0;
            if (s) fclose(s);
            text[n] = '\0';
        }
        CHECKF(strstr(text, ") Z") != NULL, "child %ld: %s", (long)child, text);
        f = fopen("build/test_claim.tmp/.sim2real.lock", "w");
        CHECK(f != NULL);
        fprintf(f, "%ld\n", (long)child);
        fclose(f);
        CHECKF(s2r_claim_dir("build/test_claim.tmp", error) == S2R_OK, "%s", error);
        waitpid(child, NULL, 0);
    }
#endif
    return 0;
}

/* The NULL rule (manual, Errors): a NULL object asserts, any other NULL
   pointer is S2R_ERR_INVALID_ARGUMENT - never a crash. */
static int test_null_rule(void) {
    s2r_sim sim;
    s2r_sim_config c = s2r_sim_config_default(S2R_ROBOT_UR5E);
    s2r_reach reach;
    s2r_reach_config rc = s2r_reach_config_default();
    s2r_task task;
    s2r_policy p;
    s2r_policy_shape shape;
    s2r_dataset d;
    s2r_rng rng = s2r_rng_make(1, 0);
    char error[S2R_ERROR_LEN];
    memset(&shape, 0, sizeof shape);
    shape.obs_dim = 33; shape.act_dim = 6; shape.num_hidden = 1; shape.hidden[0] = 8;
    CHECK(s2r_sim_init(&sim, NULL) == S2R_ERR_INVALID_ARGUMENT);
    CHECK(s2r_sim_init(&sim, &c) == S2R_OK && s2r_reach_init(&reach, &rc, &sim.backend) == S2R_OK);
    CHECK(s2r_backend_read_sensors(&sim.backend, NULL) == S2R_ERR_INVALID_ARGUMENT);
    CHECK(s2r_backend_ground_truth(&sim.backend, NULL) == S2R_ERR_INVALID_ARGUMENT);
    CHECK(s2r_backend_command(&sim.backend, NULL) == S2R_ERR_INVALID_ARGUMENT);
    CHECK(s2r_reach_reset(&reach, NULL, NULL) == S2R_ERR_INVALID_ARGUMENT);
    {   /* a NULL action is NULL, not "NaN or Inf"; a NULL observation or result is an error, not a crash */
        float obs[64], act[S2R_MAX_JOINTS] = {0};
        s2r_step_result res;
        CHECK(s2r_reach_reset(&reach, &rng, obs) == S2R_OK);
        CHECK(s2r_reach_step(&reach, NULL, obs, &res) == S2R_ERR_INVALID_ARGUMENT);
        CHECKF(strstr(reach.error, "action is NULL") && !strstr(reach.error, "NaN"), "%s", reach.error);
        CHECK(s2r_reach_step(&reach, act, NULL, &res) == S2R_ERR_INVALID_ARGUMENT && strstr(reach.error, "obs is NULL"));
        CHECK(s2r_reach_step(&reach, act, obs, NULL) == S2R_ERR_INVALID_ARGUMENT && strstr(reach.error, "out is NULL"));
        CHECK(s2r_reach_step(&reach, act, obs, &res) == S2R_OK);   /* the episode goes on */
        CHECK(s2r_file_write_all("build/test_null.tmp", NULL, 10, error) == S2R_ERR_INVALID_ARGUMENT && strstr(error, "data is NULL"));
    }
    CHECK(s2r_task_init(&task, NULL, &sim.backend) == S2R_ERR_INVALID_ARGUMENT);
    CHECK(s2r_policy_init(&p, &shape, -0.5f, 10.0f, &rng) == S2R_OK);
    CHECK(s2r_policy_act(&p, NULL, NULL, 1, NULL) == S2R_ERR_INVALID_ARGUMENT);
    CHECK(s2r_policy_save(&p, NULL, NULL) == S2R_ERR_INVALID_ARGUMENT);
    CHECK(s2r_policy_load(&p, NULL, NULL) == S2R_ERR_INVALID_ARGUMENT);
    CHECK(s2r_checkpoint_shape(NULL, &shape, error) == S2R_ERR_INVALID_ARGUMENT);
    CHECK(s2r_calibrate_camera(NULL, 4, 2, 1, NULL, NULL, error) == S2R_ERR_INVALID_ARGUMENT);
    CHECK(s2r_dataset_init(&d, 33, 6) == S2R_OK && s2r_dataset_append(&d, NULL, NULL) == S2R_ERR_INVALID_ARGUMENT && d.count == 0);
    {
        s2r_task_config tc = s2r_task_config_default(S2R_TASK_REACH);
        s2r_eval_result r;
        CHECK(s2r_task_init(&task, &tc, &sim.backend) == S2R_OK);
        CHECK(s2r_evaluate(NULL, &task, 1, 1, &r, NULL) == S2R_ERR_INVALID_ARGUMENT);
        s2r_task_free(&task);
    }
    s2r_dataset_free(&d);
    s2r_policy_free(&p);
    s2r_reach_free(&reach);
    s2r_sim_free(&sim);
    return 0;
}

/* A stop asked for (s2r_interrupt_catch, then SIGTERM) is read inside the
   long loops, each returning S2R_ERR_INTERRUPTED with nothing kept:
   evaluation, demonstrations, recording a trajectory, system
   identification, behaviour cloning, reading a log; with the flag cleared
   the same calls work again. */
static int test_stop_inside_long_loops(void) {
    s2r_sim sim;
    s2r_sim_config sc = s2r_sim_config_default(S2R_ROBOT_UR5E);
    s2r_task_config tc = s2r_task_config_default(S2R_TASK_REACH);
    s2r_expert_config op = s2r_operator_config_default(), scripted = s2r_expert_config_default();
    s2r_excitation_config ex = s2r_excitation_config_default();
    s2r_sysid_config cfg = s2r_sysid_config_default();
    s2r_task task;
    s2r_expert expert;
    s2r_controller c;
    s2r_eval_result r;
    s2r_dataset d, more;
    s2r_trajectory_set set, parsed;
    s2r_sysid id;
    s2r_sysid_result result;
    s2r_policy policy;
    s2r_bc bc;
    s2r_bc_config bcc = s2r_bc_config_default();
    s2r_rng rng = s2r_rng_make(1, 0);
    char error[S2R_ERROR_LEN], *log = (char*)malloc(4096 * 48);
    size_t at;
    int k, ok = -1, obs_dim, act_dim;
    CHECK(log != NULL && s2r_sim_init(&sim, &sc) == S2R_OK && s2r_task_init(&task, &tc, &sim.backend) == S2R_OK);
    CHECK(s2r_expert_init(&expert, &scripted, &tc, sim.backend.info) == S2R_OK);
    c = s2r_expert_controller(&expert);
    s2r_task_dims(S2R_TASK_REACH, S2R_ROBOT_UR5E, &obs_dim, &act_dim);
    CHECK(s2r_dataset_init(&d, obs_dim, act_dim) == S2R_OK && s2r_dataset_init(&more, obs_dim, act_dim) == S2R_OK);
    CHECK(s2r_collect_demos(&sim.backend, &tc, &op, 2, 1, &d, &ok, error) == S2R_OK && d.count > 0);
    CHECK(s2r_trajectory_set_init(&set, 6, 30, 2, 0.02) == S2R_OK && s2r_trajectory_collect(&set, &sim.backend, &ex, 1, 1) == S2R_OK);
    CHECK(s2r_sysid_init(&id, &cfg, &sc) == S2R_OK);
    {
        s2r_policy_shape shape;
        memset(&shape, 0, sizeof shape);
        shape.obs_dim = obs_dim; shape.act_dim = act_dim; shape.num_hidden = 1; shape.hidden[0] = 8;
        CHECK(s2r_policy_init(&policy, &shape, -0.5f, 10.0f, &rng) == S2R_OK && s2r_bc_init(&bc, &bcc, &policy) == S2R_OK);
    }
    at = (size_t)sprintf(log, "t,command_1,q_1\n");   /* 3000 rows at rest: a log past 1024 lines */
    for (k = 0; k < 3000; k++) at += (size_t)sprintf(log + at, "%.2f,0.5,0.5\n", 0.02 * k);

    s2r_interrupt_catch();
    raise(SIGTERM);   /* caught: only a flag */
    CHECK(s2r_interrupt_requested());
    CHECKF(s2r_evaluate(&c, &task, 3, 1, &r, NULL) == S2R_ERR_INTERRUPTED && r.episodes == 0 && strstr(task.error, "stopped"),
           "%s", task.error);
    CHECKF(s2r_collect_demos(&sim.backend, &tc, &op, 2, 1, &more, &ok, error) == S2R_ERR_INTERRUPTED && more.count == 0 &&
           strstr(error, "demonstrations: stopped"), "%s", error);
    CHECKF(s2r_trajectory_collect(&set, &sim.backend, &ex, 1, 2) == S2R_ERR_INTERRUPTED && set.count == 1 &&
           strstr(set.error, "stopped"), "%s", set.error);
    CHECKF(s2r_sysid_run(&id, &set, NULL, &result) == S2R_ERR_INTERRUPTED && strstr(id.error, "system identification"),
           "%s", id.error);
    CHECKF(s2r_bc_epoch(&bc, &d, NULL) == S2R_ERR_INTERRUPTED && bc.epoch == 0, "%s", bc.error);
    CHECKF(s2r_trajectory_set_parse_csv(&parsed, log, "long.csv", 0.02, error) == S2R_ERR_INTERRUPTED &&
           parsed.count == 0 && strstr(error, "long.csv"), "%s", error);
    s2r_interrupt_catch();   /* clears the flag */
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    CHECKF(s2r_evaluate(&c, &task, 1, 1, &r, NULL) == S2R_OK && r.episodes == 1, "%s", task.error);
    CHECK(s2r_bc_epoch(&bc, &d, NULL) == S2R_OK && bc.epoch == 1);
    CHECKF(s2r_trajectory_set_parse_csv(&parsed, log, "long.csv", 0.02, error) == S2R_OK, "%s", error);
    CHECK(parsed.source[0].samples == S2R_LOG_FIT_SAMPLES && parsed.source[0].span == 2999 && parsed.n_samples == S2R_LOG_FIT_SAMPLES);
    s2r_trajectory_set_free(&parsed);
    s2r_bc_free(&bc);
    s2r_policy_free(&policy);
    s2r_sysid_free(&id);
    s2r_trajectory_set_free(&set);
    s2r_dataset_free(&d);
    s2r_dataset_free(&more);
    s2r_expert_free(&expert);
    s2r_task_free(&task);
    s2r_sim_free(&sim);
    free(log);
    return 0;
}

/* What the pipeline learns of a unit, path by path, into v (at most 32
   numbers): evaluation (a controller on the task), demonstrations
   (s2r_collect_demos), system identification (s2r_identify_unit: the fit
   and the camera's calibration) and deployment (the controller behind the
   safety monitor with its box halved); ends[k]: where path k's numbers
   end in v.  The controller is `policy`, an untrained one, whose actions
   follow every number it observes; what the library does inside each
   path knows the arm only from the backend. */
static int unit_paths(const s2r_backend* b, s2r_policy* policy, double* v, int ends[4], char* error) {
    s2r_task_config tc = s2r_task_config_default(S2R_TASK_REACH);
    s2r_expert_config op = s2r_operator_config_default();
    s2r_identify_config idc = s2r_identify_config_default();
    s2r_randomization training = s2r_randomization_default(), next;
    s2r_safety_config scfg = s2r_safety_config_default();
    s2r_controller c = s2r_policy_controller(policy);
    s2r_safety safety;
    s2r_task task;
    s2r_eval_result r;
    s2r_dataset d;
    s2r_sysid_result sr;
    s2r_run_summary sum;
    double camera[3];
    int k, n = 0, ok = 0;
    idc.train = idc.valid = 1;
    idc.samples = 20;
    idc.sweeps = 1;
    if (s2r_task_init(&task, &tc, b) != S2R_OK || s2r_evaluate(&c, &task, 3, 7, &r, NULL) != S2R_OK)
        return snprintf(error, S2R_ERROR_LEN, "evaluation: %.200s", task.error), 1;
    v[n++] = r.successes; v[n++] = r.mean_distance; v[n++] = r.mean_return;
    ends[0] = n;
    s2r_task_free(&task);
    if (s2r_dataset_init(&d, policy->shape.obs_dim, policy->shape.act_dim) != S2R_OK ||
        s2r_collect_demos(b, &tc, &op, 2, 7, &d, &ok, error) != S2R_OK)
        return 1;
    v[n++] = ok; v[n++] = d.count; v[n] = v[n + 1] = 0;
    for (k = 0; k < d.count * d.obs_dim; k++) v[n] += d.obs[k];
    for (k = 0; k < d.count * d.act_dim; k++) v[n + 1] += d.act[k];
    n += 2;
    ends[1] = n;
    s2r_dataset_free(&d);
    if (s2r_identify_unit(b, &idc, &training, &next, NULL, &sr, camera, error) != S2R_OK) return 1;
    for (k = 0; k < sr.n_params; k++) v[n++] = sr.value[k];
    v[n++] = camera[0]; v[n++] = camera[1]; v[n++] = camera[2];
    ends[2] = n;
    if (s2r_safety_init(&safety, &scfg, b) != S2R_OK || s2r_safety_set_workspace_scale(&safety, 0.5) != S2R_OK ||
        s2r_task_init(&task, &tc, s2r_safety_backend(&safety)) != S2R_OK)
        return snprintf(error, S2R_ERROR_LEN, "deployment: %.200s", safety.error), 1;
    memset(&sum, 0, sizeof sum);
    if (deploy_episodes(&c, &task, &safety, 2, 7, 0, &sum) != S2R_OK)
        return snprintf(error, S2R_ERROR_LEN, "deployment: %.200s", task.error), 1;
    v[n++] = sum.successes; v[n++] = (double)sum.interventions; v[n++] = sum.mean_return;
    ends[3] = n;
    s2r_task_free(&task);
    s2r_safety_free(&safety);
    return 0;
}

/* The stand-in unit is an oracle the pipeline must not see into: its
   backend's info is the nominal model (b5c3b3d), so every path sees the
   unit's kinematics as a real arm's would be known.  Unit #1, its hidden
   model made to differ from the nominal in geometry (the flange 4 cm
   further along its body, and its body 2 cm off), three ways: as the
   library gives it (A); given a nominal model loaded apart (N); given its
   own hidden model (H: the leak).  Each path must give on A exactly what
   it gives on N; evaluation, demonstrations and deployment something else
   on H - so that the check can fail - while system identification gives
   the same on H too: it takes no geometry from the backend at all (its
   fit replays on the nominal simulator of the arm's kind, its camera
   calibration compares the marker with the surveyed points). */
static int test_unit_seen_through_nominal_model(void) {
    static const char* const path[4] = {"evaluation", "demonstrations", "system identification", "deployment"};
    double v[3][32];
    s2r_robot nominal;
    s2r_policy policy;
    s2r_policy_shape shape;
    s2r_rng rng = s2r_rng_make(3, 0);
    char error[S2R_ERROR_LEN];
    int way, k, ends[4];
    CHECK(s2r_robot_load(&nominal, S2R_ROBOT_UR5E) == S2R_OK);
    memset(&shape, 0, sizeof shape);
    s2r_task_dims(S2R_TASK_REACH, S2R_ROBOT_UR5E, &shape.obs_dim, &shape.act_dim);
    shape.num_hidden = 1;
    shape.hidden[0] = 16;
    CHECK(s2r_policy_init(&policy, &shape, -0.5f, 10.0f, &rng) == S2R_OK);
    memset(v, 0, sizeof v);
    for (way = 0; way < 3; way++) {
        s2r_real_robot real;
        mjModel* hidden;
        int site;
        CHECK(s2r_real_robot_init(&real, S2R_ROBOT_UR5E, 1) == S2R_OK);
        hidden = real.hidden_sim.robot.model;
        site = real.hidden_sim.robot.info.flange_site;
        CHECK(real.backend.info != &real.hidden_sim.robot.info && real.backend.info->model != hidden);
        hidden->site_pos[3 * site + 2] += 0.04;
        hidden->body_pos[3 * hidden->site_bodyid[site] + 1] += 0.02;
        if ((mjModel*)real.hidden_sim.robot.info.model != hidden) {   /* its kinematics' model (the draw-free copy) too */
            mjModel* kinematics = (mjModel*)real.hidden_sim.robot.info.model;
            kinematics->site_pos[3 * site + 2] += 0.04;
            kinematics->body_pos[3 * kinematics->site_bodyid[site] + 1] += 0.02;
        }
        CHECK(memcmp(real.backend.info->model->site_pos, nominal.model->site_pos, sizeof(mjtNum) * 3 * (size_t)nominal.model->nsite) == 0);
        CHECK(memcmp(real.backend.info->model->body_pos, nominal.model->body_pos, sizeof(mjtNum) * 3 * (size_t)nominal.model->nbody) == 0);
        if (way == 1) real.backend.info = &nominal.info;
        if (way == 2) real.backend.info = &real.hidden_sim.robot.info;
        CHECKF(unit_paths(&real.backend, &policy, v[way], ends, error) == 0, "way %d: %s", way, error);
        s2r_real_robot_free(&real);
    }
    for (k = 0; k < 4; k++) {
        int lo = k ? ends[k - 1] : 0;
        size_t bytes = sizeof(double) * (size_t)(ends[k] - lo);
        CHECKF(memcmp(v[0] + lo, v[1] + lo, bytes) == 0,
               "%s: the unit's own backend and a nominal model loaded apart see it differently", path[k]);
        if (k == 2)
            CHECKF(memcmp(v[0] + lo, v[2] + lo, bytes) == 0,
                   "%s: the hidden model behind the backend changes it: it reads geometry from the backend", path[k]);
        else
            CHECKF(memcmp(v[0] + lo, v[2] + lo, bytes) != 0,
                   "%s: the same with the hidden model behind the backend - the check could not fail", path[k]);
    }
    s2r_policy_free(&policy);
    s2r_robot_free(&nominal);
    return 0;
}


/* A robot side with no external measurement of its flange (the template
   examples/robot_server.py answers truth with S2R_ERR_UNSUPPORTED): the
   outcome of an episode cannot be judged, so every path that scores one -
   a reach or push step, evaluation, demonstrations, deployment - stops
   with an error saying so and what to do, never a number read from a
   ground truth that was not given. */
static s2r_result no_truth(void* self, s2r_ground_truth* out) {
    (void)self;
    memset(out, 0x55, sizeof *out);   /* what a caller that ignores the answer would score */
    return S2R_ERR_UNSUPPORTED;
}
static int test_no_ground_truth_stops_scoring(void) {
    static const char* const told = "the robot side gives no ground truth";
    s2r_task_kind kind;
    for (kind = S2R_TASK_REACH; kind <= S2R_TASK_PUSH; kind++) {
        s2r_sim_config sc = s2r_task_sim_config(kind, S2R_ROBOT_UR5E);
        s2r_task_config tc = s2r_task_config_default(kind);
        s2r_expert_config ec = s2r_expert_config_default();
        s2r_expert_config op = s2r_operator_config_default();
        s2r_safety_config scfg = s2r_safety_config_default();
        s2r_sim sim;
        s2r_backend blind;
        s2r_task task, guarded;
        s2r_expert expert;
        s2r_controller c;
        s2r_eval_result r;
        s2r_dataset d;
        s2r_safety safety;
        s2r_run_summary sum;
        s2r_step_result step;
        s2r_rng rng = s2r_rng_make(3, 0);
        float obs[S2R_TASK_MAX_OBS], act[S2R_MAX_JOINTS] = {0};
        char error[S2R_ERROR_LEN];
        int ok = -1;
        CHECK(s2r_sim_init(&sim, &sc) == S2R_OK);
        blind = sim.backend;
        blind.ground_truth = no_truth;
        CHECK(s2r_task_init(&task, &tc, &blind) == S2R_OK);
        CHECK(task.env.reset(task.env.self, &rng, obs) == S2R_OK);   /* a reset with a target needs no truth */
        CHECKF(task.env.step(task.env.self, act, obs, &step) == S2R_ERR_UNSUPPORTED && strstr(task.error, told) &&
               strstr(task.error, "cannot be judged") && strstr(task.error, "motion capture"), "%s: %s",
               s2r_task_kind_name(kind), task.error);
        CHECK(s2r_expert_init(&expert, &ec, &tc, blind.info) == S2R_OK);
        c = s2r_expert_controller(&expert);
        memset(&r, 0x55, sizeof r);
        CHECKF(s2r_evaluate(&c, &task, 2, 7, &r, NULL) == S2R_ERR_UNSUPPORTED && strstr(task.error, told) && r.episodes == 0,
               "%s", task.error);
        CHECK(s2r_dataset_init(&d, task.env.obs_dim, task.env.act_dim) == S2R_OK);
        CHECKF(s2r_collect_demos(&blind, &tc, &op, 2, 7, &d, &ok, error) == S2R_ERR_UNSUPPORTED && strstr(error, told) &&
               d.count == 0, "%s", error);
        CHECK(s2r_safety_init(&safety, &scfg, &blind) == S2R_OK &&
              s2r_task_init(&guarded, &tc, s2r_safety_backend(&safety)) == S2R_OK);
        memset(&sum, 0, sizeof sum);
        CHECKF(deploy_episodes(&c, &guarded, &safety, 2, 7, 0, &sum) == S2R_ERR_UNSUPPORTED && strstr(guarded.error, told) &&
               sum.episodes == 0, "%s", guarded.error);
        s2r_task_free(&guarded);
        s2r_safety_free(&safety);
        s2r_dataset_free(&d);
        s2r_expert_free(&expert);
        s2r_task_free(&task);
        s2r_sim_free(&sim);
    }
    return 0;
}

static const test_case harden_tests[] = {
    {"bad input: a 3 GB file is refused by every reader by its size, unread", test_huge_files_refused_unread},
    {"state: saved, killed and resumed ends bit-identical", test_state_resume_bit_identical},
    {"state: with rollouts of whole episodes, saving changes nothing", test_state_save_changes_nothing},
    {"state: other run, truncated, corrupt or missing refused, trainer untouched", test_state_refused_trainer_untouched},
    {"state: on your own arm it records the model: resumed on another arm's MJCF (or with no model recorded) it is refused", test_state_refused_on_another_arm},
    {"state: Ctrl-C saves, resume finishes, no half-written CSV", test_interrupt_saves_and_resumes},
    {"divergence: blown-up episodes flagged, counted, never fed as NaN", test_divergence_counted_never_fed},
    {"divergence: MuJoCo's bad-state warning ends the motion", test_mujoco_warning_is_divergence},
    {"bad input: zero episodes and zero training steps refused", test_zero_episodes_refused},
    {"bad input: zero latency runs, huge latency refused", test_zero_and_huge_latency},
    {"bad input: an empty MJCF and a 1e18 kg payload are refused before MuJoCo sees them", test_mujoco_fatal_inputs_refused},
    {"bad input: MuJoCo's fatal errors come back as errors, the process goes on", test_mujoco_errors_come_back},
    {"files: directories, FIFOs and NUL bytes refused by path; temporary names unique", test_file_readers_refuse_non_files},
    {"files: writers and the deployment log replace only regular files: FIFOs, links, devices, directories and \"\" refused", test_file_writers_replace_only_files},
    {"files: an output folder another live run holds is refused; a dead run's lock is taken over", test_claim_dir},
    {"bad input: a policy made for another arm or task is refused by evaluation", test_controller_sizes_checked},
    {"bad input: the NULL rule - NULL arguments other than the object are errors, not crashes", test_null_rule},
    {"bad input: reach reset with NULL pose and target; a wrong-sized dataset names both sizes", test_reset_to_null_and_dataset_sizes},
    {"bad input: numbers that size memory or loops have bounds (advance, timestep, max_delta, updates, MJCF, limits)", test_numbers_have_bounds},
    {"bad input: logs meet the arm (joints, start pose, commands named by file and line); a byte order mark is skipped", test_logs_meet_the_arm},
    {"bad input: an MJCF breaking a convention (numeric sizes, home, actuators, undriven joints, a 1e30 kg link, a misspelt s2r_ field, a floating base, two arms, no forcerange, an equality on arm joints, a servo's gear) is refused at load", test_mjcf_conventions_refused},
    {"a linkage gripper's passive joints tied by <equality> to its driver load as the gripper's, said; untied, refused naming the fix", test_linkage_gripper_accepted},
    {"a third-party model loads with what it leaves out inferred and said (implicitfast, target, flange, gripper, joint damping); a missing mesh's path whole", test_third_party_model_inferred},
    {"bad input: ranges naming a joint the arm lacks (kp[7] on the UR5e) are refused by its simulator", test_joint_range_beyond_arm},
    {"bad input: a pinned draw meets the bounds of a ranges file (timestep, kp, link mass, armature, latency)", test_pin_draw_bounds},
    {"stop: SIGTERM is read inside evaluation, demonstrations, recording, system ID, cloning and log reading", test_stop_inside_long_loops},
    {"no ground truth: a robot side without one stops steps, evaluation, demonstrations and deployment with an error, never a score", test_no_ground_truth_stops_scoring},
    {"oracle: a unit whose hidden geometry differs is seen through the nominal model by evaluation, demos, system ID and deployment", test_unit_seen_through_nominal_model},
};
