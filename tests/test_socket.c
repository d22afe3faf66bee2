/* tests/test_socket.c - the socket backend: the wire format against
   malformed messages, the whole pipeline across two processes (a forked
   robot side serving a stand-in unit) bit-identical to one process, and
   the faults - a robot side that vanishes mid-episode, one that stops
   answering, NaN readings, the wrong arm.  Included by test_main.c. */
#if defined(__unix__) || defined(__APPLE__)
#include <sys/wait.h>
#include <unistd.h>
#define SOCKET_TESTS 1
#endif

#define SOCKET_PATH S2R_TEST_TMP "/s2r_test_socket.sock"

/* Every message survives pack and parse; every cut, a wrong magic,
   version or size, NaN readings and an impossible hello are refused. */
static int test_socket_wire(void) {
    unsigned char b[S2R_SOCKET_MESSAGE_MAX];
    s2r_socket_message m, back;
    char error[S2R_ERROR_LEN];
    size_t n, cut;
    int t;
    for (t = S2R_SOCKET_HELLO; t < S2R_SOCKET_TYPE_END; t++) {
        int dir;
        for (dir = 0; dir < 2; dir++) {
            memset(&m, 0, sizeof m);
            m.type = (s2r_socket_type)t;
            m.reply = dir;
            m.kind = 1, m.scene = 1, m.n_joints = 7, m.period = 0.002;
            strcpy(m.name, "real panda #2");
            m.flags = 7, m.q[3] = -0.1234567890123, m.target[2] = 0.5, m.rng[1] = 0xdeadbeefcafef00dull;
            m.seconds = 0.04, m.xy[0] = 0.3;
            m.sensors.time = 1.25, m.sensors.q[6] = 1e-300, m.sensors.object[1] = -2.5;
            m.truth.diverged = 1, m.truth.object_vel[2] = 3.0;
            n = s2r_socket_pack(&m, b);
            CHECKF(s2r_socket_parse(b, n, &back, error) == S2R_OK, "%s", error);
            CHECK(back.type == m.type && back.reply == dir);
            if (t == S2R_SOCKET_RESET) CHECK(back.rng[1] == m.rng[1] && (dir || back.q[3] == m.q[3]));
            if (t == S2R_SOCKET_SENSORS && dir) CHECK(back.sensors.q[6] == 1e-300 && back.sensors.object[1] == -2.5);
            if (t == S2R_SOCKET_HELLO && dir) CHECK(back.n_joints == 7 && strcmp(back.name, m.name) == 0);
            for (cut = 0; cut < n; cut++) CHECK(s2r_socket_parse(b, cut, &back, NULL) == S2R_ERR_CORRUPT);
        }
    }
    memset(&m, 0, sizeof m);
    m.type = S2R_SOCKET_SENSORS, m.reply = 1, m.sensors.qd[2] = NAN;
    n = s2r_socket_pack(&m, b);
    CHECK(s2r_socket_parse(b, n, &back, error) == S2R_ERR_CORRUPT && strstr(error, "NaN"));
    m.type = S2R_SOCKET_HELLO, m.n_joints = 9, m.period = 0.002;
    n = s2r_socket_pack(&m, b);
    CHECK(s2r_socket_parse(b, n, &back, error) == S2R_ERR_CORRUPT && strstr(error, "9 joints"));
    m.status = S2R_ERR_DIVERGED;
    strcpy(m.text, "physics diverged");
    n = s2r_socket_pack(&m, b);
    CHECK(s2r_socket_parse(b, n, &back, error) == S2R_OK && back.status == S2R_ERR_DIVERGED && strcmp(back.text, m.text) == 0);
    b[4] = 2;
    CHECK(s2r_socket_parse(b, n, &back, error) == S2R_ERR_CORRUPT && strstr(error, "version 2"));
    b[4] = 1, b[0] = 'X';
    CHECK(s2r_socket_parse(b, n, &back, error) == S2R_ERR_CORRUPT && strstr(error, "magic"));
    return 0;
}

#ifdef SOCKET_TESTS
/* The robot side in a child process: unit `unit` of `kind` in `scene`,
   one client; after `requests` requests (0: never) the process vanishes
   as a killed one would. */
typedef struct socket_dying { s2r_backend inner, outer; int left; } socket_dying;
static socket_dying socket_dying_robot;
static s2r_result socket_dying_count(void) {
    if (socket_dying_robot.left > 0 && --socket_dying_robot.left == 0) _exit(3);
    return S2R_OK;
}
static s2r_result socket_dying_command(void* self, const double* q) {
    socket_dying_count();
    return socket_dying_robot.inner.command(self, q);
}
static s2r_result socket_dying_advance(void* self, double seconds) {
    socket_dying_count();
    return socket_dying_robot.inner.advance(self, seconds);
}

static int socket_watchdog_ms = 1000;   /* the robot side's watchdog, for the next child */
static pid_t socket_serve_child(s2r_robot_kind kind, s2r_scene scene, uint64_t unit, int requests) {
    pid_t child;
    fflush(stdout);
    child = fork();
    if (child == 0) {
        s2r_socket_serve_config c = s2r_socket_serve_config_default();
        s2r_real_robot real;
        if (s2r_real_robot_init_scene(&real, kind, scene, unit) != S2R_OK) _exit(2);
        socket_dying_robot.inner = socket_dying_robot.outer = real.backend;
        socket_dying_robot.outer.command = socket_dying_command;
        socket_dying_robot.outer.advance = socket_dying_advance;
        socket_dying_robot.left = requests;
        c.address = SOCKET_PATH;
        c.clients = 1;
        c.watchdog_ms = socket_watchdog_ms;
        _exit(s2r_socket_serve(&socket_dying_robot.outer, &c, NULL) == S2R_OK ? 0 : 2);
    }
    return child;
}

/* The scripted controller evaluated on `backend`. */
static s2r_result socket_evaluate(s2r_task_kind task_kind, const s2r_backend* backend, int episodes, s2r_eval_result* r) {
    s2r_task_config tc = s2r_task_config_default(task_kind);
    s2r_expert_config ec = s2r_expert_config_default();
    s2r_task task;
    s2r_expert expert;
    s2r_controller scripted;
    s2r_result res = s2r_task_init(&task, &tc, backend);
    if (res != S2R_OK) return res;
    if ((res = s2r_expert_init(&expert, &ec, &tc, backend->info)) == S2R_OK) {
        scripted = s2r_expert_controller(&expert);
        res = s2r_evaluate(&scripted, &task, episodes, 11, r, NULL);
        s2r_expert_free(&expert);
    }
    s2r_task_free(&task);
    return res;
}

/* Evaluation over the socket equals evaluation in one process, bit for
   bit: the same unit, the same seeds, every double carried exactly. */
static int socket_same_as_in_process(s2r_task_kind task_kind, s2r_scene scene, int episodes) {
    s2r_socket_config c = s2r_socket_config_default();
    s2r_socket_robot s;
    s2r_real_robot real;
    s2r_robot arm;
    s2r_backend in_process;
    s2r_eval_result over, here;
    pid_t child = socket_serve_child(S2R_ROBOT_UR5E, scene, 2, 0);
    int status;
    CHECK(child > 0);
    c.address = SOCKET_PATH;
    c.scene = scene;
    CHECKF(s2r_socket_robot_connect(&s, &c) == S2R_OK, "%s", s.error);
    CHECKF(strcmp(s.backend.name, "socket: real ur5e #2") == 0, "%s", s.backend.name);
    CHECKF(socket_evaluate(task_kind, &s.backend, episodes, &over) == S2R_OK, "%s", s.error);
    s2r_socket_robot_close(&s);
    CHECK(waitpid(child, &status, 0) == child && WIFEXITED(status) && WEXITSTATUS(status) == 0);
    CHECK(s2r_real_robot_init_scene(&real, S2R_ROBOT_UR5E, scene, 2) == S2R_OK);
    CHECK(s2r_robot_load_scene(&arm, S2R_ROBOT_UR5E, scene) == S2R_OK);
    in_process = real.backend;
    in_process.info = &arm.info;   /* the kinematics the socket's side has: the nominal model */
    CHECK(socket_evaluate(task_kind, &in_process, episodes, &here) == S2R_OK);
    s2r_robot_free(&arm);
    s2r_real_robot_free(&real);
    CHECKF(over.successes == here.successes && over.steps == here.steps && over.mean_distance == here.mean_distance &&
           over.mean_return == here.mean_return, "socket %d successes, %.17g m, return %.17g; in process %d, %.17g m, %.17g",
           over.successes, over.mean_distance, over.mean_return, here.successes, here.mean_distance, here.mean_return);
    CHECK(over.steps > 0);
    return 0;
}
static int test_socket_reach_bit_identical(void) { return socket_same_as_in_process(S2R_TASK_REACH, S2R_SCENE_ARM, 6); }
static int test_socket_push_bit_identical(void) { return socket_same_as_in_process(S2R_TASK_PUSH, S2R_SCENE_PUSH, 3); }

/* The robot side vanishes mid-episode: the call fails at once with a
   clear error, and the backend stays closed (S2R_ERR_STATE) after. */
static int test_socket_robot_gone_mid_episode(void) {
    s2r_socket_config c = s2r_socket_config_default();
    s2r_socket_robot s;
    s2r_sensors sensors;
    double q[S2R_MAX_JOINTS] = {0}, t0;
    s2r_result res = S2R_OK;
    pid_t child = socket_serve_child(S2R_ROBOT_UR5E, S2R_SCENE_ARM, 1, 21);
    int k, status;
    CHECK(child > 0);
    c.address = SOCKET_PATH;
    CHECKF(s2r_socket_robot_connect(&s, &c) == S2R_OK, "%s", s.error);
    CHECK(s2r_backend_reset(&s.backend, NULL, NULL, NULL) == S2R_OK);
    memcpy(q, s.arm.info.q_home, sizeof q);
    t0 = s2r_seconds();
    for (k = 0; k < 40 && res == S2R_OK; k++) {
        res = s2r_backend_command(&s.backend, q);
        if (res == S2R_OK) res = s2r_backend_advance(&s.backend, 0.04);
    }
    CHECKF(res == S2R_ERR_IO && strstr(s.error, "closed the connection") && strstr(s.error, "halts"), "%s: %s",
           s2r_result_string(res), s.error);
    CHECK(k == 11);
    CHECK(s2r_seconds() - t0 < 5);
    CHECK(s2r_backend_read_sensors(&s.backend, &sensors) == S2R_ERR_STATE && strstr(s.error, "closed the connection"));
    CHECK(s2r_backend_halt(&s.backend) == S2R_ERR_STATE);
    s2r_socket_robot_close(&s);
    CHECK(waitpid(child, &status, 0) == child && WIFEXITED(status) && WEXITSTATUS(status) == 3);
    return 0;
}

/* A robot side that answers the handshake and then nothing, or answers
   with NaN readings: a timeout and a corrupt reading, never a hang. */
static pid_t socket_bad_child(int nan_readings) {
    pid_t child;
    fflush(stdout);
    child = fork();
    if (child == 0) {
        int listener, fd;
        s2r_socket_message m;
        if (s2r__socket_listen(SOCKET_PATH, &listener, NULL) != S2R_OK || (fd = accept(listener, NULL, NULL)) < 0) _exit(2);
        s2r__socket_setup(fd);
        while (s2r__socket_receive(fd, s2r__socket_ms() + 5000, &m, NULL) == S2R_OK) {
            m.reply = 1;
            if (m.type == S2R_SOCKET_HELLO) m.kind = 0, m.scene = 0, m.n_joints = 6, m.period = 0.002;
            else if (!nan_readings) continue;   /* silence */
            m.sensors.q[1] = NAN;
            s2r__socket_send(fd, s2r__socket_ms() + 1000, &m, NULL);
        }
        unlink(SOCKET_PATH);
        _exit(0);
    }
    return child;
}

static int test_socket_timeout_and_nan(void) {
    s2r_socket_config c = s2r_socket_config_default();
    s2r_socket_robot s;
    s2r_sensors sensors;
    double t0;
    int nan_readings, status;
    c.address = SOCKET_PATH;
    c.timeout_ms = 200;
    for (nan_readings = 0; nan_readings < 2; nan_readings++) {
        pid_t child = socket_bad_child(nan_readings);
        s2r_result res;
        CHECK(child > 0);
        CHECKF(s2r_socket_robot_connect(&s, &c) == S2R_OK, "%s", s.error);
        t0 = s2r_seconds();
        res = s2r_backend_read_sensors(&s.backend, &sensors);
        if (nan_readings) CHECKF(res == S2R_ERR_CORRUPT && strstr(s.error, "NaN"), "%s", s.error);
        else CHECKF(res == S2R_ERR_IO && strstr(s.error, "no answer within 200 ms"), "%s", s.error);
        CHECK(s2r_seconds() - t0 < 2);
        CHECK(s2r_backend_advance(&s.backend, 0.04) == S2R_ERR_STATE);
        s2r_socket_robot_close(&s);
        CHECK(waitpid(child, &status, 0) == child);
    }
    return 0;
}

/* The robot side serves a Panda (7 joints), this side expects a UR5e. */
static int test_socket_wrong_arm(void) {
    s2r_socket_config c = s2r_socket_config_default();
    s2r_socket_robot s;
    pid_t child = socket_serve_child(S2R_ROBOT_PANDA, S2R_SCENE_ARM, 1, 0);
    int status;
    CHECK(child > 0);
    c.address = SOCKET_PATH;
    CHECK(s2r_socket_robot_connect(&s, &c) == S2R_ERR_CORRUPT);
    CHECKF(strstr(s.error, "panda") && strstr(s.error, "7 joints") && strstr(s.error, "expects a ur5e"), "%s", s.error);
    CHECK(s.fd == -1);
    CHECK(waitpid(child, &status, 0) == child);
    c.address = S2R_TEST_TMP "/s2r_test_no_such.sock";
    c.timeout_ms = 50;
    CHECK(s2r_socket_robot_connect(&s, &c) == S2R_ERR_IO && strstr(s.error, "cannot connect"));
    c.address = "tcp:localhost:99999";
    CHECK(s2r_socket_robot_connect(&s, &c) == S2R_ERR_INVALID_ARGUMENT && strstr(s.error, "tcp:HOST:PORT"));
    return 0;
}
/* examples/robot_server.py speaks the same protocol: its fake arm moves
   toward a command, halts, and refuses a NaN command. */
static int test_socket_python_robot_side(void) {
    s2r_socket_config c = s2r_socket_config_default();
    s2r_socket_robot s;
    s2r_sensors before, after;
    double q[S2R_MAX_JOINTS] = {0};
    s2r_rng rng = s2r_rng_make(5, 0), kept = rng;
    pid_t child;
    int status, j;
    fflush(stdout);
    child = fork();
    if (child == 0) {
        if (!freopen("/dev/null", "w", stdout)) _exit(126);   /* its "serving ..." lines */
        execlp("python3", "python3", "examples/robot_server.py", SOCKET_PATH, "--clients", "1", (char*)NULL);
        _exit(127);
    }
    CHECK(child > 0);
    c.address = SOCKET_PATH;
    c.timeout_ms = 5000;   /* the interpreter's start */
    CHECKF(s2r_socket_robot_connect(&s, &c) == S2R_OK, "%s", s.error);
    CHECKF(strstr(s.backend.name, "robot_server.py") && s.period == 0.002, "%s %g", s.backend.name, s.period);
    CHECK(s2r_backend_reset(&s.backend, NULL, NULL, &rng) == S2R_OK);
    CHECK(memcmp(&rng, &kept, sizeof rng) == 0);   /* it draws nothing: the generator comes back as sent */
    CHECK(s2r_backend_read_sensors(&s.backend, &before) == S2R_OK);
    for (j = 0; j < 6; j++) q[j] = before.q[j] + 0.1;
    CHECK(fabs(before.q[0] - s.arm.info.q_home[0]) < 1e-9);   /* reset to the arm's home */
    CHECK(s2r_backend_command(&s.backend, q) == S2R_OK && s2r_backend_advance(&s.backend, 0.1) == S2R_OK);
    CHECK(s2r_backend_read_sensors(&s.backend, &after) == S2R_OK);
    CHECKF(after.time == 0.1 && after.q[0] > before.q[0] + 0.05 && after.q[0] < q[0], "%g: %g -> %g", after.time,
           before.q[0], after.q[0]);
    q[2] = NAN;
    CHECK(s2r_backend_command(&s.backend, q) == S2R_ERR_INVALID_ARGUMENT && strstr(s.error, "robot side: command contains NaN"));
    CHECK(s2r_backend_halt(&s.backend) == S2R_OK);
    s2r_socket_robot_close(&s);
    CHECK(waitpid(child, &status, 0) == child && WIFEXITED(status) && WEXITSTATUS(status) == 0);
    return 0;
}
/* A client silent mid-episode for longer than the watchdog: the robot
   side halts the arm (a command after it is ignored until the next reset). */
static int test_socket_watchdog_halts(void) {
    s2r_socket_config c = s2r_socket_config_default();
    s2r_socket_robot s;
    s2r_sensors r;
    double q[S2R_MAX_JOINTS];
    pid_t child;
    int quiet, status;
    socket_watchdog_ms = 100;
    child = socket_serve_child(S2R_ROBOT_UR5E, S2R_SCENE_ARM, 1, 0);
    socket_watchdog_ms = 1000;
    CHECK(child > 0);
    c.address = SOCKET_PATH;
    CHECKF(s2r_socket_robot_connect(&s, &c) == S2R_OK, "%s", s.error);
    for (quiet = 0; quiet < 2; quiet++) {
        CHECK(s2r_backend_reset(&s.backend, NULL, NULL, NULL) == S2R_OK);
        if (quiet) poll(NULL, 0, 300);   /* silent for three watchdog periods */
        memcpy(q, s.arm.info.q_home, sizeof q);
        q[0] += 0.2;
        CHECK(s2r_backend_command(&s.backend, q) == S2R_OK && s2r_backend_advance(&s.backend, 0.5) == S2R_OK);
        CHECK(s2r_backend_read_sensors(&s.backend, &r) == S2R_OK);
        if (quiet) CHECKF(fabs(r.q[0] - s.arm.info.q_home[0]) < 0.02, "halted, yet joint 1 moved %g rad", r.q[0] - s.arm.info.q_home[0]);
        else CHECKF(r.q[0] - s.arm.info.q_home[0] > 0.15, "joint 1 moved only %g rad", r.q[0] - s.arm.info.q_home[0]);
    }
    s2r_socket_robot_close(&s);
    CHECK(waitpid(child, &status, 0) == child && WIFEXITED(status) && WEXITSTATUS(status) == 0);
    return 0;
}
#endif

static const test_case socket_tests[] = {
    {"socket: every message packs and parses; cut, bad magic, version, NaN readings refused", test_socket_wire},
#ifdef SOCKET_TESTS
    {"socket: the scripted controller on a unit over a socket, bit-identical to in process (reach)",
     test_socket_reach_bit_identical},
    {"socket: the same on push (object placed over the socket)", test_socket_push_bit_identical},
    {"socket: the robot side gone mid-episode is a clear error at once, then a closed backend",
     test_socket_robot_gone_mid_episode},
    {"socket: a silent robot side times out, NaN readings are refused", test_socket_timeout_and_nan},
    {"socket: the wrong arm in the handshake, no server, a bad address", test_socket_wrong_arm},
    {"socket: a client silent mid-episode past the watchdog gets the arm halted", test_socket_watchdog_halts},
    {"socket: examples/robot_server.py speaks the protocol (its fake arm follows, halts, refuses NaN)",
     test_socket_python_robot_side},
#endif
};
