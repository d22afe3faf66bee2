/* bench_push.c - what a push control step costs, and where PPO's work goes
   on push.

   For each arm, counted in instructions with callgrind (repeatable on a
   shared machine; bench_common.h), in one run so the numbers compare:

     control step   the scripted pusher's episodes, pushing (the object is
                    on the table from the first step, the tip meets it
                    within the episode): instructions per control step -
                    inside s2r_push_step, the environment's step (the
                    tip's IK, the physics, delay lines, camera, observation,
                    reward; not the scripted controller's own planning) -
                    with the physics of the built-in scene, and with the physics
                    it had before the library ran the servos (MuJoCo's
                    actuators and implicit integrator, every geom pair, 4 ms
                    x 10: bench_physics_before) - both built here, side by
                    side; and mj_step's share of each.  Goal: now <= 1/3 of
                    before.
     PPO's split    one PPO iteration on 8 push environments (4000 steps,
                    one thread), per environment step: physics (inside
                    mj_step), the task (the environment step less its
                    physics: IK, delay lines, camera, observation, reward),
                    the policy's part of the rollout (inference, recording,
                    the normalizer, GAE: the rollout less the environment
                    steps), and the update (the iteration less the rollout).

   Then seconds, where only seconds can tell: the update alone (one
   batch's epochs) on 2 threads against 1 - the actor's and the critic's
   halves of each minibatch run side by side - and an epoch of behaviour
   cloning on 20,000 pairs, 2 threads against 1 (the medians of 5
   interleaved pairs).  Built and run by `make bench`; without valgrind
   the counts are skipped with a message. */
#define _DEFAULT_SOURCE   /* popen */
#include <stdio.h>
#define SIM2REAL_IMPLEMENTATION
#include "../sim2real.h"
#include "bench_common.h"
#include <string.h>

#define ENVS 8
#define PAIRS 5
#define SCRIPTED_EPISODES 3
#define BEFORE_TIMESTEP 0.004   /* s: the push scene's timestep before */

/* --- the runs callgrind counts (bench_push --inner ...) -------------------- */

/* `episodes` episodes of the scripted pusher on the push scene of `arm`
   ("now", or "before": bench_physics_before); prints the control steps. */
static int run_scripted(s2r_robot_kind arm, const char* physics, int episodes) {
    s2r_sim sim;
    s2r_sim_config sc = s2r_task_sim_config(S2R_TASK_PUSH, arm);
    s2r_task_config tc = s2r_task_config_default(S2R_TASK_PUSH);
    s2r_task task;
    s2r_expert expert;
    s2r_expert_config ec = s2r_expert_config_default();
    s2r_controller c;
    s2r_eval_result r;
    memset(&r, 0, sizeof r);
    if (s2r_sim_init(&sim, &sc) != S2R_OK) return 1;
    if (!strcmp(physics, "before") && bench_physics_before(&sim, BEFORE_TIMESTEP) != S2R_OK) return 1;
    if (s2r_task_init(&task, &tc, &sim.backend) != S2R_OK || s2r_expert_init(&expert, &ec, &tc, sim.backend.info) != S2R_OK)
        return 1;
    c = s2r_expert_controller(&expert);
    if (episodes > 0 && s2r_evaluate(&c, &task, episodes, 7, &r, NULL) != S2R_OK) return 1;
    printf("count: %lld\n", r.steps);
    s2r_expert_free(&expert);
    s2r_task_free(&task);
    s2r_sim_free(&sim);
    return 0;
}

typedef struct push_envs {
    s2r_sim  sims[ENVS];
    s2r_task tasks[ENVS];
    s2r_env  envs[ENVS];
} push_envs;

static int envs_init(push_envs* p, s2r_robot_kind arm) {
    s2r_sim_config sc = s2r_task_sim_config(S2R_TASK_PUSH, arm);
    s2r_task_config tc = s2r_task_config_default(S2R_TASK_PUSH);
    int e;
    for (e = 0; e < ENVS; e++) {
        if (s2r_sim_init(&p->sims[e], &sc) != S2R_OK || s2r_task_init(&p->tasks[e], &tc, &p->sims[e].backend) != S2R_OK)
            return 1;
        p->envs[e] = p->tasks[e].env;
    }
    return 0;
}

static void envs_free(push_envs* p) {
    int e;
    for (e = 0; e < ENVS; e++) { s2r_task_free(&p->tasks[e]); s2r_sim_free(&p->sims[e]); }
}

/* PPO on 8 push environments, one thread: `what` "iterate" (whole
   iterations), "collect" (their rollouts only) or "step" (as many
   environment steps with a fixed action, no policy); `n` iterations (0:
   set up only).  Prints the environment steps. */
static int run_ppo(s2r_robot_kind arm, const char* what, int n) {
    static push_envs p;
    s2r_ppo ppo;
    s2r_ppo_config pc;
    s2r_ppo_stats st;
    s2r_rng rng = s2r_rng_make(3, 0);
    s2r_step_result out;
    float obs[S2R_PUSH_OBS], act[2] = {0.3f, -0.2f};
    int i, e, obs_dim, act_dim, bad = 0;
    long long steps = 0;
    s2r_task_dims(S2R_TASK_PUSH, arm, &obs_dim, &act_dim);
    pc = s2r_task_ppo_config(S2R_TASK_PUSH, 4000LL * (n > 0 ? n : 1), 1, 1);
    if (envs_init(&p, arm) != S2R_OK || s2r_ppo_init(&ppo, &pc, obs_dim, act_dim) != S2R_OK) return 1;
    for (i = 0; i < n && !bad; i++) {
        if (!strcmp(what, "iterate")) bad = s2r_ppo_iterate(&ppo, p.envs, &st) != S2R_OK;
        else if (!strcmp(what, "collect")) bad = s2r__ppo_collect(&ppo, p.envs) != S2R_OK;
        else {
            int t;
            for (e = 0; e < ENVS; e++) p.envs[e].reset(p.envs[e].self, &rng, obs);
            for (t = 0; t < pc.rollout_steps / ENVS; t++)
                for (e = 0; e < ENVS; e++) {
                    p.envs[e].step(p.envs[e].self, act, obs, &out);
                    if (out.done) p.envs[e].reset(p.envs[e].self, &rng, obs);
                }
        }
        steps += pc.rollout_steps;
    }
    printf("count: %lld\n", steps);
    s2r_ppo_free(&ppo);
    envs_free(&p);
    return bad;
}

static int inner(int argc, char** argv) {
    s2r_robot_kind arm = s2r_robot_kind_find(argv[3]);
    if (argc == 6 && !strcmp(argv[2], "scripted")) return run_scripted(arm, argv[4], atoi(argv[5]));
    if (argc == 6 && !strcmp(argv[2], "ppo")) return run_ppo(arm, argv[4], atoi(argv[5]));
    return 2;
}

/* --- the counts ------------------------------------------------------------ */

/* Instructions per count (control steps, environment steps) of `self
   --inner ARGS N`, its set-up (N = 0) subtracted; only inside `function`
   when given.  -1 when a run fails. */
static double per_count(const char* self, const char* args, int n, const char* function) {
    char with[256], without[256];
    double count = 0, unused, a, b;
    snprintf(with, sizeof with, "--inner %s %d", args, n);
    snprintf(without, sizeof without, "--inner %s 0", args);
    a = bench_callgrind(self, with, function, &count);
    b = bench_callgrind(self, without, function, &unused);
    return a < 0 || b < 0 || count <= 0 ? -1 : (a - b) / count;
}

static void count_arm(const char* self, const char* arm) {
    char now[64], before[64], ppo[4][64];
    double c_now, c_before, p_now, p_before, iterate, collect, step, physics;
    snprintf(now, sizeof now, "scripted %s now", arm);
    snprintf(before, sizeof before, "scripted %s before", arm);
    c_now = per_count(self, now, SCRIPTED_EPISODES, "s2r_push_step");
    p_now = per_count(self, now, SCRIPTED_EPISODES, "mj_step");
    c_before = per_count(self, before, SCRIPTED_EPISODES, "s2r_push_step");
    p_before = per_count(self, before, SCRIPTED_EPISODES, "mj_step");
    snprintf(ppo[0], sizeof ppo[0], "ppo %s iterate", arm);
    snprintf(ppo[1], sizeof ppo[1], "ppo %s collect", arm);
    snprintf(ppo[2], sizeof ppo[2], "ppo %s step", arm);
    iterate = per_count(self, ppo[0], 1, NULL);
    collect = per_count(self, ppo[1], 1, NULL);
    step = per_count(self, ppo[2], 1, NULL);
    physics = per_count(self, ppo[2], 1, "mj_step");
    if (c_now <= 0 || c_before <= 0 || p_now < 0 || p_before < 0 || iterate <= 0 || collect <= 0 || step <= 0 || physics < 0) {
        printf("%s: a callgrind run failed\n", arm);
        return;
    }
    printf("%s push, instructions per control step (s2r_push_step) of the scripted pusher's episodes (callgrind):\n", arm);
    printf("  now      %10.0f  (mj_step %4.1f %%)\n", c_now, 100 * p_now / c_now);
    printf("  before   %10.0f  (mj_step %4.1f %%; MuJoCo's actuators and implicit integrator, every geom pair, "
           "4 ms x 10)\n", c_before, 100 * p_before / c_before);
    printf("  now / before %.3f  (goal <= 0.333)\n", c_now / c_before);
    printf("%s push, PPO's instructions per environment step (one iteration on %d environments, one thread):\n", arm, ENVS);
    printf("  physics    %9.0f  %5.1f %%\n", physics, 100 * physics / iterate);
    printf("  task       %9.0f  %5.1f %%\n", step - physics, 100 * (step - physics) / iterate);
    printf("  policy     %9.0f  %5.1f %%  (inference, recording, normalizer, GAE)\n", collect - step,
           100 * (collect - step) / iterate);
    printf("  update     %9.0f  %5.1f %%\n", iterate - collect, 100 * (iterate - collect) / iterate);
    printf("  total      %9.0f\n", iterate);
}

/* --- seconds: the threads ------------------------------------------------- */

static int compare_doubles(const void* a, const void* b) {
    double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

/* Seconds of one update (the epochs on the batch collected last) on
   `threads` threads. */
static double update_seconds(s2r_ppo* ppo, int threads) {
    s2r_ppo_stats st;
    double t0 = s2r_seconds();
    memset(&st, 0, sizeof st);
    ppo->cfg.num_threads = threads;
    s2r__ppo_update(ppo, 1e-4f, &st);
    return s2r_seconds() - t0;
}

/* Seconds of one behaviour-cloning epoch (fine-tuning settings) of policy
   on d with `threads` threads. */
static double bc_seconds(s2r_policy* policy, const s2r_dataset* d, int threads) {
    s2r_bc bc;
    s2r_bc_config c = s2r_bc_config_finetune();
    double t0;
    c.threads = threads;
    if (s2r_bc_init(&bc, &c, policy) != S2R_OK) return NAN;
    t0 = s2r_seconds();
    s2r_bc_epoch(&bc, d, NULL);
    t0 = s2r_seconds() - t0;
    s2r_bc_free(&bc);
    return t0;
}

/* The median of PAIRS ratios one thread / two threads, printed. */
static void print_ratio(const char* what, double* ratio) {
    qsort(ratio, PAIRS, sizeof(double), compare_doubles);
    printf("  %s on 2 threads: %.2fx as fast as on 1 (median of %d pairs, %.2f-%.2f)\n", what, ratio[PAIRS / 2], PAIRS,
           ratio[0], ratio[PAIRS - 1]);
}

static void threads_arm(s2r_robot_kind kind) {
    static push_envs p;
    s2r_ppo ppo;
    s2r_ppo_config pc;
    s2r_rng rng = s2r_rng_make(3, 0);
    double ratio[PAIRS];
    s2r_dataset pairs;
    int i, obs_dim, act_dim;
    s2r_task_dims(S2R_TASK_PUSH, kind, &obs_dim, &act_dim);
    pc = s2r_task_ppo_config(S2R_TASK_PUSH, 4000, 1, 1);
    if (envs_init(&p, kind) != S2R_OK || s2r_ppo_init(&ppo, &pc, obs_dim, act_dim) != S2R_OK ||
        s2r__ppo_collect(&ppo, p.envs) != S2R_OK) {
        printf("%s: setup failed\n", s2r_robot_kind_name(kind));
        return;
    }
    printf("%s push, threads (seconds):\n", s2r_robot_kind_name(kind));
    for (i = 0; i < PAIRS; i++) ratio[i] = update_seconds(&ppo, 1) / update_seconds(&ppo, 2);
    print_ratio("the update", ratio);
    if (s2r_dataset_init(&pairs, obs_dim, act_dim) == S2R_OK) {
        for (i = 0; i < 20000; i++) {   /* random pairs stand in for demonstrations */
            float o[S2R_PUSH_OBS], a[2];
            int k;
            for (k = 0; k < obs_dim; k++) o[k] = (float)s2r_rng_normal(&rng);
            for (k = 0; k < act_dim; k++) a[k] = (float)s2r_rng_range(&rng, -1, 1);
            s2r_dataset_append(&pairs, o, a);
        }
        for (i = 0; i < PAIRS; i++) ratio[i] = bc_seconds(&ppo.policy, &pairs, 1) / bc_seconds(&ppo.policy, &pairs, 2);
        print_ratio("behaviour cloning", ratio);
        s2r_dataset_free(&pairs);
    }
    s2r_ppo_free(&ppo);
    envs_free(&p);
}

int main(int argc, char** argv) {
    if (argc > 1 && !strcmp(argv[1], "--inner")) return inner(argc, argv);
    if (bench_have_valgrind()) {
        count_arm(argv[0], "ur5e");
        count_arm(argv[0], "panda");
    } else printf("bench_push: valgrind not found (Debian: apt-get install valgrind); the counts skipped\n");
    threads_arm(S2R_ROBOT_UR5E);
    threads_arm(S2R_ROBOT_PANDA);
    return 0;
}
