/* bench_main.c - speed of the library relative to raw MuJoCo, as ratios.

   For each arm, in one run:
     physics      raw mj_step/s on the nominal model (the reference);
     randomized   the randomized simulator's physics steps/s (delay lines,
                  noise, sample-and-hold) / mj_step/s on its own model
                  (the draw applied): the library's overhead      goal >= 0.9
                  (and that model's mj_step/s / raw: what the draw's
                  physics costs - dry friction, a drawn timestep)
     real robot   the same for the stand-in real robot            goal >= 0.9
     rollout      reach-task steps/s with a policy acting, one thread,
                  / (raw mj_step/s / physics steps per control step) >= 0.85
     PPO          end-to-end PPO steps/s / rollout-only steps/s      >= 0.5
     allocations  heap allocations per environment step (counted
                  through S2R_MALLOC)                                 = 0
     threads      PPO's rollout collection (8 environments stepped in
                  parallel, each writing only its own cache lines) with
                  2..nproc threads / 1 thread: the median of 5
                  back-to-back pairs with their spread, printed beside the
                  same for arithmetic-only work.  Information, not a goal:
                  seconds on a shared machine cannot settle it.  What can
                  be checked is checked elsewhere - no thread writes a
                  line another writes (the test "threads stepping
                  different environments write no common cache line"),
                  and the instructions per step are the same for 1 and 2
                  threads (bench_instructions).
   and the pendulum: steps and seconds (wall and CPU) to a deterministic
   return of -200 on one thread, with the library's defaults and with the
   settings of RLtools' CPU Pendulum PPO example (`bench_main pendulum`
   runs it alone; bench/rltools_pendulum.sh runs that beside RLtools'
   example itself).
   Memory: the peak resident memory of this run, of one PPO training run
   (example 02, run as a child process) and of the whole table pipeline
   (example 07 in quick mode, live; and the last full `make table`, read
   from figures/07_run.csv, which example 07 writes).

   Times are wall seconds when built with OpenMP (make bench does).  Each
   other rate is the best of three runs, so a hiccup of the machine does
   not decide a ratio. */
#define _DEFAULT_SOURCE   /* wait4 */
#include <stdio.h>
#include <stdlib.h>
#if defined(__unix__)
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
extern char** environ;
#endif

static long s2r_bench_allocations;  /* every S2R_MALLOC/REALLOC since start */
#define S2R_MALLOC(sz) (s2r_bench_allocations++, malloc(sz))
#define S2R_REALLOC(p, sz) (s2r_bench_allocations++, realloc(p, sz))
#define S2R_FREE(p) free(p)
#define SIM2REAL_IMPLEMENTATION
#include "../sim2real.h"
#include "../examples/s2r_cli.h"
#include <string.h>

#define ENVS 8

#define BEST_OF_3(expr) bench_max3((expr), (expr), (expr))
static double bench_max3(double a, double b, double c) { return a > b ? (a > c ? a : c) : (b > c ? b : c); }

/* mj_step/s on a robot's model and data (raw physics, nothing around it);
   the state is put back afterwards. */
static double model_physics_rate(const s2r_robot* r) {
    int i, n = 100000;
    double t0;
    mjData* d = mj_copyData(NULL, r->model, r->data);
    if (!d) return 0;
    for (i = 0; i < 5000; i++) mj_step(r->model, d);   /* warm up caches and clocks */
    t0 = s2r_seconds();
    for (i = 0; i < n; i++) mj_step(r->model, d);
    t0 = s2r_seconds() - t0;
    mj_deleteData(d);
    return n / t0;
}

static double raw_physics_rate(s2r_robot_kind kind) {
    s2r_robot r;
    double rate;
    if (s2r_robot_load(&r, kind) != S2R_OK) return 0;
    rate = model_physics_rate(&r);
    s2r_robot_free(&r);
    return rate;
}

/* Physics steps/s through a backend simulating `model`: command + advance
   one control period of 20 nominal steps (a drawn timestep changes the
   count). */
static double backend_physics_rate(const s2r_backend* b, const s2r_robot* model, long* allocs) {
    s2r_rng rng = s2r_rng_make(1, 0);
    double q[S2R_MAX_JOINTS], t0, dt = b->info->physics_dt;
    s2r_sensors s;
    int i, j, periods = 2000, per = 20, steps;
    long a0;
    s2r_backend_reset(b, NULL, NULL, &rng);   /* applies the draw, timestep included */
    steps = s2r_robot_steps_for(model, per * dt);
    memcpy(q, b->info->q_home, sizeof q);
    a0 = s2r_bench_allocations;
    t0 = s2r_seconds();
    for (i = 0; i < periods; i++) {
        for (j = 0; j < b->info->n_joints; j++) q[j] = b->info->q_home[j] + 0.05 * sin(0.01 * i + j);
        s2r_backend_command(b, q);
        s2r_backend_advance(b, per * dt);
        s2r_backend_read_sensors(b, &s);
    }
    t0 = s2r_seconds() - t0;
    *allocs = s2r_bench_allocations - a0;
    return periods * steps / t0;
}

/* Reach-task steps/s over ENVS environments with a policy sampling
   actions, one thread. */
static double rollout_rate(s2r_reach* tasks, s2r_policy* policy, long* allocs) {
    static float obs[ENVS][S2R_REACH_MAX_OBS];
    int e, steps = 300;
    long a0;
    double t0;
    for (e = 0; e < ENVS; e++) { s2r_rng rng = s2r_rng_make(3, (uint64_t)e); s2r_reach_reset(&tasks[e], &rng, obs[e]); }
    a0 = s2r_bench_allocations;
    t0 = s2r_seconds();
    for (e = 0; e < ENVS; e++) {
        s2r_rng rng = s2r_rng_make(4, (uint64_t)e);
        float action[S2R_MAX_JOINTS];
        s2r_step_result r;
        int t;
        for (t = 0; t < steps; t++) {
            s2r_policy_act(policy, obs[e], action, 0, &rng);
            s2r_reach_step(&tasks[e], action, obs[e], &r);
            if (r.done) s2r_reach_reset(&tasks[e], &rng, obs[e]);
        }
    }
    t0 = s2r_seconds() - t0;
    *allocs = s2r_bench_allocations - a0;
    return ENVS * steps / t0;
}

/* PPO's rollout collection (s2r__ppo_collect: ENVS reach environments
   stepped in parallel, then the serial bookkeeping and GAE) at `threads`
   threads: environment steps/s. */
static double collect_rate(s2r_ppo* ppo, s2r_env* envs, int threads, long* allocs) {
    long a0 = s2r_bench_allocations;
    double t0 = s2r_seconds();
    ppo->cfg.num_threads = threads;
    if (s2r__ppo_collect(ppo, envs) != S2R_OK) return 0;
    t0 = s2r_seconds() - t0;
    *allocs = s2r_bench_allocations - a0;
    return ppo->batch_size / t0;
}

/* What this machine gives several threads at all: arithmetic-only work,
   the same total split over 1 and `threads` threads, time(1) /
   time(threads).  On a shared virtual machine this is itself below the
   thread count, and the rollout ratio cannot beat it. */
static double machine_spin_seconds(int threads) {
    long i, n = 200000000L;
    double t0 = s2r_seconds(), sink = 0;
#ifdef _OPENMP
#pragma omp parallel for num_threads(threads) schedule(static) reduction(+ : sink)
#endif
    for (i = 0; i < n; i++) sink += (double)(i & 1023) * 1e-9;
    (void)threads;
    return s2r_seconds() - t0 + 0 * sink;
}

/* The `threads` / 1-thread ratio as PAIRS back-to-back measurements, each
   pair timing 1 then `threads` threads: ratios[PAIRS] sorted, the median
   returned.  On a shared machine one ratio moves by tens of percent
   between pairs, so the spread is printed too.  Without a PPO: arithmetic
   only; with one: its rollout collection on envs. */
#define PAIRS 5
static int bench_cmp(const void* a, const void* b) {
    double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

static double thread_ratios(s2r_ppo* ppo, s2r_env* envs, int threads, double* ratios, long* allocs) {
    int i;
    long a1 = 0, a2 = 0;
    *allocs = 0;
    for (i = 0; i < PAIRS; i++) {
        double one = ppo ? collect_rate(ppo, envs, 1, &a1) : 1.0 / machine_spin_seconds(1);
        double many = ppo ? collect_rate(ppo, envs, threads, &a2) : 1.0 / machine_spin_seconds(threads);
        *allocs += a1 + a2;
        ratios[i] = many / one;
    }
    qsort(ratios, PAIRS, sizeof(double), bench_cmp);
    return ratios[PAIRS / 2];
}

/* The threads this machine offers (1 without OpenMP). */
static int bench_max_threads(void) {
#ifdef _OPENMP
    return omp_get_num_procs();
#else
    return 1;
#endif
}

/* Rollout collection at 2..nproc threads against 1, as information: one
   line per thread count.  Adds the collections' allocations and steps. */
static void print_thread_scaling(const char* what, s2r_reach* tasks, int obs_dim, int act_dim, long* allocs, double* steps) {
    s2r_ppo_config c = s2r_task_ppo_config(S2R_TASK_REACH, 4000, 1, 1);   /* collections of 4000 steps */
    s2r_env envs[ENVS];
    s2r_ppo ppo;
    double pairs[PAIRS];
    int e, n;
    for (e = 0; e < ENVS; e++) envs[e] = s2r_reach_env(&tasks[e]);
    if (s2r_ppo_init(&ppo, &c, obs_dim, act_dim) != S2R_OK) return;
    for (n = 2; n <= bench_max_threads(); n++) {
        long a;
        double median = thread_ratios(&ppo, envs, n, pairs, &a);
        *allocs += a;
        *steps += 2.0 * PAIRS * ppo.batch_size;
        printf("  %-44s %8.3f  (information; %d pairs %.2f-%.2f)\n", what, median, PAIRS, pairs[0], pairs[PAIRS - 1]);
        what = "";
    }
    s2r_ppo_free(&ppo);
}

static double ppo_rate(s2r_reach* tasks, int obs_dim, int act_dim) {
    s2r_ppo_config c = s2r_task_ppo_config(S2R_TASK_REACH, 4000 * 4, 1, 1);   /* 4 updates */
    s2r_env envs[ENVS];
    s2r_ppo ppo;
    s2r_ppo_stats st;
    double t0;
    int e, i;
    for (e = 0; e < ENVS; e++) envs[e] = s2r_reach_env(&tasks[e]);
    if (s2r_ppo_init(&ppo, &c, obs_dim, act_dim) != S2R_OK) return 0;
    t0 = s2r_seconds();
    for (i = 0; i < 4; i++) s2r_ppo_iterate(&ppo, envs, &st);
    t0 = s2r_seconds() - t0;
    s2r_ppo_free(&ppo);
    return 4.0 * c.rollout_steps / t0;
}

static void bench_robot(s2r_robot_kind kind) {
    s2r_sim dr, sims[ENVS];
    s2r_sim_config sc = s2r_sim_config_default(kind);
    s2r_real_robot real;
    s2r_reach tasks[ENVS];
    s2r_reach_config rc = s2r_reach_config_default();
    s2r_policy policy;
    s2r_policy_shape shape;
    s2r_rng rng = s2r_rng_make(2, 0);
    double raw, rdr, rreal, mdr, mreal, roll1, ppo, substeps = rc.control_period / 0.002, collected = 0;
    long a_dr, a_real, a_roll, a_collect = 0;
    int e, obs_dim, act_dim;
    const char* name = s2r_robot_kind_name(kind);

    raw = BEST_OF_3(raw_physics_rate(kind));
    sc.randomization = s2r_randomization_default();
    s2r_sim_init(&dr, &sc);
    rdr = BEST_OF_3(backend_physics_rate(&dr.backend, &dr.robot, &a_dr));
    mdr = BEST_OF_3(model_physics_rate(&dr.robot));
    s2r_sim_free(&dr);
    s2r_real_robot_init(&real, kind, 1);
    rreal = BEST_OF_3(backend_physics_rate(&real.backend, &real.hidden_sim.robot, &a_real));
    mreal = BEST_OF_3(model_physics_rate(&real.hidden_sim.robot));
    s2r_real_robot_free(&real);

    sc = s2r_sim_config_default(kind);
    for (e = 0; e < ENVS; e++) { s2r_sim_init(&sims[e], &sc); s2r_reach_init(&tasks[e], &rc, &sims[e].backend); }
    s2r_task_dims(S2R_TASK_REACH, kind, &obs_dim, &act_dim);
    memset(&shape, 0, sizeof shape);
    shape.obs_dim = obs_dim; shape.act_dim = act_dim; shape.num_hidden = 2; shape.hidden[0] = shape.hidden[1] = 64;
    s2r_policy_init(&policy, &shape, -0.5f, 10.0f, &rng);
    roll1 = BEST_OF_3(rollout_rate(tasks, &policy, &a_roll));
    ppo = ppo_rate(tasks, obs_dim, act_dim);

    printf("%s: raw physics %.0f mj_step/s\n", name, raw);
    printf("  %-44s %8.3f  (goal >= 0.9)\n", "randomized sim physics steps/s / its model's", rdr / mdr);
    printf("  %-44s %8.3f  (the physics of the draw)\n", "  its model's mj_step/s / raw", mdr / raw);
    printf("  %-44s %8.3f  (goal >= 0.9)\n", "real robot physics steps/s / its model's", rreal / mreal);
    printf("  %-44s %8.3f  (the physics of the unit)\n", "  its model's mj_step/s / raw", mreal / raw);
    printf("  %-44s %8.3f  (goal >= 0.85; %.0f env steps/s)\n", "rollout env steps/s / (raw / substeps)", roll1 / (raw / substeps), roll1);
    printf("  %-44s %8.3f  (goal >= 0.5; %.0f env steps/s)\n", "end-to-end PPO / rollout-only", ppo / roll1, ppo);
    print_thread_scaling("PPO rollout N threads / 1, N = 2..nproc", tasks, obs_dim, act_dim, &a_collect, &collected);
    printf("  %-44s %8.3f  (goal 0)\n", "heap allocations per environment step",
           (double)(a_dr + a_real + a_roll + a_collect) / (2000.0 * 2 + ENVS * 300.0 + collected));
    for (e = 0; e < ENVS; e++) { s2r_reach_free(&tasks[e]); s2r_sim_free(&sims[e]); }
    s2r_policy_free(&policy);
}

/* PPO on the pendulum with settings c, one thread, to a deterministic
   return of -200: after every update the policy's mean action is
   evaluated on 10 fixed starts (the same 10 each time; its time is not
   counted).  Prints the steps and training seconds when the mean return
   first reached -200 (or that it did not; wall seconds and, for a machine
   others are using, the process's CPU seconds), the training steps/s and
   the return after the last update; returns the wall seconds (-1: not
   reached). */
static double bench_pendulum(const char* label, s2r_ppo_config c) {
    s2r_pendulum pend[ENVS], eval_pend;
    s2r_env envs[ENVS], eval_env;
    s2r_env_eval ev;
    s2r_ppo ppo;
    double seconds = 0, cpu = 0, reached = -1, reached_cpu = -1;
    long long reached_steps = -1;
    int e;
    c.num_threads = 1;
    for (e = 0; e < c.num_envs; e++) { s2r_pendulum_init(&pend[e]); envs[e] = s2r_pendulum_env(&pend[e]); }
    s2r_pendulum_init(&eval_pend);
    eval_env = s2r_pendulum_env(&eval_pend);
    memset(&ev, 0, sizeof ev);
    if (s2r_ppo_init(&ppo, &c, 3, 1) != S2R_OK) { printf("pendulum, %s: %s\n", label, ppo.error); return -1; }
    while (ppo.update < ppo.num_updates) {
        s2r_rng starts = s2r_rng_make(1234, 0);
        double t0 = s2r_seconds();
        clock_t c0 = clock();
        if (s2r_ppo_iterate(&ppo, envs, NULL) != S2R_OK) { printf("pendulum, %s: %s\n", label, ppo.error); break; }
        seconds += s2r_seconds() - t0;
        cpu += (double)(clock() - c0) / CLOCKS_PER_SEC;
        if (s2r_policy_evaluate(&ppo.policy, &eval_env, 10, 1, &starts, &ev) != S2R_OK) break;
        if (reached < 0 && ev.mean_return >= -200.0) { reached = seconds; reached_cpu = cpu; reached_steps = ppo.global_step; }
    }
    printf("pendulum, %s:\n  ", label);
    if (reached >= 0) printf("return -200 after %lld steps, %.2f s (%.2f s CPU);", reached_steps, reached, reached_cpu);
    else printf("return -200 not reached in %lld steps;", ppo.global_step);
    printf(" %.0f steps/s on one thread, final return %.1f\n", ppo.global_step / seconds, ev.mean_return);
    s2r_ppo_free(&ppo);
    return reached;
}

/* The library's defaults (CleanRL's: 2048-step rollouts, 32 minibatches,
   10 epochs, 64x64 tanh) on 8 environments for 300k steps, and RLtools'
   CPU Pendulum PPO example (src/rl/environments/pendulum/ppo/cpu) as
   closely as the config allows: 4 environments x 1024 steps, minibatches
   of 256, 2 epochs, 64x64 ReLU actor and critic, gamma 0.9, lambda 0.95,
   clip 0.2, initial action std 2, no entropy bonus, Adam at a constant
   1e-3 with epsilon 1e-8 and no gradient clipping, advantages normalized
   per minibatch, observations normalized, rewards not scaled, 74
   iterations (303k steps: RLtools' budget, which seeds 1, 2 and 3 each
   get; seed 1 is the one timed).  What differs still: RLtools has one Adam per
   network (here one over both, the same per parameter once no global
   gradient norm couples them), normalizes observations with statistics
   fixed at the start (here running ones), initializes its layers its own
   way (here orthogonally), and at a time-limit cut sets the last step's
   TD error to 0 (here it bootstraps from V(final obs)); the value loss
   here is not clipped, as there. */
static void bench_pendulums(void) {
    s2r_ppo_config c = s2r_ppo_config_default();
    double library, rltools;
    int seed;
    c.total_steps = 300000;
    c.num_envs = ENVS;
    library = bench_pendulum("library defaults", c);
    c = s2r_ppo_config_default();
    c.num_envs = 4;
    c.rollout_steps = 4 * 1024;
    c.num_minibatches = 16;
    c.update_epochs = 2;
    c.actor_activation = c.critic_activation = S2R_ACTIVATION_RELU;
    c.gamma = 0.9f;
    c.init_log_std = (float)log(2.0);
    c.learning_rate = 1e-3f;
    c.anneal_lr = 0;
    c.adam_eps = 1e-8f;
    c.max_grad_norm = 0.0f;
    c.clip_value_loss = 0;
    c.normalize_rewards = 0;
    c.total_steps = 74LL * c.rollout_steps;
    rltools = bench_pendulum("RLtools' CPU example's settings", c);
    if (library > 0 && rltools > 0)
        printf("  time to -200, RLtools' settings / library defaults: %.2f\n", rltools / library);
    for (seed = 2; seed <= 3; seed++) {   /* within RLtools' budget on every seed? */
        char label[64];
        c.seed = seed;
        snprintf(label, sizeof label, "RLtools' settings, seed %d of 3", seed);
        bench_pendulum(label, c);
    }
}

/* Peak resident memory (MiB) of a child process running argv (its output
   discarded); -1 if it cannot be run or fails. */
static double child_peak_mib(char* const* argv) {
#if defined(__unix__)
    posix_spawn_file_actions_t quiet;
    struct rusage ru;
    pid_t pid;
    int status, ok;
    posix_spawn_file_actions_init(&quiet);
    posix_spawn_file_actions_addopen(&quiet, 1, "/dev/null", O_WRONLY, 0);
    ok = posix_spawn(&pid, argv[0], &quiet, NULL, argv, environ) == 0;
    posix_spawn_file_actions_destroy(&quiet);
    if (!ok || wait4(pid, &status, 0, &ru) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return -1;
    return ru.ru_maxrss / 1024.0;   /* KiB on Linux */
#else
    (void)argv;
    return -1;
#endif
}

static void bench_memory(void) {
    char* training[] = {"build/02_domain_randomization", "--quick", "--out", "build/bench_out", NULL};
    char* table[] = {"build/07_the_table", "--quick", "--out", "build/bench_out", NULL};
    char robot[32] = "";
    double wall = -1, peak = -1;
    int seeds = 0, quick = 1;
    FILE* f = fopen("figures/07_run.csv", "r");
    printf("memory (peak resident):\n");
    printf("  %-44s %8.1f MiB\n", "one PPO training run (02, child process)", child_peak_mib(training));
    printf("  %-44s %8.1f MiB\n", "table pipeline, quick sizes (07 --quick)", child_peak_mib(table));
    if (f && fscanf(f, "%*[^\n]\n%31[^,],%d,%d,%lf,%lf", robot, &seeds, &quick, &wall, &peak) == 5 && !quick)
        printf("  %-44s %8.1f MiB  (%s, %d seeds, %.0f s; figures/07_run.csv)\n", "make table, last full run", peak, robot,
               seeds, wall);
    else
        printf("  make table, last full run: not recorded yet (figures/07_run.csv comes from make figures)\n");
    if (f) fclose(f);
    printf("  %-44s %8.1f MiB\n", "this benchmark", s2r_peak_memory_mib());
}

/* `bench_main pendulum`: the pendulum alone (bench/rltools_pendulum.sh
   runs it beside RLtools' example). */
int main(int argc, char** argv) {
    double pairs[PAIRS], machine;
    long unused;
    int n;
    if (argc > 1 && !strcmp(argv[1], "pendulum")) {
        bench_pendulums();
        return 0;
    }
    for (n = 2; n <= bench_max_threads(); n++) {
        machine = thread_ratios(NULL, NULL, n, pairs, &unused);
        printf("this machine: arithmetic-only work, %d threads / 1 thread, median %.3f (%d pairs %.2f-%.2f; the "
               "ceiling for the rollout ratio)\n", n, machine, PAIRS, pairs[0], pairs[PAIRS - 1]);
    }
    bench_robot(S2R_ROBOT_UR5E);
    bench_robot(S2R_ROBOT_PANDA);
    bench_pendulums();
    bench_memory();
    return 0;
}
