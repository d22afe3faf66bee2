/* tests/fuzz/fuzz_demos.c - libFuzzer harness for the demonstration file
   reader.

   Each input, as a NUL-terminated copy, goes to s2r_dataset_parse_csv, and
   the documented contract is checked:

     - on error: S2R_ERR_PARSE, nothing loaded (no storage, count 0), and
       the message is a NUL-terminated string within S2R_ERROR_LEN naming
       the file;
     - on success: at least two pairs, observation and action sizes of at
       least 1, every stored float finite; and the dataset frees cleanly.

   Build and run (make fuzz does this with a scratch copy of the corpus):
       clang -g -O1 -fsanitize=fuzzer,address,undefined -I. -I/usr/include/stb \
           tests/fuzz/fuzz_demos.c -o build/fuzz_demos -lmujoco -lm
       ./build/fuzz_demos -dict=tests/fuzz/demos.dict -max_total_time=60 CORPUS_COPY */
#define SIM2REAL_IMPLEMENTATION
#include "../../sim2real.h"
#include "../../sim2real_logs.h"
#include <stdlib.h>
#include <string.h>

static void fuzz_fail(const char* what, const char* detail) {
    fprintf(stderr, "fuzz_demos: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    char error[S2R_ERROR_LEN];
    char* text = (char*)malloc(size + 1);
    s2r_dataset d;
    s2r_result res;
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    memset(error, 0x5A, sizeof error);
    res = s2r_dataset_parse_csv(&d, text, "fuzz.csv", error);
    if (res != S2R_OK) {
        if (res != S2R_ERR_PARSE) fuzz_fail("a failed read must say S2R_ERR_PARSE", NULL);
        if (!memchr(error, '\0', sizeof error)) fuzz_fail("error message not terminated", NULL);
        if (!strstr(error, "fuzz.csv")) fuzz_fail("the message does not name the file", error);
        if (d.obs || d.act || d.count) fuzz_fail("a failed read loaded something", error);
    } else {
        if (d.count < 2 || d.obs_dim < 1 || d.act_dim < 1) fuzz_fail("a read dataset has the wrong shape", NULL);
        if (!s2r_all_finite_f(d.obs, d.count * d.obs_dim) || !s2r_all_finite_f(d.act, d.count * d.act_dim))
            fuzz_fail("a read dataset holds a non-finite float", NULL);
    }
    s2r_dataset_free(&d);
    free(text);
    return 0;
}
