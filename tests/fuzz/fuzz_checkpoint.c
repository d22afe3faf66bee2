/* tests/fuzz/fuzz_checkpoint.c - libFuzzer harness for the checkpoint loader.

   Feeds each input to s2r_policy_load_memory as a checkpoint image for a
   policy of one fixed small shape (FUZZ_SHAPE below), with and without an
   s2r_adam over all its parameters, and checks the documented contract:

     - nothing is read past the image (AddressSanitizer sees the input in a
       buffer of exactly its size);
     - a failed load leaves the policy and the optimizer as they were
       (compared field by field with a snapshot), and p->error is a
       NUL-terminated message within S2R_ERROR_LEN;
     - a successful load leaves a usable policy: acting (deterministic and
       sampled) and an optimizer step run without a crash or a sanitizer
       report, whatever the loaded numbers (finite or not).

   A checksum guards the payload, so most mutations would stop at the
   checksum test.  Each input is therefore also loaded a second time with
   its checksum words recomputed (when it is long enough to have a header),
   which lets the fuzzer reach the size, normalizer and optimizer checks
   and the unpacking behind them.

   Build and run (make fuzz does this with a scratch copy of the corpus):
       clang -g -O1 -fsanitize=fuzzer,address,undefined -I. -I/usr/include/stb \
           tests/fuzz/fuzz_checkpoint.c -o build/fuzz_checkpoint -lmujoco -lm
       ./build/fuzz_checkpoint -max_total_time=60 CORPUS_COPY

   The seed corpus in tests/fuzz/corpus/checkpoint/ is written by the same
   file built with -DFUZZ_WRITE_SEEDS (a plain main, no libFuzzer):
       cc -I. -I/usr/include/stb -DFUZZ_WRITE_SEEDS tests/fuzz/fuzz_checkpoint.c \
           -o build/checkpoint_seeds -lmujoco -lm
       ./build/checkpoint_seeds tests/fuzz/corpus/checkpoint
   The v1_*.ckpt seeds are the same checkpoints written in format version
   1 (a 16-word header), which the loader still reads. */
#define SIM2REAL_IMPLEMENTATION
#include "../../sim2real.h"
#include <stdlib.h>
#include <string.h>

/* The policy every input is loaded into: obs 4 -> {8, 8} -> act 2, which
   makes 253 parameters and a 1220-byte checkpoint (3252 with Adam state). */
static const s2r_policy_shape FUZZ_SHAPE = {4, 2, 2, {8, 8, 0, 0}, 0};

static s2r_policy fuzz_policy;        /* loaded into                      */
static s2r_adam   fuzz_adam;          /* over all of fuzz_policy.params   */
static s2r_policy fuzz_ref;           /* the state restored before a load */
static s2r_adam   fuzz_ref_adam;

static void fuzz_fail(const char* what) {
    fprintf(stderr, "fuzz_checkpoint: %s\n", what);
    abort();
}

static void fuzz_init_policy(s2r_policy* p, s2r_adam* a, uint64_t seed) {
    s2r_rng rng = s2r_rng_make(seed, 0);
    int i;
    if (s2r_policy_init(p, &FUZZ_SHAPE, -0.5f, 10.0f, &rng) != S2R_OK) fuzz_fail(p->error);
    if (s2r_adam_init(a, p->num_params, p->error) != S2R_OK) fuzz_fail(p->error);
    for (i = 0; i < p->norm.dim; i++) {          /* a normalizer that has seen data */
        p->norm.mean[i] = 0.25 * i - 0.5;
        p->norm.var[i] = 1.0 + 0.5 * i;
    }
    p->norm.count = 1234.0;
}

/* Copy the numbers of one policy/optimizer pair into another of the same
   shape (the pointers and layouts stay each object's own). */
static void fuzz_copy(s2r_policy* dst, s2r_adam* dst_adam, const s2r_policy* src,
                      const s2r_adam* src_adam) {
    memcpy(dst->params, src->params, sizeof(float) * (size_t)src->num_params);
    dst->norm.count = src->norm.count;
    dst->norm.clip = src->norm.clip;
    memcpy(dst->norm.mean, src->norm.mean, sizeof(double) * (size_t)src->norm.dim);
    memcpy(dst->norm.var, src->norm.var, sizeof(double) * (size_t)src->norm.dim);
    dst_adam->t = src_adam->t;
    dst_adam->beta1 = src_adam->beta1;
    dst_adam->beta2 = src_adam->beta2;
    dst_adam->eps = src_adam->eps;
    memcpy(dst_adam->grad, src_adam->grad, sizeof(float) * (size_t)src_adam->n);
    memcpy(dst_adam->moments, src_adam->moments, sizeof(float) * 2 * (size_t)src_adam->n);
}

/* The same shape and layout, and the pointers still into one block. */
static int fuzz_same_layout(const s2r_policy* p, const s2r_adam* a, const s2r_policy* q,
                            const s2r_adam* b) {
    return p->num_params == q->num_params && p->num_actor_params == q->num_actor_params &&
           memcmp(&p->shape, &q->shape, sizeof p->shape) == 0 &&
           memcmp(&p->actor, &q->actor, sizeof p->actor) == 0 &&
           memcmp(&p->critic, &q->critic, sizeof p->critic) == 0 &&
           p->log_std == p->params + p->actor.num_params &&
           p->critic_params == p->params + p->num_actor_params &&
           p->norm.dim == q->norm.dim && a->n == b->n;
}

/* Byte-exact equality of everything but p->error. */
static int fuzz_same(const s2r_policy* p, const s2r_adam* a, const s2r_policy* q,
                     const s2r_adam* b) {
    return fuzz_same_layout(p, a, q, b) &&
           memcmp(p->params, q->params, sizeof(float) * (size_t)p->num_params) == 0 &&
           memcmp(&p->norm.count, &q->norm.count, sizeof(double)) == 0 &&
           memcmp(&p->norm.clip, &q->norm.clip, sizeof(double)) == 0 &&
           memcmp(p->norm.mean, q->norm.mean, sizeof(double) * (size_t)p->norm.dim) == 0 &&
           memcmp(p->norm.var, q->norm.var, sizeof(double) * (size_t)p->norm.dim) == 0 &&
           a->t == b->t && a->beta1 == b->beta1 && a->beta2 == b->beta2 &&
           a->eps == b->eps &&
           memcmp(a->grad, b->grad, sizeof(float) * (size_t)a->n) == 0 &&
           memcmp(a->moments, b->moments, sizeof(float) * 2 * (size_t)a->n) == 0;
}

/* FNV-1a 64 as the checkpoint format defines it (header with the checksum
   words zeroed, then the payload), written here independently. */
static void fuzz_fix_checksum(unsigned char* buf, size_t n) {
    uint64_t h = 0xCBF29CE484222325ull;
    uint32_t lo, hi;
    size_t i;
    memset(buf + 4 * 12, 0, 8);                  /* words 12, 13: checksum */
    for (i = 0; i < n; i++) { h ^= buf[i]; h *= 0x100000001B3ull; }
    lo = (uint32_t)(h & 0xFFFFFFFFu);
    hi = (uint32_t)(h >> 32);
    memcpy(buf + 4 * 12, &lo, 4);
    memcpy(buf + 4 * 13, &hi, 4);
}

/* A loaded policy must be usable, whatever its numbers. */
static void fuzz_use(s2r_policy* p, s2r_adam* a) {
    float obs[4] = {0.1f, -2.0f, 3.0f, 0.0f}, action[2];
    s2r_rng rng = s2r_rng_make(7, 0);
    s2r_result r;
    int i;
    r = s2r_policy_act(p, obs, action, 1, NULL);
    if (r != S2R_OK && r != S2R_ERR_INVALID_ARGUMENT) fuzz_fail("act: unexpected result");
    r = s2r_policy_act(p, obs, action, 0, &rng);
    if (r != S2R_OK && r != S2R_ERR_INVALID_ARGUMENT) fuzz_fail("act: unexpected result");
    if (a) {
        for (i = 0; i < a->n; i++) a->grad[i] = (float)(i % 7) - 3.0f;
        s2r_adam_clip_grad(a, 0.5);
        s2r_adam_step(a, p->params, 3e-4f);
    }
}

/* One load of `bytes` into the restored policy (with or without Adam). */
static s2r_result fuzz_load(const unsigned char* bytes, size_t n, int with_adam) {
    s2r_adam* opt = with_adam ? &fuzz_adam : NULL;
    s2r_result r;
    fuzz_copy(&fuzz_policy, &fuzz_adam, &fuzz_ref, &fuzz_ref_adam);
    memset(fuzz_policy.error, 0x5A, sizeof fuzz_policy.error);
    r = s2r_policy_load_memory(&fuzz_policy, opt, n ? bytes : NULL, n, "fuzz");
    if (r == S2R_OK) {
        if (!fuzz_same_layout(&fuzz_policy, &fuzz_adam, &fuzz_ref, &fuzz_ref_adam)) fuzz_fail("layout changed");
        fuzz_use(&fuzz_policy, opt);
        return r;
    }
    if (r != S2R_ERR_CORRUPT) fuzz_fail("a failed load must say S2R_ERR_CORRUPT");
    if (!memchr(fuzz_policy.error, '\0', S2R_ERROR_LEN)) fuzz_fail("error message not terminated");
    if (!fuzz_same(&fuzz_policy, &fuzz_adam, &fuzz_ref, &fuzz_ref_adam))
        fuzz_fail("a failed load changed the policy or the optimizer");
    return r;
}

static void fuzz_setup(void) {
    static int ready;
    int i;
    if (ready) return;
    fuzz_init_policy(&fuzz_policy, &fuzz_adam, 1);
    fuzz_init_policy(&fuzz_ref, &fuzz_ref_adam, 2);
    fuzz_ref_adam.t = 5;                         /* a state a load must keep or replace */
    for (i = 0; i < 2 * fuzz_ref_adam.n; i++) fuzz_ref_adam.moments[i] = 0.001f * (float)(i % 13);
    ready = 1;
}

#ifndef FUZZ_WRITE_SEEDS
int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    unsigned char* fixed;
    fuzz_setup();
    fuzz_load(data, size, 1);
    fuzz_load(data, size, 0);
    if (size < 64) return 0;
    fixed = (unsigned char*)malloc(size);        /* exactly size bytes: ASan sees overreads */
    if (!fixed) return 0;
    memcpy(fixed, data, size);
    fuzz_fix_checksum(fixed, size);
    fuzz_load(fixed, size, 1);
    fuzz_load(fixed, size, 0);
    free(fixed);
    return 0;
}
#else
/* Seed corpus: a few valid checkpoints of FUZZ_SHAPE (with and without
   optimizer state), one of another shape and one cut short.  Each is read
   back and checked against the harness: the recomputed checksum must match
   the library's, and the loads must give the expected result. */
static size_t seed_read(const char* path, unsigned char* buf, size_t cap) {
    FILE* in = fopen(path, "rb");
    size_t n;
    if (!in) fuzz_fail("cannot read a seed back");
    n = fread(buf, 1, cap, in);
    fclose(in);
    return n;
}

static void seed_check(const char* path, size_t keep, s2r_result expect) {
    static unsigned char buf[8192], fixed[8192];
    size_t n = seed_read(path, buf, sizeof buf);
    int cut = keep < n;
    if (cut) {                                   /* cut it short, in place */
        FILE* out = fopen(path, "wb");
        if (!out) fuzz_fail("cannot write a seed");
        n = fwrite(buf, 1, keep, out);
        fclose(out);
    }
    memcpy(fixed, buf, n);
    if (n >= 64 && !cut) {
        fuzz_fix_checksum(fixed, n);
        if (memcmp(fixed, buf, n) != 0) fuzz_fail("the harness's checksum differs from the library's");
    }
    if (fuzz_load(buf, n, 1) != expect || fuzz_load(buf, n, 0) != expect)
        fuzz_fail("a seed does not load as expected");
}

static void seed_save(const char* dir, const char* name, s2r_policy* p, const s2r_adam* a,
                      size_t keep, s2r_result expect) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (s2r_policy_save(p, a, path) != S2R_OK) fuzz_fail(p->error);
    seed_check(path, keep, expect);
}

int main(int argc, char** argv) {
    const char* dir = argc > 1 ? argv[1] : "tests/fuzz/corpus/checkpoint";
    static const s2r_policy_shape other = {3, 1, 1, {4, 0, 0, 0}, 0};
    s2r_policy_shape privileged = FUZZ_SHAPE;
    s2r_policy small;
    s2r_rng rng = s2r_rng_make(3, 0);
    const size_t all = (size_t)-1;
    int i;
    fuzz_setup();
    seed_save(dir, "policy_only.ckpt", &fuzz_policy, NULL, all, S2R_OK);
    seed_save(dir, "policy_adam_fresh.ckpt", &fuzz_policy, &fuzz_adam, all, S2R_OK);
    for (i = 0; i < fuzz_adam.n; i++) fuzz_adam.grad[i] = 0.01f * (float)((i % 5) - 2);
    for (i = 0; i < 3; i++) s2r_adam_step(&fuzz_adam, fuzz_policy.params, 1e-3f);
    seed_save(dir, "policy_adam_3_steps.ckpt", &fuzz_policy, &fuzz_adam, all, S2R_OK);
    seed_save(dir, "truncated.ckpt", &fuzz_policy, NULL, 100, S2R_ERR_CORRUPT);
    if (s2r_policy_init(&small, &other, 0.0f, 5.0f, &rng) != S2R_OK) fuzz_fail(small.error);
    seed_save(dir, "other_shape.ckpt", &small, NULL, all, S2R_ERR_CORRUPT);
    s2r_policy_free(&small);
    privileged.privileged = 3;   /* the same sizes with a privileged critic: another shape */
    if (s2r_policy_init(&small, &privileged, 0.0f, 5.0f, &rng) != S2R_OK) fuzz_fail(small.error);
    small.randomization = 0x0123456789ABCDEFull;
    seed_save(dir, "privileged_critic.ckpt", &small, NULL, all, S2R_ERR_CORRUPT);
    s2r_policy_free(&small);
    printf("checkpoint seeds written to %s\n", dir);
    return 0;
}
#endif
