/* bench_instructions.c - the per-step overhead ratios of bench_main, counted
   in instructions instead of seconds.

   On a shared virtual machine the seconds of bench_main move by tens of
   percent between runs.  Instruction counts from valgrind's callgrind do not:
   the same binary and inputs give the same count whatever else the machine
   is doing.  So this program runs itself under callgrind once per
   measurement, reads the total count valgrind prints, subtracts a run that
   sets everything up but steps nothing, and divides by the steps:

     randomized   instructions per mj_step on the randomized simulator's
                  own model (its draw applied) / per physics step through
                  the simulator: the library's own per-step work (delay
                  lines, noise, sample-and-hold)                  goal >= 0.9
     real robot   the same for the stand-in real robot (its effects:
                  backlash, friction, saturation)                 goal >= 0.9
     rollout      instructions per raw mj_step on the nominal model x
                  substeps / per reach-task step with a policy acting
                                                                  goal >= 0.85
     PPO          per rollout-only step / per end-to-end PPO step, the
                  update included                                 goal >= 0.5
     PPO update   instructions per sample for one epoch of the update on
                  the push task's networks (20 inputs, 64 x 64 tanh, 2
                  actions; minibatches of 125 as s2r_task_ppo_config's
                  4000 / 32): 6 epochs minus 1 epoch on the same rollout of
                  an environment that does next to nothing, over 5 x 4000
                  samples - the learner's arithmetic alone (forward,
                  losses, backward, Adam), no physics
                                                        goal <= 33925
                  (a third of the 101774 the update counted when it took
                  its samples one at a time)
     BC epoch     instructions per pair for one epoch of behaviour
                  cloning (s2r_bc_config_default: minibatches of 64, MSE)
                  of the push task's actor on 4000 pairs: 6 epochs minus 1
                                                              (a count)
     threads      per end-to-end PPO step with the 8 environments stepped
                  by 2 threads / by 1 thread: threads add no work (no
                  locks, no allocation, nothing recomputed), so it is 1
                  but for OpenMP's own start-up and barriers (run with
                  OMP_WAIT_POLICY=passive: a waiting thread sleeps instead
                  of spinning, so it counts no work)       goal <= 1.01

   (ratios of speeds, as in bench_main).  Under the first two, nominal
   mj_step / the drawn model's mj_step is what the draw's physics costs
   (dry friction adds constraint rows, a drawn timestep changes the steps
   per control period): the price of what is simulated, not overhead.
   Counts ignore cache and memory effects, which seconds include, and
   cannot speak for threads.  Needs valgrind (Debian: valgrind); without
   it, it says so and exits 0. */
#define _DEFAULT_SOURCE   /* popen */
#define SIM2REAL_IMPLEMENTATION
#include "../sim2real.h"
#include <stdlib.h>
#include <string.h>

#define PERIODS 200       /* control periods of 20 physics steps per measurement */

/* Physics steps a backend takes for one control period of 20 nominal
   steps: a drawn timestep (randomized) changes the count. */
static int period_steps(const s2r_robot* r) {
    return s2r_robot_steps_for(r, 20 * r->info.physics_dt);
}

/* mj_step alone on the model a backend simulates (its draw applied), the
   same commands written straight into ctrl: the physics without the
   library around it. */
static void physics_only(s2r_robot* r, int periods) {
    int i, j, k;
    for (i = 0; i < periods; i++) {
        for (j = 0; j < r->info.n_joints; j++)
            r->data->ctrl[r->actuator[j]] = r->info.q_home[j] + 0.05 * sin(0.01 * i + j);
        for (k = 0; k < period_steps(r); k++) mj_step(r->model, r->data);
    }
}

/* `periods` reach-task steps on the nominal simulator with a policy
   sampling the actions, as bench_main's rollout (one environment). */
static int rollout(s2r_robot_kind kind, int periods) {
    s2r_sim sim;
    s2r_sim_config sc = s2r_sim_config_default(kind);
    s2r_reach task;
    s2r_reach_config rc = s2r_reach_config_default();
    s2r_policy policy;
    s2r_policy_shape shape;
    s2r_rng rng = s2r_rng_make(2, 0), act_rng = s2r_rng_make(4, 0);
    s2r_step_result r;
    float obs[S2R_REACH_MAX_OBS], action[S2R_MAX_JOINTS];
    int i;
    memset(&shape, 0, sizeof shape);
    s2r_task_dims(S2R_TASK_REACH, kind, &shape.obs_dim, &shape.act_dim);
    shape.num_hidden = 2; shape.hidden[0] = shape.hidden[1] = 64;
    if (s2r_sim_init(&sim, &sc) != S2R_OK || s2r_reach_init(&task, &rc, &sim.backend) != S2R_OK ||
        s2r_policy_init(&policy, &shape, -0.5f, 10.0f, &rng) != S2R_OK)
        return 1;
    s2r_reach_reset(&task, &rng, obs);
    for (i = 0; i < periods; i++) {
        s2r_policy_act(&policy, obs, action, 0, &act_rng);
        s2r_reach_step(&task, action, obs, &r);
        if (r.done) s2r_reach_reset(&task, &rng, obs);
    }
    s2r_policy_free(&policy);
    s2r_reach_free(&task);
    s2r_sim_free(&sim);
    return 0;
}

/* End-to-end PPO on 8 nominal simulators stepped by `threads` threads: one
   update on a rollout of `periods` env steps (a multiple of 128:
   minibatches of 128 samples, as s2r_task_ppo_config's 4096 / 32);
   periods = 0 only sets up. */
static int ppo(s2r_robot_kind kind, int periods, int threads) {
    s2r_sim sims[8];
    s2r_reach tasks[8];
    s2r_env envs[8];
    s2r_sim_config sc = s2r_sim_config_default(kind);
    s2r_reach_config rc = s2r_reach_config_default();
    s2r_ppo_config c = s2r_task_ppo_config(S2R_TASK_REACH, periods > 0 ? periods : 128, 1, threads);
    s2r_ppo_stats st;
    s2r_ppo p;
    int e, obs_dim, act_dim, bad = 0;
    c.rollout_steps = periods > 0 ? periods : 128;
    c.num_minibatches = c.rollout_steps / 128;
    s2r_task_dims(S2R_TASK_REACH, kind, &obs_dim, &act_dim);
    for (e = 0; e < 8; e++) {
        if (s2r_sim_init(&sims[e], &sc) != S2R_OK || s2r_reach_init(&tasks[e], &rc, &sims[e].backend) != S2R_OK) return 1;
        envs[e] = s2r_reach_env(&tasks[e]);
    }
    if (s2r_ppo_init(&p, &c, obs_dim, act_dim) != S2R_OK) return 1;
    if (periods > 0) bad = s2r_ppo_iterate(&p, envs, &st) != S2R_OK;
    s2r_ppo_free(&p);
    for (e = 0; e < 8; e++) { s2r_reach_free(&tasks[e]); s2r_sim_free(&sims[e]); }
    return bad;
}

/* An environment with the push task's dimensions that does next to
   nothing: the observation is a few sines of the step, the reward the
   action's distance from one of them, episodes of 100 steps. */
typedef struct { int t; } idle_env;

static void idle_obs(const idle_env* e, float* obs) {
    int i;
    for (i = 0; i < S2R_PUSH_OBS; i++) obs[i] = (float)sin(0.05 * e->t + i);
}

static s2r_result idle_reset(void* self, s2r_rng* rng, float* obs) {
    idle_env* e = (idle_env*)self;
    e->t = (int)(s2r_rng_uniform(rng) * 100);
    idle_obs(e, obs);
    return S2R_OK;
}

static s2r_result idle_step(void* self, const float* action, float* obs, s2r_step_result* out) {
    idle_env* e = (idle_env*)self;
    memset(out, 0, sizeof *out);
    e->t++;
    idle_obs(e, obs);
    out->reward = -(float)fabs(action[0] - obs[0]) - (float)fabs(action[1] - obs[1]);
    out->truncated = out->done = e->t % 100 == 0;
    return S2R_OK;
}

/* One PPO iteration (a rollout of 4000 steps on 8 idle environments, then
   `epochs` epochs of the update) on the push task's networks. */
static int ppo_update(int epochs) {
    idle_env idle[8];
    s2r_env envs[8];
    s2r_ppo_config c = s2r_task_ppo_config(S2R_TASK_PUSH, 4000, 1, 1);
    s2r_ppo_stats st;
    s2r_ppo p;
    int e, bad;
    c.update_epochs = epochs;
    for (e = 0; e < 8; e++) {
        memset(&envs[e], 0, sizeof envs[e]);
        idle[e].t = 0;
        envs[e].self = &idle[e];
        envs[e].obs_dim = S2R_PUSH_OBS;
        envs[e].act_dim = 2;
        envs[e].reset = idle_reset;
        envs[e].step = idle_step;
    }
    if (s2r_ppo_init(&p, &c, S2R_PUSH_OBS, 2) != S2R_OK) return 1;
    bad = s2r_ppo_iterate(&p, envs, &st) != S2R_OK;
    s2r_ppo_free(&p);
    return bad;
}

/* `epochs` epochs of behaviour cloning of the push task's actor on 4000
   pairs of sines, one thread. */
static int bc_epochs(int epochs) {
    s2r_policy policy;
    s2r_policy_shape shape;
    s2r_dataset d;
    s2r_bc bc;
    s2r_bc_config c = s2r_bc_config_default();
    s2r_rng rng = s2r_rng_make(3, 0);
    float obs[S2R_PUSH_OBS], act[2];
    int i, j, bad = 0;
    memset(&shape, 0, sizeof shape);
    shape.obs_dim = S2R_PUSH_OBS;
    shape.act_dim = 2;
    shape.num_hidden = 2;
    shape.hidden[0] = shape.hidden[1] = 64;
    c.threads = 1;
    if (s2r_policy_init(&policy, &shape, -0.5f, 10.0f, &rng) != S2R_OK || s2r_dataset_init(&d, S2R_PUSH_OBS, 2) != S2R_OK)
        return 1;
    for (i = 0; i < 4000 && !bad; i++) {
        for (j = 0; j < S2R_PUSH_OBS; j++) obs[j] = (float)sin(0.05 * i + j);
        act[0] = (float)cos(0.03 * i);
        act[1] = (float)sin(0.07 * i);
        bad = s2r_dataset_append(&d, obs, act) != S2R_OK;
    }
    if (!bad && s2r_bc_init(&bc, &c, &policy) == S2R_OK) {
        for (i = 0; i < epochs && !bad; i++) bad = s2r_bc_epoch(&bc, &d, NULL) != S2R_OK;
        s2r_bc_free(&bc);
    } else bad = 1;
    s2r_dataset_free(&d);
    s2r_policy_free(&policy);
    return bad;
}

/* The measured work: `periods` control periods on backend kind `what`
   ("raw": the nominal model; "dr", "real": through the backend;
   "dr_physics", "real_physics": mj_step alone on that backend's model;
   "rollout": reach-task steps with a policy acting; "ppo": PPO on 8
   of them); periods = 0 only sets up.  Prints the physics steps taken. */
static int inner(const char* what, s2r_robot_kind kind, int periods) {
    s2r_sim sim;
    s2r_real_robot real;
    s2r_sim_config sc = s2r_sim_config_default(kind);
    const s2r_backend* b;
    const s2r_robot* model;
    s2r_rng rng = s2r_rng_make(1, 0);
    s2r_sensors s;
    double q[S2R_MAX_JOINTS];
    int i, j;
    printf("physics steps: %d\n", periods * 20);   /* nominal timestep; a drawn one overrides below */
    if (!strcmp(what, "rollout")) return rollout(kind, periods);
    if (!strcmp(what, "ppo")) return ppo(kind, periods, 1);
    if (!strcmp(what, "ppo_threads")) return ppo(kind, periods, 2);
    if (!strcmp(what, "update")) return ppo_update(periods);
    if (!strcmp(what, "bc")) return bc_epochs(periods);
    if (!strcmp(what, "raw")) {
        s2r_robot r;
        if (s2r_robot_load(&r, kind) != S2R_OK) return 1;
        for (i = 0; i < periods * 20; i++) mj_step(r.model, r.data);
        s2r_robot_free(&r);
        return 0;
    }
    if (!strncmp(what, "dr", 2)) {
        sc.randomization = s2r_randomization_default();
        if (s2r_sim_init(&sim, &sc) != S2R_OK) return 1;
        b = s2r_sim_backend(&sim);
    } else {
        if (s2r_real_robot_init(&real, kind, 1) != S2R_OK) return 1;
        b = s2r_real_robot_backend(&real);
    }
    s2r_backend_reset(b, NULL, NULL, &rng);
    memcpy(q, b->info->q_home, sizeof q);
    model = !strncmp(what, "dr", 2) ? &sim.robot : &real.hidden_sim.robot;
    printf("physics steps: %d\n", periods * period_steps(model));
    if (strstr(what, "_physics")) { physics_only((s2r_robot*)model, periods); periods = 0; }
    for (i = 0; i < periods; i++) {
        for (j = 0; j < b->info->n_joints; j++) q[j] = b->info->q_home[j] + 0.05 * sin(0.01 * i + j);
        s2r_backend_command(b, q);
        s2r_backend_advance(b, 20 * b->info->physics_dt);
        s2r_backend_read_sensors(b, &s);
    }
    if (!strncmp(what, "dr", 2)) s2r_sim_free(&sim); else s2r_real_robot_free(&real);
    return 0;
}

/* Instructions callgrind counts for `self --inner what kind periods`, and
   the physics steps it took (the last count it printed); -1 if valgrind
   cannot be run. */
static double count(const char* self, const char* what, const char* kind, int periods, double* steps) {
    char cmd[1024], line[512];
    double n = -1;
    FILE* p;
    snprintf(cmd, sizeof cmd, "OMP_WAIT_POLICY=passive valgrind --tool=callgrind --callgrind-out-file=/dev/null "
             "%s --inner %s %s %d 2>&1",
             self, what, kind, periods);
    if (!(p = popen(cmd, "r"))) return -1;
    while (fgets(line, sizeof line, p)) {
        const char* c = strstr(line, "Collected :");
        if (c) n = atof(c + 11);
        if (!strncmp(line, "physics steps: ", 15)) *steps = atof(line + 15);
    }
    return pclose(p) == 0 ? n : -1;
}

/* Instructions per physics step of `what` over `periods` control periods,
   setup subtracted. */
static double per_step(const char* self, const char* what, const char* kind, int periods) {
    double steps = 0, unused, with = count(self, what, kind, periods, &steps), without = count(self, what, kind, 0, &unused);
    return with < 0 || without < 0 || steps <= 0 ? -1 : (with - without) / steps;
}

int main(int argc, char** argv) {
    static const char* const kinds[2] = {"ur5e", "panda"};
    int k;
    if (argc == 5 && !strcmp(argv[1], "--inner"))
        return inner(argv[2], s2r_robot_kind_find(argv[3]), atoi(argv[4]));
    if (system("valgrind --version > /dev/null 2>&1") != 0) {
        printf("bench_instructions: valgrind not found (Debian: apt-get install valgrind); skipped\n");
        return 0;
    }
    {   /* the updates alone: 6 epochs minus 1 on the same rollout or dataset */
        double unused, six = count(argv[0], "update", "ur5e", 6, &unused), one = count(argv[0], "update", "ur5e", 1, &unused),
               bc6 = count(argv[0], "bc", "ur5e", 6, &unused), bc1 = count(argv[0], "bc", "ur5e", 1, &unused);
        if (six < 0 || one < 0 || bc6 < 0 || bc1 < 0) {
            printf("PPO update, BC: valgrind run failed\n");
            return 1;
        }
        printf("PPO update on the push networks (20 -> 64 -> 64 -> 2 and -> 1, minibatches of 125): %.0f instructions "
               "per sample per epoch (goal <= 33925, a third of the one-sample-at-a-time update's 101774)\n",
               (six - one) / (5.0 * 4000));
        printf("behaviour cloning of the push actor (20 -> 64 -> 64 -> 2, minibatches of 64): %.0f instructions per pair "
               "per epoch\n", (bc6 - bc1) / (5.0 * 4000));
    }
    printf("instruction counts per physics step (callgrind; repeatable, no cache effects):\n");
    for (k = 0; k < 2; k++) {
        double raw = per_step(argv[0], "raw", kinds[k], PERIODS), dr = per_step(argv[0], "dr", kinds[k], PERIODS),
               real = per_step(argv[0], "real", kinds[k], PERIODS), drp = per_step(argv[0], "dr_physics", kinds[k], PERIODS),
               realp = per_step(argv[0], "real_physics", kinds[k], PERIODS), roll = per_step(argv[0], "rollout", kinds[k], PERIODS);
        double ppo = per_step(argv[0], "ppo", kinds[k], 1024), ppo2 = per_step(argv[0], "ppo_threads", kinds[k], 1024);
        if (raw <= 0 || dr <= 0 || real <= 0 || drp <= 0 || realp <= 0 || roll <= 0 || ppo <= 0 || ppo2 <= 0) {
            printf("  %s: valgrind run failed\n", kinds[k]);
            return 1;
        }
        printf("%s: raw mj_step on the nominal model %.0f instructions\n", kinds[k], raw);
        printf("  %-44s %8.3f  (goal >= 0.9; %.0f instructions)\n", "randomized sim: own-model mj_step / per step",
               drp / dr, dr);
        printf("  %-44s %8.3f  (the physics of the draw, not overhead)\n", "  nominal mj_step / own-model mj_step", raw / drp);
        printf("  %-44s %8.3f  (goal >= 0.9; %.0f instructions)\n", "real robot: own-model mj_step / per step",
               realp / real, real);
        printf("  %-44s %8.3f  (the physics of the unit, not overhead)\n", "  nominal mj_step / own-model mj_step", raw / realp);
        printf("  %-44s %8.3f  (goal >= 0.85; %.0f instructions per env step)\n", "rollout: (raw x substeps) / per env step",
               raw / roll, 20 * roll);
        printf("  %-44s %8.3f  (goal >= 0.5; %.0f instructions per env step)\n", "end-to-end PPO / rollout-only", roll / ppo,
               20 * ppo);
        printf("  %-44s %8.4f  (goal <= 1.01; %.0f instructions per env step)\n", "PPO, 2 threads / 1 thread", ppo2 / ppo,
               20 * ppo2);
    }
    return 0;
}
