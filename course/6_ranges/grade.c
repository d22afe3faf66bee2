/* course/6_ranges/grade.c - the open assignment: ranges that beat the
   default domain randomization on real units.

   The student hands in a ranges file (ranges.txt, the format of
   s2r_randomization_write).  The grader trains the reach policy on it
   from scratch, with the same seed and budget the reference row uses
   (the library's default reach ranges, s2r_randomization_default), and
   measures both on held-out stand-in units: units the recipe was never
   built or tuned on (HELD_OUT_UNIT onwards; only the finished push tables
   were measured again on #7001-#7003), whose hidden parameters no student
   has looked at.  It reports the two rows side by side with their
   95 % intervals and the interval of the difference (Newcombe), and
   passes when the student's policy is not clearly worse than the
   reference; whether it is better, and why, is the written part.

   GRADE_QUICK=1 in the environment cuts the budget (the kit's own tests):
   the numbers then say nothing about ranges, only that the path works. */
#include "grade.h"
#include "sim2real.h"
#include <math.h>
#include <string.h>

#define HELD_OUT_UNIT 7001   /* first held-out unit (seed of the fleet draw) */
#define UNITS 4              /* held-out units                                */
#define SEED 1               /* training seed, the same for both rows         */
/* How far one training's luck moves a row: 24 files that change nothing
   the reach simulator feels but the random numbers its training draws
   (a range written as the distribution it equals, or one of a parameter
   reach does not feel; trained on this seed: tests/course/6_ranges/luck/)
   gave rows from -16.5 to +6.0 points of the default's own (TRAINING_LUCK
   the larger), each row's evaluation noise in it already; the upper ends
   of their difference intervals were -6.9 at the lowest.  A row is
   clearly worse when its whole interval lies below -CLEARLY_WORSE: 3.1
   points below any such upper end.  One training tells no difference of
   less than about 20 points from luck. */
#define TRAINING_LUCK 0.165
#define CLEARLY_WORSE 0.10

static int quick(void) { const char* q = getenv("GRADE_QUICK"); return q && q[0] == '1'; }

/* The ranges to train on: the student's file, or (recording the
   reference) the library's defaults.  0 and a message on failure. */
static int load_ranges(s2r_randomization* r) {
    char error[S2R_ERROR_LEN];
    *r = s2r_randomization_none();
    if (!grade_submission()) { *r = s2r_task_randomization(S2R_TASK_REACH); return 1; }
    if (s2r_randomization_load(r, grade_submission(), error) != S2R_OK) {
        grade_fail("your ranges file does not load: %s", error);
        return 0;
    }
    return 1;
}

/* Whether this library's delay line is a stub (a kit with 1_latency still
   open): then no simulator can be built here. */
static int latency_open(void) {
    s2r_delay_line line;
    memset(&line, 0, sizeof line);
    if (s2r_delay_init(&line, 1, 2) != S2R_OK) return 1;
    s2r_delay_free(&line);
    return 0;
}

/* Valid, and taken by the simulator the training builds (the UR5e's reach
   scene: its 6 joints, its max_latency), so "valid" never passes a file
   the training then refuses.  In a kit whose library has no delay line
   the simulator's part is said to be the instructor's grader's. */
static void check_loads(void) {
    s2r_randomization r;
    s2r_sim_config cfg = s2r_task_sim_config(S2R_TASK_REACH, S2R_ROBOT_UR5E);
    s2r_sim sim;
    char error[S2R_ERROR_LEN];
    if (!load_ranges(&r)) return;
    if (s2r_randomization_check(&r, error) != S2R_OK) { grade_fail("your ranges are not valid: %s", error); return; }
    if (latency_open()) {
        printf("      valid as a file; whether the UR5e's reach simulator takes it (its 6 joints, latencies within its "
               "max_latency %g s) the instructor's grader checks: this kit's library has no delay line (1_latency open)\n",
               cfg.max_latency);
        return;
    }
    cfg.randomization = r;
    if (s2r_sim_init(&sim, &cfg) != S2R_OK) {
        grade_fail("your ranges do not fit the UR5e's reach simulator the training builds: %s%s", sim.error,
                   strstr(sim.error, "latency") ? " (latencies are in seconds: 20 ms is 0.02)" : "");
        return;
    }
    s2r_sim_free(&sim);
}

/* How far a bound, mean or std may move and still be the default's: a
   fraction of the default range's scale (its width, or its bounds' size
   for a narrow one).  An edit below it (friction's upper bound 1.5 ->
   1.50001) trains on the same draws to the last episode: the default's
   row again, which earns nothing (the row runs only once this passes). */
#define SAME_RANGE 0.005

static int same_value(double a, double b, const s2r_dist* d) {
    double scale = fmax(fabs(d->hi - d->lo), fmax(fabs(d->lo), fabs(d->hi)));
    return fabs(a - b) <= SAME_RANGE * (scale > 0 ? scale : 1);
}
static int same_dist(const s2r_dist* a, const s2r_dist* b) {
    return a->kind == b->kind && same_value(a->lo, b->lo, b) && same_value(a->hi, b->hi, b) &&
           (a->kind != S2R_DIST_FIXED && a->kind != S2R_DIST_TRUNC_NORMAL ? 1 : same_value(a->mean, b->mean, b)) &&
           (a->kind != S2R_DIST_TRUNC_NORMAL || same_value(a->std, b->std, b));
}
/* An entry as the reach simulator takes it, written one way: off for a
   push-scene parameter (reach has no object: it draws a number nothing
   uses), for an entry off, and for one that draws a single value that
   changes nothing (scale 1, offset 0, or absolute 0 of a quantity whose
   nominal is 0: those absolute by default); a single value as fixed; a
   quantity of nominal 0 in offset mode as absolute; a truncated normal
   at least 100 times wider than its interval as the uniform it all but
   is (its density varies by less than 1 part in 20000 there). */
static s2r_param_range as_reach_takes(s2r_param p, const s2r_param_range* in) {
    s2r_param_range r = *in;
    s2r_dist* d = &r.dist;
    int zero_nominal = s2r_param_default_mode(p) == S2R_APPLY_ABSOLUTE;
    double v;
    if (p >= S2R_PARAM_OBJECT_FRICTION || !r.enabled) return s2r_param_range_off(p);
    if (zero_nominal && r.mode == S2R_APPLY_OFFSET) r.mode = S2R_APPLY_ABSOLUTE;
    if (d->kind == S2R_DIST_TRUNC_NORMAL && d->std >= 100 * (d->hi - d->lo) && d->hi > d->lo)
        *d = s2r_dist_uniform(d->lo, d->hi);
    if (d->kind == S2R_DIST_FIXED || d->hi == d->lo || (d->kind == S2R_DIST_TRUNC_NORMAL && d->std == 0)) {
        v = d->kind == S2R_DIST_FIXED ? d->mean : d->hi == d->lo ? d->lo : d->mean;
        if (r.mode == S2R_APPLY_SCALE ? v == 1 : v == 0 && (r.mode == S2R_APPLY_OFFSET || zero_nominal))
            return s2r_param_range_off(p);
        *d = s2r_dist_fixed(v);
    }
    return r;
}
/* The UR5e's reach simulator with parameter p alone fixed at v (in the
   mode of `as`), everything else nominal, driven by saturating square
   waves (every joint at +-1, the whole action range) for FEEL_STEPS steps
   of FEEL_EPISODES episodes: each observation into obs.  0 when it cannot
   be built here. */
enum { FEEL_EPISODES = 6, FEEL_STEPS = 60, FEEL_OBS_MAX = 64 };
static int feel(s2r_param p, const s2r_param_range* as, double v, float (*obs)[FEEL_STEPS][FEEL_OBS_MAX]) {
    s2r_sim_config cfg = s2r_task_sim_config(S2R_TASK_REACH, S2R_ROBOT_UR5E);
    s2r_task_config tc = s2r_task_config_default(S2R_TASK_REACH);
    s2r_sim sim;
    s2r_task task;
    int e, t, j, ok = 1;
    cfg.randomization = s2r_randomization_none();
    if (as) {
        cfg.randomization.p[p] = *as;
        cfg.randomization.p[p].dist = s2r_dist_fixed(v);
    }
    if (s2r_sim_init(&sim, &cfg) != S2R_OK) return 0;
    if (s2r_task_init(&task, &tc, s2r_sim_backend(&sim)) != S2R_OK || task.env.obs_dim > FEEL_OBS_MAX) {
        s2r_sim_free(&sim);
        return 0;
    }
    memset(obs, 0, sizeof(float) * FEEL_EPISODES * FEEL_STEPS * FEEL_OBS_MAX);
    for (e = 0; e < FEEL_EPISODES && ok; e++) {
        s2r_rng rng = s2r_rng_make(78, (uint64_t)e);
        float action[S2R_MAX_JOINTS], o[FEEL_OBS_MAX];
        s2r_step_result sr;
        ok = task.env.reset(task.env.self, &rng, o) == S2R_OK;
        for (t = 0; t < FEEL_STEPS && ok; t++) {
            memcpy(obs[e][t], o, sizeof o);
            for (j = 0; j < task.env.act_dim; j++) action[j] = (t / (3 + j) + e) % 2 ? 1.0f : -1.0f;
            ok = task.env.step(task.env.self, action, o, &sr) == S2R_OK;
            if (ok && sr.done) ok = task.env.reset(task.env.self, &rng, o) == S2R_OK;
        }
    }
    s2r_task_free(&task);
    s2r_sim_free(&sim);
    return ok;
}

/* Whether the reach simulator feels parameter p anywhere the entries a and
   b (each as the reach simulator takes it) can draw: the ends and middle
   of each support, each observed to the bit against the nominal simulator
   (UR5e damping: its joints have none, so a scale of it changes nothing;
   friction: reach touches nothing).  1 also when no simulator can be built
   here (a kit: the written ranges decide). */
static int feels(s2r_param p, const s2r_param_range* a, const s2r_param_range* b) {
    static float nominal[FEEL_EPISODES][FEEL_STEPS][FEEL_OBS_MAX], probe[FEEL_EPISODES][FEEL_STEPS][FEEL_OBS_MAX];
    const s2r_param_range* entries[2];
    int k, m;
    entries[0] = a, entries[1] = b;
    if (latency_open() || !feel(p, NULL, 0, nominal)) return 1;
    for (k = 0; k < 2; k++) {
        double lo, hi;
        if (!entries[k]->enabled) continue;
        s2r_dist_support(&entries[k]->dist, &lo, &hi);
        for (m = 0; m < 3; m++)
            if (!feel(p, entries[k], m == 0 ? lo : m == 1 ? hi : 0.5 * (lo + hi), probe) ||
                memcmp(probe, nominal, sizeof probe) != 0)
                return 1;
    }
    return 0;
}

/* Whether ranges r are the default's d as the reach simulator takes them
   (as_reach_takes), within SAME_RANGE of every range the simulator feels
   (feels), with the same joint ranges. */
static int same_as_default(const s2r_randomization* r, const s2r_randomization* d) {
    int i;
    if (r->n_joint_ranges != d->n_joint_ranges) return 0;
    for (i = 0; i < S2R_PARAM_COUNT; i++) {
        s2r_param_range a = as_reach_takes((s2r_param)i, &r->p[i]), b = as_reach_takes((s2r_param)i, &d->p[i]);
        int differ = a.enabled != b.enabled || (a.enabled && (a.mode != b.mode || !same_dist(&a.dist, &b.dist)));
        if (differ && feels((s2r_param)i, &a, &b)) return 0;
    }
    for (i = 0; i < r->n_joint_ranges; i++)
        if (r->joint_range[i].param != d->joint_range[i].param || r->joint_range[i].joint != d->joint_range[i].joint ||
            !same_dist(&r->joint_range[i].dist, &d->joint_range[i].dist))
            return 0;
    return 1;
}

/* 1 when the student's ranges are the default's (said), 0 otherwise. */
static int is_default(const s2r_randomization* r) {
    s2r_randomization d = s2r_task_randomization(S2R_TASK_REACH);
    if (s2r_randomization_digest(r) == s2r_randomization_digest(&d)) {
        grade_fail("these are the default ranges: change what you think the default gets wrong");
        return 1;
    }
    if (same_as_default(r, &d)) {
        grade_fail("these ranges are the default's as the reach simulator takes them: every range is within %g %% of "
                   "its default once written one way (an entry off, at its identity or drawing one value that changes "
                   "nothing; a push-scene parameter reach never applies; offset or absolute for a quantity of nominal "
                   "0; a truncated normal as flat as a uniform), or differs in a parameter the reach simulator does not "
                   "feel at all (the UR5e's joint damping is 0, so a scale of it is nothing; reach touches nothing, so "
                   "friction is nothing) - the default's row again, or its luck; change what you think the default gets "
                   "wrong, by enough to matter", 100 * SAME_RANGE);
        return 1;
    }
    return 0;
}

static void check_differs(void) {
    s2r_randomization r;
    if (!load_ranges(&r) || !grade_submission()) return;
    is_default(&r);
}

/* Train reach on `r`, evaluate on the held-out units; rates into out. */
static int train_and_measure(const s2r_randomization* r, s2r_sim_real_eval* out) {
    long long steps = quick() ? 8000 : s2r_task_training_steps(S2R_TASK_REACH, 0);
    int episodes = quick() ? 4 : 50, obs_dim, act_dim;
    s2r_training t = s2r_training_default(S2R_ROBOT_UR5E, S2R_TASK_REACH);
    s2r_ppo_config pc = s2r_task_ppo_config(S2R_TASK_REACH, steps, SEED, 0);
    s2r_ppo ppo;
    s2r_controller c;
    char error[S2R_ERROR_LEN];
    s2r_task_dims(S2R_TASK_REACH, S2R_ROBOT_UR5E, &obs_dim, &act_dim);
    t.randomization = *r;
    t.label = grade_submission() ? "yours" : "default";
    t.progress = 0;
    if (s2r_ppo_init(&ppo, &pc, obs_dim, act_dim) != S2R_OK) { grade_fail("PPO did not start: %s", ppo.error); return 0; }
    if (s2r_train(&t, &ppo, error) != S2R_OK) { grade_fail("training failed: %s", error); s2r_ppo_free(&ppo); return 0; }
    c = s2r_policy_controller(&ppo.policy);
    if (s2r_evaluate_sim_and_real(&c, S2R_ROBOT_UR5E, &t.task, NULL, episodes, 99, HELD_OUT_UNIT, UNITS, out, error) != S2R_OK) {
        grade_fail("evaluation failed: %s", error);
        s2r_ppo_free(&ppo);
        return 0;
    }
    s2r_ppo_free(&ppo);
    return 1;
}

/* Whether the difference of k1 of n1 and k2 of n2 (its 95 % interval
   [lo, hi]) is settled, in words, and if not about how many episodes per
   row would settle a difference of that size: the n at which the normal
   interval's half-width 1.96 sqrt(v1/n + v2/n) is the difference itself
   (v: each rate's variance, from (k + 1) / (n + 2) so that a row of all
   or no successes still has a spread). */
static const char* settled_text(double k1, double n1, double k2, double n2, double lo, double hi) {
    static char text[400];
    double d = k1 / n1 - k2 / n2, p1 = (k1 + 1) / (n1 + 2), p2 = (k2 + 1) / (n2 + 2), need;
    if (hi < -CLEARLY_WORSE)
        snprintf(text, sizeof text, "settled: the 95 %% interval of the difference lies wholly below %.0f points, past "
                 "what one training's luck gave the default's own ranges written otherwise, so your ranges' policy is "
                 "worse than the default's on these units", -100 * CLEARLY_WORSE);
    else if (lo > 0 || hi < 0)
        snprintf(text, sizeof text, "the evaluation settles it (the interval lies wholly %s 0), one training's luck does "
                 "not: changes of nothing but the training's random numbers moved the default's row from %.1f to +6.0 "
                 "points - train on more seeds to tell", lo > 0 ? "above" : "below", -100 * TRAINING_LUCK);
    else if (d == 0)
        snprintf(text, sizeof text, "not settled: the two rows agree (%g of %g each), and no number of episodes settles a "
                 "difference of 0 - the report has to argue from what the ranges change", k1, n1);
    else {
        need = 1.96 * 1.96 * (p1 * (1 - p1) + p2 * (1 - p2)) / (d * d);
        snprintf(text, sizeof text, "not settled: the interval holds 0; a difference of %+.1f points would be settled by "
                 "about %.0f episodes per row (%.0f per unit; now %g per row), if it held - until then it may be noise",
                 100 * d, ceil(need), ceil(need / UNITS), n1);
    }
    return text;
}

static void check_row(void) {
    s2r_randomization r;
    s2r_sim_real_eval e;
    double got[4], ref[4], lo, hi;
    if (!load_ranges(&r) || !train_and_measure(&r, &e)) return;
    got[0] = e.real.successes; got[1] = e.real.episodes; got[2] = e.sim.successes; got[3] = e.sim.episodes;
    if (!grade_reference(quick() ? "default_row_quick" : "default_row", got, ref, 4)) return;
    printf("      held-out units %d..%d, %d episodes each; training seed %d, %s steps\n", HELD_OUT_UNIT,
           HELD_OUT_UNIT + UNITS - 1, (int)(got[1] / UNITS), SEED, quick() ? "8k (GRADE_QUICK)" : "200k");
    s2r_wilson_interval((int)ref[0], (int)ref[1], &lo, &hi);
    printf("      %-16s real %5.1f %% [%4.1f, %4.1f]   nominal sim %5.1f %%\n", "default ranges", 100 * ref[0] / ref[1],
           100 * lo, 100 * hi, 100 * ref[2] / ref[3]);
    if (grade_recording()) return;
    printf("      %-16s real %5.1f %% [%4.1f, %4.1f]   nominal sim %5.1f %%\n", "your ranges", 100 * e.real.success_rate,
           100 * e.real.success_lo, 100 * e.real.success_hi, 100 * e.sim.success_rate);
    s2r_newcombe_interval((int)got[0], (int)got[1], (int)ref[0], (int)ref[1], &lo, &hi);
    printf("      difference %+.1f points, 95 %% interval [%+.1f, %+.1f]: %s\n", 100 * (got[0] / got[1] - ref[0] / ref[1]),
           100 * lo, 100 * hi, lo > 0 ? "above the default on these units" : hi < 0 ? "below the default on these units"
           : "within the evaluation's noise of the default");
    printf("      %s\n", settled_text(got[0], got[1], ref[0], ref[1], lo, hi));
    GRADE_EXPECT(hi >= -CLEARLY_WORSE, "your ranges' policy is clearly worse than the default's on the held-out units "
                 "(its whole interval below %.0f points, past one training's luck): which range made training harder "
                 "without matching the units?", -100 * CLEARLY_WORSE);
}

int main(int argc, char** argv) {
    static const grade_check checks[] = {
        /* GRADE_DATA: the student hands in a file, no code runs in the worker but the library's */
        {"your ranges file loads and is valid", 1, 10, GRADE_UNIT | GRADE_DATA, check_loads},
        {"it is not the default ranges", 1, 10, GRADE_UNIT | GRADE_DATA, check_differs},
        {"trained on it: success on held-out units vs the default", 8, 900, GRADE_INTEGRATION | GRADE_DATA, check_row,
         "latency,randomization,ppo,sysid,gates"},
    };
    return grade_main(argc, argv, "6_ranges (open: ranges that beat the default)", checks,
                      (int)(sizeof checks / sizeof *checks));
}
