/* 01_the_gap.c - the sim-to-real gap, before and after learning in pure sim.

   Part 1.  One scripted controller (see "Scripted controller" in
   sim2real.h: for reach, inverse kinematics to the perceived target, then
   joint servoing; for push, get behind the object and push it along the
   line to the goal) runs the task (--task reach|push) on five robots that
   all look the same through the backend interface: the nominal simulator,
   a randomized simulator, and three units of the stand-in real fleet.  The
   controller is identical; what changes is the robot under it.  On the
   real units it meets a camera calibration offset, slower servos, longer
   latency, friction and backlash that the simulator never showed it, and
   for push the unit's own table, object and camera - the gap, visible
   before a single policy is trained.

   Part 2.  Pure sim training: PPO on the nominal simulator only, then the
   trained policy evaluated in sim and on the same real units.  This is the
   first row of the recipe table.

   Uses: s2r_sim_init, s2r_real_robot_init_scene, s2r_task_init, s2r_expert_init,
         s2r_evaluate, s2r_task_ppo_config, s2r_ppo_init, s2r_training_check_resume, s2r_train,
         s2r_plot_training_csv, s2r_policy_save, s2r_evaluate_sim_and_real, s2r_figure_*.
   Writes: DIR/01_the_gap.csv, DIR/01_the_gap.png, DIR/01_pure_sim.ckpt,
           DIR/01_pure_sim_training.csv, DIR/01_pure_sim_training.png,
           DIR/01_pure_sim.csv; with --task push the same names with
           _push after the number (DIR/01_push_the_gap.csv, ...;
           s2r_task_path), so the two tasks share a folder.
   Next: 02_domain_randomization.c - the same PPO on randomized physics. */
#define SIM2REAL_IMPLEMENTATION
#include "../sim2real.h"
#include "../sim2real_reports.h"
#include "s2r_cli.h"
#include "s2r_figures.h"
#include <stdio.h>

#define ROBOTS 5        /* nominal, randomized, three real units */
#define MAX_STEPS 256   /* longest episode the curves hold */

typedef struct gap_row {
    char            name[48];
    s2r_eval_result result;
    double          curve[MAX_STEPS];   /* m, mean distance after each step */
} gap_row;

/* Evaluate the scripted controller on one backend. */
static s2r_result evaluate_expert(const s2r_options* opt, const s2r_backend* backend, int episodes, gap_row* row) {
    s2r_task task;
    s2r_task_config tc = s2r_task_config_default(opt->task);
    s2r_expert expert;
    s2r_expert_config ec = s2r_expert_config_default();
    s2r_controller controller;
    s2r_result res = s2r_task_init(&task, &tc, backend);
    if (res != S2R_OK) { fprintf(stderr, "%s\n", task.error); s2r_task_free(&task); return res; }
    if ((res = s2r_expert_init(&expert, &ec, &tc, backend->info)) != S2R_OK) { fprintf(stderr, "%s\n", expert.error); s2r_task_free(&task); return res; }
    controller = s2r_expert_controller(&expert);
    snprintf(row->name, sizeof row->name, "%s", backend->name);
    res = s2r_evaluate(&controller, &task, episodes, opt->seed, &row->result, row->curve);
    if (res != S2R_OK) fprintf(stderr, "%s\n", task.error);
    printf("  %-22s success %5.1f %%  [%5.1f, %5.1f]   final distance %5.1f mm\n", row->name,
           100 * row->result.success_rate, 100 * row->result.success_lo, 100 * row->result.success_hi,
           1000 * row->result.mean_distance);
    s2r_expert_free(&expert);
    s2r_task_free(&task);
    return res;
}

/* The five robots, one after the other. */
static s2r_result measure_gap(const s2r_options* opt, int episodes, gap_row rows[ROBOTS]) {
    s2r_sim sim;
    s2r_sim_config sc = s2r_task_sim_config(opt->task, opt->robot);
    s2r_result res;
    int u;
    if ((res = s2r_sim_init(&sim, &sc)) != S2R_OK) { fprintf(stderr, "%s\n", sim.error); return res; }
    sim.backend.name = "nominal sim";
    res = evaluate_expert(opt, &sim.backend, episodes, &rows[0]);
    s2r_sim_free(&sim);
    sc.randomization = s2r_task_randomization(opt->task);
    if (res == S2R_OK && (res = s2r_sim_init(&sim, &sc)) == S2R_OK) {
        sim.backend.name = "randomized sim";
        res = evaluate_expert(opt, &sim.backend, episodes, &rows[1]);
        s2r_sim_free(&sim);
    }
    for (u = 0; u < 3 && res == S2R_OK; u++) {
        s2r_real_robot real;
        if ((res = s2r_real_robot_init_scene(&real, opt->robot, s2r_task_scene(opt->task), opt->real_seed + (uint64_t)u)) != S2R_OK) {
            fprintf(stderr, "%s\n", real.error);
            break;
        }
        res = evaluate_expert(opt, &real.backend, episodes, &rows[2 + u]);
        s2r_real_robot_free(&real);
    }
    return res;
}

static s2r_result write_csv(const char* path, const gap_row rows[ROBOTS], int episodes) {
    s2r_file file;
    FILE* f = s2r_output_create(&file, path);
    int i;
    if (!f) return S2R_ERR_IO;
    fprintf(f, "robot,episodes,successes,success_rate,success_lo,success_hi,mean_final_distance_m\n");
    for (i = 0; i < ROBOTS; i++)
        fprintf(f, "%s,%d,%d,%.4f,%.4f,%.4f,%.5f\n", rows[i].name, episodes, rows[i].result.successes,
                rows[i].result.success_rate, rows[i].result.success_lo, rows[i].result.success_hi,
                rows[i].result.mean_distance);
    return s2r_output_commit(&file);
}

static s2r_result plot_gap(const char* path, const char* robot, const gap_row rows[ROBOTS], int steps, double dt,
                           const char* measure, double radius) {
    s2r_figure fig;
    double time[MAX_STEPS], mm[MAX_STEPS], rate[ROBOTS], lo[ROBOTS], hi[ROBOTS];
    const char* names[ROBOTS];
    char title[96];
    s2r_plot_style style = s2r_plot_style_default();
    s2r_result res;
    int i, t;
    if ((res = s2r_figure_init(&fig, 1300, 480, 1, 2)) != S2R_OK) return res;
    snprintf(title, sizeof title, "The gap: one scripted controller, five %s robots", robot);
    s2r_figure_title(&fig, title);
    s2r_panel_labels(&fig, 0, measure, "time (s)", "mean distance (mm)");
    for (i = 0; i < ROBOTS; i++) {
        for (t = 0; t < steps; t++) { time[t] = (t + 1) * dt; mm[t] = 1000 * rows[i].curve[t]; }
        style.label = rows[i].name;
        s2r_plot_line(&fig, 0, time, mm, steps, &style);
        names[i] = rows[i].name;
        rate[i] = rows[i].result.success_rate;
        lo[i] = rows[i].result.success_lo;
        hi[i] = rows[i].result.success_hi;
    }
    snprintf(title, sizeof title, "success radius %.0f mm", 1000 * radius);
    style.label = title;
    s2r_plot_hline(&fig, 0, 1000 * radius, &style);
    s2r_panel_labels(&fig, 1, "success (Wilson 95 % interval)", "", "success rate");
    s2r_panel_categories(&fig, 1, names, ROBOTS);
    s2r_panel_yrange(&fig, 1, 0, 1);
    style.label = NULL;
    s2r_plot_bars(&fig, 1, rate, lo, hi, ROBOTS, &style);
    res = s2r_figure_write_png(&fig, path);
    if (res != S2R_OK) fprintf(stderr, "%s\n", fig.error);
    s2r_figure_free(&fig);
    return res;
}

/* Part 2's run: its training and learner, made before part 1 so that a
   saved state that does not continue it (--resume) stops the example
   before any work. */
typedef struct pure_sim_run {
    s2r_training training;
    s2r_ppo      ppo;
    char         csv[512], state[512], name[64];
} pure_sim_run;

static s2r_result prepare_pure_sim(const s2r_options* opt, long long steps, pure_sim_run* run, char* error) {
    s2r_ppo_config pc = s2r_task_ppo_config(opt->task, steps, opt->seed, opt->threads);
    int obs_dim, act_dim;
    s2r_result res;
    run->training = s2r_training_default(opt->robot, opt->task);
    s2r_task_dims(opt->task, opt->robot, &obs_dim, &act_dim);
    if ((res = s2r_ppo_init(&run->ppo, &pc, obs_dim, act_dim)) != S2R_OK) {
        snprintf(error, S2R_ERROR_LEN, "%s", run->ppo.error);
        return res;
    }
    run->training.label = "pure sim";
    run->training.csv_path = s2r_task_path(run->csv, sizeof run->csv, opt, "01", "pure_sim_training.csv");
    s2r_training_use_options(&run->training, opt, s2r_task_name(run->name, sizeof run->name, opt, "01", "pure_sim"),
                             run->state, sizeof run->state);
    if ((res = s2r_training_check_resume(&run->training, &run->ppo, error)) != S2R_OK) s2r_ppo_free(&run->ppo);
    return res;
}

/* Part 2: PPO on the nominal simulator; checkpoint; sim and real success. */
static s2r_result train_pure_sim(const s2r_options* opt, pure_sim_run* run, int episodes) {
    s2r_controller policy;
    s2r_sim_real_eval eval;
    char error[S2R_ERROR_LEN] = "", csv[512], png[512], ckpt[512];
    s2r_result res;
    printf("\nPure sim: PPO on the nominal simulator for %lld steps\n", run->ppo.cfg.total_steps);
    res = s2r_train(&run->training, &run->ppo, error);
    if (res == S2R_OK)   /* its learning curve, from the CSV training wrote */
        res = s2r_plot_training_csv(run->training.csv_path, s2r_task_path(png, sizeof png, opt, "01", "pure_sim_training.png"),
                                    run->training.label, error);
    if (res == S2R_OK)
        res = s2r_policy_save(&run->ppo.policy, &run->ppo.adam, s2r_task_path(ckpt, sizeof ckpt, opt, "01", "pure_sim.ckpt"));
    if (res == S2R_OK && s2r_example_stopped()) return S2R_ERR_INTERRUPTED;
    policy = s2r_policy_controller(&run->ppo.policy);
    if (res == S2R_OK)
        res = s2r_evaluate_sim_and_real(&policy, opt->robot, &run->training.task, NULL, episodes, opt->seed + 1000,
                                        opt->real_seed, 3, &eval, error);
    if (res == S2R_OK) {
        s2r_sim_real_eval_print("pure sim (no DR)", &eval);
        res = s2r_sim_real_eval_write(s2r_task_path(csv, sizeof csv, opt, "01", "pure_sim.csv"), "pure sim", &eval, error);
    }
    if (res != S2R_OK) fprintf(stderr, "%s\n", error[0] ? error : run->ppo.policy.error);
    return res;
}

int main(int argc, char** argv) {
    static gap_row rows[ROBOTS];
    s2r_options opt;
    int status;
    static pure_sim_run run;
    s2r_task_config tc;
    s2r_result res;
    char csv[512], path[512], error[S2R_ERROR_LEN];
    int episodes, push;

    if (s2r_example_start(&opt, argc, argv, "one scripted controller on the simulator and on real units",
                          S2R_OPT_ROBOT | S2R_OPT_TASK | S2R_OPT_SEED | S2R_OPT_REAL_SEED | S2R_OPT_THREADS | S2R_OPT_OUT | S2R_OPT_QUICK | S2R_OPT_RESUME, &status) != S2R_OK)
        return status;
    episodes = opt.quick ? 20 : 100;
    tc = s2r_task_config_default(opt.task);
    push = opt.task == S2R_TASK_PUSH;
    s2r_interrupt_catch();   /* Ctrl-C or SIGTERM: training saves its state; either stops between stages, status 130 */
    if (prepare_pure_sim(&opt, opt.quick ? 16000 : s2r_task_training_steps(opt.task, 0), &run, error) != S2R_OK) {
        fprintf(stderr, "%s\n", error);   /* e.g. --resume with a state that does not continue this run */
        return 1;
    }

    printf("The gap on the %s: the same scripted %s controller, %d episodes per robot\n",
           s2r_robot_kind_name(opt.robot), s2r_task_kind_name(opt.task), episodes);
    res = measure_gap(&opt, episodes, rows);
    if (res == S2R_OK) {
        printf("The controller is the same everywhere; the difference is the robot.\n");
        res = write_csv(s2r_task_path(csv, sizeof csv, &opt, "01", "the_gap.csv"), rows, episodes);
    }
    if (res == S2R_OK)
        res = plot_gap(s2r_task_path(path, sizeof path, &opt, "01", "the_gap.png"), s2r_robot_kind_name(opt.robot), rows,
                       push ? tc.push.episode_steps : tc.reach.episode_steps,
                       push ? tc.push.control_period : tc.reach.control_period,
                       push ? "object to goal" : "distance to target",
                       push ? tc.push.success_radius : tc.reach.success_radius);
    if (res == S2R_OK) printf("wrote %s and %s\n", csv, path);
    if (res == S2R_OK && s2r_example_stopped()) res = S2R_ERR_INTERRUPTED;
    if (res == S2R_OK) res = train_pure_sim(&opt, &run, episodes);
    s2r_ppo_free(&run.ppo);
    if (res == S2R_ERR_INTERRUPTED) fprintf(stderr, "run again with --resume to continue\n");
    if (res != S2R_OK) return res == S2R_ERR_INTERRUPTED ? 130 : 1;
    printf("The difference between the two success rates is the gap pure simulation training leaves.\n"
           "Next: 02_domain_randomization.\n");
    return 0;
}
