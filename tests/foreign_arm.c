/* tests/foreign_arm.c - "the real arm" for the foreign-arm test: a program
   that knows nothing of sim2real.h (plain MuJoCo C API, POSIX sockets and
   stdio; it must not include the header) and simulates an arm from its
   MJCF made different on purpose, with parameters planted where the
   identification cannot see them:

     --kp X            the servos' position gain times X (gainprm, biasprm[1]); 0.9
     --kv X            their velocity gain times X (biasprm[2]); 1.5
     --armature X      each joint's armature times X; 1.6
     --frictionloss X  N m of dry friction added to each joint; 0.5
     --command-delay S s between a command arriving and the servos acting on it; 0.03
     --sensing-delay S s between a joint moving and its reading; 0.01
     --noise RAD       encoder noise (std, rad; qd gets 10 times it, rad/s); 1e-5
     --seed N          the noise's stream; 1

   Two ways to be recorded, both documented in the repository:
     --serve PATH [--clients N]   the socket protocol of sim2real_socket.h
                                  (version 2) on a Unix socket: hello as a
                                  custom arm (its model's name, joint names
                                  and ranges; digest 0: not computed),
                                  reset moves to q0 and settles under
                                  gravity, command, advance, sensors,
                                  truth, halt, bye.  N clients, then exit
                                  (1).
     --play EXC.csv --log LOG.csv [--log-rate HZ]
                                  the robot side's job by hand: read an
                                  excitation file (12 --write-excitation),
                                  move slowly to its first row from home,
                                  settle, play each row at its t and write
                                  the trajectory file of sim2real_logs.h
                                  (t, command_J, q_J, qd_J) at HZ rows a
                                  second (default 250), with a "# rate HZ Hz"
                                  line above the columns.  --claim-rate HZ
                                  writes that rate on the line instead (a
                                  logger that says another rate than it
                                  recorded at, for the tests).

   The arm's joints are the model's actuators that drive a hinge or slide
   joint, in actuator order (the library's joint order, counted from 1 in
   the files).  The physics is MuJoCo's own (its actuators, its
   integrator), not the library's servo law. */
#define _POSIX_C_SOURCE 200809L
#include <mujoco/mujoco.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define SLOTS 8            /* joint slots in every message (protocol 2) */
#define NAME 32            /* bytes of a name in the hello                */
#define ARM_BYTES (16 + 8 + NAME * (1 + SLOTS) + 16 * SLOTS)   /* the arm in both hellos: 440 */
#define HISTORY 4096       /* physics steps of delay the rings hold       */

typedef struct arm {
    mjModel* m;
    mjData*  d;
    int      n, act[SLOTS], jnt[SLOTS], qadr[SLOTS], vadr[SLOTS], flange, target;
    double   goal[SLOTS];                  /* the latest command (rad)                     */
    double   cmd_ring[HISTORY][SLOTS];     /* commands by physics step                     */
    double   state_ring[HISTORY][2 * SLOTS];  /* true q, qd by physics step               */
    long     steps;                        /* physics steps since reset                    */
    int      command_delay, sensing_delay; /* physics steps                                */
    double   noise, time;
    uint64_t rng;
    int      halted;
} arm;

static double gauss(uint64_t* s) {   /* Box-Muller on xorshift64* */
    double u[2];
    int i;
    for (i = 0; i < 2; i++) {
        *s ^= *s >> 12, *s ^= *s << 25, *s ^= *s >> 27;
        u[i] = ((*s * 2685821657736338717ULL) >> 11) * (1.0 / 9007199254740992.0);
    }
    return sqrt(-2 * log(u[0] + 1e-300)) * cos(6.283185307179586 * u[1]);
}

static void record_state(arm* a) {
    double* s = a->state_ring[a->steps % HISTORY];
    int j;
    for (j = 0; j < a->n; j++) s[j] = a->d->qpos[a->qadr[j]], s[SLOTS + j] = a->d->qvel[a->vadr[j]];
}

/* One physics step: the command of command_delay steps ago drives the servos. */
static void step(arm* a) {
    int j;
    memcpy(a->cmd_ring[a->steps % HISTORY], a->goal, sizeof a->goal);
    for (j = 0; j < a->n; j++)
        a->d->ctrl[a->act[j]] = a->halted ? a->goal[j] : a->cmd_ring[(a->steps + HISTORY - a->command_delay) % HISTORY][j];
    mj_step(a->m, a->d);
    a->steps++;
    a->time += a->m->opt.timestep;
    record_state(a);
}

/* At rest at q (rad) with the servos holding q: placed there, then left to
   settle under gravity (at least 0.5 s, until every joint is below 1e-4
   rad/s, at most 5 s); the rings filled with the settled arm. */
static void reset(arm* a, const double* q) {
    int j, k;
    double t = 0, fastest;
    mj_resetData(a->m, a->d);
    for (j = 0; j < a->n; j++) a->d->qpos[a->qadr[j]] = a->goal[j] = q[j];
    a->halted = 1;   /* the servos act on the goal directly while settling */
    mj_forward(a->m, a->d);
    do {
        step(a);
        t += a->m->opt.timestep;
        for (j = 0, fastest = 0; j < a->n; j++) fastest = fmax(fastest, fabs(a->d->qvel[a->vadr[j]]));
    } while ((t < 0.5 || fastest > 1e-4) && t < 5);
    a->halted = 0;
    a->steps = 0;
    a->time = 0;
    for (k = 0; k < HISTORY; k++) memcpy(a->cmd_ring[k], a->goal, sizeof a->goal);
    record_state(a);
    for (k = 1; k < HISTORY; k++) memcpy(a->state_ring[k], a->state_ring[0], sizeof a->state_ring[0]);
}

/* The reading: the state of sensing_delay steps ago, with encoder noise. */
static void read_joints(arm* a, double* q, double* qd) {
    const double* s = a->state_ring[(a->steps + HISTORY - a->sensing_delay) % HISTORY];
    int j;
    for (j = 0; j < a->n; j++) {
        q[j] = s[j] + a->noise * gauss(&a->rng);
        qd[j] = s[SLOTS + j] + 10 * a->noise * gauss(&a->rng);
    }
}

static int load(arm* a, const char* path, double kp, double kv, double armature, double frictionloss) {
    char error[1000];
    int u, j;
    memset(a, 0, sizeof *a);
    if (!(a->m = mj_loadXML(path, NULL, error, sizeof error))) {
        fprintf(stderr, "foreign_arm: %s: %s\n", path, error);
        return 1;
    }
    a->d = mj_makeData(a->m);
    for (u = 0; u < a->m->nu && a->n < SLOTS; u++) {
        int jnt = a->m->actuator_trnid[2 * u];
        if (a->m->actuator_trntype[u] != mjTRN_JOINT || (a->m->jnt_type[jnt] != mjJNT_HINGE && a->m->jnt_type[jnt] != mjJNT_SLIDE))
            continue;   /* a gripper on a tendon: not the arm */
        j = a->n++;
        a->act[j] = u;
        a->jnt[j] = jnt;
        a->qadr[j] = a->m->jnt_qposadr[jnt];
        a->vadr[j] = a->m->jnt_dofadr[jnt];
        a->m->actuator_gainprm[u * mjNGAIN] *= kp;          /* the planted parameters */
        a->m->actuator_biasprm[u * mjNBIAS + 1] *= kp;
        a->m->actuator_biasprm[u * mjNBIAS + 2] *= kv;
        a->m->dof_armature[a->vadr[j]] *= armature;
        a->m->dof_frictionloss[a->vadr[j]] += frictionloss;
    }
    a->flange = mj_name2id(a->m, mjOBJ_SITE, "flange");
    a->target = mj_name2id(a->m, mjOBJ_BODY, "target");
    if (a->target >= 0) a->target = a->m->body_mocapid[a->target];
    if (a->n == 0) {
        fprintf(stderr, "foreign_arm: %s has no joint servo\n", path);
        return 1;
    }
    return 0;
}

static void home(const arm* a, double* q) {
    int key = mj_name2id(a->m, mjOBJ_KEY, "home"), j;
    for (j = 0; j < a->n; j++) q[j] = key >= 0 ? a->m->key_qpos[key * a->m->nq + a->qadr[j]] : a->m->qpos0[a->qadr[j]];
}

/* --- The socket protocol, version 2 (sim2real_socket.h), little-endian --- */

static void put_u32(unsigned char* b, uint32_t v) { int i; for (i = 0; i < 4; i++) b[i] = (unsigned char)(v >> 8 * i); }
static uint32_t get_u32(const unsigned char* b) { return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24; }
static void put_f64(unsigned char* b, double x) { uint64_t v; int i; memcpy(&v, &x, 8); for (i = 0; i < 8; i++) b[i] = (unsigned char)(v >> 8 * i); }
static double get_f64(const unsigned char* b) { uint64_t v = 0; double x; int i; for (i = 0; i < 8; i++) v |= (uint64_t)b[i] << 8 * i; memcpy(&x, &v, 8); return x; }

static int move_bytes(int fd, unsigned char* b, size_t n, int sending) {
    size_t done = 0;
    while (done < n) {
        ssize_t k = sending ? send(fd, b + done, n - done, MSG_NOSIGNAL) : recv(fd, b + done, n - done, 0);
        if (k <= 0) { if (k < 0 && errno == EINTR) continue; return 1; }
        done += (size_t)k;
    }
    return 0;
}

static int reply(int fd, int type, int32_t status, const unsigned char* payload, uint32_t size) {
    unsigned char b[16 + ARM_BYTES + 56];
    put_u32(b, 0x53523253u);
    b[4] = 2, b[5] = 0, b[6] = (unsigned char)type, b[7] = 1;
    put_u32(b + 8, (uint32_t)status);
    put_u32(b + 12, size);
    memcpy(b + 16, payload, size);
    return move_bytes(fd, b, 16 + size, 1);
}

static int refuse(int fd, int type, int32_t status, const char* text) {
    unsigned char t[128];
    memset(t, 0, sizeof t);
    strncpy((char*)t, text, sizeof t - 1);
    return reply(fd, type, status, t, 128);
}

/* One client until it goes (bye, or its connection closed); 0 when it went
   away cleanly. */
static int serve_client(arm* a, int fd) {
    static const uint32_t request_bytes[10] = {0, ARM_BYTES, 128, 64, 8, 0, 0, 0, 16, 0};
    unsigned char h[16], p[ARM_BYTES], out[ARM_BYTES + 56];
    double q[SLOTS], qd[SLOTS];
    int j;
    for (;;) {
        uint32_t size;
        int type;
        memset(out, 0, sizeof out);
        if (move_bytes(fd, h, 16, 0)) return 0;
        type = h[6];
        size = get_u32(h + 12);
        if (get_u32(h) != 0x53523253u || h[4] != 2 || h[5] != 0 || h[7] != 0 || type < 1 || type > 9 ||
            size != request_bytes[type] || move_bytes(fd, p, size, 0))
            return 1;
        switch (type) {
        case 1:   /* hello: a custom arm (kind 2), the arm scene, its joints (names, ranges), the servo cycle;
                     the client's arm (in p) is its own to check against this answer */
            put_u32(out, 2), put_u32(out + 4, 0), put_u32(out + 8, (uint32_t)a->n), put_u32(out + 12, 0);
            /* out + 16: digest 0, not computed */
            strncpy((char*)out + 24, a->m->names, NAME - 1);   /* the model's name: the first of names */
            for (j = 0; j < a->n; j++) {
                const char* name = mj_id2name(a->m, mjOBJ_JOINT, a->jnt[j]);
                strncpy((char*)out + 24 + NAME * (1 + j), name ? name : "", NAME - 1);
                put_f64(out + 24 + NAME * (1 + SLOTS) + 8 * j, a->m->jnt_range[2 * a->jnt[j]]);
                put_f64(out + 24 + NAME * (1 + SLOTS) + 8 * (SLOTS + j), a->m->jnt_range[2 * a->jnt[j] + 1]);
            }
            put_f64(out + ARM_BYTES, a->m->opt.timestep);
            strcpy((char*)out + ARM_BYTES + 8, "foreign arm (MuJoCo only)");
            if (reply(fd, 1, 0, out, ARM_BYTES + 56)) return 1;
            break;
        case 9:   /* bye: the client finished */
            return 0;
        case 2: {   /* reset: move to q0 (or home) and settle; the generator echoed */
            uint32_t flags = get_u32(p);
            for (j = 0; j < a->n; j++) q[j] = get_f64(p + 8 + 8 * j);
            if (!(flags & 1)) home(a, q);
            for (j = 0; j < a->n; j++)
                if (!isfinite(q[j])) return refuse(fd, 2, -1, "start pose contains NaN or Inf");
            reset(a, q);
            if (reply(fd, 2, 0, p + 96, 32)) return 1;
            break;
        }
        case 3:   /* command */
            for (j = 0; j < a->n; j++) q[j] = get_f64(p + 8 * j);
            for (j = 0; j < a->n; j++)
                if (!isfinite(q[j])) { if (refuse(fd, 3, -1, "command contains NaN or Inf")) return 1; goto next; }
            if (!a->halted) memcpy(a->goal, q, sizeof(double) * (size_t)a->n);
            if (reply(fd, 3, 0, out, 0)) return 1;
            break;
        case 4: {   /* advance */
            double s = get_f64(p);
            long k, steps = lround(s / a->m->opt.timestep);
            if (!(s >= 0 && s <= 1)) { if (refuse(fd, 4, -1, "advance: seconds outside [0, 1]")) return 1; break; }
            for (k = 0; k < steps; k++) step(a);
            if (reply(fd, 4, 0, out, 0)) return 1;
            break;
        }
        case 5:   /* sensors: time, q, qd, tau, target, object */
            read_joints(a, q, qd);
            put_f64(out, a->time);
            for (j = 0; j < a->n; j++) {
                put_f64(out + 8 + 8 * j, q[j]);
                put_f64(out + 8 + 8 * (SLOTS + j), qd[j]);
                put_f64(out + 8 + 8 * (2 * SLOTS + j), a->d->actuator_force[a->act[j]]);
            }
            for (j = 0; j < 3 && a->target >= 0; j++) put_f64(out + 8 + 8 * (3 * SLOTS + j), a->d->mocap_pos[3 * a->target + j]);
            if (reply(fd, 5, 0, out, 248)) return 1;
            break;
        case 6: {   /* truth: flange, its velocity, target, q; diverged 0; no object */
            mjtNum v6[6];
            if (a->flange >= 0) {
                mj_objectVelocity(a->m, a->d, mjOBJ_SITE, a->flange, v6, 0);
                for (j = 0; j < 3; j++) put_f64(out + 8 * j, a->d->site_xpos[3 * a->flange + j]), put_f64(out + 24 + 8 * j, v6[3 + j]);
            }
            for (j = 0; j < 3 && a->target >= 0; j++) put_f64(out + 48 + 8 * j, a->d->mocap_pos[3 * a->target + j]);
            for (j = 0; j < a->n; j++) put_f64(out + 72 + 8 * j, a->d->qpos[a->qadr[j]]);
            if (reply(fd, 6, 0, out, 240)) return 1;
            break;
        }
        case 7:   /* halt: hold where it is, below the command path */
            for (j = 0; j < a->n; j++) a->goal[j] = a->d->qpos[a->qadr[j]];
            a->halted = 1;
            if (reply(fd, 7, 0, out, 0)) return 1;
            break;
        default:
            if (refuse(fd, type, -9, "this arm has no object to place")) return 1;
        }
    next:;
    }
}

static int serve(arm* a, const char* path, int clients) {
    struct sockaddr_un addr;
    int listener = socket(AF_UNIX, SOCK_STREAM, 0), served;
    memset(&addr, 0, sizeof addr);
    addr.sun_family = AF_UNIX;
    if (strlen(path) >= sizeof addr.sun_path) { fprintf(stderr, "foreign_arm: socket path too long\n"); return 1; }
    strcpy(addr.sun_path, path);
    unlink(path);
    if (listener < 0 || bind(listener, (struct sockaddr*)&addr, sizeof addr) || listen(listener, 4)) {
        fprintf(stderr, "foreign_arm: cannot serve at %s: %s\n", path, strerror(errno));
        return 1;
    }
    printf("foreign arm: %d joints, serving at %s\n", a->n, path);
    fflush(stdout);
    for (served = 0; served < clients; served++) {
        int fd = accept(listener, NULL, NULL);
        if (fd < 0) { served--; continue; }
        if (serve_client(a, fd)) fprintf(stderr, "foreign_arm: a malformed request; client dropped\n");
        a->halted = 1;
        close(fd);
    }
    close(listener);
    unlink(path);
    return 0;
}

/* --- Playing an excitation file by hand ------------------------------------ */

/* The file's rows: t and command_1..command_n, '#' lines skipped. */
static int read_excitation(const char* path, int n, double** rows, int* count) {
    FILE* f = fopen(path, "r");
    char line[4096];
    int header = 0, cap = 0, j;
    *rows = NULL, *count = 0;
    if (!f) { fprintf(stderr, "foreign_arm: %s: %s\n", path, strerror(errno)); return 1; }
    while (fgets(line, sizeof line, f)) {
        char* s = line;
        double* r;
        if (line[0] == '#' || line[0] == '\n') continue;
        if (!header) {   /* t,command_1,...,command_n */
            char expect[4096];
            int at = snprintf(expect, sizeof expect, "t");
            for (j = 1; j <= n; j++) at += snprintf(expect + at, sizeof expect - (size_t)at, ",command_%d", j);
            if (strncmp(line, expect, (size_t)at) != 0 || (line[at] != '\n' && line[at] != '\r' && line[at])) {
                fprintf(stderr, "foreign_arm: %s: expected the columns %s\n", path, expect);
                fclose(f);
                return 1;
            }
            header = 1;
            continue;
        }
        if (*count == cap) *rows = (double*)realloc(*rows, sizeof(double) * (size_t)(n + 1) * (size_t)(cap = cap ? 2 * cap : 256));
        r = *rows + (size_t)*count * (size_t)(n + 1);
        for (j = 0; j <= n; j++) {
            char* end;
            r[j] = strtod(s, &end);
            if (end == s) { fprintf(stderr, "foreign_arm: %s: a row that is not %d numbers\n", path, n + 1); fclose(f); return 1; }
            s = end + (*end == ',');
        }
        ++*count;
    }
    fclose(f);
    if (*count < 2) { fprintf(stderr, "foreign_arm: %s: fewer than two rows\n", path); return 1; }
    return 0;
}

static int play(arm* a, const char* exc, const char* out, double log_rate, double claim_rate) {
    double *rows, q[SLOTS], qd[SLOTS], start[SLOTS], period, end, t;
    int count, j, k, row = 0;
    long every, steps = 0;
    FILE* f;
    if (read_excitation(exc, a->n, &rows, &count)) return 1;
    period = rows[a->n + 1] - rows[0];
    end = rows[(size_t)(count - 1) * (a->n + 1)] - rows[0] + period;   /* the last row's reading too */
    every = lround(1 / (log_rate * a->m->opt.timestep));
    if (every < 1) every = 1;
    home(a, start);   /* the arm is at home; it moves to the first row over 2 s, then settles */
    reset(a, start);
    for (k = 1; k <= 1000; k++) {
        for (j = 0; j < a->n; j++) a->goal[j] = start[j] + (rows[1 + j] - start[j]) * k / 1000.0;
        step(a);
    }
    for (j = 0; j < a->n; j++) q[j] = rows[1 + j];
    reset(a, q);   /* settle there (the same as holding the command until at rest) */
    if (!(f = fopen(out, "w"))) { fprintf(stderr, "foreign_arm: %s: %s\n", out, strerror(errno)); return 1; }
    fprintf(f, "# foreign arm: %s played at %g Hz, recorded at %g Hz\n# rate %g Hz\nt", exc, 1 / period,
            1 / (every * a->m->opt.timestep), claim_rate > 0 ? claim_rate : 1 / (every * a->m->opt.timestep));
    for (j = 1; j <= a->n; j++) fprintf(f, ",command_%d", j);
    for (j = 1; j <= a->n; j++) fprintf(f, ",q_%d", j);
    for (j = 1; j <= a->n; j++) fprintf(f, ",qd_%d", j);
    fputc('\n', f);
    for (;;) {
        t = steps * a->m->opt.timestep;
        while (row + 1 < count && rows[(size_t)(row + 1) * (a->n + 1)] - rows[0] <= t + 1e-9) row++;
        memcpy(a->goal, rows + (size_t)row * (a->n + 1) + 1, sizeof(double) * (size_t)a->n);   /* sent at its t */
        if (steps % every == 0) {   /* the reading at t, and the command in force from t */
            read_joints(a, q, qd);
            fprintf(f, "%.9g", t);
            for (j = 0; j < a->n; j++) fprintf(f, ",%.17g", a->goal[j]);
            for (j = 0; j < a->n; j++) fprintf(f, ",%.17g", q[j]);
            for (j = 0; j < a->n; j++) fprintf(f, ",%.17g", qd[j]);
            fputc('\n', f);
        }
        if (t >= end - 1e-9) break;
        step(a);
        steps++;
    }
    free(rows);
    return fclose(f) != 0;
}

int main(int argc, char** argv) {
    double kp = 0.9, kv = 1.5, armature = 1.6, frictionloss = 0.5, command_delay = 0.03, sensing_delay = 0.01;
    double noise = 1e-5, log_rate = 250, claim_rate = 0;
    const char *model = NULL, *address = NULL, *exc = NULL, *log_path = NULL;
    int i, clients = 1, status;
    unsigned long seed = 1;
    static arm a;
    for (i = 1; i < argc; i++) {
        const char* o = argv[i];
        const char* v = i + 1 < argc ? argv[i + 1] : NULL;
        if (o[0] != '-') { model = o; continue; }
        if (!v) { fprintf(stderr, "foreign_arm: %s needs a value\n", o); return 2; }
        i++;
        if (!strcmp(o, "--kp")) kp = atof(v);
        else if (!strcmp(o, "--kv")) kv = atof(v);
        else if (!strcmp(o, "--armature")) armature = atof(v);
        else if (!strcmp(o, "--frictionloss")) frictionloss = atof(v);
        else if (!strcmp(o, "--command-delay")) command_delay = atof(v);
        else if (!strcmp(o, "--sensing-delay")) sensing_delay = atof(v);
        else if (!strcmp(o, "--noise")) noise = atof(v);
        else if (!strcmp(o, "--seed")) seed = strtoul(v, NULL, 10);
        else if (!strcmp(o, "--serve")) address = v;
        else if (!strcmp(o, "--clients")) clients = atoi(v);
        else if (!strcmp(o, "--play")) exc = v;
        else if (!strcmp(o, "--log")) log_path = v;
        else if (!strcmp(o, "--log-rate")) log_rate = atof(v);
        else if (!strcmp(o, "--claim-rate")) claim_rate = atof(v);
        else { fprintf(stderr, "foreign_arm: unknown option %s\n", o); return 2; }
    }
    if (!model || (!address && !(exc && log_path)) || !(log_rate > 0)) {
        fprintf(stderr, "usage: foreign_arm MODEL.xml (--serve PATH [--clients N] | --play EXC.csv --log LOG.csv "
                "[--log-rate HZ]) [--kp X --kv X --armature X --frictionloss NM --command-delay S --sensing-delay S "
                "--noise RAD --seed N]\n");
        return 2;
    }
    if (load(&a, model, kp, kv, armature, frictionloss)) return 1;
    a.command_delay = (int)lround(command_delay / a.m->opt.timestep);
    a.sensing_delay = (int)lround(sensing_delay / a.m->opt.timestep);
    a.noise = noise;
    a.rng = 0x9E3779B97F4A7C15ULL * (seed + 1);
    if (a.command_delay < 0 || a.sensing_delay < 0 || a.command_delay >= HISTORY || a.sensing_delay >= HISTORY) {
        fprintf(stderr, "foreign_arm: delays must be 0 to %d physics steps\n", HISTORY - 1);
        return 2;
    }
    status = address ? serve(&a, address, clients) : play(&a, exc, log_path, log_rate, claim_rate);
    mj_deleteData(a.d);
    mj_deleteModel(a.m);
    return status;
}
