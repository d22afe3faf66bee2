/* 06_staged_deployment.c - taking a policy from the simulator to a fleet,
   one gate at a time.

   A candidate policy goes through every stage of the deployment playbook
   on a fleet of stand-in real units (units --real-seed, --real-seed + 1,
   ...; the first one is the lab unit):

     commissioning  every unit's camera-to-base calibration is measured (a
                    marker at five surveyed points) and removed in a sensing
                    layer - the stand-in units ship 1-3 cm off, the largest
                    single cause of the gap in example 01
     sim regression the named suite of the task's cases in the nominal simulator
     sysID          the lab unit identified (as example 03 does it); its
                    simulator replays held-out trajectories within 3 %
                    of the motion (fails above 5 %)
     shadow         on the lab unit the fallback (the scripted expert) acts,
                    the candidate proposes; agreement and predicted
                    violations are measured
     tethered       the candidate acts on the lab unit behind the safety
                    monitor; an operator's hand on the e-stop (workspace,
                    speed or torque trouble stops the arm); a sequential
                    test decides after as few episodes as the evidence
                    allows, its error rates and episode budget printed
                    before it starts
     constrained    targets and safety box shrunk to 50 % of the workspace,
                    the same kind of test
     canary         two units run the candidate beside the incumbent on the
                    same tasks, pair by pair, until a sequential test on
                    the pairs where they disagree decides
     autonomous     the whole fleet, each unit watched by CUSUM detectors;
                    midway someone knocks one unit's camera by 2.5 cm, its
                    success collapses, the detector fires and the fleet
                    rolls back to the fallback (the console names the
                    alarm's kinds; the torque alarm sits above the
                    canary's own torque peaks, so stiff servos that reach
                    their forcerange on every step raise none on an
                    unchanged arm); its unit runs on under the fallback
                    and is flagged for maintenance only when it fails
                    there too

   Every gate decision, with the numbers and the reason, goes to a
   JSON-lines deployment log.  The timeline is printed and plotted.

   --task push runs the same stages on the push task (its regression
   suite, the pusher as the fallback).  Your arm: --address ADDRESS makes
   the robot served there the lab unit (s2r_socket_robot; robot_server.c
   serves a stand-in unit, robot_server.py is where your driver goes), so
   system identification, shadow, tethered and constrained run on it; the
   rest of the fleet stays stand-in units.  With --mjcf FILE (your arm's
   model, as 02 and 12 take it; --address needed, since there are no
   stand-ins of it) the fleet is that one arm: the canary and the
   autonomous rounds run on it too.  The socket carries exact values, so a
   stand-in served by robot_server gives the same files, digit for digit,
   as the same unit in this process (tests/test_deploy_socket.sh).  If the
   robot side goes away mid-run, the run stops with the reason, the log
   closed with a "stopped" record and the timeline written so far; so does
   Ctrl-C or SIGTERM, with status 130 (a run again starts over: 06 has no
   --resume).

   The candidate: the checkpoint --policy names (with --ranges, the ranges
   it was trained on: its recorded randomization digest must be theirs), else
   the policy of example 03 (or 02) from --out, or a stand-in when this
   example runs on its own (see load_candidate).

   Uses: s2r_safety_*, s2r_regression_run, s2r_identify_unit, s2r_shadow_run, s2r_stage_run, s2r_gate_plan_print,
         s2r_deploy_episode, s2r_gate_*, s2r_monitor_*, s2r_socket_robot_connect,
         s2r_deploy_*, s2r_figure_*.
   Writes: DIR/06_deployment_log.jsonl, DIR/06_timeline.csv,
           DIR/06_rounds.csv (per autonomous round: fleet success, the
           changed unit's success and CUSUM level), DIR/06_staged_deployment.png;
           for push 06_push_* (s2r_task_path).
   Next: 07_the_table.c - every row of the recipe table. */
#define SIM2REAL_IMPLEMENTATION
#include "../sim2real.h"
#include "../sim2real_socket.h"
#include "s2r_cli.h"
#include "s2r_figures.h"
#include <stdio.h>
#include <string.h>

#define FLEET_MAX 64
#define ROUNDS_MAX 64

/* How much of everything; --quick shrinks the counts, never the gates. */
typedef struct sizes {
    int fleet;            /* units in the fleet (the first is the lab unit)    */
    int canary_units;     /* units 1..canary_units run the canary             */
    int suite_repeats;    /* repeats of each regression case                  */
    int shadow_episodes;  /* on the lab unit                                  */
    int rounds_before;    /* autonomous rounds before the change is injected  */
    int rounds_max;       /* autonomous rounds at most                        */
    int rounds_after;     /* rounds the fleet keeps running after an alarm    */
} sizes;

static sizes sizes_for(const s2r_options* opt) {
    int quick = opt->quick;
    sizes s;
    s.fleet = opt->mjcf[0] ? 1 : quick ? 16 : 40;   /* your arm has no stand-ins: the fleet is the arm */
    s.canary_units = s.fleet > 2 ? 2 : 1;           /* units 1..2, or the lab unit of a fleet of one */
    s.suite_repeats = quick ? 1 : 3;
    s.shadow_episodes = quick ? 6 : 20;
    s.rounds_before = quick ? 8 : 15;
    s.rounds_max = quick ? 20 : 40;
    s.rounds_after = quick ? 3 : 5;
    return s;
}

/* ---------------------------------------------------------------------------
   The camera layer: a backend in front of a unit that removes the
   calibration offset measured at commissioning, and through which the
   example injects its mid-deployment change (a knocked camera: `bump` is
   added to every perceived target - and object, in the push scene).  Only
   what the camera perceives changes; commands, time, ground truth and the
   object's placing pass straight through.
   ------------------------------------------------------------------------- */

typedef struct camera_layer {
    const s2r_backend* inner;
    s2r_backend        backend;
    char               name[64];
    double             correction[3];  /* m, subtracted from the perceived target */
    double             bump[3];        /* m, added: the injected change            */
} camera_layer;

static s2r_result camera_reset(void* self, const double* q0, const double* target, s2r_rng* rng) {
    return s2r_backend_reset(((camera_layer*)self)->inner, q0, target, rng);
}
static s2r_result camera_command(void* self, const double* q) {
    return s2r_backend_command(((camera_layer*)self)->inner, q);
}
static s2r_result camera_advance(void* self, double seconds) {
    return s2r_backend_advance(((camera_layer*)self)->inner, seconds);
}
static s2r_result camera_ground_truth(void* self, s2r_ground_truth* out) {
    return s2r_backend_ground_truth(((camera_layer*)self)->inner, out);
}
static s2r_result camera_halt(void* self) {
    return s2r_backend_halt(((camera_layer*)self)->inner);
}
static s2r_result camera_place(void* self, const double xy[2]) {
    return s2r_backend_place_object(((camera_layer*)self)->inner, xy);
}
static s2r_result camera_read(void* self, s2r_sensors* out) {
    camera_layer* c = (camera_layer*)self;
    s2r_result res = s2r_backend_read_sensors(c->inner, out);
    int i, push = c->inner->info->scene == S2R_SCENE_PUSH;
    for (i = 0; i < 3; i++) {
        out->target[i] += c->bump[i] - c->correction[i];
        if (push) out->object[i] += c->bump[i] - c->correction[i];
    }
    return res;
}

static void camera_wrap(camera_layer* c, const s2r_backend* inner) {
    memset(c, 0, sizeof *c);
    c->inner = inner;
    snprintf(c->name, sizeof c->name, "%.60s", inner->name);
    c->backend = *inner;          /* info, error */
    c->backend.self = c;
    c->backend.name = c->name;
    c->backend.reset = camera_reset;
    c->backend.command = camera_command;
    c->backend.advance = camera_advance;
    c->backend.read_sensors = camera_read;
    c->backend.ground_truth = camera_ground_truth;
    c->backend.halt = camera_halt;
    c->backend.place_object = inner->place_object ? camera_place : NULL;
}

/* Hand-eye check: the marker at the workspace centre and four surveyed
   points around it, ten readings each; the mean perceived-minus-placed
   offset becomes the correction.  Returns its size in m. */
static double calibrate_camera(camera_layer* c, uint64_t seed) {
    const s2r_arm_info* info = c->inner->info;
    double sum[3] = {0, 0, 0};
    int p, k, i, count = 0;
    memset(c->correction, 0, sizeof c->correction);
    for (p = 0; p < 5; p++) {
        double marker[3];
        s2r_rng rng = s2r_rng_make(seed, 900 + (uint64_t)p);
        for (i = 0; i < 3; i++) marker[i] = 0.5 * (info->workspace_lo[i] + info->workspace_hi[i]);
        if (p > 0) marker[(p - 1) / 2] += (p % 2 ? 0.08 : -0.08);
        if (s2r_backend_reset(&c->backend, NULL, marker, &rng) != S2R_OK) return -1;
        for (k = 0; k < 10; k++) {
            s2r_sensors s;
            s2r_backend_advance(&c->backend, 0.04);
            s2r_backend_read_sensors(&c->backend, &s);
            for (i = 0; i < 3; i++) sum[i] += s.target[i] - marker[i];
            count++;
        }
    }
    for (i = 0; i < 3; i++) c->correction[i] = sum[i] / count;
    return sqrt(c->correction[0] * c->correction[0] + c->correction[1] * c->correction[1] +
                c->correction[2] * c->correction[2]);
}

/* ---------------------------------------------------------------------------
   THE CANDIDATE POLICY

   The candidate is the policy example 03 trained on the ranges re-centred
   on the lab unit (DIR/03_dr_sysid_unitN.ckpt, N = --real-seed), else example 02's domain-
   randomized policy (DIR/02_dr.ckpt; with --mjcf the only one: 03 runs
   on the stand-ins, 12 identifies your arm from its logs and 02 trains on
   what it recentred), each checked against the ranges file
   its run wrote beside it (03_ranges_<robot>_unitN.txt, 02_ranges.txt;
   for push 03_push_..., 02_push_...):
   both were trained on a simulator without a camera offset, which is what
   the fleet's calibrated sensing layer gives them.  (The fine-tuned policies of 04 learned the lab unit's
   own offset from demonstrations; behind the calibration layer they would
   correct it twice.)  When neither file is there - this example run on its
   own - the candidate is a stand-in: the scripted expert with artificial
   imperfection, action noise (std 0.03) and one step of extra reaction
   delay, so it is measurably different from the fallback.  Its noise
   stream comes from --seed.
   ------------------------------------------------------------------------- */

typedef struct candidate_policy {
    int        trained;    /* 1: `policy` from a checkpoint; 0: the stand-in */
    int        has_expert; /* the stand-in's expert is made */
    s2r_policy policy;
    s2r_expert expert;
    s2r_rng    rng;
} candidate_policy;

static void candidate_reset(void* self) { s2r_expert_reset(&((candidate_policy*)self)->expert); }
static s2r_result candidate_act(void* self, const float* obs, float* action) {
    candidate_policy* p = (candidate_policy*)self;
    return s2r_expert_act(&p->expert, obs, NULL, action, &p->rng);
}

/* The trained candidate, when 03 or 02 left one in DIR: checked before
   the fleet is commissioned (a file there but corrupt, made for another
   arm, or not trained on the ranges beside it is an error naming it). */
static s2r_result load_trained(const s2r_options* opt, candidate_policy* p) {
    char sysid_policy[64], sysid_ranges[64];   /* 03's for the lab unit; else 02's dr.ckpt, ranges.txt */
    char path[512], file[512], error[S2R_ERROR_LEN];
    s2r_result res;
    int i;
    memset(p, 0, sizeof *p);
    if (opt->policy[0]) {   /* by its path, trained anywhere: checked against the ranges it was trained on */
        if ((res = s2r_upstream_policy(&p->policy, opt->policy, opt, 0, opt->ranges, error)) != S2R_OK) {
            fprintf(stderr, "%s\n", error);
            return res;
        }
        if (!p->policy.randomization) {
            fprintf(stderr, "%s records no randomization digest, so nothing shows it was trained on %s: write it "
                    "with the ranges it was trained on (s2r_train does; Python: write_checkpoint(..., trained_on=))\n",
                    opt->policy, opt->ranges);
            s2r_policy_free(&p->policy);
            return S2R_ERR_INVALID_ARGUMENT;
        }
        printf("candidate: the policy %s, trained on %s\n", opt->policy, opt->ranges);
        p->trained = 1;
        return S2R_OK;
    }
    snprintf(sysid_policy, sizeof sysid_policy, "dr_sysid_unit%llu.ckpt", (unsigned long long)opt->real_seed);
    snprintf(sysid_ranges, sizeof sysid_ranges, "ranges_%s_unit%llu.txt", s2r_robot_kind_name(opt->robot),
             (unsigned long long)opt->real_seed);
    for (i = opt->mjcf[0] ? 1 : 0; i < 2; i++) {   /* missing: the next; there but unusable: an error */
        s2r_task_path(path, sizeof path, opt, i == 0 ? "03" : "02", i == 0 ? sysid_policy : "dr.ckpt");
        s2r_task_path(file, sizeof file, opt, i == 0 ? "03" : "02", i == 0 ? sysid_ranges : "ranges.txt");
        if (!s2r_file_exists(path)) continue;
        res = s2r_upstream_policy(&p->policy, path, opt, 0, file, error);
        if (res != S2R_OK) {
            fprintf(stderr, "%s\n", error);
            return res;
        }
        printf("candidate: the trained policy in %s\n", path);
        p->trained = 1;
        return S2R_OK;
    }
    printf("candidate: no trained policy in %s (run 02/03%s first); using the imperfect-expert stand-in\n", opt->out,
           opt->task == S2R_TASK_PUSH ? " --task push" : "");
    return S2R_OK;
}

/* The candidate as a controller: the trained policy, or the stand-in on
   the lab unit's task. */
static s2r_result candidate_controller(const s2r_options* opt, const s2r_task* task, candidate_policy* p,
                                       s2r_controller* out) {
    s2r_expert_config ec = s2r_expert_config_default();
    s2r_task_config tc;
    s2r_result res;
    if (p->trained) {
        *out = s2r_policy_controller(&p->policy);
        return S2R_OK;
    }
    ec.action_noise = 0.03;
    ec.reaction_steps = 1;
    tc = s2r_task_config_of(task);
    if ((res = s2r_expert_init(&p->expert, &ec, &tc, s2r_task_backend(task)->info)) != S2R_OK) return res;
    p->rng = s2r_rng_make(opt->seed, 0xca9d);
    p->has_expert = 1;
    out->self = p;
    out->reset = candidate_reset;
    out->act = candidate_act;
    return S2R_OK;
}

static void free_candidate(candidate_policy* p) {
    if (p->trained) s2r_policy_free(&p->policy);
    if (p->has_expert) s2r_expert_free(&p->expert);
}

/* ---------------------------------------------------------------------------
   The fleet
   ------------------------------------------------------------------------- */

typedef struct fleet_unit {
    s2r_real_robot   real;     /* a stand-in unit of the fleet ...       */
    s2r_socket_robot remote;   /* ... or the robot at --address (unit 0) */
    const s2r_backend* robot;  /* whichever it is                        */
    const char*      name;     /* its name, e.g. "real ur5e #3"          */
    camera_layer     camera;   /* calibration, and the injected change   */
    s2r_safety       safety;   /* between every controller and the unit  */
    s2r_task         task;     /* the task, on the safety backend        */
    s2r_monitor      monitor;  /* autonomous stage                       */
    int              alive;    /* initialized                            */
} fleet_unit;

static fleet_unit fleet[FLEET_MAX];   /* large and self-referencing: never copied */

/* Unit u's robot: with --address the lab unit is the robot served there
   (its arm loaded from --robot or --mjcf, in the task's scene, and checked
   against the robot side's), else stand-in unit --real-seed + u. */
static s2r_result unit_connect(const s2r_options* opt, int u, fleet_unit* f) {
    s2r_result res;
    if (u == 0 && opt->address[0]) {
        s2r_socket_config c = s2r_socket_config_default();
        c.address = opt->address;
        c.robot = opt->mjcf[0] ? S2R_ROBOT_CUSTOM : opt->robot;
        c.scene = s2r_task_scene(opt->task);
        c.mjcf_path = opt->mjcf[0] ? opt->mjcf : NULL;
        c.timeout_ms = 5000;   /* a real arm's driver may take its time */
        if ((res = s2r_socket_robot_connect(&f->remote, &c)) != S2R_OK) {
            fprintf(stderr, "the lab unit at %s: %s\n", opt->address, f->remote.error);
            return res;
        }
        f->robot = s2r_socket_robot_backend(&f->remote);
        printf("  lab unit: %s, connected at %s\n", f->robot->name, opt->address);
        {   /* asked now, not after sysID: from shadow on every episode is judged from it */
            s2r_ground_truth gt;
            if ((res = s2r_backend_ground_truth(f->robot, &gt)) == S2R_ERR_UNSUPPORTED) {
                fprintf(stderr, "the lab unit at %s gives no ground truth (%s): from shadow on, 06 judges each episode's "
                        "outcome from it; answer its truth request with an external measurement of the flange and "
                        "target (motion capture, a laser tracker), or run 06 without --address (on stand-in units)\n",
                        opt->address, f->robot->error);
                s2r_socket_robot_close(&f->remote);   /* with a bye: the robot side is told it was refused, not lost */
                return res;
            }
        }
    } else {
        res = s2r_real_robot_init_scene(&f->real, opt->robot, s2r_task_scene(opt->task), opt->real_seed + (uint64_t)u);
        if (res != S2R_OK) { fprintf(stderr, "%s\n", f->real.error); return res; }
        f->robot = s2r_real_robot_backend(&f->real);
    }
    f->name = f->robot->name;
    return S2R_OK;
}

/* End the unit's episode where it stands: the drive-level halt (brakes on;
   the next episode's reset releases them).  Called whenever a unit stops
   being driven - after its commissioning, at the end of every stage, after
   each of its autonomous episodes - so a robot in another process is never
   left mid-episode while this process computes on its own (the simulator
   of sim regression, the fit of sysID, the other units' episodes): its
   watchdog would halt it (robot_server's after 1 s of silence,
   sim2real_socket.h).  Episodes begin with a reset, so the run's numbers
   are the same with or without it; a robot with no halt (S2R_ERR_UNSUPPORTED)
   is left as it is. */
static s2r_result unit_rest(const fleet_unit* f) {
    s2r_result res = s2r_backend_halt(f->robot);
    if (res == S2R_ERR_UNSUPPORTED) return S2R_OK;
    if (res != S2R_OK) fprintf(stderr, "halting %s: %s\n", f->name, f->robot->error);
    return res;
}

static s2r_result fleet_init(const s2r_options* opt, int n) {
    s2r_safety_config sc = s2r_safety_config_default();
    s2r_task_config tc = s2r_task_config_default(opt->task);
    double worst = 0, best = 1;
    int u;
    for (u = 0; u < n; u++) {
        fleet_unit* f = &fleet[u];
        double off;
        s2r_result res = unit_connect(opt, u, f);
        if (res != S2R_OK) return res;
        f->alive = 1;
        camera_wrap(&f->camera, f->robot);
        if ((res = s2r_safety_init(&f->safety, &sc, &f->camera.backend)) != S2R_OK) { fprintf(stderr, "%s\n", f->safety.error); return res; }
        if ((res = s2r_task_init(&f->task, &tc, s2r_safety_backend(&f->safety))) != S2R_OK) { fprintf(stderr, "%s\n", f->task.error); return res; }
        off = calibrate_camera(&f->camera, opt->seed + (uint64_t)u);
        if (off < 0) { fprintf(stderr, "commissioning %s: %s\n", f->name, f->robot->error); return S2R_ERR_STATE; }
        if ((res = unit_rest(f)) != S2R_OK) return res;   /* before the next unit's commissioning */
        worst = fmax(worst, off);
        best = fmin(best, off);
    }
    printf("  commissioning: %d units; camera offsets of %.1f-%.1f mm measured and removed\n", n, 1000 * best, 1000 * worst);
    return S2R_OK;
}

static void fleet_free(int n) {
    int u;
    for (u = 0; u < n; u++)
        if (fleet[u].alive) {
            s2r_task_free(&fleet[u].task);
            s2r_safety_free(&fleet[u].safety);
            if (fleet[u].robot == s2r_socket_robot_backend(&fleet[u].remote)) s2r_socket_robot_close(&fleet[u].remote);
            else s2r_real_robot_free(&fleet[u].real);
            fleet[u].alive = 0;
        }
}

/* ---------------------------------------------------------------------------
   What the stages measured, for the printout and the figure
   ------------------------------------------------------------------------- */

#define BARS 8
typedef struct record {
    const char* bar_name[BARS];
    int    bar_k[BARS], bar_n[BARS];     /* successes / episodes per bar         */
    long   bar_interventions[BARS];      /* safety interventions (shadow: predicted) */
    double bar_torque[BARS];             /* mean torque peak, fraction of the limit; NaN: not measured */
    int    bars;
    int    rounds;                        /* autonomous rounds run                */
    double fleet_success[ROUNDS_MAX];     /* fraction of units succeeding, per round */
    int    changed_unit;                  /* where the change is injected (a
                                             stand-in unit), -1: none        */
    int    change_round, alarm_round;     /* -1: none                             */
    double unit_success[ROUNDS_MAX];      /* the changed unit, per round (0/1)    */
    int    alarm_unit;                    /* the unit that raised the alarm, -1: none */
    int    alarm_unit_wins, alarm_unit_runs;   /* its episodes under the fallback after it */
    double unit_level[ROUNDS_MAX];        /* its success CUSUM, / threshold       */
} record;

static void record_bar(record* r, const char* name, int k, int n, long interventions, double torque) {
    if (r->bars >= BARS) return;
    r->bar_name[r->bars] = name;
    r->bar_k[r->bars] = k;
    r->bar_n[r->bars] = n;
    r->bar_interventions[r->bars] = interventions;
    r->bar_torque[r->bars] = torque;
    r->bars++;
}

/* Apply a gate and say what happened; 1 if the policy is still in. */
static int decide(s2r_deploy* d, const s2r_gate_result* g) {
    s2r_result res = s2r_deploy_apply(d, g);
    if (res != S2R_OK) fprintf(stderr, "  deploy: %s\n", d->error);
    printf("  -> %-16s %-8s %s\n", s2r_stage_name(g->stage), s2r_verdict_name(g->verdict), g->reason);
    return d->stage != S2R_STAGE_ROLLED_BACK;
}

/* ---------------------------------------------------------------------------
   The stages
   ------------------------------------------------------------------------- */

/* The suite in the nominal simulator of the arm (--robot or --mjcf). */
static s2r_result stage_sim_regression(const s2r_options* opt, const sizes* z, const s2r_controller* cand,
                                       s2r_deploy* d, record* rec) {
    s2r_sim sim;
    s2r_sim_config sc = s2r_task_sim_config(opt->task, opt->mjcf[0] ? S2R_ROBOT_CUSTOM : opt->robot);
    s2r_task_config tc = s2r_task_config_default(opt->task);
    s2r_task task;
    const s2r_regression_case* cases;
    s2r_regression_result r;
    s2r_gate_config gc = s2r_gate_config_default();
    s2r_gate_result g;
    int n = s2r_regression_suite_for(opt->task, &cases);
    s2r_result res;
    if (opt->mjcf[0]) sc.mjcf_path = opt->mjcf;
    if ((res = s2r_sim_init(&sim, &sc)) != S2R_OK) { fprintf(stderr, "%s\n", sim.error); return res; }
    if ((res = s2r_task_init(&task, &tc, s2r_sim_backend(&sim))) == S2R_OK) {
        res = s2r_regression_run(cand, &task, cases, n, z->suite_repeats, opt->seed, &r);
        if (res != S2R_OK) fprintf(stderr, "sim regression: %s\n", task.error);
        s2r_task_free(&task);
    }
    s2r_sim_free(&sim);
    if (res != S2R_OK) return res;
    printf("  sim regression: %d cases x %d, e.g. \"%s\" %d/%d, \"%s\" %d/%d\n", n, z->suite_repeats,
           cases[1].name, r.case_passed[1], z->suite_repeats, cases[7].name, r.case_passed[7], z->suite_repeats);
    record_bar(rec, "sim regression", r.passed, r.runs, 0, NAN);
    g = s2r_gate_sim_regression(&gc, r.passed, r.runs);
    decide(d, &g);
    return S2R_OK;
}

/* System identification of the lab unit, as the table runs it
   (s2r_identify_unit: multisine trajectories to fit, chirps held out,
   commanded open loop on the lab unit as commissioning does), and the gate on the *identified*
   simulator's held-out error relative to the motion.  The datasheet model
   is judged on the same trajectories beside it: on the fleet it is 8-17 %
   of the motion, which the gate fails (figures/RESULTS.md).  --quick
   fits two trajectories instead of three. */
static s2r_result stage_sysid(const s2r_options* opt, s2r_deploy* d) {
    s2r_gate_config gc = s2r_gate_config_default();
    s2r_identify_config ic = s2r_identify_config_default();
    s2r_randomization training = s2r_randomization_default(), next;
    s2r_sysid_result r;
    s2r_gate_result g, datasheet;
    double camera[3];
    char error[S2R_ERROR_LEN];
    s2r_result res;
    if (opt->quick) ic.train = 2;   /* held out as the thresholds were measured: two chirps of 3 s */
    ic.seed = opt->seed;
    ic.mjcf_path = opt->mjcf[0] ? opt->mjcf : NULL;   /* your arm: its model is the one fitted */
    /* Your arm, as example 12 fits it: open-loop trajectories see only the
       total delay, so the sensing delay is held at 0 and the fitted command
       latency is the whole of it.  s2r_identify_unit holds the sensing
       delay at the centre of `training`'s range: the built-in ranges' 6 ms
       (2-10 ms), what the stand-in units have, but more than the whole
       delay of a fast arm, which no command latency (>= 0) makes up - your
       arm's own model served at --address (no delay at all) replayed 1.5 %
       of the motion off, identified and datasheet alike, where 12 on the
       same robot side fits it exactly. */
    if (opt->mjcf[0]) training.p[S2R_PARAM_OBS_LATENCY] = s2r_randomization_none().p[S2R_PARAM_OBS_LATENCY];
    res = s2r_identify_unit(fleet[0].robot, &ic, &training, &next, NULL, &r, camera, error);
    if (res != S2R_OK) { fprintf(stderr, "system identification of the lab unit: %s\n", error); return res; }
    datasheet = s2r_gate_sysid(&gc, r.validation_relative_start);
    printf("  sysID: %d x %.0f s fitted, %d held out: held-out error %.2f %% of the motion identified, %.1f %% with the "
           "datasheet model (that one would %s)\n", ic.train, 0.02 * ic.samples, ic.valid, 100 * r.validation_relative,
           100 * r.validation_relative_start, s2r_verdict_name(datasheet.verdict));
    g = s2r_gate_sysid(&gc, r.validation_relative);
    decide(d, &g);
    return S2R_OK;
}

static s2r_result stage_shadow(const s2r_options* opt, const sizes* z, const s2r_controller* cand,
                               const s2r_controller* fallback, s2r_deploy* d, record* rec) {
    s2r_gate_config gc = s2r_gate_config_default();
    s2r_shadow_stats st;
    s2r_gate_result g;
    s2r_result res = s2r_shadow_run(cand, fallback, &fleet[0].task, &fleet[0].safety, z->shadow_episodes,
                                    opt->seed + 1, S2R_SHADOW_AGREE_TOL, &st, d);
    if (res != S2R_OK) { fprintf(stderr, "%s\n", fleet[0].task.error); return res; }
    printf("  shadow: %d proposals, agreement %.1f %% (max |diff| <= %.2f), mean |diff| %.3f, %d unsafe\n",
           st.proposals, 100 * st.agreement_rate, S2R_SHADOW_AGREE_TOL, st.mean_difference, st.unsafe);
    record_bar(rec, "shadow (fallback acts)", st.fallback_successes, st.episodes, st.unsafe, NAN);
    g = s2r_gate_shadow(&gc, &st);
    decide(d, &g);
    return S2R_OK;
}

static s2r_result stage_tethered(const s2r_options* opt, const s2r_controller* cand, s2r_deploy* d, record* rec) {
    s2r_gate_config gc = s2r_gate_config_default();
    s2r_safety* s = &fleet[0].safety;
    s2r_run_summary sum;
    s2r_gate_result g;
    s2r_result res;
    s->config.estop_on = S2R_INTERVENTION_BIT(S2R_INTERVENTION_WORKSPACE) | S2R_INTERVENTION_BIT(S2R_INTERVENTION_VELOCITY) |
                         S2R_INTERVENTION_BIT(S2R_INTERVENTION_TORQUE);   /* the operator's hand */
    s2r_gate_plan_print(&gc, S2R_STAGE_TETHERED);   /* the robot time to budget, before starting */
    res = s2r_stage_run(cand, &fleet[0].task, s, &gc, S2R_STAGE_TETHERED, opt->seed + 2, 0, &sum, &g);
    s->config.estop_on = 0;
    if (res != S2R_OK) { fprintf(stderr, "%s\n", fleet[0].task.error); return res; }
    printf("  tethered: the gate decided after %d episodes (at most %d), %d e-stops, %ld interventions\n", sum.episodes,
           gc.tethered_max_episodes, sum.catastrophic, sum.interventions);
    record_bar(rec, "tethered", sum.successes, sum.episodes, sum.interventions, sum.mean_torque_peak);
    decide(d, &g);
    return S2R_OK;
}

static s2r_result stage_constrained(const s2r_options* opt, const s2r_controller* cand, s2r_deploy* d, record* rec) {
    s2r_gate_config gc = s2r_gate_config_default();
    s2r_task_config tc = s2r_task_config_default(opt->task);
    s2r_task task;
    s2r_run_summary sum;
    s2r_gate_result g;
    s2r_result res;
    tc.reach.workspace_scale = tc.push.workspace_scale = 0.5;   /* targets, or objects and goals ... */
    if ((res = s2r_task_init(&task, &tc, s2r_safety_backend(&fleet[0].safety))) != S2R_OK) return res;
    s2r_safety_set_workspace_scale(&fleet[0].safety, 0.5);      /* ... and the safety box */
    s2r_gate_plan_print(&gc, S2R_STAGE_CONSTRAINED);
    res = s2r_stage_run(cand, &task, &fleet[0].safety, &gc, S2R_STAGE_CONSTRAINED, opt->seed + 3, 0, &sum, &g);
    s2r_safety_set_workspace_scale(&fleet[0].safety, 1.0);
    if (res != S2R_OK) fprintf(stderr, "%s\n", task.error);
    s2r_task_free(&task);
    if (res != S2R_OK) return res;
    printf("  constrained: the gate decided after %d episodes (at most %d) at 50 %% workspace, %ld interventions, "
           "torque peak %.0f %% of the limit\n", sum.episodes, gc.constrained_episodes, sum.interventions,
           100 * sum.torque_peak);
    record_bar(rec, "constrained 50 %", sum.successes, sum.episodes, sum.interventions, sum.mean_torque_peak);
    decide(d, &g);
    return S2R_OK;
}

/* Both controllers on the same tasks of each canary unit.  The candidate's
   episodes also set the reference of the fleet monitors (ref). */
static s2r_result stage_canary(const s2r_options* opt, const sizes* z, const s2r_controller* cand,
                               const s2r_controller* incumbent, s2r_deploy* d, record* rec, s2r_run_summary* ref_sum,
                               double* action_mean, double* action_std) {
    s2r_gate_config gc = s2r_gate_config_default();
    s2r_run_summary c_sum, i_sum;
    s2r_gate_result g;
    double s1 = 0, s2 = 0;
    int n = 0, wins = 0, losses = 0;
    memset(&c_sum, 0, sizeof c_sum);
    memset(&i_sum, 0, sizeof i_sum);
    do {   /* pairs in turn over the canary units, until the sequential canary decides */
        int u = (z->fleet > 1) + n % z->canary_units, e = n / z->canary_units;   /* units 1.., or the only one */
        s2r_rng r1 = s2r_rng_make(opt->seed + 4, 1000u * (uint64_t)u + (uint64_t)e), r2 = r1;
        s2r_episode_stats sc, si;
        s2r_result res = s2r_deploy_episode(cand, &fleet[u].task, &fleet[u].safety, &r1, &sc);
        if (res == S2R_OK) res = s2r_deploy_episode(incumbent, &fleet[u].task, &fleet[u].safety, &r2, &si);
        if (res != S2R_OK) return res;
        s2r_run_summary_add(&c_sum, &sc);
        s2r_run_summary_add(&i_sum, &si);
        wins += sc.success && !si.success;
        losses += si.success && !sc.success;
        s1 += sc.action_mean_abs;
        s2 += sc.action_mean_abs * sc.action_mean_abs;
        n++;
        g = s2r_gate_canary_pairs(&gc, n, wins, losses);
    } while (g.verdict == S2R_VERDICT_CONTINUE || n < 2);
    {
        const char* first = fleet[z->fleet > 1].name, *last = fleet[(z->fleet > 1) + z->canary_units - 1].name;
        printf("  canary: unit%s %s%s%s (%d of %d = %.0f %% of the fleet), %d pairs on the same tasks: candidate %d/%d, "
               "incumbent %d/%d\n", z->canary_units > 1 ? "s" : "", first, z->canary_units > 1 ? " .. " : "",
               z->canary_units > 1 ? last : "", z->canary_units, z->fleet, 100.0 * z->canary_units / z->fleet, n,
               c_sum.successes, c_sum.episodes, i_sum.successes, i_sum.episodes);
    }
    record_bar(rec, "canary: candidate", c_sum.successes, c_sum.episodes, c_sum.interventions, c_sum.mean_torque_peak);
    record_bar(rec, "canary: incumbent", i_sum.successes, i_sum.episodes, i_sum.interventions, i_sum.mean_torque_peak);
    *ref_sum = c_sum;
    *action_mean = s1 / n;
    *action_std = sqrt(fmax(s2 / n - (s1 / n) * (s1 / n), 0) * n / (n - 1));
    decide(d, &g);
    return S2R_OK;
}

#define TORQUE_MARGIN 0.05   /* of the limit: the torque alarm sits this far above the canary's mean peak */

/* Monitors referenced on the canary: success p0 = (k + 1) / (n + 2) of the
   candidate's canary episodes, the action statistic's mean and std, and
   the torque alarm above the canary's mean torque peak + TORQUE_MARGIN
   when that is above the default (0.99).  A position servo at its
   forcerange reads exactly its limit: a stiff servo (a Panda's wrist, kp
   2000 N m/rad against 12 N m, saturates at 6 mrad of error) reaches it
   on every step of the targets, so every episode's peak is 1.0 on the
   model itself, and the default alarm fired on an unchanged arm once its
   window filled; the alarm is for a unit working harder than the
   candidate did at the canary. */
static s2r_result fleet_monitors(const sizes* z, const s2r_run_summary* ref, double mean, double std) {
    s2r_monitor_config mc = s2r_monitor_config_default();
    double torque_default = mc.max_torque_peak;
    int u;
    mc.success.warmup = 0;
    mc.success.ref_mean = (ref->successes + 1.0) / (ref->episodes + 2.0);
    mc.action.warmup = 0;
    mc.action.ref_mean = mean;
    mc.action.ref_std = fmax(std, 1e-3);
    mc.max_torque_peak = fmax(torque_default, ref->mean_torque_peak + TORQUE_MARGIN);
    for (u = 0; u < z->fleet; u++) {
        s2r_result res = s2r_monitor_init(&fleet[u].monitor, &mc);
        if (res != S2R_OK) { fprintf(stderr, "%s\n", fleet[u].monitor.error); return res; }
    }
    printf("  monitors: success CUSUM from p0 = %.3f, mean |action| CUSUM from %.3f +- %.3f (the canary's)\n",
           mc.success.ref_mean, mean, mc.action.ref_std);
    if (mc.max_torque_peak > torque_default)
        printf("  torque alarm above a rolling mean peak of %.0f %% of the limit, not %.0f %%: the canary's episodes "
               "peaked at %.0f %% on average (servos that reach their forcerange on the candidate's steps)\n",
               100 * mc.max_torque_peak, 100 * torque_default, 100 * ref->mean_torque_peak);
    return S2R_OK;
}

/* The kinds of alarm in `bits` by name ("success drift", "torque", ...,
   joined by ", ") into buf. */
static const char* alarm_kinds(unsigned bits, char* buf, size_t cap) {
    int a;
    buf[0] = '\0';
    for (a = 0; a < S2R_ALARM_COUNT; a++)
        if (bits & S2R_ALARM_BIT(a)) {
            size_t at = strlen(buf);
            char* c;
            snprintf(buf + at, cap - at, "%s%s", at ? ", " : "", s2r_alarm_name((s2r_alarm)a));
            for (c = buf + at; *c; c++)
                if (*c == '_') *c = ' ';
        }
    return buf;
}

/* One autonomous round: every unit runs one episode with whoever is in
   charge; monitors update while the candidate acts.  Returns the unit that
   raised an alarm (-1 none) and its alarm bits. */
static s2r_result autonomous_round(const s2r_options* opt, const sizes* z, int round, const s2r_controller* acting,
                                   int watching, record* rec, int* alarm_unit, unsigned* alarms, s2r_run_summary* sum) {
    int u, wins = 0;
    *alarm_unit = -1;
    *alarms = 0;
    for (u = 0; u < z->fleet; u++) {
        s2r_rng rng = s2r_rng_make(opt->seed + 5, 1000u * (uint64_t)round + (uint64_t)u);
        s2r_episode_stats e;
        s2r_result res = s2r_deploy_episode(acting, &fleet[u].task, &fleet[u].safety, &rng, &e);
        unsigned raised;
        if (res == S2R_OK) res = unit_rest(&fleet[u]);   /* while the other units run theirs */
        if (res != S2R_OK) return res;
        wins += e.success;
        s2r_run_summary_add(sum, &e);
        raised = watching ? s2r_monitor_update(&fleet[u].monitor, &e) : 0;
        if (raised && *alarm_unit < 0) { *alarm_unit = u; *alarms = raised; }
        if (rec->alarm_round >= 0 && u == rec->alarm_unit) {   /* the alarm's unit under the fallback */
            rec->alarm_unit_wins += e.success;
            rec->alarm_unit_runs++;
        }
        if (u == rec->changed_unit) {
            rec->unit_success[round] = e.success;
            rec->unit_level[round] = s2r_drift_level(&fleet[u].monitor.success);
        }
    }
    rec->fleet_success[round] = (double)wins / z->fleet;
    return S2R_OK;
}

static s2r_result stage_autonomous(const s2r_options* opt, const sizes* z, const s2r_controller* cand,
                                   const s2r_controller* fallback, s2r_deploy* d, record* rec) {
    s2r_run_summary on, off;   /* the candidate acting; the fallback after a rollback */
    int round, alarm_unit = -1;
    memset(&on, 0, sizeof on);
    memset(&off, 0, sizeof off);
    rec->changed_unit = z->fleet / 2;
    if (rec->changed_unit == 0 && opt->address[0]) rec->changed_unit = -1;   /* a real arm: never a fault put in */
    rec->change_round = rec->alarm_round = rec->alarm_unit = -1;
    rec->alarm_unit_wins = rec->alarm_unit_runs = 0;
    for (round = 0; round < z->rounds_max || (rec->alarm_round >= 0 && round <= rec->alarm_round + z->rounds_after);
         round++) {   /* an alarm in the last rounds: its unit still gets rounds_after under the fallback */
        int policy_in = d->stage == S2R_STAGE_AUTONOMOUS, u = -1;
        unsigned bits = 0;
        s2r_result res;
        if (s2r_example_stopped()) return S2R_ERR_INTERRUPTED;   /* between rounds */
        if (round == z->rounds_before && rec->changed_unit >= 0) {   /* someone knocks a stand-in unit's camera */
            fleet[rec->changed_unit].camera.bump[0] = 0.025;
            rec->change_round = round;
            s2r_deploy_note(d, "change", "round %d: camera of %s knocked by 25 mm (injected)", round, fleet[rec->changed_unit].name);
            printf("  round %d: this demo knocks the camera of %s (a stand-in unit) by 25 mm\n", round,
                   fleet[rec->changed_unit].name);
        } else if (round == z->rounds_before) {
            s2r_deploy_note(d, "change", "round %d: none injected: the one unit is the arm at --address", round);
            printf("  round %d: no fault injected: this demo puts its knocked camera into stand-in units only, and the\n"
                   "  fleet's one unit is the arm at --address\n", round);
        }
        res = autonomous_round(opt, z, round, policy_in ? cand : fallback, policy_in, rec, &u, &bits, policy_in ? &on : &off);
        if (res != S2R_OK) return res;
        rec->rounds = round + 1;
        if (policy_in && u >= 0) {
            char detail[160], kinds[128];
            alarm_unit = rec->alarm_unit = u;
            rec->alarm_round = round;
            snprintf(detail, sizeof detail, "round %d: %s, rolling success %.2f over its last %d episodes",
                     round, fleet[u].name, fleet[u].monitor.rolling_success,
                     fleet[u].monitor.episodes < fleet[u].monitor.config.window ? fleet[u].monitor.episodes : fleet[u].monitor.config.window);
            s2r_deploy_alarm(d, u, bits, detail);
            printf("  round %d: ALARM on %s (%s) -> the fleet rolls back to the fallback\n", round, fleet[u].name,
                   alarm_kinds(bits, kinds, sizeof kinds));
        }
        if (rec->alarm_round >= 0 && round >= rec->alarm_round + z->rounds_after) break;
    }
    record_bar(rec, "autonomous: candidate", on.successes, on.episodes, on.interventions, on.mean_torque_peak);
    if (off.episodes > 0)
        record_bar(rec, "after rollback: fallback", off.successes, off.episodes, off.interventions, off.mean_torque_peak);
    if (alarm_unit >= 0 && rec->alarm_unit_runs == 0)   /* nothing under the fallback: no verdict on the unit */
        printf("  %s ran no episode under the fallback after the alarm: nothing tells a change in the unit from one "
               "in the policy - no unit is flagged\n", fleet[alarm_unit].name);
    else if (alarm_unit >= 0 && 2 * rec->alarm_unit_wins >= rec->alarm_unit_runs)   /* it works under the fallback */
        printf("  %s under the fallback after the rollback: %d of %d episodes succeed - the unit works with the\n"
               "  fallback: the trouble is the candidate's on it, not the unit's; no unit is flagged\n",
               fleet[alarm_unit].name, rec->alarm_unit_wins, rec->alarm_unit_runs);
    else if (alarm_unit >= 0) {
        int late = rec->alarm_unit_wins, cnt = rec->alarm_unit_runs;
        printf("  %s under the fallback after the rollback: %d of %d episodes succeed - the change is in the\n"
               "  unit, not in the policy: flagged for maintenance (%s)\n", fleet[alarm_unit].name, late, cnt,
               alarm_unit == rec->changed_unit ? "recalibrate its camera: the change this demo injected"
                                               : "no change was injected there: find what changed on it");
        s2r_deploy_note(d, "maintenance", "%s flagged: it fails under the fallback too", fleet[alarm_unit].name);
    } else
        printf("  no alarm in %d rounds\n", rec->rounds);
    return S2R_OK;
}

/* ---------------------------------------------------------------------------
   Output: timeline, CSV, figure
   ------------------------------------------------------------------------- */

static void print_timeline(const s2r_deploy* d) {
    int i;
    printf("\nStage timeline of %s (every decision is also in the log):\n", d->policy);
    printf("  %-3s %-17s %-8s %5s %8s  %-17s -> %s\n", "log", "stage", "verdict", "n", "value", "95 % interval", "next");
    for (i = 0; i < d->history_count; i++) {
        const s2r_deploy_event* e = &d->history[i];
        if (e->alarms)
            printf("  %-3ld %-17s %-8s %5s %8s  %-17s -> %s (alarm on %s)\n", e->seq, s2r_stage_name(e->stage),
                   "ALARM", "", "", "", s2r_stage_name(e->next),
                   e->unit >= 0 && e->unit < FLEET_MAX ? fleet[e->unit].name : "the fleet");
        else if (e->stage == S2R_STAGE_SYSID)
            printf("  %-3ld %-17s %-8s %5s %8.3f  %-17s -> %s (held-out error / motion)\n", e->seq, s2r_stage_name(e->stage),
                   s2r_verdict_name(e->verdict), "", e->value, "", s2r_stage_name(e->next));
        else
            printf("  %-3ld %-17s %-8s %5d %8.3f  [%6.3f, %6.3f]  -> %s\n", e->seq, s2r_stage_name(e->stage),
                   s2r_verdict_name(e->verdict), e->n, e->value, e->lo, e->hi, s2r_stage_name(e->next));
    }
    printf("  now: %s\n", s2r_stage_name(d->stage));
}

static s2r_result write_timeline_csv(const char* path, const s2r_deploy* d) {
    s2r_file file;
    FILE* f = s2r_output_create(&file, path);
    int i;
    if (!f) return S2R_ERR_IO;
    fprintf(f, "seq,stage,verdict,next,n,value,lo,hi,alarm_unit\n");
    for (i = 0; i < d->history_count; i++) {
        const s2r_deploy_event* e = &d->history[i];
        fprintf(f, "%ld,%s,%s,%s,%d,%.6g,%.6g,%.6g,%d\n", e->seq, s2r_stage_name(e->stage),
                e->alarms ? "alarm" : s2r_verdict_name(e->verdict), s2r_stage_name(e->next), e->n, e->value, e->lo,
                e->hi, e->unit);
    }
    return s2r_output_commit(&file);
}

/* One line per autonomous round: what the drift panels of the figure show. */
static s2r_result write_rounds_csv(const char* path, const record* rec) {
    s2r_file file;
    FILE* f = s2r_output_create(&file, path);
    int i;
    if (!f) return S2R_ERR_IO;
    fprintf(f, "round,fleet_success,changed_unit,changed_unit_success,changed_unit_cusum_level,camera_knocked,alarm\n");
    for (i = 0; i < rec->rounds; i++)
        fprintf(f, "%d,%.4f,%s,%.0f,%.4f,%d,%d\n", i, rec->fleet_success[i],
                rec->changed_unit >= 0 ? fleet[rec->changed_unit].name : "", rec->unit_success[i],
                rec->unit_level[i], rec->change_round >= 0 && i >= rec->change_round, i == rec->alarm_round);
    return s2r_output_commit(&file);
}

static void plot_stage_panels(s2r_figure* fig, const record* rec) {
    double rate[BARS], lo[BARS], hi[BARS], per_episode[BARS], torque[BARS];
    s2r_plot_style style = s2r_plot_style_default(), gate = s2r_plot_style_default();
    int i;
    for (i = 0; i < rec->bars; i++) {
        rate[i] = rec->bar_n[i] > 0 ? (double)rec->bar_k[i] / rec->bar_n[i] : 0;
        s2r_wilson_interval(rec->bar_k[i], rec->bar_n[i], &lo[i], &hi[i]);
        per_episode[i] = rec->bar_n[i] > 0 ? (double)rec->bar_interventions[i] / rec->bar_n[i] : 0;
        torque[i] = rec->bar_torque[i];
    }
    s2r_panel_labels(fig, 0, "success per stage (Wilson 95 % interval)", "", "success rate");
    s2r_panel_categories(fig, 0, rec->bar_name, rec->bars);
    s2r_panel_yrange(fig, 0, 0, 1.05);
    s2r_plot_bars(fig, 0, rate, lo, hi, rec->bars, &style);
    gate.label = "constrained gate 0.85";
    s2r_plot_hline(fig, 0, 0.85, &gate);
    s2r_panel_labels(fig, 1, "what the safety monitor saw", "", "per episode / fraction");
    s2r_panel_categories(fig, 1, rec->bar_name, rec->bars);
    s2r_panel_yrange(fig, 1, 0, 1.05);
    style.color = S2R_COLOR_VERMILION;
    style.label = "interventions per episode (shadow: predicted)";
    s2r_plot_bars(fig, 1, per_episode, NULL, NULL, rec->bars, &style);
    style.color = S2R_COLOR_SKY_BLUE;
    style.label = "mean torque peak / limit";
    s2r_plot_bars(fig, 1, torque, NULL, NULL, rec->bars, &style);
    s2r_panel_legend(fig, 1, S2R_LEGEND_ABOVE);
}

static void plot_drift_panels(s2r_figure* fig, const record* rec, const char* unit_name) {
    double x[ROUNDS_MAX];
    s2r_plot_style line = s2r_plot_style_default(), mark = s2r_plot_style_default(), ref = s2r_plot_style_default();
    char title[128];
    int i, n = rec->rounds;
    for (i = 0; i < n; i++) x[i] = i;
    snprintf(title, sizeof title, "%s: success and its CUSUM", unit_name);
    s2r_panel_labels(fig, 2, title, "autonomous round", "success / alarm level");
    s2r_panel_yrange(fig, 2, -0.05, 1.6);
    mark.label = "episode success";
    mark.marker = S2R_MARKER_CIRCLE;
    s2r_plot_scatter(fig, 2, x, rec->unit_success, n, &mark);
    line.label = "CUSUM / threshold";
    s2r_plot_line(fig, 2, x, rec->unit_level, n, &line);
    ref.label = "alarm";
    s2r_plot_hline(fig, 2, 1.0, &ref);
    s2r_panel_labels(fig, 3, "fleet success per round: one broken unit hides in the mean", "autonomous round",
                     "fraction of units");
    s2r_panel_yrange(fig, 3, 0, 1.05);
    line.label = NULL;
    s2r_plot_line(fig, 3, x, rec->fleet_success, n, &line);
    for (i = 2; i <= 3; i++) {
        if (rec->change_round >= 0) { ref.label = "camera knocked"; s2r_plot_vline(fig, i, rec->change_round - 0.5, &ref); }
        if (rec->alarm_round >= 0) { ref.label = "alarm: rollback"; s2r_plot_vline(fig, i, rec->alarm_round + 0.5, &ref); }
    }
}

static s2r_result plot_deployment(const char* path, const char* robot, const record* rec) {
    s2r_figure fig;
    char title[128];
    s2r_result res;
    if ((res = s2r_figure_init(&fig, 1500, 1000, 2, 2)) != S2R_OK) return res;
    snprintf(title, sizeof title, "Staged deployment on a %s fleet", robot);
    s2r_figure_title(&fig, title);
    plot_stage_panels(&fig, rec);
    if (rec->rounds > 0) plot_drift_panels(&fig, rec, rec->changed_unit >= 0 ? fleet[rec->changed_unit].name : "no unit changed");
    res = s2r_figure_write_png(&fig, path);
    if (res != S2R_OK) fprintf(stderr, "%s\n", fig.error);
    s2r_figure_free(&fig);
    return res;
}

/* ---------------------------------------------------------------------------
   The recipe
   ------------------------------------------------------------------------- */

/* Whether the run may go on to the next stage (Ctrl-C or SIGTERM stop it),
   the lab unit's episode ended first (unit_rest). */
#define GO_ON(res) ((res) == S2R_OK && ((res) = unit_rest(&fleet[0])) == S2R_OK && \
                    !((res) = s2r_example_stopped() ? S2R_ERR_INTERRUPTED : S2R_OK))

/* The stages in order; each runs only while the policy is still in. */
static s2r_result run_stages(const s2r_options* opt, const sizes* z, const s2r_controller* cand,
                             const s2r_controller* fallback, s2r_deploy* d, record* rec) {
    s2r_run_summary ref;
    double a_mean = 0, a_std = 0;
    memset(&ref, 0, sizeof ref);
    s2r_result res = stage_sim_regression(opt, z, cand, d, rec);
    if (GO_ON(res) && d->stage == S2R_STAGE_SYSID) res = stage_sysid(opt, d);
    if (GO_ON(res) && d->stage == S2R_STAGE_SHADOW) res = stage_shadow(opt, z, cand, fallback, d, rec);
    if (GO_ON(res) && d->stage == S2R_STAGE_TETHERED) res = stage_tethered(opt, cand, d, rec);
    if (GO_ON(res) && d->stage == S2R_STAGE_CONSTRAINED) res = stage_constrained(opt, cand, d, rec);
    if (GO_ON(res) && d->stage == S2R_STAGE_CANARY)
        res = stage_canary(opt, z, cand, fallback, d, rec, &ref, &a_mean, &a_std);
    if (GO_ON(res) && d->stage == S2R_STAGE_AUTONOMOUS) res = fleet_monitors(z, &ref, a_mean, a_std);
    if (GO_ON(res) && d->stage == S2R_STAGE_AUTONOMOUS) res = stage_autonomous(opt, z, cand, fallback, d, rec);
    if (res == S2R_OK && d->stage == S2R_STAGE_ROLLED_BACK && rec->alarm_round < 0)
        printf("  the candidate was stopped at a gate; the fallback stays in charge of the fleet\n");
    return res;
}

/* A run an error stopped (the robot side gone, a fault it reported) or a
   stop request (Ctrl-C, SIGTERM: S2R_ERR_INTERRUPTED): the reason, the lab
   unit's monitor latched in its e-stop (a robot in another process halts
   its own arm when the connection goes), a "stopped" record closing the
   log, and the timeline as decided so far. */
static void stop_deployment(const s2r_options* opt, s2r_deploy* d, s2r_result res) {
    const fleet_unit* lab = &fleet[0];
    char path[512], log[512], why[S2R_ERROR_LEN + 64];
    if (res == S2R_ERR_INTERRUPTED) snprintf(why, sizeof why, "interrupted (Ctrl-C or SIGTERM)");
    else snprintf(why, sizeof why, "%.60s: %s", lab->alive ? lab->name : "",
                  lab->alive && lab->robot->error && lab->robot->error[0] ? lab->robot->error : s2r_result_string(res));
    if (lab->alive) s2r_safety_estop(&fleet[0].safety, "the run stopped");
    fprintf(stderr, "deployment stopped in stage %s: %s\n", s2r_stage_name(d->stage), why);
    s2r_deploy_note(d, "stopped", "stage %s: %s; the lab unit halted", s2r_stage_name(d->stage), why);
    print_timeline(d);
    if (write_timeline_csv(s2r_task_path(path, sizeof path, opt, "06", "timeline.csv"), d) == S2R_OK)
        printf("wrote the log and the timeline so far: %s, %s\n",
               s2r_task_path(log, sizeof log, opt, "06", "deployment_log.jsonl"), path);
}

int main(int argc, char** argv) {
    static record rec;
    s2r_options opt;
    int status;
    s2r_deploy_config dc = s2r_deploy_config_default();
    s2r_deploy d;
    s2r_expert fallback_expert;
    s2r_expert_config ec = s2r_expert_config_default();
    candidate_policy cp;
    s2r_controller cand, fallback;
    s2r_task_config tc;
    sizes z;
    char path[512];
    s2r_result res;

    if (s2r_example_start(&opt, argc, argv, "staged deployment of a policy to a fleet of real units",
                          S2R_OPT_ROBOT | S2R_OPT_TASK | S2R_OPT_MJCF | S2R_OPT_ADDRESS | S2R_OPT_SEED | S2R_OPT_REAL_SEED |
                          S2R_OPT_THREADS | S2R_OPT_OUT | S2R_OPT_QUICK | S2R_OPT_POLICY | S2R_OPT_RANGES, &status) != S2R_OK)
        return status;
    if (opt.mjcf[0] && !opt.address[0]) {   /* before any work */
        fprintf(stderr, "--mjcf %s needs --address: the stand-in fleet has units of the built-in arms only; serve your "
                "arm (examples/robot_server.py) and give its address\n", opt.mjcf);
        return 2;
    }
    if (!opt.policy[0] != !opt.ranges[0]) {   /* before any work */
        fprintf(stderr, opt.policy[0] ? "--policy %s needs --ranges FILE, the ranges it was trained on\n"
                                      : "--ranges %s: this program reads it only beside --policy, as the ranges "
                                        "that policy was trained on\n", opt.policy[0] ? opt.policy : opt.ranges);
        return 2;
    }
    z = sizes_for(&opt);
    s2r_interrupt_catch();   /* Ctrl-C or SIGTERM: stop between stages with status 130 */
    rec.changed_unit = -1;
    rec.change_round = rec.alarm_round = -1;

    if (opt.mjcf[0])
        printf("Staged deployment of %s on your arm (%s) at --address, the fleet of one%s\n", s2r_task_kind_name(opt.task),
               opt.mjcf, opt.quick ? "; quick sizes" : "");
    else
        printf("Staged deployment of %s on a fleet of %d %s units, #%llu .. #%llu (#%llu is the lab unit%s)%s\n",
               s2r_task_kind_name(opt.task), z.fleet, s2r_robot_kind_name(opt.robot), (unsigned long long)opt.real_seed,
               (unsigned long long)(opt.real_seed + (uint64_t)z.fleet - 1), (unsigned long long)opt.real_seed,
               opt.address[0] ? ", served at --address" : "", opt.quick ? "; quick sizes" : "");
    if (load_trained(&opt, &cp) != S2R_OK) return 1;   /* before any unit is commissioned */
    res = fleet_init(&opt, z.fleet);
    if (res == S2R_OK) res = candidate_controller(&opt, &fleet[0].task, &cp, &cand);
    if (res == S2R_OK) {
        tc = s2r_task_config_of(&fleet[0].task);
        res = s2r_expert_init(&fallback_expert, &ec, &tc, fleet[0].robot->info);
    }
    if (res == S2R_OK && s2r_example_stopped()) res = S2R_ERR_INTERRUPTED;   /* after commissioning */
    if (res != S2R_OK) { free_candidate(&cp); fleet_free(z.fleet); return res == S2R_ERR_INTERRUPTED ? 130 : 1; }
    fallback = s2r_expert_controller(&fallback_expert);

    s2r_task_path(path, sizeof path, &opt, "06", "deployment_log.jsonl");
    if (s2r_deploy_init(&d, &dc, "candidate", path) != S2R_OK) { fprintf(stderr, "%s\n", d.error); fleet_free(z.fleet); return 1; }
    res = run_stages(&opt, &z, &cand, &fallback, &d, &rec);
    if (res == S2R_OK) {
        print_timeline(&d);
        res = write_timeline_csv(s2r_task_path(path, sizeof path, &opt, "06", "timeline.csv"), &d);
    } else
        stop_deployment(&opt, &d, res);
    if (res == S2R_OK) res = write_rounds_csv(s2r_task_path(path, sizeof path, &opt, "06", "rounds.csv"), &rec);
    if (res == S2R_OK)
        res = plot_deployment(s2r_task_path(path, sizeof path, &opt, "06", "staged_deployment.png"),
                              opt.mjcf[0] ? "your arm" : s2r_robot_kind_name(opt.robot), &rec);
    if (res == S2R_OK)
        printf("wrote %s\n", s2r_task_path(path, sizeof path, &opt, "06", "{deployment_log.jsonl,timeline.csv,rounds.csv,"
                                          "staged_deployment.png}"));
    s2r_deploy_free(&d);
    free_candidate(&cp);
    s2r_expert_free(&fallback_expert);
    fleet_free(z.fleet);
    return res == S2R_OK ? 0 : res == S2R_ERR_INTERRUPTED ? 130 : 1;
}
