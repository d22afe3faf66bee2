/* sim2real_analysis.h - the gap analysed: how much of a policy's success
                         survives on the robot, where what it loses
                         comes from, and how far past its ranges it holds
                         (a companion header of sim2real.h)

   Three questions the recipe raises and does not need answered to run:
   what a simulation number predicts of a unit before the unit is touched
   (s2r_predict_transfer, examples/14_predicting_transfer.c), which of a
   unit's unmodeled effects its gap is made of (s2r_attribute_gap, an
   ORACLE that reads the hidden truth on purpose, examples/
   09_gap_attribution.c), and what margin a policy has with one parameter
   pushed past its range (s2r_robustness_sweep, examples 02 and 09).  All
   are built from the core's evaluation and its stand-in units; the
   pipeline calls none of them.

   Including it.  After sim2real.h, in every file that uses it:
       #define SIM2REAL_IMPLEMENTATION    // in one file only
       #include "sim2real.h"
       #include "sim2real_analysis.h"
   The one SIM2REAL_IMPLEMENTATION compiles this header's implementation
   too; the rules, and the #error that a wrong order stops with, are in
   sim2real.h's manual, section 8.
*/
#ifndef SIM2REAL_H
#error "include sim2real.h before sim2real_analysis.h"
#endif
#ifndef SIM2REAL_ANALYSIS_H
#define SIM2REAL_ANALYSIS_H

/* ==========================================================================
   The gap analysed: transfer predicted, the gap attributed, the margin
   ========================================================================== */
/* --- Predicting transfer: success on the robot, before the robot ----------
   Before a policy meets the robot the simulator is all there is: how much
   of its success will survive?  s2r_predict_transfer measures it in the
   simulators that can be built from what is known before the first real
   episode, each a prediction of its success on the unit:

     NOMINAL     the nominal simulator - what a pure-sim workflow reports
     DR          a distribution of plausible worlds (`randomized`: the DR
                 ranges), drawn per episode on streams of `seed`: draws the
                 training never saw
     IDENTIFIED  the unit's identified ranges (`identified`: s2r_identify_unit's
                 `next`, centred on its estimate, as wide as its uncertainty)
     DEPLOYED    IDENTIFIED with the camera as the policy will meet it: the
                 offset the unit's calibration measured (`camera_offset`) less
                 the correction `task` applies - a policy run uncalibrated
                 sees the whole offset, a calibrated one none of it (with
                 IDENTIFIED also asked for, its result is then copied)

   Nothing here touches the unit: the ranges and the offset come from the
   system identification and calibration that precede deployment.  Every
   predictor runs episode i on stream i of `seed` (as s2r_evaluate), the
   predictors in parallel; the controller must be safe to call from several
   threads (a policy is).  `predictors`: bits 1u << S2R_PREDICT_*, 0 = every
   one whose evidence is given; one not run has episodes 0.  How well they
   predict is measured, not assumed: example 14 scores them against the
   units. */
typedef enum s2r_predictor {
    S2R_PREDICT_NOMINAL, S2R_PREDICT_DR, S2R_PREDICT_IDENTIFIED, S2R_PREDICT_DEPLOYED, S2R_PREDICTOR_COUNT
} s2r_predictor;

typedef struct s2r_transfer_evidence {
    const s2r_randomization* randomized;    /* DR's ranges, or NULL (no DR)              */
    const s2r_randomization* identified;    /* the unit's re-centred ranges, or NULL     */
    const double*            camera_offset; /* m [3], what the unit's camera calibration */
                                            /* measured, or NULL (no DEPLOYED)           */
    unsigned                 predictors;    /* which to run; 0: all the evidence allows  */
} s2r_transfer_evidence;

/* "nominal", "dr", "identified", "deployed"; "unknown" out of range. */
S2RDEF const char* s2r_predictor_name(s2r_predictor p);
/* task: as deployed, with the camera correction the policy will run with.
   out[S2R_PREDICTOR_COUNT].  A predictor asked for without its evidence is
   S2R_ERR_INVALID_ARGUMENT. */
S2RDEF s2r_result  s2r_predict_transfer(const s2r_controller* controller, s2r_robot_kind robot,
                                        const s2r_task_config* task, const s2r_transfer_evidence* evidence,
                                        int episodes, uint64_t seed, s2r_eval_result* out, char* error);

/* ORACLE - where a controller's gap on a unit comes from (see
   s2r_real_robot_init_ablated): its success on the unit as it is, with
   every effect off (the nominal simulator as the fleet's physics gives
   it), and for each effect of the task's scene the unit with that effect
   off and the nominal simulator with only that effect on.  Every
   condition runs the same episode streams of `seed`, so conditions differ
   only in the effects.  Effects the scene does not have are left empty
   (episodes 0).  A camera correction in `task` (a calibrated policy)
   answers the unit's calibration offset, so where the offset is switched
   off the correction goes too: that condition's camera is as perfect as a
   calibration would find it.  Conditions run in parallel: the controller
   must be safe to call from several threads (a policy is).  A teaching
   and research tool (examples/09); the pipeline never calls it. */
typedef struct s2r_gap_attribution {
    s2r_eval_result unit;                        /* the unit as it is            */
    s2r_eval_result nominal;                     /* every effect off             */
    s2r_eval_result without[S2R_EFFECT_COUNT];   /* the unit with effect e off   */
    s2r_eval_result only[S2R_EFFECT_COUNT];      /* only effect e on             */
} s2r_gap_attribution;

S2RDEF s2r_result s2r_attribute_gap(const s2r_controller* controller, s2r_robot_kind robot,
                                    const s2r_task_config* task, uint64_t unit, int episodes, uint64_t seed,
                                    s2r_gap_attribution* out, char* error);
/* Pool `one` into `pooled`, condition by condition (s2r_eval_merge). */
S2RDEF void       s2r_gap_attribution_pool(s2r_gap_attribution* pooled, const s2r_gap_attribution* one);

/* --- The margin: success with one parameter pushed past its range ---------- */
/* The margin a policy has: its success on the nominal simulator with one
   parameter pushed to each of `count` values (1..S2R_SWEEP_MAX), everything
   else nominal.  Value k is parameter p fixed at values[k] in its default
   mode (s2r_param_default_mode: a scale for kp, seconds for
   action_latency, ...); `episodes` episodes each, episode i on stream i of
   `seed` for every value, so the values differ only in p.  out[k] is the
   result.  This is how to see what domain randomization buys: a policy
   trained across a range keeps working further past it than one trained on
   the nominal model, and a real robot that sits inside both margins cannot
   tell them apart.  A value the simulator refuses (out of the parameter's
   bounds, a latency past max_latency) is an error naming it, before any
   episode runs.  Values run in parallel; the controller must be safe to
   call from several threads (a policy is), and threads change nothing. */
#define S2R_SWEEP_MAX 16
S2RDEF s2r_result s2r_robustness_sweep(const s2r_controller* controller, s2r_robot_kind robot,
                                       const s2r_task_config* task, s2r_param p, const double* values,
                                       int count, int episodes, uint64_t seed, s2r_eval_result* out,
                                       char* error);

#endif /* SIM2REAL_ANALYSIS_H */

#if defined(SIM2REAL_IMPLEMENTATION) && !defined(S2R_IMPLEMENTATION_ELSEWHERE)
#ifdef S2R_ANALYSIS_IMPLEMENTATION_DONE
#error "sim2real_analysis.h: its implementation is already in this file (included twice with SIM2REAL_IMPLEMENTATION defined)"
#endif
#define S2R_ANALYSIS_IMPLEMENTATION_DONE
#ifndef SIM2REAL_IMPLEMENTATION_DONE
#error "sim2real_analysis.h: define SIM2REAL_IMPLEMENTATION before sim2real.h is first included (this implementation uses the core's)"
#endif

/* ==========================================================================
   The gap analysed (implementation)
   ========================================================================== */

/* >> section: The gap analysed
   Flow: s2r_predict_transfer runs the simulators that can be built before
   the first real episode, in parallel, each through the core's
   s2r__evaluate_sim; s2r_attribute_gap builds the unit once per condition
   (s2r_real_robot_init_ablated) and evaluates the policy on each;
   s2r_robustness_sweep checks each pushed value as a simulator would, then
   evaluates the values in parallel through s2r__evaluate_job. */

S2RDEF const char* s2r_predictor_name(s2r_predictor p) {
    static const char* const names[S2R_PREDICTOR_COUNT] = {"nominal", "dr", "identified", "deployed"};
    return (int)p >= 0 && p < S2R_PREDICTOR_COUNT ? names[p] : "unknown";
}

S2RDEF s2r_result s2r_predict_transfer(const s2r_controller* controller, s2r_robot_kind robot,
                                       const s2r_task_config* task, const s2r_transfer_evidence* evidence,
                                       int episodes, uint64_t seed, s2r_eval_result* out, char* error) {
    if (!task)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "s2r_predict_transfer: task is NULL");
    const s2r_randomization* physics[S2R_PREDICTOR_COUNT];
    s2r_task_config perfect = *task, deployed = *task;   /* the simulated cameras */
    s2r_result status[S2R_PREDICTOR_COUNT];
    char errors[S2R_PREDICTOR_COUNT][S2R_ERROR_LEN];
    const double* applied;
    double correction[3], none[3] = {0, 0, 0};
    unsigned given, run;
    int k, copy_deployed;
    if (!controller || !task || !evidence || !out || episodes < 1)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "predicting transfer needs a controller, a task, the "
                         "evidence, room for %d results and episodes >= 1", S2R_PREDICTOR_COUNT);
    memset(out, 0, S2R_PREDICTOR_COUNT * sizeof *out);
    given = 1u << S2R_PREDICT_NOMINAL | (evidence->randomized ? 1u << S2R_PREDICT_DR : 0) |
            (evidence->identified ? 1u << S2R_PREDICT_IDENTIFIED : 0) |
            (evidence->identified && evidence->camera_offset ? 1u << S2R_PREDICT_DEPLOYED : 0);
    run = evidence->predictors ? evidence->predictors : given;
    for (k = 0; k < S2R_PREDICTOR_COUNT; k++)
        if (run & ~given & 1u << k)
            return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "predicting transfer: %s asked for without its "
                             "evidence (DR needs the randomized ranges, IDENTIFIED the identified ones, DEPLOYED "
                             "those and the camera offset)", s2r_predictor_name((s2r_predictor)k));
    if (run >> S2R_PREDICTOR_COUNT)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "predicting transfer: predictors 0x%x has bits of no "
                         "predictor", run);
    /* A perfect camera for all but DEPLOYED, which meets what the policy
       will: the measured offset less the applied correction - on a perfect
       camera, a correction of (applied - measured). */
    applied = task->kind == S2R_TASK_PUSH ? task->push.target_correction : task->reach.target_correction;
    for (k = 0; k < 3; k++) correction[k] = evidence->camera_offset ? applied[k] - evidence->camera_offset[k] : 0;
    if (!s2r_all_finite(correction, 3))
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "predicting transfer: the camera offset must be finite");
    s2r_task_config_set_camera(&perfect, none);
    s2r_task_config_set_camera(&deployed, correction);
    copy_deployed = correction[0] == 0 && correction[1] == 0 && correction[2] == 0 &&
                    (run & 1u << S2R_PREDICT_IDENTIFIED);   /* the same simulator: copied, not run twice */
    physics[S2R_PREDICT_NOMINAL] = NULL;
    physics[S2R_PREDICT_DR] = evidence->randomized;
    physics[S2R_PREDICT_IDENTIFIED] = physics[S2R_PREDICT_DEPLOYED] = evidence->identified;
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic)
#endif
    for (k = 0; k < S2R_PREDICTOR_COUNT; k++) {
        status[k] = S2R_OK;
        if (!(run & 1u << k) || (k == S2R_PREDICT_DEPLOYED && copy_deployed)) continue;
        status[k] = s2r__evaluate_sim(controller, robot, k == S2R_PREDICT_DEPLOYED ? &deployed : &perfect, physics[k],
                                      episodes, seed, &out[k], errors[k]);
    }
    for (k = 0; k < S2R_PREDICTOR_COUNT; k++)
        if (status[k] != S2R_OK)
            return s2r__fail(error, status[k], "predicting transfer, %s: %s", s2r_predictor_name((s2r_predictor)k),
                             errors[k]);
    if (copy_deployed && (run & 1u << S2R_PREDICT_DEPLOYED)) out[S2R_PREDICT_DEPLOYED] = out[S2R_PREDICT_IDENTIFIED];
    return S2R_OK;
}

static unsigned s2r__attribution_condition(s2r_gap_attribution* a, int k, s2r_eval_result** out);

S2RDEF s2r_result s2r_attribute_gap(const s2r_controller* controller, s2r_robot_kind robot,
                                    const s2r_task_config* task, uint64_t unit, int episodes, uint64_t seed,
                                    s2r_gap_attribution* out, char* error) {
    enum { CONDITIONS = 2 + 2 * S2R_EFFECT_COUNT };
    const double none[3] = {0, 0, 0};
    s2r_task_config perfect;   /* the task without its camera correction */
    s2r_result status[CONDITIONS];
    char errors[CONDITIONS][S2R_ERROR_LEN];
    s2r_scene scene;
    int k;
    if (!controller || !task || !out || episodes < 1)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "gap attribution needs a controller, a task, room for "
                         "the result and episodes >= 1");
    memset(out, 0, sizeof *out);
    scene = s2r_task_scene(task->kind);
    perfect = *task;
    s2r_task_config_set_camera(&perfect, none);
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic)
#endif
    for (k = 0; k < CONDITIONS; k++) {
        s2r_eval_result* result;
        unsigned off = s2r__attribution_condition(out, k, &result);
        s2r_real_robot real;
        status[k] = S2R_OK;
        if (k >= 2 && !s2r_effect_in_scene((s2r_effect)((k - 2) / 2), scene)) continue;
        if ((status[k] = s2r_real_robot_init_ablated(&real, robot, scene, unit, off)) != S2R_OK) {
            snprintf(errors[k], S2R_ERROR_LEN, "%s", real.error);
            continue;
        }
        status[k] = s2r__evaluate_on(controller, &real.backend, (off & 1u << S2R_EFFECT_CALIBRATION) ? &perfect : task,
                                     episodes, seed, result, errors[k]);
        s2r_real_robot_free(&real);
    }
    for (k = 0; k < CONDITIONS; k++)
        if (status[k] != S2R_OK) return s2r__fail(error, status[k], "gap attribution: %s", errors[k]);
    return S2R_OK;
}

/* Condition k of an attribution: 0 the unit, 1 nominal, then without /
   only for each effect; its effects-off mask and where its result goes. */
static unsigned s2r__attribution_condition(s2r_gap_attribution* a, int k, s2r_eval_result** out) {
    int e = (k - 2) / 2;
    if (k == 0) { *out = &a->unit; return 0; }
    if (k == 1) { *out = &a->nominal; return S2R_EFFECTS_ALL; }
    if (k % 2 == 0) { *out = &a->without[e]; return 1u << e; }
    *out = &a->only[e];
    return S2R_EFFECTS_ALL & ~(1u << e);
}

S2RDEF void s2r_gap_attribution_pool(s2r_gap_attribution* pooled, const s2r_gap_attribution* one) {
    int e;
    S2R_ASSERT(pooled && one);
    s2r_eval_merge(&pooled->unit, &one->unit);
    s2r_eval_merge(&pooled->nominal, &one->nominal);
    for (e = 0; e < S2R_EFFECT_COUNT; e++) {
        s2r_eval_merge(&pooled->without[e], &one->without[e]);
        s2r_eval_merge(&pooled->only[e], &one->only[e]);
    }
}

/* --- The margin ----------------------------------------------------------- */

/* The nominal simulator with parameter p fixed at `value`, checked as a
   simulator would check it. */
static s2r_result s2r__sweep_physics(s2r_robot_kind robot, s2r_task_kind kind, s2r_param p, double value,
                                     s2r_randomization* r, char* error) {
    s2r_sim_config sc = s2r_task_sim_config(kind, robot);
    s2r_sim sim;
    s2r_result res;
    *r = s2r_randomization_none();
    r->p[p].dist = s2r_dist_fixed(value);
    r->p[p].mode = s2r_param_default_mode(p);
    r->p[p].enabled = 1;
    sc.randomization = *r;
    if ((res = s2r_sim_init(&sim, &sc)) != S2R_OK)
        return s2r__fail(error, res, "robustness sweep, %s = %g: %s", s2r_param_name(p), value, sim.error);
    s2r_sim_free(&sim);
    return S2R_OK;
}

S2RDEF s2r_result s2r_robustness_sweep(const s2r_controller* controller, s2r_robot_kind robot,
                                       const s2r_task_config* task, s2r_param p, const double* values,
                                       int count, int episodes, uint64_t seed, s2r_eval_result* out,
                                       char* error) {
    s2r_randomization physics[S2R_SWEEP_MAX];
    s2r_result status[S2R_SWEEP_MAX], res;
    char errors[S2R_SWEEP_MAX][S2R_ERROR_LEN];
    int k;
    if (!controller || !task || !values || !out || count < 1 || count > S2R_SWEEP_MAX || episodes < 1 ||
        (int)p < 0 || p >= S2R_PARAM_COUNT)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "robustness sweep needs a controller, a task, a "
                         "parameter, 1..%d values with room for their results and episodes >= 1", S2R_SWEEP_MAX);
    for (k = 0; k < count; k++)
        if ((res = s2r__sweep_physics(robot, task->kind, p, values[k], &physics[k], error)) != S2R_OK) return res;
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic)
#endif
    for (k = 0; k < count; k++)
        status[k] = s2r__evaluate_job(controller, robot, task, &physics[k], episodes, seed, 0, 0, &out[k], errors[k]);
    for (k = 0; k < count; k++)
        if (status[k] != S2R_OK) return s2r__fail(error, status[k], "%s", errors[k]);
    return S2R_OK;
}

#endif /* SIM2REAL_IMPLEMENTATION */

/* LICENSE: the same as sim2real.h's (MIT), at the end of that file. */
