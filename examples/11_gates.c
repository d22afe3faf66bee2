/* 11_gates.c - how much a deployment gate can be trusted, and what it costs.

   Real-robot episodes are the scarcest thing in the recipe.  A gate that
   decides on them should say two numbers up front: how often it passes a
   policy that is not good enough, and how many episodes it will take.
   This example measures both for the tethered and constrained gates of
   staged deployment (example 06), under both rules the library has:

     sequential  Wald's SPRT with stated error rates (the default): 0.95
                 against 0.80 (tethered) or 0.85 (constrained), alpha 0.05,
                 beta 0.10, failing at a cap of 80 / 130 episodes;
     interval    the earlier rules: tethered peeks at a Wilson interval
                 after every episode from 20 to 50, constrained counts 100
                 episodes and compares the point estimate.

   For true success rates from 0.5 to 1.0 it computes each gate's pass
   probability and expected episodes exactly (s2r_gate_oc), checks them
   against --runs simulated deployments of Bernoulli episodes, and prints
   the plan a team would budget robot time with (s2r_gate_plan_print).
   Then the canary, the fixed comparison against the sequential one on
   pairs: how often each passes a candidate worse than the incumbent by 0
   to 20 points, and the episodes each spends.  Then
   the drift detectors of the autonomous stage, CUSUM and
   Page-Hinkley, on streams with a known change: how often each raises a
   false alarm in 1000 unchanged episodes, and how many episodes each
   needs to notice a fall in success.

   No robot is involved: gates are functions of counts, so their error
   rates are properties of the rule, measurable before any deployment.

   Uses: s2r_gate_oc, s2r_gate_plan_print, s2r_gate_tethered,
         s2r_gate_constrained, s2r_gate_canary, s2r_gate_canary_pairs, s2r_drift_init, s2r_drift_update,
         s2r_drift_config_page_hinkley, s2r_figure_*.
   Writes: DIR/11_gate_oc.csv (rule, stage, true rate: exact and simulated
           pass probability and episodes), DIR/11_gate_oc.png,
           DIR/11_canary_oc.csv and DIR/11_drift.csv (detector, false
           alarms, delays). */
#define SIM2REAL_IMPLEMENTATION
#include "../sim2real.h"
#include "s2r_cli.h"
#include "s2r_figures.h"
#include <stdio.h>
#include <string.h>

#define RATES 21              /* true success 0.50, 0.525, ..., 1.00 */

typedef struct gate_curve {   /* one gate under one rule, across the rates */
    const char* name;
    s2r_gate_config config;
    s2r_stage stage;
    double pass[RATES], episodes[RATES];           /* exact (s2r_gate_oc) */
    double sim_pass[RATES], sim_episodes[RATES];   /* simulated           */
    int longest;
} gate_curve;

static double rate_at(int i) { return 0.5 + 0.025 * i; }

/* One simulated deployment: Bernoulli(p) episodes until the gate decides;
   returns 1 for PASS, the episodes spent in *n. */
static int simulate_once(const gate_curve* g, double p, s2r_rng* rng, int* n) {
    int k = 0;
    s2r_verdict v;
    *n = 0;
    do {
        k += s2r_rng_uniform(rng) < p;
        ++*n;
        v = g->stage == S2R_STAGE_TETHERED ? s2r_gate_tethered(&g->config, k, *n).verdict
                                           : s2r_gate_constrained(&g->config, k, *n, 0).verdict;
    } while (v == S2R_VERDICT_CONTINUE);
    return v == S2R_VERDICT_PASS;
}

/* Exact and simulated operating characteristic of one gate. */
static int measure(gate_curve* g, int runs, uint64_t seed) {
    int i, r, longest;
    g->longest = 0;
    for (i = 0; i < RATES; i++) {
        s2r_rng rng = s2r_rng_make(seed, (uint64_t)i);
        double passed = 0, spent = 0;
        if (s2r_gate_oc(&g->config, g->stage, rate_at(i), &g->pass[i], &g->episodes[i], &longest) != S2R_OK) return 1;
        if (longest > g->longest) g->longest = longest;
        for (r = 0; r < runs; r++) {
            int n;
            passed += simulate_once(g, rate_at(i), &rng, &n);
            spent += n;
        }
        g->sim_pass[i] = passed / runs;
        g->sim_episodes[i] = spent / runs;
    }
    return 0;
}

static void print_summary(const gate_curve* g) {
    const s2r_sprt_config t = s2r_gate_sprt(&g->config, g->stage);
    int at = (int)((t.p0 - 0.5) / 0.025 + 0.5), good = (int)((0.95 - 0.5) / 0.025 + 0.5);
    printf("  %-24s passes a policy at %.2f with probability %.3f (simulated %.3f), one at 0.95 with %.3f (%.3f); "
           "expected episodes %.1f and %.1f, never more than %d\n", g->name, t.p0, g->pass[at], g->sim_pass[at],
           g->pass[good], g->sim_pass[good], g->episodes[at], g->episodes[good], g->longest);
}

static int write_oc(const s2r_options* opt, const gate_curve* g, int n, int runs) {
    char path[512], title[96];
    s2r_file file;
    s2r_figure fig;
    int c, i, bad;
    if (!s2r_output_create(&file, s2r_path(path, sizeof path, opt->out, "11_gate_oc.csv"))) return 1;
    fprintf(file.f, "gate,rule,stage,true_success,pass_exact,pass_simulated,episodes_exact,episodes_simulated,"
                    "max_episodes,runs\n");
    for (c = 0; c < n; c++)
        for (i = 0; i < RATES; i++)
            fprintf(file.f, "%s,%s,%s,%.3f,%.6f,%.6f,%.3f,%.3f,%d,%d\n", g[c].name, s2r_gate_rule_name(g[c].config.rule),
                    s2r_stage_name(g[c].stage), rate_at(i), g[c].pass[i], g[c].sim_pass[i], g[c].episodes[i],
                    g[c].sim_episodes[i], g[c].longest, runs);
    if (s2r_output_commit(&file) != S2R_OK) return 1;
    if (s2r_figure_init(&fig, 1500, 520, 1, 2) != S2R_OK) { fprintf(stderr, "%s\n", fig.error); return 1; }
    snprintf(title, sizeof title, "Deployment gates: exact (lines) and %d simulated runs (dots) per rate", runs);
    s2r_figure_title(&fig, title);
    s2r_panel_labels(&fig, 0, "operating characteristic", "true success rate", "probability of passing");
    s2r_panel_labels(&fig, 1, "cost", "true success rate", "expected real episodes");
    for (c = 0; c < n; c++) {
        s2r_plot_style line = s2r_plot_style_default(), dots;
        double x[RATES];
        static const uint32_t colors[4] = {S2R_COLOR_BLUE, S2R_COLOR_VERMILION, S2R_COLOR_GREEN, S2R_COLOR_ORANGE};
        for (i = 0; i < RATES; i++) x[i] = rate_at(i);
        line.color = colors[c % 4];
        line.line = g[c].config.rule == S2R_GATE_INTERVAL ? S2R_LINE_DASHED : S2R_LINE_SOLID;
        line.label = g[c].name;
        dots = line;
        dots.label = NULL;
        dots.marker = S2R_MARKER_CIRCLE;
        dots.marker_size = 5;
        s2r_plot_line(&fig, 0, x, g[c].pass, RATES, &line);
        s2r_plot_scatter(&fig, 0, x, g[c].sim_pass, RATES, &dots);
        line.label = NULL;
        s2r_plot_line(&fig, 1, x, g[c].episodes, RATES, &line);
        s2r_plot_scatter(&fig, 1, x, g[c].sim_episodes, RATES, &dots);
    }
    {
        s2r_plot_style ref = s2r_plot_style_default();
        ref.label = "alpha 0.05";
        s2r_plot_hline(&fig, 0, 0.05, &ref);
    }
    bad = s2r_figure_write_png(&fig, s2r_path(path, sizeof path, opt->out, "11_gate_oc.png")) != S2R_OK;
    if (bad) fprintf(stderr, "%s\n", fig.error);
    s2r_figure_free(&fig);
    return bad;
}

/* --- The canary, measured ---------------------------------------------------- */

/* One simulated canary: the fixed comparison (interval rule: 80 episodes
   per controller) or the sequential one on pairs; returns 1 for PASS, the
   episodes each controller ran in *n. */
static int canary_once(const s2r_gate_config* c, int sequential, double pc, double pi, s2r_rng* rng, int* n) {
    int kc = 0, ki = 0, wins = 0, losses = 0;
    s2r_gate_result g;
    memset(&g, 0, sizeof g);
    *n = 0;
    do {
        int sc = s2r_rng_uniform(rng) < pc, si = s2r_rng_uniform(rng) < pi;
        kc += sc;
        ki += si;
        wins += sc && !si;
        losses += si && !sc;
        ++*n;
        if (sequential) g = s2r_gate_canary_pairs(c, *n, wins, losses);
    } while (sequential ? g.verdict == S2R_VERDICT_CONTINUE : *n < 80);
    if (!sequential) g = s2r_gate_canary(c, kc, *n, ki, *n);
    return g.verdict == S2R_VERDICT_PASS;
}

/* Both canaries passing a candidate worse than the incumbent by `drop`,
   over `runs` simulated canaries with independent episodes. */
static int measure_canary(const s2r_options* opt, int runs) {
    static const double incumbents[2] = {0.95, 0.85}, drops[5] = {0, 0.05, 0.10, 0.15, 0.20};
    s2r_gate_config c = s2r_gate_config_default();
    char path[512];
    s2r_file file;
    int a, b, r, q;
    if (!s2r_output_create(&file, s2r_path(path, sizeof path, opt->out, "11_canary_oc.csv"))) return 1;
    fprintf(file.f, "rule,incumbent,candidate,drop,pass_simulated,episodes_each,runs\n");
    printf("\nThe canary, %d simulated canaries each: the fixed comparison (80 episodes per controller, Newcombe "
           "interval and a %.2f margin) and the sequential one on pairs (worse share %.2f, alpha %.2f, beta %.2f, "
           "at most %d pairs):\n", runs, c.canary_margin, c.canary_worse_share, c.canary_alpha, c.canary_beta,
           c.canary_max_pairs);
    for (a = 0; a < 2; a++)
        for (b = 0; b < 5; b++) {
            double pi = incumbents[a], pc = pi - drops[b], pass[2], spent[2];
            for (q = 0; q < 2; q++) {
                s2r_rng rng = s2r_rng_make(opt->seed + 50 + (uint64_t)q, (uint64_t)(5 * a + b));
                int passed = 0;
                long long episodes = 0;
                for (r = 0; r < runs; r++) {
                    int n;
                    passed += canary_once(&c, q, pc, pi, &rng, &n);
                    episodes += n;
                }
                pass[q] = (double)passed / runs;
                spent[q] = (double)episodes / runs;
                fprintf(file.f, "%s,%.2f,%.2f,%.2f,%.5f,%.1f,%d\n", q ? "sequential" : "interval", pi, pc, drops[b],
                        pass[q], spent[q], runs);
            }
            printf("  incumbent %.2f, candidate %.2f (%.2f worse): fixed passes %5.1f %% (80 episodes each), "
                   "sequential %5.1f %% (%.0f)\n", pi, pc, drops[b], 100 * pass[0], 100 * pass[1], spent[1]);
        }
    if (s2r_output_commit(&file) != S2R_OK) return 1;
    return 0;
}

/* --- Drift detectors on streams with a known change ----------------------- */

/* Episodes after the change until the alarm (0: before it, a false alarm;
   -1: not within `after`). */
static int drift_delay(const s2r_drift_config* c, uint64_t seed, double p0, double p1, int before, int after) {
    s2r_drift d;
    s2r_rng rng = s2r_rng_make(seed, 11);
    int i;
    s2r_drift_init(&d, c, NULL);
    for (i = 0; i < c->warmup + before; i++)
        if (s2r_drift_update(&d, s2r_rng_uniform(&rng) < p0) == 1) return 0;
    for (i = 1; i <= after; i++)
        if (s2r_drift_update(&d, s2r_rng_uniform(&rng) < p1) == 1) return i;
    return -1;
}

static int compare_ints(const void* a, const void* b) { return *(const int*)a - *(const int*)b; }

/* False alarms over 1000 unchanged episodes at 0.95, and the delay to
   notice falls to 0.8 and 0.5 after 50 episodes, over `seeds` streams. */
static int measure_drift(const s2r_options* opt, int seeds) {
    static int delay[4096];
    static const double falls[2] = {0.8, 0.5};
    char path[512];
    s2r_file file;
    int m, f, s;
    if (!s2r_output_create(&file, s2r_path(path, sizeof path, opt->out, "11_drift.csv"))) return 1;
    fprintf(file.f, "detector,threshold,seeds,false_alarm_rate_1000,fall_to,missed_within_200,median_delay,p95_delay\n");
    printf("\nDrift detectors on success streams (0.95, warm-up 20), %d streams each:\n", seeds);
    for (m = 0; m < 2; m++) {
        s2r_drift_config c = m ? s2r_drift_config_page_hinkley(S2R_DRIFT_BERNOULLI) : s2r_drift_config_default(S2R_DRIFT_BERNOULLI);
        int false_alarms = 0;
        for (s = 0; s < seeds; s++) false_alarms += drift_delay(&c, (uint64_t)s, 0.95, 0.95, 1000, 0) == 0;
        for (f = 0; f < 2; f++) {
            int missed = 0;
            for (s = 0; s < seeds; s++) {
                int d = drift_delay(&c, 100000u + (uint64_t)s, 0.95, falls[f], 50, 200);
                if (d <= 0) { missed++; d = 1000; }   /* a false alarm or no alarm: not a detection */
                delay[s] = d;
            }
            qsort(delay, (size_t)seeds, sizeof *delay, compare_ints);
            fprintf(file.f, "%s,%.1f,%d,%.4f,%.2f,%d,%d,%d\n", s2r_drift_method_name(c.method), c.threshold, seeds,
                    (double)false_alarms / seeds, falls[f], missed, delay[seeds / 2], delay[(int)(0.95 * seeds) - 1]);
            printf("  %-13s false alarm within 1000 episodes %5.1f %%; fall to %.1f noticed after %3d episodes "
                   "(median), %3d (95th percentile)%s\n", s2r_drift_method_name(c.method), 100.0 * false_alarms / seeds,
                   falls[f], delay[seeds / 2], delay[(int)(0.95 * seeds) - 1], delay[(int)(0.95 * seeds) - 1] >= 1000 ?
                   " - not within 200" : "");
        }
    }
    if (s2r_output_commit(&file) != S2R_OK) return 1;
    return 0;
}

int main(int argc, char** argv) {
    s2r_options opt;
    gate_curve g[4];
    int status, c, runs, seeds;

    if (s2r_example_start(&opt, argc, argv, "the deployment gates' error rates and episode costs, measured",
                          S2R_OPT_SEED | S2R_OPT_OUT | S2R_OPT_QUICK, &status) != S2R_OK)
        return status;
    runs = opt.quick ? 500 : 20000;
    seeds = opt.quick ? 200 : 2000;
    s2r_interrupt_catch();   /* Ctrl-C or SIGTERM: stop between stages with status 130 */
    memset(g, 0, sizeof g);
    for (c = 0; c < 4; c++) {   /* sequential and interval, tethered and constrained */
        g[c].config = s2r_gate_config_default();
        g[c].stage = c % 2 ? S2R_STAGE_CONSTRAINED : S2R_STAGE_TETHERED;
        if (c >= 2) {           /* the earlier rules, with their own caps */
            g[c].config.rule = S2R_GATE_INTERVAL;
            g[c].config.tethered_max_episodes = 50;
            g[c].config.constrained_episodes = 100;
        }
    }
    g[0].name = "tethered, sequential";
    g[1].name = "constrained, sequential";
    g[2].name = "tethered, interval";
    g[3].name = "constrained, interval";

    printf("The plans (exact), as a team would budget robot time before starting:\n");
    for (c = 0; c < 4; c++) s2r_gate_plan_print(&g[c].config, g[c].stage);
    printf("\nEach gate at its threshold and at 0.95, exact and over %d simulated deployments:\n", runs);
    for (c = 0; c < 4; c++) {
        if (measure(&g[c], runs, opt.seed + (uint64_t)c)) { fprintf(stderr, "gate %s: invalid\n", g[c].name); return 1; }
        print_summary(&g[c]);
        if (s2r_example_stopped()) return 130;
    }
    if (write_oc(&opt, g, 4, runs)) return 1;
    if (s2r_example_stopped()) return 130;
    if (measure_canary(&opt, runs)) return 1;
    if (s2r_example_stopped()) return 130;
    if (measure_drift(&opt, seeds)) return 1;
    printf("\nwrote %s/11_gate_oc.csv, 11_gate_oc.png, 11_canary_oc.csv and 11_drift.csv\n", opt.out);
    return 0;
}
