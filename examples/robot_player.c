/* robot_player.c - play excitation files on an arm and log what it did.

   The robot side's part of identification from logs (example 12): the
   excitation files 12 --write-excitation writes (sim2real_logs.h,
   "Excitation files") played on the arm as their header says, and each
   run written as the trajectory file 12 reads back.  For each file:

     1. reset to home, then move slowly to the file's first row (a smooth
        ramp, every joint below --move-speed of its speed limit);
     2. settle: hold the first row's targets until the arm is still -
        every joint's readings over the last 0.2 s spread less than
        --settle-speed times 0.2 s - (at most 10 s: an arm that will not
        settle is an error, not a log; s2r_backend_settle);
     3. play each row's targets at the file's own rate (1 / its step of t:
        command, one period, reading), and write LOG.csv - t, command_J,
        q_J, qd_J, its "# rate" line - from the settled reading on.

   The arm is whatever serves the backend interface: your arm behind the
   socket (--address: robot_server.py with your driver, or your own robot
   side), a stand-in unit (--unit N), or your arm's simulator (--mjcf FILE
   alone).  robot_server.py --play does the same in Python with the driver
   calls marked, for an arm driven from Python.

   Usage: robot_player EXC.csv LOG.csv [EXC2.csv LOG2.csv ...]
                       [--address ADDRESS] [--robot ur5e|panda | --mjcf FILE]
                       [--unit N] [--move-speed F] [--settle-speed RAD_S]
                       [--timeout-ms MS]
   --timeout-ms bounds each reply over the socket (default 5000: a reset
   moves a real arm home).  --address: the robot served there (its arm: --robot, or --mjcf FILE, the
   same model the robot side announces); without it --unit N (default 1) of
   the stand-in fleet, or with --mjcf the nominal simulator of FILE.
   --move-speed F: fraction of each joint's speed limit for the move to the
   start (default 0.1); --settle-speed (rad/s, default 0.01, a tenth of
   S2R_LOG_REST_SPEED).  Then:

       build/12_sysid_from_logs --mjcf FILE --log LOG1.csv ... --log LOG4.csv

   A malformed option, or a LOG.csv that is one of the excitations given
   (the same path, or the same file by another), is refused (status 2);
   an arm that fails, will not
   settle or a file that does not match it stops with status 1 and the
   reason (the logs written before stay).

   Uses: s2r_excitation_load_csv, s2r_socket_robot_connect, s2r_backend_*,
         s2r_trajectory_set_init, s2r_trajectory_write_csv.
   Next: 12_sysid_from_logs.c, which fits the logs. */
#define SIM2REAL_IMPLEMENTATION
#include "../sim2real.h"
#include "../sim2real_socket.h"
#include "../sim2real_logs.h"
#include "s2r_cli.h"
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <stdarg.h>

#define MAX_FILES 16

/* The message into error[S2R_ERROR_LEN]; returns code. */
static s2r_result fail(char* error, s2r_result code, const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(error, S2R_ERROR_LEN, fmt, ap);
    va_end(ap);
    return code;
}

/* The excitation at the file's own rate: read once at 50 Hz for its rate,
   again at 1 / that period when it is another. */
static s2r_result load_excitation(s2r_trajectory_set* exc, const char* path, char* error) {
    s2r_result res = s2r_excitation_load_csv(exc, path, 0.02, error);
    double period;
    if (res != S2R_OK) return res;
    period = 1 / exc->source[0].rate;
    if (fabs(period - 0.02) <= 1e-12) return S2R_OK;
    s2r_trajectory_set_free(exc);
    return s2r_excitation_load_csv(exc, path, period, error);
}

/* Steps 1 and 2: home, a slow smooth move to q0, held until still; the
   settled reading into *at_rest. */
static s2r_result move_and_settle(const s2r_backend* arm, const double* q0, double period, double move_speed,
                                  double settle_speed, s2r_sensors* at_rest, char* error) {
    const s2r_arm_info* info = arm->info;
    s2r_sensors s;
    double from[S2R_MAX_JOINTS], cmd[S2R_MAX_JOINTS], duration = period;
    int n = info->n_joints, j, k, steps;
    s2r_result res;
    if ((res = s2r_backend_reset(arm, NULL, NULL, NULL)) != S2R_OK || (res = s2r_backend_read_sensors(arm, &s)) != S2R_OK)
        return fail(error, res, "reset to home: %s", arm->error);
    memcpy(from, s.q, sizeof from);
    for (j = 0; j < n; j++) duration = fmax(duration, 1.875 * fabs(q0[j] - from[j]) / (move_speed * info->velocity_limit[j]));
    steps = (int)ceil(duration / period);   /* smoothstep: peak speed 1.875 x the mean */
    for (k = 1; k <= steps && res == S2R_OK; k++) {
        double u = (double)k / steps, w = u * u * u * (10 - 15 * u + 6 * u * u);
        for (j = 0; j < n; j++) cmd[j] = from[j] + (q0[j] - from[j]) * w;
        if ((res = s2r_backend_command(arm, cmd)) == S2R_OK) res = s2r_backend_advance(arm, period);
        if (res == S2R_OK && s2r_interrupt_requested()) res = S2R_ERR_INTERRUPTED;
    }
    if (res != S2R_OK) return fail(error, res, "moving to the first row: %s", res == S2R_ERR_INTERRUPTED ? "stopped" : arm->error);
    return s2r_backend_settle(arm, q0, period, settle_speed, S2R_SETTLE_MAX, at_rest, NULL, error);   /* hold q0 until still */
}

/* One file: move, settle, play, log. */
static int play(const s2r_backend* arm, const char* exc_path, const char* log_path, double move_speed, double settle_speed) {
    s2r_trajectory_set exc, log;
    s2r_sensors s;
    char error[S2R_ERROR_LEN];
    double period;
    int n = arm->info->n_joints, k, bad = 0;
    s2r_result res;
    if (load_excitation(&exc, exc_path, error) != S2R_OK) { fprintf(stderr, "robot_player: %s\n", error); return 1; }
    period = exc.sample_period;
    if (exc.n_joints != n) {
        fprintf(stderr, "robot_player: %s has %d joints, %s %d\n", exc_path, exc.n_joints, arm->info->name, n);
        s2r_trajectory_set_free(&exc);
        return 1;
    }
    if (s2r_trajectory_set_init(&log, n, exc.n_samples, 1, period) != S2R_OK) {
        fprintf(stderr, "robot_player: %s\n", log.error);
        s2r_trajectory_set_free(&exc);
        return 1;
    }
    res = move_and_settle(arm, exc.q0, period, move_speed, settle_speed, &s, error);
    if (res == S2R_OK) memcpy(log.q0, s.q, sizeof(double) * (size_t)n);   /* the first row: a reading, at rest */
    memcpy(log.command, exc.command, sizeof(double) * (size_t)n * (size_t)exc.n_samples);
    for (k = 0; k < exc.n_samples && res == S2R_OK; k++) {   /* row k: its targets sent, a period, the reading */
        const double* cmd = exc.command + (size_t)k * n;
        if ((res = s2r_backend_command(arm, cmd)) != S2R_OK || (res = s2r_backend_advance(arm, period)) != S2R_OK ||
            (res = s2r_backend_read_sensors(arm, &s)) != S2R_OK) {
            fail(error, res, "row %d of %s: %s", k + 1, exc_path, arm->error);
            break;
        }
        memcpy(log.q + (size_t)k * n, s.q, sizeof(double) * (size_t)n);
        memcpy(log.qd + (size_t)k * n, s.qd, sizeof(double) * (size_t)n);
        if (s2r_interrupt_requested()) res = fail(error, S2R_ERR_INTERRUPTED, "stopped while playing %s", exc_path);
    }
    log.count = 1;
    if (res == S2R_OK && s2r_trajectory_write_csv(&log, 0, log_path, error) != S2R_OK) res = S2R_ERR_IO;
    if (res != S2R_OK) {
        fprintf(stderr, "robot_player: %s (%s not written)\n", error, log_path);
        bad = res == S2R_ERR_INTERRUPTED ? 130 : 1;
    } else
        printf("played %s on %s: %d rows at %g Hz after settling at its first row; wrote %s\n", exc_path, arm->name,
               exc.n_samples, 1 / period, log_path);
    s2r_backend_halt(arm);
    s2r_trajectory_set_free(&log);
    s2r_trajectory_set_free(&exc);
    return bad;
}

/* 1 when paths a and b name one file: the same text, or the same device
   and inode of two files that exist. */
static int same_file(const char* a, const char* b) {
    struct stat sa, sb;
    if (strcmp(a, b) == 0) return 1;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

static const char usage[] =
    "usage: robot_player EXC.csv LOG.csv [EXC2.csv LOG2.csv ...] [--address ADDRESS] [--robot ur5e|panda | --mjcf FILE]\n"
    "                    [--unit N] [--move-speed F] [--settle-speed RAD_S] [--timeout-ms MS]\n"
    "(the comment at the top of examples/robot_player.c says more)\n";

int main(int argc, char** argv) {
    s2r_socket_config c = s2r_socket_config_default();
    const char* files[2 * MAX_FILES];
    const char* mjcf = NULL;
    double move_speed = 0.1, settle_speed = 0.01;
    unsigned long long unit = 1, n;
    int i, n_files = 0, status = 0;
    s2r_socket_robot remote;
    s2r_real_robot real;
    s2r_sim sim;
    const s2r_backend* arm;
    c.timeout_ms = 5000;   /* a real arm's reset moves it home: longer than a servo step */
    for (i = 1; i < argc; i++) {
        const char* value = i + 1 < argc ? argv[i + 1] : "";
        int ok = i + 1 < argc, known = 1;
        char* end;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) return fputs(usage, stdout), 0;
        if (strcmp(argv[i], "--address") == 0) ok = ok && *value, c.address = value;
        else if (strcmp(argv[i], "--robot") == 0) ok = ok && (c.robot = s2r_robot_kind_find(value)) < S2R_ROBOT_CUSTOM;
        else if (strcmp(argv[i], "--mjcf") == 0) ok = ok && *value, mjcf = value;
        else if (strcmp(argv[i], "--unit") == 0) ok = ok && s2r_parse_count(value, 1, ULLONG_MAX, &unit);
        else if (strcmp(argv[i], "--timeout-ms") == 0) ok = ok && s2r_parse_count(value, 1, INT_MAX, &n), c.timeout_ms = (int)n;
        else if (strcmp(argv[i], "--move-speed") == 0)
            ok = ok && (move_speed = strtod(value, &end), *end == '\0' && end != value && move_speed > 0 && move_speed <= 1);
        else if (strcmp(argv[i], "--settle-speed") == 0)
            ok = ok && (settle_speed = strtod(value, &end), *end == '\0' && end != value && settle_speed > 0 && settle_speed < 1e3);
        else if (argv[i][0] != '-' && n_files < 2 * MAX_FILES) { files[n_files++] = argv[i]; continue; }
        else known = 0;
        if (!known || !ok) {
            fprintf(stderr, "robot_player: %s %s%s\n%s", known ? "bad value for" : "unknown option or too many files",
                    argv[i], known && i + 1 >= argc ? " (missing)" : "", usage);
            return 2;
        }
        i++;
    }
    if (n_files == 0 || n_files % 2) {
        fprintf(stderr, "robot_player: give pairs EXC.csv LOG.csv (an excitation to play, the log to write), up to %d\n",
                MAX_FILES);
        return 2;
    }
    for (i = 0; i < n_files; i += 2) {   /* a log written over an excitation (its own, or a later pair's) loses it */
        int k;
        for (k = 0; k < n_files; k += 2)
            if (same_file(files[i + 1], files[k])) {
                fprintf(stderr, "robot_player: the log %s is the excitation %s%s: writing it would overwrite what is "
                        "played - give the log another path\n", files[i + 1], files[k],
                        strcmp(files[i + 1], files[k]) ? " (the same file)" : "");
                return 2;
            }
    }
    s2r_interrupt_catch();   /* Ctrl-C, SIGTERM: stop, halt the arm, status 130 */
    if (c.address) {   /* your arm behind the socket */
        c.robot = mjcf ? S2R_ROBOT_CUSTOM : c.robot;
        c.mjcf_path = mjcf;
        if (s2r_socket_robot_connect(&remote, &c) != S2R_OK) { fprintf(stderr, "robot_player: %s\n", remote.error); return 1; }
        arm = s2r_socket_robot_backend(&remote);
    } else if (mjcf) {   /* your arm's nominal simulator */
        s2r_sim_config sc = s2r_sim_config_default(S2R_ROBOT_CUSTOM);
        sc.mjcf_path = mjcf;
        if (s2r_sim_init(&sim, &sc) != S2R_OK) { fprintf(stderr, "robot_player: %s\n", sim.error); return 1; }
        arm = s2r_sim_backend(&sim);
    } else {
        if (s2r_real_robot_init(&real, c.robot, unit) != S2R_OK) { fprintf(stderr, "robot_player: %s\n", real.error); return 1; }
        arm = &real.backend;
    }
    for (i = 0; i + 1 < n_files && status == 0; i += 2) status = play(arm, files[i], files[i + 1], move_speed, settle_speed);
    if (c.address) s2r_socket_robot_close(&remote);
    else if (mjcf) s2r_sim_free(&sim);
    else s2r_real_robot_free(&real);
    return status;
}
