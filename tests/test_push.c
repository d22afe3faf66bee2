/* tests/test_push.c - the push task: its scene, the object's physics, the
   camera, the tip's Cartesian control, the fleet's table and object, the
   task's episodes and the scripted pusher.  Included by tests/test_main.c. */
#include "test.h"

/* A simulator of `kind` in the push scene with randomization r (NULL:
   nominal). */
static int push_sim(s2r_sim* sim, s2r_robot_kind kind, const s2r_randomization* r) {
    s2r_sim_config c = s2r_task_sim_config(S2R_TASK_PUSH, kind);
    if (r) c.randomization = *r;
    if (s2r_sim_init(sim, &c) != S2R_OK) { printf("    %s\n", sim->error); return 1; }
    return 0;
}

/* The push scene loads on both arms with its parts found and the arm's
   facts unchanged; the push area is on the table; the arm alone has none. */
static int test_push_scene(void) {
    int k;
    for (k = 0; k < 2; k++) {
        s2r_robot arm, push;
        CHECK(s2r_robot_load(&arm, (s2r_robot_kind)k) == S2R_OK);
        CHECKF(s2r_robot_load_scene(&push, (s2r_robot_kind)k, S2R_SCENE_PUSH) == S2R_OK, "%s", push.error);
        CHECK(arm.info.scene == S2R_SCENE_ARM && arm.tip_site < 0 && arm.object_body < 0);
        CHECK(push.info.scene == S2R_SCENE_PUSH && push.tip_site >= 0 && push.object_body >= 0);
        CHECK(push.pair_object_table >= 0 && push.pair_tip_object >= 0 && push.pair_tip_table >= 0);
        CHECK(push.info.n_joints == arm.info.n_joints && fabs(push.info.total_mass - arm.info.total_mass) < 1e-9);
        CHECK(fabs(push.info.object_mass - 0.2) < 1e-12 && fabs(push.info.object_radius - 0.035) < 1e-12 && fabs(push.info.object_half_height - 0.025) < 1e-12);
        CHECK(push.info.push_area_lo[0] > push.info.table_lo[0] && push.info.push_area_hi[0] < push.info.table_hi[0]);
        CHECK(push.info.push_area_lo[1] > push.info.table_lo[1] && push.info.push_area_hi[1] < push.info.table_hi[1]);
        CHECK(arm.model->npair == 0 && push.model->npair == 3);
        s2r_robot_free(&arm);
        s2r_robot_free(&push);
    }
    return 0;
}

/* A custom push scene missing its parts is refused with a message naming
   them; the push task refuses a backend without the scene. */
static int test_push_scene_refused(void) {
    static const char* no_pairs =
        "<mujoco><worldbody><geom name='table' type='plane' size='1 1 0.1'/>"
        "<body name='l'><joint name='j' type='hinge' limited='true' range='-1 1'/><geom type='capsule' size='0.02 0.1'/>"
        "<site name='flange'/><site name='tip'/><geom name='tip' type='sphere' size='0.01'/></body>"
        "<body name='object' pos='0 0 0.02'><joint type='free'/><geom name='object' type='cylinder' size='0.03 0.02'/></body>"
        "</worldbody><actuator><general joint='j' biastype='affine' gainprm='10' biasprm='0 -10 -1' "
        "forcelimited='true' forcerange='-5 5'/></actuator></mujoco>";
    s2r_robot r;
    s2r_sim sim;
    s2r_push push;
    s2r_push_config pc = s2r_push_config_default();
    s2r_sim_config c = s2r_sim_config_default(S2R_ROBOT_UR5E);
    CHECK(s2r_robot_load_xml(&r, no_pairs) == S2R_ERR_MODEL);
    CHECKF(strstr(r.error, "pair") != NULL, "%s", r.error);
    CHECK(s2r_sim_init(&sim, &c) == S2R_OK);
    CHECK(s2r_push_init(&push, &pc, &sim.backend) == S2R_ERR_INVALID_ARGUMENT);
    CHECKF(strstr(push.error, "push scene") != NULL, "%s", push.error);
    CHECK(s2r_backend_place_object(&sim.backend, (const double[2]){0, 0}) == S2R_ERR_UNSUPPORTED);
    s2r_sim_free(&sim);
    return 0;
}

/* A puck set sliding at v0 stops after v0^2 / (2 mu g) on the table, for
   the nominal friction and for friction pinned at 0.5x and 1.5x (soft
   contacts and the 0.01 N s/m of damping shorten it by a few percent). */
static int test_push_slide_distance(void) {
    static const double scale[3] = {1.0, 0.5, 1.5};
    int k;
    for (k = 0; k < 3; k++) {
        s2r_randomization r = s2r_randomization_none();
        s2r_sim sim;
        s2r_rng rng = s2r_rng_make(1, 0);
        double xy[2], x0, mu, expected, slid;
        r.p[S2R_PARAM_OBJECT_FRICTION].enabled = 1;
        r.p[S2R_PARAM_OBJECT_FRICTION].dist = s2r_dist_fixed(scale[k]);
        if (push_sim(&sim, S2R_ROBOT_UR5E, &r)) return 1;
        xy[0] = sim.robot.info.table_lo[0] + 0.1;
        xy[1] = 0.5 * (sim.robot.info.table_lo[1] + sim.robot.info.table_hi[1]);
        CHECK(s2r_backend_reset(&sim.backend, NULL, NULL, &rng) == S2R_OK);
        CHECK(s2r_backend_place_object(&sim.backend, xy) == S2R_OK);
        CHECK(s2r_backend_advance(&sim.backend, 0.1) == S2R_OK);          /* settle on the table */
        x0 = sim.robot.data->xpos[3 * sim.robot.object_body];
        sim.robot.data->qvel[sim.robot.object_dof_adr] = 1.0;            /* m/s along x */
        CHECK(s2r_backend_advance(&sim.backend, 1.0) == S2R_OK);
        mu = sim.robot.model->pair_friction[5 * sim.robot.pair_object_table];
        expected = 1.0 / (2 * mu * 9.81);
        slid = sim.robot.data->xpos[3 * sim.robot.object_body] - x0;
        CHECKF(fabs(mu - 0.3 * scale[k]) < 1e-12, "mu %g", mu);
        CHECKF(slid < expected && slid > 0.93 * expected, "mu %.2f: slid %.4f m, v^2/(2 mu g) = %.4f m", mu, slid, expected);
        CHECK(fabs(sim.robot.data->qvel[sim.robot.object_dof_adr]) < 1e-3);
        s2r_sim_free(&sim);
    }
    return 0;
}

/* The tip follows a commanded planar velocity on both arms: 0.1 m/s for
   1 s moves it 0.1 m (within 1.5 cm: the servos lag and the start is from
   rest) along the command, at pushing height (within 3 mm) with the tool
   vertical (within 2 degrees). */
static int test_push_tip_tracks_velocity(void) {
    int k, i, d;
    for (k = 0; k < 2; k++)
        for (d = 0; d < 2; d++) {
            s2r_sim sim;
            s2r_push push;
            s2r_push_config pc = s2r_push_config_default();
            s2r_rng rng = s2r_rng_make(3, 0);
            s2r_ground_truth g0, g1;
            s2r_step_result out;
            float obs[S2R_PUSH_OBS], a[2] = {0, 0};
            const s2r_arm_info* info;
            double tip[2], object[2], goal[2], moved[2], height, axis;
            const double* R;
            if (push_sim(&sim, (s2r_robot_kind)k, NULL)) return 1;
            info = &sim.robot.info;
            CHECK(s2r_push_init(&push, &pc, &sim.backend) == S2R_OK);
            tip[0] = 0.5 * (info->push_area_lo[0] + info->push_area_hi[0]) - (d == 0 ? 0.05 : 0);
            tip[1] = 0.5 * (info->push_area_lo[1] + info->push_area_hi[1]) - (d == 1 ? 0.05 : 0);
            object[0] = info->push_area_lo[0];   /* out of the way */
            object[1] = info->push_area_hi[1];
            goal[0] = info->push_area_hi[0];
            goal[1] = info->push_area_hi[1];
            CHECKF(s2r_push_reset_to(&push, tip, object, goal, &rng, obs) == S2R_OK, "%s", push.error);
            for (i = 0; i < 5; i++) CHECK(s2r_push_step(&push, a, obs, &out) == S2R_OK);   /* settle */
            CHECK(s2r_backend_ground_truth(&sim.backend, &g0) == S2R_OK);
            a[d] = (float)(0.1 / pc.max_speed);
            for (i = 0; i < 25; i++) CHECK(s2r_push_step(&push, a, obs, &out) == S2R_OK);
            a[d] = 0;
            for (i = 0; i < 10; i++) CHECK(s2r_push_step(&push, a, obs, &out) == S2R_OK);
            CHECK(s2r_backend_ground_truth(&sim.backend, &g1) == S2R_OK);
            moved[0] = g1.tip[0] - g0.tip[0];
            moved[1] = g1.tip[1] - g0.tip[1];
            height = g1.tip[2] - (info->table_height + pc.push_height);
            R = sim.robot.data->site_xmat + 9 * sim.robot.tip_site;
            axis = acos(s2r_clamp(-R[8], -1, 1));
            CHECKF(fabs(moved[d] - 0.1) < 0.015 && fabs(moved[1 - d]) < 0.01,
                   "%s, axis %d: moved (%.4f, %.4f) m for 0.1 m", info->name, d, moved[0], moved[1]);
            CHECKF(fabs(height) < 0.003, "%s: tip %.1f mm off pushing height", info->name, 1000 * height);
            CHECKF(axis < 2 * 3.14159265 / 180, "%s: tool %.2f deg off vertical", info->name, axis * 180 / 3.14159265);
            s2r_push_free(&push);
            s2r_sim_free(&sim);
        }
    return 0;
}

/* Each built-in scene steps at its own timestep (bench/bench_timestep.c
   chose them): from home, a step of 0.004 rad on every joint (no servo
   saturates) moves each joint as it does at 1 ms, within 5 % of the step
   at 50 ms, 3 % at 150 ms and 1.5 % at 350 ms. */
static int test_push_step_response(void) {
    static const double at[3] = {0.05, 0.15, 0.35}, tolerance[3] = {0.05, 0.03, 0.015};
    int k, scene, fine, i, j;
    for (k = 0; k < 2; k++)
        for (scene = 0; scene < 2; scene++) {
            double moved[2][3][S2R_MAX_JOINTS];
            for (fine = 0; fine < 2; fine++) {
                s2r_sim sim;
                s2r_sim_config c = s2r_task_sim_config(scene ? S2R_TASK_PUSH : S2R_TASK_REACH, (s2r_robot_kind)k);
                const s2r_arm_info* info;
                double q[S2R_MAX_JOINTS], t = 0;
                if (s2r_sim_init(&sim, &c) != S2R_OK) { printf("    %s\n", sim.error); return 1; }
                if (fine) CHECK(s2r_sim_set_timestep(&sim, 0.001) == S2R_OK);
                info = sim.backend.info;
                CHECK(s2r_backend_reset(&sim.backend, NULL, NULL, NULL) == S2R_OK);
                for (j = 0; j < info->n_joints; j++) q[j] = info->q_home[j] + 0.004;
                CHECK(s2r_backend_command(&sim.backend, q) == S2R_OK);
                for (i = 0; i < 3; i++) {
                    CHECK(s2r_backend_advance(&sim.backend, at[i] - t) == S2R_OK);
                    t = at[i];
                    for (j = 0; j < info->n_joints; j++)
                        moved[fine][i][j] = (sim.robot.data->qpos[sim.robot.qpos_adr[j]] - info->q_home[j]) / 0.004;
                }
                s2r_sim_free(&sim);
            }
            for (i = 0; i < 3; i++)
                for (j = 0; j < (k ? 7 : 6); j++)
                    CHECKF(fabs(moved[0][i][j] - moved[1][i][j]) <= tolerance[i], "%s %s joint %d at %.2f s: %.4f of the "
                           "step, %.4f at 1 ms", s2r_robot_kind_name((s2r_robot_kind)k), scene ? "push" : "arm", j + 1,
                           at[i], moved[0][i][j], moved[1][i][j]);
        }
    return 0;
}

/* The camera: with a delay of 0.06 s and a 30 fps frame clock the
   perceived object is the true one of 60 ms ago plus up to one frame
   period, and it changes only every 1/30 s; with every frame missed (dropout 1) it stays where it was first
   seen.  The nominal simulator's camera is exact. */
static int test_push_camera(void) {
    s2r_randomization r = s2r_randomization_none();
    s2r_sim sim;
    s2r_sim_config c = s2r_task_sim_config(S2R_TASK_PUSH, S2R_ROBOT_PANDA);
    s2r_rng rng = s2r_rng_make(2, 0);
    s2r_sensors s;
    s2r_ground_truth g;
    double xy[2], history[200], seen0, dt;
    int i, changes = 0;
    /* exact */
    if (push_sim(&sim, S2R_ROBOT_PANDA, NULL)) return 1;
    xy[0] = sim.robot.info.push_area_lo[0];
    xy[1] = 0;
    CHECK(s2r_backend_reset(&sim.backend, NULL, NULL, &rng) == S2R_OK && s2r_backend_place_object(&sim.backend, xy) == S2R_OK);
    sim.robot.data->qvel[sim.robot.object_dof_adr] = 0.5;
    for (i = 0; i < 10; i++) {
        CHECK(s2r_backend_advance(&sim.backend, 0.01) == S2R_OK);
        s2r_backend_read_sensors(&sim.backend, &s);
        s2r_backend_ground_truth(&sim.backend, &g);
        CHECK(s.object[0] == g.object[0] && s.object[1] == g.object[1]);
    }
    s2r_sim_free(&sim);
    /* delayed, 30 fps */
    r.p[S2R_PARAM_CAMERA_LATENCY].enabled = 1;
    r.p[S2R_PARAM_CAMERA_LATENCY].dist = s2r_dist_fixed(0.06);
    c.randomization = r;
    c.camera_period = 1.0 / 30;
    CHECK(s2r_sim_init(&sim, &c) == S2R_OK);
    CHECK(s2r_backend_reset(&sim.backend, NULL, NULL, &rng) == S2R_OK && s2r_backend_place_object(&sim.backend, xy) == S2R_OK);
    sim.robot.data->qvel[sim.robot.object_dof_adr] = 0.5;
    dt = sim.robot.model->opt.timestep;
    for (i = 0; i < (int)(0.3 / dt + 0.5); i++) {   /* 0.3 s, a reading every physics step */
        CHECK(s2r_backend_advance(&sim.backend, dt) == S2R_OK);
        s2r_backend_read_sensors(&sim.backend, &s);
        s2r_backend_ground_truth(&sim.backend, &g);
        history[i] = g.object[0];
        if (i > 0 && s.object[0] != seen0) changes++;
        seen0 = s.object[0];
        if (i * dt >= 0.12) {   /* the frame shown is 60-94 ms old: the delay plus up to a frame period */
            int k, found = 0;
            for (k = (int)(0.06 / dt + 0.5); k <= (int)(0.094 / dt + 0.5); k++) found |= fabs(s.object[0] - history[i - k]) < 1e-12;
            CHECKF(found, "reading %d: %.5f is not the object of 60-94 ms ago", i, s.object[0]);
        }
    }
    CHECKF(changes >= 8 && changes <= 10, "%d new frames in 0.3 s at 30 fps", changes);
    s2r_sim_free(&sim);
    /* every frame missed: the first one stays */
    r = s2r_randomization_none();
    r.p[S2R_PARAM_OBJECT_DROPOUT].enabled = 1;
    r.p[S2R_PARAM_OBJECT_DROPOUT].dist = s2r_dist_fixed(1.0);
    if (push_sim(&sim, S2R_ROBOT_PANDA, &r)) return 1;
    CHECK(s2r_backend_reset(&sim.backend, NULL, NULL, &rng) == S2R_OK && s2r_backend_place_object(&sim.backend, xy) == S2R_OK);
    s2r_backend_read_sensors(&sim.backend, &s);
    seen0 = s.object[0];
    sim.robot.data->qvel[sim.robot.object_dof_adr] = 0.5;
    CHECK(s2r_backend_advance(&sim.backend, 0.2) == S2R_OK);
    s2r_backend_read_sensors(&sim.backend, &s);
    s2r_backend_ground_truth(&sim.backend, &g);
    CHECK(s.object[0] == seen0 && g.object[0] > seen0 + 0.02);
    s2r_sim_free(&sim);
    return 0;
}

/* The fleet's tables and objects: every value inside its documented range,
   the same unit twice is the same, and a unit's arm is the same whichever
   scene it is built in. */
static int test_push_fleet_ranges(void) {
    s2r_robot robot;
    uint64_t seed;
    CHECK(s2r_robot_load_scene(&robot, S2R_ROBOT_UR5E, S2R_SCENE_PUSH) == S2R_OK);
    for (seed = 1; seed <= 50; seed++) {
        s2r_real_unit u, again;
        const double* v = u.draw.value;
        CHECK(s2r_real_unit_draw(&robot.info, seed, &u) == S2R_OK && s2r_real_unit_draw(&robot.info, seed, &again) == S2R_OK);
        CHECK(memcmp(&u, &again, sizeof u) == 0);
        CHECK(v[S2R_PARAM_OBJECT_FRICTION] >= 0.6 && v[S2R_PARAM_OBJECT_FRICTION] <= 1.6);
        CHECK(v[S2R_PARAM_OBJECT_MASS] >= 0.8 && v[S2R_PARAM_OBJECT_MASS] <= 1.25);
        CHECK(v[S2R_PARAM_TIP_FRICTION] >= 0.6 && v[S2R_PARAM_TIP_FRICTION] <= 1.4);
        CHECK(fabs(v[S2R_PARAM_TABLE_HEIGHT]) <= 0.008);
        CHECK(v[S2R_PARAM_CAMERA_LATENCY] >= 0.05 && v[S2R_PARAM_CAMERA_LATENCY] <= 0.09);
        CHECK(hypot(u.draw.object_com[0], u.draw.object_com[1]) <= 0.005 && u.draw.object_com[2] == 0);
        CHECK(fabs(u.draw.table_tilt[0]) <= 0.005 && fabs(u.draw.table_tilt[1]) <= 0.005);
        CHECK(u.patch_radius >= 0.06 && u.patch_radius <= 0.1 && u.patch_friction >= 0.5 && u.patch_friction <= 0.7);
        CHECK(u.patch_centre[0] >= robot.info.push_area_lo[0] && u.patch_centre[0] <= robot.info.push_area_hi[0]);
    }
    {
        s2r_real_robot a, b;
        CHECK(s2r_real_robot_init(&a, S2R_ROBOT_UR5E, 7) == S2R_OK);
        CHECK(s2r_real_robot_init_scene(&b, S2R_ROBOT_UR5E, S2R_SCENE_PUSH, 7) == S2R_OK);
        CHECK(memcmp(s2r_real_robot_oracle(&a)->draw.link_mass, s2r_real_robot_oracle(&b)->draw.link_mass,
                     sizeof a.hidden_unit.draw.link_mass) == 0);
        CHECK(s2r_real_robot_oracle(&a)->draw.value[S2R_PARAM_KP] == s2r_real_robot_oracle(&b)->draw.value[S2R_PARAM_KP]);
        CHECK(memcmp(s2r_real_robot_oracle(&a)->draw.target_offset, s2r_real_robot_oracle(&b)->draw.target_offset,
                     sizeof a.hidden_unit.draw.target_offset) == 0);
        s2r_real_robot_free(&a);
        s2r_real_robot_free(&b);
    }
    s2r_robot_free(&robot);
    return 0;
}

/* An episode: the object left on the goal with the arm still succeeds, one
   left 10 cm away fails; observations and rewards are finite; bad input
   (NaN action, a goal or object off the table, a step before reset) is an
   error that changes nothing. */
static int test_push_episode(void) {
    s2r_sim sim;
    s2r_push push;
    s2r_push_config pc = s2r_push_config_default();
    s2r_rng rng = s2r_rng_make(4, 0);
    s2r_step_result out;
    float obs[S2R_PUSH_OBS], zero[2] = {0, 0}, nan_action[2] = {NAN, 0};
    const s2r_arm_info* info;
    double tip[2], object[2], goal[2], off[2];
    int i, d;
    if (push_sim(&sim, S2R_ROBOT_UR5E, NULL)) return 1;
    info = &sim.robot.info;
    CHECK(s2r_push_init(&push, &pc, &sim.backend) == S2R_OK);
    CHECK(s2r_push_step(&push, zero, obs, &out) == S2R_ERR_STATE);
    for (d = 0; d < 2; d++) {
        tip[0] = info->push_area_lo[0];
        tip[1] = info->push_area_lo[1];
        object[0] = 0.5 * (info->push_area_lo[0] + info->push_area_hi[0]);
        object[1] = 0.5 * (info->push_area_lo[1] + info->push_area_hi[1]);
        goal[0] = object[0] + (d == 0 ? 0.01 : 0.1);
        goal[1] = object[1];
        CHECK(s2r_push_reset_to(&push, tip, object, goal, &rng, obs) == S2R_OK);
        CHECK(s2r_all_finite_f(obs, S2R_PUSH_OBS));
        CHECK(fabs(obs[4] - object[0]) < 1e-6 && fabs(obs[6] - goal[0]) < 1e-6 && fabs(obs[10] - (goal[0] - object[0])) < 1e-6);
        for (i = 0; i < pc.episode_steps; i++) {
            CHECK(s2r_push_step(&push, zero, obs, &out) == S2R_OK);
            CHECK(isfinite(out.reward) && s2r_all_finite_f(obs, S2R_PUSH_OBS));
            CHECK(out.done == (i == pc.episode_steps - 1));
        }
        CHECK(out.truncated && !out.terminated && out.success == (d == 0));
        CHECK(obs[18] == 0.0f && obs[19] == 0.0f);   /* nothing moved it */
        CHECK(fabs(out.distance - (d == 0 ? 0.01 : 0.1)) < 1e-3);
    }
    CHECK(s2r_push_reset_to(&push, tip, object, goal, &rng, obs) == S2R_OK);
    CHECK(s2r_push_step(&push, nan_action, obs, &out) == S2R_ERR_INVALID_ARGUMENT && push.step == 0);
    off[0] = info->table_hi[0] + 0.1;
    off[1] = object[1];
    CHECK(s2r_push_reset_to(&push, tip, object, off, &rng, obs) == S2R_ERR_INVALID_ARGUMENT);
    CHECKF(strstr(push.error, "goal") && strstr(push.error, "off the table"), "%s", push.error);
    CHECK(s2r_push_reset_to(&push, tip, off, goal, &rng, obs) == S2R_ERR_INVALID_ARGUMENT);
    CHECKF(strstr(push.error, "object"), "%s", push.error);
    CHECK(s2r_backend_place_object(&sim.backend, off) == S2R_ERR_INVALID_ARGUMENT);
    s2r_push_free(&push);
    s2r_sim_free(&sim);
    return 0;
}

/* The push ranges and their bad values: the family validates, a dropout
   above 1, a zero object mass scale and a negative camera delay are
   refused with the parameter named. */
static int test_push_ranges_checked(void) {
    s2r_randomization r = s2r_randomization_push();
    char error[S2R_ERROR_LEN];
    CHECKF(s2r_randomization_check(&r, error) == S2R_OK, "%s", error);
    r.p[S2R_PARAM_OBJECT_DROPOUT].dist = s2r_dist_uniform(0, 1.5);
    CHECK(s2r_randomization_check(&r, error) == S2R_ERR_INVALID_ARGUMENT && strstr(error, "object_dropout"));
    r = s2r_randomization_push();
    r.p[S2R_PARAM_OBJECT_MASS].dist = s2r_dist_uniform(0, 1);
    CHECK(s2r_randomization_check(&r, error) == S2R_ERR_INVALID_ARGUMENT && strstr(error, "object_mass"));
    r = s2r_randomization_push();   /* widening keeps a probability a probability (found by fuzzing) */
    r.p[S2R_PARAM_OBJECT_DROPOUT].dist = s2r_dist_uniform(0.01, 1.0);
    CHECK(s2r_randomization_widen(&r, 2.0) == S2R_OK && r.p[S2R_PARAM_OBJECT_DROPOUT].dist.hi == 1.0);
    CHECKF(s2r_randomization_check(&r, error) == S2R_OK, "%s", error);
    r = s2r_randomization_push();
    r.p[S2R_PARAM_CAMERA_LATENCY].dist = s2r_dist_uniform(-0.01, 0.1);
    CHECK(s2r_randomization_check(&r, error) == S2R_ERR_INVALID_ARGUMENT && strstr(error, "camera_latency"));
    return 0;
}

/* The scripted pusher gets the object to the goal in the nominal
   simulator on both arms (>= 80 % of 40 episodes; 95-97 % over 100), the same
   seeds give the same result twice, and stepping allocates nothing. */
static int test_push_scripted_pusher(void) {
    int k;
    for (k = 0; k < 2; k++) {
        s2r_sim sim;
        s2r_task task;
        s2r_task_config tc = s2r_task_config_default(S2R_TASK_PUSH);
        s2r_expert e;
        s2r_expert_config ec = s2r_expert_config_default();
        s2r_controller c;
        s2r_eval_result r1, r2;
        long before;
        if (push_sim(&sim, (s2r_robot_kind)k, NULL)) return 1;
        CHECK(s2r_task_init(&task, &tc, &sim.backend) == S2R_OK);
        CHECK(s2r_expert_init(&e, &ec, &tc, sim.backend.info) == S2R_OK);
        c = s2r_expert_controller(&e);
        CHECK(s2r_evaluate(&c, &task, 2, 5, &r1, NULL) == S2R_OK);   /* warm up */
        before = s2r_test_allocations;
        CHECK(s2r_evaluate(&c, &task, 40, 5, &r1, NULL) == S2R_OK);
        CHECKF(s2r_test_allocations == before, "%ld allocations while pushing", s2r_test_allocations - before);
        CHECK(s2r_evaluate(&c, &task, 40, 5, &r2, NULL) == S2R_OK);
        printf("    %s: scripted pusher %.0f %% in the nominal simulator\n", sim.robot.info.name, 100 * r1.success_rate);
        CHECKF(r1.success_rate >= 0.8, "%.2f", r1.success_rate);
        CHECK(r1.successes == r2.successes && r1.mean_distance == r2.mean_distance && r1.mean_return == r2.mean_return);
        s2r_expert_free(&e);
        s2r_task_free(&task);
        s2r_sim_free(&sim);
    }
    return 0;
}

/* --- The physics: the library's servos, the predefined pairs, the timestep */

/* The servo law the library computes (s2r__servo_torque) is MuJoCo's own
   position actuator's force, on states where the servos saturate and
   where they do not: a stand-in unit of each arm (its speed-dependent
   torque limit and backlash acting) and a randomized simulator, after
   every physics step of a 0.5 s step command of 0.4 rad on every joint
   and then of commands random within 0.3 rad of home.  MuJoCo's is read
   from a copy of the model with its actuation on. */
static int test_servo_law_is_mujocos(void) {
    int k, which, saturated = 0, compared = 0;
    for (k = 0; k < 2; k++)
        for (which = 0; which < 2; which++) {
            s2r_real_robot real;
            s2r_sim dr;
            s2r_sim_config c = s2r_task_sim_config(S2R_TASK_PUSH, (s2r_robot_kind)k);
            s2r_rng rng = s2r_rng_make(9, (uint64_t)(2 * k + which));
            s2r_sim* sim = which ? &dr : &real.hidden_sim;
            mjModel* mj = NULL;
            mjData* dj = NULL;
            double q[S2R_MAX_JOINTS];
            int j, step;
            c.randomization = s2r_task_randomization(S2R_TASK_PUSH);
            c.max_latency = 0.2;
            CHECK(which ? s2r_sim_init(&dr, &c) == S2R_OK
                        : s2r_real_robot_init_scene(&real, (s2r_robot_kind)k, S2R_SCENE_PUSH, 3) == S2R_OK);
            CHECK(sim->robot.servo == 1 && (sim->robot.model->opt.disableflags & mjDSBL_ACTUATION));
            CHECK(s2r_backend_reset(&sim->backend, NULL, NULL, &rng) == S2R_OK);
            for (step = 0; step < 250; step++) {
                const s2r_robot* r = &sim->robot;
                for (j = 0; j < r->info.n_joints; j++)
                    q[j] = r->info.q_home[j] + (step < 125 ? 0.4 : s2r_rng_range(&rng, -0.3, 0.3));
                if (step == 0 || step >= 125) CHECK(s2r_backend_command(&sim->backend, q) == S2R_OK);
                CHECK(s2r_backend_advance(&sim->backend, r->model->opt.timestep) == S2R_OK);
                mj = mj_copyModel(mj, r->model);
                mj->opt.disableflags &= ~mjDSBL_ACTUATION;
                if (!dj) dj = mj_makeData(mj);
                mj_copyData(dj, mj, r->data);
                mj_forward(mj, dj);
                for (j = 0; j < r->info.n_joints; j++) {
                    double damping, ours = s2r__servo_torque(r, j, &damping), theirs = dj->actuator_force[r->actuator[j]];
                    CHECKF(fabs(ours - theirs) <= 1e-9 * (1 + fabs(theirs)), "%s joint %d step %d: %.12g N m, MuJoCo's %.12g",
                           s2r_robot_kind_name((s2r_robot_kind)k), j + 1, step, ours, theirs);
                    CHECK(damping == -r->model->actuator_biasprm[r->actuator[j] * mjNBIAS + 2]);
                    saturated += fabs(fabs(ours) - r->model->actuator_forcerange[2 * r->actuator[j] + 1]) < 1e-12;
                    compared++;
                }
            }
            mj_deleteData(dj);
            mj_deleteModel(mj);
            if (which) s2r_sim_free(&dr); else s2r_real_robot_free(&real);
        }
    printf("    %d servo torques compared, %d of them at the torque limit\n", compared, saturated);
    CHECKF(saturated > compared / 20, "only %d of %d saturated", saturated, compared);
    return 0;
}

/* A backend that runs a simulator one physics step at a time and, after
   each, finds the contacts of its state twice - with its own model, which
   tests only the <pair>s, and with a copy that tests every geom pair - to
   compare them. */
typedef struct contact_check {
    s2r_sim*    sim;
    s2r_backend backend;
    mjModel*    model[2];     /* [0] the sim's collision, [1] every pair */
    mjData*     data[2];
    int         steps, differ, tip_object;
} contact_check;

static s2r_result check_reset(void* self, const double* q0, const double* target, s2r_rng* rng) {
    return s2r_backend_reset(&((contact_check*)self)->sim->backend, q0, target, rng);
}

static s2r_result check_command(void* self, const double* q) {
    return s2r_backend_command(&((contact_check*)self)->sim->backend, q);
}

static s2r_result check_place(void* self, const double xy[2]) {
    return s2r_backend_place_object(&((contact_check*)self)->sim->backend, xy);
}

static s2r_result check_sensors(void* self, s2r_sensors* out) {
    return s2r_backend_read_sensors(&((contact_check*)self)->sim->backend, out);
}

static s2r_result check_truth(void* self, s2r_ground_truth* out) {
    return s2r_backend_ground_truth(&((contact_check*)self)->sim->backend, out);
}

static s2r_result check_advance(void* self, double seconds) {
    contact_check* t = (contact_check*)self;
    const s2r_robot* r = &t->sim->robot;
    int i, c, k, n = s2r_robot_steps_for(r, seconds);
    for (i = 0; i < n; i++) {
        if (s2r_backend_advance(&t->sim->backend, r->model->opt.timestep) != S2R_OK) return S2R_ERR_DIVERGED;
        for (k = 0; k < 2; k++) {
            mj_copyModel(t->model[k], r->model);   /* the step's own friction, ranges, ... */
            t->model[k]->opt.collision = k ? mjCOL_ALL : r->model->opt.collision;
            mj_copyData(t->data[k], t->model[k], r->data);
            mj_forward(t->model[k], t->data[k]);
        }
        t->steps++;
        if (t->data[0]->ncon != t->data[1]->ncon) { t->differ++; continue; }
        for (c = 0; c < t->data[0]->ncon; c++) {
            const mjContact *x = &t->data[0]->contact[c], *y = &t->data[1]->contact[c];
            if (x->geom1 != y->geom1 || x->geom2 != y->geom2 || x->dist != y->dist || memcmp(x->pos, y->pos, sizeof x->pos) ||
                memcmp(x->friction, y->friction, sizeof x->friction))
                t->differ++;
            t->tip_object += (x->geom1 == r->tip_geom && x->geom2 == r->object_geom) ||
                             (x->geom1 == r->object_geom && x->geom2 == r->tip_geom);
        }
    }
    return S2R_OK;
}

/* The built-in scenes test only their <pair>s (collision='predefined'):
   every contact of scripted push episodes - which pairs, in which order,
   where, how deep, with which friction - is the one MuJoCo's broad phase
   over every geom pair finds in the same state, physics step by physics
   step, on both arms, and the tip meets the object in them. */
static int test_collision_pairs_only(void) {
    int k, m;
    for (k = 0; k < 2; k++) {
        s2r_sim sim;
        s2r_sim_config c = s2r_task_sim_config(S2R_TASK_PUSH, (s2r_robot_kind)k);
        s2r_task_config tc = s2r_task_config_default(S2R_TASK_PUSH);
        s2r_task task;
        s2r_expert expert;
        s2r_expert_config ec = s2r_expert_config_default();
        s2r_controller ctl;
        s2r_eval_result r;
        contact_check t;
        memset(&t, 0, sizeof t);
        CHECK(s2r_sim_init(&sim, &c) == S2R_OK);
        CHECK(sim.robot.model->opt.collision == mjCOL_PAIR);
        t.sim = &sim;
        t.backend = sim.backend;
        t.backend.self = &t;
        t.backend.reset = check_reset;
        t.backend.command = check_command;
        t.backend.advance = check_advance;
        t.backend.read_sensors = check_sensors;
        t.backend.ground_truth = check_truth;
        t.backend.place_object = check_place;
        t.backend.halt = NULL;
        for (m = 0; m < 2; m++) {
            t.model[m] = mj_copyModel(NULL, sim.robot.model);
            t.data[m] = mj_makeData(t.model[m]);
        }
        CHECK(s2r_task_init(&task, &tc, &t.backend) == S2R_OK);
        CHECK(s2r_expert_init(&expert, &ec, &tc, t.backend.info) == S2R_OK);
        ctl = s2r_expert_controller(&expert);
        CHECK(s2r_evaluate(&ctl, &task, 3, 5, &r, NULL) == S2R_OK);
        printf("    %s: %d physics steps, %d contacts of the tip on the object, %d differ\n", sim.robot.info.name,
               t.steps, t.tip_object, t.differ);
        CHECK(t.steps == 3 * tc.push.episode_steps * s2r_robot_steps_for(&sim.robot, tc.push.control_period));
        CHECK(t.differ == 0 && t.tip_object > 0);
        for (m = 0; m < 2; m++) { mj_deleteData(t.data[m]); mj_deleteModel(t.model[m]); }
        s2r_expert_free(&expert);
        s2r_task_free(&task);
        s2r_sim_free(&sim);
    }
    return 0;
}

/* --- An episode is its seed's alone ------------------------------------- */

#define SEED_STEPS 150   /* policy steps recorded of an episode, at most */
typedef struct seed_episode {
    int    steps;
    float  obs[SEED_STEPS + 1][S2R_PUSH_OBS + 64];
    float  action[SEED_STEPS][S2R_MAX_JOINTS];
    double qpos[SEED_STEPS + 1][64], qvel[SEED_STEPS + 1][64];   /* the whole simulator: arm and object */
    mjStatistic stat;                                              /* what a renderer frames the model by */
} seed_episode;

/* Episode `seed` of `task` on `sim`: the expert's actions recorded into
   e->action (record) or those replayed open loop, and after the reset and
   every step the observation and the simulator's whole qpos and qvel. */
static int seed_episode_run(s2r_sim* sim, s2r_task* task, s2r_controller* expert, uint64_t seed, int record,
                            seed_episode* e) {
    const mjModel* m = sim->robot.model;
    const mjData* d = sim->robot.data;
    s2r_rng rng = s2r_rng_make(seed, 0);
    s2r_step_result out;
    int k, steps = record ? SEED_STEPS : e->steps;
    if (task->env.reset(task->env.self, &rng, e->obs[0]) != S2R_OK || m->nq > 64 || m->nv > 64) return 1;
    e->stat = m->stat;
    memcpy(e->qpos[0], d->qpos, (size_t)m->nq * sizeof(double));
    memcpy(e->qvel[0], d->qvel, (size_t)m->nv * sizeof(double));
    if (expert->reset) expert->reset(expert->self);
    for (k = 0; k < steps; k++) {
        if (record && expert->act(expert->self, e->obs[k], e->action[k]) != S2R_OK) return 1;
        if (task->env.step(task->env.self, e->action[k], e->obs[k + 1], &out) != S2R_OK) return 1;
        memcpy(e->qpos[k + 1], d->qpos, (size_t)m->nq * sizeof(double));
        memcpy(e->qvel[k + 1], d->qvel, (size_t)m->nv * sizeof(double));
        if (record && out.done) { k++; break; }
    }
    if (record) e->steps = k;
    return 0;
}

/* The first step (0: after the reset) at which b is not a's episode bit
   for bit, -1 when none. */
static int seed_episode_differs(const s2r_sim* sim, const s2r_task* task, const seed_episode* a, const seed_episode* b) {
    int k;
    for (k = 0; k <= a->steps; k++)
        if (memcmp(a->obs[k], b->obs[k], (size_t)task->env.obs_dim * sizeof(float)) ||
            memcmp(a->qpos[k], b->qpos[k], (size_t)sim->robot.model->nq * sizeof(double)) ||
            memcmp(a->qvel[k], b->qvel[k], (size_t)sim->robot.model->nv * sizeof(double)))
            return k;
    return -1;
}

/* A randomized episode is a function of its seed alone: episode 9 under
   fixed actions (the expert's on a fresh simulator, replayed open loop) is
   the same bit for bit - observations, the whole simulator state at every
   step, the model's statistics - after any history of resets on the same
   simulator: reset 9 again at once, after episodes 4 and 5 stepped part
   way, after 4 resets with no step.  Each arm, both tasks, their default
   ranges and push's with the camera's calibration error.  (A push reset
   solves its start pose before the backend draws the episode; that
   solve, and every task's kinematics, must see the nominal model, not the
   one the previous episode drew - its masses move the centres of mass
   MuJoCo's Jacobians are taken about, in the last bits, and the tip's
   contact with the object carries that on.) */
static int test_push_episode_is_its_seed(void) {
    static seed_episode ref, again;
    int k, t, w, h, i;
    for (k = 0; k < 2; k++)
        for (t = 0; t < 2; t++)
            for (w = 0; w < 1 + t; w++) {
                s2r_task_kind kind = t ? S2R_TASK_PUSH : S2R_TASK_REACH;
                s2r_sim_config c = s2r_task_sim_config(kind, (s2r_robot_kind)k);
                s2r_task_config tc = s2r_task_config_default(kind);
                s2r_sim sim;
                s2r_task task;
                s2r_expert e;
                s2r_expert_config ec = s2r_expert_config_default();
                s2r_controller expert;
                c.randomization = s2r_task_randomization(kind);
                if (w) s2r_randomization_add_calibration(&c.randomization);
                CHECKF(s2r_sim_init(&sim, &c) == S2R_OK, "%s", sim.error);
                CHECK(s2r_task_init(&task, &tc, &sim.backend) == S2R_OK);
                CHECK(s2r_expert_init(&e, &ec, &tc, sim.backend.info) == S2R_OK);
                expert = s2r_expert_controller(&e);
                CHECK(seed_episode_run(&sim, &task, &expert, 9, 1, &ref) == 0 && ref.steps > 10);
                for (h = 0; h < 3; h++) {
                    int at;
                    if (h == 1) {   /* episodes 4 and 5, part way */
                        again.steps = 30;
                        for (i = 0; i < 2; i++) CHECK(seed_episode_run(&sim, &task, &expert, 4 + i, 0, &again) == 0);
                    }
                    if (h == 2) {   /* four resets, no step */
                        again.steps = 0;
                        for (i = 0; i < 4; i++) CHECK(seed_episode_run(&sim, &task, &expert, 20 + i, 0, &again) == 0);
                    }
                    memcpy(again.action, ref.action, sizeof ref.action);
                    again.steps = ref.steps;
                    CHECK(seed_episode_run(&sim, &task, &expert, 9, 0, &again) == 0);
                    at = seed_episode_differs(&sim, &task, &ref, &again);
                    CHECKF(at < 0, "%s %s%s: episode 9 after history %d is another episode from step %d of %d",
                           sim.robot.info.name, s2r_task_kind_name(kind), w ? " (calibration)" : "", h, at, ref.steps);
                    CHECKF(!memcmp(&ref.stat, &again.stat, sizeof ref.stat), "%s %s%s: episode 9 after history %d: "
                           "the model's statistics (centre %g %g %g, extent %g) are another episode's (%g %g %g, %g)",
                           sim.robot.info.name, s2r_task_kind_name(kind), w ? " (calibration)" : "", h,
                           again.stat.center[0], again.stat.center[1], again.stat.center[2], again.stat.extent,
                           ref.stat.center[0], ref.stat.center[1], ref.stat.center[2], ref.stat.extent);
                }
                s2r_expert_free(&e);
                s2r_task_free(&task);
                s2r_sim_free(&sim);
            }
    return 0;
}

static const test_case push_tests[] = {
    {"push: the scene loads on both arms with its parts", test_push_scene},
    {"push: a scene without its parts, or a backend without one, is refused", test_push_scene_refused},
    {"push: a sliding puck stops after v^2 / (2 mu g)", test_push_slide_distance},
    {"push: the tip follows a commanded velocity at pushing height, tool vertical", test_push_tip_tracks_velocity},
    {"physics: each scene's servo step response at its timestep is the 1 ms one's", test_push_step_response},
    {"physics: the library's servo law is MuJoCo's position actuator, saturated or not", test_servo_law_is_mujocos},
    {"physics: only the predefined pairs collide, and every contact of a push stays in place", test_collision_pairs_only},
    {"push: the camera's delay, frame rate and missed frames", test_push_camera},
    {"push: the fleet's tables and objects stay in their documented ranges", test_push_fleet_ranges},
    {"push: episodes end in success or failure from ground truth; bad input refused", test_push_episode},
    {"push: the randomization family validates and refuses bad values", test_push_ranges_checked},
    {"push: the scripted pusher succeeds in sim, deterministically, allocating nothing", test_push_scripted_pusher},
    {"physics: a randomized episode (reach or push, either arm) is its seed's alone, whatever the resets before it", test_push_episode_is_its_seed},
};
