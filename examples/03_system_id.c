/* 03_system_id.c - system identification: where does this real unit sit?

   Domain randomization (example 02) trains on ranges centred on the
   datasheet.  Here we measure where one real unit actually sits in those
   ranges, so the next training run can be centred there.  For each arm
   (the UR5e and the Panda, or the one given with --robot):

     1. excite a real unit through the backend interface - every joint
        follows a sum of sines around a start pose near home - and record
        the measured joint positions (3 trajectories of 3 s at 50 Hz);
     2. fit the simulator to them: cyclic coordinate descent over the servo
        gains kp and kv, the payload, the armature, the joint dry friction
        and the command latency, minimizing the open-loop joint position
        error of the simulator replaying the same commands, then the
        latency's outer search (its loss profile is printed), standard
        errors and the combinations the data do not pin down;
     3. validate on held-out trajectories of a different signal (chirps):
        the rms error relative to the motion, per joint and overall, and
        the verdict (< 3 % good, 3-5 % acceptable, > 5 % block) for the
        identified model, the datasheet model it started from and two
        corners of the search box;
     4. re-centre the default training ranges (or --ranges FILE's) on the estimate (narrower
        where the data are sure, untouched where a parameter could not be
        identified) and save them for the next training run; with --task
        push, first the object too: the tip strikes it through the
        backend, and its friction, mass and the camera's delay are fitted
        to where the camera saw it go, with the arm held as identified -
        kept only when the held-out strikes do not block the fit;
     5. train on them (warm from 02's DR policy when DIR/02_dr.ckpt is
        there), calibrate the unit's camera (a marker at surveyed points,
        through the backend) and measure the policy in sim and on the same
        unit with the calibration applied.

   The stand-in real robot also has effects the simulator cannot represent
   (sigmoid joint friction, backlash, a torque-speed limit, encoder bias):
   the identified values are the *effective* ones that make this simulator
   behave like this unit, not necessarily the unit's physical values.  To
   show that, the hidden truth is printed beside the estimate through the
   ORACLE - which only a stand-in has, and which identification never
   reads.

   Uses: s2r_options_ranges, s2r_upstream_policy, s2r_training_check_resume, s2r_real_robot_init, s2r_trajectory_set_init, s2r_trajectory_collect,
         s2r_sysid_config_default, s2r_sysid_init, s2r_sysid_run,
         s2r_identify_object, s2r_sysid_config_object,
         s2r_plot_sysid_replay, s2r_sysid_print, s2r_sysid_verdict_relative,
         s2r_sysid_recentre,
         s2r_sysid_fixed, s2r_randomization_write, s2r_figure_*.
   Writes, per arm (ur5e, panda): DIR/03_identified_ARM_unitN.txt (the
   identified simulator of unit N = --real-seed: a ranges file of FIXED
   values), DIR/03_ranges_ARM_unitN.txt (the recentred training ranges),
   DIR/03_sysid_ARM.csv (values and loss per sweep),
   DIR/03_trajectories_ARM.png, DIR/03_fit_ARM.png; for --robot (default
   ur5e): DIR/03_dr_sysid_unitN.ckpt and its training CSV.  What belongs
   to one unit is named by it, so 04, 06 and 08 run for another
   --real-seed never pick up this unit's model or policy.  With --task
   push every name has _push after the number (DIR/03_push_ranges_ARM_unitN.txt,
   ...), and the warm start is 02's push policy.
   Next: 04_finetune.c - fine-tune on real demonstrations. */
#define SIM2REAL_IMPLEMENTATION
#include "../sim2real.h"
#include "../sim2real_reports.h"
#include "s2r_cli.h"
#include "s2r_figures.h"
#include <stdio.h>
#include <string.h>

#define PERIOD 0.02          /* s between commands and readings (50 Hz) */
#define MAX_SAMPLES 150      /* per trajectory */

typedef struct sizes {
    int train, valid;        /* trajectories                  */
    int samples;             /* per trajectory                */
    int sweeps;              /* coordinate-descent budget     */
} sizes;

/* Excite the unit: multisines to learn from, chirps to validate on. */
static s2r_result record(const s2r_backend* real, const sizes* z, uint64_t seed,
                         s2r_trajectory_set* train, s2r_trajectory_set* valid) {
    s2r_excitation_config ex = s2r_excitation_config_default();
    int n = real->info->n_joints;
    s2r_result res;
    if ((res = s2r_trajectory_set_init(train, n, z->samples, z->train, PERIOD)) != S2R_OK) return res;
    if ((res = s2r_trajectory_set_init(valid, n, z->samples, z->valid, PERIOD)) != S2R_OK) return res;
    if ((res = s2r_trajectory_collect(train, real, &ex, z->train, seed)) != S2R_OK) {
        fprintf(stderr, "%s\n", train->error);
        return res;
    }
    ex.kind = S2R_EXCITATION_CHIRP;
    if ((res = s2r_trajectory_collect(valid, real, &ex, z->valid, seed + 1)) != S2R_OK)
        fprintf(stderr, "%s\n", valid->error);
    return res;
}

/* TEACHING ONLY: the hidden truth of the unit beside the estimate, read
   through the oracle.  Identification above never touched it. */
static void print_oracle(const s2r_sysid* id, const s2r_sysid_result* r, const s2r_real_robot* real, double obs_latency) {
    const s2r_real_unit* u = s2r_real_robot_oracle(real);
    int i;
    printf("  ORACLE (the stand-in's hidden values; a real robot has no such thing):\n");
    for (i = 0; i < r->n_params; i++) {
        s2r_param p = id->config.param[i].param;
        double truth = s2r_real_unit_truth(u, p, obs_latency);
        printf("    %-15s identified %8.4g   hidden %8.4g%s\n", s2r_param_name(p), r->value[i], truth,
               p == S2R_PARAM_FRICTIONLOSS ? "   (plus sigmoid friction the simulator lacks)" : "");
    }
}

static s2r_result plot_fit(const s2r_sysid* id, const s2r_sysid_result* r, const char* robot, const char* path) {
    double sweep[S2R_SYSID_MAX_SWEEPS + 1], loss[S2R_SYSID_MAX_SWEEPS + 1], rms[2], sens[S2R_SYSID_MAX_PARAMS];
    char words[S2R_SYSID_MAX_PARAMS][32];
    const char* names[S2R_SYSID_MAX_PARAMS];
    static const char* const when[2] = {"before", "after"};
    s2r_plot_style style = s2r_plot_style_default();
    s2r_figure fig;
    char title[96];
    s2r_result res;
    int i;
    for (i = 0; i <= r->sweeps; i++) { sweep[i] = i; loss[i] = log10(r->loss[i]); }
    for (i = 0; i < r->n_params; i++) {
        char* c;
        snprintf(words[i], sizeof words[i], "%s", s2r_param_name(id->config.param[i].param));
        for (c = words[i]; *c; c++) if (*c == '_') *c = ' ';   /* lets long names wrap */
        names[i] = words[i];
        sens[i] = log10(fmax(r->sensitivity[i], 1e-6));
    }
    rms[0] = 1000 * sqrt(r->validation_mse_start);
    rms[1] = 1000 * sqrt(r->validation_mse);
    if ((res = s2r_figure_init(&fig, 1800, 480, 1, 3)) != S2R_OK) return res;
    snprintf(title, sizeof title, "%s: coordinate-descent identification", robot);
    s2r_figure_title(&fig, title);
    s2r_panel_labels(&fig, 0, "training loss per sweep", "sweep", "log10 loss (rad^2)");
    style.marker = S2R_MARKER_CIRCLE;
    s2r_plot_line(&fig, 0, sweep, loss, r->sweeps + 1, &style);
    s2r_panel_labels(&fig, 1, "held-out rms error", "", "rms joint error (mrad)");
    s2r_panel_categories(&fig, 1, when, 2);
    style = s2r_plot_style_default();
    s2r_plot_bars(&fig, 1, rms, NULL, NULL, 2, &style);
    s2r_panel_labels(&fig, 2, "sensitivity (loss change, 1/10 of bounds)", "", "log10 relative change");
    s2r_panel_categories(&fig, 2, names, r->n_params);
    s2r_plot_bars(&fig, 2, sens, NULL, NULL, r->n_params, &style);
    style.label = "identifiable above";
    s2r_plot_hline(&fig, 2, log10(id->config.min_sensitivity), &style);
    res = s2r_figure_write_png(&fig, path);
    if (res != S2R_OK) fprintf(stderr, "%s\n", fig.error);
    s2r_figure_free(&fig);
    return res;
}

static s2r_result write_csv(const s2r_sysid* id, const s2r_sysid_result* r, const char* path) {
    s2r_file file;
    FILE* f = s2r_output_create(&file, path);
    int i;
    if (!f) return S2R_ERR_IO;
    fprintf(f, "parameter,start,value,std_error,lo,hi,sensitivity,identifiable,half_width\n");
    for (i = 0; i < r->n_params; i++)
        fprintf(f, "%s,%.6g,%.6g,%.4g,%.6g,%.6g,%.4g,%d,%.6g\n", s2r_param_name(id->config.param[i].param), r->start[i],
                r->value[i], r->std_error[i], id->config.param[i].lo, id->config.param[i].hi, r->sensitivity[i],
                r->identifiable[i], r->half_width[i]);
    fprintf(f, "\nsweep,training_loss_rad2\n");
    for (i = 0; i <= r->sweeps; i++) fprintf(f, "%d,%.6e\n", i, r->loss[i]);
    fprintf(f, "\nlatency_s,refitted_loss_rad2\n");
    for (i = 0; i < S2R_SYSID_MAX_PROFILE; i++)
        if (!isnan(r->latency_profile[i])) fprintf(f, "%.4f,%.6e\n", i * id->dt, r->latency_profile[i]);
    fprintf(f, "\njoint,heldout_rms_rad,relative,misfit\n");
    for (i = 0; i < id->sim.robot.info.n_joints; i++)
        fprintf(f, "%d,%.4e,%.4f,%d\n", i, r->joint_rms[i], r->joint_relative[i], r->joint_misfit[i]);
    fprintf(f, "\nvalidation_mse_before_rad2,validation_mse_after_rad2,relative_before,relative_after,verdict\n"
               "%.6e,%.6e,%.4f,%.4f,%s\n", r->validation_mse_start, r->validation_mse, r->validation_relative_start,
            r->validation_relative, s2r_sysid_verdict_name(r->verdict));
    return s2r_output_commit(&file);
}

/* Save the identified simulator, the recentred ranges, the CSV and the
   figures. */
static s2r_result save(s2r_sysid* id, const s2r_sysid_result* r, const s2r_trajectory_set* valid,
                       const s2r_randomization* fixed, const s2r_randomization* next, const char* robot,
                       const s2r_options* opt) {
    char path[512], file[64], title[128], error[S2R_ERROR_LEN];
    s2r_result res;
    snprintf(file, sizeof file, "identified_%s_unit%llu.txt", robot, (unsigned long long)opt->real_seed);
    res = s2r_randomization_write(fixed, s2r_task_path(path, sizeof path, opt, "03", file), error);
    snprintf(file, sizeof file, "ranges_%s_unit%llu.txt", robot, (unsigned long long)opt->real_seed);
    if (res == S2R_OK) res = s2r_randomization_write(next, s2r_task_path(path, sizeof path, opt, "03", file), error);
    if (res != S2R_OK) { fprintf(stderr, "%s\n", error); return res; }
    snprintf(file, sizeof file, "sysid_%s.csv", robot);
    if ((res = write_csv(id, r, s2r_task_path(path, sizeof path, opt, "03", file))) != S2R_OK) return res;
    snprintf(file, sizeof file, "trajectories_%s.png", robot);
    snprintf(title, sizeof title, "%s: held-out chirp, simulator before and after identification vs the real unit", robot);
    if ((res = s2r_plot_sysid_replay(id, r, valid, 0, 0, title, s2r_task_path(path, sizeof path, opt, "03", file),
                                     error)) != S2R_OK) {
        fprintf(stderr, "%s\n", error);
        return res;
    }
    snprintf(file, sizeof file, "fit_%s.png", robot);
    if ((res = plot_fit(id, r, robot, s2r_task_path(path, sizeof path, opt, "03", file))) != S2R_OK) return res;
    printf("  wrote %s: the identified model and the recentred ranges, the fit's CSV and figures\n",
           s2r_task_path(path, sizeof path, opt, "03", "{identified,ranges,sysid,trajectories,fit}_*"));
    return S2R_OK;
}

/* What the verdict says, in words: the error relative to the motion, and
   the absolute MSE beside it; then the same judgement of the datasheet
   model and of the search box's corners, which must not pass. */
static void print_verdict(const s2r_sysid_result* r) {
    int side;
    printf("  held-out rms error %.1f %% of the rms motion (MSE %.2e rad^2), was %.1f %% at the datasheet values: %s\n",
           100 * r->validation_relative, r->validation_mse, 100 * r->validation_relative_start,
           s2r_sysid_verdict_name(r->verdict));
    printf("  the same verdict on the datasheet model: %s",
           s2r_sysid_verdict_name(s2r_sysid_verdict_relative(r->validation_relative_start)));
    for (side = 0; side < 2; side++)
        printf("; every parameter at its %s bound: %s", side ? "upper" : "lower",
               s2r_sysid_verdict_name(s2r_sysid_verdict_relative(r->validation_relative_corner[side])));
    printf("\n");
    if (r->verdict == S2R_SYSID_ACCEPTABLE)
        printf("  WARNING: between %.0f %% and %.0f %% of the motion; proceed with care\n", 100 * S2R_SYSID_REL_GOOD,
               100 * S2R_SYSID_REL_BLOCK);
    if (r->verdict == S2R_SYSID_BLOCK)
        printf("  BLOCKED: above %.0f %% of the motion; the simulator is not trusted for this unit\n", 100 * S2R_SYSID_REL_BLOCK);
}

/* Push: then the object, on the same unit in the push scene - strikes
   through the backend, the camera's offset taken out, the arm held at
   what was just identified (s2r_identify_object).  `fixed` and `next`
   take the object's values unless the held-out verdict blocks.  The
   ORACLE column is the stand-in's truth, for teaching only. */
static int identify_object(s2r_robot_kind kind, const s2r_options* opt, s2r_randomization* fixed,
                           s2r_randomization* next) {
    s2r_identify_config ic = s2r_identify_config_default();
    s2r_sysid_config used = s2r_sysid_config_object();
    s2r_sysid_result r;
    s2r_real_robot push;
    double offset[3];
    char error[S2R_ERROR_LEN];
    int i, ok;
    if (opt->quick) { ic.strikes = 2; ic.strikes_valid = 1; ic.sweeps = 2; }
    ic.seed = opt->seed;
    if (s2r_calibrate_unit(kind, opt->real_seed, opt->seed + 2, offset, NULL, error) != S2R_OK ||
        s2r_real_robot_init_scene(&push, kind, S2R_SCENE_PUSH, opt->real_seed) != S2R_OK) {
        fprintf(stderr, "%s\n", error);
        return 0;
    }
    printf("\nThe object: %d strikes at %.1f m/s to fit, %d held out (arm held as identified)\n", ic.strikes,
           ic.strike_speed, ic.strikes_valid);
    ok = s2r_identify_object(&push.backend, &ic, offset, next, fixed, &r, error) == S2R_OK;
    if (!ok) fprintf(stderr, "%s\n", error);
    for (i = 0; ok && i < r.n_params; i++) {
        s2r_param p = used.param[i].param;
        printf("  %-15s %8.4g  sensitivity %8.2e%s   ORACLE %8.4g\n", s2r_param_name(p), r.value[i], r.sensitivity[i],
               r.identifiable[i] ? "" : " (unidentifiable)", s2r_real_unit_truth(s2r_real_robot_oracle(&push), p, 0));
    }
    if (ok) printf("  held-out error beyond the camera's own %.1f %% -> %.1f %% of the object's motion: %s%s\n",
                   100 * r.validation_object_relative_start, 100 * r.validation_object_relative,
                   s2r_sysid_verdict_name(r.verdict), r.verdict == S2R_SYSID_BLOCK ? " - the object keeps its training ranges" : "");
    s2r_real_robot_free(&push);
    return ok;
}

/* The whole step for one arm. */
static int identify_arm(s2r_robot_kind kind, const s2r_options* opt, const sizes* z) {
    const char* robot = s2r_robot_kind_name(kind);
    s2r_real_robot real;
    s2r_trajectory_set train, valid;
    s2r_sysid id;
    s2r_sysid_config cfg = s2r_sysid_config_default();
    s2r_sim_config model = s2r_sim_config_default(kind);
    s2r_randomization training, next, fixed;   /* training: --ranges, or the task's defaults */
    s2r_sysid_result r;
    char error[S2R_ERROR_LEN];
    double obs_latency;
    int ok;

    memset(&train, 0, sizeof train);
    memset(&valid, 0, sizeof valid);
    memset(&id, 0, sizeof id);
    if (s2r_options_ranges(opt, &training, error) != S2R_OK) { fprintf(stderr, "%s\n", error); return 0; }
    if (s2r_real_robot_init(&real, kind, opt->real_seed) != S2R_OK) { fprintf(stderr, "%s\n", real.error); return 0; }
    printf("\n%s: %d trajectories of %.0f s to identify from, %d held out\n", real.name, z->train,
           z->samples * PERIOD, z->valid);
    ok = record(&real.backend, z, opt->seed, &train, &valid) == S2R_OK;

    /* Open-loop data see only the total delay: hold the sensing delay at the
       centre of the training range, so the command latency found here plus
       the sensing delay the next run draws adds up to what was measured. */
    cfg.known.p[S2R_PARAM_OBS_LATENCY] = training.p[S2R_PARAM_OBS_LATENCY];
    obs_latency = s2r_dist_centre(&training.p[S2R_PARAM_OBS_LATENCY].dist);
    cfg.max_sweeps = z->sweeps;
    cfg.on_sweep = s2r_sysid_progress;   /* one line per sweep, so a long run shows progress */
    if (ok && s2r_sysid_init(&id, &cfg, &model) != S2R_OK) { fprintf(stderr, "%s\n", id.error); ok = 0; }
    if (ok && s2r_sysid_run(&id, &train, &valid, &r) != S2R_OK) { fprintf(stderr, "%s\n", id.error); ok = 0; }
    if (ok) {
        s2r_sysid_print(&id, &r);
        print_oracle(&id, &r, &real, obs_latency);
        print_verdict(&r);
        ok = s2r_sysid_recentre(&id, &r, &training, &next) == S2R_OK && s2r_sysid_fixed(&id, &r, &fixed) == S2R_OK;
        if (ok && opt->task == S2R_TASK_PUSH) ok = identify_object(kind, opt, &fixed, &next);
        ok = ok && save(&id, &r, &valid, &fixed, &next, robot, opt) == S2R_OK;
    }
    /* Retraining on the recentred ranges goes here: train PPO on `next`
       as example 02 trains on the default ranges (s2r_train with the
       training randomization set to `next`), then evaluate the policy on
       this same unit - the "Sim + DR + system ID" row of the table. */
    s2r_sysid_free(&id);
    s2r_trajectory_set_free(&train);
    s2r_trajectory_set_free(&valid);
    s2r_real_robot_free(&real);
    return ok;
}

/* The unit's camera-to-base calibration (a marker at surveyed points);
   the task then runs with the correction. */
static s2r_result calibrate(const s2r_options* opt, s2r_task_config* task, char* error) {
    double spread, offset[3];
    s2r_result res = s2r_calibrate_unit(opt->robot, opt->real_seed, opt->seed + 2, offset, &spread, error);
    if (res == S2R_OK) {
        s2r_task_config_set_camera(task, offset);
        printf("camera of real %s #%llu: offset (%.1f, %.1f, %.1f) mm, points agree within %.1f mm\n",
               s2r_robot_kind_name(opt->robot), (unsigned long long)opt->real_seed, 1000 * offset[0],
               1000 * offset[1], 1000 * offset[2], 1000 * spread);
    }
    return res;
}

/* Step 5's run: PPO on the recentred ranges this example wrote for the
   unit, warm from example 02's policy when it is there. */
typedef struct retraining {
    s2r_training t;
    s2r_ppo      ppo;
    int          warm;   /* started from 02's policy */
    char         ranges[512], from[512], csv[512], state[512], name[64];
} retraining;

/* The DR policy of 02 for this arm and task, when it is there; one that
   is there but corrupt or made for another arm or task is an error naming
   it.  *found: whether it is there. */
static s2r_result check_warm_start(const s2r_options* opt, char* path, size_t cap, int* found, char* error) {
    s2r_policy p;
    s2r_result res;
    *found = s2r_file_exists(s2r_task_path(path, cap, opt, "02", "dr.ckpt"));
    if (!*found) return S2R_OK;
    if ((res = s2r_upstream_policy(&p, path, opt, 0, NULL, error)) == S2R_OK) s2r_policy_free(&p);
    return res;
}

static s2r_result retraining_init(const s2r_options* opt, retraining* r, char* error) {
    s2r_ppo_config pc = s2r_task_ppo_config(opt->task, opt->quick ? 8000 : s2r_task_training_steps(opt->task, 1), opt->seed, opt->threads);
    char name[96];
    int obs_dim, act_dim;
    s2r_result res;
    unsigned long long unit = (unsigned long long)opt->real_seed;
    pc.learning_rate = 3e-4f;   /* continuing a trained policy: gentler steps */
    r->t = s2r_training_default(opt->robot, opt->task);
    snprintf(name, sizeof name, "ranges_%s_unit%llu.txt", s2r_robot_kind_name(opt->robot), unit);
    if ((res = s2r_randomization_load(&r->t.randomization, s2r_task_path(r->ranges, sizeof r->ranges, opt, "03", name),
                                      error)) != S2R_OK)
        return res;
    if ((res = check_warm_start(opt, r->from, sizeof r->from, &r->warm, error)) != S2R_OK) return res;
    if (!r->warm) pc.total_steps = opt->quick ? 8000 : s2r_task_training_steps(opt->task, 0);   /* no DR policy to start from: train fully */
    s2r_task_dims(opt->task, opt->robot, &obs_dim, &act_dim);
    if ((res = s2r_ppo_init(&r->ppo, &pc, obs_dim, act_dim)) != S2R_OK) {
        snprintf(error, S2R_ERROR_LEN, "%s", r->ppo.error);
        return res;
    }
    if (r->warm && (res = s2r_policy_load(&r->ppo.policy, NULL, r->from)) != S2R_OK) {
        snprintf(error, S2R_ERROR_LEN, "%s", r->ppo.policy.error);
        s2r_ppo_free(&r->ppo);
        return res;
    }
    snprintf(name, sizeof name, "dr_sysid_unit%llu", unit);
    s2r_task_name(r->name, sizeof r->name, opt, "03", name);   /* .ckpt, .state, _training.csv */
    snprintf(name, sizeof name, "%s_training.csv", r->name);
    r->t.label = "DR + sysID";
    r->t.csv_path = s2r_path(r->csv, sizeof r->csv, opt->out, name);
    s2r_training_use_options(&r->t, opt, r->name, r->state, sizeof r->state);
    return S2R_OK;
}

/* Before any unit is excited: 02's policy, which retraining starts from,
   and with --resume a saved state that must continue the retraining of a
   previous run for this unit (against the ranges that run wrote; the
   identification, deterministic, writes them again). */
static s2r_result check_before_work(const s2r_options* opt, char* error) {
    static retraining r;
    char path[512], name[96];
    int found;
    s2r_result res;
    snprintf(name, sizeof name, "dr_sysid_unit%llu.state", (unsigned long long)opt->real_seed);
    if (!opt->resume || !s2r_file_exists(s2r_task_path(path, sizeof path, opt, "03", name)))
        return check_warm_start(opt, path, sizeof path, &found, error);
    if ((res = retraining_init(opt, &r, error)) != S2R_OK) return res;
    res = s2r_training_check_resume(&r.t, &r.ppo, error);
    s2r_ppo_free(&r.ppo);
    return res;
}

/* Step 5: train on the recentred ranges, warm from example 02's policy when
   it is there, and measure the result in sim and on this same unit - the
   "Sim + DR + system ID" row of the table. */
static int retrain(const s2r_options* opt) {
    static retraining r;
    s2r_task_config task = s2r_task_config_default(opt->task);
    s2r_randomization identified = s2r_randomization_none();   /* the simulator as identified: where "sim" is measured */
    s2r_controller policy;
    s2r_sim_real_eval eval;
    char error[S2R_ERROR_LEN] = "", path[512], name[96];
    int bad = 0;
    s2r_result res;
    if (retraining_init(opt, &r, error) != S2R_OK) {
        fprintf(stderr, "%s\n", error);
        return 1;
    }
    printf("\nRetraining on %s for %lld steps%s%s\n", r.ranges, r.ppo.cfg.total_steps, r.warm ? ", starting from " : "",
           r.warm ? r.from : "");
    if ((res = s2r_train(&r.t, &r.ppo, error)) != S2R_OK) {
        fprintf(stderr, "%s\n", error);
        if (res == S2R_ERR_INTERRUPTED) fprintf(stderr, "run again with --resume to continue\n");
        bad = res == S2R_ERR_INTERRUPTED ? 130 : 1;
    }
    snprintf(name, sizeof name, "%s.ckpt", r.name);
    if (!bad && s2r_policy_save(&r.ppo.policy, &r.ppo.adam, s2r_path(path, sizeof path, opt->out, name)) != S2R_OK) {
        fprintf(stderr, "%s\n", r.ppo.policy.error);
        bad = 1;
    }
    if (!bad && s2r_example_stopped()) bad = 130;
    policy = s2r_policy_controller(&r.ppo.policy);
    if (!bad && calibrate(opt, &task, error) != S2R_OK) { fprintf(stderr, "%s\n", error); bad = 1; }
    snprintf(name, sizeof name, "identified_%s_unit%llu.txt", s2r_robot_kind_name(opt->robot), (unsigned long long)opt->real_seed);
    if (!bad && s2r_randomization_load(&identified, s2r_task_path(path, sizeof path, opt, "03", name), error) != S2R_OK) {
        fprintf(stderr, "%s\n", error);
        bad = 1;
    }
    if (!bad && s2r_evaluate_sim_and_real(&policy, opt->robot, &task, &identified, opt->quick ? 20 : 200, opt->seed + 1000,
                                          opt->real_seed, 1, &eval, error) != S2R_OK) {
        fprintf(stderr, "%s\n", error);
        bad = 1;
    }
    if (!bad) s2r_sim_real_eval_print("DR + sysID (identified sim)", &eval);
    s2r_ppo_free(&r.ppo);
    return bad;
}

int main(int argc, char** argv) {
    s2r_options opt;
    int status;
    sizes z;
    char error[S2R_ERROR_LEN];
    int i, one_robot = 0, ok = 1;

    if (s2r_example_start(&opt, argc, argv, "identify a real unit's parameters and re-centre the training ranges",
                          S2R_OPT_ROBOT | S2R_OPT_TASK | S2R_OPT_SEED | S2R_OPT_REAL_SEED | S2R_OPT_THREADS | S2R_OPT_OUT | S2R_OPT_QUICK | S2R_OPT_RESUME | S2R_OPT_RANGES, &status) != S2R_OK)
        return status;
    for (i = 1; i < argc; i++) one_robot |= strcmp(argv[i], "--robot") == 0;
    z.train = opt.quick ? 2 : 3;
    z.valid = opt.quick ? 1 : 2;
    z.samples = opt.quick ? 100 : MAX_SAMPLES;
    z.sweeps = opt.quick ? 4 : s2r_sysid_config_default().max_sweeps;

    s2r_interrupt_catch();   /* Ctrl-C or SIGTERM: training saves its state; either stops between stages, status 130 */
    if (check_before_work(&opt, error) != S2R_OK) {
        fprintf(stderr, "%s\n", error);
        return 1;
    }
    printf("System identification: excite real unit #%llu, fit the simulator, validate, re-centre the ranges\n",
           (unsigned long long)opt.real_seed);
    if (one_robot) ok = identify_arm(opt.robot, &opt, &z);
    else ok = identify_arm(S2R_ROBOT_UR5E, &opt, &z) && (s2r_interrupt_requested() || identify_arm(S2R_ROBOT_PANDA, &opt, &z));
    if (!ok) return 1;
    if (s2r_example_stopped()) return 130;
    if ((i = retrain(&opt)) != 0) return i;
    printf("\nNext: 04_finetune - fine-tune on real demonstrations from this unit.\n");
    return 0;
}
