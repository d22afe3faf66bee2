/* tests/test_sim.c - the randomized simulator and the stand-in real robot.
   Included by tests/test_main.c. */
#include "test.h"

/* Reset with a draw, then with everything off: the model must be the
   nominal one again, bit for bit (every array lives in model->buffer). */
static int test_randomize_then_restore(void) {
    s2r_sim sim;
    s2r_sim_config c = s2r_sim_config_default(S2R_ROBOT_PANDA);
    s2r_randomization none = s2r_randomization_none();
    s2r_robot fresh;
    s2r_rng rng = s2r_rng_make(5, 0);
    c.randomization = s2r_randomization_default();
    CHECKF(s2r_sim_init(&sim, &c) == S2R_OK, "%s", sim.error);
    CHECK(s2r_robot_load(&fresh, S2R_ROBOT_PANDA) == S2R_OK);
    CHECK(s2r_backend_reset(&sim.backend, NULL, NULL, &rng) == S2R_OK);
    CHECK(memcmp(sim.robot.model->buffer, fresh.model->buffer, (size_t)fresh.model->nbuffer) != 0);
    CHECK(s2r_backend_reset(&sim.backend, NULL, NULL, &rng) == S2R_OK);   /* a second draw */
    CHECK(s2r_sim_set_randomization(&sim, &none) == S2R_OK);
    CHECK(s2r_backend_reset(&sim.backend, NULL, NULL, &rng) == S2R_OK);
    CHECK(sim.robot.model->nbuffer == fresh.model->nbuffer);
    CHECK(memcmp(sim.robot.model->buffer, fresh.model->buffer, (size_t)fresh.model->nbuffer) == 0);
    CHECK(memcmp(&sim.robot.model->opt, &fresh.model->opt, sizeof fresh.model->opt) == 0);
    s2r_robot_free(&fresh);
    s2r_sim_free(&sim);
    return 0;
}

/* Each joint draws its own gains, damping, armature, seal friction and
   torque limit: after a reset with the default ranges the joints' kp
   scales differ, each within the range, and reach the model; a pinned
   draw with per_joint 0 gives every joint value[p]. */
static int test_per_joint_draws(void) {
    s2r_sim sim;
    s2r_sim_config c = s2r_sim_config_default(S2R_ROBOT_PANDA);
    s2r_rng rng = s2r_rng_make(11, 0);
    s2r_sim_draw d;
    const s2r_arm_info* info;
    double lo = 1, hi = 1;
    int j, n;
    c.randomization = s2r_randomization_default();
    CHECKF(s2r_sim_init(&sim, &c) == S2R_OK, "%s", sim.error);
    info = sim.backend.info;
    n = info->n_joints;
    CHECK(s2r_backend_reset(&sim.backend, NULL, NULL, &rng) == S2R_OK);
    CHECK(sim.draw.per_joint == 1 && sim.draw.joint[S2R_PARAM_KP][0] == sim.draw.value[S2R_PARAM_KP]);
    for (j = 0; j < n; j++) {
        double kp = sim.draw.joint[S2R_PARAM_KP][j];
        lo = fmin(lo, kp);
        hi = fmax(hi, kp);
        CHECK(kp >= 0.85 && kp <= 1.15);
        CHECK(fabs(sim.robot.model->actuator_gainprm[sim.robot.actuator[j] * mjNGAIN] - kp * info->kp[j]) < 1e-9 * info->kp[j]);
        CHECK(sim.draw.joint[S2R_PARAM_KV][j] >= 0.8 && sim.draw.joint[S2R_PARAM_KV][j] <= 1.2);
    }
    CHECKF(hi - lo > 0.05, "7 joints' kp scales span only %.3f", hi - lo);
    d = sim.draw;
    d.per_joint = 0;
    d.value[S2R_PARAM_KP] = 0.9;
    CHECK(s2r_sim_pin_draw(&sim, &d) == S2R_OK && s2r_backend_reset(&sim.backend, NULL, NULL, &rng) == S2R_OK);
    for (j = 0; j < n; j++)
        CHECK(fabs(sim.robot.model->actuator_gainprm[sim.robot.actuator[j] * mjNGAIN] - 0.9 * info->kp[j]) < 1e-9 * info->kp[j]);
    d.per_joint = 1;
    d.joint[S2R_PARAM_KV][3] = NAN;
    CHECK(s2r_sim_pin_draw(&sim, &d) == S2R_ERR_INVALID_ARGUMENT);
    s2r_sim_free(&sim);
    return 0;
}

/* A payload and a mass scale reach the model consistently: the subtree
   mass (recomputed by mj_setConst) grows by exactly the added mass. */
static int test_payload_and_mass(void) {
    s2r_sim sim;
    s2r_sim_config c = s2r_sim_config_default(S2R_ROBOT_UR5E);
    s2r_rng rng = s2r_rng_make(1, 0);
    double before;
    c.randomization.p[S2R_PARAM_PAYLOAD].enabled = 1;
    c.randomization.p[S2R_PARAM_PAYLOAD].dist = s2r_dist_fixed(0.75);
    CHECK(s2r_sim_init(&sim, &c) == S2R_OK);
    before = sim.robot.model->body_subtreemass[1];
    CHECK(s2r_backend_reset(&sim.backend, NULL, NULL, &rng) == S2R_OK);
    CHECKF(fabs(sim.robot.model->body_subtreemass[1] - before - 0.75) < 1e-12, "%g -> %g",
           before, sim.robot.model->body_subtreemass[1]);
    s2r_sim_free(&sim);
    return 0;
}

/* An action latency of 20 ms: a step in the command reaches the servo
   exactly 20 ms of physics steps later (4 at the UR5e's 5 ms). */
static int test_action_latency_steps(void) {
    s2r_sim sim;
    s2r_sim_config c = s2r_sim_config_default(S2R_ROBOT_UR5E);
    s2r_rng rng = s2r_rng_make(2, 0);
    double q[S2R_MAX_JOINTS];
    int k, steps;
    c.randomization.p[S2R_PARAM_ACTION_LATENCY].enabled = 1;
    c.randomization.p[S2R_PARAM_ACTION_LATENCY].dist = s2r_dist_fixed(0.020);
    CHECK(s2r_sim_init(&sim, &c) == S2R_OK);
    CHECK(s2r_backend_reset(&sim.backend, NULL, NULL, &rng) == S2R_OK);
    memcpy(q, sim.robot.info.q_home, sizeof q);
    q[0] += 0.1;
    CHECK(s2r_backend_command(&sim.backend, q) == S2R_OK);
    steps = s2r_latency_steps(0.020, sim.robot.info.physics_dt);
    CHECK(fabs(steps * sim.robot.info.physics_dt - 0.020) < 1e-12);
    for (k = 1; k <= steps + 1; k++) {
        double ctrl;
        CHECK(s2r_backend_advance(&sim.backend, sim.robot.info.physics_dt) == S2R_OK);
        ctrl = sim.robot.data->ctrl[0];
        if (k <= steps) CHECKF(ctrl == sim.robot.info.q_home[0], "step %d already moved", k);
        else CHECKF(ctrl == q[0], "step %d: %g", k, ctrl);
    }
    s2r_sim_free(&sim);
    return 0;
}

/* Bad randomizations are refused with a message and change nothing. */
static int test_bad_randomization(void) {
    s2r_sim sim;
    s2r_sim_config c = s2r_sim_config_default(S2R_ROBOT_UR5E);
    s2r_randomization r = s2r_randomization_default(), keep;
    CHECK(s2r_sim_init(&sim, &c) == S2R_OK);
    keep = sim.config.randomization;
    r.p[S2R_PARAM_DAMPING].dist.lo = NAN;
    CHECK(s2r_sim_set_randomization(&sim, &r) == S2R_ERR_INVALID_ARGUMENT);
    CHECKF(strstr(sim.error, "damping") != NULL, "%s", sim.error);
    r = s2r_randomization_default();
    r.p[S2R_PARAM_FRICTION].dist = s2r_dist_uniform(1.5, 0.5);
    CHECK(s2r_sim_set_randomization(&sim, &r) == S2R_ERR_INVALID_ARGUMENT);
    CHECKF(strstr(sim.error, "friction") != NULL, "%s", sim.error);
    r = s2r_randomization_default();
    r.p[S2R_PARAM_ACTION_LATENCY].dist = s2r_dist_uniform(0.05, 0.5);   /* beyond max_latency */
    CHECK(s2r_sim_set_randomization(&sim, &r) == S2R_ERR_INVALID_ARGUMENT);
    CHECKF(strstr(sim.error, "max_latency") != NULL, "%s", sim.error);
    CHECK(memcmp(&keep, &sim.config.randomization, sizeof keep) == 0);
    s2r_sim_free(&sim);
    c.max_latency = -1;
    CHECK(s2r_sim_init(&sim, &c) == S2R_ERR_INVALID_ARGUMENT);
    return 0;
}

/* The nominal simulator reads the truth exactly; a noisy one does not. */
static int test_sensing_noise(void) {
    s2r_sim sim;
    s2r_sim_config c = s2r_sim_config_default(S2R_ROBOT_UR5E);
    s2r_rng rng = s2r_rng_make(4, 0);
    s2r_sensors s;
    s2r_ground_truth gt;
    int j, differs = 0;
    CHECK(s2r_sim_init(&sim, &c) == S2R_OK);
    CHECK(s2r_backend_reset(&sim.backend, NULL, NULL, &rng) == S2R_OK);
    CHECK(s2r_backend_advance(&sim.backend, 0.1) == S2R_OK);
    s2r_backend_read_sensors(&sim.backend, &s);
    s2r_backend_ground_truth(&sim.backend, &gt);
    CHECK(memcmp(s.q, gt.q, 6 * sizeof(double)) == 0);
    s2r_sim_free(&sim);
    c.randomization.p[S2R_PARAM_QPOS_NOISE].enabled = 1;
    c.randomization.p[S2R_PARAM_QPOS_NOISE].dist = s2r_dist_fixed(0.01);
    CHECK(s2r_sim_init(&sim, &c) == S2R_OK);
    CHECK(s2r_backend_reset(&sim.backend, NULL, NULL, &rng) == S2R_OK);
    CHECK(s2r_backend_advance(&sim.backend, 0.1) == S2R_OK);
    s2r_backend_read_sensors(&sim.backend, &s);
    s2r_backend_ground_truth(&sim.backend, &gt);
    for (j = 0; j < 6; j++) { differs += s.q[j] != gt.q[j]; CHECK(fabs(s.q[j] - gt.q[j]) < 0.06); }
    CHECK(differs == 6);
    s2r_sim_free(&sim);
    return 0;
}

/* Units: the same seed is the same robot, another seed another one; the
   calibration offset is 1-3 cm as documented. */
static int test_real_units(void) {
    s2r_real_robot a, b, c;
    const s2r_real_unit *ua, *ub, *uc;
    double off;
    CHECKF(s2r_real_robot_init(&a, S2R_ROBOT_PANDA, 3) == S2R_OK, "%s", a.error);
    CHECK(s2r_real_robot_init(&b, S2R_ROBOT_PANDA, 3) == S2R_OK);
    CHECK(s2r_real_robot_init(&c, S2R_ROBOT_PANDA, 4) == S2R_OK);
    ua = s2r_real_robot_oracle(&a); ub = s2r_real_robot_oracle(&b); uc = s2r_real_robot_oracle(&c);
    CHECK(memcmp(ua, ub, sizeof *ua) == 0);
    CHECK(memcmp(ua->draw.value, uc->draw.value, sizeof ua->draw.value) != 0);
    off = sqrt(ua->draw.target_offset[0] * ua->draw.target_offset[0] + ua->draw.target_offset[1] * ua->draw.target_offset[1] +
               ua->draw.target_offset[2] * ua->draw.target_offset[2]);
    CHECKF(off >= 0.01 && off <= 0.03, "offset %g m", off);
    CHECK(strstr(s2r_real_robot_backend(&a)->name, "#3") != NULL);
    s2r_real_robot_free(&a); s2r_real_robot_free(&b); s2r_real_robot_free(&c);
    CHECK(s2r_real_robot_init(&a, S2R_ROBOT_CUSTOM, 1) == S2R_ERR_INVALID_ARGUMENT);
    return 0;
}

/* The same unit and episode seed give the same trajectory on the real
   robot (noise, jitter and dropout all come from the reset's rng). */
static int test_real_deterministic(void) {
    double qa[200 * 6], qb[200 * 6];
    int pass, t;
    for (pass = 0; pass < 2; pass++) {
        s2r_real_robot real;
        s2r_rng rng = s2r_rng_make(9, 0);
        double cmd[6];
        s2r_sensors s;
        CHECK(s2r_real_robot_init(&real, S2R_ROBOT_UR5E, 7) == S2R_OK);
        CHECK(s2r_backend_reset(&real.backend, NULL, NULL, &rng) == S2R_OK);
        memcpy(cmd, real.backend.info->q_home, sizeof cmd);
        for (t = 0; t < 200; t++) {
            cmd[t % 6] += 0.01 * s2r_rng_range(&rng, -1, 1);
            CHECK(s2r_backend_command(&real.backend, cmd) == S2R_OK);
            CHECK(s2r_backend_advance(&real.backend, 0.04) == S2R_OK);
            s2r_backend_read_sensors(&real.backend, &s);
            memcpy((pass ? qb : qa) + 6 * t, s.q, sizeof cmd);
        }
        s2r_real_robot_free(&real);
    }
    CHECK(memcmp(qa, qb, sizeof qa) == 0);
    return 0;
}

/* Stepping allocates nothing: the reach task with a policy acting, on the
   randomized simulator and on a real unit, episodes and resets included,
   makes no call to S2R_MALLOC / S2R_REALLOC. */
static int test_step_loop_allocates_nothing(void) {
    s2r_sim sim;
    s2r_sim_config sc = s2r_sim_config_default(S2R_ROBOT_PANDA);
    s2r_real_robot real;
    s2r_reach on_sim, on_real;
    s2r_reach_config rc = s2r_reach_config_default();
    s2r_policy policy;
    s2r_policy_shape shape;
    s2r_rng rng = s2r_rng_make(8, 0);
    float obs[S2R_REACH_MAX_OBS], act[S2R_MAX_JOINTS];
    s2r_step_result r;
    long before;
    int t, k;
    sc.randomization = s2r_randomization_default();
    CHECK(s2r_sim_init(&sim, &sc) == S2R_OK && s2r_real_robot_init(&real, S2R_ROBOT_PANDA, 2) == S2R_OK);
    CHECK(s2r_reach_init(&on_sim, &rc, &sim.backend) == S2R_OK && s2r_reach_init(&on_real, &rc, &real.backend) == S2R_OK);
    memset(&shape, 0, sizeof shape);
    shape.obs_dim = on_sim.obs_dim; shape.act_dim = 7; shape.num_hidden = 2; shape.hidden[0] = shape.hidden[1] = 32;
    CHECK(s2r_policy_init(&policy, &shape, -0.5f, 10.0f, &rng) == S2R_OK);
    before = s2r_test_allocations;
    for (k = 0; k < 2; k++) {
        s2r_reach* task = k ? &on_real : &on_sim;
        CHECK(s2r_reach_reset(task, &rng, obs) == S2R_OK);
        for (t = 0; t < 120; t++) {
            CHECK(s2r_policy_act(&policy, obs, act, 0, &rng) == S2R_OK);
            CHECK(s2r_reach_step(task, act, obs, &r) == S2R_OK);
            if (r.done) CHECK(s2r_reach_reset(task, &rng, obs) == S2R_OK);
        }
    }
    CHECKF(s2r_test_allocations == before, "%ld allocations while stepping", s2r_test_allocations - before);
    s2r_policy_free(&policy);
    s2r_reach_free(&on_sim); s2r_reach_free(&on_real);
    s2r_sim_free(&sim); s2r_real_robot_free(&real);
    return 0;
}

/* Gap attribution's units: with every effect off a unit moves and senses
   exactly as the nominal simulator (both scenes); one effect off changes
   only that effect; a mask naming no effect is refused. */
static int test_ablated_units(void) {
    int scene;
    for (scene = 0; scene < 2; scene++) {
        s2r_sim sim;
        s2r_sim_config c = s2r_sim_config_default(S2R_ROBOT_UR5E);
        s2r_real_robot real, whole, no_offset;
        s2r_sensors a, b;
        double q[S2R_MAX_JOINTS];
        int j;
        c.scene = (s2r_scene)scene;
        c.max_latency = 0.2;
        CHECK(s2r_sim_init(&sim, &c) == S2R_OK);
        CHECK(s2r_real_robot_init_ablated(&real, S2R_ROBOT_UR5E, (s2r_scene)scene, 4, S2R_EFFECTS_ALL) == S2R_OK);
        CHECK(s2r_backend_reset(&sim.backend, NULL, NULL, NULL) == S2R_OK);
        CHECK(s2r_backend_reset(&real.backend, NULL, NULL, NULL) == S2R_OK);
        memcpy(q, sim.robot.info.q_home, sizeof q);
        for (j = 0; j < sim.robot.info.n_joints; j++) q[j] += 0.05 * (j % 2 ? 1 : -1);
        CHECK(s2r_backend_command(&sim.backend, q) == S2R_OK && s2r_backend_command(&real.backend, q) == S2R_OK);
        CHECK(s2r_backend_advance(&sim.backend, 0.3) == S2R_OK && s2r_backend_advance(&real.backend, 0.3) == S2R_OK);
        CHECK(s2r_backend_read_sensors(&sim.backend, &a) == S2R_OK && s2r_backend_read_sensors(&real.backend, &b) == S2R_OK);
        for (j = 0; j < sim.robot.info.n_joints; j++)
            CHECKF(fabs(a.q[j] - b.q[j]) < 1e-9 && fabs(a.qd[j] - b.qd[j]) < 1e-7, "joint %d: %.9f vs %.9f", j, a.q[j], b.q[j]);
        if (scene) CHECK(fabs(a.object[0] - b.object[0]) < 1e-9 && fabs(a.object[1] - b.object[1]) < 1e-9);
        CHECK(s2r_real_robot_init_scene(&whole, S2R_ROBOT_UR5E, (s2r_scene)scene, 4) == S2R_OK);
        CHECK(s2r_real_robot_init_ablated(&no_offset, S2R_ROBOT_UR5E, (s2r_scene)scene, 4, 1u << S2R_EFFECT_CALIBRATION) == S2R_OK);
        {
            const s2r_real_unit *u = s2r_real_robot_oracle(&whole), *v = s2r_real_robot_oracle(&no_offset);
            CHECK(u->draw.target_offset[0] != 0 && v->draw.target_offset[0] == 0);
            CHECK(memcmp(u->draw.value, v->draw.value, sizeof u->draw.value) == 0 && u->backlash[0] == v->backlash[0]);
        }
        s2r_real_robot_free(&whole);
        s2r_real_robot_free(&no_offset);
        s2r_real_robot_free(&real);
        s2r_sim_free(&sim);
    }
    {
        s2r_real_robot bad;
        CHECK(s2r_real_robot_init_ablated(&bad, S2R_ROBOT_UR5E, S2R_SCENE_ARM, 1, 1u << S2R_EFFECT_COUNT) == S2R_ERR_INVALID_ARGUMENT);
        CHECK(strstr(bad.error, "effects") != NULL);
    }
    CHECK(strcmp(s2r_effect_name(S2R_EFFECT_WORN_PATCH), "worn_patch") == 0 && strcmp(s2r_effect_name(S2R_EFFECT_COUNT), "unknown") == 0);
    CHECK(!s2r_effect_in_scene(S2R_EFFECT_TABLE, S2R_SCENE_ARM) && s2r_effect_in_scene(S2R_EFFECT_TABLE, S2R_SCENE_PUSH));
    return 0;
}

/* What a privileged critic sees (s2r_sim_privileged): zeros before any
   draw; a pinned draw reads in units of the ranges - kp at the top of
   0.85-1.15 is +1, the command latency at the bottom of 10-30 ms -1, kv
   per joint averages (0.9 and 1.1 on alternate joints: 0 on an even
   count), an entry the ranges leave off (target_offset) reads 0; a
   random draw stays within [-1, 1] for uniform ranges. */
static int test_sim_privileged(void) {
    s2r_sim sim;
    s2r_sim_config c = s2r_sim_config_default(S2R_ROBOT_UR5E);
    s2r_rng rng = s2r_rng_make(4, 0);
    s2r_sim_draw d;
    float z[S2R_PRIVILEGED_DIM];
    int p, j;
    c.randomization = s2r_randomization_default();
    CHECKF(s2r_sim_init(&sim, &c) == S2R_OK, "%s", sim.error);
    s2r_sim_privileged(&sim, z);
    for (p = 0; p < S2R_PRIVILEGED_DIM; p++) CHECKF(z[p] == 0, "before any draw: %s %g", p < S2R_PARAM_COUNT ? s2r_param_name((s2r_param)p) : "target y/z", z[p]);
    CHECK(s2r_backend_reset(&sim.backend, NULL, NULL, &rng) == S2R_OK);
    s2r_sim_privileged(&sim, z);
    for (p = 0; p < S2R_PRIVILEGED_DIM; p++) CHECKF(z[p] >= -1 && z[p] <= 1, "%d: %g", p, z[p]);
    d = sim.draw;
    d.per_joint = 1;
    for (j = 0; j < 6; j++) {
        d.joint[S2R_PARAM_KP][j] = 1.15;
        d.joint[S2R_PARAM_KV][j] = j % 2 ? 1.1 : 0.9;
    }
    d.value[S2R_PARAM_ACTION_LATENCY] = 0.010;
    d.target_offset[1] = 0.02;
    CHECK(s2r_sim_pin_draw(&sim, &d) == S2R_OK && s2r_backend_reset(&sim.backend, NULL, NULL, NULL) == S2R_OK);
    s2r_sim_privileged(&sim, z);
    CHECKF(fabs(z[S2R_PARAM_KP] - 1) < 1e-5, "kp %g", z[S2R_PARAM_KP]);
    CHECKF(fabs(z[S2R_PARAM_KV]) < 1e-5, "kv %g", z[S2R_PARAM_KV]);
    CHECKF(fabs(z[S2R_PARAM_ACTION_LATENCY] + 1) < 1e-5, "latency %g", z[S2R_PARAM_ACTION_LATENCY]);
    CHECK(z[S2R_PARAM_TARGET_OFFSET] == 0 && z[S2R_PARAM_COUNT] == 0);
    s2r_sim_free(&sim);
    return 0;
}

static const test_case sim_tests[] = {
    {"sim: the step loop allocates nothing (counted through S2R_MALLOC)", test_step_loop_allocates_nothing},
    {"sim: randomize then restore is bit-identical to nominal", test_randomize_then_restore},
    {"sim: payload reaches the model consistently", test_payload_and_mass},
    {"sim: each joint draws its own gains, damping and limits", test_per_joint_draws},
    {"sim: 20 ms action latency is exactly 20 ms of physics steps", test_action_latency_steps},
    {"sim: NaN, min > max and huge latency rejected", test_bad_randomization},
    {"sim: nominal sensors exact, noisy sensors not", test_sensing_noise},
    {"sim: a privileged critic sees the draw in units of the ranges", test_sim_privileged},
    {"real: same unit seed same robot, other seed differs", test_real_units},
    {"real: same seeds give the same trajectory", test_real_deterministic},
    {"real: a unit with every effect off is the nominal simulator; one off changes only it", test_ablated_units},
};
