/* tests/fuzz/fuzz_trajectory.c - libFuzzer harness for the trajectory (CSV
   log) reader and the excitation file reader.

   Each input, as a NUL-terminated copy, goes to s2r_trajectory_set_parse_csv
   and to s2r_excitation_parse_csv at a sample period of 0.02 s, and the
   documented contract is checked (the excitation reader's the same, but
   for one sample being enough and its q, qd being zero):

     - on error: S2R_ERR_PARSE, nothing loaded (the set's arrays are NULL
       and its count 0), and the message is a NUL-terminated string within
       S2R_ERROR_LEN naming the file;
     - on success: one trajectory of at least two samples and 1 to
       S2R_MAX_JOINTS joints, every stored number finite
       (s2r_trajectory_set_check), the object's arrays there exactly when
       the set says it holds the object; and the set frees cleanly.

   Build and run (make fuzz does this with a scratch copy of the corpus):
       clang -g -O1 -fsanitize=fuzzer,address,undefined -I. -I/usr/include/stb \
           tests/fuzz/fuzz_trajectory.c -o build/fuzz_trajectory -lmujoco -lm
       ./build/fuzz_trajectory -dict=tests/fuzz/trajectory.dict \
           -max_total_time=60 CORPUS_COPY */
#define SIM2REAL_IMPLEMENTATION
#include "../../sim2real.h"
#include "../../sim2real_logs.h"
#include <stdlib.h>
#include <string.h>

static void fuzz_fail(const char* what, const char* detail);

/* A failed read: S2R_ERR_PARSE, a terminated message naming the file,
   nothing loaded. */
static void fuzz_check_failure(const s2r_trajectory_set* set, s2r_result res, const char* error) {
    if (res != S2R_ERR_PARSE) fuzz_fail("a failed read must say S2R_ERR_PARSE", NULL);
    if (!memchr(error, '\0', S2R_ERROR_LEN)) fuzz_fail("error message not terminated", NULL);
    if (!strstr(error, "fuzz.csv")) fuzz_fail("the message does not name the file", error);
    if (set->q || set->command || set->q0 || set->object || set->count) fuzz_fail("a failed read loaded something", error);
}

static void fuzz_fail(const char* what, const char* detail) {
    fprintf(stderr, "fuzz_trajectory: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    char error[S2R_ERROR_LEN];
    char* text = (char*)malloc(size + 1);
    s2r_trajectory_set set;
    s2r_result res;
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    memset(error, 0x5A, sizeof error);
    res = s2r_trajectory_set_parse_csv(&set, text, "fuzz.csv", 0.02, error);
    if (res != S2R_OK) fuzz_check_failure(&set, res, error);
    else {
        if (set.count != 1 || set.n_samples < 2 || set.n_joints < 1 || set.n_joints > S2R_MAX_JOINTS)
            fuzz_fail("a read set has the wrong shape", NULL);
        if (s2r_trajectory_set_check(&set, set.n_joints, error) != S2R_OK) fuzz_fail("a read set fails its check", error);
        if (!set.object != !set.object0) fuzz_fail("object arrays half there", NULL);
    }
    s2r_trajectory_set_free(&set);
    memset(error, 0x5A, sizeof error);
    res = s2r_excitation_parse_csv(&set, text, "fuzz.csv", 0.02, error);
    if (res != S2R_OK) fuzz_check_failure(&set, res, error);
    else {
        if (set.count != 1 || set.n_samples < 1 || set.n_joints < 1 || set.n_joints > S2R_MAX_JOINTS || set.object)
            fuzz_fail("a read excitation has the wrong shape", NULL);
        if (s2r_trajectory_set_check(&set, set.n_joints, error) != S2R_OK) fuzz_fail("a read excitation fails its check", error);
    }
    s2r_trajectory_set_free(&set);
    free(text);
    return 0;
}
