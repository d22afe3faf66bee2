/* 13_recipe_depth.c - what the recipe's deeper tools buy: memory, ADR, a
   privileged critic.

   The same domain randomization training as example 02 runs twice per
   seed, once plain and once with one tool, and each policy is measured in
   the nominal simulator and on real unit --real-seed + s with the unit's
   camera calibrated (as the table's system-ID row runs), pooled over
   --seeds seeds with Wilson intervals, with the training time of each.
   The tool (one per run):

     memory (the default; --history K, 3): one observation cannot tell a
       slow servo from a long command delay, or a late camera from a slow
       object; the last few observations and actions can.  Peng et al.
       (2018) found a memory-less pushing policy clearly worse on a real
       arm than one with memory (s2r_training.history, s2r_frame_history).
     automatic DR (--adr): the ranges start at their centres and grow
       while the policy copes with their edges (s2r_adr; OpenAI et al.
       2019), instead of being fixed by hand from the start.
     a privileged critic (--privileged): under randomization the same
       observation may come from an easy or a hard episode, so a critic
       that sees only observations predicts returns blurred over the
       ranges; one that also sees the episode's parameters can tell them
       apart (Pinto et al. 2018, asymmetric actor-critic).  The actor -
       the deployed policy - still sees observations only
       (s2r_training.privileged_critic, s2r_sim_privileged).

   Uses: s2r_options_ranges, s2r_train, s2r_history_obs_dim, s2r_adr_init,
         s2r_adr_write_csv, s2r_calibrate_unit, s2r_evaluate_sim_and_real,
         s2r_sim_real_eval_pool, s2r_figure_*.
   Writes, for TOOL memory, adr or privileged: DIR/13_TOOL.csv (one row per
           seed and policy, and the pooled rows), DIR/13_TOOL.png (success
           with intervals, sim and real), the checkpoints
           DIR/13_<policy>_seed<N>.ckpt (policy dr, memory, adr or
           privileged; the plain DR policy is the same in every run) and
           their learning curves
           DIR/13_<policy>_seed<N>_training.csv; with --adr each ADR run's
           moves, DIR/13_adr_seed<N>_ranges.csv. */
#define SIM2REAL_IMPLEMENTATION
#include "../sim2real.h"
#include "../sim2real_reports.h"
#include "s2r_cli.h"
#include "s2r_figures.h"
#include <stdio.h>
#include <string.h>

#define MAX_SEEDS 16

typedef struct arm_result {        /* one policy kind: plain DR, or with the tool */
    const char*       name;         /* in file names: "dr", "h3", "adr"   */
    const char*       label;        /* in the output                     */
    int               history;      /* frames of memory                  */
    int               adr;          /* ranges grown by ADR               */
    int               privileged;   /* the critic sees the episode's parameters */
    s2r_sim_real_eval pooled;
    s2r_sim_real_eval seed[MAX_SEEDS];
    double            seconds;      /* training wall time, summed        */
} arm_result;

/* The tool this run compares: its name in files, its title, and the two
   policies' labels. */
typedef struct tool_names { const char *name, *title, *plain, *with; } tool_names;
static const tool_names tools[3] = {
    {"memory", "Memory", "one observation", "with memory"},
    {"adr", "ADR", "hand-set ranges", "automatic DR"},
    {"privileged", "Privileged critic", "plain critic", "privileged critic"}};
static const tool_names* tool(const s2r_options* opt) { return &tools[opt->adr ? 1 : opt->privileged ? 2 : 0]; }

/* Train DR (with the policy kind's tool) for seed s; evaluate it on the
   nominal simulator and on unit real_seed + s with the camera calibrated. */
static int run_one(const s2r_options* opt, int s, arm_result* r) {
    s2r_training t = s2r_training_default(opt->robot, opt->task);
    s2r_ppo_config pc = s2r_task_ppo_config(opt->task, opt->quick ? 8000 : s2r_task_training_steps(opt->task, 0),
                                            opt->seed + (uint64_t)s, opt->threads);
    s2r_ppo ppo;
    s2r_adr adr;
    s2r_controller policy;
    double camera[3], start;
    char error[S2R_ERROR_LEN] = "", name[64], path[512], csv[512];
    int obs_dim, act_dim, bad = 0;
    s2r_result res;
    uint64_t unit = opt->real_seed + (uint64_t)s;
    s2r_task_dims(opt->task, opt->robot, &obs_dim, &act_dim);
    t.privileged_critic = r->privileged;
    pc.privileged_dim = r->privileged ? S2R_PRIVILEGED_DIM : 0;
    if (s2r_options_ranges(opt, &t.randomization, error) != S2R_OK) {   /* --ranges, or the task's defaults */
        fprintf(stderr, "%s\n", error);
        return 1;
    }
    t.history = r->history;
    t.progress = 0;
    if (r->adr) {
        s2r_adr_config ac = s2r_adr_config_default();
        if (s2r_adr_init(&adr, &ac, &t.randomization) != S2R_OK) { fprintf(stderr, "%s\n", adr.error); return 1; }
        t.adr = &adr;
    }
    snprintf(name, sizeof name, "13_%s_seed%d_training.csv", r->name, s);   /* the learning curve */
    t.csv_path = s2r_path(csv, sizeof csv, opt->out, name);
    if (s2r_ppo_init(&ppo, &pc, s2r_history_obs_dim(obs_dim, act_dim, r->history), act_dim) != S2R_OK) {
        fprintf(stderr, "%s\n", ppo.error);
        if (r->adr) s2r_adr_free(&adr);
        return 1;
    }
    printf("  seed %d, %s: training ...\n", s, r->label);
    fflush(stdout);
    start = s2r_seconds();
    if ((res = s2r_train(&t, &ppo, error)) != S2R_OK) bad = res == S2R_ERR_INTERRUPTED ? 130 : 1;
    r->seconds += s2r_seconds() - start;
    snprintf(name, sizeof name, "13_%s_seed%d.ckpt", r->name, s);
    if (!bad && s2r_policy_save(&ppo.policy, NULL, s2r_path(path, sizeof path, opt->out, name)) != S2R_OK) {
        snprintf(error, sizeof error, "%s", ppo.policy.error);
        bad = 1;
    }
    snprintf(name, sizeof name, "13_adr_seed%d_ranges.csv", s);
    if (!bad && r->adr) bad = s2r_adr_write_csv(&adr, s2r_path(path, sizeof path, opt->out, name), error) != S2R_OK;
    if (!bad && s2r_calibrate_unit(opt->robot, unit, opt->seed + 2, camera, NULL, error) != S2R_OK) bad = 1;
    if (!bad) {
        s2r_task_config_set_camera(&t.task, camera);
        policy = s2r_policy_controller(&ppo.policy);   /* evaluation stacks its history per episode */
        bad = s2r_evaluate_sim_and_real(&policy, opt->robot, &t.task, NULL, opt->quick ? 10 : 200, 1000 + (uint64_t)s,
                                        unit, 1, &r->seed[s], error) != S2R_OK;
    }
    if (bad) fprintf(stderr, "%s\n", error);
    else {
        s2r_sim_real_eval_pool(&r->pooled, &r->seed[s]);
        s2r_sim_real_eval_print(r->label, &r->seed[s]);
    }
    if (r->adr) s2r_adr_free(&adr);
    s2r_ppo_free(&ppo);
    return bad;
}

static int write_results(const s2r_options* opt, const arm_result* r) {
    char path[512], title[128], name[32];
    const char* names[2] = {r[0].label, r[1].label};
    double v[2][2], lo[2][2], hi[2][2];
    s2r_plot_style style = s2r_plot_style_default();
    s2r_figure fig;
    s2r_file file;
    int k, s, bad;
    snprintf(name, sizeof name, "13_%s.csv", tool(opt)->name);
    if (!s2r_output_create(&file, s2r_path(path, sizeof path, opt->out, name))) return 1;
    fprintf(file.f, "robot,task,policy,history,adr,privileged,seed,unit,sim_success,sim_lo,sim_hi,real_success,"
                    "real_lo,real_hi,training_seconds\n");
    for (k = 0; k < 2; k++) {
        for (s = 0; s <= opt->seeds; s++) {   /* the seeds, then the pooled row (seed -1) */
            const s2r_sim_real_eval* e = s < opt->seeds ? &r[k].seed[s] : &r[k].pooled;
            fprintf(file.f, "%s,%s,%s,%d,%d,%d,%d,%lld,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.0f\n",
                    s2r_robot_kind_name(opt->robot), s2r_task_kind_name(opt->task), r[k].name, r[k].history, r[k].adr,
                    r[k].privileged, s < opt->seeds ? s : -1,
                    s < opt->seeds ? (long long)(opt->real_seed + (uint64_t)s) : -1LL, e->sim.success_rate,
                    e->sim.success_lo, e->sim.success_hi, e->real.success_rate, e->real.success_lo, e->real.success_hi,
                    r[k].seconds);
        }
        v[0][k] = 100 * r[k].pooled.sim.success_rate;
        lo[0][k] = 100 * r[k].pooled.sim.success_lo;
        hi[0][k] = 100 * r[k].pooled.sim.success_hi;
        v[1][k] = 100 * r[k].pooled.real.success_rate;
        lo[1][k] = 100 * r[k].pooled.real.success_lo;
        hi[1][k] = 100 * r[k].pooled.real.success_hi;
    }
    if (s2r_output_commit(&file) != S2R_OK) return 1;
    if (s2r_figure_init(&fig, 1000, 480, 1, 2) != S2R_OK) { fprintf(stderr, "%s\n", fig.error); return 1; }
    snprintf(title, sizeof title, "%s %s, %d seeds: %s vs %s", s2r_robot_kind_name(opt->robot),
             s2r_task_kind_name(opt->task), opt->seeds, r[0].label, r[1].label);
    s2r_figure_title(&fig, title);
    for (k = 0; k < 2; k++) {
        s2r_panel_labels(&fig, k, k ? "real units, camera calibrated" : "nominal simulator", "", "success % (95 % CI)");
        s2r_panel_categories(&fig, k, names, 2);
        s2r_plot_bars(&fig, k, v[k], lo[k], hi[k], 2, &style);
    }
    snprintf(name, sizeof name, "13_%s.png", tool(opt)->name);
    bad = s2r_figure_write_png(&fig, s2r_path(path, sizeof path, opt->out, name)) != S2R_OK;
    if (bad) fprintf(stderr, "%s\n", fig.error);
    s2r_figure_free(&fig);
    return bad;
}

int main(int argc, char** argv) {
    s2r_options opt;
    static arm_result r[2];
    int status, s, k;

    if (s2r_example_start(&opt, argc, argv, "DR plain against DR with memory (--history K), with ADR (--adr) or with a "
                          "privileged critic (--privileged); unlike the other programs, --task "
                          "defaults to push here and --history to 3 (0 with --adr or --privileged)",
                          S2R_OPT_ROBOT | S2R_OPT_TASK | S2R_OPT_SEED | S2R_OPT_REAL_SEED | S2R_OPT_SEEDS |
                          S2R_OPT_THREADS | S2R_OPT_OUT | S2R_OPT_QUICK | S2R_OPT_HISTORY | S2R_OPT_RANGES | S2R_OPT_ADR |
                          S2R_OPT_PRIVILEGED, &status) != S2R_OK)
        return status;
    if (!(opt.given & S2R_OPT_TASK)) opt.task = S2R_TASK_PUSH;   /* where the tools have something to do */
    if (!(opt.given & S2R_OPT_HISTORY)) opt.history = opt.adr || opt.privileged ? 0 : 3;
    if (!(opt.given & S2R_OPT_SEEDS) && opt.quick) opt.seeds = 1;
    if (opt.adr + opt.privileged + (opt.history > 0) != 1 || opt.seeds > MAX_SEEDS) {
        fprintf(stderr, "need one tool per run - --history 1..%d, --adr or --privileged - and --seeds up to %d\n",
                S2R_HISTORY_MAX, MAX_SEEDS);
        return 2;
    }
    r[0].name = "dr";
    r[0].label = tool(&opt)->plain;
    r[1].name = tool(&opt)->name;
    r[1].label = tool(&opt)->with;
    r[1].history = opt.history;
    r[1].adr = opt.adr;
    r[1].privileged = opt.privileged;
    s2r_interrupt_catch();   /* Ctrl-C or SIGTERM: stop between stages with status 130 */
    printf("%s on %s %s: DR training, %s and %s, %d seed(s), units #%llu..\n",
           tool(&opt)->title,
           s2r_robot_kind_name(opt.robot), s2r_task_kind_name(opt.task), r[0].label, r[1].label, opt.seeds,
           (unsigned long long)opt.real_seed);
    for (s = 0; s < opt.seeds; s++)
        for (k = 0; k < 2; k++) {
            if ((status = run_one(&opt, s, &r[k])) != 0) return status;
            if (s2r_example_stopped()) return 130;
        }
    printf("\nPooled over %d seed(s):\n", opt.seeds);
    s2r_sim_real_eval_print(r[0].label, &r[0].pooled);
    s2r_sim_real_eval_print(r[1].label, &r[1].pooled);
    printf("training time: %.0f s and %.0f s\n", r[0].seconds, r[1].seconds);
    if (write_results(&opt, r)) return 1;
    printf("wrote %s/13_%s.csv and 13_%s.png\n", opt.out, tool(&opt)->name, tool(&opt)->name);
    return 0;
}
