/* tests/fuzz/fuzz_demos_binary.c - libFuzzer harness for the binary
   demonstration reader (s2r_dataset_unpack, which s2r_dataset_load calls
   on a file's bytes).

   Each input goes to s2r_dataset_unpack in a buffer of exactly its size,
   and the documented contract is checked:

     - on error: S2R_ERR_CORRUPT, nothing loaded (no storage, count 0), and
       the message is a NUL-terminated string within S2R_ERROR_LEN naming
       the file;
     - on success: observation and action sizes of at least 1, every
       observation finite and every action in [-1, 1], episode ends in
       order within the pairs and outcomes 0 or 1; saving it again gives
       the input back byte for byte (a version-1 input comes back as
       version 2 with no episodes: the same bytes but the version word and
       the checksum); and the dataset frees cleanly.

   A checksum guards the payload, so most mutations would stop at the
   checksum test.  Each input long enough to have a header is therefore
   also unpacked a second time with its checksum recomputed, which lets the
   fuzzer reach the size and value checks behind it.

   Build and run (make fuzz does this with a scratch copy of the corpus):
       clang -g -O1 -fsanitize=fuzzer,address,undefined -I. -I/usr/include/stb \
           tests/fuzz/fuzz_demos_binary.c -o build/fuzz_demos_binary -lmujoco -lm
       ./build/fuzz_demos_binary -max_total_time=60 CORPUS_COPY
   The seed corpus (tests/fuzz/corpus/demos_binary/) is written by the same
   file built with -DFUZZ_WRITE_SEEDS (a plain main, no libFuzzer):
       cc -I. -I/usr/include/stb -DFUZZ_WRITE_SEEDS tests/fuzz/fuzz_demos_binary.c \
           -o build/demos_binary_seeds -lmujoco -lm
       ./build/demos_binary_seeds tests/fuzz/corpus/demos_binary */
#define _POSIX_C_SOURCE 200809L   /* mkstemp */
#define SIM2REAL_IMPLEMENTATION
#include "../../sim2real.h"
#include "../../sim2real_jobs.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* FNV-1a 64, as the file format states it. */
static uint64_t fuzz_fnv1a(uint64_t h, const unsigned char* p, size_t n) {
    while (n--) h = (h ^ *p++) * 0x100000001B3ull;
    return h;
}

static void fuzz_fail(const char* what, const char* detail) {
    fprintf(stderr, "fuzz_demos_binary: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    abort();
}

/* Unpack one image and check the contract. */
static void fuzz_one(const unsigned char* image, size_t size) {
    char error[S2R_ERROR_LEN], path[] = "/tmp/fuzz_demos_binaryXXXXXX";
    s2r_dataset d;
    s2r_result res;
    int i;
    memset(error, 0x5A, sizeof error);
    res = s2r_dataset_unpack(&d, image, size, "fuzz.bin", error);
    if (res != S2R_OK) {
        if (res != S2R_ERR_CORRUPT) fuzz_fail("a failed read must say S2R_ERR_CORRUPT", NULL);
        if (!memchr(error, '\0', sizeof error)) fuzz_fail("error message not terminated", NULL);
        if (!strstr(error, "fuzz.bin")) fuzz_fail("the message does not name the file", error);
        if (d.obs || d.act || d.count) fuzz_fail("a failed read loaded something", error);
        return;
    }
    if (d.obs_dim < 1 || d.act_dim < 1 || d.count < 0) fuzz_fail("a read dataset has the wrong shape", NULL);
    if (!s2r_all_finite_f(d.obs, d.count * d.obs_dim)) fuzz_fail("a read dataset holds a non-finite observation", NULL);
    for (i = 0; i < d.count * d.act_dim; i++)
        if (!(d.act[i] >= -1.0f && d.act[i] <= 1.0f)) fuzz_fail("a read dataset holds an action outside [-1, 1]", NULL);
    for (i = 0; i < d.episodes; i++)
        if (d.episode_end[i] > d.count || (i && d.episode_end[i] < d.episode_end[i - 1]) || d.episode_success[i] > 1)
            fuzz_fail("a read dataset holds impossible episodes", NULL);
    {   /* saved again, the same bytes */
        int fd = mkstemp(path);
        unsigned char* back = NULL;
        size_t n = 0;
        FILE* f;
        if (fd < 0) fuzz_fail("mkstemp", NULL);
        close(fd);
        if (s2r_dataset_save(&d, path, error) != S2R_OK) fuzz_fail("saving a read dataset failed", error);
        if ((f = fopen(path, "rb")) != NULL) {
            back = (unsigned char*)malloc(size + 1);
            n = back ? fread(back, 1, size + 1, f) : 0;
            fclose(f);
        }
        if (back && n == size && image[4] == 1) {   /* version 1: compare past the version and checksum words */
            if (back[4] != 2 || memcmp(back, image, 4) != 0 || memcmp(back + 8, image + 8, 16) != 0 ||
                memcmp(back + 32, image + 32, size - 32) != 0)
                fuzz_fail("a version-1 file saved again, the bytes differ", NULL);
        } else if (!back || n != size || memcmp(back, image, size) != 0)
            fuzz_fail("saved again, the bytes differ", NULL);
        free(back);
        remove(path);
    }
    s2r_dataset_free(&d);
}

#ifndef FUZZ_WRITE_SEEDS
int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    unsigned char* image = (unsigned char*)malloc(size ? size : 1);
    if (!image) return 0;
    memcpy(image, data, size);
    fuzz_one(image, size);
    if (size >= 32) {   /* again with the checksum the content has */
        uint32_t h[8];
        uint64_t sum;
        memcpy(h, image, sizeof h);
        h[6] = h[7] = 0;
        sum = fuzz_fnv1a(0xCBF29CE484222325ull, (const unsigned char*)h, sizeof h);
        sum = fuzz_fnv1a(sum, image + sizeof h, size - sizeof h);
        h[6] = (uint32_t)(sum & 0xFFFFFFFFu);
        h[7] = (uint32_t)(sum >> 32);
        memcpy(image, h, sizeof h);
        fuzz_one(image, size);
    }
    free(image);
    return 0;
}
#else
/* The seeds: an empty set, one pair, and a few pairs of a push-sized set
   in two episodes (the first ended on target). */
int main(int argc, char** argv) {
    static const int dims[3][3] = {{3, 2, 0}, {4, 1, 1}, {20, 2, 5}};
    char path[1024], error[S2R_ERROR_LEN];
    int k, i, j;
    if (argc != 2) { fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]); return 2; }
    for (k = 0; k < 3; k++) {
        s2r_dataset d;
        float obs[20], act[2];
        if (s2r_dataset_init(&d, dims[k][0], dims[k][1]) != S2R_OK) return 1;
        for (i = 0; i < dims[k][2]; i++) {
            for (j = 0; j < dims[k][0]; j++) obs[j] = 0.25f * (float)(i - j);
            for (j = 0; j < dims[k][1]; j++) act[j] = j ? -0.5f : 1.0f;
            if (s2r_dataset_append(&d, obs, act) != S2R_OK) return 1;
            if (k == 2 && (i == 1 || i == 4) && s2r_dataset_end_episode(&d, i == 1) != S2R_OK) return 1;
        }
        snprintf(path, sizeof path, "%s/seed_%d.bin", argv[1], k);
        if (s2r_dataset_save(&d, path, error) != S2R_OK) { fprintf(stderr, "%s\n", error); return 1; }
        s2r_dataset_free(&d);
    }
    return 0;
}
#endif
