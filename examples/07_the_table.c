/* 07_the_table.c - the whole recipe, measured: every row of the table.

   For one arm and each of --seeds training seeds, this runs the steps of
   examples 01-05 and measures each resulting policy in the nominal
   simulator and on a real unit.  Training seed s (s = 0, 1, ...) is paired
   with unit --real-seed + s of the fleet: that unit is identified, gives
   the demonstrations and is where the seed's policies are measured, so the
   rows pool several units as well as several training runs:

     pure sim              PPO on the nominal simulator
     sim + DR              the pure-sim policy trained on, warm, on
                           randomized simulators (default ranges): the
                           table is one chain, each row continuing the
                           row above it (trained from scratch in as many
                           steps as pure sim, DR learns push too slowly
                           to meet the 85 % sim bar; see the README)
     sim + DR + sysID      the unit identified: dynamics by coordinate
                           descent (push: then the object, from strikes,
                           used unless its held-out verdict blocks),
                           camera by a marker at surveyed points;
                           the DR policy trained on, warm, with the ranges
                           re-centred on the estimate, and run with the
                           camera calibration applied
     + 100 / 1000 demos    the sysID policy fine-tuned by behaviour cloning
                           on teleoperated demonstrations from the unit
                           (recorded with the calibrated camera), two ways -
                           following the operator, and keeping its own
                           actions too - the one kept that did better in a
                           canary of 50 episodes each on the unit, if it
                           also beat the sysID policy there (which runs
                           the same canary episodes); if not, the row is
                           the sysID policy
     real only             behaviour cloning from scratch on 10k demos:
                           every unit's recordings pooled (each unit gives
                           10k / seeds, at least the 1000 fine-tuning uses)

   Rows pool all seeds: successes over seeds x episodes, with a Wilson 95 %
   interval; the gap (sim minus real) with Newcombe's 95 % interval for a
   difference of two rates.  The pure-sim and DR policies are measured a
   second time with the unit's camera calibrated (the last column), which
   splits their gap into what the camera costs and what the dynamics cost.
   Also measured: real success against the number of demos (0, 10, 30,
   100, 300, 1000), fine-tuning the sysID policy.

   Uses: s2r_options_ranges, s2r_identify_unit, s2r_identify_object, s2r_collect_unit_demos, s2r_train,
         s2r_finetune_on_unit, s2r_clone_demos, s2r_evaluate_sim_and_real,
         s2r_plot_training_csv, s2r_figure_*.
   --task reach (the default) or push picks the task; push's files start
   with 07_push_ instead of 07_.
   Writes: DIR/07_table.md, DIR/07_table.csv, DIR/07_table.png,
           DIR/07_demo_curve.csv, DIR/07_dr_ranges.txt (the DR ranges),
           DIR/07_ranges_unit<N>.txt (each unit's re-centred ranges), DIR/07_timing.csv (wall time and environment
           steps per stage), DIR/07_run.csv (wall time and peak memory),
           the policies as DIR/07_<recipe>_seed<N>.ckpt with their learning
           curves, and training states DIR/07_<recipe>_seed<N>.state: after a
           crash or Ctrl-C, --resume continues the run (finished trainings
           are skipped). */
#define SIM2REAL_IMPLEMENTATION
#include "../sim2real.h"
#include "s2r_cli.h"
#include "s2r_figures.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

enum { PURE, DR, SYSID, DEMOS_100, DEMOS_1000, REAL_ONLY, ROWS };
static const char* const row_name[ROWS] = {
    "Pure sim training (no DR)", "Sim + domain randomization", "Sim + DR + system ID",
    "Sim + DR + sysID + 100 real demos", "Sim + DR + sysID + 1000 real demos", "Real-only training"};
static const char* const row_file[ROWS] = {"pure_sim", "dr", "dr_sysid", "demos_100", "demos_1000", "real_only"};
#define CURVE 6
static const int curve_demos[CURVE] = {0, 10, 30, 100, 300, 1000};

typedef struct sizes {
    long long fresh_steps;    /* pure sim, from scratch                     */
    long long warm_steps;     /* DR and sysID: continuing the row above     */
    int demos;                /* recorded over all units (real-only uses all) */
    int episodes;             /* evaluation episodes per row per seed       */
    int canary;               /* unit episodes per fine-tuning candidate    */
    int finetune_epochs, scratch_epochs;
    s2r_identify_config id;
} sizes;

typedef struct unit_data {               /* what measuring one unit gave  */
    uint64_t          unit;
    s2r_randomization ranges;             /* re-centred on its estimate     */
    s2r_task_config   calibrated;         /* task with its camera correction */
    s2r_randomization identified;         /* its identified simulator        */
    s2r_dataset       demos;              /* its demonstrations             */
    int               recorded;           /* demonstrations in `demos`      */
    char              report[1024];       /* what identifying it printed    */
    char              error[S2R_ERROR_LEN + 32];   /* why it failed, if it did */
} unit_data;

/* Where a run's time goes: wall seconds and environment steps per stage -
   the six rows (training, fine-tuning, cloning, and every evaluation of
   the row), the demo curve's other points, and per unit its measurement
   (system ID and camera calibration) and its demonstrations - summed over
   seeds, written to 07_timing.csv. */
enum { CURVE_POINTS = ROWS, MEASURE, RECORD, STAGES };
static const char* const stage_file[STAGES] = {"pure_sim", "dr", "dr_sysid", "demos_100", "demos_1000", "real_only",
                                               "demo_curve_points", "unit_measurement", "demonstrations"};
typedef struct stage_cost {
    double    wall_s;      /* s                                                   */
    long long env_steps;   /* policy steps: trainings (a resumed one counts
                              whole), evaluations, demonstrations, and canary
                              episodes counted at their full length          */
} stage_cost;

/* Add the time since `start` (s2r_seconds) and `steps` to a stage. */
static void charge(stage_cost* c, double start, long long steps) {
    c->wall_s += s2r_seconds() - start;
    c->env_steps += steps;
}

typedef struct table {
    s2r_sim_real_eval row[ROWS];        /* pooled over seeds               */
    s2r_eval_result   calibrated[ROWS]; /* real, with the camera calibrated:
                                           the sim-only rows again, so the
                                           gap splits into camera and the rest */
    s2r_eval_result   curve[CURVE];     /* real success against demos      */
    s2r_eval_result   nominal[ROWS];    /* the nominal simulator, for rows whose
                                           "sim" is the identified one      */
    int               pooled_demos;     /* demonstrations real-only learns from */
    int               kept[3];          /* fine-tunes by what the canary kept:
                                           S2R_KEPT_FOLLOWING, _OWN_ACTIONS, _UNCHANGED */
    stage_cost        cost[STAGES];     /* time and steps, per stage       */
} table;

static sizes choose_sizes(int quick, s2r_task_kind task) {
    sizes z;
    z.id = s2r_identify_config_default();
    if (quick) {
        z.fresh_steps = 8000; z.warm_steps = 4000; z.demos = 100; z.episodes = 10; z.canary = 4;   /* 2 and 1 updates */
        z.finetune_epochs = 2; z.scratch_epochs = 2;
        z.id.train = 1; z.id.valid = 1; z.id.samples = 50; z.id.sweeps = 2; z.id.strikes = 2; z.id.strikes_valid = 1;
    } else {
        z.fresh_steps = s2r_task_training_steps(task, 0); z.warm_steps = s2r_task_training_steps(task, 1); z.demos = 10000; z.episodes = 200; z.canary = 50;
        z.finetune_epochs = 20; z.scratch_epochs = 6;
    }
    return z;
}

/* Every file this example writes starts with 07_ for reach (the names
   the first table had) and 07_push_ for push (s2r_task_path). */
static const char* prefix(const s2r_options* opt) {
    return opt->task == S2R_TASK_PUSH ? "07_push" : "07";
}

/* DIR/<prefix>_name into out (cap bytes); returns out. */
static const char* output(char* out, size_t cap, const s2r_options* opt, const char* name) {
    return s2r_task_path(out, cap, opt, "07", name);
}

/* One row of the table is made by run_seed; the pieces it calls follow
   it, in the order it calls them. */
static int fail(const char* what, const char* error);
static int train_row(const s2r_options* opt, int row, const s2r_randomization* randomization, long long steps,
                     uint64_t seed, const char* warm, char* ckpt, size_t cap, stage_cost* cost);
static int evaluate_row(const s2r_options* opt, const sizes* z, s2r_policy* policy, uint64_t seed, uint64_t unit,
                        const s2r_task_config* task, const s2r_randomization* sim, s2r_sim_real_eval* pooled,
                        s2r_sim_real_eval* one, stage_cost* cost);
static int nominal_sim(const s2r_options* opt, const sizes* z, s2r_policy* policy, uint64_t seed, s2r_eval_result* pooled,
                       stage_cost* cost);
static int load_policy(s2r_policy* p, const char* path);
static int finetune_row(const s2r_options* opt, const sizes* z, const char* start, const unit_data* u, int n,
                        uint64_t seed, s2r_sim_real_eval* out, s2r_eval_result* nominal, int kept_count[3],
                        stage_cost* cost);
static int real_only_row(const s2r_options* opt, const sizes* z, const s2r_dataset* demos, uint64_t seed,
                         uint64_t unit, const s2r_task_config* task, s2r_sim_real_eval* pooled, stage_cost* cost);

/* Every row for one training seed and its unit; `pooled` holds every
   unit's demonstrations (the real-only row's data). */
static int run_seed(const s2r_options* opt, const sizes* z, uint64_t seed, const unit_data* u,
                    const s2r_dataset* pooled, table* t) {
    s2r_randomization none = s2r_randomization_none(), dr;
    s2r_task_config raw = s2r_task_config_default(opt->task);
    char pure_ckpt[512], dr_ckpt[512], id_ckpt[512];
    s2r_sim_real_eval one;
    s2r_policy p;
    int i, row, bad = 0;
    char error[S2R_ERROR_LEN];
    printf("\n== training seed %llu, real unit #%llu ==\n", (unsigned long long)seed, (unsigned long long)u->unit);
    if (s2r_options_ranges(opt, &dr, error) != S2R_OK) return fail("DR ranges", error);   /* --ranges, or the defaults */
    if (train_row(opt, PURE, &none, z->fresh_steps, seed, NULL, pure_ckpt, sizeof pure_ckpt, &t->cost[PURE]) ||
        train_row(opt, DR, &dr, z->warm_steps, seed, pure_ckpt, dr_ckpt, sizeof dr_ckpt, &t->cost[DR]) ||
        train_row(opt, SYSID, &u->ranges, z->warm_steps, seed, dr_ckpt, id_ckpt, sizeof id_ckpt, &t->cost[SYSID]))
        return 1;
    for (row = PURE; row <= SYSID && !bad; row++) {
        const char* path = row == PURE ? pure_ckpt : row == DR ? dr_ckpt : id_ckpt;
        s2r_sim_real_eval with_camera, unused;
        if ((bad = load_policy(&p, path)) != 0) break;
        bad = evaluate_row(opt, z, &p, seed, u->unit, row == SYSID ? &u->calibrated : &raw,
                           row == SYSID ? &u->identified : NULL, &t->row[row], &one, &t->cost[row]);
        with_camera = one;
        if (!bad && row != SYSID)
            bad = evaluate_row(opt, z, &p, seed, u->unit, &u->calibrated, NULL, &unused, &with_camera, &t->cost[row]);
        if (!bad && row != SYSID) s2r_eval_merge(&t->nominal[row], &one.sim);   /* their sim is the nominal one */
        if (!bad && row == SYSID) bad = nominal_sim(opt, z, &p, seed, &t->nominal[row], &t->cost[row]);
        if (!bad) s2r_eval_merge(&t->calibrated[row], &with_camera.real);
        s2r_policy_free(&p);
        if (!bad) s2r_sim_real_eval_print(row_name[row], &one);
        if (!bad && row != SYSID) printf("  %-28s with the camera calibrated: real %5.1f %%\n", "", 100 * with_camera.real.success_rate);
    }
    for (i = 0; i < CURVE && !bad; i++) {   /* the demo curve holds the 100 and 1000 rows */
        if (curve_demos[i] > u->recorded) continue;
        row = curve_demos[i] == 100 ? DEMOS_100 : curve_demos[i] == 1000 ? DEMOS_1000 : -1;
        if ((bad = finetune_row(opt, z, id_ckpt, u, curve_demos[i], seed, &one, row < 0 ? NULL : &t->nominal[row],
                                t->kept, &t->cost[row < 0 ? CURVE_POINTS : row])) != 0)
            break;
        s2r_eval_merge(&t->curve[i], &one.real);
        if (row < 0) continue;
        s2r_eval_merge(&t->calibrated[row], &one.real);
        s2r_sim_real_eval_pool(&t->row[row], &one);
        s2r_sim_real_eval_print(row_name[row], &one);
    }
    if (!bad && (bad = real_only_row(opt, z, pooled, seed, u->unit, &u->calibrated, &t->row[REAL_ONLY],
                                     &t->cost[REAL_ONLY])) == 0)
        t->calibrated[REAL_ONLY] = t->row[REAL_ONLY].real;
    if (!bad)
        printf("  %-34s real %5.1f %% (pooled so far)\n", row_name[REAL_ONLY], 100 * t->row[REAL_ONLY].real.success_rate);
    return bad;
}

/* Print what failed and why; returns 1. */
static int fail(const char* what, const char* error) {
    fprintf(stderr, "%s: %s\n", what, error);
    return 1;
}

/* The same for a unit measured in parallel: kept for later. */
static int unit_failed(unit_data* u, const char* what, const char* error) {
    snprintf(u->error, sizeof u->error, "%s: %s", what, error);
    return 1;
}

/* A line for the unit's report, appended (cut short if it is full). */
static void report(unit_data* u, const char* format, ...) {
    size_t n = strlen(u->report);
    va_list ap;
    va_start(ap, format);
    vsnprintf(u->report + n, sizeof u->report - n, format, ap);
    va_end(ap);
}

static int new_ppo(s2r_ppo* ppo, const s2r_options* opt, long long steps, uint64_t seed, const char* warm);

/* Train a PPO policy on `randomization` and save it as <recipe>_seed<N>. */
static int train_row(const s2r_options* opt, int row, const s2r_randomization* randomization, long long steps,
                     uint64_t seed, const char* warm, char* ckpt, size_t cap, stage_cost* cost) {
    s2r_training t = s2r_training_default(opt->robot, opt->task);
    s2r_ppo ppo;
    char name[96], csv[512], png[512], state[512], error[S2R_ERROR_LEN];
    s2r_result res;
    double start = s2r_seconds();
    int bad;
    if (new_ppo(&ppo, opt, steps, seed, warm)) return 1;
    t.randomization = *randomization;
    t.label = row_name[row];
    t.progress = opt->quick ? 0 : 1;
    snprintf(name, sizeof name, "%s_%s_seed%llu_training.csv", prefix(opt), row_file[row], (unsigned long long)seed);
    t.csv_path = s2r_path(csv, sizeof csv, opt->out, name);
    snprintf(name, sizeof name, "%s_%s_seed%llu_training.png", prefix(opt), row_file[row], (unsigned long long)seed);
    s2r_path(png, sizeof png, opt->out, name);
    snprintf(name, sizeof name, "%s_%s_seed%llu.ckpt", prefix(opt), row_file[row], (unsigned long long)seed);
    s2r_path(ckpt, cap, opt->out, name);
    snprintf(name, sizeof name, "%s_%s_seed%llu", prefix(opt), row_file[row], (unsigned long long)seed);
    s2r_training_use_options(&t, opt, name, state, sizeof state);   /* --resume skips finished runs */
    bad = (res = s2r_train(&t, &ppo, error)) != S2R_OK ? fail(row_name[row], error)
        : s2r_plot_training_csv(t.csv_path, png, t.label, error) != S2R_OK ? fail(png, error)   /* its learning curve */
        : s2r_policy_save(&ppo.policy, &ppo.adam, ckpt) != S2R_OK ? fail(ckpt, ppo.policy.error) : 0;
    if (res == S2R_ERR_INTERRUPTED) bad = fail("stopped", "run again with --resume to continue");
    charge(cost, start, ppo.global_step);
    s2r_ppo_free(&ppo);
    return bad;
}

/* A fresh PPO for the arm; optionally warm-started from a checkpoint. */
static int new_ppo(s2r_ppo* ppo, const s2r_options* opt, long long steps, uint64_t seed, const char* warm) {
    s2r_ppo_config pc = s2r_task_ppo_config(opt->task, steps, seed, opt->threads);
    int obs_dim, act_dim;
    s2r_task_dims(opt->task, opt->robot, &obs_dim, &act_dim);
    if (warm) pc.learning_rate = 3e-4f;   /* continuing a trained policy: gentler steps */
    if (s2r_ppo_init(ppo, &pc, obs_dim, act_dim) != S2R_OK) return fail("ppo", ppo->error);
    if (warm && s2r_policy_load(&ppo->policy, NULL, warm) != S2R_OK) return fail(warm, ppo->policy.error);
    return 0;
}

/* Evaluate a policy in the simulator (`sim`: the unit's identified model,
   or NULL for the nominal one) and on the unit; pool it into the row. */
static int evaluate_row(const s2r_options* opt, const sizes* z, s2r_policy* policy, uint64_t seed, uint64_t unit,
                        const s2r_task_config* task, const s2r_randomization* sim, s2r_sim_real_eval* pooled,
                        s2r_sim_real_eval* one, stage_cost* cost) {
    s2r_controller c = s2r_policy_controller(policy);
    char error[S2R_ERROR_LEN];
    double start = s2r_seconds();
    if (s2r_evaluate_sim_and_real(&c, opt->robot, task, sim, z->episodes, 1000 + seed, unit, 1, one, error) != S2R_OK)
        return fail("evaluation", error);
    s2r_sim_real_eval_pool(pooled, one);
    charge(cost, start, one->sim.steps + one->real.steps);
    return 0;
}

/* A row measured in the identified simulator, also in the nominal one. */
static int nominal_sim(const s2r_options* opt, const sizes* z, s2r_policy* policy, uint64_t seed, s2r_eval_result* pooled,
                       stage_cost* cost) {
    s2r_sim sim;
    s2r_sim_config sc = s2r_task_sim_config(opt->task, opt->robot);
    s2r_task task;
    s2r_task_config tc = s2r_task_config_default(opt->task);
    s2r_controller c = s2r_policy_controller(policy);
    s2r_eval_result one;
    double start = s2r_seconds();
    int bad;
    if (s2r_sim_init(&sim, &sc) != S2R_OK) return fail("sim", sim.error);
    bad = s2r_task_init(&task, &tc, s2r_sim_backend(&sim)) != S2R_OK ? fail("task", task.error)
        : s2r_evaluate(&c, &task, z->episodes, 1000 + seed, &one, NULL) != S2R_OK ? fail("nominal sim", task.error) : 0;
    if (!bad) s2r_eval_merge(pooled, &one);
    if (!bad) charge(cost, start, one.steps);
    s2r_task_free(&task);
    s2r_sim_free(&sim);
    return bad;
}

/* Bring a saved policy back. */
static int load_policy(s2r_policy* p, const char* path) {
    char error[S2R_ERROR_LEN];
    return s2r_policy_from_checkpoint(p, path, error) != S2R_OK ? fail(path, error) : 0;
}

/* Once per unit: identify it - the arm, its camera and on push the object
   - and write its ranges for the sysID row.  Units are identified in
   parallel (each has its own simulators), so what it finds is written
   into u->report, printed in unit order afterwards, and a failure into
   u->error. */
static int identify_unit(const s2r_options* opt, const sizes* z, uint64_t unit, unit_data* u) {
    s2r_real_robot real;
    s2r_randomization dr;
    s2r_sysid_result r;
    double camera[3];   /* m, the unit's camera calibration */
    char error[S2R_ERROR_LEN], path[512], name[64];
    int bad;
    u->unit = unit;
    u->error[0] = '\0';
    if (s2r_options_ranges(opt, &dr, error) != S2R_OK) return unit_failed(u, "DR ranges", error);   /* --ranges, or the defaults */
    if (s2r_real_robot_init(&real, opt->robot, unit) != S2R_OK) return unit_failed(u, "real robot", real.error);
    snprintf(u->report, sizeof u->report, "System identification of %s ...\n", real.name);
    u->calibrated = s2r_task_config_default(opt->task);
    bad = s2r_identify_unit(&real.backend, &z->id, &dr, &u->ranges, &u->identified, &r, camera, error) != S2R_OK;
    s2r_real_robot_free(&real);
    if (bad) return unit_failed(u, "sysid", error);
    s2r_task_config_set_camera(&u->calibrated, camera);
    report(u, "  validation error %.1f %% -> %.1f %% of the motion (MSE %.3g -> %.3g rad^2; %s) after %d sweeps; camera "
           "offset (%.1f, %.1f, %.1f) mm\n", 100 * r.validation_relative_start, 100 * r.validation_relative,
           r.validation_mse_start, r.validation_mse, s2r_sysid_verdict_name(r.verdict), r.sweeps, 1000 * camera[0],
           1000 * camera[1], 1000 * camera[2]);
    if (opt->task == S2R_TASK_PUSH) {   /* then the object, struck by the identified arm's tip */
        if (s2r_real_robot_init_scene(&real, opt->robot, S2R_SCENE_PUSH, unit) != S2R_OK)
            return unit_failed(u, "real robot", real.error);
        bad = s2r_identify_object(&real.backend, &z->id, camera, &u->ranges, &u->identified, &r, error) != S2R_OK;
        s2r_real_robot_free(&real);
        if (bad) return unit_failed(u, "object sysid", error);
        report(u, "  object: held-out error %.1f %% -> %.1f %% of its motion beyond the camera's own (%s%s)\n",
               100 * r.validation_object_relative_start, 100 * r.validation_object_relative,
               s2r_sysid_verdict_name(r.verdict), r.verdict == S2R_SYSID_BLOCK ? ": the object keeps the DR ranges" : "");
    }
    snprintf(name, sizeof name, "%s_ranges_unit%llu.txt", prefix(opt), (unsigned long long)unit);
    if (s2r_randomization_write(&u->ranges, s2r_path(path, sizeof path, opt->out, name), error) != S2R_OK)
        return unit_failed(u, "ranges", error);
    return 0;
}

/* Then its demonstrations, through the calibrated camera. */
static int record_demos(const s2r_options* opt, const sizes* z, unit_data* u, stage_cost* cost) {
    int per_unit = (z->demos + opt->seeds - 1) / opt->seeds;
    s2r_expert_config op = s2r_operator_config_default();
    char error[S2R_ERROR_LEN];
    int obs_dim, act_dim, ok = 0;
    double start = s2r_seconds();
    if (per_unit < 1000 && z->demos >= 1000) per_unit = 1000;   /* the largest fine-tuning set */
    u->recorded = per_unit;
    s2r_task_dims(opt->task, opt->robot, &obs_dim, &act_dim);
    printf("Recording %d teleoperated demonstrations on unit #%llu ...\n", per_unit, (unsigned long long)u->unit);
    fflush(stdout);
    if (s2r_dataset_init(&u->demos, obs_dim, act_dim) != S2R_OK ||
        s2r_collect_unit_demos(opt->robot, u->unit, &u->calibrated, &op, per_unit, opt->seed + 77 + u->unit, opt->threads,
                               &u->demos, &ok, error) != S2R_OK)
        return fail("demos", error);
    charge(&cost[RECORD], start, u->demos.count + (long long)per_unit * op.reaction_steps);
    printf("  %d of %d demonstrations ended on target (%d observation-action pairs)\n", ok, per_unit, u->demos.count);
    return 0;
}

/* Measure every unit: identify them all, side by side, then record each
   one's demonstrations (which use the threads themselves). */
static int measure_units(const s2r_options* opt, const sizes* z, unit_data* units, stage_cost* cost) {
    double start = s2r_seconds();
    int s, bad = 0;
    printf("Identifying units #%llu..#%llu, side by side ...\n", (unsigned long long)opt->real_seed,
           (unsigned long long)(opt->real_seed + opt->seeds - 1));
    fflush(stdout);
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic)
#endif
    for (s = 0; s < opt->seeds; s++) identify_unit(opt, z, opt->real_seed + (uint64_t)s, &units[s]);
    for (s = 0; s < opt->seeds && !bad; s++) {
        if (units[s].error[0]) bad = fail("unit", units[s].error);
        else fputs(units[s].report, stdout);
    }
    charge(&cost[MEASURE], start, 0);
    for (s = 0; s < opt->seeds && !bad; s++) bad = record_demos(opt, z, &units[s], cost);
    return bad;
}

static s2r_dataset first_demos(const s2r_dataset* all, int demos, int recorded);

/* Fine-tune the sysID policy on the first n demos, checked by a canary on
   the unit (its own episodes, stream 2000 + seed) that keeps a fine-tune
   only if it beats the sysID policy there (kept_count[S2R_KEPT_*] counts
   which), and evaluate what was kept. */
static int finetune_row(const s2r_options* opt, const sizes* z, const char* start, const unit_data* u, int n,
                        uint64_t seed, s2r_sim_real_eval* out, s2r_eval_result* nominal, int kept_count[3],
                        stage_cost* cost) {
    double begun = s2r_seconds();
    s2r_policy p;
    s2r_real_robot real;
    s2r_dataset some = first_demos(&u->demos, n, u->recorded);
    s2r_sim_real_eval none;
    char error[S2R_ERROR_LEN];
    static const char* const kept_name[3] = {"the fine-tune following the operator",
                                              "the fine-tune keeping its own actions", "the policy as it was"};
    double canary[3];
    int bad = 0, kept;
    memset(&none, 0, sizeof none);
    if (load_policy(&p, start)) return 1;
    if (n > 0 && s2r_real_robot_init_scene(&real, opt->robot, s2r_task_scene(opt->task), u->unit) != S2R_OK)
        bad = fail("real robot", real.error);
    else if (n > 0) {
        bad = s2r_finetune_on_unit(&p, &some, z->finetune_epochs, seed, &real.backend, &u->calibrated, z->canary,
                                   2000 + seed, canary, &kept, error) != S2R_OK ? fail("fine-tune", error) : 0;
        s2r_real_robot_free(&real);
        if (!bad) printf("  fine-tuned on %4d demos; canary %3.0f %% following the operator, %3.0f %% keeping its own "
                         "actions too, %3.0f %% as it was: kept %s\n", n, 100 * canary[S2R_KEPT_FOLLOWING],
                         100 * canary[S2R_KEPT_OWN_ACTIONS], 100 * canary[S2R_KEPT_UNCHANGED], kept_name[kept]);
        if (!bad) kept_count[kept]++;
        charge(cost, begun, 3LL * z->canary * (opt->task == S2R_TASK_PUSH ? u->calibrated.push.episode_steps
                                                                           : u->calibrated.reach.episode_steps));
    }
    if (!bad) bad = evaluate_row(opt, z, &p, seed, u->unit, &u->calibrated, &u->identified, &none, out, cost);
    if (!bad && nominal) bad = nominal_sim(opt, z, &p, seed, nominal, cost);
    s2r_policy_free(&p);
    return bad;
}

/* The first `demos` of the `recorded` demonstrations in the set (every
   demonstration contributes the same number of pairs). */
static s2r_dataset first_demos(const s2r_dataset* all, int demos, int recorded) {
    s2r_dataset d = *all;
    d.count = (int)((long long)all->count / recorded * demos);
    return d;
}

/* Behaviour cloning from scratch on every demo. */
static int real_only_row(const s2r_options* opt, const sizes* z, const s2r_dataset* demos, uint64_t seed,
                         uint64_t unit, const s2r_task_config* task, s2r_sim_real_eval* pooled, stage_cost* cost) {
    double start = s2r_seconds();
    s2r_policy p;
    s2r_policy_shape shape;
    s2r_rng rng = s2r_rng_make(seed, 5);
    s2r_sim_real_eval one;
    char error[S2R_ERROR_LEN];
    int bad;
    memset(&shape, 0, sizeof shape);
    s2r_task_dims(opt->task, opt->robot, &shape.obs_dim, &shape.act_dim);
    shape.num_hidden = 2;
    shape.hidden[0] = shape.hidden[1] = 64;
    if (s2r_policy_init(&p, &shape, -0.5f, 10.0f, &rng) != S2R_OK) return fail("policy", p.error);
    bad = s2r_clone_demos(&p, demos, 0, z->scratch_epochs, seed, error) != S2R_OK ? fail("real only", error) : 0;
    charge(cost, start, 0);
    if (!bad) bad = evaluate_row(opt, z, &p, seed, unit, task, NULL, pooled, &one, cost);
    s2r_policy_free(&p);
    return bad;
}

/* Every unit's demonstrations in one set, unit by unit. */
static int pool_demos(const unit_data* units, int n, s2r_dataset* pooled) {
    int u, i;
    if (s2r_dataset_init(pooled, units[0].demos.obs_dim, units[0].demos.act_dim) != S2R_OK) return fail("demos", pooled->error);
    for (u = 0; u < n; u++)
        for (i = 0; i < units[u].demos.count; i++)
            if (s2r_dataset_append(pooled, units[u].demos.obs + (size_t)i * pooled->obs_dim,
                                   units[u].demos.act + (size_t)i * pooled->act_dim) != S2R_OK)
                return fail("demos", pooled->error);
    return 0;
}

/* "87.5 [85.1, 89.6]" in percent, or "n/a". */
static const char* cell(char* buf, size_t cap, const s2r_eval_result* e) {
    if (e->episodes == 0) snprintf(buf, cap, "n/a");
    else snprintf(buf, cap, "%.1f [%.1f, %.1f]", 100 * e->success_rate, 100 * e->success_lo, 100 * e->success_hi);
    return buf;
}

/* Open DIR/<prefix>_name to be written whole or not at all (see s2r_file). */
static FILE* begin_file(s2r_file* file, const s2r_options* opt, const char* name) {
    char path[512];
    return s2r_output_create(file, output(path, sizeof path, opt, name));
}

static int end_file(s2r_file* file) { return s2r_output_commit(file) != S2R_OK; }

static int write_markdown(const s2r_options* opt, const sizes* z, const table* t, double seconds, double peak) {
    char a[64], b[64], c[64], g[64], name[96];
    s2r_file file;
    FILE* md = begin_file(&file, opt, "table.md");
    int r;
    if (!md) return 1;
    fprintf(md, "| Recipe | Sim success %% | Real success %% | Gap | Real, camera calibrated %% |\n|---|---|---|---|---|\n");
    for (r = 0; r < ROWS; r++) {
        const s2r_sim_real_eval* e = &t->row[r];
        int has_sim = r != REAL_ONLY && e->sim.episodes > 0;
        if (e->real.episodes == 0) continue;
        snprintf(g, sizeof g, "%.1f [%.1f, %.1f]", 100 * e->gap, 100 * e->gap_lo, 100 * e->gap_hi);
        if (r == REAL_ONLY) snprintf(name, sizeof name, "Real-only training (%d demos)", t->pooled_demos);
        else snprintf(name, sizeof name, "%s", row_name[r]);
        fprintf(md, "| %s | %s | %s | %s | %s |\n", name, has_sim ? cell(a, sizeof a, &e->sim) : "n/a",
                cell(b, sizeof b, &e->real), has_sim ? g : "n/a", cell(c, sizeof c, &t->calibrated[r]));
    }
    fprintf(md, "\nSim: the simulator each recipe trusts - the nominal model for the first two rows, the unit's "
                "identified model for the system-ID rows; in the nominal model those score");
    for (r = SYSID; r < REAL_ONLY; r++)
        fprintf(md, "%s %s %%", r == SYSID ? "" : r == REAL_ONLY - 1 ? " and" : ",", cell(a, sizeof a, &t->nominal[r]));
    fprintf(md, ".\n");
    fprintf(md, "\n%s; %d training seed(s), seed s paired with real unit #%llu + s; %d episodes per row per seed "
                "(pooled, Wilson 95 %% intervals; the gap's is Newcombe's); %d demonstrations recorded over the "
                "units; each fine-tuning ran 3 x %d canary episodes on its unit (its two fine-tunes and the sysID "
                "policy) and kept the sysID policy %d, the fine-tune following the operator %d and the one keeping "
                "its own actions %d times (of %d, the demo curve's included); %.0f s wall, peak memory %.0f MiB.\n",
            s2r_robot_kind_name(opt->robot), opt->seeds, (unsigned long long)opt->real_seed, z->episodes, t->pooled_demos,
            z->canary, t->kept[S2R_KEPT_UNCHANGED], t->kept[S2R_KEPT_FOLLOWING], t->kept[S2R_KEPT_OWN_ACTIONS],
            t->kept[0] + t->kept[1] + t->kept[2], seconds, peak);
    return end_file(&file);
}

static int write_csvs(const s2r_options* opt, const table* t, double seconds, double peak) {
    s2r_file file;
    FILE* csv = begin_file(&file, opt, "table.csv");
    int r;
    if (!csv) return 1;
    fprintf(csv, "recipe,sim_episodes,sim_success,sim_lo,sim_hi,real_episodes,real_success,real_lo,real_hi,gap,"
                 "gap_lo,gap_hi,calibrated_success,calibrated_lo,calibrated_hi,sim_model,nominal_sim_success,"
                 "nominal_sim_lo,nominal_sim_hi\n");
    for (r = 0; r < ROWS; r++) {
        const s2r_sim_real_eval* e = &t->row[r];
        int has_sim = r != REAL_ONLY;
        fprintf(csv, "%s,%d,%.4f,%.4f,%.4f,%d,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%s,%.4f,%.4f,%.4f\n",
                row_file[r], has_sim ? e->sim.episodes : 0, e->sim.success_rate, e->sim.success_lo, e->sim.success_hi,
                e->real.episodes, e->real.success_rate, e->real.success_lo, e->real.success_hi,
                has_sim ? e->gap : 0.0, has_sim ? e->gap_lo : 0.0, has_sim ? e->gap_hi : 0.0,
                t->calibrated[r].success_rate, t->calibrated[r].success_lo,
                t->calibrated[r].success_hi, r == REAL_ONLY ? "none" : r >= SYSID ? "identified" : "nominal",
                t->nominal[r].success_rate, t->nominal[r].success_lo, t->nominal[r].success_hi);
    }
    if (end_file(&file) || !(csv = begin_file(&file, opt, "demo_curve.csv"))) return 1;
    fprintf(csv, "demos,real_episodes,real_success,real_lo,real_hi\n");
    for (r = 0; r < CURVE; r++)
        if (t->curve[r].episodes > 0)
            fprintf(csv, "%d,%d,%.4f,%.4f,%.4f\n", curve_demos[r], t->curve[r].episodes, t->curve[r].success_rate,
                    t->curve[r].success_lo, t->curve[r].success_hi);
    if (end_file(&file) || !(csv = begin_file(&file, opt, "timing.csv"))) return 1;
    fprintf(csv, "robot,task,stage,wall_s,env_steps\n");
    for (r = 0; r < STAGES; r++)
        fprintf(csv, "%s,%s,%s,%.1f,%lld\n", s2r_robot_kind_name(opt->robot), s2r_task_kind_name(opt->task), stage_file[r],
                t->cost[r].wall_s, t->cost[r].env_steps);
    if (end_file(&file) || !(csv = begin_file(&file, opt, "run.csv"))) return 1;
    fprintf(csv, "robot,seeds,quick,wall_seconds,peak_memory_mib\n%s,%d,%d,%.0f,%.1f\n", s2r_robot_kind_name(opt->robot),
            opt->seeds, opt->quick, seconds, peak);
    return end_file(&file);
}

static int plot_table(const s2r_options* opt, const table* t) {
    static const char* short_name[ROWS] = {"pure sim", "+ DR", "+ sysID", "+ 100 demos", "+ 1000 demos", "real only"};
    double v[3][ROWS], lo[3][ROWS], hi[3][ROWS], x[CURVE], y[CURVE], ylo[CURVE], yhi[CURVE];
    s2r_figure fig;
    s2r_plot_style style = s2r_plot_style_default();
    char path[512], title[128];
    int r, k, n = 0;
    for (r = 0; r < ROWS; r++) {
        const s2r_eval_result* e[3] = {&t->row[r].sim, &t->row[r].real, &t->calibrated[r]};
        for (k = 0; k < 3; k++) {
            int empty = e[k]->episodes == 0 || (k == 0 && r == REAL_ONLY);
            v[k][r] = empty ? NAN : e[k]->success_rate;
            lo[k][r] = empty ? NAN : e[k]->success_lo;
            hi[k][r] = empty ? NAN : e[k]->success_hi;
        }
    }
    for (r = 0; r < CURVE; r++)
        if (t->curve[r].episodes > 0) {
            x[n] = curve_demos[r]; y[n] = t->curve[r].success_rate; ylo[n] = t->curve[r].success_lo; yhi[n] = t->curve[r].success_hi;
            n++;
        }
    if (s2r_figure_init(&fig, 1400, 500, 1, 2) != S2R_OK) return fail("figure", fig.error);
    snprintf(title, sizeof title, "The recipe on the %s (%d seed(s), real units from #%llu)", s2r_robot_kind_name(opt->robot),
             opt->seeds, (unsigned long long)opt->real_seed);
    s2r_figure_title(&fig, title);
    s2r_panel_labels(&fig, 0, "success with Wilson 95 % intervals", "", "success rate");
    s2r_panel_categories(&fig, 0, short_name, ROWS);
    s2r_panel_yrange(&fig, 0, 0, 1);
    style.label = "simulation";
    s2r_plot_bars(&fig, 0, v[0], lo[0], hi[0], ROWS, &style);
    style.label = "real unit";
    s2r_plot_bars(&fig, 0, v[1], lo[1], hi[1], ROWS, &style);
    style.label = "real, camera calibrated";
    s2r_plot_bars(&fig, 0, v[2], lo[2], hi[2], ROWS, &style);
    s2r_panel_labels(&fig, 1, "real success against demos (from the sysID policy)", "demonstrations",
                     "real success rate");
    s2r_panel_yrange(&fig, 1, 0, 1);
    style = s2r_plot_style_default();
    style.marker = S2R_MARKER_CIRCLE;
    style.label = "real success";
    if (n > 0) {
        s2r_plot_line(&fig, 1, x, y, n, &style);
        style.label = NULL;
        s2r_plot_band(&fig, 1, x, ylo, yhi, n, &style);
    }
    r = s2r_figure_write_png(&fig, output(path, sizeof path, opt, "table.png")) != S2R_OK;
    if (r) fail(path, fig.error);
    s2r_figure_free(&fig);
    return r;
}

/* The DR ranges every DR row starts from, as a ranges file. */
static int write_dr_ranges(const s2r_options* opt) {
    s2r_randomization dr;
    char path[512], error[S2R_ERROR_LEN];
    if (s2r_options_ranges(opt, &dr, error) != S2R_OK) return fail("DR ranges", error);
    if (s2r_randomization_write(&dr, output(path, sizeof path, opt, "dr_ranges.txt"), error) != S2R_OK)
        return fail("DR ranges", error);
    return 0;
}

#define MAX_SEEDS 16

int main(int argc, char** argv) {
    static table t;
    static unit_data units[MAX_SEEDS];
    s2r_dataset pooled;
    s2r_options opt;
    int status;
    sizes z;
    char path[512];
    double start = s2r_seconds(), seconds;
    int s, bad;
    FILE* f;

    if (s2r_example_start(&opt, argc, argv, "every row of the recipe table",
                          S2R_OPT_ROBOT | S2R_OPT_TASK | S2R_OPT_SEED | S2R_OPT_REAL_SEED | S2R_OPT_SEEDS | S2R_OPT_THREADS | S2R_OPT_OUT | S2R_OPT_QUICK | S2R_OPT_RESUME | S2R_OPT_RANGES, &status) != S2R_OK)
        return status;
    s2r_interrupt_catch();   /* Ctrl-C saves the running training's state; --resume goes on */
    z = choose_sizes(opt.quick, opt.task);
    if (opt.quick) opt.seeds = 1;
    printf("The recipe table on the %s, %d seed(s) paired with real units #%llu..#%llu%s\n", s2r_robot_kind_name(opt.robot),
           opt.seeds, (unsigned long long)opt.real_seed, (unsigned long long)(opt.real_seed + opt.seeds - 1),
           opt.quick ? " (quick)" : "");

    if (opt.seeds > MAX_SEEDS) { fprintf(stderr, "--seeds: at most %d\n", MAX_SEEDS); return 2; }
    memset(&pooled, 0, sizeof pooled);
    bad = write_dr_ranges(&opt);
    if (!bad) bad = measure_units(&opt, &z, units, t.cost);   /* 1. measure every unit */
    if (!bad) bad = pool_demos(units, opt.seeds, &pooled);
    for (s = 0; s < opt.seeds; s++) t.pooled_demos += units[s].recorded;
    for (s = 0; s < opt.seeds && !bad; s++)   /* 2. every row, seed by seed */
        bad = run_seed(&opt, &z, opt.seed + (uint64_t)s, &units[s], &pooled, &t);
    for (s = 0; s < opt.seeds; s++) s2r_dataset_free(&units[s].demos);
    s2r_dataset_free(&pooled);
    if (bad) return bad;

    seconds = s2r_seconds() - start;
    if (write_markdown(&opt, &z, &t, seconds, s2r_peak_memory_mib()) ||
        write_csvs(&opt, &t, seconds, s2r_peak_memory_mib()) || plot_table(&opt, &t)) return 1;
    printf("\n");
    f = fopen(output(path, sizeof path, &opt, "table.md"), "r");
    if (f) { int c; while ((c = fgetc(f)) != EOF) putchar(c); fclose(f); }
    printf("\nWhere the time went (all seeds):\n");
    for (s = 0; s < STAGES; s++)
        printf("  %-20s %7.0f s %12lld environment steps\n", stage_file[s], t.cost[s].wall_s, t.cost[s].env_steps);
    printf("\nwrote %s/%s_table.md, _table.csv, _table.png, _demo_curve.csv, _timing.csv, _run.csv\n", opt.out, prefix(&opt));
    printf("wall time %.0f s, peak memory %.0f MiB\n", s2r_seconds() - start, s2r_peak_memory_mib());
    return 0;
}
