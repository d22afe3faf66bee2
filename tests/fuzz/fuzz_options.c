/* tests/fuzz/fuzz_options.c - libFuzzer harness for the examples' command line.

   The input is cut into arguments at NUL and newline bytes (so a corpus
   file is one argument per line; a final separator does not start an
   empty argument, two in a row do); argv[0] is "fuzz" and argv[argc] is NULL,
   as a C runtime would pass them, each argument in its own allocation of
   exactly its size.  s2r_options_parse must then:

     - on error: return S2R_ERR_PARSE, leave the options byte-for-byte as
       they were (nothing is half-parsed), and write a NUL-terminated
       message within S2R_ERROR_LEN;
     - on success: give options in their documented ranges (robot ur5e or
       panda, seeds and threads 1..64, seed and real_seed 0..4294967295,
       flags 0/1, out a non-empty NUL-terminated name, so are mjcf, ranges
       and each of the at most S2R_OPTIONS_MAX_LOGS logs), every number having
       been written as plain decimal digits (no sign, no blanks);
     - never write to the argument strings.

   Build and run (make fuzz does this with a scratch copy of the corpus):
       clang -g -O1 -fsanitize=fuzzer,address,undefined -I. -I/usr/include/stb \
           tests/fuzz/fuzz_options.c -o build/fuzz_options -lmujoco -lm
       ./build/fuzz_options -dict=tests/fuzz/options.dict -max_total_time=60 CORPUS_COPY */
#define SIM2REAL_IMPLEMENTATION
#include "../../sim2real.h"
#include "../../examples/s2r_cli.h"
#include <stdlib.h>
#include <string.h>

#define FUZZ_MAX_ARGS 64

static void fuzz_fail(const char* what, const char* detail) {
    fprintf(stderr, "fuzz_options: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    abort();
}

/* Every --log path given is a non-empty NUL-terminated name. */
static int fuzz_logs_valid(const s2r_options* o) {
    int i;
    for (i = 0; i < o->n_logs; i++)
        if (!memchr(o->logs[i], '\0', sizeof o->logs[i]) || !o->logs[i][0]) return 0;
    return 1;
}

static int fuzz_options_valid(const s2r_options* o) {
    return (o->robot == S2R_ROBOT_UR5E || o->robot == S2R_ROBOT_PANDA) &&
           o->seed <= 0xFFFFFFFFull && o->real_seed <= 0xFFFFFFFFull &&
           o->seeds >= 1 && o->seeds <= 64 && o->threads >= 1 && o->threads <= 64 &&
           (o->quick == 0 || o->quick == 1) && (o->resume == 0 || o->resume == 1) &&
           (o->help == 0 || o->help == 1) &&
           memchr(o->out, '\0', sizeof o->out) != NULL && o->out[0] != '\0' &&
           memchr(o->mjcf, '\0', sizeof o->mjcf) != NULL && memchr(o->ranges, '\0', sizeof o->ranges) != NULL &&
           o->n_logs >= 0 && o->n_logs <= S2R_OPTIONS_MAX_LOGS && fuzz_logs_valid(o) &&
           o->history >= 0 && o->history <= S2R_HISTORY_MAX;
}

/* Every value of a numeric option is nothing but decimal digits. */
static int fuzz_numbers_plain(int argc, char** argv) {
    int a;
    for (a = 1; a + 1 < argc; a++) {
        const char* v = argv[a + 1];
        if (!strcmp(argv[a], "--robot") || !strcmp(argv[a], "--out") || !strcmp(argv[a], "--mjcf") ||
            !strcmp(argv[a], "--ranges") || !strcmp(argv[a], "--log")) { a++; continue; }
        if (strcmp(argv[a], "--seed") && strcmp(argv[a], "--real-seed") &&
            strcmp(argv[a], "--seeds") && strcmp(argv[a], "--threads") && strcmp(argv[a], "--history")) continue;
        if (!*v) return 0;
        for (; *v; v++) if (*v < '0' || *v > '9') return 0;
        a++;
    }
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    char* argv[FUZZ_MAX_ARGS + 2];
    char* copy[FUZZ_MAX_ARGS + 2];
    size_t len[FUZZ_MAX_ARGS + 2];
    char error[S2R_ERROR_LEN];
    s2r_options o, before;
    s2r_result res;
    size_t start = 0, i;
    int argc = 1, a;
    static char program[] = "fuzz";
    argv[0] = program;
    for (i = 0; i <= size && argc <= FUZZ_MAX_ARGS; i++) {
        if (i < size && data[i] != '\0' && data[i] != '\n') continue;
        if (i == size && i == start) break;      /* no empty argument after a final separator */
        len[argc] = i - start;
        argv[argc] = (char*)malloc(len[argc] + 1);
        copy[argc] = (char*)malloc(len[argc] + 1);
        if (!argv[argc] || !copy[argc]) fuzz_fail("out of memory", NULL);
        memcpy(argv[argc], data + start, len[argc]);
        argv[argc][len[argc]] = '\0';
        memcpy(copy[argc], argv[argc], len[argc] + 1);
        argc++;
        start = i + 1;
    }
    argv[argc] = NULL;
    /* Start from something that is not the default, so "untouched" and
       "reset to the defaults" differ. */
    memset(&o, 0xA5, sizeof o);
    o.robot = S2R_ROBOT_PANDA;
    o.seeds = 7;
    snprintf(o.out, sizeof o.out, "previous");
    memcpy(&before, &o, sizeof o);
    memset(error, 0x5A, sizeof error);
    res = s2r_options_parse(&o, argc, argv, error);
    if (res != S2R_OK) {
        if (res != S2R_ERR_PARSE) fuzz_fail("a failed parse must say S2R_ERR_PARSE", NULL);
        if (!memchr(error, '\0', S2R_ERROR_LEN)) fuzz_fail("error message not terminated", NULL);
        if (memcmp(&o, &before, sizeof o) != 0) fuzz_fail("a failed parse changed the options", error);
    } else if (!fuzz_options_valid(&o)) {
        fuzz_fail("parsed options out of their documented ranges", NULL);
    } else if (!fuzz_numbers_plain(argc, argv)) {
        fuzz_fail("a number with a sign or blanks was accepted", NULL);
    }
    for (a = 1; a < argc; a++) {
        if (memcmp(argv[a], copy[a], len[a] + 1) != 0) fuzz_fail("an argument was modified", copy[a]);
        free(argv[a]);
        free(copy[a]);
    }
    return 0;
}
