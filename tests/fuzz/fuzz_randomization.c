/* tests/fuzz/fuzz_randomization.c - libFuzzer harness for the ranges parser.

   Each input, as a NUL-terminated copy, goes to s2r_randomization_parse on
   top of s2r_randomization_default(), and the documented contract is
   checked:

     - on error: S2R_ERR_PARSE, the table is byte-for-byte as it was, and
       the message is a NUL-terminated string within S2R_ERROR_LEN;
     - on success: s2r_randomization_check passes; s2r_randomization_format
       returns the full length and fills any buffer NUL-terminated with a
       prefix of the text; parsing the formatted text again (on top of a
       different table) succeeds and gives the same table - every entry's
       enabled flag and, for enabled entries, mode, kind and the numbers the
       kind uses, bit for bit, and the joints' own ranges likewise;
     - the parsed table can be used: one s2r_randomization_sample draws
       values inside each enabled entry's support, s2r_dist_mean and
       s2r_dist_centre lie in that support too, and after
       s2r_randomization_widen (x2 and x0.5) the table still passes
       s2r_randomization_check.

   Build and run (make fuzz does this with a scratch copy of the corpus):
       clang -g -O1 -fsanitize=fuzzer,address,undefined -I. -I/usr/include/stb \
           tests/fuzz/fuzz_randomization.c -o build/fuzz_randomization -lmujoco -lm
       ./build/fuzz_randomization -dict=tests/fuzz/randomization.dict \
           -max_total_time=60 CORPUS_COPY */
#define SIM2REAL_IMPLEMENTATION
#include "../../sim2real.h"
#include <stdlib.h>
#include <string.h>

static void fuzz_fail(const char* what, const char* detail) {
    fprintf(stderr, "fuzz_randomization: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    abort();
}

static int fuzz_error_ok(const char* error) {
    return memchr(error, '\0', S2R_ERROR_LEN) != NULL;
}

static int fuzz_same_bits(double a, double b) {
    return memcmp(&a, &b, sizeof a) == 0;
}

/* Equal as the manual promises for parse(format(r)). */
static int fuzz_same_table(const s2r_randomization* a, const s2r_randomization* b) {
    int p;
    for (p = 0; p < S2R_PARAM_COUNT; p++) {
        const s2r_param_range* x = &a->p[p];
        const s2r_param_range* y = &b->p[p];
        if (!x->enabled != !y->enabled) return 0;
        if (!x->enabled) continue;
        if (x->mode != y->mode || x->dist.kind != y->dist.kind) return 0;
        if (x->dist.kind == S2R_DIST_FIXED) {
            if (!fuzz_same_bits(x->dist.mean, y->dist.mean)) return 0;
            continue;
        }
        if (!fuzz_same_bits(x->dist.lo, y->dist.lo) || !fuzz_same_bits(x->dist.hi, y->dist.hi))
            return 0;
        if (x->dist.kind == S2R_DIST_TRUNC_NORMAL &&
            (!fuzz_same_bits(x->dist.mean, y->dist.mean) || !fuzz_same_bits(x->dist.std, y->dist.std)))
            return 0;
    }
    if (a->n_joint_ranges != b->n_joint_ranges) return 0;
    for (p = 0; p < a->n_joint_ranges; p++) {   /* joints' own ranges: the numbers their kind uses */
        const s2r_joint_range* x = &a->joint_range[p];
        const s2r_joint_range* y = &b->joint_range[p];
        if (x->param != y->param || x->joint != y->joint || x->dist.kind != y->dist.kind) return 0;
        if (x->dist.kind == S2R_DIST_FIXED ? !fuzz_same_bits(x->dist.mean, y->dist.mean)
                                           : !fuzz_same_bits(x->dist.lo, y->dist.lo) || !fuzz_same_bits(x->dist.hi, y->dist.hi))
            return 0;
        if (x->dist.kind == S2R_DIST_TRUNC_NORMAL &&
            (!fuzz_same_bits(x->dist.mean, y->dist.mean) || !fuzz_same_bits(x->dist.std, y->dist.std)))
            return 0;
    }
    return 1;
}

/* format into every kind of buffer, then parse back. */
static void fuzz_round_trip(const s2r_randomization* r, size_t small) {
    char error[S2R_ERROR_LEN];
    size_t n = s2r_randomization_format(r, NULL, 0), cap;
    char* text = (char*)malloc(n + 1);
    char* cut;
    s2r_randomization back = s2r_randomization_none();
    if (!text) return;
    if (s2r_randomization_format(r, text, n + 1) != n || strlen(text) != n)
        fuzz_fail("format: length differs from the text written", NULL);
    cap = small % (n + 1);                       /* a buffer too small (or exact) */
    cut = (char*)malloc(cap ? cap : 1);
    if (cut) {
        if (s2r_randomization_format(r, cap ? cut : NULL, cap) != n)
            fuzz_fail("format: a short buffer changes the returned length", NULL);
        if (cap && (strlen(cut) != cap - 1 || memcmp(cut, text, cap - 1) != 0))
            fuzz_fail("format: a short buffer does not hold a prefix of the text", NULL);
        free(cut);
    }
    back.p[S2R_PARAM_KP] = s2r_randomization_default().p[S2R_PARAM_KP];
    if (s2r_randomization_parse(&back, text, error) != S2R_OK) fuzz_fail("format output does not parse", error);
    if (!fuzz_same_table(r, &back)) fuzz_fail("parse(format(r)) differs from r", text);
    free(text);
}

/* Sampling and widening a parsed table. */
static void fuzz_use(const s2r_randomization* r) {
    double values[S2R_PARAM_COUNT], lo, hi, mean;
    s2r_randomization w = *r;
    s2r_rng rng = s2r_rng_make(11, 0);
    char error[S2R_ERROR_LEN];
    int p;
    s2r_randomization_sample(r, &rng, values);
    for (p = 0; p < S2R_PARAM_COUNT; p++) {
        if (!r->p[p].enabled) continue;
        s2r_dist_support(&r->p[p].dist, &lo, &hi);
        if (!(values[p] >= lo && values[p] <= hi)) fuzz_fail("a draw outside its support", s2r_param_name((s2r_param)p));
        mean = s2r_dist_mean(&r->p[p].dist);
        if (!(mean >= lo && mean <= hi)) fuzz_fail("the mean is outside the support", s2r_param_name((s2r_param)p));
        mean = s2r_dist_centre(&r->p[p].dist);
        if (!(mean >= lo && mean <= hi)) fuzz_fail("the centre is outside the support", s2r_param_name((s2r_param)p));
    }
    if (s2r_randomization_widen(&w, 2.0) != S2R_OK || s2r_randomization_check(&w, error) != S2R_OK)
        fuzz_fail("a widened table fails its check", error);
    w = *r;
    if (s2r_randomization_widen(&w, 0.5) != S2R_OK || s2r_randomization_check(&w, error) != S2R_OK)
        fuzz_fail("a narrowed table fails its check", error);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    char error[S2R_ERROR_LEN];
    char* text = (char*)malloc(size + 1);
    s2r_randomization r = s2r_randomization_default(), before;
    s2r_result res;
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    memcpy(&before, &r, sizeof r);
    memset(error, 0x5A, sizeof error);
    res = s2r_randomization_parse(&r, text, error);
    if (res != S2R_OK) {
        if (res != S2R_ERR_PARSE) fuzz_fail("a failed parse must say S2R_ERR_PARSE", NULL);
        if (!fuzz_error_ok(error)) fuzz_fail("error message not terminated", NULL);
        if (memcmp(&before, &r, sizeof r) != 0) fuzz_fail("a failed parse changed the table", error);
        free(text);
        return 0;
    }
    if (s2r_randomization_check(&r, error) != S2R_OK) fuzz_fail("a parsed table fails its check", error);
    fuzz_round_trip(&r, size * 31 + 7);
    fuzz_use(&r);
    free(text);
    return 0;
}
