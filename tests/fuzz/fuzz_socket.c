/* tests/fuzz/fuzz_socket.c - libFuzzer harness for the socket backend's
   message reader (s2r_socket_parse, which both sides of the socket call on
   every message they receive: header first, then the payload its size
   field announced).

   Each input goes to s2r_socket_parse in a buffer of exactly its size,
   and the documented contract is checked:

     - on error: S2R_ERR_CORRUPT and a NUL-terminated message within
       S2R_ERROR_LEN;
     - on success: the type and direction are known (never a bye reply),
       an error reply's text and a hello's names (the unit's, the model's,
       the joints') are terminated and printable (' '..'~': other bytes
       arrive as \xNN), a sensors reply holds only finite readings
       within S2R_SOCKET_READING_MAX, so does a truth reply that is not
       diverged, a hello's joint count fits and its joint ranges are
       ranges (finite, bounded, min <= max; the slots past the count
       empty); packed again it has the input's size and parses to the
       same message (padding and bytes after a text's end are not kept).

   Build and run (make fuzz does this with a scratch copy of the corpus):
       clang -g -O1 -fsanitize=fuzzer,address,undefined -I. -I/usr/include/stb \
           tests/fuzz/fuzz_socket.c -o build/fuzz_socket -lmujoco -lm
       ./build/fuzz_socket -max_total_time=60 CORPUS_COPY
   The seed corpus (tests/fuzz/corpus/socket/: every request and reply of
   protocol 2, an error reply, and a hello of protocol 1) is written by the same file built with
   -DFUZZ_WRITE_SEEDS (a plain main, no libFuzzer):
       cc -I. -I/usr/include/stb -DFUZZ_WRITE_SEEDS tests/fuzz/fuzz_socket.c \
           -o build/socket_seeds -lmujoco -lm
       ./build/socket_seeds tests/fuzz/corpus/socket */
#define SIM2REAL_IMPLEMENTATION
#include "../../sim2real.h"
#include "../../sim2real_socket.h"
#include <stdlib.h>
#include <string.h>

static void fuzz_fail(const char* what, const char* detail) {
    fprintf(stderr, "fuzz_socket: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    abort();
}

/* Every value finite and within S2R_SOCKET_READING_MAX. */
static int fuzz_bounded(const double* x, int n) {
    int i;
    for (i = 0; i < n; i++)
        if (!(fabs(x[i]) <= S2R_SOCKET_READING_MAX)) return 0;
    return 1;
}

/* Text up to its NUL within cap, printable ASCII only. */
static int fuzz_printable(const char* text, size_t cap) {
    size_t i;
    for (i = 0; i < cap && text[i]; i++)
        if (text[i] < ' ' || text[i] > '~') return 0;
    return i < cap;
}

static void fuzz_one(const unsigned char* bytes, size_t size) {
    char error[S2R_ERROR_LEN];
    unsigned char again[S2R_SOCKET_MESSAGE_MAX];
    s2r_socket_message m, back;
    size_t n;
    int j;
    memset(error, 0x5A, sizeof error);
    if (s2r_socket_parse(bytes, size, &m, error) != S2R_OK) {
        if (!memchr(error, '\0', sizeof error)) fuzz_fail("error message not terminated", NULL);
        if (s2r_socket_parse(bytes, size, &back, NULL) != S2R_ERR_CORRUPT) fuzz_fail("a refused message must be S2R_ERR_CORRUPT", error);
        return;
    }
    if (m.type < S2R_SOCKET_HELLO || m.type >= S2R_SOCKET_TYPE_END || (m.reply != 0 && m.reply != 1))
        fuzz_fail("an unknown type or direction was read", NULL);
    if (!memchr(m.text, '\0', sizeof m.text) || !memchr(m.name, '\0', sizeof m.name)) fuzz_fail("text not terminated", NULL);
    if (!fuzz_printable(m.text, sizeof m.text) || !fuzz_printable(m.name, sizeof m.name)) fuzz_fail("text not printable", NULL);
    if (!fuzz_printable(m.model, sizeof m.model)) fuzz_fail("a model name not terminated or not printable", NULL);
    for (j = 0; j < S2R_SOCKET_JOINTS; j++)
        if (!fuzz_printable(m.joint_name[j], sizeof m.joint_name[j])) fuzz_fail("a joint name not terminated or not printable", NULL);
    if (m.type == S2R_SOCKET_BYE && m.reply) fuzz_fail("a bye reply was read", NULL);
    if (m.type == S2R_SOCKET_HELLO && m.status == S2R_OK)
        for (j = 0; j < S2R_SOCKET_JOINTS; j++)
            if (j < m.n_joints ? !(fuzz_bounded(&m.q_min[j], 1) && fuzz_bounded(&m.q_max[j], 1) && m.q_min[j] <= m.q_max[j])
                               : (m.q_min[j] != 0 || m.q_max[j] != 0 || m.joint_name[j][0]))
                fuzz_fail("a hello's joint ranges are not ranges, or a slot past its joints is filled", NULL);
    if (m.type == S2R_SOCKET_SENSORS && m.reply && m.status == S2R_OK &&
        (!s2r_all_finite(&m.sensors.time, 1) || !fuzz_bounded(m.sensors.q, S2R_MAX_JOINTS) ||
         !fuzz_bounded(m.sensors.qd, S2R_MAX_JOINTS) || !fuzz_bounded(m.sensors.tau, S2R_MAX_JOINTS) ||
         !fuzz_bounded(m.sensors.target, 3) || !fuzz_bounded(m.sensors.object, 3)))
        fuzz_fail("a reading that is not a number, or beyond any arm, was read", NULL);
    if (m.type == S2R_SOCKET_TRUTH && m.reply && m.status == S2R_OK && !m.truth.diverged &&
        (!fuzz_bounded(m.truth.flange, 3) || !fuzz_bounded(m.truth.flange_vel, 3) || !fuzz_bounded(m.truth.target, 3) ||
         !fuzz_bounded(m.truth.q, S2R_MAX_JOINTS) || !fuzz_bounded(m.truth.tip, 3) || !fuzz_bounded(m.truth.tip_vel, 3) ||
         !fuzz_bounded(m.truth.object, 3) || !fuzz_bounded(m.truth.object_vel, 3)))
        fuzz_fail("ground truth that is not a number, or beyond any arm, was read", NULL);
    if (m.type == S2R_SOCKET_HELLO && m.status == S2R_OK && (m.n_joints < 1 || m.n_joints > S2R_MAX_JOINTS))
        fuzz_fail("a hello with an impossible joint count was read", NULL);
    n = s2r_socket_pack(&m, again);
    if (n != size) fuzz_fail("packed again, the size differs", NULL);
    if (s2r_socket_parse(again, n, &back, error) != S2R_OK) fuzz_fail("packed again, it does not parse", error);
    if (memcmp(&m, &back, sizeof m) != 0) fuzz_fail("packed again, it parses to another message", NULL);
}

#ifndef FUZZ_WRITE_SEEDS
int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    unsigned char* bytes = (unsigned char*)malloc(size ? size : 1);
    if (!bytes) return 0;
    memcpy(bytes, data, size);
    fuzz_one(bytes, size);
    free(bytes);
    return 0;
}
#else
/* The seeds: each type's request and reply with plausible values, and an
   error reply. */
int main(int argc, char** argv) {
    unsigned char bytes[S2R_SOCKET_MESSAGE_MAX];
    char path[1024];
    int t, dir, j;
    if (argc != 2) { fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]); return 2; }
    for (t = S2R_SOCKET_HELLO; t <= S2R_SOCKET_TYPE_END; t++)
        for (dir = 0; dir < 2; dir++) {
            s2r_socket_message m;
            size_t n;
            FILE* f;
            memset(&m, 0, sizeof m);
            m.type = t < S2R_SOCKET_TYPE_END ? (s2r_socket_type)t : S2R_SOCKET_ADVANCE;
            m.reply = t < S2R_SOCKET_TYPE_END ? dir : 1;
            if (t == S2R_SOCKET_TYPE_END) m.status = S2R_ERR_DIVERGED, strcpy(m.text, "physics diverged (joint 2 at 51 rad/s)\033[0m");
            m.kind = dir, m.scene = 1, m.n_joints = 6 + dir, m.period = 0.002, m.digest = dir ? 0x203fad42d74b371eull : 0;
            strcpy(m.name, dir ? "real ur5e #1\033]0;title\007" : "real ur5e #1");
            strcpy(m.model, dir ? "panda" : "ur5e\001");
            for (j = 0; j < m.n_joints; j++) {
                snprintf(m.joint_name[j], sizeof m.joint_name[j], "joint_%d", j + 1);
                m.q_min[j] = -3.1416 * (1 + j % 2), m.q_max[j] = 3.1416 * (1 + j % 2);
            }
            m.truth.diverged = dir, m.truth.flange[0] = dir ? NAN : 0.4;   /* a diverged episode's truth */
            m.flags = 5, m.rng[0] = 0x123456789abcdefull, m.seconds = 0.04, m.xy[0] = 0.45, m.xy[1] = -0.1;
            for (j = 0; j < 6; j++) m.q[j] = m.sensors.q[j] = m.truth.q[j] = 0.1 * j - 0.3;
            m.target[2] = m.sensors.target[2] = m.truth.target[2] = 0.4;
            m.sensors.time = 1.2;
            n = s2r_socket_pack(&m, bytes);
            snprintf(path, sizeof path, "%s/seed_%d_%s.bin", argv[1], t, dir ? "reply" : "request");
            if ((t == S2R_SOCKET_TYPE_END && dir == 0) || (t == S2R_SOCKET_BYE && dir == 1)) continue;   /* bye: no reply */
            if (!(f = fopen(path, "wb")) || fwrite(bytes, 1, n, f) != n || fclose(f) != 0) { perror(path); return 1; }
        }
    {   /* a client of protocol 1: its hello, which a robot side of protocol 2 refuses in protocol 1's header */
        static const unsigned char v1_hello[S2R_SOCKET_HEADER] = {'S', '2', 'R', 'S', 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0};
        FILE* f;
        snprintf(path, sizeof path, "%s/seed_v1_hello_request.bin", argv[1]);
        if (!(f = fopen(path, "wb")) || fwrite(v1_hello, 1, sizeof v1_hello, f) != sizeof v1_hello || fclose(f) != 0) {
            perror(path);
            return 1;
        }
    }
    return 0;
}
#endif
