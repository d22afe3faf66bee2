/* bench_timestep.c - the physics timestep of each task and arm, chosen from
   measurement.

   The servos are stiff and push is a contact task, so the timestep is a
   trade of accuracy for speed.  For each task (reach, push) and arm, this
   program measures every candidate that divides the 40 ms control period -
   1 ms (the reference), 2, 4, 5, 8 and 10 ms, each with the library's servo
   and Euler (sim2real.h, Robots) - and "before": MuJoCo's own actuators and
   implicit integrator, every geom pair tested, at the timestep the task had
   before (reach 2 ms, push 4 ms):

     path       the scripted controller's commands of `paths` episodes on
                the reference, replayed open loop on the candidate: the
                largest distance of the tip (push) or the flange (reach)
                from where it is on the reference at the same instant, the
                mean over episodes, mm
     object     push: the object's final position's distance from the
                reference's, the median over the episodes, mm - beside the
                reference's own: the same commands with the object set down
                1e-9 m off (contact is chaotic; below that, a difference is
                noise)
     nominal    the scripted controller's success in the nominal simulator,
                `nominal` episodes (Wilson 95 %)
     units      its success on stand-in units #1-#10, `per_unit` episodes
                each, pooled
     diverged   episodes whose physics diverged, of all of the above

   The rule, fixed before the full measurement: per task and arm, the
   largest candidate whose path stays within 1 mm of the reference (a
   twentieth of the reach task's 20 mm success radius, a fifth of the
   camera's noise), on push whose object ends within 10 mm of the
   reference's in the median (a third of the 30 mm success radius), whose
   success in the nominal simulator and on the units lies inside the
   reference's Wilson interval, whose physics never diverged, which a
   drawn timestep (the default ranges' upper scale, 1.03) keeps within
   S2R_TIMESTEP_MAX (10 ms itself does not), and which divides system
   identification's 20 ms sample period as well as the control period
   (8 ms does not: its samples would be 24 ms apart).  10 and 8 ms are
   measured, not chosen.  It is printed as "chosen"; sim2real.h's built-in scenes use
   it, and the Robots section quotes this table.

   A trained policy trained at the chosen timestep (--policy FILE.ckpt,
   up to four, each on the arm and task it was trained for) is measured
   the same way: its success at every candidate, in the nominal simulator
   and on units #1-#10 - does the chosen timestep's physics flatter what
   it learnt, against the 1 ms reference?  It writes
   DIR/timestep_policy.csv instead, one row a policy and candidate.

   The stand-in units are measured here through their hidden simulator
   (real.hidden_sim), whose timestep is the candidate's: a measuring tool,
   not the pipeline.  Usage:
     bench_timestep [--quick] [--out DIR] [--threads N] [--policy FILE.ckpt ...]
   writes DIR/timestep.csv (default: the current folder); --quick runs
   smoke sizes.  `make figures` writes figures/timestep.csv with it (about
   half an hour on two cores), and figures/timestep_policy.csv with the
   push tables' pure-sim and DR policies of seed 1. */
#define SIM2REAL_IMPLEMENTATION
#include "../sim2real.h"
#include "bench_common.h"
#ifdef _OPENMP
#include <omp.h>
#endif

#define CANDIDATES 7            /* the reference, five candidates, before */
#define MAX_EVENTS 2000         /* backend calls of one recorded episode   */
#define MAX_STEPS 400           /* control steps of one episode            */
#define UNITS 10
#define MAX_PATHS 64            /* path episodes                          */
#define SYSID_PERIOD 0.02       /* s, system identification's samples     */
#define MAX_POLICIES 4          /* --policy files                         */

typedef struct variant {
    const char* label;
    double      dt;             /* s                                     */
    int         before;         /* 1: MuJoCo's actuators and integrator  */
} variant;

typedef struct sizes { int paths, nominal, per_unit, units; } sizes;

/* --- recording the scripted controller's backend calls ------------------ */

typedef struct call {
    int      kind;                          /* 0 reset, 1 command, 2 advance, 3 place */
    double   v[S2R_MAX_JOINTS];
    int      has_q;
    uint64_t rng[4];
} call;

typedef struct recording {
    const s2r_backend* inner;
    s2r_backend        backend;
    call*              calls;               /* [MAX_EVENTS] */
    int                n;
} recording;

static call* next_call(recording* r, int kind) {
    call* c = &r->calls[r->n < MAX_EVENTS - 1 ? r->n++ : r->n];
    memset(c, 0, sizeof *c);
    c->kind = kind;
    return c;
}

static s2r_result rec_reset(void* self, const double* q0, const double* target, s2r_rng* rng) {
    recording* r = (recording*)self;
    call* c = next_call(r, 0);
    if (q0) { c->has_q = 1; memcpy(c->v, q0, (size_t)r->inner->info->n_joints * sizeof(double)); }
    if (rng) memcpy(c->rng, rng->s, sizeof c->rng);
    return r->inner->reset(r->inner->self, q0, target, rng);
}

static s2r_result rec_command(void* self, const double* q) {
    recording* r = (recording*)self;
    memcpy(next_call(r, 1)->v, q, (size_t)r->inner->info->n_joints * sizeof(double));
    return r->inner->command(r->inner->self, q);
}

static s2r_result rec_advance(void* self, double seconds) {
    recording* r = (recording*)self;
    next_call(r, 2)->v[0] = seconds;
    return r->inner->advance(r->inner->self, seconds);
}

static s2r_result rec_place(void* self, const double xy[2]) {
    recording* r = (recording*)self;
    memcpy(next_call(r, 3)->v, xy, 2 * sizeof(double));
    return r->inner->place_object(r->inner->self, xy);
}

static s2r_result rec_sensors(void* self, s2r_sensors* out) {
    recording* r = (recording*)self;
    return r->inner->read_sensors(r->inner->self, out);
}

static s2r_result rec_truth(void* self, s2r_ground_truth* out) {
    recording* r = (recording*)self;
    return r->inner->ground_truth(r->inner->self, out);
}

/* --- the physics of a variant --------------------------------------------- */

/* The variant's physics on a simulator (the nominal model too, so every
   reset keeps it). */
static s2r_result set_physics(s2r_sim* sim, const variant* v) {
    return v->before ? bench_physics_before(sim, v->dt) : s2r_sim_set_timestep(sim, v->dt);
}

/* The tip (push) or flange (reach) and the object after each advance of
   `calls` replayed on `b`; returns the control steps, -1 on divergence. */
static int replay(const s2r_backend* b, const call* calls, int n, int push, double object_nudge, double* path,
                  double* object) {
    int i, k = 0;
    for (i = 0; i < n; i++) {
        const call* c = &calls[i];
        s2r_ground_truth g;
        s2r_rng rng;
        double xy[2];
        switch (c->kind) {
        case 0:
            memcpy(rng.s, c->rng, sizeof rng.s);
            b->reset(b->self, c->has_q ? c->v : NULL, NULL, &rng);
            break;
        case 1: b->command(b->self, c->v); break;
        case 2:
            if (b->advance(b->self, c->v[0]) != S2R_OK) return -1;
            b->ground_truth(b->self, &g);
            if (k < MAX_STEPS) {
                memcpy(path + 3 * k, push ? g.tip : g.flange, 3 * sizeof(double));
                memcpy(object + 3 * k, g.object, 3 * sizeof(double));
            }
            k++;
            break;
        default:
            xy[0] = c->v[0] + object_nudge;
            xy[1] = c->v[1];
            b->place_object(b->self, xy);
        }
    }
    return k < MAX_STEPS ? k : MAX_STEPS;
}

/* --- one task and arm ------------------------------------------------------ */

typedef struct outcome {
    double          path_mm;        /* mean over episodes of the largest distance */
    double          object_mm;      /* median final distance (push)               */
    s2r_eval_result nominal, units;
    int             diverged;
} outcome;

static double dist3(const double* a, const double* b) {
    return sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]));
}

static int compare_doubles(const void* a, const void* b) {
    double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

/* On `backend` for `episodes` episodes of `seed`: the policy in the
   checkpoint `policy_path` (each call loads its own: a policy's scratch is
   not shared between threads), or the scripted controller when NULL. */
static s2r_result controlled(const s2r_backend* backend, const s2r_task_config* tc, const char* policy_path,
                             int episodes, uint64_t seed, s2r_eval_result* out) {
    s2r_task task;
    s2r_expert expert;
    s2r_expert_config ec = s2r_expert_config_default();
    s2r_policy policy;
    s2r_controller c;
    char error[S2R_ERROR_LEN];
    s2r_result res = s2r_task_init(&task, tc, backend);
    if (res != S2R_OK) { printf("task: %s\n", task.error); return res; }
    if (policy_path) res = s2r_policy_from_checkpoint(&policy, policy_path, error);
    else res = s2r_expert_init(&expert, &ec, tc, backend->info);
    if (res != S2R_OK) {
        if (policy_path) printf("%s\n", error);
        s2r_task_free(&task);
        return res;
    }
    c = policy_path ? s2r_policy_controller(&policy) : s2r_expert_controller(&expert);
    res = s2r_evaluate(&c, &task, episodes, seed, out, NULL);
    if (res != S2R_OK) printf("evaluate: %s\n", task.error);
    if (policy_path) s2r_policy_free(&policy);
    else s2r_expert_free(&expert);
    s2r_task_free(&task);
    return res;
}

static s2r_result scripted(const s2r_backend* backend, const s2r_task_config* tc, int episodes, uint64_t seed,
                           s2r_eval_result* out) {
    return controlled(backend, tc, NULL, episodes, seed, out);
}

/* The success of the policy in `policy_path` (NULL: the scripted
   controller) in the nominal simulator and on the units, on variant v. */
static s2r_result success(s2r_robot_kind arm, s2r_task_kind kind, const char* policy_path, const variant* v,
                          const sizes* z, outcome* out) {
    s2r_task_config tc = s2r_task_config_default(kind);
    s2r_sim_config sc = s2r_task_sim_config(kind, arm);
    s2r_sim sim;
    s2r_result res;
    int u;
    memset(&out->units, 0, sizeof out->units);
    if ((res = s2r_sim_init(&sim, &sc)) != S2R_OK) return res;
    if ((res = set_physics(&sim, v)) == S2R_OK) res = controlled(&sim.backend, &tc, policy_path, z->nominal, 11, &out->nominal);
    s2r_sim_free(&sim);
    out->diverged += out->nominal.diverged;
    for (u = 1; u <= z->units && res == S2R_OK; u++) {
        s2r_real_robot real;
        s2r_eval_result r;
        if ((res = s2r_real_robot_init_scene(&real, arm, s2r_task_scene(kind), (uint64_t)u)) != S2R_OK) return res;
        if ((res = set_physics(&real.hidden_sim, v)) == S2R_OK)
            res = controlled(s2r_real_robot_backend(&real), &tc, policy_path, z->per_unit, 100 + (uint64_t)u, &r);
        s2r_real_robot_free(&real);
        if (res == S2R_OK) { s2r_eval_merge(&out->units, &r); out->diverged += r.diverged; }
    }
    return res;
}

/* Paths of the recorded episodes replayed on v against the reference's. */
static s2r_result paths(s2r_robot_kind arm, s2r_task_kind kind, const variant* v, call* const* calls, const int* n,
                        const double* ref_path, const double* ref_object, const int* ref_steps, const sizes* z,
                        double object_nudge, outcome* out) {
    s2r_sim_config sc = s2r_task_sim_config(kind, arm);
    s2r_sim sim;
    double* path = (double*)malloc(2 * 3 * MAX_STEPS * sizeof(double)), *object = path + 3 * MAX_STEPS;
    double finals[MAX_PATHS], sum = 0;
    s2r_result res = s2r_sim_init(&sim, &sc);
    int e, push = kind == S2R_TASK_PUSH;
    if (res == S2R_OK) res = set_physics(&sim, v);
    for (e = 0; e < z->paths && res == S2R_OK; e++) {
        const double* rp = ref_path + (size_t)e * 3 * MAX_STEPS;
        const double* ro = ref_object + (size_t)e * 3 * MAX_STEPS;
        double worst = 0;
        int s, k = replay(&sim.backend, calls[e], n[e], push, object_nudge, path, object);
        if (k < 0) { out->diverged++; finals[e] = NAN; continue; }
        for (s = 0; s < k && s < ref_steps[e]; s++) worst = fmax(worst, dist3(path + 3 * s, rp + 3 * s));
        sum += worst;
        finals[e] = dist3(object + 3 * (k - 1), ro + 3 * (ref_steps[e] - 1));
    }
    s2r_sim_free(&sim);
    free(path);
    out->path_mm = 1000 * sum / z->paths;
    qsort(finals, (size_t)z->paths, sizeof(double), compare_doubles);
    out->object_mm = push ? 1000 * finals[z->paths / 2] : NAN;
    return res;
}

/* Record `paths` scripted episodes on the reference and their paths. */
static s2r_result record(s2r_robot_kind arm, s2r_task_kind kind, const variant* ref, const sizes* z, call** calls,
                         int* n, double* ref_path, double* ref_object, int* ref_steps) {
    s2r_sim_config sc = s2r_task_sim_config(kind, arm);
    s2r_task_config tc = s2r_task_config_default(kind);
    s2r_sim sim;
    recording rec;
    s2r_result res = s2r_sim_init(&sim, &sc);
    int e;
    if (res == S2R_OK) res = set_physics(&sim, ref);
    rec.inner = &sim.backend;
    rec.backend = sim.backend;
    rec.backend.self = &rec;
    rec.backend.reset = rec_reset;
    rec.backend.command = rec_command;
    rec.backend.advance = rec_advance;
    rec.backend.read_sensors = rec_sensors;
    rec.backend.ground_truth = rec_truth;
    rec.backend.place_object = sim.backend.place_object ? rec_place : NULL;
    for (e = 0; e < z->paths && res == S2R_OK; e++) {
        s2r_eval_result r;
        rec.calls = calls[e];
        rec.n = 0;
        res = scripted(&rec.backend, &tc, 1, 1000 + (uint64_t)e, &r);
        n[e] = rec.n;
        ref_steps[e] = replay(&sim.backend, calls[e], n[e], kind == S2R_TASK_PUSH, 0,
                              ref_path + (size_t)e * 3 * MAX_STEPS, ref_object + (size_t)e * 3 * MAX_STEPS);
        if (ref_steps[e] < 1) res = S2R_ERR_DIVERGED;
    }
    s2r_sim_free(&sim);
    return res;
}

static int inside(const s2r_eval_result* r, const s2r_eval_result* ref) {
    return r->success_rate >= ref->success_lo && r->success_rate <= ref->success_hi;
}

/* The candidates of a task, the reference first. */
static void candidates(s2r_task_kind kind, variant* v) {
    const variant c[CANDIDATES] = {
        {"1 ms (reference)", 0.001, 0}, {"2 ms", 0.002, 0}, {"4 ms", 0.004, 0}, {"5 ms", 0.005, 0},
        {"8 ms", 0.008, 0}, {"10 ms", 0.010, 0}, {"before", kind == S2R_TASK_PUSH ? 0.004 : 0.002, 1}};
    memcpy(v, c, sizeof c);
}

static void measure(FILE* csv, s2r_robot_kind arm, s2r_task_kind kind, const sizes* z) {
    variant v[CANDIDATES];
    outcome out[CANDIDATES], floor_out;
    call* calls[MAX_PATHS];
    int n[MAX_PATHS], ref_steps[MAX_PATHS], k, e, chosen = 0, failed = 0;
    double lo, hi;
    double* ref_path = (double*)malloc((size_t)z->paths * 2 * 3 * MAX_STEPS * sizeof(double));
    double* ref_object = ref_path + (size_t)z->paths * 3 * MAX_STEPS;
    candidates(kind, v);
    memset(out, 0, sizeof out);
    memset(&floor_out, 0, sizeof floor_out);
    for (e = 0; e < z->paths; e++) calls[e] = (call*)calloc(MAX_EVENTS, sizeof(call));
    if (record(arm, kind, &v[0], z, calls, n, ref_path, ref_object, ref_steps) != S2R_OK) {
        printf("%s %s: recording on the reference failed\n", s2r_robot_kind_name(arm), s2r_task_kind_name(kind));
        return;
    }
#pragma omp parallel for schedule(dynamic, 1) reduction(+ : failed)
    for (k = 0; k < 2 * CANDIDATES + 1; k++) {
        s2r_result res;
        if (k == 2 * CANDIDATES) res = paths(arm, kind, &v[0], calls, n, ref_path, ref_object, ref_steps, z, 1e-9, &floor_out);
        else if (k % 2 == 0) res = success(arm, kind, NULL, &v[k / 2], z, &out[k / 2]);
        else res = paths(arm, kind, &v[k / 2], calls, n, ref_path, ref_object, ref_steps, z, 0, &out[k / 2]);
        if (res != S2R_OK) failed++;
    }
    if (failed) printf("%s %s: %d measurements failed\n", s2r_robot_kind_name(arm), s2r_task_kind_name(kind), failed);
    s2r_dist_support(&s2r_randomization_default().p[S2R_PARAM_TIMESTEP].dist, &lo, &hi);
    for (k = 1; k < CANDIDATES - 1; k++)
        if (v[k].dt * hi <= S2R_TIMESTEP_MAX && fabs(SYSID_PERIOD / v[k].dt - floor(SYSID_PERIOD / v[k].dt + 0.5)) < 1e-9 &&
            out[k].path_mm <= 1.0 && !(out[k].object_mm > 10.0) && inside(&out[k].nominal, &out[0].nominal) && inside(&out[k].units, &out[0].units) &&
            out[k].diverged == 0)
            chosen = k;
    printf("\n%s, %s (%d path episodes; scripted: %d nominal, %d x %d on units)\n", s2r_robot_kind_name(arm),
           s2r_task_kind_name(kind), z->paths, z->nominal, z->units, z->per_unit);
    printf("  %-17s %8s %10s   %-22s %-22s %s\n", "timestep", "path mm", "object mm", "nominal %", "units %", "diverged");
    for (k = 0; k < CANDIDATES; k++) {
        const outcome* o = &out[k];
        printf("  %-17s %8.3f %10.2f   %5.1f [%5.1f, %5.1f]    %5.1f [%5.1f, %5.1f]    %d%s\n", v[k].label, o->path_mm,
               o->object_mm, 100 * o->nominal.success_rate, 100 * o->nominal.success_lo, 100 * o->nominal.success_hi,
               100 * o->units.success_rate, 100 * o->units.success_lo, 100 * o->units.success_hi, o->diverged,
               k == chosen ? "   chosen" : "");
        fprintf(csv, "%s,%s,%s,%g,%d,%.4f,%.3f,%.3f,%d,%d,%.4f,%.4f,%d,%d,%.4f,%.4f,%d,%d\n", s2r_task_kind_name(kind),
                s2r_robot_kind_name(arm), v[k].before ? "before" : "library", v[k].dt, (int)(0.04 / v[k].dt + 0.5),
                o->path_mm, o->object_mm, floor_out.object_mm, o->nominal.successes, o->nominal.episodes,
                o->nominal.success_lo, o->nominal.success_hi, o->units.successes, o->units.episodes, o->units.success_lo,
                o->units.success_hi, o->diverged, k == chosen);
    }
    if (kind == S2R_TASK_PUSH)
        printf("  the reference with the object set down 1e-9 m off: object %.2f mm (contact's own chaos)\n",
               floor_out.object_mm);
    for (e = 0; e < z->paths; e++) free(calls[e]);
    free(ref_path);
}

/* A trained policy at every candidate: its arm and task from the
   checkpoint.  0, or 1 when it cannot be read or a measurement failed. */
static int measure_policy(FILE* csv, const char* policy_path, const sizes* z) {
    variant v[CANDIDATES];
    outcome out[CANDIDATES];
    s2r_policy policy;
    s2r_robot_kind arm;
    s2r_task_kind kind;
    char error[S2R_ERROR_LEN];
    const char* name = strrchr(policy_path, '/') ? strrchr(policy_path, '/') + 1 : policy_path;   /* the file's name */
    int k, failed = 0;
    if (s2r_policy_from_checkpoint(&policy, policy_path, error) != S2R_OK) { printf("%s\n", error); return 1; }
    arm = s2r_made_for_robot(policy.made_for);
    kind = s2r_made_for_task(policy.made_for);
    s2r_policy_free(&policy);
    if (arm != S2R_ROBOT_UR5E && arm != S2R_ROBOT_PANDA) {
        printf("%s: not trained for a built-in arm's task\n", policy_path);
        return 1;
    }
    candidates(kind, v);
    memset(out, 0, sizeof out);
#pragma omp parallel for schedule(dynamic, 1) reduction(+ : failed)
    for (k = 0; k < CANDIDATES; k++)
        if (success(arm, kind, policy_path, &v[k], z, &out[k]) != S2R_OK) failed++;
    printf("\n%s (%s, %s): %d nominal episodes, %d x %d on units\n", policy_path, s2r_robot_kind_name(arm),
           s2r_task_kind_name(kind), z->nominal, z->units, z->per_unit);
    printf("  %-17s   %-22s %-22s %s\n", "timestep", "nominal %", "units %", "diverged");
    for (k = 0; k < CANDIDATES; k++) {
        const outcome* o = &out[k];
        printf("  %-17s   %5.1f [%5.1f, %5.1f]    %5.1f [%5.1f, %5.1f]    %d\n", v[k].label,
               100 * o->nominal.success_rate, 100 * o->nominal.success_lo, 100 * o->nominal.success_hi,
               100 * o->units.success_rate, 100 * o->units.success_lo, 100 * o->units.success_hi, o->diverged);
        fprintf(csv, "%s,%s,%s,%s,%g,%d,%d,%d,%.4f,%.4f,%d,%d,%.4f,%.4f,%d\n", name, s2r_task_kind_name(kind),
                s2r_robot_kind_name(arm), v[k].before ? "before" : "library", v[k].dt, (int)(0.04 / v[k].dt + 0.5),
                o->nominal.successes, o->nominal.episodes, o->nominal.success_lo, o->nominal.success_hi,
                o->units.successes, o->units.episodes, o->units.success_lo, o->units.success_hi, o->diverged);
    }
    if (failed) printf("  %d measurements failed\n", failed);
    return failed > 0;
}

int main(int argc, char** argv) {
    sizes z = {40, 400, 40, UNITS};
    const char* out = ".";
    const char* policies[MAX_POLICIES];
    char path[1024];
    FILE* csv;
    int i, t, n_policies = 0, bad = 0;
    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick")) { z.paths = 2; z.nominal = 10; z.per_unit = 4; z.units = 2; }
        else if (!strcmp(argv[i], "--policy") && i + 1 < argc && n_policies < MAX_POLICIES) policies[n_policies++] = argv[++i];
        else if (!strcmp(argv[i], "--out") && i + 1 < argc) out = argv[++i];
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc) {
#ifdef _OPENMP
            omp_set_num_threads(atoi(argv[i + 1]));
#endif
            i++;
        } else {
            printf("usage: bench_timestep [--quick] [--out DIR] [--threads N] [--policy FILE.ckpt (up to %d)]\n",
                   MAX_POLICIES);
            return 2;
        }
    }
    if (n_policies > 0) {
        snprintf(path, sizeof path, "%s/timestep_policy.csv", out);
        if (!(csv = fopen(path, "w"))) { printf("bench_timestep: cannot write %s\n", path); return 1; }
        fprintf(csv, "policy,task,arm,physics,timestep,substeps,nominal_successes,nominal_episodes,nominal_lo,nominal_hi,"
                     "unit_successes,unit_episodes,unit_lo,unit_hi,diverged\n");
        for (i = 0; i < n_policies; i++) bad |= measure_policy(csv, policies[i], &z);
        fclose(csv);
        printf("\nwrote %s\n", path);
        return bad;
    }
    snprintf(path, sizeof path, "%s/timestep.csv", out);
    if (!(csv = fopen(path, "w"))) { printf("bench_timestep: cannot write %s\n", path); return 1; }
    fprintf(csv, "task,arm,physics,timestep,substeps,path_mm,object_mm,object_floor_mm,nominal_successes,"
                 "nominal_episodes,nominal_lo,nominal_hi,unit_successes,unit_episodes,unit_lo,unit_hi,diverged,chosen\n");
    for (t = 0; t < S2R_TASK_COUNT; t++) {
        measure(csv, S2R_ROBOT_UR5E, (s2r_task_kind)t, &z);
        measure(csv, S2R_ROBOT_PANDA, (s2r_task_kind)t, &z);
    }
    fclose(csv);
    printf("\nwrote %s\n", path);
    return 0;
}
