/* 09_gap_attribution.c - where the gap comes from, effect by effect.

   ORACLE.  A stand-in unit is a robot whose every hidden parameter is
   known, so a policy's sim-to-real gap can be taken apart: switch one of
   the unit's effects off (its joint friction, its camera's calibration
   offset, its puck's friction, ...) and measure again; or switch every
   effect off but one.  This example reads and edits the units' hidden
   truth on purpose (s2r_real_robot_init_ablated, s2r_attribute_gap): it
   is a teaching and research tool, and no step of the recipe calls it.
   No lab can do this with hardware.

   It takes the pure-sim, DR, camera-aware DR and sysID policies example 07 trained - run
   07 first with the same --task, --robot, --seed, --real-seed, --seeds and
   --out - and measures each on the unit 07 paired it with (training seed
   s on unit --real-seed + s, the same evaluation episodes), deployed as
   in the table (the sysID policy with the unit's camera calibrated), under
   every condition: the unit as it is, every effect off (the nominal simulator),
   each effect off alone (what removing it gains), each effect on alone
   (what it costs by itself).  Results pool the seeds, with Wilson 95 %
   intervals.  The effects interact: the gains of switching them off one
   at a time need not add up to the whole gap.  For the calibrated policy
   the camera correction goes wherever the offset it answers is switched
   off (s2r_attribute_gap).

   Then how much camera error the DR and camera-aware policies tolerate:
   each in the nominal simulator with the camera's calibration offset
   pinned at 0, 1 and 2 cm on every axis (s2r_robustness_sweep on
   target_offset; the same evaluation episodes), pooled over the seeds -
   the camera-aware row was trained on +-2 cm per axis to find it.

   Uses: s2r_upstream_policy, s2r_policy_from_checkpoint, s2r_calibrate_unit, s2r_attribute_gap,
         s2r_gap_attribution_pool, s2r_robustness_sweep, s2r_figure_*.
   Writes: DIR/09_attribution.csv (push: 09_push_attribution.csv; one row
           per recipe, condition and effect: episodes, successes, success
           rate and interval), DIR/09_attribution.png and
           DIR/09_camera_tolerance.csv (one row per recipe and offset: m
           per axis, episodes, successes, success rate and interval). */
#define SIM2REAL_IMPLEMENTATION
#include "../sim2real.h"
#include "../sim2real_analysis.h"
#include "s2r_cli.h"
#include "s2r_figures.h"
#include <stdio.h>
#include <string.h>

enum { PURE, DR, DR_CAMERA, SYSID, RECIPES };
static const char* const recipe_file[RECIPES] = {"pure_sim", "dr", "dr_camera_memory", "dr_sysid"};
static const char* const recipe_name[RECIPES] = {"pure sim", "sim + DR", "sim + DR incl. camera, memory",
                                                 "sim + DR + sysID"};

static int fail(const char* what, const char* error) {
    fprintf(stderr, "%s: %s\n", what, error);
    return 1;
}

/* Before any episode: every policy 07 trained for these seeds is there,
   made for this arm and task, and trained on the ranges beside it (07's
   DR ranges; each unit's re-centred ranges). */
static int check_policies(const s2r_options* opt) {
    char name[96], path[512], ranges[512], error[S2R_ERROR_LEN];
    s2r_policy p;
    int r, s;
    for (s = 0; s < opt->seeds; s++)
        for (r = 0; r < RECIPES; r++) {
            uint64_t seed = opt->seed + (uint64_t)s, unit = opt->real_seed + (uint64_t)s;
            snprintf(name, sizeof name, "ranges_unit%llu.txt", (unsigned long long)unit);
            s2r_task_path(ranges, sizeof ranges, opt, "07", r == DR ? "dr_ranges.txt" : r == DR_CAMERA ? "dr_camera_ranges.txt"
                                                          : name);
            snprintf(name, sizeof name, "%s_seed%llu.ckpt", recipe_file[r], (unsigned long long)seed);
            if (s2r_upstream_policy(&p, s2r_task_path(path, sizeof path, opt, "07", name), opt,
                                    r == DR_CAMERA ? S2R_CALIBRATION_MEMORY : 0, r == PURE ? NULL : ranges,
                                    error) != S2R_OK) {
                fprintf(stderr, "%s\n(09 measures the policies example 07 trained: run 07 first with the same options)\n",
                        error);
                return 1;
            }
            s2r_policy_free(&p);
        }
    return 0;
}

/* Every condition for one recipe, pooled over the training seeds. */
static int attribute(const s2r_options* opt, int recipe, int episodes, s2r_gap_attribution* pooled) {
    int s;
    memset(pooled, 0, sizeof *pooled);
    for (s = 0; s < opt->seeds; s++) {
        uint64_t seed = opt->seed + (uint64_t)s, unit = opt->real_seed + (uint64_t)s;
        s2r_task_config task = s2r_task_config_default(opt->task);   /* the camera as 07 measured these rows */
        char name[96], path[512], error[S2R_ERROR_LEN];
        s2r_gap_attribution one;
        s2r_policy policy;
        s2r_controller c;
        s2r_result res;
        snprintf(name, sizeof name, "%s_seed%llu.ckpt", recipe_file[recipe], (unsigned long long)seed);
        if (s2r_policy_from_checkpoint(&policy, s2r_task_path(path, sizeof path, opt, "07", name), error) != S2R_OK) {
            fprintf(stderr, "%s\n(09 measures the policies example 07 trained: run 07 first with the same options)\n", error);
            return 1;
        }
        printf("  %s, training seed %llu on unit #%llu ...\n", recipe_name[recipe], (unsigned long long)seed,
               (unsigned long long)unit);
        fflush(stdout);
        c = s2r_policy_controller(&policy);
        if (recipe == SYSID) {   /* deployed calibrated, as 07 measured it */
            double camera[3];
            snprintf(name, sizeof name, "ranges_unit%llu.txt", (unsigned long long)unit);
            if (!s2r_file_exists(s2r_task_path(path, sizeof path, opt, "07", name))) {   /* 07 ran for other units */
                s2r_policy_free(&policy);
                fprintf(stderr, "%s not found: 07 in %s did not identify unit #%llu (run 07 with the same "
                        "--real-seed)\n", path, opt->out, (unsigned long long)unit);
                return 1;
            }
            /* the calibration 07 applied: its identification's, made with stream seed + 2 */
            res = s2r_calibrate_unit(opt->robot, unit, s2r_identify_config_default().seed + 2, camera, NULL, error);
            if (res != S2R_OK) { s2r_policy_free(&policy); return fail("camera calibration", error); }
            s2r_task_config_set_camera(&task, camera);
        }
        res = s2r_attribute_gap(&c, opt->robot, &task, unit, episodes, 1000 + seed, &one, error);
        s2r_policy_free(&policy);
        if (res != S2R_OK) return fail("attribution", error);
        s2r_gap_attribution_pool(pooled, &one);
    }
    return 0;
}

#define OFFSETS 3
static const double camera_offset[OFFSETS] = {0, 0.01, 0.02};   /* m, on every axis */

/* The DR and camera-aware policies with the camera's offset pinned at each
   of camera_offset, pooled over the seeds: printed, and written to
   DIR/09[_push]_camera_tolerance.csv. */
static int camera_tolerance(const s2r_options* opt, int episodes) {
    s2r_eval_result tolerance[2][OFFSETS], one[OFFSETS];
    s2r_task_config task = s2r_task_config_default(opt->task);
    char name[96], path[512], error[S2R_ERROR_LEN];
    s2r_file file;
    int r, s, k;
    memset(tolerance, 0, sizeof tolerance);
    for (r = DR; r <= DR_CAMERA; r++)
        for (s = 0; s < opt->seeds; s++) {
            uint64_t seed = opt->seed + (uint64_t)s;
            s2r_policy policy;
            s2r_controller c;
            s2r_result res;
            snprintf(name, sizeof name, "%s_seed%llu.ckpt", recipe_file[r], (unsigned long long)seed);
            if (s2r_policy_from_checkpoint(&policy, s2r_task_path(path, sizeof path, opt, "07", name), error) != S2R_OK)
                return fail(path, error);
            c = s2r_policy_controller(&policy);
            res = s2r_robustness_sweep(&c, opt->robot, &task, S2R_PARAM_TARGET_OFFSET, camera_offset, OFFSETS, episodes,
                                       1000 + seed, one, error);
            s2r_policy_free(&policy);
            if (res != S2R_OK) return fail("camera tolerance", error);
            for (k = 0; k < OFFSETS; k++) s2r_eval_merge(&tolerance[r - DR][k], &one[k]);
        }
    printf("\ncamera tolerance, the nominal simulator with the camera's offset pinned on every axis:\n");
    for (r = DR; r <= DR_CAMERA; r++)
        for (k = 0; k < OFFSETS; k++)
            printf("  %-30s %2.0f cm: %5.1f %% [%5.1f, %5.1f]\n", recipe_name[r], 100 * camera_offset[k],
                   100 * tolerance[r - DR][k].success_rate, 100 * tolerance[r - DR][k].success_lo,
                   100 * tolerance[r - DR][k].success_hi);
    if (s2r_file_create(&file, s2r_task_path(path, sizeof path, opt, "09", "camera_tolerance.csv"), error) != S2R_OK)
        return fail(path, error);
    fprintf(file.f, "recipe,offset_m,episodes,successes,success,lo,hi\n");
    for (r = DR; r <= DR_CAMERA; r++)
        for (k = 0; k < OFFSETS; k++) {
            const s2r_eval_result* e = &tolerance[r - DR][k];
            fprintf(file.f, "%s,%g,%d,%d,%.4f,%.4f,%.4f\n", recipe_file[r], camera_offset[k], e->episodes, e->successes,
                    e->success_rate, e->success_lo, e->success_hi);
        }
    return s2r_file_commit(&file, error) != S2R_OK ? fail(path, error) : 0;
}

static void print_recipe(const s2r_options* opt, int recipe, const s2r_gap_attribution* a) {
    int e;
    printf("\n%s: the unit %.1f %% [%.1f, %.1f], every effect off %.1f %% [%.1f, %.1f]\n", recipe_name[recipe],
           100 * a->unit.success_rate, 100 * a->unit.success_lo, 100 * a->unit.success_hi,
           100 * a->nominal.success_rate, 100 * a->nominal.success_lo, 100 * a->nominal.success_hi);
    printf("  %-16s %24s %24s\n", "effect", "the unit without it", "only it on");
    for (e = 0; e < S2R_EFFECT_COUNT; e++) {
        if (!s2r_effect_in_scene((s2r_effect)e, s2r_task_scene(opt->task))) continue;
        printf("  %-16s %7.1f %% [%5.1f, %5.1f] %7.1f %% [%5.1f, %5.1f]\n", s2r_effect_name((s2r_effect)e),
               100 * a->without[e].success_rate, 100 * a->without[e].success_lo, 100 * a->without[e].success_hi,
               100 * a->only[e].success_rate, 100 * a->only[e].success_lo, 100 * a->only[e].success_hi);
    }
}

static void csv_row(FILE* f, int recipe, const char* condition, const char* effect, const s2r_eval_result* r) {
    fprintf(f, "%s,%s,%s,%d,%d,%.4f,%.4f,%.4f\n", recipe_file[recipe], condition, effect, r->episodes, r->successes,
            r->success_rate, r->success_lo, r->success_hi);
}

static int write_csv(const s2r_options* opt, const s2r_gap_attribution* a) {
    char path[512], error[S2R_ERROR_LEN];
    s2r_file file;
    int r, e;
    if (s2r_file_create(&file, s2r_task_path(path, sizeof path, opt, "09", "attribution.csv"), error) != S2R_OK)
        return fail(path, error);
    fprintf(file.f, "recipe,condition,effect,episodes,successes,success,lo,hi\n");
    for (r = 0; r < RECIPES; r++) {
        csv_row(file.f, r, "unit", "all", &a[r].unit);
        csv_row(file.f, r, "nominal", "none", &a[r].nominal);
        for (e = 0; e < S2R_EFFECT_COUNT; e++) {
            if (!s2r_effect_in_scene((s2r_effect)e, s2r_task_scene(opt->task))) continue;
            csv_row(file.f, r, "without", s2r_effect_name((s2r_effect)e), &a[r].without[e]);
            csv_row(file.f, r, "only", s2r_effect_name((s2r_effect)e), &a[r].only[e]);
        }
    }
    return s2r_file_commit(&file, error) != S2R_OK ? fail(path, error) : 0;
}

/* Two panels of bars, one bar per recipe: the unit with one effect off
   (between the unit whole and every effect off), and only one effect on
   (between none and all). */
static int plot(const s2r_options* opt, const s2r_gap_attribution* a) {
    const char* names[S2R_EFFECT_COUNT + 2];
    double v[2][RECIPES][S2R_EFFECT_COUNT + 2], lo[2][RECIPES][S2R_EFFECT_COUNT + 2], hi[2][RECIPES][S2R_EFFECT_COUNT + 2];
    s2r_figure fig;
    s2r_plot_style style = s2r_plot_style_default();
    char path[512], title[160];
    int panel, r, e, n = 0, bad;
    names[n++] = "none";
    for (e = 0; e < S2R_EFFECT_COUNT; e++)
        if (s2r_effect_in_scene((s2r_effect)e, s2r_task_scene(opt->task))) names[n++] = s2r_effect_name((s2r_effect)e);
    names[n++] = "all";
    for (r = 0; r < RECIPES; r++)
        for (panel = 0; panel < 2; panel++) {
            const s2r_eval_result* none = panel == 0 ? &a[r].unit : &a[r].nominal;   /* nothing off / nothing on */
            const s2r_eval_result* all = panel == 0 ? &a[r].nominal : &a[r].unit;
            int k = 0;
            v[panel][r][k] = none->success_rate; lo[panel][r][k] = none->success_lo; hi[panel][r][k++] = none->success_hi;
            for (e = 0; e < S2R_EFFECT_COUNT; e++) {
                const s2r_eval_result* x = panel == 0 ? &a[r].without[e] : &a[r].only[e];
                if (!s2r_effect_in_scene((s2r_effect)e, s2r_task_scene(opt->task))) continue;
                v[panel][r][k] = x->success_rate; lo[panel][r][k] = x->success_lo; hi[panel][r][k++] = x->success_hi;
            }
            v[panel][r][k] = all->success_rate; lo[panel][r][k] = all->success_lo; hi[panel][r][k] = all->success_hi;
        }
    if (s2r_figure_init(&fig, 1600, 1000, 2, 1) != S2R_OK) return fail("figure", fig.error);
    snprintf(title, sizeof title, "Where the gap comes from: %s on the %s (%d seed(s), units from #%llu; ORACLE)",
             s2r_task_kind_name(opt->task), s2r_robot_kind_name(opt->robot), opt->seeds, (unsigned long long)opt->real_seed);
    s2r_figure_title(&fig, title);
    s2r_panel_labels(&fig, 0, "the unit with this effect switched off", "", "real success rate");
    s2r_panel_labels(&fig, 1, "the nominal simulator with only this effect switched on", "", "success rate");
    for (panel = 0; panel < 2; panel++) {
        s2r_panel_categories(&fig, panel, names, n);
        s2r_panel_yrange(&fig, panel, 0, 1);
        for (r = 0; r < RECIPES; r++) {
            style.label = recipe_name[r];
            s2r_plot_bars(&fig, panel, v[panel][r], lo[panel][r], hi[panel][r], n, &style);
        }
    }
    bad = s2r_figure_write_png(&fig, s2r_task_path(path, sizeof path, opt, "09", "attribution.png")) != S2R_OK;
    if (bad) fail(path, fig.error);
    s2r_figure_free(&fig);
    return bad;
}

int main(int argc, char** argv) {
    static s2r_gap_attribution a[RECIPES];
    s2r_options opt;
    int status;
    int r, episodes;

    if (s2r_example_start(&opt, argc, argv, "where the gap comes from, effect by effect (oracle)",
                          S2R_OPT_ROBOT | S2R_OPT_TASK | S2R_OPT_SEED | S2R_OPT_REAL_SEED | S2R_OPT_SEEDS | S2R_OPT_THREADS | S2R_OPT_OUT | S2R_OPT_QUICK, &status) != S2R_OK)
        return status;
    if (opt.quick) opt.seeds = 1;   /* as 07 --quick */
    episodes = opt.quick ? 10 : 100;
    printf("Gap attribution: %s on the %s, %d seed(s) on units #%llu.., %d episodes per condition\n",
           s2r_task_kind_name(opt.task), s2r_robot_kind_name(opt.robot), opt.seeds, (unsigned long long)opt.real_seed,
           episodes);

    s2r_interrupt_catch();   /* Ctrl-C or SIGTERM: stop between recipes with status 130 */
    if (check_policies(&opt)) return 1;
    for (r = 0; r < RECIPES; r++) {   /* 1. every condition, for each policy */
        if (attribute(&opt, r, episodes, &a[r])) return 1;
        if (s2r_example_stopped()) return 130;
    }
    for (r = 0; r < RECIPES; r++) print_recipe(&opt, r, &a[r]);
    if (write_csv(&opt, a) || plot(&opt, a)) return 1;   /* 2. the record */
    if (camera_tolerance(&opt, episodes)) return s2r_interrupt_requested() ? 130 : 1;   /* 3. the camera's error */
    printf("\nwrote %s/09%s_attribution.csv, .png and _camera_tolerance.csv\n", opt.out,
           opt.task == S2R_TASK_PUSH ? "_push" : "");
    return 0;
}
