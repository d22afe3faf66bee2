/* bench_common.h - what the benchmarks share (included after sim2real.h):
   counting a program's instructions with callgrind, and the physics the
   built-in scenes had before the library ran the servos itself.

   Instruction counts from valgrind's callgrind are repeatable: the same
   binary and inputs give the same count whatever else the machine does,
   where seconds on a shared machine move by tens of percent.  Needs
   valgrind (Debian: valgrind); bench_have_valgrind() says whether it is
   there.  A program that counts defines _DEFAULT_SOURCE (for popen) before
   its first #include. */
#ifndef S2R_BENCH_COMMON_H
#define S2R_BENCH_COMMON_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline int bench_have_valgrind(void) {
    return system("valgrind --version > /dev/null 2>&1") == 0;
}

/* Instructions callgrind counts for `self ARGS` - only inside `function`
   and what it calls when it is not NULL (callgrind's --toggle-collect; a
   library function such as mj_step, which the compiler cannot inline) -
   and the number the program printed last on a line "count: N" in
   *printed (may be NULL); -1 if valgrind failed. */
static inline double bench_callgrind(const char* self, const char* args, const char* function, double* printed) {
    char cmd[1024], line[512];
    double n = -1;
    FILE* p;
    snprintf(cmd, sizeof cmd, "OMP_WAIT_POLICY=passive OMP_NUM_THREADS=1 valgrind --tool=callgrind "
             "--callgrind-out-file=/dev/null %s%s %s %s 2>&1", function ? "--collect-atstart=no --toggle-collect=" : "",
             function ? function : "", self, args);
    if (!(p = popen(cmd, "r"))) return -1;
    while (fgets(line, sizeof line, p)) {
        const char* c = strstr(line, "Collected :");
        if (c) n = atof(c + 11);
        if (printed && !strncmp(line, "count: ", 7)) *printed = atof(line + 7);
    }
    return pclose(p) == 0 ? n : -1;
}

/* The physics of the built-in scenes before the library ran the servos:
   MuJoCo's own position actuators (the servo's damping explicit in the
   actuator) and its implicit integrator, every geom pair tested by the
   broad phase, at `timestep` (reach had 2 ms, push 4 ms) - on `sim` and
   its nominal model, so every reset keeps it. */
static inline s2r_result bench_physics_before(s2r_sim* sim, double timestep) {
    mjModel* m[2];
    int k;
    m[0] = sim->robot.model;
    m[1] = sim->nominal;
    for (k = 0; k < 2; k++) {
        m[k]->opt.disableflags &= ~mjDSBL_ACTUATION;
        m[k]->opt.integrator = mjINT_IMPLICIT;
        m[k]->opt.collision = mjCOL_ALL;
    }
    sim->robot.servo = 0;
    return s2r_sim_set_timestep(sim, timestep);
}

#endif
