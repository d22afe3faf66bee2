/* 04_finetune.c - fine-tune on real demonstrations.

   Simulation got the policy close; a handful of real demonstrations close
   the rest.  An operator drives the real unit (the scripted expert made
   human: it sees the real target, not the miscalibrated camera's, reacts
   80 ms late and is not steady) and every step is recorded in the policy's
   own observation and action spaces (with the unit's camera calibrated as
   in 03).  The system-ID policy of 03 is then
   fine-tuned by behaviour cloning - a small learning rate and an anchor
   that keeps it near where simulation left it - on the first 10, 30, 100,
   300 and 1000 demonstrations, and each result is measured in sim and on
   the unit: the curve of real success against real data.

   The operator is not always the better teacher: it is noisy, and a
   precise policy cloned toward it lands where it does.  So each fine-tune
   is made two ways - following the operator, and keeping the policy's own
   actions as a second teacher - and a canary of CANARY episodes of each on
   the unit decides which one is kept, if either beats the policy as it was
   on the same episodes (s2r_finetune_on_unit); if neither does, the
   point is the policy unchanged.

   Uses: s2r_upstream_policy, s2r_policy_from_checkpoint, s2r_calibrate_unit,
         s2r_operator_config_default, s2r_collect_unit_demos,
         s2r_finetune_on_unit, s2r_evaluate_sim_and_real.
   Reads: DIR/03_dr_sysid_unitN.ckpt, DIR/03_identified_<robot>_unitN.txt
          and DIR/03_ranges_<robot>_unitN.txt for unit N = --real-seed (run
          03 first with the same --real-seed; without them it starts from
          DIR/02_dr.ckpt with DIR/02_ranges.txt and says so; a file there
          but corrupt, for another arm, or a policy not trained on the
          ranges beside it stops it).
   Writes: DIR/04_demos_100.ckpt, DIR/04_demos_1000.ckpt, DIR/04_curve.csv,
           DIR/04_curve.png; with --task push, each name read and
           written has _push after the number (DIR/03_push_dr_sysid_unitN.ckpt,
           DIR/04_push_curve.csv, ...).
   Next: 05_real_only.c - what the same real data does without simulation. */
#define SIM2REAL_IMPLEMENTATION
#include "../sim2real.h"
#include "../sim2real_reports.h"
#include "s2r_cli.h"
#include "s2r_figures.h"
#include <stdio.h>

#define POINTS 6
#define CANARY 50   /* unit episodes per fine-tuning candidate (quick: 4) */
static const int demo_counts[POINTS] = {0, 10, 30, 100, 300, 1000};

/* The policy fine-tuning starts from and the simulator it was trained
   around: 03's policy and identified model when 03 has run, else 02's
   policy and the nominal model.  A file that is there but unusable
   (corrupt, trained for another arm or task, or on other ranges than the
   run's ranges file records) stops the example. */
static s2r_result load_start(const s2r_options* opt, s2r_policy* p, char* path, size_t cap,
                             s2r_randomization* sim, int* identified, char* error) {
    char file[64], model[512];
    s2r_result res;
    unsigned long long unit = (unsigned long long)opt->real_seed;
    snprintf(file, sizeof file, "dr_sysid_unit%llu.ckpt", unit);   /* this unit's, never another's */
    *identified = s2r_file_exists(s2r_task_path(path, cap, opt, "03", file));
    if (!*identified)
        printf("%s not found (run 03 --real-seed %llu first to start from the system-ID policy); starting from "
               "%s\n", path, unit, s2r_task_path(model, sizeof model, opt, "02", "dr.ckpt"));
    if (!*identified) s2r_task_path(path, cap, opt, "02", "dr.ckpt");
    if (*identified) snprintf(file, sizeof file, "ranges_%s_unit%llu.txt", s2r_robot_kind_name(opt->robot), unit);
    s2r_task_path(model, sizeof model, opt, *identified ? "03" : "02", *identified ? file : "ranges.txt");
    if ((res = s2r_upstream_policy(p, path, opt, 0, model, error)) != S2R_OK || !*identified) return res;
    snprintf(file, sizeof file, "identified_%s_unit%llu.txt", s2r_robot_kind_name(opt->robot), unit);
    *sim = s2r_randomization_none();
    if ((res = s2r_randomization_load(sim, s2r_task_path(model, sizeof model, opt, "03", file), error)) != S2R_OK) s2r_policy_free(p);
    return res;
}

/* Fine-tune a copy of the start policy on the first n demos, checked by a
   canary on the unit; measure it. */
static s2r_result finetune(const s2r_options* opt, const s2r_task_config* task, const s2r_randomization* sim,
                           const char* start, const s2r_dataset* demos, int recorded, int n, int episodes,
                           s2r_sim_real_eval* out, char* error) {
    s2r_policy p;
    s2r_real_robot real;
    s2r_dataset some = *demos;
    s2r_controller c;
    char path[512], name[64];
    double canary[3];
    int kept;
    s2r_result res = s2r_policy_from_checkpoint(&p, start, error);
    if (res != S2R_OK) return res;
    some.count = (int)((long long)demos->count / recorded * n);   /* the first n demonstrations */
    if (n > 0 && (res = s2r_real_robot_init_scene(&real, opt->robot, s2r_task_scene(opt->task), opt->real_seed)) != S2R_OK)
        snprintf(error, S2R_ERROR_LEN, "%s", real.error);
    else if (n > 0) {
        res = s2r_finetune_on_unit(&p, &some, 20, opt->seed, &real.backend, task, opt->quick ? 4 : CANARY,
                                   opt->seed + 2000, canary, &kept, NULL, error);
        s2r_real_robot_free(&real);
        if (res == S2R_OK)
            printf("  canary on the unit: %3.0f %% following the operator, %3.0f %% keeping its own actions too, "
                   "%3.0f %% as it was: kept %s\n", 100 * canary[S2R_KEPT_FOLLOWING], 100 * canary[S2R_KEPT_OWN_ACTIONS],
                   100 * canary[S2R_KEPT_UNCHANGED], kept == S2R_KEPT_UNCHANGED ? "the policy as it was"
                   : kept == S2R_KEPT_FOLLOWING ? "the fine-tune following the operator"
                   : "the fine-tune keeping its own actions");
    }
    c = s2r_policy_controller(&p);
    if (res == S2R_OK)
        res = s2r_evaluate_sim_and_real(&c, opt->robot, task, sim, episodes, opt->seed + 1000, opt->real_seed, 1, out, error);
    if (res == S2R_OK && (n == 100 || n == 1000)) {
        snprintf(name, sizeof name, "demos_%d.ckpt", n);
        res = s2r_policy_save(&p, NULL, s2r_task_path(path, sizeof path, opt, "04", name));
        if (res != S2R_OK) snprintf(error, S2R_ERROR_LEN, "%s", p.error);
    }
    s2r_policy_free(&p);
    return res;
}

static s2r_result write_curve(const s2r_options* opt, const int* counts, const s2r_sim_real_eval* e, int n, char* error) {
    s2r_figure fig;
    s2r_plot_style style = s2r_plot_style_default();
    double x[POINTS], y[POINTS], lo[POINTS], hi[POINTS];
    char path[512];
    s2r_file file;
    s2r_result res = s2r_file_create(&file, s2r_task_path(path, sizeof path, opt, "04", "curve.csv"), error);
    FILE* f = file.f;
    int i;
    if (res != S2R_OK) return res;
    fprintf(f, "demos,sim_success,real_success,real_lo,real_hi\n");
    for (i = 0; i < n; i++) {
        fprintf(f, "%d,%.4f,%.4f,%.4f,%.4f\n", counts[i], e[i].sim.success_rate, e[i].real.success_rate,
                e[i].real.success_lo, e[i].real.success_hi);
        x[i] = counts[i]; y[i] = e[i].real.success_rate; lo[i] = e[i].real.success_lo; hi[i] = e[i].real.success_hi;
    }
    if ((res = s2r_file_commit(&file, error)) != S2R_OK) return res;
    if ((res = s2r_figure_init(&fig, 800, 480, 1, 1)) != S2R_OK) { snprintf(error, S2R_ERROR_LEN, "%s", fig.error); return res; }
    s2r_panel_labels(&fig, 0, "real success against real demonstrations", "demonstrations", "real success rate");
    s2r_panel_yrange(&fig, 0, 0, 1);
    style.marker = S2R_MARKER_CIRCLE;
    style.label = "fine-tuned policy";
    s2r_plot_line(&fig, 0, x, y, n, &style);
    style.label = NULL;
    s2r_plot_band(&fig, 0, x, lo, hi, n, &style);
    res = s2r_figure_write_png(&fig, s2r_task_path(path, sizeof path, opt, "04", "curve.png"));
    if (res != S2R_OK) snprintf(error, S2R_ERROR_LEN, "%s", fig.error);
    s2r_figure_free(&fig);
    return res;
}

int main(int argc, char** argv) {
    s2r_options opt;
    int status;
    s2r_policy start;
    s2r_dataset demos;
    s2r_sim_real_eval results[POINTS];
    s2r_task_config task;
    double camera[3];   /* m, the unit's camera calibration */
    s2r_expert_config op = s2r_operator_config_default();
    s2r_randomization sim;
    char error[S2R_ERROR_LEN], start_path[512];
    int i, n_demos, ok, obs_dim, act_dim, points = 0, identified;

    if (s2r_example_start(&opt, argc, argv, "fine-tune on real demonstrations",
                          S2R_OPT_ROBOT | S2R_OPT_TASK | S2R_OPT_SEED | S2R_OPT_REAL_SEED | S2R_OPT_THREADS | S2R_OPT_OUT | S2R_OPT_QUICK | S2R_STAGE_DEMOS, &status) != S2R_OK)
        return status;
    task = s2r_task_config_default(opt.task);
    n_demos = opt.quick ? 100 : 1000;
    s2r_interrupt_catch();   /* Ctrl-C or SIGTERM: stop between stages with status 130 */

    /* 1. The policy simulation produced. */
    if (load_start(&opt, &start, start_path, sizeof start_path, &sim, &identified, error) != S2R_OK) {
        fprintf(stderr, "%s\nrun 02_domain_randomization and 03_system_id first (same --out and --robot)\n", error);
        return 1;
    }
    s2r_policy_free(&start);
    printf("Fine-tuning %s on demonstrations from real %s #%llu (sim column: the %s simulator)\n", start_path,
           s2r_robot_kind_name(opt.robot), (unsigned long long)opt.real_seed, identified ? "identified" : "nominal");

    /* 2. Commissioning: the unit's camera calibration, as in 03. */
    s2r_task_dims(opt.task, opt.robot, &obs_dim, &act_dim);
    if (s2r_calibrate_unit(opt.robot, opt.real_seed, opt.seed + 2, camera, NULL, error) != S2R_OK) {
        fprintf(stderr, "%s\n", error);
        return 1;
    }
    s2r_task_config_set_camera(&task, camera);

    /* 3. The operator records demonstrations on the real unit. */
    if (s2r_dataset_init(&demos, obs_dim, act_dim) != S2R_OK ||
        s2r_collect_unit_demos(opt.robot, opt.real_seed, &task, &op, n_demos, opt.seed + 77 + opt.real_seed,
                               opt.threads, &demos, &ok, error) != S2R_OK) {
        fprintf(stderr, "%s\n", error);
        s2r_dataset_free(&demos);
        return 1;
    }
    printf("  %d demonstrations recorded, %d ended on target\n", n_demos, ok);
    if (s2r_example_stopped()) {
        s2r_dataset_free(&demos);
        return 130;
    }

    /* 4. Fine-tune on more and more of them; measure each. */
    for (i = 0; i < POINTS && demo_counts[i] <= n_demos; i++, points++) {
        char label[48];
        if (finetune(&opt, &task, identified ? &sim : NULL, start_path, &demos, n_demos, demo_counts[i], opt.quick ? 20 : 200, &results[i],
                     error) != S2R_OK) {
            fprintf(stderr, "%s\n", error);
            s2r_dataset_free(&demos);
            return 1;
        }
        snprintf(label, sizeof label, "%d demos", demo_counts[i]);
        s2r_sim_real_eval_print(label, &results[i]);
        if (s2r_example_stopped()) {
            s2r_dataset_free(&demos);
            return 130;
        }
    }
    s2r_dataset_free(&demos);
    if (write_curve(&opt, demo_counts, results, points, error) != S2R_OK) { fprintf(stderr, "%s\n", error); return 1; }
    printf("wrote %s and its figure.  Next: 05_real_only.\n", s2r_task_path(start_path, sizeof start_path, &opt, "04", "curve.csv"));
    return 0;
}
