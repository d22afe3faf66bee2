/* 07_the_table.c - the whole recipe, measured: every row of the table.

   For one arm and each of --seeds training seeds, this runs the steps of
   examples 01-05 and measures each resulting policy in the nominal
   simulator and on a real unit.  The S-th training seed, --seed + S - 1
   (S = 1 .. --seeds), is paired with the S-th unit of the fleet, unit
   --real-seed + S - 1: that unit is identified, gives the demonstrations
   and is where the seed's policies are measured, so the rows pool several
   units as well as several training runs:

     pure sim              PPO on the nominal simulator
     sim + DR              the pure-sim policy trained on, warm, on
                           randomized simulators (default ranges): the
                           table is one chain, each row continuing the
                           row above it (trained from scratch in as many
                           steps as pure sim, DR learns push too slowly
                           to meet the 85 % sim bar; see figures/RESULTS.md,
                           "Why DR continues the pure-sim policy")
     sim + DR incl. camera calibration, with memory
                           the pure-sim policy given S2R_CALIBRATION_MEMORY (4)
                           frames of memory
                           (s2r_policy_add_history: it starts acting
                           exactly as before) and trained on, warm, on the
                           DR ranges with the camera's calibration error
                           added (s2r_randomization_add_calibration,
                           +-2 cm per axis): what a practitioner who knows
                           roughly how well their camera is calibrated
                           does instead of calibrating it; measured like
                           the DR row, with the camera as the unit has it
     sim + DR + sysID      the unit identified: dynamics by coordinate
                           descent (push: then the object, from strikes,
                           used unless its held-out verdict blocks),
                           camera by a marker at surveyed points;
                           the DR policy trained on, warm, with the ranges
                           re-centred on the estimate, and run with the
                           camera calibration applied
     + 100 / 1000 demos    the sysID policy fine-tuned by behaviour cloning
                           on the first 100 / 1000 teleoperated
                           demonstrations from the unit (recorded with the
                           calibrated camera) that ended on target - a
                           failed demonstration teaches failing - two ways -
                           following the operator, and keeping its own
                           actions too - the one kept that did better in a
                           canary of at most 50 episodes each on the unit,
                           if it also beat the sysID policy there (which
                           runs the same canary episodes); if not, the row
                           is the sysID policy
     DR + 100 / 1000 demos the same from the DR policy, without system ID:
                           the camera uncalibrated, the demonstrations
                           recorded through it (the same operator on the
                           same episodes) - the seeds' "sim + DR + real
                           demos fine-tune", where real data can teach what
                           DR could not (the camera's offset among it)
     + 100 / 1000 real episodes (RL), from DR and from sysID
                           PPO continued on the unit itself for that many
                           episodes (s2r_finetune_by_rl: the reward is the
                           success label a person gives at an episode's
                           end, a learning rate of 3e-5 and a KL anchor to
                           the policy it starts from), kept by the same
                           canary only if it beats that policy; the robot's
                           own episodes as the teacher instead of the
                           operator
     real only             behaviour cloning from scratch on 10k demos:
                           every unit's recordings pooled (each unit gives
                           10k / seeds, at least the 1000 fine-tuning uses)

   Rows pool all seeds: successes over seeds x episodes, with a Wilson 95 %
   interval; the gap (sim minus real) with Newcombe's 95 % interval for a
   difference of two rates.  The pure-sim and DR policies are measured a
   second time with the unit's camera calibrated (the last column), which
   splits their gap into what the camera costs and what the dynamics cost.
   Also measured: real success against the number of demos (0, 10, 30,
   100, 300, 1000), fine-tuning the sysID policy, both on the ones that
   ended on target (the rows) and on all of them, and against as many
   episodes of interventions instead (HG-DAgger: the sysID policy drives,
   the operator takes over where it is about to fail, and its corrections
   are cloned, in rounds; s2r_hg_dagger_round); the same curve on target
   for two more operators, the skilled teleoperator and the ceiling (the
   scripted expert on the true scene, a reference;
   s2r_operator_config_skilled / _ceiling), so that the teacher's skill is
   a variable, each operator's own success on the unit beside it; and real
   success against the real episodes RL fine-tuning spent - demo_curve.csv,
   with the unit episodes each point cost, canaries included.

   The work is jobs that hand each other nothing but files in --out, so
   they can run in any order their inputs allow, on one machine or many
   (GNU parallel: make table JOBS=N; Slurm: examples/jobs/slurm_table.sh):

     unit:S       identify unit --real-seed + S - 1 and record its
                  demonstrations (S = 1 .. --seeds)
     chain:S      training seed --seed + S - 1 on that unit: pure sim ->
                  DR (and DR with the camera) -> sysID, their
                  evaluations, the demo curve's fine-tunes and its
                  interventions (needs unit:S)
     real-only:S  behaviour cloning from scratch on every unit's
                  demonstrations, measured on unit S (needs every unit:S)
     merge        the table, from the jobs' records (needs all of them)

   Without --job the program runs them all, in that order, and merges: the
   same code on the same files, so the table is the same byte for byte
   however the jobs ran.  Each job ends by writing its record,
   DIR/07[_push]_job_<job>.csv (its measurements, stamped with the run's
   settings and the build, s2r_options_digest / s2r_build_digest); with
   --resume a job whose record is there is skipped, and the training it was
   in continues from its saved state.  Each record ends with a checksum of
   all of it (sim2real_jobs.h, s2r_record).  A merge refuses records of
   other settings or another build, and any record edited, cut short or
   copied from another job (naming the file and the line), names the jobs
   whose records are missing, and then writes no table.

   The jobs, their records and the merge are this file's second half,
   examples/07_the_table_jobs.h; what is here is the recipe and its table.

   Uses: s2r_options_ranges, s2r_identify_unit, s2r_identify_object, s2r_collect_unit_demos, s2r_train,
         s2r_finetune_on_unit, s2r_hg_dagger_round, s2r_clone_demos, s2r_dataset_append_episodes, s2r_policy_add_history,
         s2r_randomization_add_calibration, s2r_evaluate_sim_and_real, s2r_mean_interval,
         s2r_plot_training_csv, s2r_figure_*.
   --task reach (the default) or push picks the task; push's files start
   with 07_push_ instead of 07_.
   Writes: DIR/07_table.md, DIR/07_table.csv, DIR/07_table.png,
           DIR/07_demo_curve.csv, DIR/07_seeds.csv (every row per seed:
           the spread behind the pooled rows, each line with its arm,
           task, settings and build, so runs concatenate),
           DIR/07_over_seeds.csv (with two seeds or more also a table
           under 07_table.md: each row's real success as a mean over
           seeds with a Student-t interval - what another seed on another
           unit would give - and each step against the row it is judged
           by, paired by seed; s2r_mean_interval), DIR/07_jobs.csv (each job's
           wall time), DIR/07_units.csv (each unit's camera offset as its
           calibration found it, mm, and its demonstrations, recorded and
           ended on target), DIR/07_demo_curve_seeds.csv (the demo curve
           seed by seed), DIR/07_dr_ranges.txt (the DR ranges),
           DIR/07_dr_camera_ranges.txt (the same with the camera),
           DIR/07_ranges_unit<N>.txt (each unit's re-centred ranges),
           DIR/07_identified_unit<N>.txt (its identified simulator),
           DIR/07_demos_unit<N>.bin (its demonstrations, s2r_dataset_save),
           the jobs' records, DIR/07_timing.csv (wall time and environment
           steps per stage), DIR/07_run.csv (wall time and peak memory),
           the policies as DIR/07_<recipe>_seed<N>.ckpt with their learning
           curves, and training states DIR/07_<recipe>_seed<N>.state: after a
           crash or Ctrl-C, --resume continues the run (finished trainings
           are skipped). */
#define SIM2REAL_IMPLEMENTATION
#include "../sim2real.h"
#include "../sim2real_jobs.h"
#include "../sim2real_reports.h"
#include "../sim2real_rl_finetune.h"
#include "s2r_cli.h"
#include "s2r_figures.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

enum { PURE, DR, DR_CAMERA, SYSID, DR_DEMOS_100, DR_DEMOS_1000, DEMOS_100, DEMOS_1000, DR_RL_100, DR_RL_1000, RL_100,
       RL_1000, REAL_ONLY, ROWS };
static const char* const row_name[ROWS] = {
    "Pure sim training (no DR)", "Sim + domain randomization", "Sim + DR incl. camera calibration, with memory",
    "Sim + DR + system ID", "Sim + DR + 100 real demos", "Sim + DR + 1000 real demos",
    "Sim + DR + sysID + 100 real demos", "Sim + DR + sysID + 1000 real demos", "Sim + DR + 100 real episodes (RL)",
    "Sim + DR + 1000 real episodes (RL)", "Sim + DR + sysID + 100 real episodes (RL)",
    "Sim + DR + sysID + 1000 real episodes (RL)", "Real-only training"};
static const char* const row_file[ROWS] = {"pure_sim", "dr", "dr_camera_memory", "dr_sysid", "dr_demos_100",
                                           "dr_demos_1000", "demos_100", "demos_1000", "dr_rl_100", "dr_rl_1000",
                                           "sysid_rl_100", "sysid_rl_1000", "real_only"};
static const char* const row_short[ROWS] = {"pure sim", "+ DR", "+ DR cam, mem", "+ sysID", "DR+100 demos",
                                            "DR+1000 demos", "+ 100 demos", "+ 1000 demos", "DR+100 RL",
                                            "DR+1000 RL", "+ 100 RL", "+ 1000 RL", "real only"};
/* The row each one continues (-1: trained from scratch), and the row it
   is judged against, seed by seed: the one it continues (the camera-aware
   row against plain DR, the recipe it replaces; real-only against system
   ID, the best the simulator gives). */
static const int row_start[ROWS] = {-1, PURE, PURE, DR, DR, DR, SYSID, SYSID, DR, DR, SYSID, SYSID, -1};
static const int row_against[ROWS] = {-1, PURE, DR, DR, DR, DR, SYSID, SYSID, DR, DR, SYSID, SYSID, SYSID};
#define CURVE 6
static const int curve_demos[CURVE] = {0, 10, 30, 100, 300, 1000};
/* The curves: real success against the real episodes a way of learning
   from the unit spent.  From the sysID policy: cloning the default
   operator's demonstrations that ended on target (the rows' way), every
   one of them, interventions instead (the points count intervention
   episodes), the skilled and the ceiling operators' on target, and RL
   fine-tuning (the points count the unit episodes it learnt from).  From
   the DR policy, only the rows' points (100 and 1000): its demonstrations
   through the uncalibrated camera, and RL. */
enum { ON_TARGET, ALL_DEMOS, INTERVENTIONS, SKILLED, CEILING, RL_EPISODES, DR_ON_TARGET, DR_RL, WAYS };
static const char* const way_name[WAYS] = {"on_target", "all", "interventions", "skilled_on_target",
                                           "ceiling_on_target", "rl", "dr_on_target", "dr_rl"};
/* The demonstration sets a unit job records, each way's, and the row a
   way's point is (-1: a curve point only). */
enum { OP_DEFAULT, OP_RAW_CAMERA, OP_SKILLED, OP_CEILING, SETS };
static const char* const set_name[SETS] = {"the default operator", "the default operator, camera uncalibrated",
                                           "the skilled operator", "the ceiling (a reference)"};
static const char* const set_file[SETS] = {"demos", "demos_raw_camera", "demos_skilled", "demos_ceiling"};
static const int way_set[WAYS] = {OP_DEFAULT, OP_DEFAULT, -1, OP_SKILLED, OP_CEILING, -1, OP_RAW_CAMERA, -1};
/* The row is measured in the unit's identified simulator: system ID's
   row and every row that continues it. */
static int on_identified(int row) { return row == SYSID || row_start[row] == SYSID; }
static int curve_row(int way, int point);

typedef struct sizes {
    long long fresh_steps;    /* pure sim, from scratch                     */
    long long warm_steps;     /* DR and sysID: continuing the row above     */
    int demos;                /* recorded over all units (real-only uses all) */
    int episodes;             /* evaluation episodes per row per seed       */
    int canary;               /* unit episodes per fine-tuning candidate    */
    int interventions;        /* the interventions curve's last point       */
    int rl_episodes;          /* the RL curve's last point                  */
    int finetune_epochs, scratch_epochs;
    s2r_identify_config id;
} sizes;

typedef struct unit_data {               /* what measuring one unit gave  */
    uint64_t          unit;
    s2r_randomization ranges;             /* re-centred on its estimate     */
    s2r_task_config   calibrated;         /* task with its camera correction */
    s2r_randomization identified;         /* its identified simulator        */
    double            camera[3];          /* m, its camera calibration       */
    s2r_dataset       demos[SETS];        /* its demonstrations, per operator */
    int               recorded[SETS];     /* demonstrations in each set     */
    int               on_target[SETS];    /* of them, ending on target      */
    char              report[1024];       /* what identifying it printed    */
    char              error[S2R_ERROR_LEN + 32];   /* why it failed, if it did */
} unit_data;

/* Where a run's time goes: wall seconds and environment steps per stage -
   the six rows (training, fine-tuning, cloning, and every evaluation of
   the row), the demo curve's other points, and per unit its measurement
   (system ID and camera calibration) and its demonstrations - summed over
   seeds, written to 07_timing.csv. */
enum { CURVE_POINTS = ROWS, RL_CURVE, INTERVENTION_CURVE, MEASURE, RECORD, STAGES };
static const char* const stage_file[STAGES] = {"pure_sim", "dr", "dr_camera_memory", "dr_sysid", "dr_demos_100",
                                               "dr_demos_1000", "demos_100", "demos_1000", "dr_rl_100", "dr_rl_1000",
                                               "sysid_rl_100", "sysid_rl_1000", "real_only", "demo_curve_points",
                                               "rl_curve_points", "interventions", "unit_measurement",
                                               "demonstrations"};
/* What each stage measures (its line of the printed split and of
   timing.csv). */
static const char* const stage_measures[STAGES] = {
    "PPO from scratch on the nominal simulator: its success there and on the unit (raw and camera calibrated)",
    "DR training continuing pure sim: success in the nominal simulator and on the unit (raw and calibrated)",
    "DR with the camera's error and memory: success in the nominal simulator and on the unit (raw and calibrated)",
    "training on the unit's re-centred ranges: success in its identified and the nominal simulator and on the unit",
    "100 demos through the uncalibrated camera: two fine-tunes of the DR policy, the canary; the kept one's success",
    "1000 demos through the uncalibrated camera: two fine-tunes of the DR policy, the canary; the kept one's success",
    "100 demos: two fine-tunes and the canary that keeps one or the sysID policy; the kept policy's success",
    "1000 demos: two fine-tunes and the canary that keeps one or the sysID policy; the kept policy's success",
    "PPO on 100 unit episodes from the DR policy, the canary that keeps it or not; the kept policy's success",
    "PPO on 1000 unit episodes from the DR policy, the canary that keeps it or not; the kept policy's success",
    "PPO on 100 unit episodes from the sysID policy, the canary that keeps it or not; the kept policy's success",
    "PPO on 1000 unit episodes from the sysID policy, the canary that keeps it or not; the kept policy's success",
    "cloning from scratch on every unit's demos: its success on the unit",
    "the demo curves' other points (three operators, both ways of cloning): fine-tunes, canaries, kept ones' success",
    "the RL curve's other points: PPO on the unit, canaries, a kept fine-tune's success",
    "HG-DAgger rounds on the unit: interventions and fine-tunes and canaries; a kept round's success",
    "system identification of each unit: its arm's dynamics and camera (push: and the object)",
    "the demonstrations recorded on each unit by the three operators (and how many ended on target)"};
typedef struct stage_cost {
    double    wall_s;      /* s                                                   */
    double    cpu_s;       /* s of processor time, every thread's (clock): what
                              the stage costs on a machine others share too     */
    long long env_steps;   /* policy steps: trainings (a resumed one counts
                              whole), evaluations, demonstrations, and canary
                              episodes counted at their full length          */
} stage_cost;

/* A moment, to charge what came after it: wall (s2r_seconds) and
   processor seconds. */
typedef struct stamp {
    double wall, cpu;   /* s */
} stamp;

static double cpu_seconds(void) { return (double)clock() / CLOCKS_PER_SEC; }

static stamp now(void) {
    stamp t;
    t.wall = s2r_seconds();
    t.cpu = cpu_seconds();
    return t;
}

/* Add the time since `start` and `steps` to a stage. */
static void charge(stage_cost* c, stamp start, long long steps) {
    c->wall_s += s2r_seconds() - start.wall;
    c->cpu_s += cpu_seconds() - start.cpu;
    c->env_steps += steps;
}

/* A row over seeds, where the pooled row counts episodes: each seed's real
   success on its own unit is one run, and the interval says what another
   seed on another unit would give (s2r_mean_interval); against its
   row_against, the per-seed differences, so what is common to a seed and
   its unit cancels.  Rates and differences as fractions, the intervals
   clipped to [0, 1] and [-1, 1]. */
typedef struct over_seeds {
    int    seeds;                     /* seeds with the row measured          */
    double mean, lo, hi;              /* real success, Student-t 95 % interval */
    double diff, diff_lo, diff_hi;    /* minus row_against, paired by seed    */
    int    pairs, ahead, behind;      /* seeds with both rows; of those, where
                                         it did better / worse               */
} over_seeds;

typedef struct table {
    s2r_sim_real_eval row[ROWS];        /* pooled over seeds               */
    s2r_eval_result   calibrated[ROWS]; /* real, with the camera calibrated:
                                           the sim-only rows again, so the
                                           gap splits into camera and the rest */
    s2r_eval_result   curve[WAYS][CURVE]; /* real success against demos    */
    int               cloned[WAYS][CURVE]; /* demonstrations cloned (interventions:
                                           episodes the operator took over), over seeds */
    int               spent[WAYS][CURVE];  /* unit episodes spent on the point:
                                           demonstrations or intervention
                                           episodes, and the canaries */
    s2r_eval_result   nominal[ROWS];    /* the nominal simulator, for rows whose
                                           "sim" is the identified one      */
    int               pooled_demos;     /* demonstrations real-only learns from */
    int               recorded[SETS];   /* the merge's: demonstrations per set */
    int               on_target[SETS];  /* over the units, and ending on target:
                                           each operator's own success     */
    int               kept[4];          /* demonstration fine-tunes by what the
                                           canary kept: S2R_KEPT_FOLLOWING,
                                           _OWN_ACTIONS, _UNCHANGED, and [3] sets
                                           with nothing to clone (no
                                           demonstration ended on target) */
    int               rl_kept[3];       /* RL fine-tunes: kept, not kept, and
                                           none labelled a success (nothing
                                           trained) */
    stage_cost        cost[STAGES];     /* time and steps, per stage       */
    over_seeds        over[ROWS];       /* the merge's: real success seed by seed */
} table;

/* The run's sizes: --smoke's check that every piece runs (seconds, nothing
   trained: the tests' size), --quick's small table that measures (one seed,
   50 episodes a row, 300 demonstrations, the demo curves to 300, the
   interventions and RL to 100, and the full table's training budgets, so
   every trained row succeeds in its simulator: figures/RESULTS.md, "The
   quick table"), or the full table. */
static sizes choose_sizes(const s2r_options* opt) {
    sizes z;
    z.id = s2r_identify_config_default();
    if (opt->smoke) {
        z.fresh_steps = 8000; z.warm_steps = 4000; z.demos = 100; z.episodes = 10; z.canary = 4;   /* 2 and 1 updates */
        z.interventions = 30;   /* two rounds: enough to check that they grow */
        z.rl_episodes = 100;    /* the RL rows at 100 run too (a few seconds) */
        z.finetune_epochs = 2; z.scratch_epochs = 6;   /* real-only clones as long as the full table: a row not zero */
        z.id.train = 1; z.id.valid = 1; z.id.samples = 50; z.id.sweeps = 2; z.id.strikes = 2; z.id.strikes_valid = 1;
    } else if (opt->quick) {
        z.fresh_steps = s2r_task_training_steps(opt->task, 0); z.warm_steps = s2r_task_training_steps(opt->task, 1);
        z.demos = 300; z.episodes = 50; z.canary = 50;
        z.interventions = 100; z.rl_episodes = 100;
        z.finetune_epochs = 20; z.scratch_epochs = 6;
        z.id.train = 2; z.id.valid = 1; z.id.sweeps = 4; z.id.strikes = 4; z.id.strikes_valid = 2;
    } else {
        z.fresh_steps = s2r_task_training_steps(opt->task, 0); z.warm_steps = s2r_task_training_steps(opt->task, 1); z.demos = 10000; z.episodes = 200; z.canary = 50;
        z.interventions = 1000; z.rl_episodes = 1000;
        z.finetune_epochs = 20; z.scratch_epochs = 6;
    }
    return z;
}

static const char* prefix(const s2r_options* opt);

/* DIR/<prefix>_name into out (cap bytes); returns out. */
static const char* output(char* out, size_t cap, const s2r_options* opt, const char* name) {
    return s2r_task_path(out, cap, opt, "07", name);
}

/* What a fine-tune starts from: a row's policy, the camera it runs with,
   the simulator it trusts, and its measurement on this seed's episodes
   (what a point that keeps it measures: the same policy on the same
   episodes). */
typedef struct start_policy {
    const char*              name;        /* "the sysID policy"                 */
    const char*              ckpt;        /* its checkpoint                     */
    const s2r_task_config*   task;        /* the task, with the camera it runs with */
    const s2r_randomization* sim;         /* its simulator: the unit's identified
                                             one, or NULL for the nominal      */
    int                      calibrated;  /* it runs with the camera calibrated */
    s2r_sim_real_eval        measured;    /* in that simulator and on the unit  */
    s2r_eval_result          nominal;     /* in the nominal simulator           */
} start_policy;

/* The rows of one training seed are made by run_chain; the pieces it
   calls follow it, in the order it calls them. */
static int fail(const char* what, const char* error);
static int train_row(const s2r_options* opt, int row, const s2r_randomization* randomization, long long steps,
                     uint64_t seed, const char* warm, int history, char* ckpt, size_t cap, stage_cost* cost);
static int evaluate_row(const s2r_options* opt, const sizes* z, s2r_policy* policy, uint64_t seed, uint64_t unit,
                        const s2r_task_config* task, const s2r_randomization* sim, s2r_sim_real_eval* pooled,
                        s2r_sim_real_eval* one, stage_cost* cost);
static int nominal_sim(const s2r_options* opt, const sizes* z, s2r_policy* policy, uint64_t seed, s2r_eval_result* pooled,
                       stage_cost* cost);
static int load_policy(s2r_policy* p, const char* path);
static int curve_point(const s2r_options* opt, const sizes* z, const start_policy* from, const unit_data* u, int way,
                       int point, uint64_t seed, table* t);
static int interventions_curve(const s2r_options* opt, const sizes* z, const char* start, const unit_data* u,
                               uint64_t seed, const s2r_sim_real_eval* as_start, table* t, stage_cost* cost);

/* Every row but real-only for one training seed and its unit, into t (one
   seed's table: merge pools them). */
static int run_chain(const s2r_options* opt, const sizes* z, uint64_t seed, const unit_data* u, table* t) {
    s2r_randomization none = s2r_randomization_none(), dr, dr_camera;
    s2r_task_config raw = s2r_task_config_default(opt->task);
    char ckpt[SYSID + 1][512];   /* the trained rows' checkpoints */
    start_policy from[2];        /* what the fine-tunes start from: the DR policy, the sysID policy */
    s2r_policy p;
    int i, row, way, bad = 0;
    char error[S2R_ERROR_LEN];
    printf("\n== training seed %llu, real unit #%llu ==\n", (unsigned long long)seed, (unsigned long long)u->unit);
    if (s2r_options_ranges(opt, &dr, error) != S2R_OK) return fail("DR ranges", error);   /* --ranges, or the defaults */
    dr_camera = dr;   /* the same ranges with the camera's calibration in them, and memory to find it with */
    s2r_randomization_add_calibration(&dr_camera);
    if (train_row(opt, PURE, &none, z->fresh_steps, seed, NULL, 0, ckpt[PURE], sizeof ckpt[PURE], &t->cost[PURE]) ||
        train_row(opt, DR, &dr, z->warm_steps, seed, ckpt[PURE], 0, ckpt[DR], sizeof ckpt[DR], &t->cost[DR]) ||
        train_row(opt, DR_CAMERA, &dr_camera, z->warm_steps, seed, ckpt[PURE], S2R_CALIBRATION_MEMORY, ckpt[DR_CAMERA],
                  sizeof ckpt[DR_CAMERA], &t->cost[DR_CAMERA]) ||
        train_row(opt, SYSID, &u->ranges, z->warm_steps, seed, ckpt[DR], 0, ckpt[SYSID], sizeof ckpt[SYSID],
                  &t->cost[SYSID]))
        return 1;
    for (row = PURE; row <= SYSID && !bad; row++) {
        s2r_sim_real_eval one, with_camera, unused;
        if ((bad = load_policy(&p, ckpt[row])) != 0) break;
        bad = evaluate_row(opt, z, &p, seed, u->unit, row == SYSID ? &u->calibrated : &raw,
                           row == SYSID ? &u->identified : NULL, &t->row[row], &one, &t->cost[row]);
        with_camera = one;
        if (!bad && row != SYSID)
            bad = evaluate_row(opt, z, &p, seed, u->unit, &u->calibrated, NULL, &unused, &with_camera, &t->cost[row]);
        if (!bad && row != SYSID) s2r_eval_merge(&t->nominal[row], &one.sim);   /* their sim is the nominal one */
        if (!bad && row == SYSID) bad = nominal_sim(opt, z, &p, seed, &t->nominal[row], &t->cost[row]);
        if (!bad) s2r_eval_merge(&t->calibrated[row], &with_camera.real);
        s2r_policy_free(&p);
        if (bad) break;
        s2r_sim_real_eval_print(row_name[row], &one);
        if (row != SYSID) printf("  %-28s with the camera calibrated: real %5.1f %%\n", "", 100 * with_camera.real.success_rate);
        if (row == DR || row == SYSID) {
            start_policy* f = &from[row == SYSID];
            f->name = row == DR ? "the DR policy" : "the sysID policy";
            f->ckpt = ckpt[row];
            f->task = row == DR ? &raw : &u->calibrated;
            f->sim = row == DR ? NULL : &u->identified;
            f->calibrated = row == SYSID;
            f->measured = one;
            f->nominal = t->nominal[row];
        }
    }
    for (way = 0; way < WAYS && !bad; way++) {   /* the curves, the fine-tuning rows among their points */
        const start_policy* f = &from[way < DR_ON_TARGET];
        s2r_eval_merge(&t->curve[way][0], &f->measured.real);   /* nothing from the unit yet */
        if (way != INTERVENTIONS)   /* its rounds build on each other: interventions_curve */
            for (i = 1; i < CURVE && !bad; i++) bad = curve_point(opt, z, f, u, way, i, seed, t);
    }
    if (!bad) bad = interventions_curve(opt, z, ckpt[SYSID], u, seed, &from[1].measured, t, &t->cost[INTERVENTION_CURVE]);
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

/* A unit's demonstration sets freed (those never loaded are zero). */
static void unit_free(unit_data* u) {
    int k;
    for (k = 0; k < SETS; k++) s2r_dataset_free(&u->demos[k]);
}

static int new_ppo(s2r_ppo* ppo, const s2r_options* opt, long long steps, uint64_t seed, const char* warm,
                   int history);

/* Train a PPO policy on `randomization` and save it as <recipe>_seed<N>:
   from scratch, or continuing the checkpoint `warm`, seeing `history`
   past frames (0: none). */
static int train_row(const s2r_options* opt, int row, const s2r_randomization* randomization, long long steps,
                     uint64_t seed, const char* warm, int history, char* ckpt, size_t cap, stage_cost* cost) {
    s2r_training t = s2r_training_default(opt->robot, opt->task);
    s2r_ppo ppo;
    char name[96], csv[512], png[512], state[512], error[S2R_ERROR_LEN];
    s2r_result res;
    stamp start = now();
    int bad;
    if (s2r_example_stopped()) return 1;   /* not one update of the next training: the stop came before it */
    if (new_ppo(&ppo, opt, steps, seed, warm, history)) return 1;
    t.randomization = *randomization;
    t.history = history;
    t.label = row_name[row];
    t.progress = opt->quick || opt->smoke ? 0 : 1;
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

/* Every file this example writes starts with 07_ for reach (the names
   the first table had) and 07_push_ for push (s2r_task_path). */
static const char* prefix(const s2r_options* opt) {
    return opt->task == S2R_TASK_PUSH ? "07_push" : "07";
}

/* A fresh PPO for the arm, seeing `history` past frames; optionally
   warm-started from a checkpoint (one without memory, given it with
   s2r_policy_add_history when history > 0). */
static int new_ppo(s2r_ppo* ppo, const s2r_options* opt, long long steps, uint64_t seed, const char* warm,
                   int history) {
    s2r_ppo_config pc = s2r_task_ppo_config(opt->task, steps, seed, opt->threads);
    s2r_policy start;
    int obs_dim, act_dim, bad;
    s2r_task_dims(opt->task, opt->robot, &obs_dim, &act_dim);
    if (warm) pc.learning_rate = 3e-4f;   /* continuing a trained policy: gentler steps */
    if (s2r_ppo_init(ppo, &pc, s2r_history_obs_dim(obs_dim, act_dim, history), act_dim) != S2R_OK)
        return fail("ppo", ppo->error);
    if (warm && !history && s2r_policy_load(&ppo->policy, NULL, warm) != S2R_OK) return fail(warm, ppo->policy.error);
    if (!warm || !history) return 0;
    if (load_policy(&start, warm)) return 1;
    bad = s2r_policy_add_history(&ppo->policy, &start) != S2R_OK ? fail(warm, ppo->policy.error) : 0;
    s2r_policy_free(&start);
    return bad;
}

/* Evaluate a policy in the simulator (`sim`: the unit's identified model,
   or NULL for the nominal one) and on the unit; pool it into the row. */
static int evaluate_row(const s2r_options* opt, const sizes* z, s2r_policy* policy, uint64_t seed, uint64_t unit,
                        const s2r_task_config* task, const s2r_randomization* sim, s2r_sim_real_eval* pooled,
                        s2r_sim_real_eval* one, stage_cost* cost) {
    s2r_controller c = s2r_policy_controller(policy);
    char error[S2R_ERROR_LEN];
    stamp start = now();
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
    stamp start = now();
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

static int episode_steps(const s2r_options* opt, const unit_data* u);

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
    memcpy(u->camera, camera, sizeof camera);
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
    snprintf(name, sizeof name, "ranges_unit%llu.txt", (unsigned long long)unit);
    if (s2r_randomization_write(&u->ranges, output(path, sizeof path, opt, name), error) != S2R_OK)
        return unit_failed(u, "ranges", error);
    snprintf(name, sizeof name, "identified_unit%llu.txt", (unsigned long long)unit);
    if (s2r_randomization_write(&u->identified, output(path, sizeof path, opt, name), error) != S2R_OK)
        return unit_failed(u, "identified model", error);
    return 0;
}

/* Then its demonstrations (every set counted in u->recorded and
   u->on_target, saved as DIR/07_<set>_unit<N>.bin): the default operator's
   through the calibrated camera (the fine-tunes from sysID, and
   real-only's), the same operator on the same episodes through the
   uncalibrated camera (the fine-tunes from DR), and the skilled and the
   ceiling operators' through the calibrated camera (their demo curves) -
   these three as many as the curves use. */
static int record_demos(const s2r_options* opt, const sizes* z, unit_data* u, stage_cost* cost) {
    int per_unit = (z->demos + opt->seeds - 1) / opt->seeds, k, most = curve_demos[CURVE - 1];
    s2r_task_config raw = s2r_task_config_default(opt->task);
    char error[S2R_ERROR_LEN], path[512], name[64];
    int obs_dim, act_dim;
    if (per_unit < most && z->demos >= most) per_unit = most;   /* the largest fine-tuning set */
    s2r_task_dims(opt->task, opt->robot, &obs_dim, &act_dim);
    for (k = 0; k < SETS; k++) {
        s2r_expert_config op = k == OP_SKILLED ? s2r_operator_config_skilled()
                             : k == OP_CEILING ? s2r_operator_config_ceiling() : s2r_operator_config_default();
        int count = k == OP_DEFAULT || per_unit < most ? per_unit : most, ok = 0;
        uint64_t stream = opt->seed + 77 + u->unit + (k >= OP_SKILLED ? (uint64_t)k << 32 : 0);   /* raw: the default's */
        stamp start = now();
        printf("Recording %d demonstrations by %s on unit #%llu ...\n", count, set_name[k], (unsigned long long)u->unit);
        fflush(stdout);
        if (s2r_dataset_init(&u->demos[k], obs_dim, act_dim) != S2R_OK ||
            s2r_collect_unit_demos(opt->robot, u->unit, k == OP_RAW_CAMERA ? &raw : &u->calibrated, &op, count, stream,
                                   opt->threads, &u->demos[k], &ok, error) != S2R_OK)
            return fail("demos", error);
        charge(&cost[RECORD], start, u->demos[k].count + (long long)count * (op.reaction_steps + op.setup_steps));
        printf("  %d of %d demonstrations ended on target (%d observation-action pairs)\n", ok, count,
               u->demos[k].count);
        u->recorded[k] = count;
        u->on_target[k] = ok;
        snprintf(name, sizeof name, "%s_unit%llu.bin", set_file[k], (unsigned long long)u->unit);
        if (s2r_dataset_save(&u->demos[k], output(path, sizeof path, opt, name), error) != S2R_OK)
            return fail("demos", error);
    }
    return 0;
}

static int demo_finetune(const s2r_options* opt, const sizes* z, const start_policy* from, const s2r_dataset* demos,
                         int n, int on_target_only, const unit_data* u, uint64_t seed, s2r_policy* p, int* changed,
                         int* cloned, int* spent, table* t, stage_cost* cost);
static int rl_finetune(const s2r_options* opt, const sizes* z, const start_policy* from, const unit_data* u, int n,
                       uint64_t seed, s2r_policy* p, int* changed, int* labelled, int* spent, table* t,
                       stage_cost* cost);
static int measure_kept(const s2r_options* opt, const sizes* z, const start_policy* from, s2r_policy* p, int changed,
                        uint64_t seed, uint64_t unit, s2r_sim_real_eval* out, s2r_eval_result* nominal,
                        stage_cost* cost);

/* One point of a way's curve: the policy `from` fine-tuned on the unit's
   first n = curve_demos[point] real episodes (demonstrations, or RL's own
   episodes), kept or not by a canary on the unit, and what was kept
   measured - into the curve, and into the row the point is, if it is one.
   A point beyond what the run records or spends is not measured; from the
   DR policy only the rows' points are. */
static int curve_point(const s2r_options* opt, const sizes* z, const start_policy* from, const unit_data* u, int way,
                       int point, uint64_t seed, table* t) {
    int n = curve_demos[point], row = curve_row(way, point), set = way_set[way], rl = set < 0;
    int changed = 0, cloned = 0, spent = 0, bad;
    stage_cost* cost = &t->cost[row >= 0 ? row : rl ? RL_CURVE : CURVE_POINTS];
    s2r_sim_real_eval one;
    s2r_eval_result nominal;
    s2r_policy p;
    if ((rl ? n > z->rl_episodes : n > u->recorded[set]) || (way >= DR_ON_TARGET && row < 0)) return 0;
    if (load_policy(&p, from->ckpt)) return 1;
    bad = rl ? rl_finetune(opt, z, from, u, n, seed, &p, &changed, &cloned, &spent, t, cost)
             : demo_finetune(opt, z, from, &u->demos[set], n, way != ALL_DEMOS, u, seed, &p, &changed, &cloned, &spent,
                             t, cost);
    if (!bad) bad = measure_kept(opt, z, from, &p, changed, seed, u->unit, &one, &nominal, cost);
    s2r_policy_free(&p);
    if (bad) return 1;
    s2r_eval_merge(&t->curve[way][point], &one.real);
    t->cloned[way][point] += cloned;
    t->spent[way][point] += spent;
    if (row < 0) return 0;
    s2r_sim_real_eval_pool(&t->row[row], &one);
    s2r_eval_merge(&t->nominal[row], &nominal);
    if (from->calibrated) s2r_eval_merge(&t->calibrated[row], &one.real);   /* the camera as it runs */
    s2r_sim_real_eval_print(row_name[row], &one);
    return 0;
}

static int curve_row(int way, int point) {
    int n = curve_demos[point], first = way == ON_TARGET ? DEMOS_100 : way == DR_ON_TARGET ? DR_DEMOS_100
                                      : way == RL_EPISODES ? RL_100 : way == DR_RL ? DR_RL_100 : -1;
    return first < 0 || (n != 100 && n != 1000) ? -1 : first + (n == 1000);
}

/* Behaviour cloning: `p` (the start policy) fine-tuned on the first n
   demos of the set - only those that ended on target, or all of them -
   checked by a canary on the unit (its own episodes, stream 2000 + seed;
   at most z->canary each, stopped by the library's sequential rule,
   s2r_canary_keep_sprt) that keeps a fine-tune only if it shows it better
   than the start policy there (t->kept counts which; *changed: it did).
   When none of the n ended on target there is nothing to clone: the point
   is the start policy, and t->kept[3] counts it.  *cloned: the demos
   cloned; *spent: unit episodes, the demos and the canary's. */
static int demo_finetune(const s2r_options* opt, const sizes* z, const start_policy* from, const s2r_dataset* demos,
                         int n, int on_target_only, const unit_data* u, uint64_t seed, s2r_policy* p, int* changed,
                         int* cloned, int* spent, table* t, stage_cost* cost) {
    static const char* const kept_name[2] = {"the fine-tune following the operator",
                                             "the fine-tune keeping its own actions"};
    stamp begun = now();
    s2r_real_robot real;
    s2r_dataset some;
    char error[S2R_ERROR_LEN];
    double canary[3];
    int bad = 0, kept = S2R_KEPT_UNCHANGED, run = 0;
    if (s2r_dataset_init(&some, demos->obs_dim, demos->act_dim) != S2R_OK) return fail("demos", some.error);
    if (s2r_dataset_append_episodes(&some, demos, 0, n, on_target_only, cloned) != S2R_OK) bad = fail("demos", some.error);
    if (!bad && *cloned == 0) {
        printf("  none of the first %d demos ended on target: nothing to fine-tune on, %s stays\n", n, from->name);
        t->kept[3]++;
    } else if (!bad && s2r_real_robot_init_scene(&real, opt->robot, s2r_task_scene(opt->task), u->unit) != S2R_OK)
        bad = fail("real robot", real.error);
    else if (!bad) {
        bad = s2r_finetune_on_unit(p, &some, z->finetune_epochs, seed, &real.backend, from->task, z->canary, 2000 + seed,
                                   canary, &kept, &run, error) != S2R_OK ? fail("fine-tune", error) : 0;
        s2r_real_robot_free(&real);
        if (!bad) printf("  %s (%s) fine-tuned on %4d of %4d demos (%s); canary over %3d unit episodes: %3.0f %% "
                         "following the operator, %3.0f %% keeping its own actions too, %3.0f %% as it was: kept %s\n",
                         from->name, from->ckpt, *cloned, n, on_target_only ? "those on target" : "all", run,
                         100 * canary[S2R_KEPT_FOLLOWING], 100 * canary[S2R_KEPT_OWN_ACTIONS],
                         100 * canary[S2R_KEPT_UNCHANGED], kept == S2R_KEPT_UNCHANGED ? from->name : kept_name[kept]);
        if (!bad) t->kept[kept]++;
        charge(cost, begun, (long long)run * episode_steps(opt, u));
    }
    *changed = kept != S2R_KEPT_UNCHANGED;
    *spent = n + run;
    s2r_dataset_free(&some);
    return bad;
}

/* RL: `p` (the start policy) continued by PPO on the unit for n of its
   episodes (s2r_finetune_by_rl with the library's defaults: the success
   label a person gives at an episode's end as the only reward, learning
   rate 3e-5, KL anchor 1 to the start policy, 10 episodes a batch; its
   streams 4000 + seed), its canary the demo rows' (at most z->canary
   episodes each, stream 2000 + seed).  t->rl_kept counts what it kept;
   *labelled: episodes labelled a success; *spent: unit episodes, the
   budget and the canary's. */
static int rl_finetune(const s2r_options* opt, const sizes* z, const start_policy* from, const unit_data* u, int n,
                       uint64_t seed, s2r_policy* p, int* changed, int* labelled, int* spent, table* t,
                       stage_cost* cost) {
    s2r_rl_finetune_config c = s2r_rl_finetune_config_default();
    s2r_rl_finetune_result res;
    s2r_real_robot real;
    char error[S2R_ERROR_LEN];
    stamp begun = now();
    int bad;
    c.episodes = n;
    c.canary_episodes = z->canary;
    c.seed = 4000 + seed;        /* streams of its own: evaluations 1000 + seed, interventions 3000 + seed */
    c.canary_seed = 2000 + seed;
    if (s2r_real_robot_init_scene(&real, opt->robot, s2r_task_scene(opt->task), u->unit) != S2R_OK)
        return fail("real robot", real.error);
    bad = s2r_finetune_by_rl(p, &real.backend, from->task, &c, &res, error) != S2R_OK ? fail("RL fine-tune", error) : 0;
    s2r_real_robot_free(&real);
    if (bad) return 1;
    printf("  %s (%s) RL on %4d unit episodes: %4d labelled a success, %3d updates, %3d batches without one; ",
           from->name, from->ckpt, n, res.labelled, res.updates, res.skipped);
    if (res.flags & S2R_RL_NO_SUCCESS) printf("nothing to learn from, %s stays\n", from->name);
    else printf("canary over %3d unit episodes: %3.0f %% fine-tuned, %3.0f %% as it was: kept %s\n", res.canary_episodes,
                100 * res.canary_finetune, 100 * res.canary_policy, res.kept ? "the fine-tune" : from->name);
    t->rl_kept[res.kept ? 0 : res.flags & S2R_RL_NO_SUCCESS ? 2 : 1]++;
    *changed = res.kept;
    *labelled = res.labelled;
    *spent = n + res.canary_episodes;
    charge(cost, begun, (long long)*spent * episode_steps(opt, u));
    return 0;
}

/* What a point measures: the policy it kept in the start policy's
   simulator and on the unit, and in the nominal simulator - or, when it
   kept the start policy, the measurement that policy has already. */
static int measure_kept(const s2r_options* opt, const sizes* z, const start_policy* from, s2r_policy* p, int changed,
                        uint64_t seed, uint64_t unit, s2r_sim_real_eval* out, s2r_eval_result* nominal,
                        stage_cost* cost) {
    s2r_sim_real_eval none;
    memset(&none, 0, sizeof none);
    memset(nominal, 0, sizeof *nominal);
    if (!changed) {
        *out = from->measured;
        *nominal = from->nominal;
        return 0;
    }
    if (evaluate_row(opt, z, p, seed, unit, from->task, from->sim, &none, out, cost)) return 1;
    if (!from->sim) *nominal = out->sim;   /* its simulator is the nominal one */
    return from->sim ? nominal_sim(opt, z, p, seed, nominal, cost) : 0;
}

/* The demo curve's third way: interventions instead of demonstrations.
   HG-DAgger (s2r_hg_dagger_round) from the sysID policy on the unit with
   its calibrated camera: the policy drives, the operator takes over where
   it is about to fail (s2r_takeover_rule_default) and only the operator's
   corrections are cloned.  The rounds grow so that their intervention
   episodes add up to the curve's points (10, 20, 70, 200, 700: 10, 30,
   100, 300 and 1000 in all); each round fine-tunes on every correction so
   far, and its fine-tune is kept only if it beats the policy as it was in
   a canary on the unit (z->canary episodes each, the demo rows' canary;
   counted in `spent`; at most z->canary each, stopped by the sequential
   rule, s2r_canary_keep_sprt).  The policy as it stands after each round
   is measured like a demo-curve point - after a round that kept the policy
   as it was, by the measurement it had (as_start, the start policy's, for
   the first rounds): the same policy on the same episodes. */
static int interventions_curve(const s2r_options* opt, const sizes* z, const char* start, const unit_data* u,
                               uint64_t seed, const s2r_sim_real_eval* as_start, table* t, stage_cost* cost) {
    s2r_hg_dagger_config cfg = s2r_hg_dagger_config_default(opt->task);
    s2r_hg_dagger hg;
    s2r_hg_dagger_stats round;
    s2r_sim_real_eval one = *as_start, none;   /* one: the policy as it stands, measured */
    s2r_policy p;
    int i, bad, taken = 0;
    memset(&none, 0, sizeof none);
    cfg.epochs = z->finetune_epochs;
    cfg.canary_episodes = z->canary;
    cfg.seed = 3000 + seed;   /* streams of its own: evaluations use 1000 + seed, the demo canaries 2000 + seed */
    cfg.threads = opt->threads;
    if (load_policy(&p, start)) return 1;
    bad = s2r_hg_dagger_init(&hg, &cfg, &p, opt->robot, u->unit, &u->calibrated) != S2R_OK
        ? fail("interventions", hg.error) : 0;
    for (i = 1; i < CURVE && !bad && curve_demos[i] <= z->interventions; i++) {
        stamp begun = now();
        hg.config.episodes_per_round = curve_demos[i] - curve_demos[i - 1];
        if ((bad = s2r_hg_dagger_round(&hg, &round) != S2R_OK ? fail("interventions", hg.error) : 0) != 0) break;
        charge(cost, begun, round.operator_steps + round.policy_steps +
                            (long long)round.canary_episodes * episode_steps(opt, u));
        taken += round.taken_over;
        printf("  interventions, round %d: %4d episodes (%4d taken over, %4d on target), %6d corrections in all",
               round.round, round.episodes, round.taken_over, round.successes, round.corrections);
        if (round.finetuned && round.canary_episodes > 0)
            printf("; canary %3.0f %% fine-tuned, %3.0f %% as it was", 100 * round.canary_finetune,
                   100 * round.canary_policy);
        printf(": %s%s%s\n", !round.finetuned ? "nothing fine-tuned" : round.kept ? "kept the fine-tune"
               : "kept the policy as it was", round.flags & S2R_HG_NEVER_TOOK_OVER ? "; the operator never took over" : "",
               round.flags & S2R_HG_ALWAYS_TOOK_OVER ? "; the operator drove throughout" : "");
        if (round.kept &&
            (bad = evaluate_row(opt, z, &p, seed, u->unit, &u->calibrated, &u->identified, &none, &one, cost)) != 0)
            break;
        s2r_eval_merge(&t->curve[INTERVENTIONS][i], &one.real);
        t->cloned[INTERVENTIONS][i] += taken;
        t->spent[INTERVENTIONS][i] += (int)round.real_episodes;
        printf("  after %4d intervention episodes (%lld on the unit with the canaries): real %5.1f %%\n", curve_demos[i],
               round.real_episodes, 100 * one.real.success_rate);
    }
    s2r_hg_dagger_free(&hg);
    s2r_policy_free(&p);
    return bad;
}

/* Control steps in one of the task's episodes on the unit: what a canary
   episode counts in the stage's environment steps. */
static int episode_steps(const s2r_options* opt, const unit_data* u) {
    return opt->task == S2R_TASK_PUSH ? u->calibrated.push.episode_steps : u->calibrated.reach.episode_steps;
}

/* Behaviour cloning from scratch on every demo. */
static int real_only_row(const s2r_options* opt, const sizes* z, const s2r_dataset* demos, uint64_t seed,
                         uint64_t unit, const s2r_task_config* task, s2r_sim_real_eval* pooled, stage_cost* cost) {
    stamp start = now();
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

/* "87.5 [85.1, 89.6]" in percent, or "n/a". */
static const char* cell(char* buf, size_t cap, const s2r_eval_result* e) {
    if (e->episodes == 0) snprintf(buf, cap, "n/a");
    else snprintf(buf, cap, "%.1f [%.1f, %.1f]", 100 * e->success_rate, 100 * e->success_lo, 100 * e->success_hi);
    return buf;
}

/* What the table's files say of the run's sizes: "smoke" (--smoke: the
   pipeline checked, nothing measured), "quick" (--quick: a small table) or
   "full". */
static const char* sizes_name(const s2r_options* opt) {
    return opt->smoke ? "smoke" : opt->quick ? "quick" : "full";
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
    int r, shown, measured, last, full;
    if (!md) return 1;
    if (opt->smoke)
        fprintf(md, "Smoke run (--smoke): the smallest sizes, that check the pipeline end to end and train nothing; "
                    "not a measurement of the recipe.\n\n");
    if (opt->quick)
        fprintf(md, "Quick table (--quick): one seed, %d episodes a row, %lld training steps from scratch and %lld "
                    "for each continuing row, %d demonstrations: the recipe's shape with wide intervals, not the full "
                    "table's numbers.\n\n", z->episodes, z->fresh_steps, z->warm_steps, z->demos);
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
    fprintf(md, "\nSim: the simulator each recipe trusts - the nominal model for the rows without system ID, the unit's "
                "identified model for the system-ID rows; in the nominal model those score");
    for (r = SYSID, measured = 0; r < REAL_ONLY; r++) measured += on_identified(r) && t->nominal[r].episodes > 0;   /* a quick run has no 1000-demo row */
    for (r = SYSID, shown = 0; r < REAL_ONLY; r++)
        if (on_identified(r) && t->nominal[r].episodes > 0 && ++shown)
            fprintf(md, "%s %s %%", shown == 1 ? "" : shown == measured ? " and" : ",", cell(a, sizeof a, &t->nominal[r]));
    fprintf(md, ".\n");
    fprintf(md, "\nThe camera-aware DR row continues the pure-sim policy as the DR row does, on the same ranges with "
                "the camera's calibration error added (target_offset +-%.0f mm per axis) and %d frames of memory.  "
                "The demo rows clone only the demonstrations that ended on target", 1000 * S2R_CALIBRATION_ACCURACY,
            S2R_CALIBRATION_MEMORY);
    for (r = 0; r < CURVE; r++)
        if ((curve_demos[r] == 100 || curve_demos[r] == 1000) && t->curve[ALL_DEMOS][r].episodes)
            fprintf(md, "%s %d of %d", curve_demos[r] == 100 ? ":" : " and", t->cloned[ON_TARGET][r],
                    t->cloned[ALL_DEMOS][r]);
    fprintf(md, "; cloning every one of them instead:");
    for (r = 0; r < CURVE; r++)
        if ((curve_demos[r] == 100 || curve_demos[r] == 1000) && t->curve[ALL_DEMOS][r].episodes)
            fprintf(md, "%s %s %%", curve_demos[r] == 100 ? "" : " and", cell(a, sizeof a, &t->curve[ALL_DEMOS][r]));
    fprintf(md, " (the demo curve, both ways: demo_curve.csv).  The DR + demos rows fine-tune the DR policy the same "
                "way, with no system ID, on the same operator's demonstrations of the same episodes recorded through the "
                "uncalibrated camera, those on target:");
    for (r = 0, shown = 0; r < CURVE; r++)
        if (curve_row(DR_ON_TARGET, r) >= 0 && t->curve[DR_ON_TARGET][r].episodes)
            fprintf(md, "%s %d of %d", shown++ ? " and" : "", t->cloned[DR_ON_TARGET][r], curve_demos[r] * opt->seeds);
    fprintf(md, "%s.\n", shown ? "" : " none measured");
    fprintf(md, "\nThe RL rows continue PPO on the unit itself for that many of its episodes (s2r_finetune_by_rl with "
                "the library's defaults: the only reward is the success label a person gives at an episode's end; "
                "learning rate 3e-5, a KL anchor of 1 to the policy it starts from, 10 episodes a batch), kept only if "
                "the same canary shows it better: of %d RL fine-tunes (the RL curve's included) the canary kept %d, "
                "the policy as it was %d, and %d had no episode labelled a success (nothing trained).  From the sysID "
                "policy, real success against the unit episodes learnt from:", t->rl_kept[0] + t->rl_kept[1] +
                t->rl_kept[2], t->rl_kept[0], t->rl_kept[1], t->rl_kept[2]);
    for (r = 1, shown = 0; r < CURVE; r++)
        if (t->curve[RL_EPISODES][r].episodes)
            fprintf(md, "%s %s %% after %d", shown++ ? "," : "", cell(a, sizeof a, &t->curve[RL_EPISODES][r]),
                    curve_demos[r]);
    fprintf(md, "%s (demo_curve.csv, with the unit episodes each point cost, canaries included).\n",
            shown ? "" : " none measured");
    fprintf(md, "\nThe teacher: each operator's own success on the units (its demonstrations that ended on target) -");
    for (r = 0; r < SETS; r++)
        fprintf(md, "%s %s %d of %d (%.1f %%)", r ? (r == SETS - 1 ? " and" : ",") : "", set_name[r], t->on_target[r],
                t->recorded[r], t->recorded[r] ? 100.0 * t->on_target[r] / t->recorded[r] : 0.0);
    fprintf(md, "; the ceiling is the scripted expert on the true scene, what demonstrations could teach at best.  "
                "Fine-tuning the sysID policy on each one's demonstrations that ended on target:");
    for (r = 1; r < CURVE; r++) {
        static const int teacher[3] = {ON_TARGET, SKILLED, CEILING};
        int k;
        if (!t->curve[ON_TARGET][r].episodes || (curve_demos[r] != 100 && curve_demos[r] != 1000)) continue;
        fprintf(md, "%s %d demos,", curve_demos[r] == 100 ? "" : ";", curve_demos[r]);
        for (k = 0; k < 3; k++)
            fprintf(md, "%s %s %s %%", k ? (k == 2 ? " and" : ",") : "", k == 0 ? "default" : k == 1 ? "skilled" : "ceiling",
                    cell(a, sizeof a, &t->curve[teacher[k]][r]));
    }
    fprintf(md, " (each operator's demo curve: demo_curve.csv).");
    for (r = 0, last = -1, full = 0; r < CURVE; r++)   /* its 100 and 1000 points; a quick run's last one */
        if (t->curve[INTERVENTIONS][r].episodes) {
            last = r;
            full |= curve_demos[r] == 100 || curve_demos[r] == 1000;
        }
    if (last > 0)
        fprintf(md, "  Interventions instead of demonstrations (HG-DAgger from the sysID policy: it drives, the operator "
                    "takes over where it is about to fail, its corrections are cloned, in rounds kept by the same "
                    "canary):");
    for (r = 0, shown = 0; r < CURVE && last > 0; r++)
        if (t->curve[INTERVENTIONS][r].episodes && (full ? curve_demos[r] == 100 || curve_demos[r] == 1000 : r == last))
            fprintf(md, "%s %s %% after %d episodes per unit (%d unit episodes in all, canaries included)",
                    shown++ == 0 ? "" : " and", cell(a, sizeof a, &t->curve[INTERVENTIONS][r]), curve_demos[r],
                    t->spent[INTERVENTIONS][r]);
    fprintf(md, last > 0 ? ".\n" : "\n");
    fprintf(md, "\n%s; %d training seed(s), %llu..%llu, paired in order with real units #%llu..#%llu; %d episodes per row per seed "
                "(pooled, Wilson 95 %% intervals; the gap's is Newcombe's); %d demonstrations recorded over the "
                "units by the default operator; each demonstration fine-tune ran at most 3 x %d canary episodes on "
                "its unit (its two fine-tunes and the policy it started from) and kept the start policy %d, the "
                "fine-tune following the operator %d and the one keeping its own actions %d times (of %d, the demo "
                "curves' included)", s2r_robot_kind_name(opt->robot),
            opt->seeds, (unsigned long long)opt->seed, (unsigned long long)(opt->seed + (uint64_t)opt->seeds - 1),
            (unsigned long long)opt->real_seed, (unsigned long long)(opt->real_seed + (uint64_t)opt->seeds - 1), z->episodes, t->pooled_demos, z->canary,
            t->kept[S2R_KEPT_UNCHANGED], t->kept[S2R_KEPT_FOLLOWING], t->kept[S2R_KEPT_OWN_ACTIONS],
            t->kept[0] + t->kept[1] + t->kept[2]);
    if (t->kept[3]) fprintf(md, "; %d set(s) had no demonstration on target and fine-tuned nothing", t->kept[3]);
    fprintf(md, "; %.0f s wall, peak memory %.0f MiB.\n", seconds, peak);
    if (t->over[PURE].seeds >= 2) {
        fprintf(md, "\nOver seeds: each seed's real success on its own unit is one run, and these intervals say what "
                    "another seed on another unit would give, where the pooled ones above count episodes (mean over "
                    "the %d seeds, Student-t 95 %%); each step against the row it is judged by, paired by seed, so "
                    "what is common to a seed and its unit cancels.\n\n"
                    "| Recipe | Real success %%, over seeds | Against | Difference, points, paired | Ahead / behind |\n"
                    "|---|---|---|---|---|\n", t->over[PURE].seeds);
        for (r = 0; r < ROWS; r++) {
            const over_seeds* o = &t->over[r];
            if (o->seeds < 2) continue;
            fprintf(md, "| %s | %.1f [%.1f, %.1f] |", row_short[r], 100 * o->mean, 100 * o->lo, 100 * o->hi);
            if (row_against[r] < 0) fprintf(md, " | | |\n");
            else
                fprintf(md, " %s | %+.1f [%+.1f, %+.1f] | %d / %d of %d |\n", row_short[row_against[r]], 100 * o->diff,
                        100 * o->diff_lo, 100 * o->diff_hi, o->ahead, o->behind, o->pairs);
        }
    }
    return end_file(&file);
}

static int write_csvs(const s2r_options* opt, const table* t, double seconds, double peak) {
    s2r_file file;
    FILE* csv = begin_file(&file, opt, "table.csv");
    int r, w;
    if (!csv) return 1;
    fprintf(csv, "recipe,sim_episodes,sim_success,sim_lo,sim_hi,real_episodes,real_success,real_lo,real_hi,gap,"
                 "gap_lo,gap_hi,calibrated_success,calibrated_lo,calibrated_hi,sim_model,nominal_sim_success,"
                 "nominal_sim_lo,nominal_sim_hi,calibrated_episodes,sizes\n");
    for (r = 0; r < ROWS; r++) {
        const s2r_sim_real_eval* e = &t->row[r];
        int has_sim = r != REAL_ONLY;
        fprintf(csv, "%s,%d,%.4f,%.4f,%.4f,%d,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%s,%.4f,%.4f,%.4f,%d,%s\n",
                row_file[r], has_sim ? e->sim.episodes : 0, has_sim ? e->sim.success_rate : 0.0,
                has_sim ? e->sim.success_lo : 0.0, has_sim ? e->sim.success_hi : 0.0,
                e->real.episodes, e->real.success_rate, e->real.success_lo, e->real.success_hi,
                has_sim ? e->gap : 0.0, has_sim ? e->gap_lo : 0.0, has_sim ? e->gap_hi : 0.0,
                t->calibrated[r].success_rate, t->calibrated[r].success_lo,
                t->calibrated[r].success_hi, r == REAL_ONLY ? "none" : on_identified(r) ? "identified" : "nominal",
                t->nominal[r].success_rate, t->nominal[r].success_lo, t->nominal[r].success_hi,
                t->calibrated[r].episodes, sizes_name(opt));   /* 0: not measured with the camera calibrated */
    }
    if (end_file(&file) || !(csv = begin_file(&file, opt, "over_seeds.csv"))) return 1;
    fprintf(csv, "recipe,seeds,real_mean,real_lo,real_hi,against,pairs,difference,difference_lo,difference_hi,ahead,"
                 "behind,sizes\n");
    for (r = 0; r < ROWS; r++) {
        const over_seeds* o = &t->over[r];
        if (o->seeds > 0)
            fprintf(csv, "%s,%d,%.4f,%.4f,%.4f,%s,%d,%.4f,%.4f,%.4f,%d,%d,%s\n", row_file[r], o->seeds, o->mean, o->lo,
                    o->hi, row_against[r] < 0 ? "none" : row_file[row_against[r]], o->pairs, o->diff, o->diff_lo,
                    o->diff_hi, o->ahead, o->behind, sizes_name(opt));
    }
    if (end_file(&file) || !(csv = begin_file(&file, opt, "demo_curve.csv"))) return 1;
    fprintf(csv, "demos,cloned,demos_cloned,unit_episodes,real_episodes,real_success,real_lo,real_hi,sizes\n");
    for (w = 0; w < WAYS; w++)
        for (r = 0; r < CURVE; r++) {
            const s2r_eval_result* e = &t->curve[w][r];
            if (e->episodes > 0)
                fprintf(csv, "%d,%s,%d,%d,%d,%.4f,%.4f,%.4f,%s\n", curve_demos[r], way_name[w], t->cloned[w][r],
                        t->spent[w][r], e->episodes, e->success_rate, e->success_lo, e->success_hi, sizes_name(opt));
        }
    if (end_file(&file) || !(csv = begin_file(&file, opt, "timing.csv"))) return 1;
    fprintf(csv, "robot,task,stage,wall_s,cpu_s,env_steps,measures\n");
    for (r = 0; r < STAGES; r++)
        fprintf(csv, "%s,%s,%s,%.1f,%.1f,%lld,\"%s\"\n", s2r_robot_kind_name(opt->robot), s2r_task_kind_name(opt->task),
                stage_file[r], t->cost[r].wall_s, t->cost[r].cpu_s, t->cost[r].env_steps, stage_measures[r]);
    if (end_file(&file) || !(csv = begin_file(&file, opt, "run.csv"))) return 1;
    fprintf(csv, "robot,seeds,quick,wall_seconds,peak_memory_mib,sizes\n%s,%d,%d,%.0f,%.1f,%s\n",
            s2r_robot_kind_name(opt->robot), opt->seeds, opt->quick, seconds, peak, sizes_name(opt));
    return end_file(&file);
}

static int plot_table(const s2r_options* opt, const table* t) {
    static const char* curve_label[WAYS] = {"demos on target (default operator)", "demos, cloning all",
                                            "interventions (HG-DAgger)", "demos on target (skilled operator)",
                                            "demos on target (ceiling, a reference)", "RL on the unit's episodes",
                                            "from DR: demos on target", "from DR: RL"};
    double v[3][ROWS], lo[3][ROWS], hi[3][ROWS], x[CURVE], y[CURVE], ylo[CURVE], yhi[CURVE];
    s2r_figure fig;
    s2r_plot_style style = s2r_plot_style_default();
    char path[512], title[128];
    int r, k, w, n;
    for (r = 0; r < ROWS; r++) {
        const s2r_eval_result* e[3] = {&t->row[r].sim, &t->row[r].real, &t->calibrated[r]};
        for (k = 0; k < 3; k++) {
            int empty = e[k]->episodes == 0 || (k == 0 && r == REAL_ONLY);
            v[k][r] = empty ? NAN : e[k]->success_rate;
            lo[k][r] = empty ? NAN : e[k]->success_lo;
            hi[k][r] = empty ? NAN : e[k]->success_hi;
        }
    }
    if (s2r_figure_init(&fig, 1600, 1000, 2, 1) != S2R_OK) return fail("figure", fig.error);
    snprintf(title, sizeof title, "The recipe on the %s (%d seed(s), real units from #%llu)", s2r_robot_kind_name(opt->robot),
             opt->seeds, (unsigned long long)opt->real_seed);
    s2r_figure_title(&fig, title);
    s2r_panel_labels(&fig, 0, "success with Wilson 95 % intervals", "", "success rate");
    s2r_panel_categories(&fig, 0, row_short, ROWS);
    s2r_panel_yrange(&fig, 0, 0, 1);
    style.label = "simulation";
    s2r_plot_bars(&fig, 0, v[0], lo[0], hi[0], ROWS, &style);
    style.label = "real unit";
    s2r_plot_bars(&fig, 0, v[1], lo[1], hi[1], ROWS, &style);
    style.label = "real, camera calibrated";
    s2r_plot_bars(&fig, 0, v[2], lo[2], hi[2], ROWS, &style);
    s2r_panel_labels(&fig, 1, "real success against real episodes (from the sysID policy, unless from DR)",
                     "demonstrations, intervention or RL episodes", "real success rate");
    s2r_panel_yrange(&fig, 1, 0, 1);
    for (w = 0; w < WAYS; w++) {
        for (r = n = 0; r < CURVE; r++)
            if (t->curve[w][r].episodes > 0) {
                const s2r_eval_result* e = &t->curve[w][r];
                x[n] = curve_demos[r]; y[n] = e->success_rate; ylo[n] = e->success_lo; yhi[n] = e->success_hi;
                n++;
            }
        style = s2r_plot_style_default();
        style.marker = (s2r_marker)(S2R_MARKER_CIRCLE + w % 3);
        style.line = w >= DR_ON_TARGET ? S2R_LINE_DASHED : S2R_LINE_SOLID;
        style.label = curve_label[w];
        if (n > 0) {
            s2r_plot_line(&fig, 1, x, y, n, &style);
            style.label = NULL;
            s2r_plot_band(&fig, 1, x, ylo, yhi, n, &style);
        }
    }
    r = s2r_figure_write_png(&fig, output(path, sizeof path, opt, "table.png")) != S2R_OK;
    if (r) fail(path, fig.error);
    s2r_figure_free(&fig);
    return r;
}

/* The DR ranges every DR row starts from, as a ranges file, and the
   camera-aware row's (the same with the camera's calibration). */
static int write_dr_ranges(const s2r_options* opt) {
    s2r_randomization dr;
    char path[512], error[S2R_ERROR_LEN];
    if (s2r_options_ranges(opt, &dr, error) != S2R_OK) return fail("DR ranges", error);
    if (s2r_randomization_write(&dr, output(path, sizeof path, opt, "dr_ranges.txt"), error) != S2R_OK)
        return fail("DR ranges", error);
    s2r_randomization_add_calibration(&dr);
    if (s2r_randomization_write(&dr, output(path, sizeof path, opt, "dr_camera_ranges.txt"), error) != S2R_OK)
        return fail("DR ranges", error);
    return 0;
}


#define S2R_07_THE_TABLE   /* the jobs, their records and the merge: the file's second half */
#include "07_the_table_jobs.h"

int main(int argc, char** argv) {
    s2r_options opt;
    run r;
    job j;
    char error[S2R_ERROR_LEN];
    double start = s2r_seconds();
    int status, s, bad = 0;

    if (s2r_example_start(&opt, argc, argv, "every row of the recipe table; --job NAME runs one job of it (unit:S, "
                          "chain:S, real-only:S for S = 1..--seeds, merge; --job list prints them in order)",
                          S2R_OPT_ROBOT | S2R_OPT_TASK | S2R_OPT_SEED | S2R_OPT_REAL_SEED | S2R_OPT_SEEDS | S2R_OPT_THREADS |
                          S2R_OPT_OUT | S2R_OPT_QUICK | S2R_OPT_SMOKE | S2R_OPT_RESUME | S2R_OPT_RANGES | S2R_OPT_JOB | S2R_STAGE_DEMOS,
                          &status) != S2R_OK)
        return status;
    if (opt.smoke) opt.quick = 0;   /* --smoke wins: a notebook's `--quick --smoke` is the tests' run */
    if ((opt.quick || opt.smoke) && !(opt.given & S2R_OPT_SEEDS)) opt.seeds = 1;   /* one seed unless asked */
    /* Everything that can be checked, before any work. */
    if (opt.job[0] && parse_job(opt.job, opt.seeds, &j)) return 2;
    if (!opt.job[0]) j = make_job(JOB_KINDS, 0);   /* all of them */
    if (s2r_options_check(&opt, error) != S2R_OK || s2r_options_digest(&opt, &r.settings, error) != S2R_OK)
        return fail("--ranges", error) + 1;
    if (j.kind == LIST_JOBS) { list_jobs(&opt); return 0; }
    r.opt = &opt;
    r.z = choose_sizes(&opt);
    r.build = s2r_build_digest();
    s2r_interrupt_catch();   /* Ctrl-C saves the running training's state; --resume goes on */
    printf("The recipe table on the %s, %d seed(s) paired with real units #%llu..#%llu%s%s%s\n",
           s2r_robot_kind_name(opt.robot), opt.seeds, (unsigned long long)opt.real_seed,
           (unsigned long long)(opt.real_seed + opt.seeds - 1), opt.smoke ? " (smoke)" : opt.quick ? " (quick)" : "", opt.job[0] ? ": job " : "",
           opt.job);

    if (j.kind == JOB_KINDS || (j.kind == UNIT_JOB && j.index == 1)) bad = write_dr_ranges(&opt);
    if (!bad && j.kind == JOB_KINDS) bad = run_units(&r, 1, opt.seeds);
    for (s = 1; s <= opt.seeds && !bad && j.kind == JOB_KINDS; s++) bad = s2r_example_stopped() || run_chain_job(&r, s);
    for (s = 1; s <= opt.seeds && !bad && j.kind == JOB_KINDS; s++) bad = s2r_example_stopped() || run_real_only_job(&r, s);
    if (!bad && j.kind == UNIT_JOB) bad = run_units(&r, j.index, 1);
    if (!bad && j.kind == CHAIN_JOB) bad = run_chain_job(&r, j.index);
    if (!bad && j.kind == REAL_ONLY_JOB) bad = run_real_only_job(&r, j.index);
    if (!bad && (j.kind == JOB_KINDS || j.kind == MERGE_JOB))
        bad = merge(&r, j.kind == JOB_KINDS ? s2r_seconds() - start : 0, s2r_peak_memory_mib());
    if (bad) return s2r_interrupt_requested() ? 130 : 1;
    printf("%swall time %.0f s, peak memory %.0f MiB\n", opt.job[0] ? "this job: " : "", s2r_seconds() - start,
           s2r_peak_memory_mib());
    return 0;
}
