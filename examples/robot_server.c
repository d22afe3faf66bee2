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
   ADDRESS is a Unix socket path or tcp:HOST:PORT; --clients 0 (the
   default) serves until the process is stopped.  --mjcf FILE serves the
   nominal simulator of your arm's MJCF instead of a stand-in unit (there
   are none of it): the other side's --mjcf path tried without the arm.

   Uses: s2r_real_robot_init_scene, s2r_sim_init, s2r_socket_serve.
   Next: robot_server.py - where your driver's calls go. */
#define SIM2REAL_IMPLEMENTATION
#include "../sim2real.h"
#include "../sim2real_socket.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    int i;
    for (i = 1; i < argc; i++) {
        const char* value = i + 1 < argc ? argv[i + 1] : "";
        if (strcmp(argv[i], "--robot") == 0 && i + 1 < argc) robot = s2r_robot_kind_find(value), i++;
        else if (strcmp(argv[i], "--scene") == 0 && i + 1 < argc) scene = strcmp(value, "push") == 0 ? S2R_SCENE_PUSH : S2R_SCENE_ARM, i++;
        else if (strcmp(argv[i], "--unit") == 0 && i + 1 < argc) unit = strtoull(value, NULL, 10), i++;
        else if (strcmp(argv[i], "--mjcf") == 0 && i + 1 < argc) mjcf = value, i++;
        else if (strcmp(argv[i], "--clients") == 0 && i + 1 < argc) serve.clients = atoi(value), i++;
        else if (strcmp(argv[i], "--watchdog-ms") == 0 && i + 1 < argc) serve.watchdog_ms = atoi(value), i++;
        else if (argv[i][0] != '-' && !serve.address) serve.address = argv[i];
        else {
            fprintf(stderr, "robot_server: unknown option %s\nusage: robot_server ADDRESS [--robot ur5e|panda] "
                            "[--scene arm|push] [--unit N] [--mjcf FILE] [--clients N] [--watchdog-ms MS]\n", argv[i]);
            return 1;
        }
    }
    if (!serve.address) { fprintf(stderr, "robot_server: an address (a socket path or tcp:HOST:PORT) is needed\n"); return 1; }
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
    res = s2r_socket_serve(served, &serve, error);
    if (res != S2R_OK) fprintf(stderr, "robot_server: %s\n", error);
    if (mjcf) s2r_sim_free(&sim);
    else s2r_real_robot_free(&real);
    return res == S2R_OK ? 0 : 1;
}
