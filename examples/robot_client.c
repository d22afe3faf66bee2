/* robot_client.c - the scripted controller evaluated on a robot in another
   process.

   Connects to a robot side (robot_server, robot_server.py, or your arm's
   own) through the socket backend and evaluates the scripted controller
   on it; with --in-process UNIT it evaluates on stand-in unit UNIT in this
   process instead, so the two can be compared.  It prints the result with
   every digit (the socket carries doubles exactly: the same unit and seed
   give the same line either way).

   Usage: robot_client ADDRESS [--robot ur5e|panda | --mjcf FILE]
                       [--task reach|push] [--episodes N] [--seed N]
                       [--timeout-ms MS]
          robot_client --in-process UNIT [the same options, but --mjcf]

   --mjcf FILE: your arm (S2R_ROBOT_CUSTOM), the same MJCF the robot side
   announces (robot_server --mjcf FILE, robot_server.py for a custom arm).
   --timeout-ms (default 1000) bounds each reply and the wait for a robot
   side that serves another client.  A malformed option is refused
   (status 2); a robot side that fails mid-run stops it with status 1 and
   its message.

   Uses: s2r_socket_robot_connect, s2r_evaluate.
   Next: robot_server.c - the other end. */
#define SIM2REAL_IMPLEMENTATION
#include "../sim2real.h"
#include "../sim2real_socket.h"
#include "s2r_cli.h"
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The scripted controller on `backend`: episodes from `seed`. */
static s2r_result evaluate(const s2r_backend* backend, s2r_task_kind kind, int episodes, uint64_t seed) {
    s2r_task_config tc = s2r_task_config_default(kind);
    s2r_expert_config ec = s2r_expert_config_default();
    s2r_task task;
    s2r_expert expert;
    s2r_controller scripted;
    s2r_eval_result r;
    s2r_result res = s2r_task_init(&task, &tc, backend);
    if (res != S2R_OK) { fprintf(stderr, "robot_client: %s\n", task.error); return res; }
    if ((res = s2r_expert_init(&expert, &ec, &tc, backend->info)) != S2R_OK) {
        fprintf(stderr, "robot_client: %s\n", expert.error);
        s2r_task_free(&task);
        return res;
    }
    scripted = s2r_expert_controller(&expert);
    res = s2r_evaluate(&scripted, &task, episodes, seed, &r, NULL);
    if (res == S2R_OK)
        printf("success %d of %d, final distance %.17g m, return %.17g, %lld steps\n", r.successes, r.episodes,
               r.mean_distance, r.mean_return, r.steps);
    else
        fprintf(stderr, "robot_client: %s: %s\n", s2r_result_string(res), task.error);   /* it quotes the backend's */
    s2r_expert_free(&expert);
    s2r_task_free(&task);
    return res;
}

static const char usage[] =
    "usage: robot_client ADDRESS [--robot ur5e|panda | --mjcf FILE] [--task reach|push] [--episodes N] [--seed N]\n"
    "                    [--timeout-ms MS]\n"
    "       robot_client --in-process UNIT [the same options, but --mjcf]\n"
    "(the comment at the top of examples/robot_client.c says more)\n";

int main(int argc, char** argv) {
    s2r_socket_config c = s2r_socket_config_default();
    s2r_task_kind kind = S2R_TASK_REACH;
    int episodes = 10, in_process = 0, i;
    unsigned long long seed = 1, unit = 0, n;
    s2r_result res;
    for (i = 1; i < argc; i++) {
        const char* value = i + 1 < argc ? argv[i + 1] : "";
        int ok = i + 1 < argc, known = 1;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) return fputs(usage, stdout), 0;
        if (strcmp(argv[i], "--robot") == 0) ok = ok && (c.robot = s2r_robot_kind_find(value)) < S2R_ROBOT_CUSTOM;
        else if (strcmp(argv[i], "--mjcf") == 0) ok = ok && *value, c.robot = S2R_ROBOT_CUSTOM, c.mjcf_path = value;
        else if (strcmp(argv[i], "--task") == 0)
            ok = ok && (strcmp(value, "reach") == 0 || strcmp(value, "push") == 0), kind = strcmp(value, "push") == 0 ? S2R_TASK_PUSH : S2R_TASK_REACH;
        else if (strcmp(argv[i], "--episodes") == 0) ok = ok && s2r_parse_count(value, 1, 1000000, &n), episodes = (int)n;
        else if (strcmp(argv[i], "--seed") == 0) ok = ok && s2r_parse_count(value, 0, ULLONG_MAX, &seed);
        else if (strcmp(argv[i], "--timeout-ms") == 0) ok = ok && s2r_parse_count(value, 1, INT_MAX, &n), c.timeout_ms = (int)n;
        else if (strcmp(argv[i], "--in-process") == 0) ok = ok && s2r_parse_count(value, 1, ULLONG_MAX, &unit), in_process = 1;
        else if (argv[i][0] != '-' && !c.address) { c.address = argv[i]; continue; }
        else known = 0;
        if (!known || !ok) {
            fprintf(stderr, "robot_client: %s %s%s\n%s", known ? "bad value for" : "unknown option", argv[i],
                    known && i + 1 >= argc ? " (missing)" : "", usage);
            return 2;
        }
        i++;
    }
    if (!in_process == !c.address || (in_process && c.robot == S2R_ROBOT_CUSTOM)) {
        fprintf(stderr, "robot_client: give an ADDRESS or --in-process UNIT (a stand-in unit: ur5e or panda, not --mjcf)\n");
        return 2;
    }
    c.scene = kind == S2R_TASK_PUSH ? S2R_SCENE_PUSH : S2R_SCENE_ARM;
    if (in_process) {   /* the same unit here, seen through the arm's nominal model as over the socket */
        s2r_real_robot real;
        s2r_robot arm;
        s2r_backend unit_here;
        if (s2r_real_robot_init_scene(&real, c.robot, c.scene, unit) != S2R_OK) { fprintf(stderr, "%s\n", real.error); return 1; }
        if (s2r_robot_load_scene(&arm, c.robot, c.scene) != S2R_OK) { fprintf(stderr, "%s\n", arm.error); return 1; }
        unit_here = real.backend;
        unit_here.info = &arm.info;
        res = evaluate(&unit_here, kind, episodes, seed);
        s2r_robot_free(&arm);
        s2r_real_robot_free(&real);
    } else {
        s2r_socket_robot s;
        if (s2r_socket_robot_connect(&s, &c) != S2R_OK) { fprintf(stderr, "robot_client: %s\n", s.error); return 1; }
        printf("connected to %s (servo period %g s)\n", s.backend.name, s.period);
        fflush(stdout);
        res = evaluate(&s.backend, kind, episodes, seed);
        s2r_socket_robot_close(&s);
    }
    return res == S2R_OK ? 0 : 1;
}
