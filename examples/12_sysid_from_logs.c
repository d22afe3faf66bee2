/* 12_sysid_from_logs.c - system identification of your arm from its logs.

   What an engineer with a real arm has is logs: the joint commands sent
   and the joint positions measured, recorded at the robot's own rate (a
   UR's RTDE stream, a Franka log, a ROS bag exported to CSV).  This
   example identifies the simulator from such files alone - no backend,
   no robot connected - with the same coordinate descent, verdict and
   recentred ranges as example 03, and writes a ranges file that training
   reads back:

       build/12_sysid_from_logs --mjcf my_arm.xml --log a.csv --log b.csv \
           --log c.csv --out DIR                         # identify
       build/02_domain_randomization --mjcf my_arm.xml \
           --ranges DIR/12_ranges.txt --out DIR          # train on them

   (--robot ur5e|panda instead of --mjcf for a built-in arm; your own arm
   is then measured in its simulator only, having no stand-in fleet.)

   The files: one trajectory per file in the format of sim2real_logs.h's
   "Trajectory files" (t in s, command_J, q_J and optionally qd_J per
   joint, joints from 1; 50 Hz or faster; starting at rest), each checked
   as a robot's data (units of t, rate, a moving start, angles in degrees,
   the separator: refused naming file, line and likely cause) and
   resampled to 50 Hz; each file's rate, length and whether it measured
   velocities are printed.  Where every fitted log has qd_J columns the
   velocities enter the loss with weight --weight-qd (s^2; default
   S2R_LOG_WEIGHT_QD, 0, positions alone: the header says why, from
   bench/bench_log_velocity.c).  The last
   --log is held out for the verdict, the others are fitted (a held-out
   log holding a fitted one's motion is refused: it checks nothing); with
   a single --log the verdict is on the fitted data itself, which flatters
   it (said so when it happens).  Open-loop logs see only the total delay,
   command and sensing together: the sensing delay is held at 0, the
   identified command latency is the total, and the ranges file trains
   with the whole of it on the command (its obs_latency off) - never a
   held sensing delay larger than a fast arm's whole delay, which no
   command latency (>= 0) could make up.  The fit prints a line per
   sweep; the report gives each parameter with its interval (a fitted
   log the identified model follows far worse than the others - a
   corrupted column, another arm's log - is named and blocks the
   verdict), and
   DIR/12_fit.png shows the held-out log measured against the identified
   simulator, joint by joint, with the residuals and the verdict.

   To make logs of your arm, first write what to play on it:

       build/12_sysid_from_logs --mjcf my_arm.xml --write-excitation exc.csv

   writes exc_1.csv .. exc_4.csv (three multisines to fit, a chirp to hold
   out; 3 s at 50 Hz, t and command_J, the rate and safety margins in
   their header lines; s2r_excitation_write_csv).  Play each on the arm
   as its header says and record a log of it (build/robot_player does
   both on the arm behind the socket; examples/robot_server.py --play with
   a Python driver); then --log the four logs in that order.

   When the report flags a joint the shared parameters cannot follow,
   --joint kp[4] (repeatable) fits that joint's own kp - or kv,
   torque_limit, damping, armature, frictionloss - beside the shared one,
   and the ranges file gives it a range of its own (a kp[4] line).
   --joint damping (a name alone) fits one damping scale for every joint
   beside the defaults: for a model with <joint damping> beside its
   servos' kv (said before the fit), whose real joint damping the shared
   kv cannot stand in for (the header's "Which parameters").

   Without --log it first makes logs the way a lab would: three multisine
   excitations and a chirp on real unit --real-seed of the stand-in fleet
   (with --mjcf: on your arm's simulator made different from its model on
   purpose - kp x 0.9, kv x 1.1, a 0.2 kg payload, 0.2 N m of dry friction,
   20 ms of command delay), written as DIR/12_log_1.csv .. _4.csv - then forgets the
   robot and identifies from the files, so the whole path runs on any
   machine.  examples/arm4.xml is a small four-joint arm to try it with.
   With --address ADDRESS the logs are recorded on the robot served there
   instead (s2r_socket_robot: robot_server.c, robot_server.py, your arm's
   driver), the same excitations: a stand-in served by robot_server gives
   the same files, digit for digit, as that unit recorded here.  A log
   whose arm is still moving at its start pose after the reset (one that
   sags under soft servos and rings, as the kuka iiwa's and Sawyer's
   models do) is recorded again from that pose held until the arm is
   still, its first row the settled reading - said for each such log
   (s2r_trajectory_collect_at_rest, sim2real_logs.h).

   Uses: s2r_trajectory_set_load_csv, s2r_trajectory_write_csv, s2r_socket_robot_connect,
         s2r_excitation_make, s2r_excitation_write_csv,
         s2r_trajectory_collect_at_rest, s2r_sysid_init, s2r_sysid_run,
         s2r_sysid_print, s2r_sysid_recentre, s2r_sysid_fixed,
         s2r_randomization_write, s2r_plot_sysid_replay.
   Writes: DIR/12_identified.txt (the identified simulator, FIXED values),
           DIR/12_ranges.txt (the training ranges recentred on it),
           DIR/12_fit.png (the held-out log against the identified model);
           without --log also DIR/12_log_1.csv .. 12_log_4.csv; with
           --write-excitation FILE only FILE_1.csv .. FILE_4.csv. */
#define SIM2REAL_IMPLEMENTATION
#include "../sim2real.h"
#include "../sim2real_socket.h"
#include "../sim2real_logs.h"
#include "../sim2real_reports.h"
#include "s2r_cli.h"
#include "s2r_figures.h"
#include <stdio.h>
#include <string.h>

#define PERIOD 0.02   /* s: logs are resampled to 50 Hz */
#define N_LOGS 4      /* excitations: 3 multisines to fit, a chirp held out */

/* --mjcf without logs: your arm's simulator, made different from its
   model on purpose, stands in for the arm (a softer servo, a 0.2 kg
   payload, some dry friction, 20 ms of command delay) - a demonstration,
   not your robot. */
static s2r_randomization lab_arm(void) {
    static const s2r_param p[5] = {S2R_PARAM_KP, S2R_PARAM_KV, S2R_PARAM_PAYLOAD, S2R_PARAM_FRICTIONLOSS,
                                   S2R_PARAM_ACTION_LATENCY};
    static const double v[5] = {0.9, 1.1, 0.2, 0.2, 0.02};
    s2r_randomization r = s2r_randomization_none();
    int i;
    for (i = 0; i < 5; i++) {
        r.p[p[i]].enabled = 1;
        r.p[p[i]].mode = s2r_param_default_mode(p[i]);
        r.p[p[i]].dist = s2r_dist_fixed(v[i]);
    }
    return r;
}

/* The arm's facts (--robot, or --mjcf's), without a simulator. */
static int load_arm(const s2r_options* opt, s2r_robot* arm) {
    if ((opt->mjcf[0] ? s2r_robot_load_file(arm, opt->mjcf) : s2r_robot_load(arm, opt->robot)) == S2R_OK) return 0;
    fprintf(stderr, "%s\n", arm->error);
    return 1;
}

/* --write-excitation FILE: the excitations this example plays on the
   stand-in (the same streams as make_logs: multisines from --seed, the
   chirp from --seed + 1), written as FILE_1.csv .. FILE_4.csv to play on
   your arm. */
static int write_excitation(const s2r_options* opt) {
    s2r_excitation_config ex = s2r_excitation_config_default();
    s2r_robot arm;
    double q0[S2R_MAX_JOINTS], *command;
    char path[300], error[S2R_ERROR_LEN];
    const char* dot = strrchr(opt->excitation, '.');
    int i, samples = opt->quick ? 60 : 150, stem, bad = 0;
    if (!dot || strchr(dot, '/')) dot = opt->excitation + strlen(opt->excitation);
    stem = (int)(dot - opt->excitation);
    if (load_arm(opt, &arm)) return 1;
    if (!(command = (double*)malloc(sizeof(double) * (size_t)samples * (size_t)arm.info.n_joints))) bad = 1;
    for (i = 0; i < N_LOGS && !bad; i++) {
        s2r_rng rng = s2r_rng_make(i < N_LOGS - 1 ? opt->seed : opt->seed + 1, i < N_LOGS - 1 ? (uint64_t)i : 0);
        ex.kind = i < N_LOGS - 1 ? S2R_EXCITATION_MULTISINE : S2R_EXCITATION_CHIRP;
        snprintf(path, sizeof path, "%.*s_%d%s", stem, opt->excitation, i + 1, *dot ? dot : ".csv");
        if (s2r_excitation_make(&ex, &arm.info, samples, PERIOD, &rng, q0, command) != S2R_OK ||
            s2r_excitation_write_csv(path, &ex, &arm.info, q0, command, samples, PERIOD, error) != S2R_OK) {
            fprintf(stderr, "%s\n", error);
            bad = 1;
        }
    }
    if (!bad)
        printf("wrote %d excitations for %s (%.0f s each at %.0f Hz: 3 multisines to fit, a chirp to hold out) as "
               "%.*s_1..%d%s\nOn the arm, for each: move slowly to its first row's targets and let the arm settle, send "
               "each row's targets at its t, and record t, command_J, q_J (qd_J if measured) from the first row on;\n"
               "then: build/12_sysid_from_logs%s%s --log LOG_1.csv ... --log LOG_4.csv\n", N_LOGS, arm.info.name,
               samples * PERIOD, 1 / PERIOD, stem, opt->excitation, N_LOGS, *dot ? dot : ".csv",
               opt->mjcf[0] ? " --mjcf " : "", opt->mjcf);
    free(command);
    s2r_robot_free(&arm);
    return bad;
}

/* No logs given: record them on a stand-in and write them as CSV, as a lab
   would from its robot - a unit of the stand-in fleet, or with --mjcf your
   arm's simulator as lab_arm makes it.  The paths go into opt->logs. */
static int make_logs(s2r_options* opt) {
    s2r_real_robot real;
    s2r_socket_robot remote;
    s2r_sim lab;
    s2r_sim_config sc = s2r_sim_config_default(S2R_ROBOT_CUSTOM);
    const s2r_backend* robot;
    s2r_trajectory_set set;
    s2r_excitation_config ex = s2r_excitation_config_default();
    char error[S2R_ERROR_LEN], name[64], file[512];
    double held[N_LOGS] = {0};   /* s each log's start pose was held before it (0: at rest after the reset) */
    int i, n = N_LOGS, samples = opt->quick ? 60 : 150, bad = 0;
    memset(&set, 0, sizeof set);
    if (opt->address[0]) {   /* the robot served there: your arm, or a unit robot_server serves */
        s2r_socket_config c = s2r_socket_config_default();
        c.address = opt->address;
        c.robot = opt->mjcf[0] ? S2R_ROBOT_CUSTOM : opt->robot;
        c.mjcf_path = opt->mjcf[0] ? opt->mjcf : NULL;
        c.timeout_ms = 5000;
        if (s2r_socket_robot_connect(&remote, &c) != S2R_OK) {
            fprintf(stderr, "the robot at %s: %s\n", opt->address, remote.error);
            return 1;
        }
        robot = s2r_socket_robot_backend(&remote);
    } else if (opt->mjcf[0]) {
        sc.mjcf_path = opt->mjcf;
        sc.randomization = lab_arm();
        if (s2r_sim_init(&lab, &sc) != S2R_OK) { fprintf(stderr, "%s\n", lab.error); return 1; }
        robot = &lab.backend;
    } else {
        if (s2r_real_robot_init(&real, opt->robot, opt->real_seed) != S2R_OK) { fprintf(stderr, "%s\n", real.error); return 1; }
        robot = &real.backend;
    }
    if (s2r_trajectory_set_init(&set, robot->info->n_joints, samples, n, PERIOD) != S2R_OK ||
        s2r_trajectory_collect_at_rest(&set, robot, &ex, n - 1, opt->seed, held) != S2R_OK) bad = 1;
    ex.kind = S2R_EXCITATION_CHIRP;   /* the held-out log: another signal */
    if (!bad && s2r_trajectory_collect_at_rest(&set, robot, &ex, 1, opt->seed + 1, held + n - 1) != S2R_OK) bad = 1;
    if (bad) fprintf(stderr, "%s\n", set.error);
    for (i = 0; i < n && !bad; i++)   /* an arm moving at its first row (a sag, a ring) was held still first */
        if (held[i] > 0)
            printf("  log %d: the arm was moving at its start pose after the reset: held it there %.2f s until still "
                   "(below %g rad/s over %g s), then recorded from the settled reading\n", i + 1, held[i],
                   S2R_SETTLE_SPEED, S2R_SETTLE_WINDOW);
    for (i = 0; i < n && !bad; i++) {
        snprintf(name, sizeof name, "12_log_%d.csv", i + 1);
        s2r_path(file, sizeof file, opt->out, name);
        if (strlen(file) >= sizeof opt->logs[i]) { fprintf(stderr, "--out is too long for the log paths\n"); bad = 1; break; }
        memcpy(opt->logs[i], file, strlen(file) + 1);
        if (s2r_trajectory_write_csv(&set, i, opt->logs[i], error) != S2R_OK) { fprintf(stderr, "%s\n", error); bad = 1; }
    }
    opt->n_logs = bad ? 0 : n;
    if (bad)   /* what failed is said above; no log is used */
        fprintf(stderr, "No --log given: the logs of %s were not all recorded and written (why: above); none is used\n",
                opt->address[0] ? robot->name : opt->mjcf[0] ? "your arm's simulator" : real.name);
    else
        printf("No --log given: recorded %d logs of %.0f s on %s (3 multisines, a chirp) into %s/12_log_*.csv\n", n,
               samples * PERIOD, opt->address[0] ? robot->name : opt->mjcf[0] ? "your arm's simulator, made different on purpose"
               : real.name, opt->out);
    s2r_trajectory_set_free(&set);
    if (opt->address[0]) s2r_socket_robot_close(&remote);
    else if (opt->mjcf[0]) s2r_sim_free(&lab);
    else s2r_real_robot_free(&real);
    return bad;
}

/* Each --joint names a joint of the arm (--robot, or --mjcf's): checked
   before any log is recorded or read.  The exit status of a bad command
   line (2) when one does not. */
static int check_joints(const s2r_options* opt) {
    s2r_robot arm;
    int i, bad = 0;
    if (opt->n_joints == 0) return 0;
    if (load_arm(opt, &arm)) return 1;
    for (i = 0; i < opt->n_joints && !bad; i++)
        if (opt->joint[i] > arm.info.n_joints) {
            fprintf(stderr, "--joint %s[%d]: %s has %d joints\n", s2r_param_name(opt->joint_param[i]), opt->joint[i],
                    arm.info.name, arm.info.n_joints);
            bad = 2;
        }
    s2r_robot_free(&arm);
    return bad;
}

/* Each file as read: its rate, the length used (a log longer than
   S2R_LOG_FIT_SAMPLES is cut there, saying so) and whether it measured
   velocities. */
static void print_logs(const s2r_trajectory_set* set, const char* role) {
    int i;
    for (i = 0; i < set->count; i++) {
        const s2r_trajectory_source* f = &set->source[i];
        printf("  %s %s: %.0f Hz, %.2f s, velocities %s\n", role, f->file, f->rate, f->samples * set->sample_period,
               f->qd_measured ? "measured (qd_J)" : "from differences of q");
        if (f->span > f->samples)
            printf("    used its first %.2f s of %.2f s: a fit uses at most %d samples (%.0f s) of each log "
                   "(S2R_LOG_FIT_SAMPLES); cut other parts into logs of their own to fit them\n",
                   f->samples * set->sample_period, f->span * set->sample_period, S2R_LOG_FIT_SAMPLES,
                   S2R_LOG_FIT_SAMPLES * set->sample_period);
    }
}

/* Each identified parameter with its interval: value +- 1.96 standard
   errors (95 %), or, for a latency (no standard error), the recentred
   range the loss profile gives.  Where the descent stopped short of the
   minimum (the Levenberg-Marquardt check from its point found a lower
   loss), the interval is widened to take in the check's point: the
   standard error counts the noise in the data, not the distance the fit
   had still to go (a quick fit of three sweeps stops about 0.003 of the
   bounds from it, several standard errors on clean logs). */
static void print_intervals(const s2r_sysid* id, const s2r_sysid_result* r) {
    int i, widened;
    char name[48];
    printf("  intervals: the logs' noise, given the model - not an error of the model itself (an effect it lacks, "
           "a coarser physics timestep than the arm's: dry friction moves with it - fit again with a finer <option timestep> to see)\n");
    for (i = 0; i < r->n_params; i++) {
        const s2r_sysid_param* p = &id->config.param[i];
        int exact = r->train_loss <= S2R_SYSID_EXACT_LOSS;   /* no scatter: the recentred range says more */
        int se = isfinite(r->std_error[i]) && !exact, short_of = r->polish_loss < r->train_loss && !r->polished;
        double half = se ? 1.96 * r->std_error[i] : r->half_width[i];
        double lo = fmax(r->value[i] - half, p->lo), hi = fmin(r->value[i] + half, p->hi);
        widened = short_of && (r->polish_value[i] < lo || r->polish_value[i] > hi);
        if (widened) lo = fmin(lo, r->polish_value[i]), hi = fmax(hi, r->polish_value[i]);
        if (p->joint) snprintf(name, sizeof name, "%s[%d]", s2r_param_name(p->param), p->joint);
        else snprintf(name, sizeof name, "%s", s2r_param_name(p->param));
        if (!r->identifiable[i]) {   /* s2r_sysid_recentre leaves its range as training had it */
            printf("    %-16s %9.4g  not identifiable%s: the ranges file keeps its training range\n", name, r->value[i],
                   r->zero_nominal[i] ? " (0 in the model)" : "");
            continue;
        }
        printf("    %-16s %9.4g  [%9.4g, %9.4g]  %s%s\n", name, r->value[i], lo, hi,
               se ? "95 %: +- 1.96 std err" : exact && isfinite(r->std_error[i]) ? "the recentred range (an exact fit: "
               "no scatter)" : "the recentred range (no std err)",
               widened ? ", widened to the lower loss the check found (the fit stopped short of it)" : "");
    }
}

/* The logs: all but the last to fit, the last to judge the fit; each
   checked as a robot's data as it is read.  valid is left empty with one
   log.  0, or 1 with the error printed. */
static int load_logs(const s2r_options* opt, s2r_trajectory_set* train, s2r_trajectory_set* valid) {
    const char* paths[S2R_OPTIONS_MAX_LOGS];
    char error[S2R_ERROR_LEN];
    int i, n_train = opt->n_logs > 1 ? opt->n_logs - 1 : 1;
    for (i = 0; i < opt->n_logs; i++) paths[i] = opt->logs[i];
    memset(valid, 0, sizeof *valid);
    if (s2r_trajectory_set_load_csv(train, paths, n_train, PERIOD, error) != S2R_OK ||
        (opt->n_logs > 1 && s2r_trajectory_set_load_csv(valid, paths + n_train, 1, PERIOD, error) != S2R_OK)) {
        fprintf(stderr, "%s\n", error);
        s2r_trajectory_set_free(train);
        return 1;
    }
    if (opt->n_logs > 1 && (i = s2r_trajectory_set_find_same(train, valid, 0)) >= 0) {   /* it checks nothing */
        fprintf(stderr, "the held-out log %s holds the same motion as the fitted %s: a fit judged on data it was "
                "fitted to is no held-out check; give last a log recorded apart (12 --write-excitation writes "
                "four: fit three, hold out the fourth)\n", paths[n_train], paths[i]);
        s2r_trajectory_set_free(train);
        s2r_trajectory_set_free(valid);
        return 1;
    }
    print_logs(train, "fit");
    if (opt->n_logs > 1) print_logs(valid, "held out");
    return 0;
}

/* A model with <joint damping> beside its servos' kv on some joint, the
   shared damping not fitted: said, with the fix.  The fit's kv is one
   scale of every servo's kv; a real arm's joint damping off by a factor is
   a different share of each joint's damping, which that scale cannot
   hold, and the shared friction loss takes up the rest (the header's
   "Which parameters"). */
static void say_joint_damping(const s2r_sysid* id) {
    const s2r_robot* r = &id->sim.robot;
    char list[160] = "";
    int i, j, n = 0, cut = 0;
    for (i = 0; i < id->config.n_params; i++)
        if (id->config.param[i].param == S2R_PARAM_DAMPING && id->config.param[i].joint == 0) return;
    for (j = 0; j < r->info.n_joints; j++)
        if (r->model->dof_damping[r->dof_adr[j]] > 0 && r->info.kv[j] > 0) {
            size_t l = strlen(list);
            if (l + strlen(r->info.joint_name[j]) + 8 < sizeof list)
                snprintf(list + l, sizeof list - l, "%s'%s'", n ? ", " : "", r->info.joint_name[j]);
            else cut = 1;
            n++;
        }
    if (n)
        printf("  joint damping beside the servo's kv on %d joint%s (%s%s): held at the model's; a real arm's differing "
               "by a factor shows as a biased frictionloss - --joint damping fits it too\n", n, n > 1 ? "s" : "", list,
               cut ? ", ..." : "");
}

/* The model to fit - your MJCF, or a built-in arm - and the fit's
   settings: the sensing delay held at 0 (see the top), velocities in the
   loss where every fitted log measured them, --joint's own entries.
   0, or 1 with the error printed. */
static int setup_fit(const s2r_options* opt, const s2r_trajectory_set* train, double* started, s2r_sysid* id) {
    s2r_sim_config model = s2r_sim_config_default(opt->mjcf[0] ? S2R_ROBOT_CUSTOM : opt->robot);
    s2r_sysid_config cfg = s2r_sysid_config_default();
    int i, measured = s2r_trajectory_set_qd_measured(train);
    if (opt->mjcf[0]) model.mjcf_path = opt->mjcf;
    cfg.known.p[S2R_PARAM_OBS_LATENCY] = s2r_randomization_none().p[S2R_PARAM_OBS_LATENCY];
    cfg.max_sweeps = opt->quick ? 3 : 12;
    cfg.weight_qd = measured ? opt->weight_qd : 0;
    cfg.on_sweep = s2r_sysid_progress;
    cfg.on_sweep_context = started;
    for (i = 0; i < opt->n_joints; i++) {   /* --joint kp[4]: that joint's own entry */
        cfg.param[cfg.n_params] = s2r_sysid_param_default(opt->joint_param[i]);
        cfg.param[cfg.n_params++].joint = opt->joint[i];
    }
    if (s2r_sysid_init(id, &cfg, &model) != S2R_OK) {
        fprintf(stderr, "%s\n", id->error);
        return 1;
    }
    say_joint_damping(id);
    printf("Fitting %d log(s), up to %.1f s, at 50 Hz, velocity weight %g s^2%s; %s\n", train->count,
           train->n_samples * PERIOD, cfg.weight_qd, measured ? "" : " (not every log measured qd)",
           opt->n_logs > 1 ? "the last log held out" : "one log only: the verdict judges the fitted data (flattering)");
    return 0;
}

/* Each fitted log's rms position error at the identified values,
   relative to the fitted set's motion (rel[i]; the verdict's measure):
   a log above S2R_SYSID_REL_BLOCK and three times the median of the
   others' is not the arm the others are (a corrupted or constant column,
   another arm's log) and drives the fit - named, with what to do.  The
   number flagged; 0 when a replay fails or there is one log. */
static int misfit_logs(s2r_sysid* id, const s2r_sysid_result* r, const s2r_trajectory_set* train) {
    double rel[S2R_OPTIONS_MAX_LOGS], others[S2R_OPTIONS_MAX_LOGS], motion = 0, *q;
    int n = train->n_joints, i, j, k, o, total = 0, flagged = 0;
    if (train->count < 2 || train->count > S2R_OPTIONS_MAX_LOGS ||
        !(q = (double*)malloc(sizeof(double) * (size_t)train->n_samples * (size_t)n)))
        return 0;
    for (i = 0; i < train->count; i++) total += s2r_trajectory_length(train, i);
    for (j = 0; j < n; j++) {   /* the set's motion: the mean over joints of each one's variance, rad^2 */
        double mean = 0, var = 0;
        for (i = 0; i < train->count; i++)
            for (k = 0; k < s2r_trajectory_length(train, i); k++)
                mean += train->q[((size_t)i * train->n_samples + k) * n + j] / total;
        for (i = 0; i < train->count; i++)
            for (k = 0; k < s2r_trajectory_length(train, i); k++) {
                double d = train->q[((size_t)i * train->n_samples + k) * n + j] - mean;
                var += d * d / total;
            }
        motion += var / n;
    }
    for (i = 0; i < train->count; i++) {
        double sq = 0;
        if (s2r_sysid_simulate(id, r->value, train, i, q, NULL) != S2R_OK) { free(q); return 0; }
        for (k = 0; k < s2r_trajectory_length(train, i); k++)
            for (j = 0; j < n; j++) {
                double e = q[(size_t)k * n + j] - train->q[((size_t)i * train->n_samples + k) * n + j];
                sq += e * e;
            }
        rel[i] = motion > 0 ? sqrt(sq / ((double)s2r_trajectory_length(train, i) * n) / motion) : INFINITY;
    }
    free(q);
    for (i = 0; i < train->count; i++) {
        double median;
        for (k = 0, o = 0; k < train->count; k++)
            if (k != i) others[o++] = rel[k];
        for (k = 1; k < o; k++)   /* sorted, for the median of the others */
            for (j = k; j > 0 && others[j - 1] > others[j]; j--) { double t = others[j]; others[j] = others[j - 1]; others[j - 1] = t; }
        median = o % 2 ? others[o / 2] : 0.5 * (others[o / 2 - 1] + others[o / 2]);
        if (!(rel[i] > S2R_SYSID_REL_BLOCK && rel[i] > 3 * median)) continue;
        printf("  fit log %s: off by %.1f %% of the motion at the identified model, the other fitted logs by %.1f %% "
               "(median): it is not the arm the others are - a corrupted or constant column, another arm's or another "
               "setup's log? - and the fit follows it (its parameters are not to be trusted): check it, or identify "
               "without it\n", train->source ? train->source[i].file : "?", 100 * rel[i], 100 * median);
        flagged++;
    }
    return flagged;
}

/* Fit and judge, as example 03, from the files; the report with each
   parameter's interval and the held-out verdict.  0, 1 (error printed)
   or 130 (stopped). */
static int fit(const s2r_options* opt, s2r_sysid* id, const s2r_trajectory_set* train,
               const s2r_trajectory_set* valid, s2r_sysid_result* r, int* bad) {
    int bad_logs;
    if (s2r_sysid_run(id, train, opt->n_logs > 1 ? valid : NULL, r) != S2R_OK) {
        fprintf(stderr, "%s\n", id->error);
        return 1;
    }
    if (s2r_example_stopped()) return 130;
    s2r_sysid_print(id, r);
    print_intervals(id, r);
    if ((*bad = bad_logs = misfit_logs(id, r, train)) > 0) r->verdict = S2R_SYSID_BLOCK;   /* a fit that follows a bad log */
    if (opt->n_logs == 1)   /* nothing held out: the fit is judged on the data it was fitted to */
        printf("  one log, nothing held out: give two or more --log files for a held-out check (%s)\n",
               s2r_sysid_verdict_name(r->verdict));
    else
        printf("  held-out error %.1f %% of the motion (was %.1f %% at the model's own values): %s%s\n",
               100 * r->validation_relative, 100 * r->validation_relative_start, s2r_sysid_verdict_name(r->verdict),
               bad_logs ? " (a fitted log misfits: named above)" : "");
    return 0;
}

/* A ranges entry that scales a nominal of 0 on every arm joint (the
   model's armature or damping) randomizes nothing: said, with what would
   (a nominal in the model, or an absolute range). */
static void say_zero_scales(const s2r_sysid* id, const s2r_sysid_result* r, const s2r_randomization* next) {
    int i;
    for (i = 0; i < r->n_params; i++) {
        s2r_param p = id->config.param[i].param;
        if (!r->zero_nominal[i] || id->config.param[i].joint || !next->p[p].enabled || next->p[p].mode != S2R_APPLY_SCALE)
            continue;
        printf("  12_ranges.txt: its %s line scales the model's %s of 0: training randomizes nothing there - give the "
               "model a nominal %s, or write an absolute range in its place ('%s uniform LO HI absolute', %s)\n",
               s2r_param_name(p), s2r_param_name(p), s2r_param_name(p), s2r_param_name(p),
               p == S2R_PARAM_ARMATURE ? "kg m^2" : "N m s/rad");
    }
}

/* The identified simulator (12_identified.txt) and the training ranges
   re-centred on it (12_ranges.txt), the total delay on the command.
   0, or 1 with the error printed. */
static int write_ranges(const s2r_options* opt, const s2r_sysid* id, const s2r_sysid_result* r,
                        const s2r_randomization* training) {
    s2r_randomization next, fixed;
    char error[S2R_ERROR_LEN], path[512];
    if (s2r_sysid_recentre(id, r, training, &next) != S2R_OK || s2r_sysid_fixed(id, r, &fixed) != S2R_OK) return 1;
    next.p[S2R_PARAM_OBS_LATENCY] = id->config.known.p[S2R_PARAM_OBS_LATENCY];   /* the total delay is the command's */
    say_zero_scales(id, r, &next);
    if (s2r_randomization_write(&fixed, s2r_path(path, sizeof path, opt->out, "12_identified.txt"), error) != S2R_OK ||
        s2r_randomization_write(&next, s2r_path(path, sizeof path, opt->out, "12_ranges.txt"), error) != S2R_OK) {
        fprintf(stderr, "%s\n", error);
        return 1;
    }
    return 0;
}

/* The fit, seen: the held-out log (or, with one log, the fitted one)
   against the identified model, 12_fit.png.  0, or 1 with the error
   printed. */
static int plot_fit(const s2r_options* opt, s2r_sysid* id, const s2r_sysid_result* r,
                    const s2r_trajectory_set* train, const s2r_trajectory_set* valid, int bad_logs) {
    int j, misfits = 0;
    const s2r_trajectory_set* seen = opt->n_logs > 1 ? valid : train;
    const char* base = strrchr(seen->source[0].file, '/');
    char error[S2R_ERROR_LEN], path[512], title[256];
    snprintf(title, sizeof title, "%.28s, %s: identified model %s, %.1f %% of the motion",   /* fits the width */
             base ? base + 1 : seen->source[0].file, opt->n_logs > 1 ? "held out" : "fitted",
             s2r_sysid_verdict_name(r->verdict), 100 * r->validation_relative);
    if (s2r_plot_sysid_replay(id, r, seen, 0, 1, title, s2r_path(path, sizeof path, opt->out, "12_fit.png"), error) !=
        S2R_OK) {
        fprintf(stderr, "%s\n", error);
        return 1;
    }
    for (j = 0; j < train->n_joints; j++) misfits += r->joint_misfit[j];
    if (r->verdict == S2R_SYSID_BLOCK && bad_logs)   /* the ranges stand for no arm: nothing to train on */
        printf("wrote %s/12_identified.txt, %s/12_ranges.txt and %s/12_fit.png\nNext: do not train on them - the "
               "verdict is block: a fitted log is not the arm the others are (named above); check it, or identify "
               "without it\n", opt->out, opt->out, opt->out);
    else if (r->verdict == S2R_SYSID_BLOCK && misfits)
        printf("wrote %s/12_identified.txt, %s/12_ranges.txt and %s/12_fit.png\nNext: do not train on them - the "
               "verdict is block: the simulator does not describe this arm's logs; see the misfits above (--joint fits "
               "a joint alone), check the logs and the MJCF, and identify again\n", opt->out, opt->out, opt->out);
    else if (r->verdict == S2R_SYSID_BLOCK)   /* every joint off alike: what no parameter of the model holds */
        printf("wrote %s/12_identified.txt, %s/12_ranges.txt and %s/12_fit.png\nNext: do not train on them - the "
               "verdict is block: the simulator does not describe this arm's logs, every joint off alike (no joint "
               "stands out for --joint): check the logs (units, the joints' order, the rate) and the MJCF (masses, "
               "the servos' kp and kv); if they are right, the arm has what no parameter here holds - backlash, "
               "friction that changes with speed, flexible joints or a belt, a torque limit that falls with speed - "
               "and the held-out error is a floor no fit removes: model the effect in the MJCF, or excite and deploy "
               "where it matters less\n", opt->out, opt->out, opt->out);
    else
        printf("wrote %s/12_identified.txt, %s/12_ranges.txt and %s/12_fit.png\nNext: train on them - "
               "build/02_domain_randomization%s%s --ranges %s/12_ranges.txt\n", opt->out, opt->out, opt->out,
               opt->mjcf[0] ? " --mjcf " : "", opt->mjcf, opt->out);
    return 0;
}

int main(int argc, char** argv) {
    s2r_options opt;
    s2r_randomization training = s2r_randomization_default();
    s2r_trajectory_set train, valid;
    s2r_sysid id;
    s2r_sysid_result r;
    char error[S2R_ERROR_LEN];
    double started;
    int status, bad, bad_logs = 0;

    if (s2r_example_start(&opt, argc, argv, "identify the simulator from your arm's logs (CSV)",
                          S2R_OPT_ROBOT | S2R_OPT_MJCF | S2R_OPT_RANGES | S2R_OPT_LOG | S2R_OPT_SEED | S2R_OPT_REAL_SEED |
                          S2R_OPT_OUT | S2R_OPT_QUICK | S2R_OPT_JOINT | S2R_OPT_WEIGHT_QD | S2R_OPT_WRITE_EXCITATION |
                          S2R_OPT_ADDRESS,
                          &status) != S2R_OK)
        return status;
    if (opt.excitation[0] && (opt.n_logs > 0 || opt.address[0])) {   /* it writes the excitations and stops */
        fprintf(stderr, "--write-excitation writes the excitations to play and stops: with %s given it would do "
                "nothing with %s - write the excitations first, then record or fit in a run of its own\n",
                opt.n_logs > 0 ? "--log" : "--address", opt.n_logs > 0 ? "the logs" : "the robot there");
        return 2;
    }
    if (opt.excitation[0]) return write_excitation(&opt);   /* what to play on your arm, then stop */
    if (opt.address[0] && opt.n_logs > 0) {
        fprintf(stderr, "--address records the logs on the robot there; with --log given it does nothing\n");
        return 2;
    }
    if ((status = check_joints(&opt)) != 0) return status;
    s2r_interrupt_catch();   /* Ctrl-C or SIGTERM: recording, reading and the fit stop within a second, status 130 */
    if (opt.ranges[0] && s2r_randomization_load(&training, opt.ranges, error) != S2R_OK) { fprintf(stderr, "%s\n", error); return 1; }
    if (opt.n_logs == 0 && make_logs(&opt)) return s2r_interrupt_requested() ? 130 : 1;   /* a lab's logs, recorded */
    if (s2r_example_stopped()) return 130;

    if (load_logs(&opt, &train, &valid)) return s2r_interrupt_requested() ? 130 : 1;   /* 1. the logs */
    bad = setup_fit(&opt, &train, &started, &id);                                      /* 2. the model to fit */
    started = s2r_seconds();
    if (!bad) bad = fit(&opt, &id, &train, &valid, &r, &bad_logs);                     /* 3. fit and judge */
    if (!bad) bad = write_ranges(&opt, &id, &r, &training);                            /* 4. re-centre */
    if (!bad) bad = plot_fit(&opt, &id, &r, &train, &valid, bad_logs);                 /* 5. the fit, seen */
    s2r_sysid_free(&id);
    s2r_trajectory_set_free(&train);
    s2r_trajectory_set_free(&valid);
    return bad && s2r_interrupt_requested() ? 130 : bad;
}
