/* 14_predicting_transfer.c - a policy's real success, predicted before the robot.

   The question a team asks before the first real episode: how much of the
   simulator's success will survive on the robot?  s2r_predict_transfer
   answers from simulation alone, four ways (see its section in the
   manual): the nominal simulator; held-out draws of the DR ranges; draws
   of the unit's identified ranges; and those with the camera as the
   policy will meet it (the offset the unit's calibration measured, less
   any correction the policy runs with).  This example scores the four
   against what the units then measure.

   It takes the policies example 07 trained - run 07 first with the same
   --task, --robot, --seed, --real-seed, --seeds and --out - with 07's DR
   ranges and each unit's identified ranges, and measures every policy on
   every unit 07 identified (units --real-seed, ..., one per seed), the way
   it would be deployed: the pure-sim and DR policies with the camera as it
   is and with it calibrated, the sysID policy calibrated, as in the table.
   Each case (policy, unit, deployment) gives a measured success and four
   predictions, all from the same episode streams.  Per predictor: the mean
   absolute error over the cases with a bootstrap 95 % interval (cases
   resampled), the mean signed error (positive: it promises too much), and
   how many cases it got right within sampling noise (Newcombe's interval
   of predicted minus measured holds 0).  The prediction never touches the
   units; the measuring does, through the backend, as a lab would.

   Uses: s2r_upstream_policy, s2r_randomization_load,
         s2r_calibrate_unit, s2r_predict_transfer, s2r_evaluate,
         s2r_newcombe_interval, s2r_figure_*.
   Writes: DIR/14_prediction.csv (push: 14_push_prediction.csv; one row
           per case: the measured success and each predictor's, with
           intervals), DIR/14_prediction_summary.csv (one row per predictor
           and deployment, and "all"), DIR/14_prediction.png (measured
           against predicted, a panel per predictor). */
#define SIM2REAL_IMPLEMENTATION
#include "../sim2real.h"
#include "../sim2real_analysis.h"
#include "s2r_cli.h"
#include "s2r_figures.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

enum { PURE, DR, SYSID, RECIPES };
static const char* const recipe_file[RECIPES] = {"pure_sim", "dr", "dr_sysid"};

/* How a policy goes to the unit: which recipe's, with the camera calibrated or not. */
typedef struct deployment { int recipe, calibrated; const char* name; } deployment;
#define DEPLOYMENTS 5
static const deployment deployments[DEPLOYMENTS] = {
    {PURE, 0, "pure sim"}, {PURE, 1, "pure sim, calibrated"}, {DR, 0, "sim + DR"},
    {DR, 1, "sim + DR, calibrated"}, {SYSID, 1, "sim + DR + sysID"}};

#define MAX_SEEDS 16
#define BOOTSTRAP 2000

typedef struct inputs {                    /* what 07 and the calibration give */
    s2r_policy        policy[RECIPES][MAX_SEEDS];
    s2r_randomization dr;                                   /* 07's DR ranges            */
    s2r_randomization identified[MAX_SEEDS];                /* unit u's re-centred ranges */
    double            camera[MAX_SEEDS][3];                 /* m, unit u's calibration    */
} inputs;

typedef struct case_result {               /* one policy on one unit, one deployment */
    int             deployment, seed, unit;                /* indices                   */
    s2r_eval_result real;                                   /* measured on the unit      */
    s2r_eval_result predicted[S2R_PREDICTOR_COUNT];
    s2r_result      status;
    char            error[S2R_ERROR_LEN];
} case_result;

static int fail(const char* what, const char* error) {
    fprintf(stderr, "%s: %s\n", what, error);
    return 1;
}

/* 07's policies and ranges, and each unit's camera calibration. */
static int load(const s2r_options* opt, inputs* in) {
    char name[96], path[512], error[S2R_ERROR_LEN];
    int r, s;
    in->dr = s2r_randomization_none();
    if (s2r_randomization_load(&in->dr, s2r_task_path(path, sizeof path, opt, "07", "dr_ranges.txt"), error) != S2R_OK)
        return fail("DR ranges (run 07 first with the same options)", error);
    for (s = 0; s < opt->seeds; s++) {
        uint64_t seed = opt->seed + (uint64_t)s, unit = opt->real_seed + (uint64_t)s;
        char ranges[RECIPES][512];   /* what each recipe's policy was trained on (pure sim: nothing to check) */
        s2r_task_path(ranges[DR], sizeof ranges[DR], opt, "07", "dr_ranges.txt");
        snprintf(name, sizeof name, "ranges_unit%llu.txt", (unsigned long long)unit);
        s2r_task_path(ranges[SYSID], sizeof ranges[SYSID], opt, "07", name);
        in->identified[s] = s2r_randomization_none();
        if (s2r_randomization_load(&in->identified[s], ranges[SYSID], error) != S2R_OK)
            return fail("identified ranges (run 07 first with the same options)", error);
        for (r = 0; r < RECIPES; r++) {   /* made for this arm and task, trained on the ranges beside it */
            snprintf(name, sizeof name, "%s_seed%llu.ckpt", recipe_file[r], (unsigned long long)seed);
            if (s2r_upstream_policy(&in->policy[r][s], s2r_task_path(path, sizeof path, opt, "07", name), opt, 0,
                                    r == PURE ? NULL : ranges[r], error) != S2R_OK)
                return fail("policy (run 07 first with the same options)", error);   /* main frees those loaded */
        }
        /* the calibration 07's identification made (s2r_identify_unit: stream seed + 2) */
        if (s2r_calibrate_unit(opt->robot, unit, s2r_identify_config_default().seed + 2, in->camera[s], NULL, error) !=
            S2R_OK)
            return fail("camera calibration", error);
    }
    return 0;
}

/* Success on the unit, deployed with `task`'s camera correction. */
static s2r_result measure(const s2r_controller* c, const s2r_options* opt, uint64_t unit, const s2r_task_config* task,
                          int episodes, uint64_t seed, s2r_eval_result* out, char* error) {
    s2r_real_robot real;
    s2r_task t;
    s2r_result res = s2r_real_robot_init_scene(&real, opt->robot, s2r_task_scene(opt->task), unit);
    if (res != S2R_OK) return (void)snprintf(error, S2R_ERROR_LEN, "%s", real.error), res;
    if ((res = s2r_task_init(&t, task, &real.backend)) == S2R_OK) {
        res = s2r_evaluate(c, &t, episodes, seed, out, NULL);
        if (res != S2R_OK) snprintf(error, S2R_ERROR_LEN, "%s", t.error);
        s2r_task_free(&t);
    } else snprintf(error, S2R_ERROR_LEN, "%s", t.error);
    s2r_real_robot_free(&real);
    return res;
}

/* The first deployment of a recipe: where its policies' nominal and DR
   predictions are made (they depend on the policy only). */
static int first_deployment(int recipe) {
    int d = 0;
    while (deployments[d].recipe != recipe) d++;
    return d;
}

/* Cases are laid out by deployment, then training seed, then unit. */
static int case_index(int deployment, int seed, int unit, int seeds) { return (deployment * seeds + seed) * seeds + unit; }

/* One case: the predictions, then the unit.  A policy's first case (its
   recipe's first deployment, the first unit) runs the nominal and DR
   predictions; the others copy them after the parallel loop. */
static void run_case(const s2r_options* opt, inputs* in, int episodes, case_result* k) {
    const deployment* d = &deployments[k->deployment];
    s2r_controller c = s2r_policy_controller(&in->policy[d->recipe][k->seed]);
    s2r_task_config task = s2r_task_config_default(opt->task);
    s2r_transfer_evidence evidence = {0};
    int first = k->unit == 0 && k->deployment == first_deployment(d->recipe);
    uint64_t seed = 1400 + opt->seed + (uint64_t)k->seed;   /* no stream 07 trained or measured on */
    if (d->calibrated) s2r_task_config_set_camera(&task, in->camera[k->unit]);
    evidence.randomized = &in->dr;
    evidence.identified = &in->identified[k->unit];
    evidence.camera_offset = in->camera[k->unit];
    evidence.predictors = first ? 0 : 1u << S2R_PREDICT_IDENTIFIED | 1u << S2R_PREDICT_DEPLOYED;
    k->status = s2r_predict_transfer(&c, opt->robot, &task, &evidence, episodes, seed, k->predicted, k->error);
    if (k->status == S2R_OK)
        k->status = measure(&c, opt, opt->real_seed + (uint64_t)k->unit, &task, episodes, seed, &k->real, k->error);
}

/* Mean absolute and signed error of predictor p over the cases of
   deployment d (-1: all), the bootstrap interval of the former, and how
   many predictions fall within sampling noise of the measurement. */
typedef struct score { int cases, within; double mae, mae_lo, mae_hi, bias, predicted, measured; } score;

static int compare_doubles(const void* a, const void* b) {
    double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

static score score_predictor(const case_result* cases, int n, int p, int d) {
    static double err[DEPLOYMENTS * MAX_SEEDS * MAX_SEEDS], boot[BOOTSTRAP];
    s2r_rng rng = s2r_rng_make(14, (uint64_t)(p * 16 + d + 1));
    score s = {0};
    int i, b;
    for (i = 0; i < n; i++) {
        const case_result* k = &cases[i];
        const s2r_eval_result* pr = &k->predicted[p];
        double lo, hi;
        if ((d >= 0 && k->deployment != d) || pr->episodes == 0) continue;
        err[s.cases++] = pr->success_rate - k->real.success_rate;
        s.bias += pr->success_rate - k->real.success_rate;
        s.mae += fabs(pr->success_rate - k->real.success_rate);
        s.predicted += pr->success_rate;
        s.measured += k->real.success_rate;
        s2r_newcombe_interval(pr->successes, pr->episodes, k->real.successes, k->real.episodes, &lo, &hi);
        s.within += lo <= 0 && 0 <= hi;
    }
    if (s.cases == 0) return s;
    s.bias /= s.cases; s.mae /= s.cases; s.predicted /= s.cases; s.measured /= s.cases;
    for (b = 0; b < BOOTSTRAP; b++) {   /* resample the cases */
        double m = 0;
        for (i = 0; i < s.cases; i++) m += fabs(err[s2r_rng_int(&rng, s.cases)]);
        boot[b] = m / s.cases;
    }
    qsort(boot, BOOTSTRAP, sizeof *boot, compare_doubles);
    s.mae_lo = boot[(int)(0.025 * BOOTSTRAP)];
    s.mae_hi = boot[(int)(0.975 * BOOTSTRAP) - 1];
    return s;
}

/* The summary: per deployment, the mean measured and predicted success;
   then per predictor, its errors over every case. */
static int report(const s2r_options* opt, const case_result* cases, int n) {
    char path[512];
    s2r_file file;
    int d, p;
    if (!s2r_output_create(&file, s2r_task_path(path, sizeof path, opt, "14", "prediction_summary.csv"))) return 1;
    fprintf(file.f, "deployment,predictor,cases,measured,predicted,mean_abs_error,mae_lo,mae_hi,mean_error,within_noise\n");
    printf("\nMean success over the cases, %% (measured on the units; predicted by each simulator):\n");
    printf("  %-22s %9s", "deployment", "measured");
    for (p = 0; p < S2R_PREDICTOR_COUNT; p++) printf(" %10s", s2r_predictor_name((s2r_predictor)p));
    printf("\n");
    for (d = -1; d < DEPLOYMENTS; d++) {
        const char* name = d < 0 ? "all" : deployments[d].name;
        for (p = 0; p < S2R_PREDICTOR_COUNT; p++) {
            score s = score_predictor(cases, n, p, d);
            if (p == 0) printf("  %-22s %8.1f ", name, 100 * s.measured);
            printf(" %10.1f", 100 * s.predicted);
            fprintf(file.f, "\"%s\",%s,%d,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%d\n", name, s2r_predictor_name((s2r_predictor)p),
                    s.cases, s.measured, s.predicted, s.mae, s.mae_lo, s.mae_hi, s.bias, s.within);
        }
        printf("\n");
    }
    printf("\nEach predictor over all %d cases (points of success rate):\n", n);
    printf("  %-11s %26s %14s %20s\n", "predictor", "mean |error| [95 %]", "mean error", "within noise");
    for (p = 0; p < S2R_PREDICTOR_COUNT; p++) {
        score s = score_predictor(cases, n, p, -1);
        printf("  %-11s %11.1f [%5.1f, %5.1f] %+14.1f %13d of %d\n", s2r_predictor_name((s2r_predictor)p),
               100 * s.mae, 100 * s.mae_lo, 100 * s.mae_hi, 100 * s.bias, s.within, s.cases);
    }
    return s2r_output_commit(&file) != S2R_OK;
}

static int write_cases(const s2r_options* opt, const case_result* cases, int n) {
    char path[512];
    s2r_file file;
    int i, p;
    if (!s2r_output_create(&file, s2r_task_path(path, sizeof path, opt, "14", "prediction.csv"))) return 1;
    fprintf(file.f, "recipe,calibrated,seed,unit,episodes,measured,measured_lo,measured_hi");
    for (p = 0; p < S2R_PREDICTOR_COUNT; p++)
        fprintf(file.f, ",%s,%s_lo,%s_hi", s2r_predictor_name((s2r_predictor)p), s2r_predictor_name((s2r_predictor)p),
                s2r_predictor_name((s2r_predictor)p));
    fprintf(file.f, "\n");
    for (i = 0; i < n; i++) {
        const case_result* k = &cases[i];
        fprintf(file.f, "%s,%d,%llu,%llu,%d,%.4f,%.4f,%.4f", recipe_file[deployments[k->deployment].recipe],
                deployments[k->deployment].calibrated, (unsigned long long)(opt->seed + (uint64_t)k->seed),
                (unsigned long long)(opt->real_seed + (uint64_t)k->unit), k->real.episodes, k->real.success_rate,
                k->real.success_lo, k->real.success_hi);
        for (p = 0; p < S2R_PREDICTOR_COUNT; p++)
            fprintf(file.f, ",%.4f,%.4f,%.4f", k->predicted[p].success_rate, k->predicted[p].success_lo,
                    k->predicted[p].success_hi);
        fprintf(file.f, "\n");
    }
    return s2r_output_commit(&file) != S2R_OK;
}

/* A panel per predictor: measured against predicted, a series per
   deployment, and the line where they agree. */
static int plot(const s2r_options* opt, const case_result* cases, int n) {
    static double x[DEPLOYMENTS][DEPLOYMENTS * MAX_SEEDS * MAX_SEEDS], y[DEPLOYMENTS][DEPLOYMENTS * MAX_SEEDS * MAX_SEEDS];
    static const s2r_marker markers[DEPLOYMENTS] = {S2R_MARKER_CIRCLE, S2R_MARKER_SQUARE, S2R_MARKER_CROSS,
                                                    S2R_MARKER_CIRCLE, S2R_MARKER_SQUARE};
    const double diag[2] = {0, 1};
    s2r_figure fig;
    s2r_plot_style line = s2r_plot_style_default();
    char path[512], title[160], label[96];
    int p, d, i, bad;
    if (s2r_figure_init(&fig, 1400, 1200, 2, 2) != S2R_OK) return fail("figure", fig.error);
    snprintf(title, sizeof title, "Predicting transfer: %s on the %s, %d seed(s) x %d unit(s) from #%llu",
             s2r_task_kind_name(opt->task), s2r_robot_kind_name(opt->robot), opt->seeds, opt->seeds,
             (unsigned long long)opt->real_seed);
    s2r_figure_title(&fig, title);
    line.color = S2R_COLOR_BLACK;
    for (p = 0; p < S2R_PREDICTOR_COUNT; p++) {
        score s = score_predictor(cases, n, p, -1);
        snprintf(label, sizeof label, "%s: mean absolute error %.1f points", s2r_predictor_name((s2r_predictor)p), 100 * s.mae);
        s2r_panel_labels(&fig, p, label, "predicted success", "measured success on the unit");
        s2r_panel_xrange(&fig, p, 0, 1);
        s2r_panel_yrange(&fig, p, 0, 1);
        s2r_plot_line(&fig, p, diag, diag, 2, &line);
        for (d = 0; d < DEPLOYMENTS; d++) {
            s2r_plot_style dots = s2r_plot_style_default();
            int m = 0;
            for (i = 0; i < n; i++)
                if (cases[i].deployment == d) {
                    x[d][m] = cases[i].predicted[p].success_rate;
                    y[d][m++] = cases[i].real.success_rate;
                }
            dots.marker = markers[d];
            dots.label = p == 0 ? deployments[d].name : NULL;
            s2r_plot_scatter(&fig, p, x[d], y[d], m, &dots);
        }
        if (p == 0) s2r_panel_legend(&fig, p, S2R_LEGEND_UPPER_LEFT);
    }
    bad = s2r_figure_write_png(&fig, s2r_task_path(path, sizeof path, opt, "14", "prediction.png")) != S2R_OK;
    if (bad) fail(path, fig.error);
    s2r_figure_free(&fig);
    return bad;
}

int main(int argc, char** argv) {
    static inputs in;
    static case_result cases[DEPLOYMENTS * MAX_SEEDS * MAX_SEEDS];
    s2r_options opt;
    int status, episodes, n = 0, i, d, s, u, bad = 0;

    if (s2r_example_start(&opt, argc, argv, "predict a policy's real success before the robot, then score it",
                          S2R_OPT_ROBOT | S2R_OPT_TASK | S2R_OPT_SEED | S2R_OPT_REAL_SEED | S2R_OPT_SEEDS |
                          S2R_OPT_THREADS | S2R_OPT_OUT | S2R_OPT_QUICK, &status) != S2R_OK)
        return status;
    if (opt.seeds > MAX_SEEDS) {   /* refused before any work */
        fprintf(stderr, "--seeds %d: this program takes at most %d\n", opt.seeds, MAX_SEEDS);
        return 2;
    }
    if (opt.quick) opt.seeds = 1;   /* as 07 --quick */
    s2r_interrupt_catch();   /* Ctrl-C or SIGTERM: stop between stages with status 130 */
    episodes = opt.quick ? 10 : 200;
    printf("Predicting transfer: %s on the %s, %d seed(s) x %d unit(s) from #%llu, %d episodes per case\n",
           s2r_task_kind_name(opt.task), s2r_robot_kind_name(opt.robot), opt.seeds, opt.seeds,
           (unsigned long long)opt.real_seed, episodes);
    fflush(stdout);

    bad = load(&opt, &in);   /* 1. 07's policies and ranges, each unit's camera */
    if (!bad && s2r_example_stopped()) bad = 130;
    for (d = 0; d < DEPLOYMENTS && !bad; d++)   /* 2. every policy on every unit, predicted then measured */
        for (s = 0; s < opt.seeds; s++)
            for (u = 0; u < opt.seeds; u++, n++) {
                case_result* k = &cases[case_index(d, s, u, opt.seeds)];
                k->deployment = d; k->seed = s; k->unit = u;
            }
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic)
#endif
    for (i = 0; i < n; i++) run_case(&opt, &in, episodes, &cases[i]);
    for (i = 0; i < n && !bad; i++)
        if (cases[i].status != S2R_OK) bad = fail("case", cases[i].error);
    if (!bad && s2r_example_stopped()) bad = 130;
    for (i = 0; i < n && !bad; i++) {   /* the policy's nominal and DR predictions, from its first case */
        const case_result* first =
            &cases[case_index(first_deployment(deployments[cases[i].deployment].recipe), cases[i].seed, 0, opt.seeds)];
        cases[i].predicted[S2R_PREDICT_NOMINAL] = first->predicted[S2R_PREDICT_NOMINAL];
        cases[i].predicted[S2R_PREDICT_DR] = first->predicted[S2R_PREDICT_DR];
    }
    if (!bad) bad = report(&opt, cases, n) || write_cases(&opt, cases, n) || plot(&opt, cases, n);   /* 3. the score */
    for (i = 0; i < RECIPES; i++)
        for (s = 0; s < opt.seeds; s++) s2r_policy_free(&in.policy[i][s]);
    if (!bad) printf("\nwrote %s/14%s_prediction.csv, _prediction_summary.csv and _prediction.png\n", opt.out,
                     opt.task == S2R_TASK_PUSH ? "_push" : "");
    return bad;
}
