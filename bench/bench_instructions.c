/* bench_instructions.c - the per-step overhead ratios of bench_main, counted
   in instructions instead of seconds.

   On a shared virtual machine the seconds of bench_main move by tens of
   percent between runs.  Instruction counts from valgrind's callgrind do not:
   the same binary and inputs give the same count whatever else the machine
   is doing.  So this program runs itself under callgrind once per
   measurement, reads the total count valgrind prints, subtracts a run that
   sets everything up but steps nothing, and divides by the steps:

     randomized   instructions per raw mj_step / per randomized physics step
     real robot   instructions per raw mj_step / per real-robot physics step

   (a ratio of speeds, as in bench_main: >= 0.9 is the goal).  Each is also
   split: mj_step alone on the same backend's model (its draw applied, e.g.
   dry friction, which adds constraint work) against the backend's step, so
   the physics the randomization adds is told apart from the library's own
   per-step work (delay lines, noise, effects).  It ignores
   cache and memory effects, which seconds include.  Needs valgrind (Debian:
   valgrind); without it, it says so and exits 0. */
#define _DEFAULT_SOURCE   /* popen */
#define SIM2REAL_IMPLEMENTATION
#include "../sim2real.h"
#include <stdlib.h>
#include <string.h>

#define PERIODS 200       /* control periods of 20 physics steps per measurement */

/* mj_step alone on the model a backend simulates (its draw applied), the
   same commands written straight into ctrl: the physics without the
   library around it. */
static void physics_only(s2r_robot* r, int periods) {
    int i, j, k;
    for (i = 0; i < periods; i++) {
        for (j = 0; j < r->info.n_joints; j++)
            r->data->ctrl[r->actuator[j]] = r->info.q_home[j] + 0.05 * sin(0.01 * i + j);
        for (k = 0; k < 20; k++) mj_step(r->model, r->data);
    }
}

/* The measured work: `periods` control periods on backend kind `what`
   ("raw": the nominal model; "dr", "real": through the backend;
   "dr_physics", "real_physics": mj_step alone on that backend's model);
   periods = 0 only sets up. */
static int inner(const char* what, s2r_robot_kind kind, int periods) {
    s2r_sim sim;
    s2r_real_robot real;
    s2r_sim_config sc = s2r_sim_config_default(kind);
    const s2r_backend* b;
    s2r_rng rng = s2r_rng_make(1, 0);
    s2r_sensors s;
    double q[S2R_MAX_JOINTS];
    int i, j;
    if (!strcmp(what, "raw")) {
        s2r_robot r;
        if (s2r_robot_load(&r, kind) != S2R_OK) return 1;
        for (i = 0; i < periods * 20; i++) mj_step(r.model, r.data);
        s2r_robot_free(&r);
        return 0;
    }
    if (!strncmp(what, "dr", 2)) {
        sc.randomization = s2r_randomization_default();
        if (s2r_sim_init(&sim, &sc) != S2R_OK) return 1;
        b = s2r_sim_backend(&sim);
    } else {
        if (s2r_real_robot_init(&real, kind, 1) != S2R_OK) return 1;
        b = s2r_real_robot_backend(&real);
    }
    s2r_backend_reset(b, NULL, NULL, &rng);
    memcpy(q, b->info->q_home, sizeof q);
    if (strstr(what, "_physics")) { physics_only(!strncmp(what, "dr", 2) ? &sim.robot : &real.hidden_sim.robot, periods); periods = 0; }
    for (i = 0; i < periods; i++) {
        for (j = 0; j < b->info->n_joints; j++) q[j] = b->info->q_home[j] + 0.05 * sin(0.01 * i + j);
        s2r_backend_command(b, q);
        s2r_backend_advance(b, 20 * b->info->physics_dt);
        s2r_backend_read_sensors(b, &s);
    }
    if (!strncmp(what, "dr", 2)) s2r_sim_free(&sim); else s2r_real_robot_free(&real);
    return 0;
}

/* Instructions callgrind counts for `self --inner what kind periods`;
   -1 if valgrind cannot be run. */
static double count(const char* self, const char* what, const char* kind, int periods) {
    char cmd[1024], line[512];
    double n = -1;
    FILE* p;
    snprintf(cmd, sizeof cmd, "valgrind --tool=callgrind --callgrind-out-file=/dev/null %s --inner %s %s %d 2>&1",
             self, what, kind, periods);
    if (!(p = popen(cmd, "r"))) return -1;
    while (fgets(line, sizeof line, p)) {
        const char* c = strstr(line, "Collected :");
        if (c) n = atof(c + 11);
    }
    return pclose(p) == 0 ? n : -1;
}

/* Instructions per physics step of `what`, setup subtracted. */
static double per_step(const char* self, const char* what, const char* kind) {
    double with = count(self, what, kind, PERIODS), without = count(self, what, kind, 0);
    return with < 0 || without < 0 ? -1 : (with - without) / (PERIODS * 20.0);
}

int main(int argc, char** argv) {
    static const char* const kinds[2] = {"ur5e", "panda"};
    int k;
    if (argc == 5 && !strcmp(argv[1], "--inner"))
        return inner(argv[2], s2r_robot_kind_find(argv[3]), atoi(argv[4]));
    if (system("valgrind --version > /dev/null 2>&1") != 0) {
        printf("bench_instructions: valgrind not found (Debian: apt-get install valgrind); skipped\n");
        return 0;
    }
    printf("instruction counts per physics step (callgrind; repeatable, no cache effects):\n");
    for (k = 0; k < 2; k++) {
        double raw = per_step(argv[0], "raw", kinds[k]), dr = per_step(argv[0], "dr", kinds[k]),
               real = per_step(argv[0], "real", kinds[k]), drp = per_step(argv[0], "dr_physics", kinds[k]),
               realp = per_step(argv[0], "real_physics", kinds[k]);
        if (raw <= 0 || dr <= 0 || real <= 0 || drp <= 0 || realp <= 0) {
            printf("  %s: valgrind run failed\n", kinds[k]);
            return 1;
        }
        printf("%s: raw mj_step on the nominal model %.0f instructions\n", kinds[k], raw);
        printf("  %-44s %8.3f  (goal >= 0.9; %.0f instructions)\n", "randomized sim: raw / per step", raw / dr, dr);
        printf("  %-44s %8.3f  (mj_step alone on that model: %.0f instructions)\n", "  its own model's mj_step / per step",
               drp / dr, drp);
        printf("  %-44s %8.3f  (goal >= 0.9; %.0f instructions)\n", "real robot: raw / per step", raw / real, real);
        printf("  %-44s %8.3f  (mj_step alone on that model: %.0f instructions)\n", "  its own model's mj_step / per step",
               realp / real, realp);
    }
    return 0;
}
