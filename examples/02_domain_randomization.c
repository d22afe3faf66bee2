/* 02_domain_randomization.c - train on many simulators instead of one.

   The same PPO as the pure-sim policy of 01, but every training episode
   runs on a simulator whose physics, actuation, sensing and latency are
   drawn afresh from the default randomization table (friction 0.5-1.5x,
   damping and armature 0.7-1.4x, link masses +-10 %, a payload up to
   0.5 kg, servo gains, torque limits, timestep jitter, 10-30 ms of command
   latency, sensor noise; see s2r_randomization_default; for --task push
   also the object, table and camera, s2r_randomization_push).  A policy that
   succeeds on all of them has to be robust to what it cannot observe, and
   so transfers better to a real unit it has never seen.  The ranges are
   saved as a text file you can edit and load back with
   s2r_randomization_load; --ranges FILE trains on such a file instead (for
   example the ranges example 12 recentred on your arm's logs), and
   --history K gives the policy memory: it sees its last K observations
   and actions too (s2r_frame_history).  --adr lets training grow the
   ranges itself instead (automatic domain randomization, s2r_adr): every
   range starts at its centre and widens while the policy copes with its
   edges.  --mjcf FILE trains your own arm instead (measured in its
   simulator only: it has no stand-in fleet).

   Uses: s2r_options_ranges, s2r_training_check_resume, s2r_upstream_policy,
         s2r_randomization_write, s2r_adr_init,
         s2r_train, s2r_plot_training_csv, s2r_policy_save, s2r_adr_write_csv,
         s2r_evaluate_sim_and_real, s2r_robustness_sweep.
   Writes: DIR/02_ranges.txt, DIR/02_dr.ckpt, DIR/02_dr_training.csv,
           DIR/02_dr_training.png, DIR/02_dr.csv; and, to show what the
           ranges do to one simulator, DIR/02_draws.csv (the parameters
           drawn for 200 episodes) and DIR/02_sensing.csv (one episode's
           commanded, true and measured joint angle around a step command);
           DIR/02_margin.csv and DIR/02_margin.png (success with the command
           latency and the servo stiffness pushed past the ranges, this
           policy and 01's); with --adr, DIR/02_adr_ranges.csv (every move
           of every range) and DIR/02_adr_final.txt (the ranges reached);
           with --task push the same names with _push after the number
           (DIR/02_push_dr.ckpt, ...), reading 01's push policy.
   Next: 03_system_id.c - measure the real unit and re-centre the ranges. */
#define SIM2REAL_IMPLEMENTATION
#include "../sim2real.h"
#include "../sim2real_reports.h"
#include "../sim2real_analysis.h"
#include "s2r_cli.h"
#include "s2r_figures.h"
#include <stdio.h>
#include <string.h>

#define DRAWS 200            /* episodes in 02_draws.csv                  */
#define TRACE_SECONDS 0.6    /* s, length of 02_sensing.csv               */
#define STEP_AT 0.05         /* s, when joint 1's command steps           */
#define STEP_SIZE 0.2        /* rad, by how much                          */

/* One randomized simulator, shown rather than trained on: the values it
   drew for DRAWS episodes (one column per enabled parameter, in the units
   of 02_ranges.txt), then one more episode in which joint 1 is commanded a
   step.  Every physics step the trace holds the command, the true angle
   and the angle the controller reads - the command latency, the sensing
   delay and the encoder noise, side by side, with that episode's draws. */
/* The simulator of the arm trained on: a built-in one, or --mjcf's. */
static s2r_sim_config arm_sim_config(const s2r_options* opt) {
    s2r_sim_config sc = s2r_task_sim_config(opt->task, opt->mjcf[0] ? S2R_ROBOT_CUSTOM : opt->robot);
    if (opt->mjcf[0]) sc.mjcf_path = opt->mjcf;
    return sc;
}

/* Your own arm (--mjcf) has no stand-in fleet: the policy is measured in
   its nominal simulator only. */
static int evaluate_in_sim(const s2r_options* opt, s2r_policy* p, const s2r_training* t, char* error) {
    s2r_sim_config sc = arm_sim_config(opt);
    s2r_controller c = s2r_policy_controller(p);
    s2r_eval_result r;
    s2r_sim sim;
    s2r_task task;
    int bad;
    if (s2r_sim_init(&sim, &sc) != S2R_OK) { snprintf(error, S2R_ERROR_LEN, "%s", sim.error); return 1; }
    bad = s2r_task_init(&task, &t->task, &sim.backend) != S2R_OK;
    if (bad) snprintf(error, S2R_ERROR_LEN, "%s", task.error ? task.error : "task");
    else if ((bad = s2r_evaluate(&c, &task, opt->quick ? 20 : 200, opt->seed + 1000, &r, NULL) != S2R_OK))
        snprintf(error, S2R_ERROR_LEN, "%s", task.error);
    else
        printf("  sim + domain randomization on %s: sim %.1f %% [%.1f, %.1f] (no stand-in fleet for your arm: no "
               "real units)\n", opt->mjcf, 100 * r.success_rate, 100 * r.success_lo, 100 * r.success_hi);
    if (!bad) s2r_task_free(&task);
    s2r_sim_free(&sim);
    return bad;
}

static s2r_result show_randomization(const s2r_options* opt, const s2r_randomization* r, char* error) {
    s2r_sim sim;
    s2r_sim_config sc = arm_sim_config(opt);
    s2r_rng rng = s2r_rng_make(opt->seed, 0xd2);
    const s2r_backend* b;
    char path[512];
    double q[S2R_MAX_JOINTS];
    s2r_file file;   /* each CSV, written whole or not at all */
    FILE* f;
    int e, p;
    s2r_result res;
    sc.randomization = *r;
    if ((res = s2r_sim_init(&sim, &sc)) != S2R_OK) { snprintf(error, S2R_ERROR_LEN, "%s", sim.error); return res; }
    b = s2r_sim_backend(&sim);
    if ((res = s2r_file_create(&file, s2r_task_path(path, sizeof path, opt, "02", "draws.csv"), error)) != S2R_OK) {
        s2r_sim_free(&sim);
        return res;
    }
    f = file.f;
    fprintf(f, "episode");
    for (p = 0; p < S2R_PARAM_COUNT; p++) if (r->p[p].enabled) fprintf(f, ",%s", s2r_param_name((s2r_param)p));
    for (e = 0; e < DRAWS && res == S2R_OK; e++) {
        res = s2r_backend_reset(b, NULL, NULL, &rng);   /* a fresh draw, as every training episode gets */
        fprintf(f, "\n%d", e);
        for (p = 0; p < S2R_PARAM_COUNT; p++) if (r->p[p].enabled) fprintf(f, ",%.6g", sim.draw.value[p]);
    }
    fprintf(f, "\n");
    if (res != S2R_OK) s2r_file_discard(&file);
    else if ((res = s2r_file_commit(&file, error)) == S2R_OK)
        res = s2r_file_create(&file, s2r_task_path(path, sizeof path, opt, "02", "sensing.csv"), error);
    f = file.f;
    if (res == S2R_OK && (res = s2r_backend_reset(b, NULL, NULL, &rng)) == S2R_OK) {
        double dt = sim.robot.model->opt.timestep;   /* this episode's (randomized) physics step */
        memcpy(q, b->info->q_home, sizeof q);
        fprintf(f, "time_s,command_rad,true_rad,measured_rad,action_latency_s,obs_latency_s,qpos_noise_rad\n");
        while (res == S2R_OK && sim.time < TRACE_SECONDS) {
            s2r_sensors s;
            s2r_ground_truth g;
            if (sim.time >= STEP_AT) q[0] = b->info->q_home[0] + STEP_SIZE;
            if ((res = s2r_backend_command(b, q)) == S2R_OK && (res = s2r_backend_advance(b, dt)) == S2R_OK &&
                (res = s2r_backend_read_sensors(b, &s)) == S2R_OK && (res = s2r_backend_ground_truth(b, &g)) == S2R_OK)
                fprintf(f, "%.4f,%.6f,%.6f,%.6f,%.4f,%.4f,%.6f\n", s.time, q[0], g.q[0], s.q[0],
                        sim.draw.value[S2R_PARAM_ACTION_LATENCY], sim.draw.value[S2R_PARAM_OBS_LATENCY],
                        sim.draw.value[S2R_PARAM_QPOS_NOISE]);
        }
    }
    if (res == S2R_OK) res = s2r_file_commit(&file, error);
    else s2r_file_discard(&file);   /* does nothing when no file is open */
    if (res != S2R_OK && sim.error[0]) snprintf(error, S2R_ERROR_LEN, "%s", sim.error);   /* else s2r_file said */
    s2r_sim_free(&sim);
    return res;
}

/* What the ranges bought: the DR policy and, when 01 ran into the same
   folder, the pure-sim policy, each on the nominal simulator with one
   parameter pushed past the training ranges (s2r_robustness_sweep). */
#define SWEEP_VALUES 5
#define MARGIN_EPISODES(quick) ((quick) ? 10 : 200)   /* per value and policy */
static const struct { s2r_param param; int count; double values[SWEEP_VALUES]; const char* axis; } SWEEPS[2] = {
    {S2R_PARAM_ACTION_LATENCY, 5, {0, 0.02, 0.04, 0.06, 0.08}, "command latency, s"},
    {S2R_PARAM_KP, 4, {1, 0.7, 0.5, 0.3}, "servo stiffness kp, x nominal"},
};

typedef struct margin {
    int             policies;                     /* 1 (DR) or 2 (DR, pure sim) */
    const char*     name[2];
    s2r_eval_result result[2][2][SWEEP_VALUES];   /* [policy][sweep][value]     */
} margin;

/* Every sweep on every policy. */
static s2r_result measure_margin(const s2r_options* opt, s2r_policy* const* policies, const s2r_task_config* task,
                                 margin* m, char* error) {
    int i, w;
    for (i = 0; i < m->policies; i++)
        for (w = 0; w < 2; w++) {
            s2r_controller c = s2r_policy_controller(policies[i]);
            s2r_result res = s2r_robustness_sweep(&c, opt->robot, task, SWEEPS[w].param, SWEEPS[w].values,
                                                  SWEEPS[w].count, MARGIN_EPISODES(opt->quick), opt->seed + 3000,
                                                  m->result[i][w], error);
            if (res != S2R_OK) return res;
        }
    return S2R_OK;
}

/* Printed as a small table, and written to 02_margin.csv. */
static s2r_result write_margin(const s2r_options* opt, const margin* m, char* error) {
    char path[512];
    s2r_file file;
    s2r_result res = s2r_file_create(&file, s2r_task_path(path, sizeof path, opt, "02", "margin.csv"), error);
    int i, w, k;
    if (res != S2R_OK) return res;
    fprintf(file.f, "policy,parameter,value,episodes,successes,success,success_lo,success_hi,final_distance_m\n");
    for (w = 0; w < 2; w++) {
        printf("  %-15s", s2r_param_name(SWEEPS[w].param));
        for (k = 0; k < SWEEPS[w].count; k++) printf(" %6g", SWEEPS[w].values[k]);
        printf("\n");
        for (i = 0; i < m->policies; i++) {
            printf("    %-13s", m->name[i]);
            for (k = 0; k < SWEEPS[w].count; k++) {
                const s2r_eval_result* e = &m->result[i][w][k];
                printf(" %5.1f%%", 100 * e->success_rate);
                fprintf(file.f, "%s,%s,%g,%d,%d,%.4f,%.4f,%.4f,%.5f\n", m->name[i], s2r_param_name(SWEEPS[w].param),
                        SWEEPS[w].values[k], e->episodes, e->successes, e->success_rate, e->success_lo,
                        e->success_hi, e->mean_distance);
            }
            printf("\n");
        }
    }
    return s2r_file_commit(&file, error);
}

/* The range DR trained parameter p on, between two grey lines. */
static s2r_result plot_trained_range(s2r_figure* fig, int panel, const s2r_randomization* trained, s2r_param p) {
    s2r_plot_style range = s2r_plot_style_default();
    double lo, hi;
    s2r_result res;
    if (!trained->p[p].enabled) return S2R_OK;
    s2r_dist_support(&trained->p[p].dist, &lo, &hi);
    range.label = "DR range";
    res = s2r_plot_vline(fig, panel, lo, &range);
    range.label = NULL;
    return res == S2R_OK ? s2r_plot_vline(fig, panel, hi, &range) : res;
}

/* 02_margin.png: one panel per sweep, success with its interval band, and
   the range DR trained on. */
static s2r_result plot_margin(const s2r_options* opt, const margin* m, const s2r_randomization* trained,
                              char* error) {
    s2r_figure fig;
    char path[512], title[128];
    s2r_result res = s2r_figure_init(&fig, 1400, 500, 1, 2);
    int i, w, k;
    snprintf(title, sizeof title, "What DR bought on the %s: one parameter pushed, the rest nominal",
             s2r_robot_kind_name(opt->robot));
    if (res == S2R_OK) res = s2r_figure_title(&fig, title);
    for (w = 0; w < 2 && res == S2R_OK; w++) {
        res = s2r_panel_labels(&fig, w, s2r_param_name(SWEEPS[w].param), SWEEPS[w].axis, "success rate");
        if (res == S2R_OK) res = s2r_panel_yrange(&fig, w, 0, 1.05);
        if (res == S2R_OK) res = plot_trained_range(&fig, w, trained, SWEEPS[w].param);
        for (i = 0; i < m->policies && res == S2R_OK; i++) {
            s2r_plot_style style = s2r_plot_style_default();
            double y[SWEEP_VALUES], lo[SWEEP_VALUES], hi[SWEEP_VALUES];
            for (k = 0; k < SWEEPS[w].count; k++) {
                y[k] = m->result[i][w][k].success_rate;
                lo[k] = m->result[i][w][k].success_lo;
                hi[k] = m->result[i][w][k].success_hi;
            }
            style.label = m->name[i];
            style.marker = S2R_MARKER_CIRCLE;
            res = s2r_plot_line(&fig, w, SWEEPS[w].values, y, SWEEPS[w].count, &style);
            style.label = NULL;
            if (res == S2R_OK) res = s2r_plot_band(&fig, w, SWEEPS[w].values, lo, hi, SWEEPS[w].count, &style);
        }
    }
    if (res == S2R_OK) res = s2r_figure_write_png(&fig, s2r_task_path(path, sizeof path, opt, "02", "margin.png"));
    if (res != S2R_OK) snprintf(error, S2R_ERROR_LEN, "margin figure: %.200s", fig.error);
    s2r_figure_free(&fig);
    return res;
}

static s2r_result show_margin(const s2r_options* opt, s2r_policy* dr, s2r_policy* pure, const s2r_training* training,
                              char* error) {
    s2r_policy* policies[2];
    margin m;
    s2r_result res;
    memset(&m, 0, sizeof m);
    policies[0] = dr;
    m.name[0] = "DR (02)";
    m.policies = 1;
    if (pure) {
        policies[1] = pure;
        m.name[1] = "pure sim (01)";
        m.policies = 2;
    }
    res = measure_margin(opt, policies, &training->task, &m, error);
    if (res == S2R_OK) res = write_margin(opt, &m, error);
    if (res == S2R_OK) res = plot_margin(opt, &m, &training->randomization, error);
    return res;
}

/* 01's pure-sim policy, to compare with in the margin, when 01 ran into
   the same folder for this arm and task: checked before any work (a file
   there but corrupt, or for another arm or task, stops the example).
   Returns 1 when it is loaded into *pure. */
static int load_pure_sim(const s2r_options* opt, s2r_policy* pure, s2r_result* res, char* error) {
    char path[512];
    *res = S2R_OK;
    s2r_task_path(path, sizeof path, opt, "01", "pure_sim.ckpt");
    if (opt->mjcf[0]) return 0;   /* your arm: measured in its simulator only, no margin */
    if (!s2r_file_exists(path)) {
        printf("  (not comparing with 01's pure-sim policy: %s not found)\n", path);
        return 0;
    }
    if (opt->history > 0) {
        printf("  (not comparing with 01's pure-sim policy: it sees no history)\n");
        return 0;
    }
    *res = s2r_upstream_policy(pure, path, opt, 0, NULL, error);
    return *res == S2R_OK;
}

/* --adr: every move of the ranges, and where they ended beside where the
   hand-set ranges are. */
static s2r_result write_adr(const s2r_options* opt, const s2r_adr* adr, char* error) {
    char path[512];
    s2r_result res = s2r_adr_write_csv(adr, s2r_task_path(path, sizeof path, opt, "02", "adr_ranges.csv"), error);
    int i;
    if (res == S2R_OK) res = s2r_randomization_write(&adr->current, s2r_task_path(path, sizeof path, opt, "02", "adr_final.txt"), error);
    if (res != S2R_OK) return res;
    printf("ADR after %d updates (%d moves; 02_adr_ranges.csv): range reached, hand-set range\n", adr->update,
           adr->n_changes - adr->n_params);
    for (i = 0; i < adr->n_params; i++) {
        s2r_param p = adr->param[i];
        double lo, hi;
        s2r_dist_support(&adr->training.p[p].dist, &lo, &hi);
        printf("  %-15s [%8.4g, %8.4g]   [%8.4g, %8.4g]\n", s2r_param_name(p), adr->current.p[p].dist.lo,
               adr->current.p[p].dist.hi, lo, hi);
    }
    return S2R_OK;
}

/* Everything the run will use, made and checked before anything is
   written: the ranges (--ranges; the simulator built with them when the
   example started), your arm's sizes (--mjcf), ADR, the learner, a saved
   state that must continue this training (--resume), and 01's policy. */
typedef struct dr_run {
    s2r_training training;
    s2r_ppo      ppo;
    s2r_adr      adr;
    s2r_policy   pure;   /* 01's, when has_pure */
    int          has_pure;
    char         csv[512], state[512], name[64];
} dr_run;

static s2r_result prepare(const s2r_options* opt, long long steps, dr_run* run, char* error) {
    s2r_ppo_config pc = s2r_task_ppo_config(opt->task, steps, opt->seed, opt->threads);
    s2r_training* t = &run->training;
    int obs_dim, act_dim;
    s2r_result res;
    *t = s2r_training_default(opt->robot, opt->task);
    if ((res = s2r_options_ranges(opt, &t->randomization, error)) != S2R_OK) return res;
    if ((res = s2r_options_task_dims(opt, &obs_dim, &act_dim, error)) != S2R_OK) return res;   /* --mjcf: its joints */
    if (opt->mjcf[0]) {   /* your arm */
        t->robot = S2R_ROBOT_CUSTOM;
        t->mjcf_path = opt->mjcf;
    }
    t->history = opt->history;   /* --history K: the policy sees its last K steps too */
    t->label = "domain randomization";
    t->csv_path = s2r_task_path(run->csv, sizeof run->csv, opt, "02", "dr_training.csv");
    s2r_training_use_options(t, opt, s2r_task_name(run->name, sizeof run->name, opt, "02", "dr"), run->state,
                             sizeof run->state);
    if (opt->adr) {   /* --adr: the ranges start at their centres and grow while the policy copes */
        s2r_adr_config ac = s2r_adr_config_default();
        if ((res = s2r_adr_init(&run->adr, &ac, &t->randomization)) != S2R_OK) {
            snprintf(error, S2R_ERROR_LEN, "%s", run->adr.error);
            return res;
        }
        t->adr = &run->adr;
    }
    if ((res = s2r_ppo_init(&run->ppo, &pc, s2r_history_obs_dim(obs_dim, act_dim, opt->history), act_dim)) != S2R_OK) {
        snprintf(error, S2R_ERROR_LEN, "%s", run->ppo.error);
        if (opt->adr) s2r_adr_free(&run->adr);
        return res;
    }
    if ((res = s2r_training_check_resume(t, &run->ppo, error)) == S2R_OK)
        run->has_pure = load_pure_sim(opt, &run->pure, &res, error);
    if (res != S2R_OK) {
        s2r_ppo_free(&run->ppo);
        if (opt->adr) s2r_adr_free(&run->adr);
    }
    return res;
}

static void free_run(const s2r_options* opt, dr_run* run) {
    if (opt->adr) s2r_adr_free(&run->adr);
    if (run->has_pure) s2r_policy_free(&run->pure);
    s2r_ppo_free(&run->ppo);
}

/* 2-4: the ranges written and shown, training, evaluation, the margin. */
static s2r_result run_steps(const s2r_options* opt, long long steps, dr_run* run, char* error) {
    s2r_training* t = &run->training;
    s2r_controller policy;
    s2r_sim_real_eval eval;
    char path[512], png[512];
    s2r_result res;

    /* 2. The ranges, written out so they can be edited, and what they do
          to one simulator. */
    if ((res = s2r_randomization_write(&t->randomization, s2r_task_path(path, sizeof path, opt, "02", "ranges.txt"),
                                       error)) != S2R_OK)
        return res;
    if (opt->mjcf[0]) printf("Domain randomization on your arm (%s): ranges in %s\n", opt->mjcf, path);
    else printf("Domain randomization on the %s: ranges in %s\n", s2r_robot_kind_name(opt->robot), path);
    if ((res = show_randomization(opt, &t->randomization, error)) != S2R_OK) return res;
    if (s2r_example_stopped()) return S2R_ERR_INTERRUPTED;
    printf("  %d episodes' draws in %s; one step response, true and as sensed, in %s\n", DRAWS,
           s2r_task_path(path, sizeof path, opt, "02", "draws.csv"), s2r_task_path(png, sizeof png, opt, "02", "sensing.csv"));

    /* 3. Train: the same PPO as 01, every episode on freshly drawn physics. */
    printf("PPO on randomized simulators for %lld steps%s\n", steps, opt->adr ? ", ranges grown by ADR" : "");
    if ((res = s2r_train(t, &run->ppo, error)) != S2R_OK ||
        (res = s2r_plot_training_csv(t->csv_path, s2r_task_path(png, sizeof png, opt, "02", "dr_training.png"), t->label,
                                     error)) != S2R_OK)
        return res;
    if ((res = s2r_policy_save(&run->ppo.policy, &run->ppo.adam, s2r_task_path(path, sizeof path, opt, "02", "dr.ckpt"))) !=
        S2R_OK) {
        snprintf(error, S2R_ERROR_LEN, "%s", run->ppo.policy.error);
        return res;
    }
    if (opt->adr && (res = write_adr(opt, &run->adr, error)) != S2R_OK) return res;
    if (s2r_example_stopped()) return S2R_ERR_INTERRUPTED;

    /* 4. Evaluate on the nominal simulator and on the same real units as 01. */
    if (opt->mjcf[0]) return evaluate_in_sim(opt, &run->ppo.policy, t, error) ? S2R_ERR_STATE : S2R_OK;
    policy = s2r_policy_controller(&run->ppo.policy);
    if ((res = s2r_evaluate_sim_and_real(&policy, opt->robot, &t->task, NULL, opt->quick ? 20 : 100, opt->seed + 1000,
                                         opt->real_seed, 3, &eval, error)) != S2R_OK ||
        (res = s2r_sim_real_eval_write(s2r_task_path(path, sizeof path, opt, "02", "dr.csv"), "sim + DR", &eval, error)) !=
            S2R_OK)
        return res;
    s2r_sim_real_eval_print("sim + domain randomization", &eval);
    if (s2r_example_stopped()) return S2R_ERR_INTERRUPTED;

    /* 5. The margin the ranges bought: success with the command latency and
          the servo stiffness pushed past what either policy trained on. */
    printf("Margin, in the nominal simulator with one parameter pushed (%d episodes each; %s, .png):\n",
           MARGIN_EPISODES(opt->quick), s2r_task_path(path, sizeof path, opt, "02", "margin.csv"));
    return show_margin(opt, &run->ppo.policy, run->has_pure ? &run->pure : NULL, t, error);
}

int main(int argc, char** argv) {
    static dr_run run;
    s2r_options opt;
    int status;
    char error[S2R_ERROR_LEN] = "";
    s2r_result res;
    long long steps;

    if (s2r_example_start(&opt, argc, argv, "PPO with domain randomization",
                          S2R_OPT_ROBOT | S2R_OPT_TASK | S2R_OPT_SEED | S2R_OPT_REAL_SEED | S2R_OPT_THREADS | S2R_OPT_OUT |
                          S2R_OPT_QUICK | S2R_OPT_RESUME | S2R_OPT_RANGES | S2R_OPT_HISTORY | S2R_OPT_MJCF | S2R_OPT_ADR,
                          &status) != S2R_OK)
        return status;
    steps = opt.quick ? 16000 : s2r_task_training_steps(opt.task, 0);

    /* 1. The ranges (the library's defaults, or --ranges: e.g. what system
          identification recentred), the learner and what it continues or
          is compared with - all checked before anything is written. */
    s2r_interrupt_catch();   /* Ctrl-C or SIGTERM: training saves its state; either stops between stages, status 130 */
    if (prepare(&opt, steps, &run, error) != S2R_OK) {
        fprintf(stderr, "%s\n", error);
        return 1;
    }
    res = run_steps(&opt, steps, &run, error);
    free_run(&opt, &run);
    if (res != S2R_OK) {
        if (error[0]) fprintf(stderr, "%s\n", error);
        if (res == S2R_ERR_INTERRUPTED) fprintf(stderr, "run again with --resume to continue\n");
        return res == S2R_ERR_INTERRUPTED ? 130 : 1;
    }
    if (!opt.mjcf[0])
        printf("Compare with the pure-sim row of 01: a real unit inside both margins cannot tell\n"
               "the two policies apart.  Next: 03_system_id.\n");
    return 0;
}
