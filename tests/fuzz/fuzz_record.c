/* tests/fuzz/fuzz_record.c - libFuzzer harness for the job record reader
   (s2r_record_parse, which s2r_record_load calls on a file's bytes;
   sim2real_jobs.h).

   Each input goes to s2r_record_parse in a buffer of exactly its size,
   against the stamps the seeds were written with, and the documented
   contract is checked:

     - on error: S2R_ERR_CORRUPT (damaged, edited, cut short) or
       S2R_ERR_STATE (another run's or build's stamps), nothing loaded (no
       text, no lines), and the message a NUL-terminated string within
       S2R_ERROR_LEN naming the record;
     - on success: the input ends in a newline and holds no NUL; its last
       line is the end line and no other line starts with "end"; every
       line s2r_record_line gives is one of the input's, in order, with no
       newline, numbered as in the input; and written again through the
       writer (s2r_record_begin with the input's title, s2r_record_add per
       line, s2r_record_save) the record comes back byte for byte when it
       has at most one title line.

   The end line's checksum guards the content, so most mutations would
   stop there.  Each input is therefore also parsed a second time with its
   last line replaced by the end line its content calls for (count and
   FNV-1a 64, recomputed here), which lets the fuzzer reach the checks
   behind the seal.

   Build and run (make fuzz does this with a scratch copy of the corpus):
       clang -g -O1 -fsanitize=fuzzer,address,undefined -I. -I/usr/include/stb \
           tests/fuzz/fuzz_record.c -o build/fuzz_record -lmujoco -lm
       ./build/fuzz_record -max_total_time=60 CORPUS_COPY
   The seed corpus (tests/fuzz/corpus/record/) is written by the same file
   built with -DFUZZ_WRITE_SEEDS (a plain main, no libFuzzer):
       cc -I. -I/usr/include/stb -DFUZZ_WRITE_SEEDS tests/fuzz/fuzz_record.c \
           -o build/record_seeds -lmujoco -lm
       ./build/record_seeds tests/fuzz/corpus/record */
#define _POSIX_C_SOURCE 200809L   /* mkstemp */
#define SIM2REAL_IMPLEMENTATION
#include "../../sim2real.h"
#include "../../sim2real_jobs.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FUZZ_SETTINGS 0x0123456789abcdefull
#define FUZZ_BUILD 0xfedcba9876543210ull

#ifndef FUZZ_WRITE_SEEDS

static void fuzz_fail(const char* what, const char* detail) {
    fprintf(stderr, "fuzz_record: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    abort();
}

/* Write the loaded record again through the writer, title `title` (NULL:
   none), and compare with the input. */
static void fuzz_write_back(const s2r_record* r, const char* title, const unsigned char* image, size_t size) {
    char path[] = "/tmp/fuzz_recordXXXXXX", error[S2R_ERROR_LEN];
    s2r_record w;
    unsigned char* back;
    size_t n;
    FILE* f;
    int i, fd = mkstemp(path);
    if (fd < 0) fuzz_fail("mkstemp", NULL);
    close(fd);
    s2r_record_begin(&w, title, FUZZ_SETTINGS, FUZZ_BUILD);
    for (i = 0; i < r->lines; i++) s2r_record_add(&w, "%s", s2r_record_line(r, i, NULL));
    if (w.status != S2R_OK || s2r_record_save(&w, path, error) != S2R_OK)
        fuzz_fail("a loaded record cannot be written again", w.status != S2R_OK ? w.error : error);
    back = (unsigned char*)malloc(size + 1);
    f = fopen(path, "rb");
    n = back && f ? fread(back, 1, size + 1, f) : 0;
    if (f) fclose(f);
    if (!back || n != size || memcmp(back, image, size) != 0) fuzz_fail("written again, the bytes differ", NULL);
    free(back);
    s2r_record_free(&w);
    remove(path);
}

/* Parse one image and check the contract. */
static void fuzz_one(const unsigned char* image, size_t size) {
    const char* text = (const char*)image;
    char error[S2R_ERROR_LEN], title[1024];
    s2r_record r;
    s2r_result res;
    size_t at = 0, longest = 0;
    int number, titles = 0;
    memset(error, 0x5A, sizeof error);
    res = s2r_record_parse(&r, text, size, "fuzz.csv", FUZZ_SETTINGS, FUZZ_BUILD, error);
    if (res != S2R_OK) {
        if (res != S2R_ERR_CORRUPT && res != S2R_ERR_STATE) fuzz_fail("a failed read must say CORRUPT or STATE", NULL);
        if (!memchr(error, '\0', sizeof error)) fuzz_fail("error message not terminated", NULL);
        if (!strstr(error, "fuzz.csv")) fuzz_fail("the message does not name the record", error);
        if (r.text || r.lines || r.offset) fuzz_fail("a failed read loaded something", error);
        return;
    }
    if (size == 0 || text[size - 1] != '\n' || memchr(text, '\0', size)) fuzz_fail("accepted a cut or binary record", NULL);
    for (number = 1; at < size; number++) {   /* the input's lines, checked against what was loaded */
        const char* nl = (const char*)memchr(text + at, '\n', size - at);
        size_t len = (size_t)(nl - (text + at));
        int last = nl + 1 == text + size;
        if (len > longest) longest = len;
        if (!last && len >= 3 && memcmp(text + at, "end", 3) == 0) fuzz_fail("accepted an end line before the last", NULL);
        if (last && (len < 4 || memcmp(text + at, "end,", 4) != 0)) fuzz_fail("accepted a record without its end line", NULL);
        if (number < r.first_line && text[at] == '#' && ++titles == 1 && len >= 2 && len - 2 < sizeof title) {
            memcpy(title, text + at + 2, len - 2);
            title[len - 2] = '\0';
        }
        if (number >= r.first_line && !last) {
            int got;
            const char* line = s2r_record_line(&r, number - r.first_line, &got);
            if (!line || got != number || strlen(line) != len || memcmp(line, text + at, len) != 0)
                fuzz_fail("a loaded line is not the input's", NULL);
        }
        at += len + 1;
    }
    if (r.first_line + r.lines != number - 1) fuzz_fail("the loaded lines do not run to the end line", NULL);
    if (s2r_record_line(&r, r.lines, NULL) || s2r_record_line(&r, -1, NULL)) fuzz_fail("a line past the record", NULL);
    if (titles <= 1 && (titles == 0 || (text[0] == '#' && text[1] == ' ')) && longest < 1000)   /* what the writer takes */
        fuzz_write_back(&r, titles ? title : NULL, image, size);
    s2r_record_free(&r);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    unsigned char* image = (unsigned char*)malloc(size + 64);
    size_t cut, i;
    uint64_t h = 0xCBF29CE484222325ull;
    long lines = 0;
    if (!image) return 0;
    memcpy(image, data, size);
    fuzz_one(image, size);
    for (cut = size ? size - 1 : 0; cut > 0 && image[cut - 1] != '\n'; cut--) {}   /* again, sealed */
    for (i = 0; i < cut; i++) { lines += image[i] == '\n'; h = (h ^ image[i]) * 0x100000001B3ull; }
    fuzz_one(image, cut + (size_t)snprintf((char*)image + cut, 64, "end,%ld,%016llx\n", lines, (unsigned long long)h));
    free(image);
    return 0;
}
#else
/* The seeds: a record as example 07 writes one, an empty one without a
   title, one of another run, and one with a line edited. */
int main(int argc, char** argv) {
    char path[1024], error[S2R_ERROR_LEN];
    s2r_record r;
    int k;
    if (argc != 2) { fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]); return 2; }
    for (k = 0; k < 4; k++) {
        s2r_record_begin(&r, k == 1 ? NULL : "sim2real.h example 07: the record of job chain:1", FUZZ_SETTINGS,
                         k == 2 ? FUZZ_BUILD + 1 : FUZZ_BUILD);
        if (k != 1) {
            s2r_record_add(&r, "job,chain,1");
            s2r_record_add(&r, "time,1796193043,1796193065,21.66478422299997,160.27734375");
            s2r_record_add(&r, "eval,real,0,10,%d,0,0.1575401667307314,-81.263162916898722,500", k == 3 ? 9 : 3);
            s2r_record_add(&r, "kept,0,0,6,0");
        }
        snprintf(path, sizeof path, "%s/seed_%d.csv", argv[1], k);
        if (s2r_record_save(&r, path, error) != S2R_OK) { fprintf(stderr, "%s\n", error); return 1; }
        s2r_record_free(&r);
    }
    {   /* seed 3: the line edited after the seal (its checksum no longer matches) */
        FILE* f = fopen(path, "rb");
        char text[4096];
        size_t n = f ? fread(text, 1, sizeof text, f) : 0;
        char* at;
        if (f) fclose(f);
        if ((at = strstr(text, ",10,9,")) != NULL) at[4] = '3';
        if (!(f = fopen(path, "wb")) || fwrite(text, 1, n, f) != n || fclose(f) != 0) return 1;
    }
    return 0;
}
#endif
