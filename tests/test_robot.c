/* tests/test_robot.c - core, robots, the simulator backend and the reach task.
   Included by tests/test_main.c (or built alone: it has its own main). */
#include "test.h"

static int test_result_strings(void) {
    CHECK(strcmp(s2r_result_string(S2R_OK), "S2R_OK") == 0);
    CHECK(strcmp(s2r_result_string(S2R_ERR_CORRUPT), "S2R_ERR_CORRUPT") == 0);
    CHECK(strcmp(s2r_result_string((s2r_result)-99), "S2R_ERR_UNKNOWN") == 0);
    return 0;
}

static int test_rng_streams(void) {
    s2r_rng a = s2r_rng_make(7, 0), b = s2r_rng_make(7, 0), c = s2r_rng_make(7, 1);
    double sum = 0, sum2 = 0;
    int i, same_ab = 1, same_ac = 1, n = 200000;
    for (i = 0; i < 100; i++) {
        uint64_t x = s2r_rng_u64(&a), y = s2r_rng_u64(&b), z = s2r_rng_u64(&c);
        same_ab &= (x == y);
        same_ac &= (x == z);
    }
    CHECK(same_ab);
    CHECK(!same_ac);
    /* N(0,1): mean within 5 standard errors (5/sqrt(n) = 0.011), variance within 0.02 */
    for (i = 0; i < n; i++) { double g = s2r_rng_normal(&a); sum += g; sum2 += g * g; }
    CHECKF(fabs(sum / n) < 5.0 / sqrt((double)n), "mean %g", sum / n);
    CHECKF(fabs(sum2 / n - 1.0) < 0.02, "variance %g", sum2 / n);
    return 0;
}

static double dist3(const double* a, const double* b) {
    return sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]));
}

/* Forward kinematics at q = 0 against the check points of the fact sheet. */
static int check_fk_zero(s2r_robot_kind kind, const double expect[3]) {
    s2r_robot r;
    double q[S2R_MAX_JOINTS] = {0}, p[3];
    CHECKF(s2r_robot_load(&r, kind) == S2R_OK, "%s", r.error);
    s2r_flange_fk(r.model, r.data, r.flange_site, q, r.info.n_joints, p);
    s2r_robot_free(&r);
    CHECKF(dist3(p, expect) < 0.002, "flange (%.4f %.4f %.4f) is %.1f mm from (%.4f %.4f %.4f)",
           p[0], p[1], p[2], 1000 * dist3(p, expect), expect[0], expect[1], expect[2]);
    return 0;
}

static int test_fk_ur5e(void) {
    const double ur_dh[3] = {-0.8172, -0.2329, 0.0628};  /* UR's DH table */
    return check_fk_zero(S2R_ROBOT_UR5E, ur_dh);
}

static int test_fk_panda(void) {
    const double hand[3] = {0.088, 0.0, 0.926};          /* Franka's DH table */
    return check_fk_zero(S2R_ROBOT_PANDA, hand);
}

static int test_masses(void) {
    s2r_robot r;
    CHECK(s2r_robot_load(&r, S2R_ROBOT_UR5E) == S2R_OK);
    CHECK(r.info.n_joints == 6);
    CHECKF(fabs(r.info.total_mass - 21.0) < 0.01 * 21.0, "UR5e %g kg", r.info.total_mass);
    s2r_robot_free(&r);
    CHECK(s2r_robot_load(&r, S2R_ROBOT_PANDA) == S2R_OK);
    CHECK(r.info.n_joints == 7);
    CHECKF(fabs(r.info.total_mass - 17.45) < 0.01 * 17.45, "Panda %g kg", r.info.total_mass);
    CHECK(strcmp(r.info.joint_name[3], "joint4") == 0);
    CHECK(r.info.q_max[3] < 0 && fabs(r.info.torque_limit[6] - 12.0) < 1e-12);
    s2r_robot_free(&r);
    return 0;
}

/* The servos hold home under gravity: every joint within 0.01 rad for 5 s. */
static int check_hold_home(s2r_robot_kind kind) {
    s2r_sim sim;
    s2r_sim_config c = s2r_sim_config_default(kind);
    s2r_sensors s;
    double worst = 0;
    int i, j;
    CHECKF(s2r_sim_init(&sim, &c) == S2R_OK, "%s", sim.error);
    for (i = 0; i < 250; i++) {          /* 250 x 0.02 s = 5 s */
        CHECK(s2r_backend_advance(&sim.backend, 0.02) == S2R_OK);
        s2r_backend_read_sensors(&sim.backend, &s);
        for (j = 0; j < sim.robot.info.n_joints; j++)
            if (fabs(s.q[j] - sim.robot.info.q_home[j]) > worst) worst = fabs(s.q[j] - sim.robot.info.q_home[j]);
    }
    s2r_sim_free(&sim);
    CHECKF(worst < 0.01, "%s drifted %.4f rad", s2r_robot_kind_name(kind), worst);
    return 0;
}

static int test_hold_home_ur5e(void) { return check_hold_home(S2R_ROBOT_UR5E); }
static int test_hold_home_panda(void) { return check_hold_home(S2R_ROBOT_PANDA); }

/* 1000 policy steps of random actions on the reach task; writes every
   measured joint position into traj (1000 * n doubles). */
static int run_random_reach(s2r_robot_kind kind, uint64_t seed, double* traj) {
    s2r_sim sim;
    s2r_sim_config sc = s2r_sim_config_default(kind);
    s2r_reach reach;
    s2r_reach_config rc = s2r_reach_config_default();
    s2r_rng rng = s2r_rng_make(seed, 0);
    float obs[S2R_REACH_MAX_OBS], act[S2R_MAX_JOINTS];
    s2r_step_result r;
    int t, j, n;
    if (s2r_sim_init(&sim, &sc) != S2R_OK) return 1;
    s2r_reach_init(&reach, &rc, s2r_sim_backend(&sim));
    n = reach.n_joints;
    s2r_reach_reset(&reach, &rng, obs);
    for (t = 0; t < 1000; t++) {
        for (j = 0; j < n; j++) act[j] = (float)s2r_rng_range(&rng, -1, 1);
        s2r_reach_step(&reach, act, obs, &r);
        for (j = 0; j < n; j++) traj[t * n + j] = reach.sensors.q[j];
        if (r.done) s2r_reach_reset(&reach, &rng, obs);
    }
    s2r_reach_free(&reach);
    s2r_sim_free(&sim);
    return 0;
}

static int test_determinism(void) {
    static double a[1000 * S2R_MAX_JOINTS], b[1000 * S2R_MAX_JOINTS], c[1000 * S2R_MAX_JOINTS];
    CHECK(run_random_reach(S2R_ROBOT_PANDA, 11, a) == 0);
    CHECK(run_random_reach(S2R_ROBOT_PANDA, 11, b) == 0);
    CHECK(run_random_reach(S2R_ROBOT_PANDA, 12, c) == 0);
    CHECK(memcmp(a, b, sizeof a) == 0);
    CHECK(memcmp(a, c, sizeof a) != 0);
    return 0;
}

static int test_nan_action_rejected(void) {
    s2r_sim sim;
    s2r_sim_config sc = s2r_sim_config_default(S2R_ROBOT_UR5E);
    s2r_reach reach;
    s2r_reach_config rc = s2r_reach_config_default();
    s2r_rng rng = s2r_rng_make(3, 0);
    float obs[S2R_REACH_MAX_OBS], act[S2R_MAX_JOINTS] = {0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f};
    double qpos[6], qvel[6], time, cmd[6] = {0, 0, 0, 0, 0, 0};
    s2r_step_result r;
    CHECK(s2r_sim_init(&sim, &sc) == S2R_OK);
    CHECK(s2r_reach_init(&reach, &rc, s2r_sim_backend(&sim)) == S2R_OK);
    CHECK(s2r_reach_reset(&reach, &rng, obs) == S2R_OK);
    CHECK(s2r_reach_step(&reach, act, obs, &r) == S2R_OK);
    memcpy(qpos, sim.robot.data->qpos, sizeof qpos);
    memcpy(qvel, sim.robot.data->qvel, sizeof qvel);
    time = sim.robot.data->time;
    act[2] = NAN;
    CHECK(s2r_reach_step(&reach, act, obs, &r) == S2R_ERR_INVALID_ARGUMENT);
    act[2] = INFINITY;
    CHECK(s2r_reach_step(&reach, act, obs, &r) == S2R_ERR_INVALID_ARGUMENT);
    CHECK(strstr(reach.error, "NaN") != NULL);
    cmd[4] = NAN;
    CHECK(s2r_backend_command(&sim.backend, cmd) == S2R_ERR_INVALID_ARGUMENT);
    CHECK(memcmp(qpos, sim.robot.data->qpos, sizeof qpos) == 0);
    CHECK(memcmp(qvel, sim.robot.data->qvel, sizeof qvel) == 0);
    CHECK(time == sim.robot.data->time && reach.step == 1);
    s2r_reach_free(&reach);
    s2r_sim_free(&sim);
    return 0;
}

static int test_malformed_mjcf(void) {
    s2r_robot r;
    s2r_sim sim;
    s2r_sim_config sc = s2r_sim_config_default(S2R_ROBOT_CUSTOM);
    CHECK(s2r_robot_load_xml(&r, "<mujoco><worldbody><body></mujoco>") == S2R_ERR_MODEL);
    CHECKF(strlen(r.error) > 0 && strstr(r.error, "XML") != NULL, "message: '%s'", r.error);
    CHECK(r.model == NULL && r.data == NULL);
    /* well-formed, but no flange: named in the message */
    CHECK(s2r_robot_load_xml(&r, "<mujoco><worldbody><body><joint name='j' range='-1 1' limited='true'/>"
                                 "<geom size='0.1'/></body></worldbody><actuator><general joint='j' "
                                 "biastype='affine' gainprm='10' biasprm='0 -10 -1' forcelimited='true' "
                                 "forcerange='-5 5'/></actuator></mujoco>") == S2R_ERR_MODEL);
    CHECKF(strstr(r.error, "flange") != NULL, "message: '%s'", r.error);
    sc.mjcf_path = "/nonexistent/arm.xml";   /* no file: named before MuJoCo opens it */
    CHECK(s2r_sim_init(&sim, &sc) == S2R_ERR_IO);
    CHECKF(strstr(sim.error, "/nonexistent/arm.xml") != NULL, "%s", sim.error);
    return 0;
}

/* Your own MJCF: the built-in UR5e written to a file loads as a custom arm. */
static int test_custom_mjcf_file(void) {
    static char xml[16384];
    const char* path = "build/test_custom_arm.xml";
    FILE* f;
    s2r_robot r;
    size_t len = s2r_robot_scene_mjcf(S2R_ROBOT_UR5E, S2R_SCENE_ARM, xml, sizeof xml);
    CHECK(len > 0 && len < sizeof xml);
    f = fopen(path, "w");
    CHECK(f != NULL);
    fputs(xml, f);
    fclose(f);
    CHECKF(s2r_robot_load_file(&r, path) == S2R_OK, "%s", r.error);
    CHECK(r.info.kind == S2R_ROBOT_CUSTOM && r.info.n_joints == 6);
    CHECK(strcmp(r.info.name, "ur5e") == 0 && strcmp(r.info.joint_name[2], "elbow") == 0);
    CHECK(fabs(r.info.velocity_limit[0] - 3.1416) < 1e-9);
    s2r_robot_free(&r);
    return 0;
}

/* A model whose physics timestep is zero, negative, tiny or longer than a
   fraction of a control step is refused at load, naming the timestep
   (an MJCF timestep of 0 used to crash system identification and hang
   training). */
static int test_timestep_bounds(void) {
    static const char* const bad[] = {"0", "-0.002", "1e-7", "0.5"};
    static char xml[16384], changed[16500];
    size_t len = s2r_robot_scene_mjcf(S2R_ROBOT_UR5E, S2R_SCENE_ARM, xml, sizeof xml);
    const char *at = strstr(xml, "timestep='"), *tail = at ? strchr(at + 10, '\'') : NULL;
    s2r_robot r;
    int k;
    CHECK(len > 0 && len < sizeof xml && at != NULL && tail != NULL);
    tail++;
    for (k = 0; k < (int)(sizeof bad / sizeof *bad); k++) {
        snprintf(changed, sizeof changed, "%.*stimestep='%s'%s", (int)(at - xml), xml, bad[k], tail);
        CHECKF(s2r_robot_load_xml(&r, changed) == S2R_ERR_MODEL && strstr(r.error, "timestep") != NULL,
               "timestep %s: %s", bad[k], r.error);
        CHECK(r.model == NULL && r.data == NULL);
    }
    snprintf(changed, sizeof changed, "%.*stimestep='0.004'%s", (int)(at - xml), xml, tail);
    CHECKF(s2r_robot_load_xml(&r, changed) == S2R_OK, "%s", r.error);
    s2r_robot_free(&r);
    return 0;
}

/* The UR5e's scene with `from` replaced by `to` (once), loaded into r: its
   result; the text in xml[16500]. */
static s2r_result load_edited_ur5e(s2r_robot* r, const char* from, const char* to, char* xml) {
    static char base[16384];
    size_t len = s2r_robot_scene_mjcf(S2R_ROBOT_UR5E, S2R_SCENE_ARM, base, sizeof base);
    const char* at = strstr(base, from);
    if (len == 0 || len >= sizeof base || !at) return S2R_ERR_INVALID_ARGUMENT;
    snprintf(xml, 16500, "%.*s%s%s", (int)(at - base), base, to, at + strlen(from));
    return s2r_robot_load_xml(r, xml);
}

/* The conventions' units and servo form, checked at load: a speed limit
   in deg/s (180 ran the excitation at 5.5 rad/s) and a workspace in mm
   are refused suggesting rad/s and metres; 2 pi rad/s (a UR3's wrist) is
   accepted.  An actuator whose biasprm[1] is not -gainprm[0] (not the
   position servo the library reads ctrl as the target of) is refused
   naming it and the fix; one without damping (kv 0, no joint damping) is
   noticed: its kv is not identifiable.  A model without a speed limit is
   told the one assumed (the excitation commanded 1.6 rad/s on an iiwa's
   1.3-1.5 rad/s joints in silence). */
static int test_convention_units(void) {
    static char xml[16500];
    const char* limits = "data='3.1416 3.1416 3.1416 3.1416 3.1416 3.1416'";
    s2r_robot r;
    CHECKF(load_edited_ur5e(&r, limits, "data='180 180 180 180 180 180'", xml) == S2R_ERR_MODEL &&
           strstr(r.error, "s2r_velocity_limit of joint 1 is 180 rad/s") && strstr(r.error, "in deg/s? give rad/s - 180 "
           "deg/s is 3.142 rad/s"), "%s", r.error);
    CHECKF(load_edited_ur5e(&r, limits, "data='6.2832 6.2832 3.1416 3.1416 3.1416 3.1416'", xml) == S2R_OK &&
           !strstr(r.info.notice, "s2r_velocity_limit"), "%s %s", r.error, r.info.notice);
    s2r_robot_free(&r);
    CHECKF(load_edited_ur5e(&r, "<numeric name='s2r_velocity_limit' data='3.1416 3.1416 3.1416 3.1416 3.1416 3.1416'/>",
                            "", xml) == S2R_OK &&
           strstr(r.info.notice, "no <numeric name='s2r_velocity_limit'>: 3.14159 rad/s assumed for every joint (the "
                  "UR5e's); give your datasheet's"), "%s %s", r.error, r.info.notice);
    s2r_robot_free(&r);
    CHECKF(load_edited_ur5e(&r, "data='-0.30 0.35 0.25 0.05 0.60 0.50'", "data='-300 350 250 50 600 500'", xml) ==
           S2R_ERR_MODEL && strstr(r.error, "s2r_workspace: axis x runs from -300 to 50 m") &&
           strstr(r.error, "in millimetres? give metres (mm / 1000: -0.3 to 0.05 m)"), "%s", r.error);
    CHECKF(load_edited_ur5e(&r, "biasprm='0 -2000 -400'", "biasprm='0 -1500 -400'", xml) == S2R_ERR_MODEL &&
           strstr(r.error, "actuator 'shoulder_pan' (joint 'shoulder_pan') is not a position servo: gainprm[0] = 2000 "
           "but biasprm = '0 -1500 -400'") && strstr(r.error, "write gainprm='2000' biasprm='0 -2000 -400'"), "%s", r.error);
    CHECKF(load_edited_ur5e(&r, "biasprm='0 -500 -100'", "biasprm='0 -500 0'", xml) == S2R_OK &&
           strstr(r.info.notice, "no servo damping on joints 'wrist_1', 'wrist_2', 'wrist_3' (kv 0") &&
           strstr(r.info.notice, "kv, a scale of 0, is not identifiable"), "%s / %s", r.error, r.info.notice);
    s2r_robot_free(&r);
    CHECKF(load_edited_ur5e(&r, "biasprm='0 -500 -100'", "biasprm='0 -500 -100'", xml) == S2R_OK &&
           !strstr(r.info.notice, "no servo damping"), "%s", r.info.notice);
    s2r_robot_free(&r);
    return 0;
}

/* implicitfast in a file the model includes (which the loader does not
   read as implicit, MuJoCo reading includes itself) is refused naming
   that file: MuJoCo's message gave "line 0" of no file. */
static int test_implicitfast_included(void) {
    static char xml[16500];
    const char* option = "<option timestep='0.005' integrator='Euler' collision='predefined'/>";
    FILE* f = fopen("build/test_robot_opts.xml", "w");
    s2r_robot r;
    CHECK(f != NULL);
    fputs("<mujocoinclude>\n  <option timestep='0.005' integrator='implicitfast' collision='predefined'/>\n"
          "</mujocoinclude>\n", f);
    fclose(f);
    CHECK(load_edited_ur5e(&r, option, option, xml) == S2R_OK);   /* the text, to edit */
    s2r_robot_free(&r);
    {
        char* at = strstr(xml, option);
        CHECK(at != NULL && (f = fopen("build/test_robot_include.xml", "w")) != NULL);
        fprintf(f, "%.*s<include file='test_robot_opts.xml'/>%s", (int)(at - xml), xml, at + strlen(option));
        fclose(f);
    }
    CHECKF(s2r_robot_load_file(&r, "build/test_robot_include.xml") == S2R_ERR_MODEL &&
           strstr(r.error, "in the included file test_robot_opts.xml: integrator 'implicitfast' is MuJoCo 2.3.3's") &&
           strstr(r.error, "write integrator='implicit' in its <option>"), "%s", r.error);
    remove("build/test_robot_opts.xml");
    remove("build/test_robot_include.xml");
    return 0;
}

/* Success is judged from the ground truth: a target placed at the flange
   with a zero policy succeeds, one 5 cm away fails. */
static int test_reach_success_ground_truth(void) {
    s2r_sim sim;
    s2r_sim_config sc = s2r_sim_config_default(S2R_ROBOT_UR5E);
    s2r_reach reach;
    s2r_reach_config rc = s2r_reach_config_default();
    s2r_ground_truth gt;
    float obs[S2R_REACH_MAX_OBS], act[S2R_MAX_JOINTS] = {0};
    double target[3];
    s2r_step_result r;
    int pass;
    CHECK(s2r_sim_init(&sim, &sc) == S2R_OK);
    CHECK(s2r_reach_init(&reach, &rc, s2r_sim_backend(&sim)) == S2R_OK);
    CHECK(reach.obs_dim == 33);
    s2r_backend_ground_truth(&sim.backend, &gt);   /* at rest at home */
    for (pass = 0; pass < 2; pass++) {
        memcpy(target, gt.flange, sizeof target);
        target[2] += pass ? 0.05 : 0.0;
        CHECK(s2r_reach_reset_to(&reach, NULL, target, NULL, obs) == S2R_OK);
        CHECK(fabs(obs[3 * 6 + 6 + 2] - (pass ? 0.05f : 0.0f)) < 1e-4);  /* target - flange */
        do { CHECK(s2r_reach_step(&reach, act, obs, &r) == S2R_OK); } while (!r.done);
        CHECK(r.truncated && !r.terminated && reach.step == rc.episode_steps);
        CHECKF(r.success == !pass, "pass %d distance %.4f", pass, r.distance);
    }
    CHECK(s2r_reach_step(&reach, act, obs, &r) == S2R_ERR_STATE);
    s2r_reach_free(&reach);
    s2r_sim_free(&sim);
    return 0;
}

/* An episode starts on target at home; after 25 steps of holding still
   (the servos settle), the reward of one step with `action` on every
   joint, the bonus's speed scale set to `bonus_speed`. */
static float first_reward(double bonus_speed, double action_cost, float action, double* speed) {
    s2r_sim sim;
    s2r_sim_config sc = s2r_sim_config_default(S2R_ROBOT_UR5E);
    s2r_reach reach;
    s2r_reach_config rc = s2r_reach_config_default();
    s2r_ground_truth gt;
    float obs[S2R_REACH_MAX_OBS], hold[S2R_MAX_JOINTS] = {0}, act[S2R_MAX_JOINTS];
    s2r_step_result r;
    int j, ok;
    r.reward = NAN;
    rc.bonus_speed = bonus_speed;
    rc.action_cost = action_cost;
    for (j = 0; j < S2R_MAX_JOINTS; j++) act[j] = action;
    if (s2r_sim_init(&sim, &sc) != S2R_OK) return NAN;
    if (s2r_reach_init(&reach, &rc, s2r_sim_backend(&sim)) == S2R_OK) {
        s2r_backend_ground_truth(&sim.backend, &gt);
        ok = s2r_reach_reset_to(&reach, NULL, gt.flange, NULL, obs) == S2R_OK;
        for (j = 0; j < 25 && ok; j++) ok = s2r_reach_step(&reach, hold, obs, &r) == S2R_OK;
        if (ok && s2r_reach_step(&reach, act, obs, &r) == S2R_OK) {
            s2r_backend_ground_truth(&sim.backend, &gt);
            *speed = sqrt(gt.flange_vel[0] * gt.flange_vel[0] + gt.flange_vel[1] * gt.flange_vel[1] +
                          gt.flange_vel[2] * gt.flange_vel[2]);
        }
        s2r_reach_free(&reach);
    }
    s2r_sim_free(&sim);
    return r.reward;
}

/* 1 if s2r_reach_init refuses `rc` as an invalid argument naming `field`. */
static int reach_config_refused(const s2r_reach_config* rc, const char* field) {
    s2r_sim sim;
    s2r_sim_config sc = s2r_sim_config_default(S2R_ROBOT_UR5E);
    s2r_reach reach;
    s2r_result res;
    int refused;
    if (s2r_sim_init(&sim, &sc) != S2R_OK) return 0;
    res = s2r_reach_init(&reach, rc, s2r_sim_backend(&sim));
    refused = res == S2R_ERR_INVALID_ARGUMENT && strstr(reach.error, field) != NULL;
    if (res == S2R_OK) s2r_reach_free(&reach);
    s2r_sim_free(&sim);
    return refused;
}

/* The on-target bonus pays for stillness: holding still near the target
   earns the same with the speed factor as without; moving earns less with
   it; a negative or NaN speed scale is refused. */
static int test_reach_reward_stillness(void) {
    s2r_reach_config rc = s2r_reach_config_default();
    double still_speed = -1, moving_speed = -1, unused;
    float still = first_reward(0.05, 0.1, 0.0f, &still_speed), still_plain = first_reward(0.0, 0.1, 0.0f, &unused);
    float moving = first_reward(0.05, 0.1, 1.0f, &moving_speed), moving_plain = first_reward(0.0, 0.1, 1.0f, &unused);
    CHECKF(still > 0.5f && fabsf(still - still_plain) < 0.001f, "holding still on target: %.4f with the speed factor, "
           "%.4f without", still, still_plain);
    CHECKF(still_speed < 0.005 && moving_speed > 0.05, "speeds %.4f %.4f m/s", still_speed, moving_speed);
    CHECKF(moving < moving_plain - 0.1f, "moving: %.4f with the speed factor, %.4f without", moving, moving_plain);
    rc.bonus_speed = -0.05;
    CHECK(reach_config_refused(&rc, "bonus_speed"));
    rc.bonus_speed = NAN;
    CHECK(reach_config_refused(&rc, "bonus_speed"));
    return 0;
}

/* Commanded motion costs action_cost |a|^2 and nothing else: the same
   action with and without the cost moves the arm alike and differs in
   reward by exactly that; a negative or NaN cost is refused. */
static int test_reach_action_cost(void) {
    s2r_reach_config rc = s2r_reach_config_default();
    double speed_cost = -1, speed_free = -2;
    float cost = first_reward(0.05, 0.1, 0.5f, &speed_cost), free_ = first_reward(0.05, 0.0, 0.5f, &speed_free);
    CHECKF(fabs((free_ - cost) - 0.1 * 6 * 0.25) < 1e-4, "reward %.5f with the cost, %.5f without (expected 0.15 apart)",
           cost, free_);
    CHECKF(speed_cost == speed_free, "the cost changed the motion: %.6f vs %.6f m/s", speed_cost, speed_free);
    CHECK(rc.action_cost == 0.1);
    rc.action_cost = -0.1;
    CHECK(reach_config_refused(&rc, "action_cost"));
    rc.action_cost = NAN;
    CHECK(reach_config_refused(&rc, "action_cost"));
    return 0;
}

static const test_case robot_tests[] = {
    {"core: result strings", test_result_strings},
    {"core: rng streams and normal moments", test_rng_streams},
    {"robot: UR5e flange at q=0 matches DH within 2 mm", test_fk_ur5e},
    {"robot: Panda hand at q=0 matches DH within 2 mm", test_fk_panda},
    {"robot: masses within 1 % and joint facts", test_masses},
    {"robot: UR5e servos hold home under gravity for 5 s", test_hold_home_ur5e},
    {"robot: Panda servos hold home under gravity for 5 s", test_hold_home_panda},
    {"sim: same seed same 1000 steps, other seed differs", test_determinism},
    {"sim: NaN/Inf action rejected, state unchanged", test_nan_action_rejected},
    {"robot: malformed MJCF returns MuJoCo's message", test_malformed_mjcf},
    {"robot: a timestep outside 0.1 .. 10 ms is refused at load", test_timestep_bounds},
    {"robot: custom MJCF from a file", test_custom_mjcf_file},
    {"robot: a speed limit in deg/s, a workspace in mm, a servo not of the position form refused; no damping, no speed limit noticed",
     test_convention_units},
    {"robot: implicitfast in an included file is refused naming the file", test_implicitfast_included},
    {"reach: success judged from ground truth", test_reach_success_ground_truth},
    {"reach: the on-target bonus pays for stillness", test_reach_reward_stillness},
    {"reach: commanded motion costs action_cost |a|^2", test_reach_action_cost},
};

/* The examples' command line: good options parse, bad ones name themselves
   and leave the caller's options untouched. */
static int test_options(void) {
    s2r_options o = s2r_options_default(), keep;
    char error[S2R_ERROR_LEN];
    char* good[] = {"prog", "--robot", "panda", "--seed", "7", "--quick", "--out", "build/opt", "--threads", "2"};
    char* unknown[] = {"prog", "--robto", "panda"};
    char* missing[] = {"prog", "--seed"};
    char* malformed[] = {"prog", "--threads", "2x"};
    char* negative[] = {"prog", "--seed", "-3"};
    char* robot[] = {"prog", "--robot", "kuka"};
    CHECK(s2r_options_parse(&o, 10, good, error) == S2R_OK);
    CHECK(o.robot == S2R_ROBOT_PANDA && o.seed == 7 && o.quick && o.threads == 2 && !strcmp(o.out, "build/opt"));
    {   /* an example's file for the task: reach's names carry no task */
        char path[512];
        CHECK(!strcmp(s2r_task_path(path, sizeof path, &o, "07", "table.csv"), "build/opt/07_table.csv"));
        o.task = S2R_TASK_PUSH;
        CHECK(!strcmp(s2r_task_path(path, sizeof path, &o, "14", "prediction.png"), "build/opt/14_push_prediction.png"));
        o.task = S2R_TASK_REACH;
    }
    keep = o;
    CHECK(s2r_options_parse(&o, 3, unknown, error) == S2R_ERR_PARSE && strstr(error, "--robto"));
    CHECK(s2r_options_parse(&o, 2, missing, error) == S2R_ERR_PARSE && strstr(error, "--seed"));
    {
        char* unused[] = {"prog", "--resume", "--out", "x"};
        s2r_options u;
        CHECK(s2r_options_parse(&u, 4, unused, error) == S2R_OK && u.given == (S2R_OPT_RESUME_FLAG | S2R_OPT_OUT));
        CHECK(s2r_options_only(&u, S2R_OPT_OUT, error) == S2R_ERR_PARSE && strstr(error, "--resume does nothing"));
        CHECK(s2r_options_only(&u, S2R_OPT_OUT | S2R_OPT_RESUME, error) == S2R_OK);
    }
    {
        char* adr[] = {"prog", "--adr"};
        s2r_options u;
        CHECK(s2r_options_parse(&u, 2, adr, error) == S2R_OK && u.adr == 1 && u.given == S2R_OPT_ADR);
        CHECK(s2r_options_only(&u, S2R_OPT_OUT, error) == S2R_ERR_PARSE && strstr(error, "--adr does nothing"));
    }
    {   /* --joint NAME[J]: a joint-wise parameter of joint 1..8; NAME alone: one for every joint (joint 0) */
        char* joints[] = {"prog", "--joint", "kp[4]", "--joint", "frictionloss[1]", "--joint", "damping"};
        char* bad[] = {"payload[2]", "kp[9]", "kp[0]", "payload", "kp[]", "kp[x]", "kpp[2]", "[3]", "dampingx", ""};
        s2r_options u;
        int k;
        CHECK(s2r_options_parse(&u, 7, joints, error) == S2R_OK && u.given == S2R_OPT_JOINT && u.n_joints == 3);
        CHECK(u.joint_param[0] == S2R_PARAM_KP && u.joint[0] == 4 && u.joint_param[1] == S2R_PARAM_FRICTIONLOSS &&
              u.joint[1] == 1 && u.joint_param[2] == S2R_PARAM_DAMPING && u.joint[2] == 0);
        for (k = 0; k < (int)(sizeof bad / sizeof *bad); k++) {
            char* one[] = {"prog", "--joint", bad[k]};
            CHECKF(s2r_options_parse(&u, 3, one, error) == S2R_ERR_PARSE && strstr(error, "--joint takes NAME[J]"), "%s: %s",
                   bad[k], error);
        }
    }
    {
        char* option_as_value[] = {"prog", "--out", "--quick"};
        CHECK(s2r_options_parse(&o, 3, option_as_value, error) == S2R_ERR_PARSE && strstr(error, "not the option '--quick'"));
    }
    CHECK(s2r_options_parse(&o, 3, malformed, error) == S2R_ERR_PARSE && strstr(error, "2x"));
    CHECK(s2r_options_parse(&o, 3, negative, error) == S2R_ERR_PARSE);
    CHECK(s2r_options_parse(&o, 3, robot, error) == S2R_ERR_PARSE && strstr(error, "kuka"));
    CHECK(memcmp(&o, &keep, sizeof o) == 0);
    return 0;
}

static int test_make_dir(void) {
    char error[S2R_ERROR_LEN];
    FILE* f;
    CHECK(s2r_make_dir("build/test_dir/a/b", error) == S2R_OK);
    f = fopen("build/test_dir/a/b/x.txt", "w");
    CHECK(f != NULL);
    fclose(f);
    remove("build/test_dir/a/b/x.txt");
    CHECK(s2r_make_dir("/proc/s2r_cannot_be_here", error) == S2R_ERR_IO);
    CHECK(strstr(error, "s2r_cannot_be_here") != NULL);
    return 0;
}

static int test_wilson(void) {
    double lo, hi;
    s2r_wilson_interval(85, 100, &lo, &hi);      /* reference: 0.7672 .. 0.9069 */
    CHECKF(fabs(lo - 0.7672) < 5e-4 && fabs(hi - 0.9069) < 5e-4, "%g %g", lo, hi);
    s2r_wilson_interval(0, 20, &lo, &hi);        /* 0 .. 0.1611 */
    CHECKF(lo == 0 && fabs(hi - 0.1611) < 5e-4, "%g %g", lo, hi);
    s2r_wilson_interval(0, 0, &lo, &hi);
    CHECK(lo == 0 && hi == 1);
    return 0;
}

/* The interval over runs: Student's t quantiles from a table (12.706 for one
   degree of freedom, 4.303 for two, 2.262 for nine, 2.042 for thirty). */
static int test_mean_interval(void) {
    double two[2] = {-1, 1}, three[3] = {-1, 0, 1}, ten[10], thirty_one[31], mean, lo, hi;
    int i;
    s2r_mean_interval(two, 2, &mean, &lo, &hi);          /* sd sqrt(2), sd / sqrt(n) = 1 */
    CHECKF(mean == 0 && fabs(hi - 12.706) < 1e-3 && fabs(lo + 12.706) < 1e-3, "%g %g %g", mean, lo, hi);
    s2r_mean_interval(three, 3, &mean, &lo, &hi);        /* sd 1 */
    CHECKF(fabs(hi - 4.303 / sqrt(3.0)) < 1e-3, "%g", hi);
    for (i = 0; i < 10; i++) ten[i] = 5 + (i % 2 ? 1 : -1);   /* mean 5, sd sqrt(10/9) */
    s2r_mean_interval(ten, 10, &mean, &lo, &hi);
    CHECKF(fabs(mean - 5) < 1e-12 && fabs(hi - 5 - 2.262 * sqrt(10.0 / 9) / sqrt(10.0)) < 1e-3, "%g %g", mean, hi);
    for (i = 0; i < 31; i++) thirty_one[i] = i;          /* sd sqrt(31 * 32 / 12) */
    s2r_mean_interval(thirty_one, 31, &mean, &lo, &hi);
    CHECKF(fabs(mean - 15) < 1e-12 && fabs(hi - 15 - 2.042 * sqrt(31 * 32 / 12.0) / sqrt(31.0)) < 2e-3, "%g", hi);
    s2r_mean_interval(two, 1, &mean, &lo, &hi);          /* one run: no spread to measure */
    CHECK(mean == -1 && lo == -1 && hi == -1);
    s2r_mean_interval(NULL, 0, &mean, &lo, &hi);
    CHECK(mean == 0 && lo == 0 && hi == 0);
    return 0;
}

/* Numbers are plain decimal digits: a leading blank or sign used to slip
   through strtoull (" 5" parsed as 5, " -18446744073709551615" as 1);
   found by tests/fuzz/fuzz_options.c. */
static int test_options_numbers_plain(void) {
    static const char* const bad[] = {" 5", "\f42", "\t3", " -18446744073709551615", " +7", "\n1", "", "0x10"};
    s2r_options o = s2r_options_default(), keep = o;
    char error[S2R_ERROR_LEN];
    char seed[] = "--seed", threads[] = "--threads", value[32], prog[] = "prog";
    char* argv[3];
    int i;
    argv[0] = prog;
    argv[2] = value;
    for (i = 0; i < (int)(sizeof bad / sizeof bad[0]); i++) {
        snprintf(value, sizeof value, "%s", bad[i]);
        argv[1] = seed;
        CHECKF(s2r_options_parse(&o, 3, argv, error) == S2R_ERR_PARSE, "--seed '%s'", bad[i]);
        argv[1] = threads;
        CHECKF(s2r_options_parse(&o, 3, argv, error) == S2R_ERR_PARSE, "--threads '%s'", bad[i]);
        CHECK(memcmp(&o, &keep, sizeof o) == 0);
    }
    snprintf(value, sizeof value, "4294967295");
    argv[1] = seed;
    CHECK(s2r_options_parse(&o, 3, argv, error) == S2R_OK && o.seed == 4294967295ull);
    return 0;
}

static const test_case tools_tests[] = {
    {"options: parse, and name what is wrong", test_options},
    {"options: numbers are plain digits (no blanks, no signs)", test_options_numbers_plain},
    {"options: output folder created, unwritable refused", test_make_dir},
    {"eval: Wilson 95 % interval", test_wilson},
    {"eval: Student-t 95 % interval of a mean over runs", test_mean_interval},
};
