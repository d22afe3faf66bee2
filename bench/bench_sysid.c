/* bench_sysid.c - cost of identifying the UR5e's six default parameters
   (kp, kv, payload, armature, frictionloss, action_latency) on a real unit.

   Records 3 multisine trajectories of 3 s to learn from and 2 chirps to
   validate on (50 Hz), runs s2r_sysid_run with the default config (the
   sensing delay held at the training centre, as example 03 does) and
   prints: wall and CPU time, sweeps, loss evaluations, evaluations and
   simulated physics steps per CPU second, the training loss and the
   held-out MSE before and after (and their ratio).
   Optional arguments name=value: unit (fleet seed, 1), trajectories (3),
   seconds (per trajectory, 3), sweeps (the default budget), loss_tol
   (the default), polish (0: a check; 1: taken), robot (ur5e|panda).
   Built and run by make bench. */
#define SIM2REAL_IMPLEMENTATION
#include "../sim2real.h"
#include "../sim2real_reports.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PERIOD 0.02   /* s, sample period */

typedef struct bench_args {
    s2r_robot_kind robot;
    uint64_t       unit;
    int            trajectories, sweeps, polish;
    double         seconds, loss_tol;
} bench_args;

/* Apply one name=value argument; 0 if unknown or malformed. */
static int apply_arg(bench_args* a, const char* arg) {
    const char* eq = strchr(arg, '=');
    const char* v = eq ? eq + 1 : "";
    size_t n = eq ? (size_t)(eq - arg) : 0;
    if (!eq) return 0;
    if (n == 4 && !strncmp(arg, "unit", n)) a->unit = (uint64_t)strtoull(v, NULL, 10);
    else if (n == 12 && !strncmp(arg, "trajectories", n)) a->trajectories = atoi(v);
    else if (n == 7 && !strncmp(arg, "seconds", n)) a->seconds = atof(v);
    else if (n == 6 && !strncmp(arg, "sweeps", n)) a->sweeps = atoi(v);
    else if (n == 5 && !strncmp(arg, "robot", n)) a->robot = s2r_robot_kind_find(v);
    else if (n == 8 && !strncmp(arg, "loss_tol", n)) a->loss_tol = atof(v);
    else if (n == 6 && !strncmp(arg, "polish", n)) a->polish = atoi(v);
    else return 0;
    return 1;
}

/* Record, identify, print.  0 on success. */
static int bench(const bench_args* a) {
    s2r_real_robot real;
    s2r_trajectory_set train, valid;
    s2r_excitation_config ex = s2r_excitation_config_default();
    s2r_sysid_config cfg = s2r_sysid_config_default();
    s2r_sim_config model = s2r_sim_config_default(a->robot);
    s2r_randomization training = s2r_randomization_default();
    s2r_sysid id;
    s2r_sysid_result r;
    int samples = (int)(a->seconds / PERIOD + 0.5), n, ok;
    double wall, cpu, steps;
    time_t w0;
    if (s2r_real_robot_init(&real, a->robot, a->unit) != S2R_OK) { fprintf(stderr, "%s\n", real.error); return 1; }
    n = real.backend.info->n_joints;
    cfg.known.p[S2R_PARAM_OBS_LATENCY] = training.p[S2R_PARAM_OBS_LATENCY];
    cfg.max_sweeps = a->sweeps;
    if (a->loss_tol >= 0) cfg.loss_tol = a->loss_tol;
    cfg.polish = a->polish;
    ok = s2r_trajectory_set_init(&train, n, samples, a->trajectories, PERIOD) == S2R_OK &&
         s2r_trajectory_set_init(&valid, n, samples, 2, PERIOD) == S2R_OK &&
         s2r_trajectory_collect(&train, &real.backend, &ex, a->trajectories, 1) == S2R_OK;
    ex.kind = S2R_EXCITATION_CHIRP;
    ok = ok && s2r_trajectory_collect(&valid, &real.backend, &ex, 2, 2) == S2R_OK;
    ok = ok && s2r_sysid_init(&id, &cfg, &model) == S2R_OK;
    if (!ok) { fprintf(stderr, "setup failed: %s %s\n", train.error, id.error); return 1; }
    w0 = time(NULL);
    cpu = s2r_seconds();
    ok = s2r_sysid_run(&id, &train, &valid, &r) == S2R_OK;
    cpu = s2r_seconds() - cpu;   /* processor time without OpenMP: this run is single-threaded */
    wall = difftime(time(NULL), w0);
    if (!ok) { fprintf(stderr, "%s\n", id.error); return 1; }
    steps = (double)r.evaluations * a->trajectories * samples * floor(PERIOD / id.dt + 0.5);
    printf("sysid %s unit %llu, %d params, %d x %.0f s: %.0f s wall, %.1f s CPU, %d sweeps (%s), "
           "%d loss evaluations (%.1f/s CPU, %.0f physics steps/s CPU)\n",
           s2r_robot_kind_name(a->robot), (unsigned long long)a->unit, cfg.n_params, a->trajectories, a->seconds,
           wall, cpu, r.sweeps, r.converged ? "converged" : "budget", r.evaluations, r.evaluations / cpu, steps / cpu);
    printf("  training loss %.3e -> %.3e rad^2; held-out MSE %.3e -> %.3e rad^2 (%.0fx lower, %s)\n", r.loss[0],
           r.train_loss, r.validation_mse_start, r.validation_mse, r.validation_mse_start / r.validation_mse,
           s2r_sysid_verdict_name(r.verdict));
    s2r_sysid_print(&id, &r);
    s2r_sysid_free(&id);
    s2r_trajectory_set_free(&train);
    s2r_trajectory_set_free(&valid);
    s2r_real_robot_free(&real);
    return 0;
}

int main(int argc, char** argv) {
    bench_args a;
    int i;
    a.robot = S2R_ROBOT_UR5E;
    a.unit = 1;
    a.trajectories = 3;
    a.seconds = 3.0;
    a.sweeps = s2r_sysid_config_default().max_sweeps;
    a.loss_tol = -1;   /* the default */
    a.polish = 0;
    for (i = 1; i < argc; i++)
        if (!apply_arg(&a, argv[i])) { fprintf(stderr, "unknown option %s\n", argv[i]); return 2; }
    if ((a.robot != S2R_ROBOT_UR5E && a.robot != S2R_ROBOT_PANDA) || a.trajectories < 1 || a.sweeps < 1 ||
        a.sweeps > S2R_SYSID_MAX_SWEEPS || !(a.seconds >= PERIOD && a.seconds <= 60)) {
        fprintf(stderr, "need robot ur5e|panda, trajectories >= 1, sweeps 1..%d, seconds in [%g, 60]\n",
                S2R_SYSID_MAX_SWEEPS, PERIOD);
        return 2;
    }
    return bench(&a);
}
