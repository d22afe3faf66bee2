/* bench_log_velocity.c - do measured velocities help identification from
   logs?  (ORACLE: scored against the stand-in units' truth.)

   Per UR5e stand-in unit, the logs example 12 records (three multisines
   of 3 s to fit, a chirp to hold out, 50 Hz) are written as CSV and read
   back, then identified as example 12 does (12 sweeps, the sensing delay
   held at the training centre) once per velocity weight (weight_qd, s^2;
   0 = positions alone).  Printed per weight: the mean over the units of
   each parameter's |estimate - truth| / |truth| (the latency's in ms), and
   the held-out error (rms error / rms motion, positions).  The fits never
   read the oracle, only the scoring does.
   Optional arguments name=value: units (2), first (unit seed, 1), dir
   (where the logs are written and removed again, /tmp), weights (a
   comma-separated list, 0,0.001,0.01).  The numbers behind
   S2R_LOG_WEIGHT_QD: units=1 weights=0,0.001,0.01,0.1 and units=2
   first=2 (about 15 CPU-minutes in all).
   Built and run by make bench; the measurement that chose
   S2R_LOG_WEIGHT_QD (sim2real.h, "Logs: in sim2real_logs.h"). */
#define SIM2REAL_IMPLEMENTATION
#include "../sim2real.h"
#include "../sim2real_logs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PERIOD   0.02
#define SAMPLES  150
#define MAX_WEIGHT 8
#define MAX_UNIT 32

static double weights[MAX_WEIGHT] = {0, 1e-3, 1e-2};
static int n_weights = 3;

typedef struct unit_score {
    double error[S2R_SYSID_MAX_PARAMS];   /* relative (latency: s) */
    double held_out;                      /* relative              */
    int    ok;
} unit_score;

/* Record unit u's logs, write them as CSV and read them back: train (3)
   and valid (1), as example 12 would from files. */
static int unit_logs(s2r_real_robot* real, const char* dir, uint64_t u, s2r_trajectory_set* train,
                     s2r_trajectory_set* valid) {
    s2r_trajectory_set set;
    s2r_excitation_config ex = s2r_excitation_config_default();
    char error[S2R_ERROR_LEN], names[4][512];
    const char* paths[4];
    int i, bad = 0;
    if (s2r_trajectory_set_init(&set, real->backend.info->n_joints, SAMPLES, 4, PERIOD) != S2R_OK ||
        s2r_trajectory_collect(&set, &real->backend, &ex, 3, 1) != S2R_OK) bad = 1;
    ex.kind = S2R_EXCITATION_CHIRP;
    if (!bad && s2r_trajectory_collect(&set, &real->backend, &ex, 1, 2) != S2R_OK) bad = 1;
    for (i = 0; i < 4 && !bad; i++) {
        snprintf(names[i], sizeof names[i], "%s/s2r_log_velocity_%llu_%d.csv", dir, (unsigned long long)u, i);
        paths[i] = names[i];
        if (s2r_trajectory_write_csv(&set, i, names[i], error) != S2R_OK) bad = 1;
    }
    if (!bad && (s2r_trajectory_set_load_csv(train, paths, 3, PERIOD, error) != S2R_OK ||
                 s2r_trajectory_set_load_csv(valid, paths + 3, 1, PERIOD, error) != S2R_OK)) bad = 1;
    if (bad) fprintf(stderr, "unit %llu: %s\n", (unsigned long long)u, set.error[0] ? set.error : error);
    s2r_trajectory_set_free(&set);
    return bad;
}

static void score(uint64_t u, const char* dir, unit_score out[MAX_WEIGHT]) {
    s2r_real_robot real;
    s2r_trajectory_set train, valid;
    s2r_randomization dr = s2r_randomization_default();
    double held = s2r_dist_centre(&dr.p[S2R_PARAM_OBS_LATENCY].dist);
    int w, i;
    memset(&train, 0, sizeof train);
    memset(&valid, 0, sizeof valid);
    if (s2r_real_robot_init(&real, S2R_ROBOT_UR5E, u) != S2R_OK) return;
    if (!unit_logs(&real, dir, u, &train, &valid))
        for (w = 0; w < n_weights; w++) {
            s2r_sysid_config cfg = s2r_sysid_config_default();
            s2r_sim_config model = s2r_sim_config_default(S2R_ROBOT_UR5E);
            s2r_sysid id;
            s2r_sysid_result r;
            cfg.known.p[S2R_PARAM_OBS_LATENCY] = dr.p[S2R_PARAM_OBS_LATENCY];
            cfg.max_sweeps = 12;
            cfg.weight_qd = weights[w];
            if (s2r_sysid_init(&id, &cfg, &model) != S2R_OK || s2r_sysid_run(&id, &train, &valid, &r) != S2R_OK) {
                fprintf(stderr, "unit %llu: %s\n", (unsigned long long)u, id.error);
                s2r_sysid_free(&id);
                continue;
            }
            for (i = 0; i < cfg.n_params; i++) {
                double truth = s2r_real_unit_truth(s2r_real_robot_oracle(&real), cfg.param[i].param, held);
                out[w].error[i] = truth != 0 ? fabs(r.value[i] - truth) / fabs(truth) : fabs(r.value[i] - truth);
            }
            out[w].held_out = r.validation_relative;
            out[w].ok = 1;
            s2r_sysid_free(&id);
        }
    s2r_trajectory_set_free(&train);
    s2r_trajectory_set_free(&valid);
    s2r_real_robot_free(&real);
}

int main(int argc, char** argv) {
    static unit_score scores[MAX_UNIT][MAX_WEIGHT];
    s2r_sysid_config cfg = s2r_sysid_config_default();
    const char* dir = "/tmp";
    int units = 2, first = 1, a, u, w, i;
    for (a = 1; a < argc; a++) {
        if (!strncmp(argv[a], "units=", 6)) units = atoi(argv[a] + 6);
        else if (!strncmp(argv[a], "first=", 6)) first = atoi(argv[a] + 6);
        else if (!strncmp(argv[a], "dir=", 4)) dir = argv[a] + 4;
        else if (!strncmp(argv[a], "weights=", 8)) {   /* a comma-separated list */
            char* at = argv[a] + 8;
            for (n_weights = 0; n_weights < MAX_WEIGHT && *at; n_weights++) {
                weights[n_weights] = strtod(at, &at);
                if (*at == ',') at++;
                else if (*at) break;
            }
            if (*at || n_weights == 0) { fprintf(stderr, "weights=W1,W2,... (up to %d numbers)\n", MAX_WEIGHT); return 2; }
        } else {
            fprintf(stderr, "usage: %s [units=N] [first=SEED] [dir=DIR] [weights=W1,W2,...]\n", argv[0]);
            return 2;
        }
    }
    if (units < 1 || units > MAX_UNIT || first < 0) { fprintf(stderr, "units 1..%d, first >= 0\n", MAX_UNIT); return 2; }
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic)
#endif
    for (u = 0; u < units; u++) score((uint64_t)(first + u), dir, scores[u]);
    printf("Velocities in the fit from logs: %d UR5e units from #%d, mean |estimate - truth| / |truth| (latency: ms)\n",
           units, first);
    printf("%-10s", "weight_qd");
    for (i = 0; i < cfg.n_params; i++) printf(" %14s", s2r_param_name(cfg.param[i].param));
    printf(" %9s\n", "held-out");
    for (w = 0; w < n_weights; w++) {
        double e[S2R_SYSID_MAX_PARAMS] = {0}, h = 0;
        int n = 0;
        for (u = 0; u < units; u++)
            if (scores[u][w].ok) {
                n++;
                h += scores[u][w].held_out;
                for (i = 0; i < cfg.n_params; i++) e[i] += scores[u][w].error[i];
            }
        printf("%-10g", weights[w]);
        for (i = 0; i < cfg.n_params; i++)
            printf(cfg.param[i].param == S2R_PARAM_ACTION_LATENCY ? " %12.2fms" : " %13.1f%%",
                   (cfg.param[i].param == S2R_PARAM_ACTION_LATENCY ? 1000 : 100) * e[i] / (n ? n : 1));
        printf(" %8.1f%% (%d units)\n", 100 * h / (n ? n : 1), n);
    }
    for (u = 0; u < units; u++) {
        char path[600];
        for (i = 0; i < 4; i++) {
            snprintf(path, sizeof path, "%s/s2r_log_velocity_%d_%d.csv", dir, first + u, i);
            remove(path);
        }
    }
    return 0;
}
