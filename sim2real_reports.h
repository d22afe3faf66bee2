/* sim2real_reports.h - results for a person: a recipe row's sim-and-real
                        result, ADR's changes, an identification's table
                        (a companion header of sim2real.h)

   What the recipe's results look like to a person, and is not the
   recipe: the two numbers of a row of the recipe table as a printed line
   and a one-row CSV (s2r_sim_real_eval_print / _write, examples 01-05,
   07, 13), the ranges
   automatic domain randomization moved, as CSV (s2r_adr_write_csv,
   examples 02 and 13), and the table of an identification
   (s2r_sysid_print, examples 03 and 12).  Each takes what the core
   computed; the pipeline calls none of them.

   Including it.  After sim2real.h, in every file that uses it:
       #define SIM2REAL_IMPLEMENTATION    // in one file only
       #include "sim2real.h"
       #include "sim2real_reports.h"
   The one SIM2REAL_IMPLEMENTATION compiles this header's implementation
   too; the rules, and the #error that a wrong order stops with, are in
   sim2real.h's manual, section 8.  Needs only what sim2real.h needs.
*/
#ifndef SIM2REAL_H
#error "include sim2real.h before sim2real_reports.h"
#endif
#ifndef SIM2REAL_REPORTS_H
#define SIM2REAL_REPORTS_H

/* ==========================================================================
   Reports: printed lines and tables, result files
   ========================================================================== */
/* --- The sim-and-real result of a recipe row (s2r_evaluate_sim_and_real) -- */
/* One line: label, sim and real success with intervals, gap, distances. */
S2RDEF void       s2r_sim_real_eval_print(const char* label, const s2r_sim_real_eval* e);
/* A CSV with a header and one row for `e` (S2R_ERR_IO if it cannot be written). */
S2RDEF s2r_result s2r_sim_real_eval_write(const char* path, const char* label, const s2r_sim_real_eval* e,
                                          char* error);

/* --- ADR's changes (s2r_adr) --------------------------------------------- */
/* Every change as CSV rows update,parameter,lo,hi (written whole). */
S2RDEF s2r_result     s2r_adr_write_csv(const s2r_adr* adr, const char* path, char* error);

/* --- An identification's table (s2r_sysid_run) --------------------------- */
/* Print the table of a result: parameter, unit, start, value, bounds,
   sensitivity, recentred half-width; then losses, MSEs and verdict. */
S2RDEF void               s2r_sysid_print(const s2r_sysid* id, const s2r_sysid_result* result);

#endif /* SIM2REAL_REPORTS_H */

#if defined(SIM2REAL_IMPLEMENTATION) && !defined(S2R_IMPLEMENTATION_ELSEWHERE)
#ifdef S2R_REPORTS_IMPLEMENTATION_DONE
#error "sim2real_reports.h: its implementation is already in this file (included twice with SIM2REAL_IMPLEMENTATION defined)"
#endif
#define S2R_REPORTS_IMPLEMENTATION_DONE
#ifndef SIM2REAL_IMPLEMENTATION_DONE
#error "sim2real_reports.h: define SIM2REAL_IMPLEMENTATION before sim2real.h is first included (this implementation uses the core's)"
#endif

/* ==========================================================================
   Reports (implementation)
   ========================================================================== */

/* >> section: Reports
   Flow: the sim-and-real row (written whole through the core's s2r_file)
   and line, ADR's changes, then an identification's table with its
   helpers first. */

/* --- The sim-and-real result ------------------------------------------- */

S2RDEF s2r_result s2r_sim_real_eval_write(const char* path, const char* label, const s2r_sim_real_eval* e,
                                          char* error) {
    if (!label || !e)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "s2r_sim_real_eval_write: label or e is NULL");
    s2r_file file;
    FILE* f;
    s2r_result res = s2r_file_create(&file, path, error);
    if (res != S2R_OK) return res;
    f = file.f;
    fprintf(f, "recipe,sim_episodes,sim_successes,sim_success,sim_lo,sim_hi,real_episodes,real_successes,"
               "real_success,real_lo,real_hi,gap,gap_lo,gap_hi,sim_distance_m,real_distance_m\n");
    fprintf(f, "%s,%d,%d,%.4f,%.4f,%.4f,%d,%d,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.5f,%.5f\n", label, e->sim.episodes,
            e->sim.successes, e->sim.success_rate, e->sim.success_lo, e->sim.success_hi, e->real.episodes,
            e->real.successes, e->real.success_rate, e->real.success_lo, e->real.success_hi, e->gap, e->gap_lo,
            e->gap_hi, e->sim.mean_distance, e->real.mean_distance);
    return s2r_file_commit(&file, error);
}

S2RDEF void s2r_sim_real_eval_print(const char* label, const s2r_sim_real_eval* e) {
    S2R_ASSERT(e);
    printf("  %-28s sim %5.1f %% [%5.1f, %5.1f]  real %5.1f %% [%5.1f, %5.1f]  gap %5.1f [%5.1f, %5.1f]"
           "  (final distance sim %.1f mm, real %.1f mm)\n",
           label, 100 * e->sim.success_rate, 100 * e->sim.success_lo, 100 * e->sim.success_hi,
           100 * e->real.success_rate, 100 * e->real.success_lo, 100 * e->real.success_hi, 100 * e->gap,
           100 * e->gap_lo, 100 * e->gap_hi, 1000 * e->sim.mean_distance, 1000 * e->real.mean_distance);
}

/* --- ADR's changes -------------------------------------------------------- */

S2RDEF s2r_result s2r_adr_write_csv(const s2r_adr* adr, const char* path, char* error) {
    s2r_file file;
    s2r_result res;
    int i;
    if (!adr || !path) return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "adr: nothing to write");
    if ((res = s2r_file_create(&file, path, error)) != S2R_OK) return res;
    fprintf(file.f, "update,parameter,lo,hi\n");
    for (i = 0; i < adr->n_changes; i++)
        fprintf(file.f, "%d,%s,%.9g,%.9g\n", adr->changes[i].update, s2r_param_name(adr->changes[i].param),
                adr->changes[i].lo, adr->changes[i].hi);
    return s2r_file_commit(&file, error);
}

/* --- An identification's table ------------------------------------------ */

/* Unit of a parameter's value under its default mode. */
static const char* s2r__sysid_unit(s2r_param p) {
    if (s2r_param_default_mode(p) == S2R_APPLY_SCALE) return "x nominal";
    if (p == S2R_PARAM_FRICTIONLOSS) return "N m";
    return p == S2R_PARAM_PAYLOAD ? "kg" : "s";
}

/* An entry's name for the report: "kp", or "kp[4]" for joint 4's own. */
static const char* s2r__sysid_label(const s2r_sysid_param* sp, char* buf, size_t cap) {
    if (sp->joint <= 0) return s2r_param_name(sp->param);
    snprintf(buf, cap, "%s[%d]", s2r_param_name(sp->param), sp->joint);
    return buf;
}

/* The latency profile as "k: loss" around its minimum (searched steps only). */
static void s2r__sysid_print_profile(const s2r_sysid* id, const s2r_sysid_result* r) {
    int k;
    if (r->latency_index < 0) return;
    printf("  %s profile (others re-fitted), loss by delay:", s2r_param_name(id->config.param[r->latency_index].param));
    for (k = 0; k < S2R_SYSID_MAX_PROFILE; k++)
        if (!isnan(r->latency_profile[k]))
            printf(" %.0f ms %.3e%s", 1000 * k * id->dt, r->latency_profile[k],
                   fabs(k * id->dt - r->value[r->latency_index]) < 0.5 * id->dt ? " (best)" : "");
    printf("\n");
}

/* Each flat combination as "0.71 kp - 0.70 payload" (components >= 0.2). */
static void s2r__sysid_print_flat(const s2r_sysid* id, const s2r_sysid_result* r) {
    int k, i;
    printf("  curvature in bounds units: condition %.3g, %d flat combination%s\n", r->condition, r->n_flat,
           r->n_flat == 1 ? "" : "s");
    for (k = 0; k < r->n_flat; k++) {
        printf("    flat (rise %.2e rad^2 per bounds width):", r->eigenvalue[k]);
        for (i = 0; i < r->n_params; i++)
            if (fabs(r->eigenvector[k][i]) >= 0.2) {
                char label[40];
                printf(" %+.2f %s", r->eigenvector[k][i], s2r__sysid_label(&id->config.param[i], label, sizeof label));
            }
        printf("\n");
    }
}

S2RDEF void s2r_sysid_print(const s2r_sysid* id, const s2r_sysid_result* result) {
    S2R_ASSERT(id && result);
    int i, j, held_out = !isnan(result->validation_mse_start);   /* NaN: run without validation trajectories */
    int exact = result->train_loss <= S2R_SYSID_EXACT_LOSS;      /* the logs are the model itself */
    double descent = result->descent_loss;
    printf("  %-15s %-9s %9s %9s %9s %19s %11s %10s\n", "parameter", "unit", "start", "value", "std err", "bounds",
           "sensitivity", "range +-");
    for (i = 0; i < result->n_params; i++) {
        const s2r_sysid_param* sp = &id->config.param[i];
        const char* note = result->zero_nominal[i] ? "  not identifiable: 0 in the model"
                         : !result->identifiable[i] ? "  not identifiable"
                         : (result->value[i] == sp->lo || result->value[i] == sp->hi) ? "  at a bound" : "";
        char label[40], se[16];
        if (isnan(result->std_error[i])) snprintf(se, sizeof se, "-");           /* grid-searched: no standard error */
        else if (isinf(result->std_error[i])) snprintf(se, sizeof se, "open");   /* the data do not bound it */
        else if (exact) snprintf(se, sizeof se, "exact");                        /* no scatter at all */
        else snprintf(se, sizeof se, "%.2g", result->std_error[i]);
        printf("  %-15s %-9s %9.4g %9.4g %9s   [%7.3g, %7.3g] %11.2e %10.3g%s\n", s2r__sysid_label(sp, label, sizeof label),
               s2r__sysid_unit(sp->param), result->start[i], result->value[i], se, sp->lo, sp->hi, result->sensitivity[i],
               result->half_width[i], note);
    }
    for (i = 0; i < result->n_params; i++)   /* a scale of 0: the fit cannot move it, and says how to give it a value */
        if (result->zero_nominal[i]) {
            char label[40];
            s2r_param p = id->config.param[i].param;
            printf("  %s scales the model's %s, which is 0 on %s: a scale of 0 stays 0, so the fit cannot move it and a "
                   "real arm's goes into the other values - give the model a nominal %s and fit again\n",
                   s2r__sysid_label(&id->config.param[i], label, sizeof label), s2r_param_name(p),
                   id->config.param[i].joint ? "that joint" : "every arm joint",
                   p == S2R_PARAM_ARMATURE ? "<joint armature> (kg m^2: the rotor's inertia x gear ratio^2)"
                   : p == S2R_PARAM_DAMPING ? "<joint damping> (N m s/rad)" : "servo kv (biasprm's third value, N m s/rad)");
        }
    printf("  training loss %.3e -> %.3e rad^2 in %d sweeps (%s), %d loss evaluations\n", result->loss[0], result->train_loss,
           result->sweeps, result->converged ? "converged" : "sweep budget spent", result->evaluations);
    s2r__sysid_print_profile(id, result);
    printf("  Levenberg-Marquardt from there (%s): loss %.3e (%+.2f %%), largest move %.2g of a parameter's bounds\n",
           result->polished ? "taken" : "a check", result->polish_loss,
           descent > 0 ? 100 * (result->polish_loss / descent - 1) : 0.0, result->polish_distance);
    if (exact)
        printf("  an exact fit: the training loss %.3e rad^2 is at most %.0e (S2R_SYSID_EXACT_LOSS, 1 urad rms): the logs "
               "are the model's own (a simulator's, no noise); \"exact\": no scatter to give a standard error, "
               "sensitivities are relative to %.0e rad^2\n", result->train_loss, S2R_SYSID_EXACT_LOSS, S2R_SYSID_EXACT_LOSS);
    printf("  standard errors: a sandwich allowing for each trajectory's residuals correlated up to %.2g s (%.0f "
           "effectively independent residuals); \"open\": not identifiable, \"-\": searched on a grid\n",
           S2R_SYSID_SE_LAG_TIME, result->effective_samples);
    if (result->n_directions > 0) s2r__sysid_print_flat(id, result);
    if (!isnan(result->validation_object_motion) && held_out)
        printf("  object: held-out mean squared error %.3e -> %.3e m^2, camera floor %.3e: %.1f %% -> %.1f %% of "
               "its motion\n", result->validation_object_mse_start, result->validation_object_mse, result->validation_object_floor,
               100 * result->validation_object_relative_start, 100 * result->validation_object_relative);
    else if (!isnan(result->validation_object_motion))
        printf("  object: on the fitted data mean squared error %.3e m^2, camera floor %.3e: %.1f %% of its motion\n",
               result->validation_object_mse, result->validation_object_floor, 100 * result->validation_object_relative);
    printf("  %s error per joint (rms, %% of the joint's motion):", held_out ? "held-out" : "fitted data's");
    for (j = 0; j < id->sim.robot.info.n_joints && !isnan(result->joint_rms[j]); j++)
        printf(" %.2g mrad %.1f%%%s", 1000 * result->joint_rms[j], 100 * result->joint_relative[j], result->joint_misfit[j] ? " (misfit)" : "");
    if (held_out)
        printf("\n  validation MSE %.3e -> %.3e rad^2, %.1f %% -> %.1f %% of the motion", result->validation_mse_start,
               result->validation_mse, 100 * result->validation_relative_start, 100 * result->validation_relative);
    else   /* no held-out trajectories: nothing to compare the start values on */
        printf("\n  no held-out trajectories: on the fitted data MSE %.3e rad^2, %.1f %% of the motion (flattering)",
               result->validation_mse, 100 * result->validation_relative);
    printf(": %s (every parameter at its lower bound: %.1f %%, upper: %.1f %%)\n", s2r_sysid_verdict_name(result->verdict),
           100 * result->validation_relative_corner[0], 100 * result->validation_relative_corner[1]);
    for (j = 0; j < id->sim.robot.info.n_joints; j++)
        if (result->joint_misfit[j])
            printf("  joint %d is not followed: the shared parameters cannot hold it; fit its own kp, kv, damping, "
                   "armature or friction loss (example 12: --joint 'kp[%d]'; in code s2r_sysid_param.joint = %d)\n",
                   j + 1, j + 1, j + 1);
}

#endif /* SIM2REAL_IMPLEMENTATION */

/* LICENSE: the same as sim2real.h's (MIT), at the end of that file. */
