/* robot_server.c - a stand-in real unit served over a socket.

   The robot side of the socket backend (sim2real_socket.h, "A robot in another
   process"): this process holds stand-in unit N of the UR5e or Panda fleet
   and answers the pipeline's calls - reset, command, advance, sensors,
   ground truth, halt - one client at a time, so a program using
   s2r_socket_robot drives the unit exactly as it would in its own process.
   A client that goes away, sends a malformed message or falls silent
   mid-episode gets the arm halted.  Your own arm's side is
   robot_server.py: the same protocol, with the driver calls marked.

   Usage: robot_server ADDRESS [--robot ur5e|panda] [--scene arm|push]
                       [--unit N] [--mjcf FILE] [--clients N] [--watchdog-ms MS]
                       [--idle-ms MS]
   ADDRESS is a Unix socket path (one left by a server that is gone is
   replaced; a live server's, or a file, is refused) or tcp:HOST:PORT;
   --clients 0 (the default) serves until the process is stopped (Ctrl-C
   or SIGTERM: the arm halted, the path removed, status 130).  --unit N
   from 1 (default 1); --watchdog-ms MS from 1 (default 1000): the arm
   halts after that silence mid-episode, and a connection must say hello
   within it.  One client at a time: another is told the arm is busy,
   until the one holding it has been silent --idle-ms MS between episodes
   (default 60000; 0: never), when the next to connect takes the arm.
   Each client's coming and going (and why: it said bye, it was lost without one, a malformed message,
   no hello in time), each watchdog halt and each connection refused busy
   is a line on standard output.  TCP addresses are strict (tcp: in lower
   case, no leading zeros or signs); tcp:0.0.0.0 is refused: it would let
   anyone who reaches the machine drive the arm - give the interface's own
   address.
   --mjcf FILE serves the nominal simulator of your arm's MJCF instead of
   a stand-in unit (there are none of it): the other side's --mjcf path
   tried without the arm.  A malformed option is refused (status 2).

   Uses: s2r_real_robot_init_scene, s2r_sim_init, s2r_socket_serve.
   Next: robot_server.py - where your driver's calls go. */
#define SIM2REAL_IMPLEMENTATION
#include "../sim2real.h"
#include "../sim2real_socket.h"
#include "s2r_cli.h"
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: robot_server ADDRESS [--robot ur5e|panda] [--scene arm|push] [--unit N>=1] [--mjcf FILE] [--clients N>=0]\n"
    "                    [--watchdog-ms MS>=1] [--idle-ms MS>=0]\n"
    "(the comment at the top of examples/robot_server.c says more)\n";

int main(int argc, char** argv) {
    s2r_socket_serve_config serve = s2r_socket_serve_config_default();
    s2r_robot_kind robot = S2R_ROBOT_UR5E;
    s2r_scene scene = S2R_SCENE_ARM;
    unsigned long long unit = 1;
    const char* mjcf = NULL;
    s2r_real_robot real;
    s2r_sim sim;
    const s2r_backend* served;
    char error[S2R_ERROR_LEN];
    s2r_result res;
    unsigned long long n;
    int i;
    for (i = 1; i < argc; i++) {
        const char* value = i + 1 < argc ? argv[i + 1] : "";
        int ok = i + 1 < argc, known = 1;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) return fputs(usage, stdout), 0;
        if (strcmp(argv[i], "--robot") == 0) ok = ok && (robot = s2r_robot_kind_find(value)) < S2R_ROBOT_CUSTOM;
        else if (strcmp(argv[i], "--scene") == 0)
            ok = ok && (strcmp(value, "arm") == 0 || strcmp(value, "push") == 0), scene = strcmp(value, "push") == 0 ? S2R_SCENE_PUSH : S2R_SCENE_ARM;
        else if (strcmp(argv[i], "--unit") == 0) ok = ok && s2r_parse_count(value, 1, ULLONG_MAX, &unit);
        else if (strcmp(argv[i], "--mjcf") == 0) ok = ok && *value, mjcf = value;
        else if (strcmp(argv[i], "--clients") == 0) ok = ok && s2r_parse_count(value, 0, INT_MAX, &n), serve.clients = (int)n;
        else if (strcmp(argv[i], "--watchdog-ms") == 0) ok = ok && s2r_parse_count(value, 1, INT_MAX, &n), serve.watchdog_ms = (int)n;
        else if (strcmp(argv[i], "--idle-ms") == 0) ok = ok && s2r_parse_count(value, 0, INT_MAX, &n), serve.idle_ms = (int)n;
        else if (argv[i][0] != '-' && !serve.address) { serve.address = argv[i]; continue; }
        else known = 0;
        if (!known || !ok) {
            fprintf(stderr, "robot_server: %s %s%s%s%s\n%s", known ? "bad value for" : "unknown option", argv[i],
                    known && value ? " '" : "", known ? (value ? value : " (missing)") : "", known && value ? "'" : "", usage);
            return 2;
        }
        i++;
    }
    if (!serve.address) { fprintf(stderr, "robot_server: an address (a socket path or tcp:HOST:PORT) is needed\n"); return 2; }
    s2r_interrupt_catch();   /* Ctrl-C, SIGTERM: halt the arm, remove the path, status 130 */
    if (mjcf) {   /* your arm's model, nominal */
        s2r_sim_config sc = s2r_sim_config_default(S2R_ROBOT_CUSTOM);
        sc.mjcf_path = mjcf;
        if ((res = s2r_sim_init(&sim, &sc)) != S2R_OK) { fprintf(stderr, "robot_server: %s\n", sim.error); return 1; }
        served = s2r_sim_backend(&sim);
    } else {
        if ((res = s2r_real_robot_init_scene(&real, robot, scene, unit)) != S2R_OK) {
            fprintf(stderr, "robot_server: %s\n", real.error);
            return 1;
        }
        served = s2r_real_robot_backend(&real);
    }
    printf("%s (%s scene), to be served at %s\n", served->name, s2r_scene_name(served->info->scene), serve.address);
    fflush(stdout);
    serve.log = stdout;   /* each client's coming and going, each watchdog halt */
    res = s2r_socket_serve(served, &serve, error);
    if (res != S2R_OK) fprintf(stderr, "robot_server: %s\n", error);
    if (mjcf) s2r_sim_free(&sim);
    else s2r_real_robot_free(&real);
    return res == S2R_OK ? 0 : res == S2R_ERR_INTERRUPTED ? 130 : 1;
}
