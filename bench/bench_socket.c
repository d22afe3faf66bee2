/* bench_socket.c - what a control step costs when the robot is in another
   process: the scripted controller on stand-in unit 1 (reach, UR5e),
   evaluated in this process and through the socket backend (a forked
   robot side serving the same unit, over a Unix socket and over TCP on
   localhost).  Each round evaluates EPISODES episodes each way,
   interleaved; the numbers are medians over ROUNDS rounds of wall time:
   microseconds per control step each way, the added microseconds per step
   and the ratio socket / in process; the backend calls (each one round
   trip over the socket) per control step, counted; and one round trip,
   READINGS sensor readings over the socket less the same in process.  Seconds
   on a shared machine move; the ratio within one run is the number.
   Built and run by `make bench`. */
#define SIM2REAL_IMPLEMENTATION
#include "../sim2real.h"
#include "../sim2real_socket.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__unix__) || defined(__APPLE__)
#include <sys/wait.h>
#include <unistd.h>

#define ROUNDS 5
#define EPISODES 20
#define UNIT 1
#define READINGS 2000

static const char* const ADDRESSES[2] = {"build/bench_socket.sock", "tcp:127.0.0.1:47391"};

static int by_value(const void* a, const void* b) {
    double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

/* Backend calls, counted on the in-process unit. */
static s2r_backend counted_inner;
static long counted_calls;
static s2r_result count_reset(void* self, const double* q0, const double* target, s2r_rng* rng) {
    counted_calls++;
    return counted_inner.reset(self, q0, target, rng);
}
static s2r_result count_command(void* self, const double* q) { counted_calls++; return counted_inner.command(self, q); }
static s2r_result count_advance(void* self, double seconds) { counted_calls++; return counted_inner.advance(self, seconds); }
static s2r_result count_sensors(void* self, s2r_sensors* out) { counted_calls++; return counted_inner.read_sensors(self, out); }
static s2r_result count_truth(void* self, s2r_ground_truth* out) { counted_calls++; return counted_inner.ground_truth(self, out); }

/* Wall seconds per sensor reading, the cheapest call: over the socket,
   nearly all of it is the round trip. */
static double seconds_per_reading(const s2r_backend* backend) {
    s2r_sensors r;
    double t0;
    int k;
    s2r_backend_reset(backend, NULL, NULL, NULL);
    t0 = s2r_seconds();
    for (k = 0; k < READINGS; k++) s2r_backend_read_sensors(backend, &r);
    return (s2r_seconds() - t0) / READINGS;
}

/* Wall seconds per control step of the scripted controller on `backend`. */
static double seconds_per_step(const s2r_backend* backend, long long* steps) {
    s2r_task_config tc = s2r_task_config_default(S2R_TASK_REACH);
    s2r_expert_config ec = s2r_expert_config_default();
    s2r_task task;
    s2r_expert expert;
    s2r_controller scripted;
    s2r_eval_result r;
    double t0, t;
    if (s2r_task_init(&task, &tc, backend) != S2R_OK || s2r_expert_init(&expert, &ec, &tc, backend->info) != S2R_OK) {
        fprintf(stderr, "bench_socket: %s\n", task.error);
        exit(1);
    }
    scripted = s2r_expert_controller(&expert);
    t0 = s2r_seconds();
    if (s2r_evaluate(&scripted, &task, EPISODES, 3, &r, NULL) != S2R_OK) {
        fprintf(stderr, "bench_socket: %s (%s)\n", task.error, backend->error ? backend->error : "");
        exit(1);
    }
    t = s2r_seconds() - t0;
    if (steps) *steps = r.steps;
    s2r_expert_free(&expert);
    s2r_task_free(&task);
    return t / (double)r.steps;
}

int main(void) {
    s2r_real_robot real;
    int a;
    printf("reach, UR5e, stand-in unit %d, scripted controller: %d rounds of %d episodes each way\n", UNIT, ROUNDS, EPISODES);
    {
        s2r_backend counted;
        long long steps;
        if (s2r_real_robot_init(&real, S2R_ROBOT_UR5E, UNIT) != S2R_OK) { fprintf(stderr, "%s\n", real.error); return 1; }
        counted = counted_inner = real.backend;
        counted.reset = count_reset, counted.command = count_command, counted.advance = count_advance;
        counted.read_sensors = count_sensors, counted.ground_truth = count_truth;
        seconds_per_step(&counted, &steps);
        printf("backend calls (round trips over a socket) per control step: %.2f\n", (double)counted_calls / (double)steps);
        s2r_real_robot_free(&real);
    }
    for (a = 0; a < 2; a++) {
        s2r_socket_config c = s2r_socket_config_default();
        s2r_socket_robot s;
        double here[ROUNDS], over[ROUNDS], ratio[ROUNDS], added[ROUNDS], trip[ROUNDS];
        int k, status;
        pid_t child;
        fflush(stdout);
        if ((child = fork()) == 0) {   /* the robot side */
            s2r_socket_serve_config sc = s2r_socket_serve_config_default();
            sc.address = ADDRESSES[a];
            sc.clients = 1;
            if (s2r_real_robot_init(&real, S2R_ROBOT_UR5E, UNIT) != S2R_OK) _exit(2);
            _exit(s2r_socket_serve(&real.backend, &sc, NULL) == S2R_OK ? 0 : 2);
        }
        c.address = ADDRESSES[a];
        if (s2r_socket_robot_connect(&s, &c) != S2R_OK) { fprintf(stderr, "bench_socket: %s\n", s.error); return 1; }
        if (s2r_real_robot_init(&real, S2R_ROBOT_UR5E, UNIT) != S2R_OK) { fprintf(stderr, "%s\n", real.error); return 1; }
        for (k = 0; k < ROUNDS; k++) {
            here[k] = seconds_per_step(&real.backend, NULL);
            over[k] = seconds_per_step(&s.backend, NULL);
            ratio[k] = over[k] / here[k];
            added[k] = over[k] - here[k];
            trip[k] = seconds_per_reading(&s.backend) - seconds_per_reading(&real.backend);
        }
        s2r_socket_robot_close(&s);
        s2r_real_robot_free(&real);
        waitpid(child, &status, 0);
        qsort(here, ROUNDS, sizeof *here, by_value);
        qsort(over, ROUNDS, sizeof *over, by_value);
        qsort(ratio, ROUNDS, sizeof *ratio, by_value);
        qsort(added, ROUNDS, sizeof *added, by_value);
        qsort(trip, ROUNDS, sizeof *trip, by_value);
        printf("%-5s in process %6.1f us/step, over the socket %6.1f us/step: %+6.1f us per step, ratio %.2f; "
               "a round trip %5.1f us\n", a ? "tcp" : "unix", 1e6 * here[ROUNDS / 2], 1e6 * over[ROUNDS / 2],
               1e6 * added[ROUNDS / 2], ratio[ROUNDS / 2], 1e6 * trip[ROUNDS / 2]);
    }
    return 0;
}
#else
int main(void) {
    printf("bench_socket: no POSIX sockets in this build\n");
    return 0;
}
#endif
