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

int main(int argc, char** argv) {
    reference r;
    int status;
    if (argc < 10 || (strcmp(argv[1], "rollout") == 0 ? argc != 11 : argc != 10)) {
        fprintf(stderr, "usage: python_reference rollout|evaluate ROBOT TASK SIMULATOR RANGES UNIT SEED EPISODES ...\n");
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
