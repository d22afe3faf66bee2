/* 10_sysid_vs_truth.c - system identification scored against the truth.

   ORACLE.  Example 03 identifies one unit and can only say how well the
   fitted simulator replays held-out trajectories.  The stand-in fleet knows
   every unit's true parameters, so here the identification the table runs
   (s2r_identify_unit: multisine training and chirp validation trajectories
   through the backend, coordinate descent on kp, kv, payload, armature,
   friction loss and command latency) is run on many units and each
   estimate is set beside the unit's true value (s2r_real_unit_truth) - what
   no real lab can do.  Per parameter: the bias and spread of the relative
   error over the units, its median size, and how often the fit called the
   parameter identifiable, how often - of the units where it was - the
   truth lies within two of the fit's own standard errors (the coverage
   of its intervals; a latency, searched on a grid, has none), and how often within the recentred range's
   half-width (the others re-fitted, as s2r_sysid_recentre uses) and
   within the half-width of the parameter alone (half_width_alone).  And
   the validation verdict, for the nominal starting model, for the
   identified one and for the search box's two corners (every parameter at
   its lower, then upper bound): a gate that says "good" for the nominal
   model cannot tell identification from none.
   Last, the Levenberg-Marquardt check: how much lower than the coordinate
   descent's loss it found, at most, over the units.

   With --representable the units lose the effects no simulator parameter
   can be (their sigmoid joint friction with its seal drag, backlash, the
   torque limit's fall with speed; s2r_real_robot_init_ablated): every
   effect left is one a simulator parameter can be - fitted, or held with
   its spread in the standard errors (damping, link masses, torque limit:
   s2r_identify_unit's consider covariance) - so the intervals' coverage
   there asks whether the standard errors describe the estimate's error,
   and the difference from the units as they are is what the model cannot
   represent.  The encoders' offsets and the latency's jitter stay.

   The units are identified in parallel (--threads); the identification
   never reads the oracle, only this scoring does.

   Uses: s2r_real_robot_init_ablated, s2r_identify_unit, s2r_real_robot_oracle,
         s2r_real_unit_truth, s2r_sysid_verdict_of, s2r_figure_*.
   Writes: DIR/10_sysid_truth.csv (one row per unit and parameter),
           DIR/10_sysid_truth_summary.csv (one row per parameter),
           DIR/10_sysid_truth.png (estimate against truth, a panel per
           parameter); with --representable 10_sysid_truth_representable.csv,
           ..._representable_summary.csv and ..._representable.png. */
#define SIM2REAL_IMPLEMENTATION
#include "../sim2real.h"
#include "s2r_cli.h"
#include "s2r_figures.h"
#include <stdio.h>
#include <string.h>

#define MAX_UNITS 64

/* The units' effects the arm's simulator has no parameter for. */
#define UNREPRESENTABLE ((1u << S2R_EFFECT_JOINT_FRICTION) | (1u << S2R_EFFECT_BACKLASH) | (1u << S2R_EFFECT_TORQUE_LIMIT))

typedef struct unit_fit {          /* one unit: its fit and its truth        */
    s2r_sysid_result result;
    double           truth[S2R_SYSID_MAX_PARAMS];
    s2r_result       status;
    char             error[S2R_ERROR_LEN];
} unit_fit;

/* Identify unit `unit` as the table does and read its truth. */
static void identify(const s2r_options* opt, const s2r_identify_config* id, const s2r_sysid_config* params,
                     uint64_t unit, unit_fit* f) {
    s2r_randomization dr = s2r_randomization_default(), next;
    s2r_real_robot real;
    double camera[3], held = s2r_dist_centre(&dr.p[S2R_PARAM_OBS_LATENCY].dist);
    int i;
    if ((f->status = s2r_real_robot_init_ablated(&real, opt->robot, S2R_SCENE_ARM, unit,
                                                 opt->representable ? UNREPRESENTABLE : 0)) != S2R_OK) {
        snprintf(f->error, sizeof f->error, "%s", real.error);
        return;
    }
    f->status = s2r_identify_unit(&real.backend, id, &dr, &next, NULL, &f->result, camera, f->error);
    for (i = 0; i < params->n_params; i++)   /* the scoring reads the oracle; the fit above did not */
        f->truth[i] = s2r_real_unit_truth(s2r_real_robot_oracle(&real), params->param[i].param, held);
    s2r_real_robot_free(&real);
}

/* DIR/10_sysid_truth<rest>, or 10_sysid_truth_representable<rest>. */
static const char* out_path(char* path, size_t cap, const s2r_options* opt, const char* rest) {
    char name[96];
    snprintf(name, sizeof name, "10_sysid_truth%s%s", opt->representable ? "_representable" : "", rest);
    return s2r_path(path, cap, opt->out, name);
}

static double relative_error(const unit_fit* f, int i) {
    return f->truth[i] != 0 ? (f->result.value[i] - f->truth[i]) / fabs(f->truth[i]) : NAN;
}

static int compare_doubles(const void* a, const void* b) {
    double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

static int write_csvs(const s2r_options* opt, const s2r_sysid_config* params, const unit_fit* fits, int n) {
    char path[512];
    s2r_file file;
    int u, i, verdicts[4][S2R_SYSID_VERDICT_COUNT], all_count = 0, all_covered = 0, all_covered_data = 0;
    double gain = 0;
    if (!s2r_output_create(&file, out_path(path, sizeof path, opt, ".csv"))) return 1;
    fprintf(file.f, "unit,parameter,truth,estimate,std_error,relative_error,identifiable,validation_mse_start,"
                    "validation_mse,validation_relative_start,validation_relative,relative_corner_lo,relative_corner_hi,"
                    "descent_loss,polish_loss,half_width,half_width_alone\n");
    for (u = 0; u < n; u++)
        for (i = 0; i < params->n_params; i++) {
            const s2r_sysid_result* r = &fits[u].result;
            fprintf(file.f, "%llu,%s,%.6g,%.6g,%.4g,%.5f,%d,%.4g,%.4g,%.4f,%.4f,%.4f,%.4f,%.6e,%.6e,%.4g,%.4g\n",
                    (unsigned long long)(opt->real_seed + (uint64_t)u), s2r_param_name(params->param[i].param),
                    fits[u].truth[i], r->value[i], r->std_error[i], relative_error(&fits[u], i), r->identifiable[i],
                    r->validation_mse_start, r->validation_mse, r->validation_relative_start, r->validation_relative,
                    r->validation_relative_corner[0], r->validation_relative_corner[1], r->descent_loss, r->polish_loss,
                    r->half_width[i], r->half_width_alone[i]);
        }
    if (s2r_output_commit(&file) != S2R_OK ||
        !s2r_output_create(&file, out_path(path, sizeof path, opt, "_summary.csv")))
        return 1;
    fprintf(file.f, "parameter,units,bias,spread,median_abs_error,identifiable,within_2_std_errors,coverage,within_range,"
                    "within_range_alone\n");
    printf("\n  %-15s %8s %8s %10s %13s %13s %13s %13s   (relative errors over %d units)\n", "parameter", "bias", "spread",
           "median |e|", "identifiable", "truth in 2 se", "in range", "in alone", n);
    for (i = 0; i < params->n_params; i++) {
        double e[MAX_UNITS], mean = 0, var = 0;
        int count = 0, covered = 0, in_range = 0, in_alone = 0, grid = 0, covered_data = 0;
        char coverage[32];
        for (u = 0; u < n; u++) {
            const s2r_sysid_result* r = &fits[u].result;
            double miss = fabs(r->value[i] - fits[u].truth[i]);
            count += r->identifiable[i];
            grid += r->identifiable[i] && isnan(r->std_error[i]);   /* a latency: no standard error */
            covered += r->identifiable[i] && miss <= 2 * r->std_error[i];   /* of the identifiable units */
            covered_data += r->identifiable[i] && !isnan(r->std_error[i]) && miss <= 2 * r->std_error_data[i];
            in_range += miss <= r->half_width[i];
            in_alone += miss <= r->half_width_alone[i];
            e[u] = relative_error(&fits[u], i);
            mean += e[u] / n;
        }
        for (u = 0; u < n; u++) var += (e[u] - mean) * (e[u] - mean) / (n > 1 ? n - 1 : 1);
        for (u = 0; u < n; u++) e[u] = fabs(e[u]);
        qsort(e, (size_t)n, sizeof *e, compare_doubles);
        if (grid > 0 || count == 0) {   /* no interval to score: nan in the CSV, "-" printed */
            snprintf(coverage, sizeof coverage, "-");
            fprintf(file.f, "%s,%d,%.5f,%.5f,%.5f,%d,nan,nan,%d,%d\n", s2r_param_name(params->param[i].param), n, mean, sqrt(var),
                    e[n / 2], count, in_range, in_alone);
        } else {
            snprintf(coverage, sizeof coverage, "%d of %d", covered, count);
            fprintf(file.f, "%s,%d,%.5f,%.5f,%.5f,%d,%d,%.3f,%d,%d\n", s2r_param_name(params->param[i].param), n, mean,
                    sqrt(var), e[n / 2], count, covered, (double)covered / count, in_range, in_alone);
        }
        printf("  %-15s %+7.1f%% %7.1f%% %9.1f%% %9d of %d %13s %9d of %d %9d of %d\n",
               s2r_param_name(params->param[i].param), 100 * mean, 100 * sqrt(var), 100 * e[n / 2], count, n, coverage,
               in_range, n, in_alone, n);
        all_count += grid > 0 ? 0 : count;
        all_covered += grid > 0 ? 0 : covered;
        all_covered_data += grid > 0 ? 0 : covered_data;
    }
    printf("  (truth in 2 se: of the units where the parameter was identifiable, the truth within +- 2 standard\n"
           "   errors; \"-\": searched on a grid, no standard error; in range: the truth within value +- half_width,\n"
           "   the width the recentred ranges use - the others re-fitted; in alone: within +- half_width_alone)\n");
    printf("  identifiable values with a standard error: the truth within +- 2 of them for %d of %d (%.0f %%); of\n"
           "  the sandwich alone, without the held parameters' spread (std_error_data), for %d\n",
           all_covered, all_count, all_count > 0 ? 100.0 * all_covered / all_count : 0.0, all_covered_data);
    for (i = 0; i < 2; i++) {   /* the verdict on the absolute MSE, then on the error relative to the motion */
        memset(verdicts, 0, sizeof verdicts);
        for (u = 0; u < n; u++) {
            const s2r_sysid_result* r = &fits[u].result;
            verdicts[0][i ? s2r_sysid_verdict_relative(r->validation_relative_start) : s2r_sysid_verdict_of(r->validation_mse_start)]++;
            verdicts[1][i ? r->verdict : s2r_sysid_verdict_of(r->validation_mse)]++;
            if (i) verdicts[2][s2r_sysid_verdict_relative(r->validation_relative_corner[0])]++;
            if (i) verdicts[3][s2r_sysid_verdict_relative(r->validation_relative_corner[1])]++;
        }
        printf("  verdict on the %s, nominal start model: %d good, %d acceptable, %d block; identified: %d good, "
               "%d acceptable, %d block\n", i ? "error relative to the motion" : "absolute MSE", verdicts[0][0],
               verdicts[0][1], verdicts[0][2], verdicts[1][0], verdicts[1][1], verdicts[1][2]);
    }
    printf("  every parameter at its lower bound: %d good, %d acceptable, %d block; at its upper bound: %d good, "
           "%d acceptable, %d block\n", verdicts[2][0], verdicts[2][1], verdicts[2][2], verdicts[3][0], verdicts[3][1],
           verdicts[3][2]);
    for (u = 0; u < n; u++) gain = fmax(gain, 1 - fits[u].result.polish_loss / fits[u].result.descent_loss);
    printf("  Levenberg-Marquardt after the descent: at most %.2f %% lower loss over the units\n", 100 * gain);
    if (s2r_output_commit(&file) != S2R_OK) return 1;
    return 0;
}

/* A panel per parameter: each unit's estimate against its truth, and the
   line estimate = truth. */
static int plot(const s2r_options* opt, const s2r_sysid_config* params, const unit_fit* fits, int n) {
    s2r_figure fig;
    s2r_plot_style dots = s2r_plot_style_default(), line = s2r_plot_style_default();
    char path[512], title[128];
    int i, u, bad;
    if (s2r_figure_init(&fig, 1500, 900, 2, (params->n_params + 1) / 2) != S2R_OK) { fprintf(stderr, "%s\n", fig.error); return 1; }
    snprintf(title, sizeof title, "System ID against the truth: %d %s units from #%llu%s (ORACLE)", n,
             s2r_robot_kind_name(opt->robot), (unsigned long long)opt->real_seed,
             opt->representable ? ", representable" : "");
    s2r_figure_title(&fig, title);
    dots.marker = S2R_MARKER_CIRCLE;
    line.color = S2R_COLOR_BLACK;
    for (i = 0; i < params->n_params; i++) {
        double x[MAX_UNITS], y[MAX_UNITS], lo = INFINITY, hi = -INFINITY, diag[2];
        for (u = 0; u < n; u++) {
            x[u] = fits[u].truth[i];
            y[u] = fits[u].result.value[i];
            lo = fmin(lo, fmin(x[u], y[u]));
            hi = fmax(hi, fmax(x[u], y[u]));
        }
        diag[0] = lo;
        diag[1] = hi;
        s2r_panel_labels(&fig, i, s2r_param_name(params->param[i].param), "truth", "estimate");
        s2r_plot_line(&fig, i, diag, diag, 2, &line);
        s2r_plot_scatter(&fig, i, x, y, n, &dots);
    }
    bad = s2r_figure_write_png(&fig, out_path(path, sizeof path, opt, ".png")) != S2R_OK;
    if (bad) fprintf(stderr, "%s\n", fig.error);
    s2r_figure_free(&fig);
    return bad;
}

int main(int argc, char** argv) {
    static unit_fit fits[MAX_UNITS];
    s2r_options opt;
    s2r_identify_config id = s2r_identify_config_default();
    s2r_sysid_config params = s2r_sysid_config_default();   /* what s2r_identify_unit fits, in order */
    char path[512];
    int status, n, u;

    if (s2r_example_start(&opt, argc, argv, "system identification scored against the truth (oracle)",
                          S2R_OPT_ROBOT | S2R_OPT_SEED | S2R_OPT_REAL_SEED | S2R_OPT_THREADS | S2R_OPT_OUT | S2R_OPT_QUICK |
                              S2R_OPT_REPRESENTABLE,
                          &status) != S2R_OK)
        return status;
    n = opt.quick ? 2 : 20;
    if (opt.quick) { id.train = 1; id.valid = 1; id.samples = 50; id.sweeps = 2; }
    id.seed = opt.seed;
    s2r_interrupt_catch();   /* Ctrl-C or SIGTERM: stop between stages with status 130 */
    printf("System ID against the truth on %d %s units from #%llu%s\n", n, s2r_robot_kind_name(opt.robot),
           (unsigned long long)opt.real_seed,
           opt.representable ? " without the effects the simulator cannot represent (friction curve, backlash, "
                               "torque fall with speed)" : "");
    fflush(stdout);

#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic)
#endif
    for (u = 0; u < n; u++) identify(&opt, &id, &params, opt.real_seed + (uint64_t)u, &fits[u]);
    if (s2r_example_stopped()) return 130;
    for (u = 0; u < n; u++)
        if (fits[u].status != S2R_OK) { fprintf(stderr, "unit %d: %s\n", u, fits[u].error); return 1; }

    if (write_csvs(&opt, &params, fits, n) || plot(&opt, &params, fits, n)) return 1;
    printf("wrote %s\n", out_path(path, sizeof path, &opt, ".csv"));
    printf("wrote %s\n", out_path(path, sizeof path, &opt, "_summary.csv"));
    printf("wrote %s\n", out_path(path, sizeof path, &opt, ".png"));
    return 0;
}
