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

/* This process's socket path (its pid in the name, so suites running side
   by side do not meet); children forked after the first call inherit it. */
static const char* socket_path(void) {
    static char path[96];
#ifdef SOCKET_TESTS
    if (!path[0]) snprintf(path, sizeof path, S2R_TEST_TMP "/s2r_test_socket_%ld.sock", (long)getpid());
#endif
    return path;
}
#define SOCKET_PATH socket_path()
static const char* socket_read_text(const char* path, char* text, size_t cap);

/* Every message survives pack and parse; every cut, a wrong magic,
   version or size, NaN readings, an impossible hello (its joint count,
   ranges, a joint past its count) and a bye reply are refused. */
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
            m.kind = 1, m.scene = 1, m.n_joints = 7, m.period = 0.002, m.digest = 0x0123456789abcdefull;
            strcpy(m.name, "real panda #2");
            strcpy(m.model, "panda");
            strcpy(m.joint_name[6], "joint7");
            m.q_min[6] = -2.9, m.q_max[6] = 2.9;
            if (t == S2R_SOCKET_BYE && dir) {   /* a bye has no reply */
                n = s2r_socket_pack(&m, b);
                CHECKF(s2r_socket_parse(b, n, &back, error) == S2R_ERR_CORRUPT && strstr(error, "bye has none"), "%s", error);
                continue;
            }
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
            if (t == S2R_SOCKET_HELLO)   /* the arm, both ways */
                CHECK(back.kind == 1 && back.digest == m.digest && strcmp(back.model, "panda") == 0 &&
                      strcmp(back.joint_name[6], "joint7") == 0 && back.q_min[6] == -2.9 && back.q_max[6] == 2.9);
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
    b[4] = 3;
    CHECK(s2r_socket_parse(b, n, &back, error) == S2R_ERR_CORRUPT && strstr(error, "version 3") && back.version == 3);
    b[4] = 1;   /* protocol 1's: refused, and its version read (a robot side answers in it) */
    CHECK(s2r_socket_parse(b, n, &back, error) == S2R_ERR_CORRUPT && strstr(error, "version 1, this build speaks 2") &&
          back.version == 1);
    b[4] = 2;
    /* a hello's arm: its ranges are ranges, slots past its joints empty */
    memset(&m, 0, sizeof m);
    m.type = S2R_SOCKET_HELLO, m.n_joints = 2;
    m.q_min[1] = 1, m.q_max[1] = -1;
    n = s2r_socket_pack(&m, b);
    CHECKF(s2r_socket_parse(b, n, &back, error) == S2R_ERR_CORRUPT && strstr(error, "joint 2's range [1, -1] rad is not a range"),
           "%s", error);
    m.q_max[1] = NAN;
    n = s2r_socket_pack(&m, b);
    CHECK(s2r_socket_parse(b, n, &back, error) == S2R_ERR_CORRUPT && strstr(error, "not a range"));
    m.q_max[1] = 1;
    strcpy(m.joint_name[2], "a third");
    n = s2r_socket_pack(&m, b);
    CHECKF(s2r_socket_parse(b, n, &back, error) == S2R_ERR_CORRUPT && strstr(error, "joint slot 3 holds a joint, but the arm "
           "has 2 joints"), "%s", error);
    /* ground truth is checked like sensors (but for a diverged episode's);
       readings beyond any arm are refused */
    memset(&m, 0, sizeof m);
    m.type = S2R_SOCKET_TRUTH, m.reply = 1;
    for (t = 0; t < 4; t++) {
        m.truth.diverged = t == 3;
        m.truth.flange[1] = t == 0 ? NAN : t == 1 ? 1e300 : t == 2 ? -INFINITY : NAN;
        m.truth.q[2] = t == 2 ? 2e6 : 0;
        n = s2r_socket_pack(&m, b);
        if (t < 3) CHECKF(s2r_socket_parse(b, n, &back, error) == S2R_ERR_CORRUPT && strstr(error, "truth: a value is NaN, Inf or beyond 1e+06"), "%d: %s", t, error);
        else CHECK(s2r_socket_parse(b, n, &back, error) == S2R_OK && back.truth.diverged == 1);
    }
    memset(&m, 0, sizeof m);
    m.type = S2R_SOCKET_SENSORS, m.reply = 1, m.sensors.tau[0] = 1e300, m.sensors.time = 1.7e9;
    n = s2r_socket_pack(&m, b);
    CHECK(s2r_socket_parse(b, n, &back, error) == S2R_ERR_CORRUPT && strstr(error, "beyond"));
    m.sensors.tau[0] = -S2R_SOCKET_READING_MAX;   /* the bound itself, and a clock in seconds since 1970, pass */
    n = s2r_socket_pack(&m, b);
    CHECKF(s2r_socket_parse(b, n, &back, error) == S2R_OK, "%s", error);
    /* text from the other side is printable: escapes arrive as \xNN */
    memset(&m, 0, sizeof m);
    m.type = S2R_SOCKET_HELLO, m.reply = 1, m.n_joints = 6, m.period = 0.002;
    strcpy(m.name, "ur5e\033[31m\n#1\177");
    n = s2r_socket_pack(&m, b);
    CHECK(s2r_socket_parse(b, n, &back, error) == S2R_OK);
    CHECKF(strcmp(back.name, "ur5e\\x1b[31m\\x0a#1\\x7f") == 0, "%s", back.name);
    m.status = S2R_ERR_MODEL;
    memset(m.text, '\033', sizeof m.text - 1);
    m.text[sizeof m.text - 1] = 0;
    n = s2r_socket_pack(&m, b);
    CHECK(s2r_socket_parse(b, n, &back, error) == S2R_OK && strlen(back.text) == 124 && strncmp(back.text, "\\x1b\\x1b", 8) == 0);
    /* joint slots past the arm's: another arm's */
    memset(&m, 0, sizeof m);
    m.type = S2R_SOCKET_SENSORS, m.reply = 1, m.sensors.qd[6] = -0.25;
    CHECK(s2r__socket_check_joints(&m, 7, error) == S2R_OK);
    CHECKF(s2r__socket_check_joints(&m, 6, error) == S2R_ERR_CORRUPT && strstr(error, "qd of joint 7 is -0.25, but the arm has 6 joints"), "%s", error);
    m.type = S2R_SOCKET_RESET, m.reply = 0, m.q[5] = 1;
    CHECK(s2r__socket_check_joints(&m, 5, error) == S2R_OK);   /* flags 0: no start pose sent */
    m.flags = 1;
    CHECK(s2r__socket_check_joints(&m, 5, error) == S2R_ERR_CORRUPT && strstr(error, "reset request: q of joint 6"));
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
static const char* socket_log_path;     /* ... where it logs its clients; NULL: nowhere */
static int socket_clients = 1;          /* ... the clients it serves */
static int socket_idle_ms = 60000;     /* ... how long a client may be silent between episodes */
/* A handled signal: poll returns EINTR.  Strict C99's signal() is System V's
   (the handler is reset on delivery), so it puts itself back. */
static void socket_ignore_signal(int sig) { signal(sig, socket_ignore_signal); }
static pid_t socket_serve_child(s2r_robot_kind kind, s2r_scene scene, uint64_t unit, int requests) {
    pid_t child;
    (void)SOCKET_PATH;   /* named before the fork: the child's is the same */
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
        c.clients = socket_clients;
        c.watchdog_ms = socket_watchdog_ms;
        c.idle_ms = socket_idle_ms;
        if (socket_log_path && !(c.log = fopen(socket_log_path, "w"))) _exit(2);
        signal(SIGUSR1, socket_ignore_signal);
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
    c.timeout_ms = 10000;   /* a loaded machine (the sanitizer builds) answers slowly; the end must not wait for it */
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

/* A robot side that answers the handshake (naming itself `name`) and then
   nothing (mode 0), or answers with NaN readings (1), another arm's
   joints (2: a seventh joint's reading on a UR5e) or ground truth beyond
   any arm (3): a timeout and a corrupt reading, never a hang. */
static const char* socket_bad_name = "bad arm";
static const char* socket_bad_joint;   /* not NULL: its first joint's name in the hello */
/* A hello announcing built-in arm `kind` (arm scene), as a client's does. */
static void socket_hello_of(s2r_robot_kind kind, s2r_socket_message* m) {
    s2r_robot arm;
    memset(m, 0, sizeof *m);
    if (s2r_robot_load(&arm, kind) != S2R_OK) return;
    s2r__socket_arm_here(&arm.info, m);
    s2r_robot_free(&arm);
}
static pid_t socket_bad_child(int mode) {
    pid_t child;
    (void)SOCKET_PATH;
    fflush(stdout);
    child = fork();
    if (child == 0) {
        int listener, fd;
        s2r_socket_message m;
        s2r_socket_message hello;
        socket_hello_of(S2R_ROBOT_UR5E, &hello);
        if (s2r__socket_listen(SOCKET_PATH, &listener, NULL) != S2R_OK || (fd = accept(listener, NULL, NULL)) < 0) _exit(2);
        s2r__socket_setup(fd);
        while (s2r__socket_receive(fd, s2r__socket_ms() + 5000, &m, NULL) == S2R_OK) {
            if (m.type == S2R_SOCKET_HELLO) {
                m = hello, m.period = 0.002, strcpy(m.name, socket_bad_name);
                if (socket_bad_joint) snprintf(m.joint_name[0], sizeof m.joint_name[0], "%s", socket_bad_joint);
            }
            else if (!mode) continue;   /* silence */
            m.reply = 1;
            if (mode == 1) m.sensors.q[1] = NAN;
            if (mode == 2) m.sensors.q[6] = 0.3, m.truth.q[6] = 0.3;
            if (mode == 3) m.truth.flange[2] = 1e300;
            if (mode == 5) m.sensors.q[2] = 57.0;   /* finite, bounded, 53.9 rad past the elbow's range */
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
    s2r_ground_truth truth;
    double t0;
    int mode, status;
    c.address = SOCKET_PATH;
    c.timeout_ms = 200;
    for (mode = 0; mode < 6; mode++) {
        pid_t child;
        s2r_result res;
        socket_bad_name = mode == 4 ? "evil\033[2J\033]0;owned\007arm" : "bad arm";
        child = socket_bad_child(mode != 4 ? mode : 3);
        CHECK(child > 0);
        CHECKF(s2r_socket_robot_connect(&s, &c) == S2R_OK, "%s", s.error);
        t0 = s2r_seconds();
        res = mode == 3 || mode == 4 ? s2r_backend_ground_truth(&s.backend, &truth) : s2r_backend_read_sensors(&s.backend, &sensors);
        if (mode == 5) CHECKF(res == S2R_ERR_CORRUPT && strstr(s.error, "sensors: joint 3 ('elbow') reads 57 rad, 53.9 rad outside its range [-3.1416, 3.1416]") &&
                              strstr(s.error, "in degrees, in another joint order or from another arm?"), "%s", s.error);
        else if (mode == 1) CHECKF(res == S2R_ERR_CORRUPT && strstr(s.error, "NaN"), "%s", s.error);
        else if (mode == 2) CHECKF(res == S2R_ERR_CORRUPT && strstr(s.error, "q of joint 7 is 0.3, but the arm has 6 joints"), "%s", s.error);
        else if (mode == 3 || mode == 4) CHECKF(res == S2R_ERR_CORRUPT && strstr(s.error, "truth: a value is NaN, Inf or beyond"), "%s", s.error);
        else CHECKF(res == S2R_ERR_IO && strstr(s.error, "no answer within 200 ms"), "%s", s.error);
        if (mode == 4) CHECKF(strcmp(s.backend.name, "socket: evil\\x1b[2J\\x1b]0;owned\\x07arm") == 0, "%s", s.backend.name);
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
    CHECK(s2r_socket_robot_connect(&s, &c) == S2R_ERR_MODEL);
    CHECKF(strstr(s.error, "the robot side refused this arm: the client's arm is a ur5e (arm scene, 6 joints), this robot "
                  "side's a panda (arm scene, 7 joints)") && strstr(s.error, "this side loaded the built-in ur5e: load the "
                  "same arm on both sides"), "%s", s.error);
    CHECK(s.fd == -1);
    kill(child, SIGTERM);   /* a refused connection is no client: it would serve on */
    CHECK(waitpid(child, &status, 0) == child);
    c.address = S2R_TEST_TMP "/s2r_test_no_such.sock";
    c.timeout_ms = 50;
    CHECK(s2r_socket_robot_connect(&s, &c) == S2R_ERR_IO && strstr(s.error, "cannot connect"));
    c.address = "tcp:localhost:99999";
    CHECK(s2r_socket_robot_connect(&s, &c) == S2R_ERR_INVALID_ARGUMENT && strstr(s.error, "tcp:HOST:PORT"));
    return 0;
}
static int socket_raw_connect(void);
/* examples/robot_server.py speaks the same protocol: it refuses a client
   that loaded another arm and one of protocol 1 (neither is a client);
   its fake arm moves toward a command, halts, and refuses a NaN command. */
static int test_socket_python_robot_side(void) {
    s2r_socket_config c = s2r_socket_config_default();
    s2r_socket_robot s;
    s2r_sensors before, after;
    double q[S2R_MAX_JOINTS] = {0};
    s2r_rng rng = s2r_rng_make(5, 0), kept = rng;
    pid_t child;
    int status, j;
    (void)SOCKET_PATH;
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
    c.robot = S2R_ROBOT_PANDA;
    CHECK(s2r_socket_robot_connect(&s, &c) == S2R_ERR_MODEL);
    CHECKF(strstr(s.error, "the robot side refused this arm: the client's arm is a panda (arm scene, 7 joints), this robot "
                  "side's a ur5e (arm scene, 6 joints)"), "%s", s.error);
    c.robot = S2R_ROBOT_UR5E;
    {
        static const unsigned char v1_hello[S2R_SOCKET_HEADER] = {'S', '2', 'R', 'S', 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0};
        unsigned char answer[S2R_SOCKET_HEADER + S2R_SOCKET_TEXT];
        s2r_socket_message m;
        int fd = socket_raw_connect();
        CHECK(fd >= 0);
        CHECK(s2r__socket_move(fd, (unsigned char*)v1_hello, sizeof v1_hello, 1, s2r__socket_ms() + 2000, NULL) == S2R_OK);
        CHECK(s2r__socket_move(fd, answer, sizeof answer, 0, s2r__socket_ms() + 2000, NULL) == S2R_OK);
        close(fd);
        CHECK(answer[4] == 1 && answer[5] == 0);
        answer[4] = S2R_SOCKET_VERSION;
        CHECK(s2r_socket_parse(answer, sizeof answer, &m, NULL) == S2R_OK && m.status == S2R_ERR_UNSUPPORTED);
        CHECKF(strstr(m.text, "socket protocol 1: this robot side speaks protocol 2"), "%s", m.text);
    }
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
/* A client silent mid-episode for longer than the watchdog, with signals
   arriving at the robot side all the while (each wakes its wait early):
   the robot side halts the arm, and every request of that episode but
   halt is an error naming the watchdog, never a result on a halted arm;
   a reset starts a good episode again. */
static int test_socket_watchdog_halts(void) {
    s2r_socket_config c = s2r_socket_config_default();
    s2r_socket_robot s;
    s2r_sensors r;
    double q[S2R_MAX_JOINTS];
    pid_t child;
    int episode, k, status;
    socket_watchdog_ms = 100;
    child = socket_serve_child(S2R_ROBOT_UR5E, S2R_SCENE_ARM, 1, 0);
    socket_watchdog_ms = 1000;
    CHECK(child > 0);
    c.address = SOCKET_PATH;
    CHECKF(s2r_socket_robot_connect(&s, &c) == S2R_OK, "%s", s.error);
    for (episode = 0; episode < 3; episode++) {
        int quiet = episode == 1;
        CHECK(s2r_backend_reset(&s.backend, NULL, NULL, NULL) == S2R_OK);
        for (k = 0; quiet && k < 15; k++) {   /* silent for three watchdog periods, a signal every 20 ms */
            kill(child, SIGUSR1);
            poll(NULL, 0, 20);
        }
        memcpy(q, s.arm.info.q_home, sizeof q);
        q[0] += 0.2;
        if (quiet) {
            CHECKF(s2r_backend_command(&s.backend, q) == S2R_ERR_STATE && strstr(s.error, "watchdog halted the arm") &&
                   strstr(s.error, "100 ms"), "%s", s.error);
            CHECK(s2r_backend_advance(&s.backend, 0.5) == S2R_ERR_STATE && strstr(s.error, "watchdog"));
            CHECK(s2r_backend_read_sensors(&s.backend, &r) == S2R_ERR_STATE && strstr(s.error, "episode is over"));
            CHECK(s2r_backend_halt(&s.backend) == S2R_OK);
            continue;
        }
        CHECKF(s2r_backend_command(&s.backend, q) == S2R_OK && s2r_backend_advance(&s.backend, 0.5) == S2R_OK, "%s", s.error);
        CHECK(s2r_backend_read_sensors(&s.backend, &r) == S2R_OK);
        CHECKF(r.q[0] - s.arm.info.q_home[0] > 0.15, "joint 1 moved only %g rad", r.q[0] - s.arm.info.q_home[0]);
    }
    s2r_socket_robot_close(&s);
    CHECK(waitpid(child, &status, 0) == child && WIFEXITED(status) && WEXITSTATUS(status) == 0);
    return 0;
}

/* A raw connection to this process's socket path, and one request on it. */
static int socket_raw_connect(void) {
    int fd = -1;
    return s2r__socket_open(SOCKET_PATH, 3000, &fd, NULL) == S2R_OK ? fd : -1;
}
static s2r_result socket_raw_call(int fd, s2r_socket_type type, s2r_socket_message* m) {
    s2r_result res;
    m->type = type;
    m->reply = 0;
    m->status = S2R_OK;
    if ((res = s2r__socket_send(fd, s2r__socket_ms() + 2000, m, NULL)) != S2R_OK) return res;
    return s2r__socket_receive(fd, s2r__socket_ms() + 2000, m, NULL);
}

/* One client at a time: while one holds the arm, another's connect is
   told "busy" and fails when its timeout_ms (the queue timeout) is up;
   one with a longer timeout gets the arm once the first has gone. */
static int test_socket_one_client_at_a_time(void) {
    s2r_socket_config c = s2r_socket_config_default();
    s2r_socket_robot s;
    s2r_sensors sensors;
    pid_t child, holder;
    int status, ready[2];
    double t0, waited;
    socket_clients = 2;
    child = socket_serve_child(S2R_ROBOT_UR5E, S2R_SCENE_ARM, 1, 0);
    socket_clients = 1;
    CHECK(child > 0 && pipe(ready) == 0);
    c.address = SOCKET_PATH;
    fflush(stdout);
    if ((holder = fork()) == 0) {   /* the first client: holds the arm for 0.6 s */
        s2r_socket_robot first;
        if (s2r_socket_robot_connect(&first, &c) != S2R_OK || write(ready[1], "c", 1) != 1) _exit(2);
        poll(NULL, 0, 600);
        s2r_socket_robot_close(&first);
        _exit(0);
    }
    CHECK(holder > 0);
    {
        char byte = 0;
        CHECK(read(ready[0], &byte, 1) == 1 && byte == 'c');
    }
    close(ready[0]);
    close(ready[1]);
    c.timeout_ms = 200;
    t0 = s2r_seconds();
    CHECK(s2r_socket_robot_connect(&s, &c) == S2R_ERR_STATE);
    waited = s2r_seconds() - t0;
    CHECKF(strstr(s.error, "stayed busy for the 200 ms of timeout_ms") && strstr(s.error, "another client has held this arm"),
           "%s", s.error);
    CHECKF(waited > 0.15 && waited < 1.5, "refused after %.2f s", waited);
    CHECK(s2r_backend_read_sensors(&s.backend, &sensors) == S2R_ERR_STATE && strstr(s.error, "never connected"));
    c.timeout_ms = 5000;   /* in the queue until the first client goes */
    t0 = s2r_seconds();
    CHECKF(s2r_socket_robot_connect(&s, &c) == S2R_OK, "%s", s.error);
    waited = s2r_seconds() - t0;
    CHECKF(waited > 0.2 && waited < 3, "connected after %.2f s", waited);
    CHECK(s2r_backend_reset(&s.backend, NULL, NULL, NULL) == S2R_OK);
    s2r_socket_robot_close(&s);
    CHECK(waitpid(holder, &status, 0) == holder && WIFEXITED(status) && WEXITSTATUS(status) == 0);
    CHECK(waitpid(child, &status, 0) == child && WIFEXITED(status) && WEXITSTATUS(status) == 0);
    return 0;
}

/* A client that stops mid-episode (SIGSTOP, a hang) holds the robot no
   longer than idle_ms: the watchdog halts its episode, and once it has
   been silent idle_ms the next client to connect takes the arm; before
   that, a connect is told busy with the silence and when it ends.  The
   stopped client's next call fails saying the robot side closed the
   connection, and why it may have. */
static int test_socket_stopped_client_gives_way(void) {
    s2r_socket_config c = s2r_socket_config_default();
    s2r_socket_robot s;
    pid_t child, holder;
    int status, ready[2];
    double t0, waited;
    socket_watchdog_ms = 150, socket_idle_ms = 1500, socket_clients = 2;
    child = socket_serve_child(S2R_ROBOT_UR5E, S2R_SCENE_ARM, 1, 0);
    socket_watchdog_ms = 1000, socket_idle_ms = 60000, socket_clients = 1;
    CHECK(child > 0 && pipe(ready) == 0);
    c.address = SOCKET_PATH;
    fflush(stdout);
    if ((holder = fork()) == 0) {   /* mid-episode, then silent 3 s (stopped), then its next call */
        s2r_socket_robot first;
        s2r_sensors sensors;
        if (s2r_socket_robot_connect(&first, &c) != S2R_OK || s2r_backend_reset(&first.backend, NULL, NULL, NULL) != S2R_OK ||
            write(ready[1], "c", 1) != 1)
            _exit(2);
        poll(NULL, 0, 3000);
        _exit(s2r_backend_read_sensors(&first.backend, &sensors) == S2R_ERR_IO &&
              strstr(first.error, "gave the arm to another client") ? 0 : 3);
    }
    CHECK(holder > 0);
    {
        char byte = 0;
        CHECK(read(ready[0], &byte, 1) == 1 && byte == 'c');
    }
    close(ready[0]);
    close(ready[1]);
    c.timeout_ms = 100;   /* within the idle time: busy, saying for how long */
    CHECK(s2r_socket_robot_connect(&s, &c) == S2R_ERR_STATE);
    CHECKF(strstr(s.error, "another client has held this arm") && strstr(s.error, "gives way after 1.5 s between episodes"),
           "%s", s.error);
    c.timeout_ms = 4000;   /* busy above, so it waited for the holder's silence */
    t0 = s2r_seconds();
    CHECKF(s2r_socket_robot_connect(&s, &c) == S2R_OK, "%s", s.error);
    waited = s2r_seconds() - t0;
    CHECKF(waited < 2.5, "connected after %.2f s (the holder silent 1.5 s gives way)", waited);
    CHECK(s2r_backend_reset(&s.backend, NULL, NULL, NULL) == S2R_OK);
    s2r_socket_robot_close(&s);
    CHECKF(waitpid(holder, &status, 0) == holder && WIFEXITED(status) && WEXITSTATUS(status) == 0,
           "the stopped client's next call: status %d", WEXITSTATUS(status));
    CHECK(waitpid(child, &status, 0) == child && WIFEXITED(status) && WEXITSTATUS(status) == 0);
    return 0;
}

/* A connection that says nothing, then one that sends half a header and
   stalls: each is dropped after the watchdog (neither counts as a client),
   and the next client gets the arm. */
static int test_socket_silent_and_half_frames(void) {
    s2r_socket_config c = s2r_socket_config_default();
    s2r_socket_robot s;
    unsigned char half[S2R_SOCKET_MESSAGE_MAX];
    s2r_socket_message hello;
    pid_t child;
    int status, silent, cut;
    double t0;
    socket_watchdog_ms = 200;
    child = socket_serve_child(S2R_ROBOT_UR5E, S2R_SCENE_ARM, 1, 0);
    socket_watchdog_ms = 1000;
    CHECK(child > 0);
    CHECK((silent = socket_raw_connect()) >= 0);
    poll(NULL, 0, 400);   /* dropped by now */
    CHECK((cut = socket_raw_connect()) >= 0);
    memset(&hello, 0, sizeof hello);
    hello.type = S2R_SOCKET_HELLO;
    CHECK(s2r_socket_pack(&hello, half) == S2R_SOCKET_HEADER + S2R_SOCKET_ARM);
    CHECK(send(cut, half, 10, 0) == 10);
    c.address = SOCKET_PATH;
    c.timeout_ms = 3000;
    t0 = s2r_seconds();
    CHECKF(s2r_socket_robot_connect(&s, &c) == S2R_OK, "%s", s.error);
    CHECKF(s2r_seconds() - t0 < 2, "connected after %.2f s", s2r_seconds() - t0);
    CHECK(s2r_backend_reset(&s.backend, NULL, NULL, NULL) == S2R_OK);
    s2r_socket_robot_close(&s);
    close(silent);
    close(cut);
    CHECK(waitpid(child, &status, 0) == child && WIFEXITED(status) && WEXITSTATUS(status) == 0);
    return 0;
}

/* A connection that never says hello holds nothing: with the watchdog at
   its default 1 s, a client whose timeout is shorter still gets the arm
   (the silent one gives way once it has been silent 100 ms); the busy
   reply is only for a client that said hello. */
static int test_socket_silent_gives_way(void) {
    s2r_socket_config c = s2r_socket_config_default();
    s2r_socket_robot s;
    pid_t child;
    int status, silent;
    child = socket_serve_child(S2R_ROBOT_UR5E, S2R_SCENE_ARM, 1, 0);
    CHECK(child > 0);
    CHECK((silent = socket_raw_connect()) >= 0);
    poll(NULL, 0, 150);
    c.address = SOCKET_PATH;
    c.timeout_ms = 500;   /* shorter than the watchdog (1000 ms) */
    CHECKF(s2r_socket_robot_connect(&s, &c) == S2R_OK, "%s", s.error);
    CHECK(s2r_backend_reset(&s.backend, NULL, NULL, NULL) == S2R_OK);
    s2r_socket_robot_close(&s);
    close(silent);
    CHECK(waitpid(child, &status, 0) == child && WIFEXITED(status) && WEXITSTATUS(status) == 0);
    return 0;
}

/* A dangling symbolic link and a FIFO at the address are refused, named
   as what they are, and left as they were. */
static int test_socket_address_link_and_fifo(void) {
    s2r_socket_serve_config c = s2r_socket_serve_config_default();
    s2r_real_robot real;
    char error[S2R_ERROR_LEN];
    struct stat st;
    CHECK(s2r_real_robot_init(&real, S2R_ROBOT_UR5E, 1) == S2R_OK);
    c.address = SOCKET_PATH;
    c.clients = 1;
    unlink(SOCKET_PATH);
    CHECK(symlink(S2R_TEST_TMP "/s2r_test_nowhere", SOCKET_PATH) == 0);
    CHECK(s2r_socket_serve(&real.backend, &c, error) == S2R_ERR_IO);
    CHECKF(strstr(error, "is not a socket (a symbolic link)"), "%s", error);
    CHECK(lstat(SOCKET_PATH, &st) == 0 && S_ISLNK(st.st_mode) && unlink(SOCKET_PATH) == 0);
    CHECK(mkfifo(SOCKET_PATH, 0600) == 0);
    CHECK(s2r_socket_serve(&real.backend, &c, error) == S2R_ERR_IO);
    CHECKF(strstr(error, "is not a socket (a FIFO)"), "%s", error);
    CHECK(lstat(SOCKET_PATH, &st) == 0 && S_ISFIFO(st.st_mode) && unlink(SOCKET_PATH) == 0);
    s2r_real_robot_free(&real);
    return 0;
}

/* A file, or a directory, at the address is refused and left as it was;
   so is the socket of a live server (which goes on serving). */
static int test_socket_address_not_a_socket(void) {
    s2r_socket_serve_config c = s2r_socket_serve_config_default();
    s2r_socket_config sc = s2r_socket_config_default();
    s2r_socket_robot s;
    s2r_real_robot real;
    char error[S2R_ERROR_LEN], text[16] = "";
    FILE* f;
    pid_t child;
    int status;
    CHECK(s2r_real_robot_init(&real, S2R_ROBOT_UR5E, 1) == S2R_OK);
    c.address = SOCKET_PATH;
    c.clients = 1;
    CHECK((f = fopen(SOCKET_PATH, "w")) != NULL && fputs("precious\n", f) >= 0 && fclose(f) == 0);
    CHECK(s2r_socket_serve(&real.backend, &c, error) == S2R_ERR_IO);
    CHECKF(strstr(error, "exists and is not a socket (a file)"), "%s", error);
    CHECK((f = fopen(SOCKET_PATH, "r")) != NULL && fgets(text, sizeof text, f) && fclose(f) == 0);
    CHECK(strcmp(text, "precious\n") == 0);
    CHECK(unlink(SOCKET_PATH) == 0);
    child = socket_serve_child(S2R_ROBOT_UR5E, S2R_SCENE_ARM, 2, 0);
    CHECK(child > 0);
    sc.address = SOCKET_PATH;
    sc.timeout_ms = 3000;
    poll(NULL, 0, 200);   /* the child is listening by now */
    CHECK(s2r_socket_serve(&real.backend, &c, error) == S2R_ERR_IO);
    CHECKF(strstr(error, "another server is live there"), "%s", error);
    CHECKF(s2r_socket_robot_connect(&s, &sc) == S2R_OK, "%s", s.error);
    CHECKF(strcmp(s.backend.name, "socket: real ur5e #2") == 0, "%s", s.backend.name);
    s2r_socket_robot_close(&s);
    CHECK(waitpid(child, &status, 0) == child && WIFEXITED(status) && WEXITSTATUS(status) == 0);
    c.clients = -1;
    CHECK(s2r_socket_serve(&real.backend, &c, error) == S2R_ERR_INVALID_ARGUMENT && strstr(error, "clients >= 0"));
    s2r_real_robot_free(&real);
    return 0;
}

/* A robot side serving UR5e unit #1 to two clients, one after the other,
   and the first of them connected as s (c: its config, 3 s timeout);
   returns the server's pid, or -1 with s->error saying why. */
static pid_t socket_two_clients(s2r_socket_robot* s, s2r_socket_config* c) {
    pid_t child;
    socket_clients = 2;
    child = socket_serve_child(S2R_ROBOT_UR5E, S2R_SCENE_ARM, 1, 0);
    socket_clients = 1;
    c->address = SOCKET_PATH;
    c->timeout_ms = 3000;
    if (child < 0) snprintf(s->error, sizeof s->error, "fork failed");
    if (child < 0 || s2r_socket_robot_connect(s, c) != S2R_OK) return -1;
    return child;
}

/* Errors are per request: a client's failure does not reach the next
   client as its text; a request before hello, or for another arm's
   joints, is answered with an error of its own. */
static int test_socket_errors_per_request(void) {
    s2r_socket_config c = s2r_socket_config_default();
    s2r_socket_robot s;
    s2r_socket_message m;
    double q[S2R_MAX_JOINTS];
    pid_t child;
    int status, fd;
    CHECKF((child = socket_two_clients(&s, &c)) > 0, "%s", s.error);
    CHECK(s2r_backend_reset(&s.backend, NULL, NULL, NULL) == S2R_OK);
    memcpy(q, s.arm.info.q_home, sizeof q);
    q[1] = NAN;
    CHECK(s2r_backend_command(&s.backend, q) == S2R_ERR_INVALID_ARGUMENT && strstr(s.error, "robot side: command: "));
    s2r_socket_robot_close(&s);
    CHECK((fd = socket_raw_connect()) >= 0);   /* no hello: refused, and not a client */
    memset(&m, 0, sizeof m);
    CHECK(socket_raw_call(fd, S2R_SOCKET_SENSORS, &m) == S2R_OK);
    CHECKF(m.reply && m.status == S2R_ERR_STATE && strstr(m.text, "sensors before hello"), "%s", m.text);
    close(fd);
    CHECK((fd = socket_raw_connect()) >= 0);
    socket_hello_of(S2R_ROBOT_UR5E, &m);
    CHECK(socket_raw_call(fd, S2R_SOCKET_HELLO, &m) == S2R_OK && m.status == S2R_OK && m.n_joints == 6);
    memset(&m, 0, sizeof m);
    m.xy[0] = 0.5;
    CHECK(socket_raw_call(fd, S2R_SOCKET_PLACE, &m) == S2R_OK);
    CHECKF(m.status == S2R_ERR_UNSUPPORTED && strcmp(m.text, "place: this arm has no object to place (not the push scene)") == 0,
           "%s", m.text);
    memset(&m, 0, sizeof m);
    m.q[7] = 0.5;   /* an eighth joint: another arm's command */
    CHECK(socket_raw_call(fd, S2R_SOCKET_COMMAND, &m) == S2R_OK);
    CHECKF(m.status == S2R_ERR_INVALID_ARGUMENT && strstr(m.text, "q of joint 8 is 0.5, but the arm has 6 joints"), "%s", m.text);
    close(fd);
    CHECK(waitpid(child, &status, 0) == child && WIFEXITED(status) && WEXITSTATUS(status) == 0);
    return 0;
}

/* A second connect on a connected struct is refused (it keeps working);
   calls after close, or after a failed connect, are S2R_ERR_STATE; closing
   twice is nothing; a closed struct connects again. */
static int test_socket_connect_twice_and_after_close(void) {
    s2r_socket_config c = s2r_socket_config_default();
    s2r_socket_robot s;
    s2r_sensors r;
    pid_t child;
    int status;
    CHECKF((child = socket_two_clients(&s, &c)) > 0, "%s", s.error);
    CHECK(s2r_socket_robot_connect(&s, &c) == S2R_ERR_STATE);
    CHECKF(strstr(s.error, "still open (socket: real ur5e #1)") && strstr(s.error, "close it before"), "%s", s.error);
    CHECK(s2r_backend_reset(&s.backend, NULL, NULL, NULL) == S2R_OK && s2r_backend_read_sensors(&s.backend, &r) == S2R_OK);
    s2r_socket_robot_close(&s);
    CHECK(s2r_backend_read_sensors(&s.backend, &r) == S2R_ERR_STATE && strstr(s.error, "it was closed"));
    CHECK(s2r_backend_command(&s.backend, r.q) == S2R_ERR_STATE && s2r_backend_halt(&s.backend) == S2R_ERR_STATE);
    s2r_socket_robot_close(&s);
    CHECKF(s2r_socket_robot_connect(&s, &c) == S2R_OK, "%s", s.error);
    CHECK(s2r_backend_reset(&s.backend, NULL, NULL, NULL) == S2R_OK);
    s2r_socket_robot_close(&s);
    CHECK(waitpid(child, &status, 0) == child && WIFEXITED(status) && WEXITSTATUS(status) == 0);
    c.address = S2R_TEST_TMP "/s2r_test_no_such.sock";
    c.timeout_ms = 50;
    CHECK(s2r_socket_robot_connect(&s, &c) == S2R_ERR_IO);
    CHECK(s2r_backend_reset(&s.backend, NULL, NULL, NULL) == S2R_ERR_STATE && strstr(s.error, "never connected: cannot connect"));
    s2r_socket_robot_close(&s);
    return 0;
}

/* A client that goes mid-episode (the arm moving) gets the arm halted; the
   next client starts its own episode on it.  The robot side's log tells
   the first, gone without a bye, lost mid-episode from the second, which
   closed (bye) and finished. */
static int test_socket_client_gone_mid_episode(void) {
    s2r_socket_config c = s2r_socket_config_default();
    s2r_socket_robot s;
    s2r_sensors a, b;
    double q[S2R_MAX_JOINTS];
    char log_path[128], text[2048];
    pid_t child;
    int status;
    snprintf(log_path, sizeof log_path, "%s.gone.log", SOCKET_PATH);
    socket_log_path = log_path;
    child = socket_two_clients(&s, &c);
    socket_log_path = NULL;
    CHECKF(child > 0, "%s", s.error);
    CHECK(s2r_backend_reset(&s.backend, NULL, NULL, NULL) == S2R_OK);
    memcpy(q, s.arm.info.q_home, sizeof q);
    q[0] += 0.5;
    CHECK(s2r_backend_command(&s.backend, q) == S2R_OK && s2r_backend_advance(&s.backend, 0.05) == S2R_OK);
    close(s.fd);   /* gone without a word, mid-motion */
    s.fd = -1;
    s2r_socket_robot_close(&s);
    CHECKF(s2r_socket_robot_connect(&s, &c) == S2R_OK, "%s", s.error);
    CHECK(s2r_backend_read_sensors(&s.backend, &a) == S2R_OK);
    CHECK(s2r_backend_command(&s.backend, q) == S2R_OK && s2r_backend_advance(&s.backend, 0.3) == S2R_OK);
    CHECK(s2r_backend_read_sensors(&s.backend, &b) == S2R_OK);
    /* the brakes' tail (the arm was moving at 1-2 rad/s when they closed) is
       a centiradian; driven, the same command moves it past 0.2 rad below */
    CHECKF(fabs(b.q[0] - a.q[0]) < 0.05, "halted, yet joint 1 moved %g rad", b.q[0] - a.q[0]);
    CHECK(s2r_backend_reset(&s.backend, NULL, NULL, NULL) == S2R_OK);
    CHECK(s2r_backend_command(&s.backend, q) == S2R_OK && s2r_backend_advance(&s.backend, 0.3) == S2R_OK);
    CHECK(s2r_backend_read_sensors(&s.backend, &b) == S2R_OK && b.q[0] - s.arm.info.q_home[0] > 0.2);
    s2r_socket_robot_close(&s);   /* mid-episode too, but with a bye */
    CHECK(waitpid(child, &status, 0) == child && WIFEXITED(status) && WEXITSTATUS(status) == 0);
    socket_read_text(log_path, text, sizeof text);
    remove(log_path);
    CHECKF(strstr(text, "robot side: client 1 lost mid-episode: its connection closed without a bye (the client killed, or the "
                  "network), the arm halted\n") && strstr(text, "robot side: client 2 finished (it said bye), the arm halted\n") &&
           !strstr(text, "client 2 lost"), "%s", text);
    return 0;
}
#endif

/* Addresses are read strictly: "TCP:" is not a path, a port with a sign
   or a leading zero, an octet with one or a blank are refused, and
   tcp:0.0.0.0 (every interface, no authentication) is refused on both
   sides; the serve config's ready_fd defaults to none (-1), not stdin. */
static int test_socket_strict_addresses(void) {
    static const struct { const char* address; const char* says; } bad[] = {
        {"TCP:localhost:5555", "write tcp: in lower case"},
        {"Tcp:127.0.0.1:5555", "write tcp: in lower case"},
        {"tcp:localhost:+5555", "PORT a decimal 1 to 65535 without sign or leading zero"},
        {"tcp:localhost:05555", "without sign or leading zero"},
        {"tcp:localhost: 5555", "without sign or leading zero"},
        {"tcp:localhost:0", "PORT a decimal 1 to 65535"},
        {"tcp:localhost:", "expected tcp:HOST:PORT"},
        {"tcp:01.0.0.1:5555", "four decimals 0 to 255, no leading zeros"},
        {"tcp:+1.0.0.1:5555", "HOST must be localhost or a numeric IPv4 address"},
        {"tcp: 127.0.0.1:5555", "HOST must be localhost"},
        {"tcp:127.0.0:5555", "HOST must be localhost"},
        {"tcp:127.0.0.1.1:5555", "HOST must be localhost"},
        {"tcp:256.0.0.1:5555", "HOST must be localhost"},
        {"tcp:0.0.0.0:5555", "0.0.0.0 is every network interface - anyone who reaches this machine could drive the arm"},
    };
    s2r_socket_config c = s2r_socket_config_default();
    s2r_socket_serve_config sc = s2r_socket_serve_config_default();
    s2r_socket_robot s;
    s2r_real_robot real;
    s2r__socket_addr a;
    socklen_t len;
    char e[S2R_ERROR_LEN];
    int i;
    CHECK(sc.ready_fd == -1 && sc.log == NULL);
    c.timeout_ms = 50;
    for (i = 0; i < (int)(sizeof bad / sizeof *bad); i++) {
        c.address = bad[i].address;
        CHECKF(s2r_socket_robot_connect(&s, &c) == S2R_ERR_INVALID_ARGUMENT && strstr(s.error, bad[i].says) &&
               strstr(s.error, bad[i].address), "%s: %s", bad[i].address, s.error);
    }
    CHECK(s2r__socket_address("tcp:10.0.0.1:80", &a, &len, e) == S2R_OK && ntohs(a.in.sin_port) == 80 &&
          ntohl(a.in.sin_addr.s_addr) == 0x0a000001u);
    CHECK(s2r__socket_address("tcp:localhost:65535", &a, &len, e) == S2R_OK && ntohl(a.in.sin_addr.s_addr) == 0x7f000001u);
    CHECK(s2r__socket_address("tcp:0.0.0.1:5", &a, &len, e) == S2R_OK);
    CHECK(s2r__socket_address("tcp:1.2.3.4:99999", &a, &len, e) == S2R_ERR_INVALID_ARGUMENT);
    CHECK(s2r_real_robot_init(&real, S2R_ROBOT_UR5E, 1) == S2R_OK);
    sc.address = "tcp:0.0.0.0:5555";
    sc.clients = 1;
    CHECKF(s2r_socket_serve(&real.backend, &sc, e) == S2R_ERR_INVALID_ARGUMENT && strstr(e, "no authentication"), "%s", e);
    sc.address = "TCP:localhost:5555";
    CHECKF(s2r_socket_serve(&real.backend, &sc, e) == S2R_ERR_INVALID_ARGUMENT && access("TCP:localhost:5555", F_OK) != 0,
           "%s", e);
    s2r_real_robot_free(&real);
    return 0;
}

/* The arm moved before any reset is watched too: a client that commands
   and advances after its hello, then falls silent past the watchdog, gets
   the arm halted and its next command refused naming the watchdog; and
   the robot side logs it all - the client's coming, the halt, its going. */
static int test_socket_watchdog_before_reset_and_log(void) {
    s2r_socket_config c = s2r_socket_config_default();
    s2r_socket_robot s;
    char log_path[128], text[2048];
    double q[S2R_MAX_JOINTS];
    FILE* f;
    size_t n;
    pid_t child;
    int status;
    snprintf(log_path, sizeof log_path, "%s.log", SOCKET_PATH);
    socket_watchdog_ms = 100;
    socket_log_path = log_path;
    child = socket_serve_child(S2R_ROBOT_UR5E, S2R_SCENE_ARM, 1, 0);
    socket_watchdog_ms = 1000;
    socket_log_path = NULL;
    CHECK(child > 0);
    c.address = SOCKET_PATH;
    CHECKF(s2r_socket_robot_connect(&s, &c) == S2R_OK, "%s", s.error);
    memcpy(q, s.arm.info.q_home, sizeof q);
    q[0] += 0.2;
    CHECKF(s2r_backend_command(&s.backend, q) == S2R_OK && s2r_backend_advance(&s.backend, 0.02) == S2R_OK, "%s", s.error);
    poll(NULL, 0, 300);   /* three watchdog periods of silence, no reset ever sent */
    CHECKF(s2r_backend_command(&s.backend, q) == S2R_ERR_STATE && strstr(s.error, "watchdog halted the arm"), "%s", s.error);
    CHECK(s2r_backend_reset(&s.backend, NULL, NULL, NULL) == S2R_OK && s2r_backend_command(&s.backend, q) == S2R_OK);
    s2r_socket_robot_close(&s);
    CHECK(waitpid(child, &status, 0) == child && WIFEXITED(status) && WEXITSTATUS(status) == 0);
    f = fopen(log_path, "rb");
    CHECK(f);
    n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    remove(log_path);
    text[n] = '\0';
    CHECKF(strstr(text, "robot side: client 1 connected (hello answered)\n") &&
           strstr(text, "robot side: client 1: watchdog halted the arm: no request for 100 ms mid-episode") &&
           strstr(text, "robot side: client 1 finished (it said bye), the arm halted\n"), "%s", text);
    return 0;
}

/* robot_server.py too: the arm moved after the hello and no reset, then
   silence past its watchdog, is halted; the next command is the
   watchdog's error, and its log says so. */
static int test_socket_python_watchdog_before_reset(void) {
    s2r_socket_config c = s2r_socket_config_default();
    s2r_socket_robot s;
    char log_path[128], text[4096];
    double q[S2R_MAX_JOINTS] = {0};
    FILE* f;
    size_t n;
    pid_t child;
    int status;
    snprintf(log_path, sizeof log_path, "%s.pylog", SOCKET_PATH);
    fflush(stdout);
    child = fork();
    if (child == 0) {
        if (!freopen(log_path, "w", stdout)) _exit(126);
        execlp("python3", "python3", "examples/robot_server.py", SOCKET_PATH, "--clients", "1", "--watchdog-ms", "100",
               (char*)NULL);
        _exit(127);
    }
    CHECK(child > 0);
    c.address = SOCKET_PATH;
    c.timeout_ms = 5000;   /* the interpreter's start */
    CHECKF(s2r_socket_robot_connect(&s, &c) == S2R_OK, "%s", s.error);
    memcpy(q, s.arm.info.q_home, sizeof q);
    CHECK(s2r_backend_command(&s.backend, q) == S2R_OK);
    poll(NULL, 0, 400);
    CHECKF(s2r_backend_advance(&s.backend, 0.02) == S2R_ERR_STATE && strstr(s.error, "watchdog halted the arm"), "%s", s.error);
    s2r_socket_robot_close(&s);
    CHECK(waitpid(child, &status, 0) == child && WIFEXITED(status) && WEXITSTATUS(status) == 0);
    f = fopen(log_path, "rb");
    CHECK(f);
    n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    remove(log_path);
    text[n] = '\0';
    CHECKF(strstr(text, "client 1 connected (hello answered)\n") &&
           strstr(text, "client 1: watchdog halted the arm: no request for 100 ms mid-episode") &&
           strstr(text, "client 1 finished (it said bye), the arm halted"), "%s", text);
    return 0;
}


#ifdef SOCKET_TESTS
/* A file's text (at most cap - 1 bytes), "" if unreadable. */
static const char* socket_read_text(const char* path, char* text, size_t cap) {
    FILE* f = fopen(path, "rb");
    size_t n = f ? fread(text, 1, cap - 1, f) : 0;
    if (f) fclose(f);
    text[n] = '\0';
    return text;
}

/* examples/arm4.xml with `from` replaced by `to`, written to `path`. */
static int socket_arm4_variant(const char* path, const char* from, const char* to) {
    static char xml[16384];
    char* at;
    FILE* f;
    socket_read_text("examples/arm4.xml", xml, sizeof xml);
    if (!(at = strstr(xml, from)) || !(f = fopen(path, "w"))) return 0;
    fprintf(f, "%.*s%s%s", (int)(at - xml), xml, to, at + strlen(from));
    return fclose(f) == 0;
}

/* The robot side in a child: the nominal simulator of the MJCF at `mjcf`
   (robot_server --mjcf), `clients` clients, its log at `log_path`. */
static pid_t socket_serve_sim_child(const char* mjcf, int clients, const char* log_path) {
    pid_t child;
    (void)SOCKET_PATH;
    fflush(stdout);
    child = fork();
    if (child == 0) {
        s2r_socket_serve_config c = s2r_socket_serve_config_default();
        s2r_sim_config sc = s2r_sim_config_default(S2R_ROBOT_CUSTOM);
        s2r_sim sim;
        sc.mjcf_path = mjcf;
        if (s2r_sim_init(&sim, &sc) != S2R_OK) _exit(2);
        c.address = SOCKET_PATH;
        c.clients = clients;
        if (log_path && !(c.log = fopen(log_path, "w"))) _exit(2);
        _exit(s2r_socket_serve(s2r_sim_backend(&sim), &c, NULL) == S2R_OK ? 0 : 2);
    }
    return child;
}

/* Two sides that load different arms refuse each other, the message
   naming both: a custom arm whose joint range differs (the robot side
   refuses its hello), one of the same joints but another link length
   (their model digests differ), a robot side that does not check and
   announces another arm (the client refuses its answer); the same MJCF
   connects, and the robot side's log names what it refused. */
static int test_socket_another_arm_refused(void) {
    s2r_socket_config c = s2r_socket_config_default();
    s2r_socket_robot s;
    char range[128], link[128], log_path[128], text[4096];
    pid_t child;
    int status;
    snprintf(range, sizeof range, "%s.range.xml", SOCKET_PATH);
    snprintf(link, sizeof link, "%s.link.xml", SOCKET_PATH);
    snprintf(log_path, sizeof log_path, "%s.arm.log", SOCKET_PATH);
    CHECK(socket_arm4_variant(range, "name='elbow' range='-2.6 2.6'", "name='elbow' range='-2.5 2.5'"));
    CHECK(socket_arm4_variant(link, "name='forearm_link' pos='0 0 0.3'", "name='forearm_link' pos='0 0 0.32'"));
    child = socket_serve_sim_child("examples/arm4.xml", 1, log_path);
    CHECK(child > 0);
    c.address = SOCKET_PATH;
    c.timeout_ms = 3000;
    c.robot = S2R_ROBOT_CUSTOM;
    c.mjcf_path = range;
    CHECK(s2r_socket_robot_connect(&s, &c) == S2R_ERR_MODEL);
    CHECKF(strstr(s.error, "the robot side refused this arm: joint 3 is 'elbow' [-2.5000, 2.5000] rad in the client's "
                  "'arm4', 'elbow' [-2.6000, 2.6000] in this robot side's 'arm4'") &&
           strstr(s.error, "this side loaded ") && strstr(s.error, ".range.xml: load the same arm on both sides"), "%s", s.error);
    CHECK(s2r_backend_reset(&s.backend, NULL, NULL, NULL) == S2R_ERR_STATE);
    c.mjcf_path = link;
    CHECK(s2r_socket_robot_connect(&s, &c) == S2R_ERR_MODEL);
    CHECKF(strstr(s.error, "the client's 'arm4' and this robot side's 'arm4' have the same joints but not the same kinematics or "
                  "actuators (model digests "), "%s", s.error);
    c.mjcf_path = "examples/arm4.xml";   /* the same file: connects (the refused were not clients) */
    CHECKF(s2r_socket_robot_connect(&s, &c) == S2R_OK, "%s", s.error);
    CHECK(s2r_backend_reset(&s.backend, NULL, NULL, NULL) == S2R_OK);
    s2r_socket_robot_close(&s);
    CHECK(waitpid(child, &status, 0) == child && WIFEXITED(status) && WEXITSTATUS(status) == 0);
    socket_read_text(log_path, text, sizeof text);
    CHECKF(strstr(text, "robot side: a connection refused: its hello names another arm: joint 3 is 'elbow' [-2.5000, 2.5000] rad "
                  "in the client's 'arm4', 'elbow' [-2.6000, 2.6000] in this robot side's 'arm4'\n") &&
           strstr(text, "robot side: a connection refused: its hello names another arm: the client's 'arm4' and this robot side's "
                  "'arm4' have the same joints but not the same kinematics") &&
           strstr(text, "robot side: client 1 connected (hello answered)\n"), "%s", text);
    remove(range);
    remove(link);
    remove(log_path);
    /* a robot side that does not check, announcing another joint: the client refuses */
    socket_bad_joint = "evil_joint";
    child = socket_bad_child(0);
    socket_bad_joint = NULL;
    CHECK(child > 0);
    c = s2r_socket_config_default();
    c.address = SOCKET_PATH;
    CHECK(s2r_socket_robot_connect(&s, &c) == S2R_ERR_MODEL);
    CHECKF(strstr(s.error, "the robot side serves another arm: joint 1 is 'shoulder_pan' [-6.2832, 6.2832] rad in this side's "
                  "'ur5e', 'evil_joint' [-6.2832, 6.2832] in the robot side's 'ur5e' (this side loaded the built-in ur5e)"),
           "%s", s.error);
    CHECK(s.fd == -1);
    CHECK(waitpid(child, &status, 0) == child);
    return 0;
}

/* A client of protocol 1 is told, in protocol 1's header, that this robot
   side speaks protocol 2 (and is not a client: the next one is served). */
static int test_socket_old_protocol_refused(void) {
    static const unsigned char v1_hello[S2R_SOCKET_HEADER] = {'S', '2', 'R', 'S', 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    unsigned char answer[S2R_SOCKET_HEADER + S2R_SOCKET_TEXT];
    s2r_socket_config c = s2r_socket_config_default();
    s2r_socket_robot s;
    s2r_socket_message m;
    char error[S2R_ERROR_LEN];
    pid_t child = socket_serve_child(S2R_ROBOT_UR5E, S2R_SCENE_ARM, 1, 0);
    int status, fd;
    CHECK(child > 0);
    CHECK((fd = socket_raw_connect()) >= 0);
    CHECK(s2r__socket_move(fd, (unsigned char*)v1_hello, sizeof v1_hello, 1, s2r__socket_ms() + 2000, NULL) == S2R_OK);
    CHECK(s2r__socket_move(fd, answer, sizeof answer, 0, s2r__socket_ms() + 2000, NULL) == S2R_OK);
    close(fd);
    CHECK(answer[4] == 1 && answer[5] == 0 && answer[6] == S2R_SOCKET_HELLO && answer[7] == 1);   /* protocol 1's header */
    answer[4] = S2R_SOCKET_VERSION;   /* read here as this version's (the same layout) */
    CHECKF(s2r_socket_parse(answer, sizeof answer, &m, error) == S2R_OK, "%s", error);
    CHECKF(m.status == S2R_ERR_UNSUPPORTED && strstr(m.text, "socket protocol 1: this robot side speaks protocol 2"), "%s", m.text);
    c.address = SOCKET_PATH;
    CHECKF(s2r_socket_robot_connect(&s, &c) == S2R_OK, "%s", s.error);
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
    {"socket: a silent robot side times out, NaN readings and a joint far outside its range are refused", test_socket_timeout_and_nan},
    {"socket: the wrong arm in the handshake, no server, a bad address", test_socket_wrong_arm},
    {"socket: a client silent mid-episode past the watchdog (signals arriving) gets the arm halted and the episode's error",
     test_socket_watchdog_halts},
    {"socket: one client at a time; another is told busy within its timeout, or queued until the first goes",
     test_socket_one_client_at_a_time},
    {"socket: a silent connection and half a frame are dropped after the watchdog; the next client gets the arm",
     test_socket_silent_and_half_frames},
    {"socket: a file at the address and a live server's socket are refused, left as they were",
     test_socket_address_not_a_socket},
    {"socket: errors per request (not the last client's), before hello, another arm's joints",
     test_socket_errors_per_request},
    {"socket: a second connect on a connected struct refused; calls after close or a failed connect S2R_ERR_STATE",
     test_socket_connect_twice_and_after_close},
    {"socket: a client gone mid-episode gets the arm halted; the next client's episode runs",
     test_socket_client_gone_mid_episode},
    {"socket: a connection that never says hello gives way to a client (no busy for the silent)", test_socket_silent_gives_way},
    {"socket: a client stopped mid-episode gives the arm to the next one after idle_ms (busy says when)",
     test_socket_stopped_client_gives_way},
    {"socket: a dangling symbolic link or a FIFO at the address refused as what it is, left as it was",
     test_socket_address_link_and_fifo},
    {"socket: examples/robot_server.py speaks the protocol (its fake arm follows, halts, refuses NaN)",
     test_socket_python_robot_side},
    {"socket: addresses read strictly (TCP:, signs, leading zeros, blanks); tcp:0.0.0.0 refused on both sides",
     test_socket_strict_addresses},
    {"socket: commands before the first reset are watched by the watchdog; the robot side logs its clients",
     test_socket_watchdog_before_reset_and_log},
    {"socket: robot_server.py's watchdog watches commands before the first reset too, and logs the halt",
     test_socket_python_watchdog_before_reset},
    {"socket: two sides loading different arms refuse each other (a joint range, a link length, an unchecking robot side)",
     test_socket_another_arm_refused},
    {"socket: a client of protocol 1 is told, in its own header, that the robot side speaks protocol 2",
     test_socket_old_protocol_refused},
#endif
};
