/* reference.c - what the Python package must reproduce, written in plain C
   on sim2real.h's own API (no flat API): python/tests/test_sim2real.py runs
   it and compares bytes.  Linked to build/libsim2real.so.

     python_reference rollout ROBOT TASK SIMULATOR RANGES UNIT SEED EPISODES ACTIONS OUT
         episodes 0 .. EPISODES-1 of SEED (episode i: stream i of SEED, as
         s2r_evaluate draws them), each step's action read from ACTIONS
         (float32 [EPISODES][episode_steps][act_dim]); writes to OUT per
         episode the first observation (float32 [obs_dim]) and per step the
         observation, the reward (float32), terminated, truncated, success
         (int32) and the distance (float64), until the episode ends; prints
         "steps N seconds S", the steps taken and the time they took (the
         C side of python/bench_steps.py)
     python_reference evaluate ROBOT TASK SIMULATOR RANGES UNIT SEED EPISODES CHECKPOINT
         s2r_evaluate of the checkpoint's policy: prints "successes K of N"
     python_reference checkpoint CHECKPOINT OUT
         the checkpoint loaded by s2r_policy_from_checkpoint, written back as
         the numbers the loader holds: params (float32 [num_params]), the
         normalizer's count, clip, mean, var (float64), then made_for,
         history, privileged, the activations (int32 each) and the
         randomization digest (uint64)
     python_reference fk ROBOT QS OUT
         the flange of the arm's nominal model (s2r_flange_fk) for each row
         of QS (float32 [rows][n_joints], rad): OUT float64 [rows][3], m
     python_reference truth ROBOT UNIT
         the unit's hidden camera-to-base offset (m), from the oracle the
         pipeline never calls (s2r_real_robot_oracle): prints "x y z"

   SIMULATOR is nominal, randomized or unit; RANGES a ranges file or - for
   the task's defaults; UNIT the stand-in unit's seed. */
#include "sim2real.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct reference {
    s2r_sim        sim;
    s2r_real_robot unit;
    int            on_unit;
    s2r_task       task;
} reference;

static int fail(const char* what, const char* error) {
    fprintf(stderr, "python_reference: %s: %s\n", what, error);
    return 1;
}

/* The task over the backend the arguments name. */
static int reference_init(reference* r, char** argv) {
    s2r_robot_kind robot = s2r_robot_kind_find(argv[2]);
    s2r_task_config tc = s2r_task_config_default(s2r_task_kind_find(argv[3]));
    const char* ranges = argv[5];
    s2r_sim_config sc = s2r_task_sim_config(tc.kind, robot);
    const s2r_backend* backend;
    char error[S2R_ERROR_LEN];
    memset(r, 0, sizeof *r);
    r->on_unit = strcmp(argv[4], "unit") == 0;
    if (r->on_unit) {
        if (s2r_real_robot_init_scene(&r->unit, robot, s2r_task_scene(tc.kind), strtoull(argv[6], NULL, 10)) != S2R_OK)
            return fail("unit", r->unit.error);
        backend = s2r_real_robot_backend(&r->unit);
    } else {
        if (strcmp(argv[4], "randomized") == 0) {
            sc.randomization = s2r_task_randomization(tc.kind);
            if (strcmp(ranges, "-") != 0 && s2r_randomization_load(&sc.randomization, ranges, error) != S2R_OK)
                return fail(ranges, error);
        }
        if (s2r_sim_init(&r->sim, &sc) != S2R_OK) return fail("sim", r->sim.error);
        backend = s2r_sim_backend(&r->sim);
    }
    if (s2r_task_init(&r->task, &tc, backend) != S2R_OK) return fail("task", r->task.error);
    return 0;
}

static void reference_free(reference* r) {
    s2r_task_free(&r->task);
    if (r->on_unit) s2r_real_robot_free(&r->unit);
    else s2r_sim_free(&r->sim);
}

static int rollout(reference* r, uint64_t seed, int episodes, const char* actions_path, const char* out_path) {
    s2r_env env = r->task.env;
    int steps = r->task.episode_steps, i, t;
    float obs[S2R_MLP_MAX_WIDTH], action[S2R_MAX_JOINTS];
    FILE* in = fopen(actions_path, "rb");
    FILE* out = fopen(out_path, "wb");
    int status = 0;
    long long taken = 0;
    double t0 = s2r_seconds();
    if (!in || !out) status = fail(in ? out_path : actions_path, "cannot open");
    for (i = 0; i < episodes && !status; i++) {
        s2r_rng rng = s2r_rng_make(seed, (uint64_t)i);
        s2r_step_result sr;
        if (env.reset(env.self, &rng, obs) != S2R_OK) { status = fail("reset", r->task.error); break; }
        fwrite(obs, sizeof(float), (size_t)env.obs_dim, out);
        sr.done = 0;
        for (t = 0; t < steps; t++) {
            int32_t flags[3];
            if (fread(action, sizeof(float), (size_t)env.act_dim, in) != (size_t)env.act_dim) {
                status = fail(actions_path, "too few actions");
                break;
            }
            if (sr.done) continue;   /* the rest of an episode that ended early */
            if (env.step(env.self, action, obs, &sr) != S2R_OK) { status = fail("step", r->task.error); break; }
            taken++;
            flags[0] = sr.terminated;
            flags[1] = sr.truncated;
            flags[2] = sr.success;
            fwrite(obs, sizeof(float), (size_t)env.obs_dim, out);
            fwrite(&sr.reward, sizeof(float), 1, out);
            fwrite(flags, sizeof(int32_t), 3, out);
            fwrite(&sr.distance, sizeof(double), 1, out);
        }
    }
    if (in) fclose(in);
    if (out && fclose(out) != 0 && !status) status = fail(out_path, "write failed");
    if (!status) printf("steps %lld seconds %.6f\n", taken, s2r_seconds() - t0);
    return status;
}

static int evaluate(reference* r, uint64_t seed, int episodes, const char* checkpoint) {
    s2r_policy policy;
    s2r_controller c;
    s2r_eval_result e;
    char error[S2R_ERROR_LEN];
    if (s2r_policy_from_checkpoint(&policy, checkpoint, error) != S2R_OK) return fail(checkpoint, error);
    c = s2r_policy_controller(&policy);
    if (s2r_evaluate(&c, &r->task, episodes, seed, &e, NULL) != S2R_OK) {
        s2r_policy_free(&policy);
        return fail("evaluate", r->task.error);
    }
    printf("successes %d of %d\n", e.successes, e.episodes);
    s2r_policy_free(&policy);
    return 0;
}

/* The loaded policy's numbers, for the Python writer's round trip. */
static int checkpoint(const char* path, const char* out_path) {
    s2r_policy p;
    char error[S2R_ERROR_LEN];
    int32_t words[5];
    FILE* out;
    int failed;
    if (s2r_policy_from_checkpoint(&p, path, error) != S2R_OK) return fail(path, error);
    if (!(out = fopen(out_path, "wb"))) {
        s2r_policy_free(&p);
        return fail(out_path, "cannot open");
    }
    words[0] = p.made_for;
    words[1] = p.history;
    words[2] = p.shape.privileged;
    words[3] = (int32_t)p.shape.actor_activation;
    words[4] = (int32_t)p.shape.critic_activation;
    fwrite(p.params, sizeof(float), (size_t)p.num_params, out);
    fwrite(&p.norm.count, sizeof(double), 1, out);
    fwrite(&p.norm.clip, sizeof(double), 1, out);
    fwrite(p.norm.mean, sizeof(double), (size_t)p.norm.dim, out);
    fwrite(p.norm.var, sizeof(double), (size_t)p.norm.dim, out);
    fwrite(words, sizeof(int32_t), 5, out);
    fwrite(&p.randomization, sizeof(uint64_t), 1, out);
    failed = fclose(out) != 0;
    s2r_policy_free(&p);
    return failed ? fail(out_path, "write failed") : 0;
}

/* The nominal arm's flange for each joint vector of qs_path. */
static int flange(const char* robot_name, const char* qs_path, const char* out_path) {
    s2r_robot robot;
    mjData* scratch;
    float qf[S2R_MAX_JOINTS];
    double q[S2R_MAX_JOINTS], pos[3];
    FILE *in, *out;
    int j, n;
    if (s2r_robot_load(&robot, s2r_robot_kind_find(robot_name)) != S2R_OK) return fail(robot_name, robot.error);
    n = robot.info.n_joints;
    scratch = mj_makeData(robot.model);
    in = fopen(qs_path, "rb");
    out = fopen(out_path, "wb");
    while (in && out && scratch && fread(qf, sizeof(float), (size_t)n, in) == (size_t)n) {
        for (j = 0; j < n; j++) q[j] = qf[j];
        s2r_flange_fk(robot.model, scratch, robot.flange_site, q, n, pos);
        fwrite(pos, sizeof(double), 3, out);
    }
    j = !in || !out || !scratch;
    if (in) fclose(in);
    if (out && fclose(out) != 0) j = 1;
    if (scratch) mj_deleteData(scratch);
    s2r_robot_free(&robot);
    return j ? fail(qs_path, "cannot read the joints or write the flanges") : 0;
}

/* ORACLE, for checking an estimate: the unit's true camera offset. */
static int truth(const char* robot, const char* unit) {
    s2r_real_robot real;
    const double* offset;
    if (s2r_real_robot_init(&real, s2r_robot_kind_find(robot), strtoull(unit, NULL, 10)) != S2R_OK)
        return fail("unit", real.error);
    offset = s2r_real_robot_oracle(&real)->draw.target_offset;
    printf("%.17g %.17g %.17g\n", offset[0], offset[1], offset[2]);
    s2r_real_robot_free(&real);
    return 0;
}

int main(int argc, char** argv) {
    reference r;
    int status;
    if (argc == 4 && strcmp(argv[1], "checkpoint") == 0) return checkpoint(argv[2], argv[3]);
    if (argc == 5 && strcmp(argv[1], "fk") == 0) return flange(argv[2], argv[3], argv[4]);
    if (argc == 4 && strcmp(argv[1], "truth") == 0) return truth(argv[2], argv[3]);
    if (argc < 10 || (strcmp(argv[1], "rollout") == 0 ? argc != 11 : argc != 10)) {
        fprintf(stderr, "usage: python_reference rollout|evaluate ROBOT TASK SIMULATOR RANGES UNIT SEED EPISODES ..., "
                "checkpoint CHECKPOINT OUT, fk ROBOT QS OUT, truth ROBOT UNIT\n");
        return 2;
    }
    if (reference_init(&r, argv) != 0) return 1;
    if (strcmp(argv[1], "rollout") == 0)
        status = rollout(&r, strtoull(argv[7], NULL, 10), atoi(argv[8]), argv[9], argv[10]);
    else
        status = evaluate(&r, strtoull(argv[7], NULL, 10), atoi(argv[8]), argv[9]);
    reference_free(&r);
    return status;
}
