/* sim2real_socket.h - a robot in another process: the socket backend
                       (a companion header of sim2real.h)

   What carries the backend interface between processes, and is not the
   recipe: the wire format, the pipeline's side (s2r_socket_robot, a
   backend like the simulators and the stand-in units, so system
   identification, evaluation, demonstrations and deployment run on it
   unchanged) and the robot side (s2r_socket_serve, which serves any
   backend: examples/robot_server.c serves a stand-in unit with it;
   examples/robot_server.py is the same protocol in Python, where your
   arm's driver calls go).  The protocol is in the declarations below.

   Including it.  After sim2real.h, in every file that uses it:
       #define SIM2REAL_IMPLEMENTATION    // in one file only
       #include "sim2real.h"
       #include "sim2real_socket.h"
   The one SIM2REAL_IMPLEMENTATION compiles this header's implementation
   too; the rules, and the #error that a wrong order stops with, are in
   sim2real.h's manual, section 8.  Needs POSIX sockets (without them every
   call is S2R_ERR_UNSUPPORTED) and nothing else than sim2real.h needs.
*/
#ifndef SIM2REAL_H
#error "include sim2real.h before sim2real_socket.h"
#endif
#ifndef SIM2REAL_SOCKET_H
#define SIM2REAL_SOCKET_H

/* ==========================================================================
   Socket backend: a robot in another process
   ========================================================================== */

/* --- A robot in another process: the socket backend -------------------------
   Your arm's driver (RTDE, libfranka, a ROS 2 node) runs in its own process
   and serves the backend interface over a socket; s2r_socket_robot is the
   pipeline's side, a backend like the others, so system identification,
   evaluation, demonstrations and deployment run on it unchanged.
   s2r_socket_serve is the robot side for any backend (examples/
   robot_server.c serves a stand-in unit with it; examples/robot_server.py
   is the same protocol in Python, where your driver code goes).

   Protocol version 2: one request, one reply (but bye), over a
   Unix-domain socket
   (address "PATH") or TCP ("tcp:HOST:PORT", HOST numeric IPv4 or
   localhost; strict: "tcp:" in lower case, decimals without sign, blank
   or leading zero, PORT 1 to 65535; 0.0.0.0 refused - it serves every
   interface, and the protocol has no authentication: serve on the one
   interface the pipeline's machine reaches).  Binary, fixed-size, little-endian: doubles travel as their
   8 IEEE-754 bytes, so what the robot side measures arrives bit for bit
   (text would round).  Every message is a 16-byte header and a payload
   whose size the header's type fixes:

     header    u32 magic "S2RS" (0x53523253)   u16 version 2
               u8 type   u8 direction (0 request, 1 reply)
               i32 status (requests 0; replies S2R_OK or an S2R_ERR_* code
               of the robot side)   u32 payload bytes
     arm       (in both hellos, 440 bytes: the arm that side loaded)
               i32 kind, scene, n_joints, 0; u64 digest
               (s2r_socket_arm_digest; 0: not computed); char model[32]
               (the MJCF's model name); char joint[8][32] (joint names);
               f64 q_min[8], q_max[8] (rad, the joint ranges)
     type      request payload                 reply payload (status 0)
     1 hello   arm (this side's)               arm (the robot side's);
                                               f64 period (s, its servo
                                               cycle); char name[48]
     2 reset   u32 flags (1 q0, 2 target,       u64 rng[4], the generator
               4 rng), 0; f64 q0[8],            after the robot side's
               target[3]; u64 rng[4]            draws (echo it if none)
     3 command f64 q_target[8] (rad)           -
     4 advance f64 seconds                     -
     5 sensors -                               f64 time, q[8], qd[8],
                                               tau[8], target[3], object[3]
     6 truth   -                               f64 flange[3], flange_vel[3],
                                               target[3], q[8]; i32 diverged,
                                               0; f64 tip[3], tip_vel[3],
                                               object[3], object_vel[3]
     7 halt    -                               -
     8 place   f64 xy[2] (m)                   -
     9 bye     -                               (none: the client closes)
     a reply with status < 0 carries instead char text[128], the robot
     side's message (the connection stays up: a diverged episode is
     an answer, not a fault)

   Joint arrays always have 8 slots (those past n_joints are 0, and their
   names empty: a nonzero one is another arm's joint count, refused both
   ways).  The client opens with hello, announcing the arm it loaded; the
   robot side answers with its own or refuses another arm (S2R_ERR_MODEL,
   its text naming both), and the client checks the answer the same way,
   so neither side drives an arm it did not load.  The same arm: the same
   kind and scene (a custom arm: any scene), joint count, joint names and
   ranges (within S2R_SOCKET_RANGE_TOL) and, where both sides computed it,
   the same digest of the model's kinematics and actuators - a custom arm:
   the same MJCF on both sides.  A robot side that does not load the MJCF
   (a driver, examples/robot_server.py) announces its names and ranges and
   digest 0.  Another protocol version is refused both ways: a robot side
   answers a hello of another version with an error reply in that
   version's header (status S2R_ERR_UNSUPPORTED, naming both versions)
   and closes; a client told so, or closed on by an older robot side that
   cannot answer, says to rebuild both from one sim2real_socket.h.
   Every reply must come within timeout_ms (an advance: plus its seconds,
   which a real arm takes in wall time).  A timeout, a peer gone, a
   malformed or truncated message, a reading that is not a number or is
   beyond S2R_SOCKET_READING_MAX (sensors and ground truth alike) is
   S2R_ERR_IO or S2R_ERR_CORRUPT with a message: the client sends a halt if
   it still can and closes, and every later call is S2R_ERR_STATE naming
   that first failure (so is every call after s2r_socket_robot_close or a
   failed connect).  s2r_socket_robot_close says bye first: the robot side
   tells a client that finished from one lost (its log).  Text from the
   other side (names, an error reply's message) is kept printable: other
   bytes arrive as \xNN.

   One client at a time.  The robot side belongs to the client whose hello
   it answered until that client goes; a connection that sends no hello
   within watchdog_ms is dropped, and one that arrives while another client
   holds the arm gets its hello answered S2R_ERR_STATE "busy: ..." (for
   how long it has been held) at once and is closed; a connection that
   has not said hello 100 ms after it came gives way to the next one.  The client's connect
   tries again every 50 ms until its timeout_ms is up (the queue timeout),
   then fails naming the busy robot.  The robot side halts its arm whenever
   its client goes (bye, end of file, a bad message) or falls silent for
   watchdog_ms mid-episode (from a reset, or the first command, advance
   or place - before any reset too -, to a halt); after such a
   halt every request of that episode but halt is answered S2R_ERR_STATE
   naming the watchdog, until the next reset: the episode is the client's
   error, never a result on a halted arm.  So a client halts its episode
   before work of its own that outlasts the watchdog (06 does between
   stages).  Between episodes a client may be silent as long as nobody
   else wants the arm; once it has been silent idle_ms, the next client
   to connect takes the arm and the silent one's connection is closed (a
   client stopped, SIGSTOPped or hung holds the robot no longer: its next
   call fails saying the robot side closed the connection).  Without POSIX sockets every call here is
   S2R_ERR_UNSUPPORTED. */

#define S2R_SOCKET_VERSION 2
#define S2R_SOCKET_JOINTS 8           /* joint slots in every message          */
#define S2R_SOCKET_HEADER 16          /* bytes                                 */
#define S2R_SOCKET_TEXT 128           /* bytes of an error reply's message     */
#define S2R_SOCKET_NAME 32            /* bytes of a model's or joint's name    */
#define S2R_SOCKET_ARM (16 + 8 + S2R_SOCKET_NAME * (1 + S2R_SOCKET_JOINTS) + 16 * S2R_SOCKET_JOINTS)   /* 440 */
#define S2R_SOCKET_MESSAGE_MAX (S2R_SOCKET_HEADER + S2R_SOCKET_ARM + 56)   /* the largest: hello's reply */
#define S2R_SOCKET_RANGE_TOL 1e-3     /* rad: joint ranges announced in the hellos
                                         may differ this much (a driver's typed
                                         copy of the MJCF's), not more          */
#define S2R_SOCKET_READING_MAX 1e6    /* largest magnitude of a reading (m, rad, m/s,
                                         rad/s, N m; not time): beyond it no arm
                                         measures, it is a unit or encoding error */

typedef enum s2r_socket_type {
    S2R_SOCKET_HELLO = 1, S2R_SOCKET_RESET, S2R_SOCKET_COMMAND, S2R_SOCKET_ADVANCE,
    S2R_SOCKET_SENSORS, S2R_SOCKET_TRUTH, S2R_SOCKET_HALT, S2R_SOCKET_PLACE, S2R_SOCKET_BYE,
    S2R_SOCKET_TYPE_END
} s2r_socket_type;

/* One message, decoded.  Only the fields of its type and direction are set. */
typedef struct s2r_socket_message {
    s2r_socket_type  type;
    int              reply;                       /* 0 request, 1 reply          */
    s2r_result       status;                      /* replies: the robot side's   */
    char             text[S2R_SOCKET_TEXT];       /* status < 0: its message     */
    int              version;                     /* the header's (set before a
                                                     message of another version
                                                     is refused)                */
    int              kind, scene, n_joints;       /* hello, both directions      */
    uint64_t         digest;                      /* hello: 0 if not computed    */
    char             model[S2R_SOCKET_NAME];      /* hello: the model's name     */
    char             joint_name[S2R_SOCKET_JOINTS][S2R_SOCKET_NAME];   /* hello   */
    double           q_min[S2R_SOCKET_JOINTS];    /* hello: rad, joint ranges    */
    double           q_max[S2R_SOCKET_JOINTS];    /* hello: rad                  */
    double           period;                      /* hello reply: s              */
    char             name[48];                    /* hello reply: the unit's     */
    unsigned         flags;                       /* reset: 1 q, 2 target, 4 rng */
    double           q[S2R_SOCKET_JOINTS];        /* reset: q0; command: targets */
    double           target[3];                   /* reset                       */
    uint64_t         rng[4];                      /* reset, both directions      */
    double           seconds;                     /* advance                     */
    double           xy[2];                       /* place                       */
    s2r_sensors      sensors;                     /* sensors reply               */
    s2r_ground_truth truth;                       /* truth reply                 */
} s2r_socket_message;

/* Decode one whole message from n bytes (header and payload, nothing
   else).  S2R_ERR_CORRUPT naming the fault: wrong magic or version (m->version
   is set to the header's before that), an unknown type, a bye reply, a
   size that is not the type's, a reading (sensors or ground truth, unless
   it says diverged) or period that is not a number or a reading beyond
   S2R_SOCKET_READING_MAX, a hello's arm out of range (kind, scene, joint
   count; a range not finite, beyond S2R_SOCKET_READING_MAX or with min >
   max; a joint slot past the count with a name or range).  Text (names,
   message) is kept printable, other bytes as \xNN.  The socket's reader
   and the fuzz harness both call it. */
S2RDEF s2r_result s2r_socket_parse(const unsigned char* bytes, size_t n, s2r_socket_message* m, char* error);
/* Encode m into bytes[S2R_SOCKET_MESSAGE_MAX]; returns the size. */
S2RDEF size_t     s2r_socket_pack(const s2r_socket_message* m, unsigned char* bytes);
/* What a hello says of the arm `info` describes: a digest of its model as
   compiled (info->model) - each body's position and orientation, each
   joint's type, position, axis and range, each actuator's gains, gear and
   ranges, each site's position, the names - rounded to 1e-6 (m, rad), so
   two processes loading the same MJCF agree and another arm, or another
   version of the file, does not; never 0 (which a hello sends for "not
   computed").  Masses, inertias, damping and friction are left out: they
   are what system identification measures, not what names the arm.
   0 when info has no model. */
S2RDEF uint64_t   s2r_socket_arm_digest(const s2r_arm_info* info);

typedef struct s2r_socket_config {
    const char*    address;      /* "PATH" (Unix socket) or "tcp:HOST:PORT"; NULL */
    int            timeout_ms;   /* each reply within this (advance: plus its
                                    seconds); 1000                               */
    s2r_robot_kind robot;        /* the arm expected; S2R_ROBOT_UR5E             */
    s2r_scene      scene;        /* S2R_SCENE_ARM                                */
    const char*    mjcf_path;    /* S2R_ROBOT_CUSTOM: its MJCF; NULL             */
} s2r_socket_config;

typedef struct s2r_socket_robot {
    s2r_backend backend;         /* the door the pipeline uses                   */
    s2r_robot   arm;             /* the arm's model here, for kinematics         */
    int         fd;              /* -1 once closed                               */
    int         timeout_ms;
    int         broken;          /* 1 after a fault: every call S2R_ERR_STATE    */
    int         closed;          /* 1 once closed or failed to connect: nothing
                                    held, connect may be called again          */
    double      period;          /* s, the robot side's servo cycle (hello)      */
    char        name[64];        /* "socket: real ur5e #3"                       */
    char        fault[S2R_ERROR_LEN];   /* the first fault                       */
    char        error[S2R_ERROR_LEN];
} s2r_socket_robot;

S2RDEF s2r_socket_config  s2r_socket_config_default(void);
/* Load the expected arm, connect (within timeout_ms, waiting that long
   for a busy robot side) and shake hands.  On error nothing stays open,
   s->error says why and every backend call is S2R_ERR_STATE.  A struct
   still open (connected, or broken and not closed) is refused with
   S2R_ERR_STATE: close it first. */
S2RDEF s2r_result         s2r_socket_robot_connect(s2r_socket_robot* s, const s2r_socket_config* c);
S2RDEF const s2r_backend* s2r_socket_robot_backend(s2r_socket_robot* s);
/* Close the connection (the robot side halts its arm) and free the model;
   nothing to do for one that failed to connect or is closed already.
   Backend calls after it are S2R_ERR_STATE. */
S2RDEF void               s2r_socket_robot_close(s2r_socket_robot* s);

typedef struct s2r_socket_serve_config {
    const char* address;         /* as above; a Unix path left by a server that
                                    is gone is replaced, anything else there
                                    (a live server, a file) is refused; NULL     */
    int         watchdog_ms;     /* halt the arm after this silence mid-episode;
                                    a new connection's hello within it; 1000    */
    int         idle_ms;         /* a client silent this long between episodes
                                    (or since the watchdog halted its episode)
                                    gives the arm to the next one to connect,
                                    its connection closed; 0: never; 60000       */
    int         clients;         /* serve this many, one at a time, then return
                                    (a connection without a hello is not one);
                                    0 = until the process is stopped (or a stop
                                    request, s2r_interrupt_catch)               */
    int         ready_fd;        /* >= 0: write "ready\n" there once listening;
                                    -1                                           */
    FILE*       log;             /* a line here for each client's coming and going
                                    (why it went: it said bye, was lost without one, a malformed message, no
                                    hello in time), each watchdog halt and each
                                    connection refused busy; NULL: none          */
} s2r_socket_serve_config;

S2RDEF s2r_socket_serve_config s2r_socket_serve_config_default(void);
/* The robot side: serve `robot` to clients, one at a time (others are
   answered "busy").  A client's fault halts the arm and drops that client
   (c->log says so);
   S2R_ERR_IO only if the address cannot be served; S2R_ERR_INVALID_ARGUMENT
   for a malformed address (tcp:0.0.0.0 among them: see the protocol), a
   watchdog under 1 ms, idle_ms < 0 or clients < 0; S2R_ERR_INTERRUPTED after a
   stop request (s2r_interrupt_catch: Ctrl-C, SIGTERM), the arm halted and
   the Unix path removed.  error: S2R_ERROR_LEN bytes (may be NULL). */
S2RDEF s2r_result s2r_socket_serve(const s2r_backend* robot, const s2r_socket_serve_config* c, char* error);

#endif /* SIM2REAL_SOCKET_H */

#if defined(SIM2REAL_IMPLEMENTATION) && !defined(S2R_IMPLEMENTATION_ELSEWHERE)
#ifdef S2R_SOCKET_IMPLEMENTATION_DONE
#error "sim2real_socket.h: its implementation is already in this file (included twice with SIM2REAL_IMPLEMENTATION defined)"
#endif
#define S2R_SOCKET_IMPLEMENTATION_DONE
#ifndef SIM2REAL_IMPLEMENTATION_DONE
#error "sim2real_socket.h: define SIM2REAL_IMPLEMENTATION before sim2real.h is first included (this implementation uses the core's)"
#endif

/* ==========================================================================
   Socket backend (implementation)
   ========================================================================== */

/* >> section: Socket backend
   Flow: the pipeline's side first - s2r_socket_robot_connect loads the
   arm's model, opens the socket (s2r__socket_open) and shakes hands; each
   backend call is then one s2r__socket_call (pack, send, receive, parse),
   and any fault goes through s2r__socket_break (halt, close, remember).
   Then the robot side, s2r_socket_serve, and last the wire format the two
   share: s2r_socket_pack and s2r_socket_parse.  Read
   s2r_socket_robot_connect first; the protocol is in the declarations. */

/* --- Socket backend ---------------------------------------------------------- */

S2RDEF s2r_socket_config s2r_socket_config_default(void) {
    s2r_socket_config c;
    memset(&c, 0, sizeof c);
    c.timeout_ms = 1000;
    c.robot = S2R_ROBOT_UR5E;
    c.scene = S2R_SCENE_ARM;
    return c;
}

S2RDEF s2r_socket_serve_config s2r_socket_serve_config_default(void) {
    s2r_socket_serve_config c;
    memset(&c, 0, sizeof c);
    c.watchdog_ms = 1000;
    c.idle_ms = 60000;
    c.ready_fd = -1;   /* not 0: that is stdin */
    return c;
}

S2RDEF const s2r_backend* s2r_socket_robot_backend(s2r_socket_robot* s) {
    S2R_ASSERT(s);
    return &s->backend;
}

static const char* const s2r__socket_type_names[S2R_SOCKET_TYPE_END] = {
    "?", "hello", "reset", "command", "advance", "sensors", "truth", "halt", "place", "bye"};

/* Payload bytes of a message: [direction][type]; an error reply carries
   S2R_SOCKET_TEXT instead. */
static const unsigned s2r__socket_payload[2][S2R_SOCKET_TYPE_END] = {
    {0, S2R_SOCKET_ARM, 8 + 8 * (S2R_SOCKET_JOINTS + 3) + 32, 8 * S2R_SOCKET_JOINTS, 8, 0, 0, 0, 16, 0},
    {0, S2R_SOCKET_ARM + 8 + 48, 32, 0, 0, 8 * (1 + 3 * S2R_SOCKET_JOINTS + 6), 8 * (9 + S2R_SOCKET_JOINTS) + 8 + 8 * 12, 0, 0,
     0}};   /* a bye has no reply: parse refuses one */

static s2r_result s2r__socket_check_joints(const s2r_socket_message* m, int n_joints, char* error);
static void s2r__socket_arm_here(const s2r_arm_info* info, s2r_socket_message* m);
static int s2r__socket_arm_differs(const s2r_socket_message* a, const char* a_side, const s2r_socket_message* b,
                                   const char* b_side, char* out, size_t cap);

#if defined(__unix__) || defined(__APPLE__)
#include <fcntl.h>
#include <sys/stat.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#ifdef MSG_NOSIGNAL
#define S2R__SEND_FLAGS MSG_NOSIGNAL     /* a peer gone is an error, not SIGPIPE */
#else
#define S2R__SEND_FLAGS 0                /* SO_NOSIGPIPE set on the socket instead */
#endif

#ifdef S_ISSOCK
#define S2R__IS_SOCKET(mode) S_ISSOCK(mode)
#else   /* strict C99 hides it: what is none of the others */
#define S2R__IS_SOCKET(mode) (!S_ISREG(mode) && !S_ISDIR(mode) && !S_ISFIFO(mode) && !S_ISCHR(mode) && !S_ISBLK(mode) && \
                              !S_ISLNK(mode))
#endif

typedef union s2r__socket_addr {
    struct sockaddr    any;
    struct sockaddr_un un;
    struct sockaddr_in in;
} s2r__socket_addr;

static double s2r__socket_ms(void);
static s2r_result s2r__socket_open(const char* address, int timeout_ms, int* fd, char* error);
static s2r_result s2r__socket_hello(s2r_socket_robot* s, const char* mjcf_path);
static s2r_result s2r__socket_call(s2r_socket_robot* s, s2r_socket_message* m, double extra_ms);
static s2r_result s2r__socket_send(int fd, double deadline, const s2r_socket_message* m, char* error);
static s2r_result s2r__socket_reset(void* self, const double* q0, const double* target, s2r_rng* rng);
static s2r_result s2r__socket_command(void* self, const double* q);
static s2r_result s2r__socket_advance(void* self, double seconds);
static s2r_result s2r__socket_sensors(void* self, s2r_sensors* out);
static s2r_result s2r__socket_truth(void* self, s2r_ground_truth* out);
static s2r_result s2r__socket_halt(void* self);
static s2r_result s2r__socket_place(void* self, const double xy[2]);

static s2r_result s2r__socket_open_arm(s2r_socket_robot* s, const s2r_socket_config* c);

S2RDEF s2r_result s2r_socket_robot_connect(s2r_socket_robot* s, const s2r_socket_config* c) {
    s2r_result res;
    S2R_ASSERT(s);
    if (s->backend.self == s && s->backend.reset == s2r__socket_reset && !s->closed)
        return s2r__fail(s->error, S2R_ERR_STATE, "socket robot: this one is still open (%s): s2r_socket_robot_close it "
                         "before connecting again", s->broken ? "broken" : s->name);
    memset(s, 0, sizeof *s);
    s->fd = -1;
    s->backend.self = s;   /* every call goes through s2r__socket_call: S2R_ERR_STATE until connected */
    s->backend.name = s->name;
    s->backend.info = &s->arm.info;
    s->backend.error = s->error;
    s->backend.reset = s2r__socket_reset;
    s->backend.command = s2r__socket_command;
    s->backend.advance = s2r__socket_advance;
    s->backend.read_sensors = s2r__socket_sensors;
    s->backend.ground_truth = s2r__socket_truth;
    s->backend.halt = s2r__socket_halt;
    if ((res = s2r__socket_open_arm(s, c)) != S2R_OK) {
        if (s->fd >= 0) close(s->fd);
        s2r_robot_free(&s->arm);
        s->fd = -1;
        s->broken = s->closed = 1;
        snprintf(s->fault, sizeof s->fault, "it never connected: %.200s", s->error);
        return res;
    }
    s->backend.place_object = s->arm.info.scene == S2R_SCENE_PUSH ? s2r__socket_place : NULL;
    return S2R_OK;
}

/* The arm's model, the connection and the handshake; a busy robot side
   is asked again every 50 ms until timeout_ms is up. */
static s2r_result s2r__socket_open_arm(s2r_socket_robot* s, const s2r_socket_config* c) {
    s2r_result res;
    double deadline;
    if (!c || !c->address || c->timeout_ms < 1)
        return s2r__fail(s->error, S2R_ERR_INVALID_ARGUMENT, "socket robot: an address and a timeout of 1 ms or more are needed");
    s->timeout_ms = c->timeout_ms;
    res = c->robot == S2R_ROBOT_CUSTOM ? s2r_robot_load_file(&s->arm, c->mjcf_path)
                                       : s2r_robot_load_scene(&s->arm, c->robot, c->scene);
    if (res != S2R_OK) return s2r__fail(s->error, res, "socket robot: %s", s->arm.error);
    deadline = s2r__socket_ms() + c->timeout_ms;
    for (;;) {
        int busy;
        res = s2r__socket_open(c->address, (int)s2r_clamp(deadline - s2r__socket_ms(), 1, 1e9), &s->fd, s->error);
        if (res == S2R_OK) res = s2r__socket_hello(s, c->robot == S2R_ROBOT_CUSTOM ? c->mjcf_path : NULL);
        busy = res == S2R_ERR_STATE && strncmp(s->error, "robot side: busy", 16) == 0;
        if (!busy || s2r__socket_ms() + 50 >= deadline) {
            if (busy) {
                char why[S2R_ERROR_LEN];
                memcpy(why, s->error, sizeof why);
                s2r__fail(s->error, res, "the robot at %s stayed busy for the %d ms of timeout_ms (%s)", c->address,
                          c->timeout_ms, why + 12);
            }
            return res;
        }
        close(s->fd);   /* busy: in the queue, again in 50 ms */
        s->fd = -1;
        poll(NULL, 0, 50);
    }
}

S2RDEF void s2r_socket_robot_close(s2r_socket_robot* s) {
    if (!s || s->backend.self != s || s->backend.reset != s2r__socket_reset || s->closed) return;   /* never connected, or closed */
    if (s->fd >= 0) {   /* bye: the robot side logs a client that finished, not one lost (no reply to wait for) */
        s2r_socket_message bye;
        memset(&bye, 0, sizeof bye);
        bye.type = S2R_SOCKET_BYE;
        s2r__socket_send(s->fd, s2r__socket_ms() + 100, &bye, NULL);
        close(s->fd);
    }
    s2r_robot_free(&s->arm);
    s->fd = -1;
    s->broken = s->closed = 1;
    snprintf(s->fault, sizeof s->fault, "it was closed (s2r_socket_robot_close)");
}

/* Milliseconds of wall time (deadlines). */
static double s2r__socket_ms(void) {
    struct timeval t;
    gettimeofday(&t, NULL);
    return 1e3 * (double)t.tv_sec + 1e-3 * (double)t.tv_usec;
}

/* A decimal number of text[0..len) with digits only, no sign, no leading
   zero (but "0"), at most `max`: 1 and *out, else 0. */
static int s2r__socket_decimal(const char* text, size_t len, unsigned max, unsigned* out) {
    unsigned long v = 0;
    size_t i;
    if (len == 0 || len > 5 || (len > 1 && text[0] == '0')) return 0;
    for (i = 0; i < len; i++) {
        if (text[i] < '0' || text[i] > '9') return 0;
        v = 10 * v + (unsigned long)(text[i] - '0');
    }
    if (v > max) return 0;
    *out = (unsigned)v;
    return 1;
}

/* "PATH" or "tcp:HOST:PORT" into a socket address.  Strict: "tcp:" in
   lower case (another case is refused, not taken as a path), HOST
   localhost or four decimal octets, PORT 1..65535, neither with a sign,
   blank or leading zero (01.2.3.4 is octal to some tools); 0.0.0.0 (every
   interface, or no host to connect to) is refused. */
static s2r_result s2r__socket_address(const char* address, s2r__socket_addr* a, socklen_t* len, char* error) {
    unsigned b[4], port;
    const char *host, *colon, *at;
    int k;
    memset(a, 0, sizeof *a);
    if (strncmp(address, "tcp:", 4) != 0) {
        if (strlen(address) >= 4 && tolower((unsigned char)address[0]) == 't' && tolower((unsigned char)address[1]) == 'c' &&
            tolower((unsigned char)address[2]) == 'p' && address[3] == ':')
            return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "address \"%s\": write tcp: in lower case (tcp:HOST:PORT); "
                             "a socket path cannot start with it", address);
        if (!*address || strlen(address) >= sizeof a->un.sun_path)
            return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "socket path \"%s\" is empty or longer than %d bytes",
                             address, (int)sizeof a->un.sun_path - 1);
        a->un.sun_family = AF_UNIX;
        memcpy(a->un.sun_path, address, strlen(address) + 1);
        *len = (socklen_t)sizeof a->un;
        return S2R_OK;
    }
    host = address + 4;
    colon = strrchr(host, ':');
    if (!colon || !s2r__socket_decimal(colon + 1, strlen(colon + 1), 65535, &port) || port < 1)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "address \"%s\": expected tcp:HOST:PORT, PORT a decimal 1 to "
                         "65535 without sign or leading zero", address);
    if ((size_t)(colon - host) == 9 && strncmp(host, "localhost", 9) == 0) b[0] = 127, b[1] = 0, b[2] = 0, b[3] = 1;
    else
        for (k = 0, at = host; k < 4; k++) {
            const char* end = at;
            while (end < colon && *end != '.') end++;
            if (!s2r__socket_decimal(at, (size_t)(end - at), 255, &b[k]) || (k < 3 ? end >= colon : end != colon))
                return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "address \"%s\": HOST must be localhost or a numeric "
                                 "IPv4 address (four decimals 0 to 255, no leading zeros)", address);
            at = end + 1;
        }
    if ((b[0] | b[1] | b[2] | b[3]) == 0)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "address \"%s\": 0.0.0.0 is every network interface - anyone "
                         "who reaches this machine could drive the arm (the protocol has no authentication) - and no "
                         "host to connect to: give the one interface's address (tcp:192.168.1.10:PORT) or localhost",
                         address);
    a->in.sin_family = AF_INET;
    a->in.sin_port = htons((unsigned short)port);
    a->in.sin_addr.s_addr = htonl((uint32_t)(b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3]));
    *len = (socklen_t)sizeof a->in;
    return S2R_OK;
}

/* Non-blocking, no SIGPIPE, no Nagle delay: what every socket here gets. */
static void s2r__socket_setup(int fd) {
    int one = 1;
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);   /* fails harmlessly on Unix sockets */
#ifdef SO_NOSIGPIPE
    setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, sizeof one);
#endif
}

/* Whether a socket path names something that exists and is no socket. */
static int s2r__socket_not_a_socket(const char* path) {
    struct stat st;
    return stat(path, &st) == 0 && !S2R__IS_SOCKET(st.st_mode);
}

/* Connect within timeout_ms, trying again while the robot side is not up
   yet (no socket file, connection refused). */
static s2r_result s2r__socket_open(const char* address, int timeout_ms, int* fd, char* error) {
    s2r__socket_addr a;
    socklen_t len;
    double deadline = s2r__socket_ms() + timeout_ms;
    s2r_result res = s2r__socket_address(address, &a, &len, error);
    while (res == S2R_OK) {
        int err = 0, r;
        struct pollfd p;
        socklen_t elen = sizeof err;
        if ((*fd = socket(a.any.sa_family, SOCK_STREAM, 0)) < 0)
            return s2r__fail(error, S2R_ERR_IO, "socket: %s", strerror(errno));
        s2r__socket_setup(*fd);
        r = connect(*fd, &a.any, len);
        if (r < 0 && errno == EINPROGRESS) {   /* TCP: wait for it */
            p.fd = *fd;
            p.events = POLLOUT;
            r = poll(&p, 1, (int)s2r_clamp(deadline - s2r__socket_ms(), 0, 1e9));
            if (r == 1 && getsockopt(*fd, SOL_SOCKET, SO_ERROR, &err, &elen) == 0 && err == 0) return S2R_OK;
            errno = r == 1 ? err : ETIMEDOUT;
            r = -1;
        }
        if (r == 0) return S2R_OK;
        err = errno;
        close(*fd);
        *fd = -1;
        if (a.any.sa_family == AF_UNIX && err == ECONNREFUSED && s2r__socket_not_a_socket(address))
            return s2r__fail(error, S2R_ERR_IO, "cannot connect to the robot at %s: it is a file, not a socket (is that "
                             "the robot side's address?)", address);
        if ((err != ENOENT && err != ECONNREFUSED && err != EAGAIN) || s2r__socket_ms() >= deadline)
            return s2r__fail(error, S2R_ERR_IO, "cannot connect to the robot at %s within %d ms: %s", address, timeout_ms,
                             strerror(err));
        poll(NULL, 0, 10);   /* not up yet: again in 10 ms */
    }
    return res;
}

/* The handshake: this side's arm announced, the robot side's answer
   checked against it (the robot side checks too, and refuses another). */
static s2r_result s2r__socket_hello(s2r_socket_robot* s, const char* mjcf_path) {
    s2r_socket_message m, here;
    char why[S2R_ERROR_LEN], loaded[160];
    s2r_result res;
    s2r__socket_arm_here(&s->arm.info, &here);
    m = here;
    if (mjcf_path) snprintf(loaded, sizeof loaded, "this side loaded %.120s", mjcf_path);
    else snprintf(loaded, sizeof loaded, "this side loaded the built-in %s", s->arm.info.name);
    res = s2r__socket_call(s, &m, 0);
    if (res == S2R_ERR_MODEL) {   /* the robot side refused the arm: its text names both */
        memcpy(why, s->error, sizeof why);
        return s2r__fail(s->error, res, "the robot side refused this arm: %.150s (%s: load the same arm on both sides)",
                         why + 12, loaded);
    }
    if (res == S2R_ERR_UNSUPPORTED && strstr(s->error, "protocol")) return res;   /* another version: it says which */
    if (res == S2R_ERR_IO && strstr(s->error, "closed the connection")) {
        memcpy(why, s->error, sizeof why);
        return s2r__fail(s->error, res, "%.150s; a robot side of an older protocol than %d closes on this hello: build both "
                         "sides from one sim2real_socket.h (robot_server.py of the same version)", why, S2R_SOCKET_VERSION);
    }
    if (res != S2R_OK) return res;
    if (s2r__socket_arm_differs(&here, "this side's", &m, "the robot side's", why, sizeof why)) {
        s2r__fail(s->error, S2R_ERR_MODEL, "the robot side serves another arm: %.170s (%s)", why, loaded);
        close(s->fd);
        s->fd = -1;
        return S2R_ERR_MODEL;
    }
    s->period = m.period;
    snprintf(s->name, sizeof s->name, "socket: %s", m.name);
    return S2R_OK;
}

/* Send or receive exactly n bytes before `deadline` (ms). */
static s2r_result s2r__socket_move(int fd, unsigned char* bytes, size_t n, int sending, double deadline, char* error) {
    size_t done = 0;
    while (done < n) {
        struct pollfd p;
        double left = deadline - s2r__socket_ms();
        long k;
        if (left <= 0) return s2r__fail(error, S2R_ERR_IO, "no %s in time", sending ? "room to send" : "answer");
        p.fd = fd;
        p.events = sending ? POLLOUT : POLLIN;
        p.revents = 0;
        if (poll(&p, 1, (int)ceil(left)) <= 0) continue;   /* time is checked above; EINTR too */
        k = sending ? (long)send(fd, bytes + done, n - done, S2R__SEND_FLAGS) : (long)recv(fd, bytes + done, n - done, 0);
        if (k > 0) done += (size_t)k;
        else if (k == 0 && !sending) return s2r__fail(error, S2R_ERR_IO, "the other side closed the connection%s",
                                                      done ? " in the middle of a message" : "");
        else if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
            return s2r__fail(error, S2R_ERR_IO, "connection lost: %s", strerror(errno));
    }
    return S2R_OK;
}

/* One whole message: the header, whose size field says how much follows. */
static s2r_result s2r__socket_receive(int fd, double deadline, s2r_socket_message* m, char* error) {
    unsigned char bytes[S2R_SOCKET_MESSAGE_MAX];
    size_t size;
    s2r_result res = s2r__socket_move(fd, bytes, S2R_SOCKET_HEADER, 0, deadline, error);
    if (res != S2R_OK) return res;
    m->version = bytes[0] == 'S' && bytes[1] == '2' && bytes[2] == 'R' && bytes[3] == 'S' ? bytes[4] | bytes[5] << 8 : 0;
    size = (size_t)bytes[12] | (size_t)bytes[13] << 8 | (size_t)bytes[14] << 16 | (size_t)bytes[15] << 24;
    if (size > S2R_SOCKET_MESSAGE_MAX - S2R_SOCKET_HEADER)
        return s2r__fail(error, S2R_ERR_CORRUPT, "a message of %lu bytes, longer than any in protocol %d",
                         (unsigned long)size, S2R_SOCKET_VERSION);
    res = s2r__socket_move(fd, bytes + S2R_SOCKET_HEADER, size, 0, deadline, error);
    return res == S2R_OK ? s2r_socket_parse(bytes, S2R_SOCKET_HEADER + size, m, error) : res;
}

static s2r_result s2r__socket_send(int fd, double deadline, const s2r_socket_message* m, char* error) {
    unsigned char bytes[S2R_SOCKET_MESSAGE_MAX];
    return s2r__socket_move(fd, bytes, s2r_socket_pack(m, bytes), 1, deadline, error);
}

/* A fault: halt the arm if a message still gets through, close, and keep
   the reason for every later call. */
static s2r_result s2r__socket_break(s2r_socket_robot* s, s2r_result code, const char* why, int type) {
    s2r_socket_message halt;
    memset(&halt, 0, sizeof halt);
    halt.type = S2R_SOCKET_HALT;
    s2r__fail(s->fault, code, "robot at the other end of the socket, %s: %s", s2r__socket_type_names[type], why);
    s2r__socket_send(s->fd, s2r__socket_ms() + 10, &halt, NULL);   /* best effort; closing halts it too */
    close(s->fd);
    s->fd = -1;
    s->broken = 1;
    return s2r__fail(s->error, code, "%s (connection closed; a robot side still running halts its arm)", s->fault);
}

/* A reading's joints inside their model ranges, give or take
   S2R_READING_RANGE_SLACK (finite and bounded already: the wire's check). */
static s2r_result s2r__socket_check_ranges(const s2r_socket_message* m, const s2r_arm_info* info, char* why) {
    int j;
    for (j = 0; j < info->n_joints; j++) {
        double q = m->sensors.q[j], off = fmax(info->q_min[j] - q, q - info->q_max[j]);
        if (off > S2R_READING_RANGE_SLACK)
            return s2r__fail(why, S2R_ERR_CORRUPT, "joint %d ('%s') reads %g rad, %.3g rad outside its range "
                             "[%g, %g]: in degrees, in another joint order or from another arm?", j + 1, info->joint_name[j],
                             q, off, info->q_min[j], info->q_max[j]);
    }
    return S2R_OK;
}

/* One request and its reply, within the timeout (plus extra_ms); the
   reply replaces *m.  A robot-side error is returned as its code. */
static s2r_result s2r__socket_call(s2r_socket_robot* s, s2r_socket_message* m, double extra_ms) {
    char why[S2R_ERROR_LEN];
    int type = m->type;
    double deadline = s2r__socket_ms() + s->timeout_ms + extra_ms;
    s2r_result res;
    if (s->broken) return s2r__fail(s->error, S2R_ERR_STATE, "no connection since: %s", s->fault);
    res = s2r__socket_send(s->fd, deadline, m, why);
    if (res == S2R_OK) res = s2r__socket_receive(s->fd, deadline, m, why);
    if (res == S2R_OK && (!m->reply || (int)m->type != type))
        res = s2r__fail(why, S2R_ERR_CORRUPT, "the answer is a %s %s", s2r__socket_type_names[m->type],
                        m->reply ? "reply" : "request");
    if (res == S2R_ERR_IO && strstr(why, "in time"))
        s2r__fail(why, res, "no answer within %.0f ms (stopped, or too slow for the control rate)", s->timeout_ms + extra_ms);
    else if (res == S2R_ERR_IO && (strstr(why, "closed the connection") || strstr(why, "connection lost"))) {
        char lost[S2R_ERROR_LEN];
        memcpy(lost, why, sizeof lost);
        s2r__fail(why, res, "%.120s (the robot side stopped, or gave the arm to another client: this one was silent "
                  "between episodes past its idle_ms)", lost);
    }
    if (res == S2R_OK && m->status == S2R_OK && s->arm.info.n_joints > 0)
        res = s2r__socket_check_joints(m, s->arm.info.n_joints, why);
    if (res == S2R_OK && m->status == S2R_OK && type == S2R_SOCKET_SENSORS) res = s2r__socket_check_ranges(m, &s->arm.info, why);
    if (res != S2R_OK) return s2r__socket_break(s, res, why, type);
    if (m->status != S2R_OK) return s2r__fail(s->error, m->status, "robot side: %s", m->text);
    return S2R_OK;
}

static s2r_result s2r__socket_reset(void* self, const double* q0, const double* target, s2r_rng* rng) {
    s2r_socket_robot* s = (s2r_socket_robot*)self;
    s2r_socket_message m;
    s2r_result res;
    memset(&m, 0, sizeof m);
    m.type = S2R_SOCKET_RESET;
    m.flags = (q0 ? 1u : 0u) | (target ? 2u : 0u) | (rng ? 4u : 0u);
    if (q0) memcpy(m.q, q0, sizeof(double) * (size_t)s->arm.info.n_joints);
    if (target) memcpy(m.target, target, sizeof m.target);
    if (rng) memcpy(m.rng, rng->s, sizeof m.rng);
    res = s2r__socket_call(s, &m, 0);
    if (res == S2R_OK && rng) memcpy(rng->s, m.rng, sizeof m.rng);   /* as if it drew here */
    return res;
}

static s2r_result s2r__socket_command(void* self, const double* q) {
    s2r_socket_robot* s = (s2r_socket_robot*)self;
    s2r_socket_message m;
    memset(&m, 0, sizeof m);
    m.type = S2R_SOCKET_COMMAND;
    memcpy(m.q, q, sizeof(double) * (size_t)s->arm.info.n_joints);
    return s2r__socket_call(s, &m, 0);
}

static s2r_result s2r__socket_advance(void* self, double seconds) {
    s2r_socket_message m;
    memset(&m, 0, sizeof m);
    m.type = S2R_SOCKET_ADVANCE;
    m.seconds = seconds;
    return s2r__socket_call((s2r_socket_robot*)self, &m, seconds > 0 && seconds < 1e3 ? 1e3 * seconds : 0);
}

static s2r_result s2r__socket_sensors(void* self, s2r_sensors* out) {
    s2r_socket_message m;
    s2r_result res;
    memset(&m, 0, sizeof m);
    m.type = S2R_SOCKET_SENSORS;
    if ((res = s2r__socket_call((s2r_socket_robot*)self, &m, 0)) == S2R_OK) *out = m.sensors;
    return res;
}

static s2r_result s2r__socket_truth(void* self, s2r_ground_truth* out) {
    s2r_socket_message m;
    s2r_result res;
    memset(&m, 0, sizeof m);
    m.type = S2R_SOCKET_TRUTH;
    if ((res = s2r__socket_call((s2r_socket_robot*)self, &m, 0)) == S2R_OK) *out = m.truth;
    return res;
}

static s2r_result s2r__socket_halt(void* self) {
    s2r_socket_message m;
    memset(&m, 0, sizeof m);
    m.type = S2R_SOCKET_HALT;
    return s2r__socket_call((s2r_socket_robot*)self, &m, 0);
}

static s2r_result s2r__socket_place(void* self, const double xy[2]) {
    s2r_socket_message m;
    memset(&m, 0, sizeof m);
    m.type = S2R_SOCKET_PLACE;
    memcpy(m.xy, xy, sizeof m.xy);
    return s2r__socket_call((s2r_socket_robot*)self, &m, 0);
}

/* --- The robot side ------------------------------------------------------- */

static s2r_result s2r__socket_listen(const char* address, int* fd, char* error);
static int s2r__socket_serve_client(const s2r_backend* robot, int listener, int fd, const s2r_socket_serve_config* c,
                                    int number);

S2RDEF s2r_result s2r_socket_serve(const s2r_backend* robot, const s2r_socket_serve_config* c, char* error) {
    int listener, served = 0;
    s2r_result res;
    if (!robot || !c || !c->address || c->watchdog_ms < 1 || c->idle_ms < 0 || c->clients < 0)
        return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "serve: a robot, an address, a watchdog of 1 ms or more, "
                         "idle_ms >= 0 (0: a client may be silent for ever) and clients >= 0 (0: no limit) are needed");
    if ((res = s2r__socket_listen(c->address, &listener, error)) != S2R_OK) return res;
    fcntl(listener, F_SETFL, fcntl(listener, F_GETFL) | O_NONBLOCK);   /* a client gone before accept: no block */
    if (c->ready_fd >= 0 && write(c->ready_fd, "ready\n", 6) != 6) { /* the caller's pipe gone: serve anyway */ }
    while ((c->clients == 0 || served < c->clients) && !s2r_interrupt_requested()) {
        struct pollfd p;
        int fd;
        p.fd = listener;
        p.events = POLLIN;
        if (poll(&p, 1, -1) < 0) {
            if (errno == EINTR) continue;   /* a signal: a stop request is read above */
            break;
        }
        if ((fd = accept(listener, NULL, NULL)) < 0) {   /* a client that gave up, or no descriptors left */
            poll(NULL, 0, 10);
            continue;
        }
        s2r__socket_setup(fd);
        served += s2r__socket_serve_client(robot, listener, fd, c, served + 1);   /* 0: no hello */
        s2r_backend_halt(robot);   /* the client has gone: brakes on */
        close(fd);
    }
    close(listener);
    if (strncmp(c->address, "tcp:", 4) != 0) unlink(c->address);
    if (s2r_interrupt_requested()) return s2r__fail(error, S2R_ERR_INTERRUPTED, "serve: stopped on request, the arm halted");
    return S2R_OK;
}

/* Bind and listen; a Unix path left by a server that is gone is replaced,
   one with a live server behind it is not, nor anything not a socket. */
static s2r_result s2r__socket_listen(const char* address, int* fd, char* error) {
    s2r__socket_addr a;
    socklen_t len;
    struct stat st;
    int one = 1, probe, bound;
    s2r_result res = s2r__socket_address(address, &a, &len, error);
    if (res != S2R_OK) return res;
    if (a.any.sa_family == AF_UNIX && lstat(address, &st) == 0 && !S2R__IS_SOCKET(st.st_mode))
        return s2r__fail(error, S2R_ERR_IO, "cannot serve at %s: it exists and is not a socket (%s); remove it or give "
                         "another path", address, S_ISDIR(st.st_mode) ? "a directory" : S_ISREG(st.st_mode) ? "a file"
                         : S_ISLNK(st.st_mode) ? "a symbolic link" : S_ISFIFO(st.st_mode) ? "a FIFO" : "a device");
    if ((*fd = socket(a.any.sa_family, SOCK_STREAM, 0)) < 0) return s2r__fail(error, S2R_ERR_IO, "socket: %s", strerror(errno));
    setsockopt(*fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    bound = bind(*fd, &a.any, len) == 0;
    if (!bound && errno == EADDRINUSE && a.any.sa_family == AF_UNIX && (probe = socket(AF_UNIX, SOCK_STREAM, 0)) >= 0) {
        int live = connect(probe, &a.any, len) == 0;
        close(probe);
        if (!live && stat(address, &st) == 0 && S2R__IS_SOCKET(st.st_mode) && unlink(address) == 0) bound = bind(*fd, &a.any, len) == 0;
        else errno = EADDRINUSE;   /* a live server is there */
    }
    if (!bound || listen(*fd, 4) < 0) {
        res = s2r__fail(error, S2R_ERR_IO, "cannot serve at %s: %s%s", address, strerror(errno),
                        errno == EADDRINUSE ? " (another server is live there)" : "");
        close(*fd);
        *fd = -1;
    }
    return res;
}

/* Run one request on the robot; *m becomes the reply, an error's text
   this request's own.  A hello announcing another arm is refused
   (S2R_ERR_MODEL), `refused` (S2R_ERROR_LEN bytes) saying why in full. */
static void s2r__socket_answer(const s2r_backend* robot, s2r_socket_message* m, char* refused) {
    const s2r_arm_info* info = robot->info;
    const char* missing = NULL;
    s2r_rng rng;
    s2r_result res = S2R_OK;
    m->reply = 1;
    switch (m->type) {
    case S2R_SOCKET_HELLO: {
        s2r_socket_message client = *m;
        s2r__socket_arm_here(info, m);
        m->reply = 1;
        m->period = info->physics_dt;
        snprintf(m->name, sizeof m->name, "%s", robot->name ? robot->name : info->name);
        if (s2r__socket_arm_differs(&client, "the client's", m, "this robot side's", refused, S2R_ERROR_LEN)) {
            m->status = S2R_ERR_MODEL;
            snprintf(m->text, sizeof m->text, "%.127s", refused);
            return;
        }
        break;
    }
    case S2R_SOCKET_RESET:
        memcpy(rng.s, m->rng, sizeof rng.s);
        res = s2r_backend_reset(robot, (m->flags & 1) ? m->q : NULL, (m->flags & 2) ? m->target : NULL,
                                (m->flags & 4) ? &rng : NULL);
        memcpy(m->rng, rng.s, sizeof rng.s);
        break;
    case S2R_SOCKET_COMMAND: res = s2r_backend_command(robot, m->q); break;
    case S2R_SOCKET_ADVANCE: res = s2r_backend_advance(robot, m->seconds); break;
    case S2R_SOCKET_SENSORS: res = s2r_backend_read_sensors(robot, &m->sensors); break;
    case S2R_SOCKET_TRUTH: res = s2r_backend_ground_truth(robot, &m->truth); break;
    case S2R_SOCKET_HALT:
        if (robot->halt) res = s2r_backend_halt(robot);
        else missing = "this arm has no drive-level halt";
        break;
    default:
        if (robot->place_object) res = s2r_backend_place_object(robot, m->xy);
        else missing = "this arm has no object to place (not the push scene)";
        break;
    }
    if (missing) res = S2R_ERR_UNSUPPORTED;
    m->status = res;
    if (res != S2R_OK)
        snprintf(m->text, sizeof m->text, "%s: %s", s2r__socket_type_names[m->type],
                 missing ? missing : robot->error && *robot->error ? robot->error : s2r_result_string(res));
}

/* A connection while a client holds the arm (since `since`, silent since
   `last`, giving way after idle_ms of silence between episodes): its hello
   (waited for 20 ms at most: closing with it unread would reset a TCP
   connection before the answer is read) is answered "busy", and it is
   closed. */
static void s2r__socket_refuse(int listener, double since, double last, int idle_ms, FILE* log) {
    unsigned char scratch[S2R_SOCKET_MESSAGE_MAX];
    s2r_socket_message m;
    struct pollfd p;
    int fd = accept(listener, NULL, NULL);
    if (fd < 0) return;
    s2r__socket_setup(fd);
    p.fd = fd;
    p.events = POLLIN;
    if (poll(&p, 1, 20) == 1 && recv(fd, scratch, sizeof scratch, 0) < 0) { /* gone already */ }
    memset(&m, 0, sizeof m);
    m.type = S2R_SOCKET_HELLO;
    m.reply = 1;
    m.status = S2R_ERR_STATE;
    if (idle_ms > 0)
        snprintf(m.text, sizeof m.text, "busy: another client has held this arm for %.1f s (silent %.1f s; gives way "
                 "after %.1f s between episodes)", 1e-3 * (s2r__socket_ms() - since), 1e-3 * (s2r__socket_ms() - last),
                 1e-3 * idle_ms);
    else
        snprintf(m.text, sizeof m.text, "busy: another client has held this arm for %.1f s; one client at a time",
                 1e-3 * (s2r__socket_ms() - since));
    s2r__socket_send(fd, s2r__socket_ms() + 20, &m, NULL);
    close(fd);
    if (log) fprintf(log, "robot side: a connection refused: %s\n", m.text), fflush(log);
}

/* A message of another protocol version (its client's): an error reply in
   that version's header - every version's error reply is the header and
   S2R_SOCKET_TEXT bytes of text - so the client reads why. */
static void s2r__socket_refuse_version(int fd, int version) {
    unsigned char bytes[S2R_SOCKET_MESSAGE_MAX];
    s2r_socket_message m;
    size_t n;
    memset(&m, 0, sizeof m);
    m.type = S2R_SOCKET_HELLO;
    m.reply = 1;
    m.status = S2R_ERR_UNSUPPORTED;
    snprintf(m.text, sizeof m.text, "socket protocol %d: this robot side speaks protocol %d; build both sides from one "
             "sim2real_socket.h", version, S2R_SOCKET_VERSION);
    n = s2r_socket_pack(&m, bytes);
    bytes[4] = (unsigned char)(version & 0xff), bytes[5] = (unsigned char)(version >> 8 & 0xff);
    s2r__socket_move(fd, bytes, n, 1, s2r__socket_ms() + 100, NULL);
}

/* Requests until the client goes or sends something malformed: its hello
   first, within watchdog_ms; then silence for watchdog_ms mid-episode -
   from a reset, or the first command, advance or place, to a halt -
   halts the arm and ends the episode, whose later requests are answered
   with that error until a reset.  Connections arriving meanwhile are
   refused.  Each coming and going, with why, is a line in `log` (may be
   NULL), the client numbered `number`: a client that said bye finished;
   one whose connection ended without it was lost (killed, a network
   fault), mid-episode or between episodes.  A hello of another protocol
   version is answered in that version's header, saying so; one naming
   another arm is refused.  A client silent idle_ms between episodes
   gives way to the next connection (its own is closed).  Returns 1 once
   the hello was answered (a client), else 0. */
#define S2R__HELLO_GRACE_MS 100   /* a client sends hello as it connects: one silent this long holds nothing */
static int s2r__socket_serve_client(const s2r_backend* robot, int listener, int fd, const s2r_socket_serve_config* c,
                                    int number) {
    FILE* log = c->log;
    int watchdog_ms = c->watchdog_ms;
    double since = s2r__socket_ms(), deadline = since + watchdog_ms;   /* the hello's, then the episode's */
    double last = since;   /* the client's last request */
    char halted[S2R_SOCKET_TEXT] = "", why[S2R_ERROR_LEN];   /* halted: the watchdog's, until the next reset */
    char refused[S2R_ERROR_LEN] = "";   /* a hello's arm, in full */
    int greeted = 0, in_episode = 0;
#define S2R__SERVE_SAY(...) (log ? (fprintf(log, "robot side: " __VA_ARGS__), fputc('\n', log), fflush(log)) : 0)
    for (;;) {
        s2r_socket_message m;
        struct pollfd p[2];
        int r, watched = !greeted || in_episode;
        memset(&m, 0, sizeof m);
        p[0].fd = fd, p[1].fd = listener;
        p[0].events = p[1].events = POLLIN;
        p[0].revents = p[1].revents = 0;
        r = poll(p, 2, watched ? (int)ceil(s2r_clamp(deadline - s2r__socket_ms(), 0, 1e9)) : -1);
        if (r < 0) {
            if (errno != EINTR || s2r_interrupt_requested()) {
                if (greeted) S2R__SERVE_SAY("client %d: its connection closed on a stop request, the arm halted", number);
                return greeted;
            }
            continue;   /* a signal: the deadline stands */
        }
        if (p[1].revents && !p[0].revents) {   /* the client's own news first: gone, its arm is free */
            if (!greeted && s2r__socket_ms() - since >= S2R__HELLO_GRACE_MS) {
                S2R__SERVE_SAY("a connection silent for %.0f ms gave way to the next one", s2r__socket_ms() - since);
                return 0;   /* silent: the next one's turn */
            }
            if (greeted && !in_episode && c->idle_ms > 0 && s2r__socket_ms() - last >= c->idle_ms) {
                S2R__SERVE_SAY("client %d gave way, its connection closed: silent %.1f s between episodes (idle_ms %d) "
                               "when another connected", number, 1e-3 * (s2r__socket_ms() - last), c->idle_ms);
                return 1;   /* stopped or hung: the next one's turn */
            }
            s2r__socket_refuse(listener, since, last, c->idle_ms, log);
        }
        if (!p[0].revents) {
            if (!watched || s2r__socket_ms() < deadline) continue;
            if (!greeted) {
                S2R__SERVE_SAY("a connection dropped: no hello within %d ms", watchdog_ms);
                return 0;   /* no hello in time: not a client */
            }
            s2r_backend_halt(robot);
            snprintf(halted, sizeof halted, "the robot side's watchdog halted the arm: no request for %d ms mid-episode; "
                     "this episode is over (reset to start another)", watchdog_ms);
            S2R__SERVE_SAY("client %d: %s", number, halted + 17);   /* from "watchdog" */
            in_episode = 0;
            continue;
        }
        if (s2r__socket_receive(fd, s2r__socket_ms() + watchdog_ms, &m, why) != S2R_OK || m.reply) {
            if (m.version >= 1 && m.version != S2R_SOCKET_VERSION && !greeted) {   /* another version's client */
                s2r__socket_refuse_version(fd, m.version);
                S2R__SERVE_SAY("a connection refused: it speaks socket protocol %d, this robot side %d", m.version,
                               S2R_SOCKET_VERSION);
                return 0;
            }
            if (m.reply && !strstr(why, "closed")) snprintf(why, sizeof why, "a reply where a request belongs");
            if (strstr(why, "closed the connection") && !strstr(why, "middle") && greeted)
                S2R__SERVE_SAY("client %d lost%s: its connection closed without a bye (the client killed, or the "
                               "network), the arm halted", number, in_episode ? " mid-episode" : " between episodes");
            else if (strstr(why, "closed the connection") && !strstr(why, "middle"))
                S2R__SERVE_SAY("a connection closed before its hello");
            else
                S2R__SERVE_SAY("%s dropped, the arm halted: %s", greeted ? "client" : "a connection", why);
            return greeted;
        }
        if (m.type == S2R_SOCKET_BYE) {
            if (greeted) S2R__SERVE_SAY("client %d finished (it said bye), the arm halted", number);
            else S2R__SERVE_SAY("a connection said bye before its hello");
            return greeted;
        }
        if (!greeted && m.type != S2R_SOCKET_HELLO) {
            m.reply = 1, m.status = S2R_ERR_STATE;
            snprintf(m.text, sizeof m.text, "%s before hello: a client opens with hello", s2r__socket_type_names[m.type]);
        } else if (halted[0] && m.type != S2R_SOCKET_RESET && m.type != S2R_SOCKET_HALT && m.type != S2R_SOCKET_HELLO) {
            m.reply = 1, m.status = S2R_ERR_STATE;
            snprintf(m.text, sizeof m.text, "%s", halted);
        } else if (s2r__socket_check_joints(&m, robot->info->n_joints, why) != S2R_OK) {
            m.reply = 1, m.status = S2R_ERR_INVALID_ARGUMENT;
            snprintf(m.text, sizeof m.text, "%.127s", why);
        } else {
            s2r__socket_answer(robot, &m, refused);
        }
        if (m.type == S2R_SOCKET_HELLO && m.status == S2R_OK && !greeted)
            S2R__SERVE_SAY("client %d connected (hello answered)", number);
        if (m.type == S2R_SOCKET_HELLO && m.status == S2R_OK) greeted = 1;
        if (m.type == S2R_SOCKET_RESET && m.status == S2R_OK) in_episode = 1, halted[0] = 0;
        if ((m.type == S2R_SOCKET_COMMAND || m.type == S2R_SOCKET_ADVANCE || m.type == S2R_SOCKET_PLACE) &&
            m.status == S2R_OK)
            in_episode = 1;   /* the arm moves on the client's word: watched, reset or not */
        if (m.type == S2R_SOCKET_HALT) in_episode = 0;
        if (s2r__socket_send(fd, s2r__socket_ms() + watchdog_ms, &m, NULL) != S2R_OK || !greeted) {
            if (!greeted && m.type == S2R_SOCKET_HELLO && m.status == S2R_ERR_MODEL)
                S2R__SERVE_SAY("a connection refused: its hello names another arm: %s", refused);
            else if (!greeted) S2R__SERVE_SAY("a connection dropped: %s", m.text);
            else S2R__SERVE_SAY("client %d dropped, the arm halted: its reply could not be sent", number);
            return greeted;
        }
        last = s2r__socket_ms();
        deadline = last + watchdog_ms;
    }
#undef S2R__SERVE_SAY
}

#else   /* no POSIX sockets */

S2RDEF s2r_result s2r_socket_robot_connect(s2r_socket_robot* s, const s2r_socket_config* c) {
    S2R_ASSERT(s);
    (void)c;
    memset(s, 0, sizeof *s);
    s->fd = -1;
    return s2r__fail(s->error, S2R_ERR_UNSUPPORTED, "socket robot: this build has no POSIX sockets");
}
S2RDEF void s2r_socket_robot_close(s2r_socket_robot* s) { (void)s; }
S2RDEF s2r_result s2r_socket_serve(const s2r_backend* robot, const s2r_socket_serve_config* c, char* error) {
    (void)robot;
    (void)c;
    return s2r__fail(error, S2R_ERR_UNSUPPORTED, "serve: this build has no POSIX sockets");
}

#endif

/* --- The wire format: little-endian, doubles as their IEEE-754 bytes ------ */

static void s2r__wire_u32(unsigned char** p, uint32_t v) {
    int i;
    for (i = 0; i < 4; i++) *(*p)++ = (unsigned char)(v >> (8 * i));
}
static void s2r__wire_u64(unsigned char** p, uint64_t v) {
    int i;
    for (i = 0; i < 8; i++) *(*p)++ = (unsigned char)(v >> (8 * i));
}
static void s2r__wire_f64s(unsigned char** p, const double* x, int n) {
    int i;
    for (i = 0; i < n; i++) {
        uint64_t v;
        memcpy(&v, &x[i], 8);
        s2r__wire_u64(p, v);
    }
}
/* Text into a field of `field` bytes: at most field - 1 of it, NUL-padded. */
static void s2r__wire_text(unsigned char** p, const char* text, size_t field) {
    size_t n = strlen(text) < field ? strlen(text) : field - 1;
    memset(*p, 0, field);
    memcpy(*p, text, n);
    *p += field;
}
static uint32_t s2r__unwire_u32(const unsigned char** p) {
    uint32_t v = 0;
    int i;
    for (i = 0; i < 4; i++) v |= (uint32_t)*(*p)++ << (8 * i);
    return v;
}
static uint64_t s2r__unwire_u64(const unsigned char** p) {
    uint64_t v = 0;
    int i;
    for (i = 0; i < 8; i++) v |= (uint64_t)*(*p)++ << (8 * i);
    return v;
}
static void s2r__unwire_f64s(const unsigned char** p, double* x, int n) {
    int i;
    for (i = 0; i < n; i++) {
        uint64_t v = s2r__unwire_u64(p);
        memcpy(&x[i], &v, 8);
    }
}

typedef char s2r__socket_joints_fit[S2R_MAX_JOINTS == S2R_SOCKET_JOINTS ? 1 : -1];

S2RDEF size_t s2r_socket_pack(const s2r_socket_message* m, unsigned char* bytes) {
    unsigned char* p;
    S2R_ASSERT(m && bytes);   /* no error to return: a NULL buffer is a programmer error */
    p = bytes + S2R_SOCKET_HEADER;
    uint32_t size;
    int dir = m->reply ? 1 : 0;
    if (dir && m->status != S2R_OK) {
        memset(p, 0, S2R_SOCKET_TEXT);
        memcpy(p, m->text, strlen(m->text) < S2R_SOCKET_TEXT ? strlen(m->text) : S2R_SOCKET_TEXT - 1);
        p += S2R_SOCKET_TEXT;
    } else if (m->type == S2R_SOCKET_HELLO) {
        int j;
        s2r__wire_u32(&p, (uint32_t)m->kind);
        s2r__wire_u32(&p, (uint32_t)m->scene);
        s2r__wire_u32(&p, (uint32_t)m->n_joints);
        s2r__wire_u32(&p, 0);
        s2r__wire_u64(&p, m->digest);
        s2r__wire_text(&p, m->model, S2R_SOCKET_NAME);
        for (j = 0; j < S2R_SOCKET_JOINTS; j++) s2r__wire_text(&p, m->joint_name[j], S2R_SOCKET_NAME);
        s2r__wire_f64s(&p, m->q_min, S2R_SOCKET_JOINTS);
        s2r__wire_f64s(&p, m->q_max, S2R_SOCKET_JOINTS);
        if (dir) {
            s2r__wire_f64s(&p, &m->period, 1);
            s2r__wire_text(&p, m->name, 48);
        }
    } else if (m->type == S2R_SOCKET_RESET) {
        if (!dir) {
            s2r__wire_u32(&p, m->flags);
            s2r__wire_u32(&p, 0);
            s2r__wire_f64s(&p, m->q, S2R_SOCKET_JOINTS);
            s2r__wire_f64s(&p, m->target, 3);
        }
        s2r__wire_u64(&p, m->rng[0]), s2r__wire_u64(&p, m->rng[1]), s2r__wire_u64(&p, m->rng[2]), s2r__wire_u64(&p, m->rng[3]);
    } else if (m->type == S2R_SOCKET_COMMAND && !dir) {
        s2r__wire_f64s(&p, m->q, S2R_SOCKET_JOINTS);
    } else if (m->type == S2R_SOCKET_ADVANCE && !dir) {
        s2r__wire_f64s(&p, &m->seconds, 1);
    } else if (m->type == S2R_SOCKET_PLACE && !dir) {
        s2r__wire_f64s(&p, m->xy, 2);
    } else if (m->type == S2R_SOCKET_SENSORS && dir) {
        const s2r_sensors* s = &m->sensors;
        s2r__wire_f64s(&p, &s->time, 1);
        s2r__wire_f64s(&p, s->q, S2R_SOCKET_JOINTS);
        s2r__wire_f64s(&p, s->qd, S2R_SOCKET_JOINTS);
        s2r__wire_f64s(&p, s->tau, S2R_SOCKET_JOINTS);
        s2r__wire_f64s(&p, s->target, 3);
        s2r__wire_f64s(&p, s->object, 3);
    } else if (m->type == S2R_SOCKET_TRUTH && dir) {
        const s2r_ground_truth* t = &m->truth;
        s2r__wire_f64s(&p, t->flange, 3);
        s2r__wire_f64s(&p, t->flange_vel, 3);
        s2r__wire_f64s(&p, t->target, 3);
        s2r__wire_f64s(&p, t->q, S2R_SOCKET_JOINTS);
        s2r__wire_u32(&p, (uint32_t)t->diverged);
        s2r__wire_u32(&p, 0);
        s2r__wire_f64s(&p, t->tip, 3);
        s2r__wire_f64s(&p, t->tip_vel, 3);
        s2r__wire_f64s(&p, t->object, 3);
        s2r__wire_f64s(&p, t->object_vel, 3);
    }
    size = (uint32_t)(p - bytes - S2R_SOCKET_HEADER);
    p = bytes;
    s2r__wire_u32(&p, 0x53523253u);
    *p++ = S2R_SOCKET_VERSION & 0xff, *p++ = S2R_SOCKET_VERSION >> 8;
    *p++ = (unsigned char)m->type, *p++ = (unsigned char)dir;
    s2r__wire_u32(&p, dir ? (uint32_t)(int32_t)m->status : 0);
    s2r__wire_u32(&p, size);
    return S2R_SOCKET_HEADER + size;
}

/* The joint slots past an arm's n_joints must be 0 in every message that
   carries joints (a request's targets, a reply's readings): anything else
   is another arm's joint count.  S2R_ERR_CORRUPT naming the slot. */
static s2r_result s2r__socket_check_joints(const s2r_socket_message* m, int n_joints, char* error) {
    const double* arrays[3] = {NULL, NULL, NULL};
    static const char* const names[3] = {"q", "qd", "tau"};
    int a, j;
    if (m->status != S2R_OK) return S2R_OK;
    if (!m->reply && (m->type == S2R_SOCKET_COMMAND || (m->type == S2R_SOCKET_RESET && (m->flags & 1)))) arrays[0] = m->q;
    if (m->reply && m->type == S2R_SOCKET_SENSORS) arrays[0] = m->sensors.q, arrays[1] = m->sensors.qd, arrays[2] = m->sensors.tau;
    if (m->reply && m->type == S2R_SOCKET_TRUTH) arrays[0] = m->truth.q;
    for (a = 0; a < 3; a++)
        for (j = n_joints; arrays[a] && j < S2R_SOCKET_JOINTS; j++)
            if (arrays[a][j] != 0)
                return s2r__fail(error, S2R_ERR_CORRUPT, "%s %s: %s of joint %d is %g, but the arm has %d joints (slots past "
                                 "them are 0): it speaks for another arm", s2r__socket_type_names[m->type],
                                 m->reply ? "reply" : "request", names[a], j + 1, arrays[a][j], n_joints);
    return S2R_OK;
}

/* One value of the digest, rounded to 1e-6 (m, rad: the last bits of a
   compile never tell two arms apart); beyond 1e12 (an unlimited range) its bits. */
static uint64_t s2r__socket_digest_values(uint64_t h, const double* x, int n) {
    int i;
    for (i = 0; i < n; i++) {
        long long v = fabs(x[i]) < 1e12 ? llround(x[i] * 1e6) : 0;
        if (v == 0 && fabs(x[i]) >= 1e12) memcpy(&v, &x[i], sizeof v);
        h = s2r__fnv1a(h, &v, sizeof v);
    }
    return h;
}

S2RDEF uint64_t s2r_socket_arm_digest(const s2r_arm_info* info) {
    const mjModel* m = info ? info->model : NULL;
    uint64_t h = 0xCBF29CE484222325ull;
    int sizes[5], k;
    if (!m) return 0;
    sizes[0] = m->nbody, sizes[1] = m->njnt, sizes[2] = m->nu, sizes[3] = m->nsite, sizes[4] = m->nnames;
    h = s2r__fnv1a(h, sizes, sizeof sizes);
    h = s2r__socket_digest_values(h, m->body_pos, 3 * m->nbody);
    h = s2r__socket_digest_values(h, m->body_quat, 4 * m->nbody);
    h = s2r__fnv1a(h, m->body_parentid, sizeof *m->body_parentid * (size_t)m->nbody);
    h = s2r__fnv1a(h, m->jnt_type, sizeof *m->jnt_type * (size_t)m->njnt);
    h = s2r__fnv1a(h, m->jnt_bodyid, sizeof *m->jnt_bodyid * (size_t)m->njnt);
    h = s2r__socket_digest_values(h, m->jnt_pos, 3 * m->njnt);
    h = s2r__socket_digest_values(h, m->jnt_axis, 3 * m->njnt);
    h = s2r__socket_digest_values(h, m->jnt_range, 2 * m->njnt);
    for (k = 0; k < m->nu; k++) {
        h = s2r__fnv1a(h, &m->actuator_trntype[k], sizeof *m->actuator_trntype);
        h = s2r__fnv1a(h, &m->actuator_trnid[2 * k], 2 * sizeof *m->actuator_trnid);
    }
    h = s2r__socket_digest_values(h, m->actuator_gear, 6 * m->nu);
    h = s2r__socket_digest_values(h, m->actuator_gainprm, mjNGAIN * m->nu);
    h = s2r__socket_digest_values(h, m->actuator_biasprm, mjNBIAS * m->nu);
    h = s2r__socket_digest_values(h, m->actuator_ctrlrange, 2 * m->nu);
    h = s2r__socket_digest_values(h, m->actuator_forcerange, 2 * m->nu);
    h = s2r__socket_digest_values(h, m->site_pos, 3 * m->nsite);
    h = s2r__fnv1a(h, m->names, (size_t)m->nnames);
    return h ? h : 1;   /* 0 says "not computed" */
}

/* The arm `info` describes as a hello carries it (kind, scene, joints,
   names, ranges, digest), packed and parsed so that it reads as the other
   side will read it. */
static void s2r__socket_arm_here(const s2r_arm_info* info, s2r_socket_message* m) {
    unsigned char bytes[S2R_SOCKET_MESSAGE_MAX];
    int j;
    memset(m, 0, sizeof *m);
    m->type = S2R_SOCKET_HELLO;
    m->kind = (int)info->kind;
    m->scene = (int)info->scene;
    m->n_joints = info->n_joints;
    m->digest = s2r_socket_arm_digest(info);
    snprintf(m->model, sizeof m->model, "%s", info->name);
    for (j = 0; j < info->n_joints && j < S2R_SOCKET_JOINTS; j++) {
        snprintf(m->joint_name[j], sizeof m->joint_name[j], "%s", info->joint_name[j]);
        m->q_min[j] = info->q_min[j];
        m->q_max[j] = info->q_max[j];
    }
    if (s2r_socket_parse(bytes, s2r_socket_pack(m, bytes), m, NULL) != S2R_OK) { /* no arm of the loader's is out of range */ }
}

/* 1 when hellos a and b name different arms, out (cap bytes) saying how in
   a sentence naming both sides' (a_side, b_side: "the client's", "this
   robot side's"); else 0. */
static int s2r__socket_arm_differs(const s2r_socket_message* a, const char* a_side, const s2r_socket_message* b,
                                   const char* b_side, char* out, size_t cap) {
    int j;
    if (a->kind != b->kind || (a->kind != S2R_ROBOT_CUSTOM && a->scene != b->scene)) {
        snprintf(out, cap, "%s arm is a %s (%s scene, %d joints), %s a %s (%s scene, %d joints)", a_side,
                 s2r_robot_kind_name((s2r_robot_kind)a->kind), s2r_scene_name((s2r_scene)a->scene), a->n_joints, b_side,
                 s2r_robot_kind_name((s2r_robot_kind)b->kind), s2r_scene_name((s2r_scene)b->scene), b->n_joints);
        return 1;
    }
    if (a->n_joints != b->n_joints) {
        snprintf(out, cap, "%s arm '%s' has %d joints, %s '%s' %d", a_side, a->model, a->n_joints, b_side, b->model,
                 b->n_joints);
        return 1;
    }
    for (j = 0; j < a->n_joints; j++)
        if (strcmp(a->joint_name[j], b->joint_name[j]) != 0 || !(fabs(a->q_min[j] - b->q_min[j]) <= S2R_SOCKET_RANGE_TOL) ||
            !(fabs(a->q_max[j] - b->q_max[j]) <= S2R_SOCKET_RANGE_TOL)) {
            snprintf(out, cap, "joint %d is '%s' [%.4f, %.4f] rad in %s '%s', '%s' [%.4f, %.4f] in %s '%s'", j + 1,
                     a->joint_name[j], a->q_min[j], a->q_max[j], a_side, a->model, b->joint_name[j], b->q_min[j],
                     b->q_max[j], b_side, b->model);
            return 1;
        }
    if (a->digest && b->digest && a->digest != b->digest) {
        snprintf(out, cap, "%s '%s' and %s '%s' have the same joints but not the same kinematics or actuators (model "
                 "digests %016llx, %016llx)", a_side, a->model, b_side, b->model, (unsigned long long)a->digest,
                 (unsigned long long)b->digest);
        return 1;
    }
    return 0;
}

/* The header: magic, version, type, direction, status and the size its
   type and status fix. */
static s2r_result s2r__socket_parse_header(const unsigned char* b, size_t n, s2r_socket_message* m, char* error) {
    const unsigned char* p = b;
    uint32_t magic, size, want;
    int32_t status;
    if (n < S2R_SOCKET_HEADER)
        return s2r__fail(error, S2R_ERR_CORRUPT, "message truncated: %lu bytes, a header alone is %d", (unsigned long)n, S2R_SOCKET_HEADER);
    magic = s2r__unwire_u32(&p);
    if (magic != 0x53523253u) return s2r__fail(error, S2R_ERR_CORRUPT, "not a sim2real.h socket message (bad magic)");
    m->version = b[4] | b[5] << 8;
    if (b[4] != S2R_SOCKET_VERSION || b[5] != 0)
        return s2r__fail(error, S2R_ERR_CORRUPT, "protocol version %u, this build speaks %d", (unsigned)(b[4] | b[5] << 8), S2R_SOCKET_VERSION);
    if (b[6] < S2R_SOCKET_HELLO || b[6] >= S2R_SOCKET_TYPE_END || b[7] > 1)
        return s2r__fail(error, S2R_ERR_CORRUPT, "unknown message type %u (direction %u)", (unsigned)b[6], (unsigned)b[7]);
    m->type = (s2r_socket_type)b[6];
    m->reply = b[7];
    if (m->type == S2R_SOCKET_BYE && m->reply)
        return s2r__fail(error, S2R_ERR_CORRUPT, "a bye reply: bye has none (the client closes after it)");
    p = b + 8;
    status = (int32_t)s2r__unwire_u32(&p);
    size = s2r__unwire_u32(&p);
    if (status > 0 || status <= -S2R_RESULT_COUNT_ || (status && !m->reply))
        return s2r__fail(error, S2R_ERR_CORRUPT, "%s: status %ld is not a result code", s2r__socket_type_names[m->type], (long)status);
    m->status = (s2r_result)status;
    want = status ? S2R_SOCKET_TEXT : s2r__socket_payload[m->reply][m->type];
    if (size != want || n != S2R_SOCKET_HEADER + (size_t)size)
        return s2r__fail(error, S2R_ERR_CORRUPT, "%s %s of %lu bytes, protocol %d's is %lu (truncated or malformed)",
                         s2r__socket_type_names[m->type], m->reply ? "reply" : "request", (unsigned long)(n - S2R_SOCKET_HEADER),
                         S2R_SOCKET_VERSION, (unsigned long)want);
    return S2R_OK;
}

/* Text of at most cap - 1 bytes up to its first NUL, from a field of
   `field` bytes, printable: a byte outside ' '..'~' (a terminal's escape
   sequence, a newline) becomes \xNN, as far as it fits.  What follows the
   NUL is not kept, so a message parses the same packed again. */
static void s2r__socket_text(char* dst, const unsigned char* src, size_t field, size_t cap) {
    size_t i, n = 0;
    for (i = 0; i < field && src[i]; i++) {
        if (src[i] >= ' ' && src[i] <= '~') {
            if (n + 1 >= cap) break;
            dst[n++] = (char)src[i];
        } else {
            if (n + 4 >= cap) break;
            snprintf(dst + n, 5, "\\x%02x", (unsigned)src[i]);
            n += 4;
        }
    }
    memset(dst + n, 0, cap - n);
}

/* Readings (not time) finite and within S2R_SOCKET_READING_MAX. */
static int s2r__socket_readings_ok(const double* x, int n) {
    int i;
    for (i = 0; i < n; i++)
        if (!(fabs(x[i]) <= S2R_SOCKET_READING_MAX)) return 0;
    return 1;
}

S2RDEF s2r_result s2r_socket_parse(const unsigned char* bytes, size_t n, s2r_socket_message* m, char* error) {
    const unsigned char* p = bytes + S2R_SOCKET_HEADER;
    s2r_result res;
    if (!m || !bytes) return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "socket message: no %s", m ? "bytes" : "message to fill");
    memset(m, 0, sizeof *m);
    if ((res = s2r__socket_parse_header(bytes, n, m, error)) != S2R_OK) return res;
    if (m->status != S2R_OK) {
        s2r__socket_text(m->text, p, S2R_SOCKET_TEXT, sizeof m->text);
        return S2R_OK;
    }
    if (m->type == S2R_SOCKET_HELLO) {
        int j;
        m->kind = (int)s2r__unwire_u32(&p);
        m->scene = (int)s2r__unwire_u32(&p);
        m->n_joints = (int)s2r__unwire_u32(&p);
        p += 4;
        m->digest = s2r__unwire_u64(&p);
        s2r__socket_text(m->model, p, S2R_SOCKET_NAME, sizeof m->model);
        p += S2R_SOCKET_NAME;
        for (j = 0; j < S2R_SOCKET_JOINTS; j++, p += S2R_SOCKET_NAME)
            s2r__socket_text(m->joint_name[j], p, S2R_SOCKET_NAME, sizeof m->joint_name[j]);
        s2r__unwire_f64s(&p, m->q_min, S2R_SOCKET_JOINTS);
        s2r__unwire_f64s(&p, m->q_max, S2R_SOCKET_JOINTS);
        if (m->reply) {
            s2r__unwire_f64s(&p, &m->period, 1);
            s2r__socket_text(m->name, p, 48, sizeof m->name);
        }
        if (m->kind < 0 || m->kind >= S2R_ROBOT_COUNT || m->scene < 0 || m->scene >= S2R_SCENE_COUNT ||
            m->n_joints < 1 || m->n_joints > S2R_SOCKET_JOINTS || (m->reply && !(m->period > 0 && m->period <= 1)))
            return s2r__fail(error, S2R_ERR_CORRUPT, "hello: arm kind %d, scene %d, %d joints, period %g s: out of range",
                             m->kind, m->scene, m->n_joints, m->period);
        for (j = 0; j < S2R_SOCKET_JOINTS; j++) {
            if (j < m->n_joints && !(s2r__socket_readings_ok(&m->q_min[j], 1) && s2r__socket_readings_ok(&m->q_max[j], 1) &&
                                     m->q_min[j] <= m->q_max[j]))
                return s2r__fail(error, S2R_ERR_CORRUPT, "hello: joint %d's range [%g, %g] rad is not a range", j + 1,
                                 m->q_min[j], m->q_max[j]);
            if (j >= m->n_joints && (m->q_min[j] != 0 || m->q_max[j] != 0 || m->joint_name[j][0]))
                return s2r__fail(error, S2R_ERR_CORRUPT, "hello: joint slot %d holds a joint, but the arm has %d joints: it "
                                 "speaks for another arm", j + 1, m->n_joints);
        }
    } else if (m->type == S2R_SOCKET_RESET) {
        if (!m->reply) {
            m->flags = s2r__unwire_u32(&p);
            p += 4;
            s2r__unwire_f64s(&p, m->q, S2R_SOCKET_JOINTS);
            s2r__unwire_f64s(&p, m->target, 3);
            if (m->flags > 7) return s2r__fail(error, S2R_ERR_CORRUPT, "reset: unknown flags 0x%x", m->flags);
        }
        m->rng[0] = s2r__unwire_u64(&p), m->rng[1] = s2r__unwire_u64(&p);
        m->rng[2] = s2r__unwire_u64(&p), m->rng[3] = s2r__unwire_u64(&p);
    } else if (m->type == S2R_SOCKET_COMMAND && !m->reply) {
        s2r__unwire_f64s(&p, m->q, S2R_SOCKET_JOINTS);
    } else if (m->type == S2R_SOCKET_ADVANCE && !m->reply) {
        s2r__unwire_f64s(&p, &m->seconds, 1);
    } else if (m->type == S2R_SOCKET_PLACE && !m->reply) {
        s2r__unwire_f64s(&p, m->xy, 2);
    } else if (m->type == S2R_SOCKET_SENSORS && m->reply) {
        s2r_sensors* s = &m->sensors;
        s2r__unwire_f64s(&p, &s->time, 1);
        s2r__unwire_f64s(&p, s->q, S2R_SOCKET_JOINTS);
        s2r__unwire_f64s(&p, s->qd, S2R_SOCKET_JOINTS);
        s2r__unwire_f64s(&p, s->tau, S2R_SOCKET_JOINTS);
        s2r__unwire_f64s(&p, s->target, 3);
        s2r__unwire_f64s(&p, s->object, 3);
        if (!s2r_all_finite(&s->time, 1) || !s2r__socket_readings_ok(s->q, S2R_SOCKET_JOINTS) ||
            !s2r__socket_readings_ok(s->qd, S2R_SOCKET_JOINTS) || !s2r__socket_readings_ok(s->tau, S2R_SOCKET_JOINTS) ||
            !s2r__socket_readings_ok(s->target, 3) || !s2r__socket_readings_ok(s->object, 3))
            return s2r__fail(error, S2R_ERR_CORRUPT, "sensors: a reading is NaN, Inf or beyond %g", S2R_SOCKET_READING_MAX);
    } else if (m->type == S2R_SOCKET_TRUTH && m->reply) {
        s2r_ground_truth* t = &m->truth;
        s2r__unwire_f64s(&p, t->flange, 3);
        s2r__unwire_f64s(&p, t->flange_vel, 3);
        s2r__unwire_f64s(&p, t->target, 3);
        s2r__unwire_f64s(&p, t->q, S2R_SOCKET_JOINTS);
        t->diverged = (int)s2r__unwire_u32(&p);
        p += 4;
        s2r__unwire_f64s(&p, t->tip, 3);
        s2r__unwire_f64s(&p, t->tip_vel, 3);
        s2r__unwire_f64s(&p, t->object, 3);
        s2r__unwire_f64s(&p, t->object_vel, 3);
        if (t->diverged != 0 && t->diverged != 1) return s2r__fail(error, S2R_ERR_CORRUPT, "truth: diverged is %d, not 0 or 1", t->diverged);
        if (!t->diverged && (!s2r__socket_readings_ok(t->flange, 3) || !s2r__socket_readings_ok(t->flange_vel, 3) ||
            !s2r__socket_readings_ok(t->target, 3) || !s2r__socket_readings_ok(t->q, S2R_SOCKET_JOINTS) ||
            !s2r__socket_readings_ok(t->tip, 3) || !s2r__socket_readings_ok(t->tip_vel, 3) ||
            !s2r__socket_readings_ok(t->object, 3) || !s2r__socket_readings_ok(t->object_vel, 3)))   /* diverged: anything */
            return s2r__fail(error, S2R_ERR_CORRUPT, "truth: a value is NaN, Inf or beyond %g", S2R_SOCKET_READING_MAX);
    }
    return S2R_OK;
}

#endif /* SIM2REAL_IMPLEMENTATION */

/* LICENSE: the same as sim2real.h's (MIT), at the end of that file. */
