/* 00_hello_robot.c - meet the two arms.

   Loads the UR5e and the Franka Panda from the MJCF embedded in sim2real.h,
   prints what the library knows about each (joints, limits, torques, link
   masses, the workspace where reach targets are drawn), then lets each arm
   hold its home pose for two seconds under gravity with nothing but its
   joint position servos, and plots how far every joint sags.  --mjcf FILE
   does the same for your own arm alone, after printing what the loader
   inferred where the model leaves a convention out (the Robots section of
   the header: the flange, the target body, actuators left out of the arm).

   Uses: s2r_sim_init, s2r_arm_info_print, s2r_backend_advance,
         s2r_backend_read_sensors, s2r_figure_*.
   Writes: DIR/00_hold_home.csv, DIR/00_hello_robot.png.
   Next: 01_the_gap.c - one controller, the simulator and real units. */
#define SIM2REAL_IMPLEMENTATION
#include "../sim2real.h"
#include "s2r_cli.h"
#include "s2r_figures.h"
#include <stdio.h>

#define HOLD_SECONDS 2.0
#define SAMPLE_PERIOD 0.01                       /* s between samples */
#define SAMPLES 201                              /* HOLD_SECONDS / SAMPLE_PERIOD + 1 */

/* Hold home; sag[j][t] = (q_j - q_home_j) in mrad at time t * SAMPLE_PERIOD. */
static s2r_result hold_home(s2r_robot_kind kind, const char* mjcf, double sag[S2R_MAX_JOINTS][SAMPLES], int* n_joints) {
    s2r_sim sim;
    s2r_sim_config config = s2r_sim_config_default(kind);
    s2r_sensors s;
    int t, j;
    s2r_result res;
    config.mjcf_path = mjcf;
    if ((res = s2r_sim_init(&sim, &config)) != S2R_OK) { fprintf(stderr, "%s\n", sim.error); return res; }
    s2r_arm_info_print(&sim.robot.info);
    *n_joints = sim.robot.info.n_joints;
    for (t = 0; t < SAMPLES; t++) {
        if (t > 0) s2r_backend_advance(&sim.backend, SAMPLE_PERIOD);
        s2r_backend_read_sensors(&sim.backend, &s);
        for (j = 0; j < *n_joints; j++) sag[j][t] = 1000.0 * (s.q[j] - sim.robot.info.q_home[j]);
    }
    printf("  after %.1f s at home the joints sit", HOLD_SECONDS);
    for (j = 0; j < *n_joints; j++) printf(" %+.2f", sag[j][SAMPLES - 1]);
    printf(" mrad from home (servo droop under gravity)\n\n");
    s2r_sim_free(&sim);
    return S2R_OK;
}

static void write_csv(FILE* f, const char* robot, double sag[S2R_MAX_JOINTS][SAMPLES], int n) {
    int t, j;
    for (t = 0; t < SAMPLES; t++) {
        fprintf(f, "%s,%.3f", robot, t * SAMPLE_PERIOD);
        for (j = 0; j < S2R_MAX_JOINTS; j++) {
            if (j < n) fprintf(f, ",%.6f", sag[j][t]);
            else fprintf(f, ",");
        }
        fprintf(f, "\n");
    }
}

static void plot_sag(s2r_figure* fig, int panel, const char* robot, double sag[S2R_MAX_JOINTS][SAMPLES], int n) {
    static double time[SAMPLES];
    char title[96], label[24];
    int t, j;
    for (t = 0; t < SAMPLES; t++) time[t] = t * SAMPLE_PERIOD;
    snprintf(title, sizeof title, "%s holding home", robot);
    s2r_panel_labels(fig, panel, title, "time (s)", "q - q_home (mrad)");
    for (j = 0; j < n; j++) {
        s2r_plot_style style = s2r_plot_style_default();
        snprintf(label, sizeof label, "joint %d", j + 1);
        style.label = label;
        s2r_plot_line(fig, panel, time, sag[j], SAMPLES, &style);
    }
}

int main(int argc, char** argv) {
    static double sag[2][S2R_MAX_JOINTS][SAMPLES];
    s2r_robot_kind arms[2] = {S2R_ROBOT_UR5E, S2R_ROBOT_PANDA};
    const char* names[2] = {"ur5e", "panda"};
    s2r_options opt;
    int status, count = 2;
    s2r_figure fig;
    char path[512];
    int n[2], k;
    s2r_file csv;   /* 00_hold_home.csv, written whole or not at all */

    if (s2r_example_start(&opt, argc, argv, "load both arms (or --mjcf's), print their facts, hold home",
                          S2R_OPT_OUT | S2R_OPT_MJCF, &status) != S2R_OK)
        return status;
    s2r_interrupt_catch();   /* Ctrl-C or SIGTERM: stop between stages with status 130 */
    if (opt.mjcf[0]) {   /* your arm alone */
        arms[0] = S2R_ROBOT_CUSTOM;
        names[0] = "your arm";
        count = 1;
    }

    for (k = 0; k < count; k++)
        if (hold_home(arms[k], opt.mjcf[0] ? opt.mjcf : NULL, sag[k], &n[k]) != S2R_OK) return 1;
    if (s2r_example_stopped()) return 130;

    if (!s2r_output_create(&csv, s2r_path(path, sizeof path, opt.out, "00_hold_home.csv"))) return 1;
    fprintf(csv.f, "robot,time_s,q1_mrad,q2_mrad,q3_mrad,q4_mrad,q5_mrad,q6_mrad,q7_mrad,q8_mrad\n");
    for (k = 0; k < count; k++) write_csv(csv.f, opt.mjcf[0] ? "custom" : names[k], sag[k], n[k]);
    if (s2r_output_commit(&csv) != S2R_OK) return 1;

    if (s2r_figure_init(&fig, count * 600, 450, 1, count) != S2R_OK) return 1;
    s2r_figure_title(&fig, count > 1 ? "Position servos holding the home pose under gravity" : "Holding home under gravity");
    for (k = 0; k < count; k++) plot_sag(&fig, k, names[k], sag[k], n[k]);
    if (s2r_figure_write_png(&fig, s2r_path(path, sizeof path, opt.out, "00_hello_robot.png")) != S2R_OK) {
        fprintf(stderr, "%s\n", fig.error);
        return 1;
    }
    s2r_figure_free(&fig);
    printf("wrote %s/00_hold_home.csv and %s\n", opt.out, path);
    return 0;
}
