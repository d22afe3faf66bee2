/* sim2real_jobs.h - a run split into jobs: binary demonstration files
                     (a companion header of sim2real.h)

   What hands a run's intermediate results from one job to the next, and is
   not the recipe: demonstrations as raw floats behind a checksummed header
   (a unit's recordings are tens of MB as floats and several times that as
   CSV text; sim2real.h's s2r_dataset_write_csv / s2r_dataset_load_csv are
   the readable format).  Example 07's jobs use it.

   Including it.  After sim2real.h, in every file that uses it:
       #define SIM2REAL_IMPLEMENTATION    // in one file only
       #include "sim2real.h"
       #include "sim2real_jobs.h"
   The one SIM2REAL_IMPLEMENTATION compiles this header's implementation
   too; the rules, and the #error that a wrong order stops with, are in
   sim2real.h's manual, section 8.  Needs only what sim2real.h needs.
*/
#ifndef SIM2REAL_H
#error "include sim2real.h before sim2real_jobs.h"
#endif
#ifndef SIM2REAL_JOBS_H
#define SIM2REAL_JOBS_H

/* ==========================================================================
   Binary demonstration files
   ========================================================================== */

/* The same pairs as raw floats behind a checksummed header: how a run's
   jobs hand demonstrations to each other (a unit's recording is tens of
   MB as floats and several times that as text).  The layout, 8 uint32
   words then the payload, in this machine's byte order:
     magic "S2RD", version 2, obs_dim, act_dim, count, episodes,
     checksum lo, hi
     obs [count][obs_dim] floats, then act [count][act_dim] floats, then
     per episode two uint32: its episode_end and its success (0 or 1)
   the checksum FNV-1a 64 over the header (checksum words zero) and the
   payload.  Version 1 (episodes 0, no episode words) still loads.  Save:
   written whole or not at all.  Load (d not initialised; free it after) /
   unpack (an image in memory; `name` for messages): a wrong magic,
   version, size or checksum, a non-finite number, an action outside
   [-1, 1] or episode ends out of order is S2R_ERR_CORRUPT naming the
   file, and nothing is loaded. */
S2RDEF s2r_result s2r_dataset_save(const s2r_dataset* d, const char* path, char* error);
S2RDEF s2r_result s2r_dataset_load(s2r_dataset* d, const char* path, char* error);
S2RDEF s2r_result s2r_dataset_unpack(s2r_dataset* d, const unsigned char* image, size_t n, const char* name,
                                     char* error);

#endif /* SIM2REAL_JOBS_H */

#if defined(SIM2REAL_IMPLEMENTATION) && !defined(S2R_IMPLEMENTATION_ELSEWHERE)
#ifdef S2R_JOBS_IMPLEMENTATION_DONE
#error "sim2real_jobs.h: its implementation is already in this file (included twice with SIM2REAL_IMPLEMENTATION defined)"
#endif
#define S2R_JOBS_IMPLEMENTATION_DONE
#ifndef SIM2REAL_IMPLEMENTATION_DONE
#error "sim2real_jobs.h: define SIM2REAL_IMPLEMENTATION before sim2real.h is first included (this implementation uses the core's)"
#endif

/* ==========================================================================
   Binary demonstration files (implementation)
   ========================================================================== */

#define S2R__DS_MAGIC 0x44523253u   /* "S2RD" read as a little-endian uint32 */
#define S2R__DS_HEADER 8            /* uint32 words */

/* The checksum of a binary demonstration file: header words (checksum
   zeroed), observations, actions. */
static uint64_t s2r__dataset_checksum(const uint32_t* header, const float* obs, size_t obs_n, const float* act,
                                      size_t act_n, const uint32_t* episodes) {
    uint32_t h[S2R__DS_HEADER];
    uint64_t sum;
    memcpy(h, header, sizeof h);
    h[6] = h[7] = 0;
    sum = s2r__fnv1a(s2r__fnv1a(s2r__fnv1a(0xCBF29CE484222325ull, h, sizeof h), obs, sizeof(float) * obs_n), act,
                     sizeof(float) * act_n);
    return h[5] ? s2r__fnv1a(sum, episodes, 2 * sizeof(uint32_t) * h[5]) : sum;
}

/* A dataset's episodes as the file's words: end, success per episode
   ([2 * episodes], caller frees); NULL when there are none. */
static uint32_t* s2r__dataset_episode_words(const s2r_dataset* d) {
    uint32_t* w = d->episodes ? (uint32_t*)S2R_MALLOC(2 * sizeof(uint32_t) * (size_t)d->episodes) : NULL;
    int e;
    for (e = 0; w && e < d->episodes; e++) {
        w[2 * e] = (uint32_t)d->episode_end[e];
        w[2 * e + 1] = d->episode_success[e];
    }
    return w;
}

S2RDEF s2r_result s2r_dataset_save(const s2r_dataset* d, const char* path, char* error) {
    uint32_t h[S2R__DS_HEADER] = {S2R__DS_MAGIC, 2, 0, 0, 0, 0, 0, 0};
    uint32_t* episodes;
    size_t obs_n, act_n;
    uint64_t sum;
    s2r_file file;
    s2r_result res;
    if (!d || !path) return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "save demonstrations: dataset or path is NULL");
    obs_n = (size_t)d->count * (size_t)d->obs_dim;
    act_n = (size_t)d->count * (size_t)d->act_dim;
    h[2] = (uint32_t)d->obs_dim;
    h[3] = (uint32_t)d->act_dim;
    h[4] = (uint32_t)d->count;
    h[5] = (uint32_t)d->episodes;
    episodes = s2r__dataset_episode_words(d);
    if (d->episodes && !episodes) return s2r__fail(error, S2R_ERR_OUT_OF_MEMORY, "save demonstrations: out of memory");
    sum = s2r__dataset_checksum(h, d->obs, obs_n, d->act, act_n, episodes);
    h[6] = (uint32_t)(sum & 0xFFFFFFFFu);
    h[7] = (uint32_t)(sum >> 32);
    if ((res = s2r_file_create(&file, path, error)) != S2R_OK) {
        S2R_FREE(episodes);
        return res;
    }
    fwrite(h, sizeof h, 1, file.f);
    if (obs_n) fwrite(d->obs, sizeof(float), obs_n, file.f);
    if (act_n) fwrite(d->act, sizeof(float), act_n, file.f);
    if (episodes) fwrite(episodes, 2 * sizeof(uint32_t), (size_t)d->episodes, file.f);
    S2R_FREE(episodes);
    return s2r_file_commit(&file, error);   /* a failed write is found here */
}

S2RDEF s2r_result s2r_dataset_unpack(s2r_dataset* d, const unsigned char* image, size_t n, const char* name,
                                     char* error) {
    const s2r_result bad = S2R_ERR_CORRUPT;
    uint32_t h[S2R__DS_HEADER], *words = NULL;
    size_t obs_n, act_n, i, e;
    uint64_t sum;
    const char* why = NULL;
    S2R_ASSERT(d);
    memset(d, 0, sizeof *d);
    if (!image || !name) return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "demonstrations: image and name are needed");
    if (n < sizeof h) return s2r__fail(error, bad, "%s: too short for demonstrations (%lu bytes)", name, (unsigned long)n);
    memcpy(h, image, sizeof h);
    if (h[0] != S2R__DS_MAGIC) return s2r__fail(error, bad, "%s: not a sim2real.h demonstration file (bad magic)", name);
    if (h[1] != 1 && h[1] != 2)
        return s2r__fail(error, bad, "%s: demonstration file version %u, this build reads 1 and 2", name, (unsigned)h[1]);
    if (h[2] < 1 || h[2] > S2R__DEMO_MAX_DIM || h[3] < 1 || h[3] > S2R__DEMO_MAX_DIM || h[4] > INT32_MAX ||
        h[5] > INT32_MAX / 2 || (h[1] == 1 && h[5] != 0))
        return s2r__fail(error, bad, "%s: impossible sizes in the header (%u observations, %u actions, %u pairs, "
                         "%u episodes)", name, (unsigned)h[2], (unsigned)h[3], (unsigned)h[4], (unsigned)h[5]);
    obs_n = (size_t)h[4] * h[2];
    act_n = (size_t)h[4] * h[3];
    if ((n - sizeof h) % sizeof(float) || (n - sizeof h) / sizeof(float) != obs_n + act_n + 2 * (size_t)h[5])
        return s2r__fail(error, bad, "%s: %lu bytes, the header says %lu (truncated or padded)", name, (unsigned long)n,
                         (unsigned long)(sizeof h + sizeof(float) * (obs_n + act_n + 2 * (size_t)h[5])));
    if (s2r_dataset_init(d, (int)h[2], (int)h[3]) != S2R_OK) return s2r__fail(error, bad, "%s: %s", name, d->error);
    if (h[4] > 0) {   /* room for every pair at once */
        d->obs = (float*)S2R_MALLOC(sizeof(float) * obs_n);
        d->act = (float*)S2R_MALLOC(sizeof(float) * act_n);
        d->capacity = (int)h[4];
    }
    if (h[5] > 0) {
        words = (uint32_t*)S2R_MALLOC(2 * sizeof(uint32_t) * h[5]);
        d->episode_end = (int*)S2R_MALLOC(sizeof(int) * h[5]);
        d->episode_success = (unsigned char*)S2R_MALLOC(h[5]);
        d->episode_capacity = (int)h[5];
    }
    if ((h[4] > 0 && (!d->obs || !d->act)) || (h[5] > 0 && (!words || !d->episode_end || !d->episode_success))) {
        S2R_FREE(words);
        s2r_dataset_free(d);
        memset(d, 0, sizeof *d);
        return s2r__fail(error, S2R_ERR_OUT_OF_MEMORY, "%s: out of memory for %u pairs", name, (unsigned)h[4]);
    }
    if (obs_n) memcpy(d->obs, image + sizeof h, sizeof(float) * obs_n);
    if (act_n) memcpy(d->act, image + sizeof h + sizeof(float) * obs_n, sizeof(float) * act_n);
    if (words) memcpy(words, image + sizeof h + sizeof(float) * (obs_n + act_n), 2 * sizeof(uint32_t) * h[5]);
    sum = s2r__dataset_checksum(h, d->obs, obs_n, d->act, act_n, words);
    for (i = 0; i < act_n && fabsf(d->act[i]) <= 1.0f; i++) continue;
    for (e = 0; e < h[5]; e++) {   /* ends in order within the pairs, outcomes 0 or 1 */
        if (words[2 * e] > h[4] || (e && words[2 * e] < words[2 * e - 2]) || words[2 * e + 1] > 1) break;
        d->episode_end[e] = (int)words[2 * e];
        d->episode_success[e] = (unsigned char)words[2 * e + 1];
    }
    S2R_FREE(words);
    if (h[6] != (uint32_t)(sum & 0xFFFFFFFFu) || h[7] != (uint32_t)(sum >> 32) || obs_n > INT32_MAX ||
        !s2r_all_finite_f(d->obs, (int)obs_n))
        why = "checksum mismatch or a non-finite observation (corrupt file)";
    else if (i < act_n)
        why = "an action outside [-1, 1] or not a number";
    else if (e < h[5])
        why = "episode ends out of order or past the pairs, or an outcome not 0 or 1";
    if (why) {
        s2r__fail(error, bad, "%s: %s", name, why);
        s2r_dataset_free(d);
        memset(d, 0, sizeof *d);
        return bad;
    }
    d->count = (int)h[4];
    d->episodes = (int)h[5];
    return S2R_OK;
}

S2RDEF s2r_result s2r_dataset_load(s2r_dataset* d, const char* path, char* error) {
    unsigned char* image;
    size_t n;
    s2r_result res;
    S2R_ASSERT(d);
    memset(d, 0, sizeof *d);
    if (!path) return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "demonstrations: path is NULL");
    if ((res = s2r__read_file(path, &image, &n, error)) != S2R_OK) return res;
    res = s2r_dataset_unpack(d, image, n, path, error);
    S2R_FREE(image);
    return res;
}

#endif /* SIM2REAL_IMPLEMENTATION */

/* LICENSE: the same as sim2real.h's (MIT), at the end of that file. */
