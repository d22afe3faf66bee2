/* bench_push.c - where PPO's time goes on push, per million environment steps.

   For each arm, on one thread, in one run (so the parts compare):
     physics     raw mj_step on the push scene's model, times the physics
                 steps of one policy step (10 at 4 ms)
     task        a push step through its s2r_env (IK, the delay lines and
                 the camera, observation, reward) minus that physics
     inference   the policy's forward pass on one observation (64x64)
     update      the rest of a PPO iteration on 8 push environments: GAE,
                 the epochs of minibatches, the optimizer; goal <= 1/4 of
                 the total
   and then the update alone (one batch's epochs) on 2 threads against 1:
   the actor's and the critic's halves of each minibatch run side by side;
   and an epoch of behaviour cloning on 20,000 pairs, 2 threads against 1,
   each minibatch's passes shared (the medians of 5 interleaved pairs).
   Seconds on a shared machine move; the shares within one run are the
   measurement.  Built and run by `make bench`. */
#include <stdio.h>
#define SIM2REAL_IMPLEMENTATION
#include "../sim2real.h"
#include <string.h>

#define ENVS 8
#define PAIRS 5
#define STEPS 3000   /* env steps timed for the physics, task and inference parts */

/* Seconds per call of raw mj_step on a copy of the sim's state. */
static double physics_seconds(const s2r_sim* sim) {
    mjData* d = mj_copyData(NULL, sim->robot.model, sim->robot.data);
    double t0;
    int i, n = 20000;
    if (!d) return NAN;
    for (i = 0; i < 2000; i++) mj_step(sim->robot.model, d);
    t0 = s2r_seconds();
    for (i = 0; i < n; i++) mj_step(sim->robot.model, d);
    t0 = s2r_seconds() - t0;
    mj_deleteData(d);
    return t0 / n;
}

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

static void bench_arm(s2r_robot_kind kind) {
    s2r_sim sims[ENVS];
    s2r_sim_config sc = s2r_task_sim_config(S2R_TASK_PUSH, kind);
    s2r_task_config tc = s2r_task_config_default(S2R_TASK_PUSH);
    s2r_task tasks[ENVS];
    s2r_env envs[ENVS];
    s2r_ppo ppo;
    s2r_ppo_config pc;
    s2r_ppo_stats st;
    s2r_rng rng = s2r_rng_make(3, 0);
    s2r_step_result out;
    float obs[S2R_PUSH_OBS], act[2] = {0.3f, -0.2f};
    double physics, env, inference, total, t0, substeps, ratio[PAIRS];
    s2r_dataset pairs;
    int e, i, obs_dim, act_dim;
    s2r_task_dims(S2R_TASK_PUSH, kind, &obs_dim, &act_dim);
    for (e = 0; e < ENVS; e++)
        if (s2r_sim_init(&sims[e], &sc) != S2R_OK || s2r_task_init(&tasks[e], &tc, &sims[e].backend) != S2R_OK) {
            printf("%s: setup failed\n", s2r_robot_kind_name(kind));
            return;
        }
    for (e = 0; e < ENVS; e++) envs[e] = tasks[e].env;
    substeps = tc.push.control_period / sims[0].robot.model->opt.timestep;
    physics = substeps * physics_seconds(&sims[0]);
    envs[0].reset(envs[0].self, &rng, obs);
    t0 = s2r_seconds();
    for (i = 0; i < STEPS; i++) {
        envs[0].step(envs[0].self, act, obs, &out);
        if (out.done) envs[0].reset(envs[0].self, &rng, obs);
    }
    env = (s2r_seconds() - t0) / STEPS;
    pc = s2r_task_ppo_config(S2R_TASK_PUSH, 4000 * 3, 1, 1);   /* three iterations, one thread */
    if (s2r_ppo_init(&ppo, &pc, obs_dim, act_dim) != S2R_OK) { printf("%s\n", ppo.error); return; }
    t0 = s2r_seconds();
    for (i = 0; i < STEPS; i++) s2r_policy_act(&ppo.policy, obs, act, 1, NULL);
    inference = (s2r_seconds() - t0) / STEPS;
    t0 = s2r_seconds();
    for (i = 0; i < 3; i++) s2r_ppo_iterate(&ppo, envs, &st);
    total = (s2r_seconds() - t0) / (3.0 * pc.rollout_steps);
    printf("%s push, per 1M environment steps on one thread (%.0f physics steps each):\n", s2r_robot_kind_name(kind), substeps);
    printf("  physics    %7.1f s  %5.1f %%\n", 1e6 * physics, 100 * physics / total);
    printf("  task       %7.1f s  %5.1f %%\n", 1e6 * (env - physics), 100 * (env - physics) / total);
    printf("  inference  %7.1f s  %5.1f %%\n", 1e6 * inference, 100 * inference / total);
    printf("  update     %7.1f s  %5.1f %%  (goal <= 25 %%)\n", 1e6 * (total - env - inference),
           100 * (total - env - inference) / total);
    printf("  total      %7.1f s  (%.0f environment steps/s)\n", 1e6 * total, 1 / total);
    for (i = 0; i < PAIRS; i++) ratio[i] = update_seconds(&ppo, 1) / update_seconds(&ppo, 2);
    print_ratio("the update", ratio);
    if (s2r_dataset_init(&pairs, obs_dim, act_dim) == S2R_OK) {
        for (i = 0; i < 20000; i++) {   /* observations and actions of a rollout stand in for demonstrations */
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
    for (e = 0; e < ENVS; e++) { s2r_task_free(&tasks[e]); s2r_sim_free(&sims[e]); }
}

int main(void) {
    bench_arm(S2R_ROBOT_UR5E);
    bench_arm(S2R_ROBOT_PANDA);
    return 0;
}
