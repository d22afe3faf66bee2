/* sim2real_jobs.h - a run split into jobs: job records and binary
                     demonstration files (a companion header of sim2real.h)

   What hands a run's intermediate results from one job to the next, and is
   not the recipe: a job's record (its measurements as lines of text,
   stamped with the run's settings and the build and sealed by a checksum,
   so that an edited, cut or copied record is refused, never merged), and
   demonstrations as raw floats behind a checksummed header (a unit's
   recordings are tens of MB as floats, several times that as text).
   Example 07's jobs use both.

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
   Job records
   ==========================================================================
   What one job of a run hands the jobs after it: lines of text a person
   can read, between two stamps and a seal.

       # TITLE                        comment lines, at the top only
       settings,<16 hex digits>       the run's settings (s2r_options_digest)
       build,<16 hex digits>          the build (s2r_build_digest)
       ... the job's own lines ...    s2r_record_add; none starts with "end"
       end,<N>,<16 hex digits>        N: the lines above; the digits: FNV-1a 64
                                      of every byte above this line

   Flow.  A job: s2r_record_begin (title, stamps) -> s2r_record_add per
   line -> s2r_record_save (the end line; the file written whole or not at
   all, s2r_file) -> s2r_record_free.  The next job: s2r_record_load (the
   file checked whole, below) -> s2r_record_line for each of the job's
   lines, which the caller checks for what they say -> s2r_record_free.

   Load refuses, before reading a byte, what is not a regular file (a
   directory, or a FIFO whose open would wait for a writer: S2R_ERR_IO)
   and a file over S2R_RECORD_MAX_BYTES; then, S2R_ERR_CORRUPT naming the
   file and the line: a NUL byte, a last line without its newline, a
   missing or malformed stamp, an end line before the last line, no end
   line, an end line whose count or checksum is not the content's - any
   edit, a line added, removed or duplicated; then S2R_ERR_STATE when a
   stamp is another run's or another build's.  On any error nothing is
   loaded.  The checksum finds accidents and hand edits, not forgeries:
   what the lines say is still the caller's to check (bounds, duplicates,
   lines it requires). */
#define S2R_RECORD_MAX_BYTES (1L << 20)   /* largest record read, bytes */

typedef struct s2r_record {
    char*  text;        /* the record; after a load each line ends in '\0'   */
    size_t length;      /* bytes in text                                    */
    size_t capacity;    /* bytes allocated                                  */
    size_t* offset;     /* after a load: where each of the job's lines starts */
    int    lines;       /* the job's lines (written so far, or loaded)      */
    int    first_line;  /* after a load: the file's line number of line 0   */
    s2r_result status;  /* S2R_OK, or the first failed add (save refuses)   */
    char   error[S2R_ERROR_LEN];
} s2r_record;

/* A record to write (r not initialised): "# title" (NULL: none), then the
   stamps.  S2R_ERR_OUT_OF_MEMORY; S2R_ERR_INVALID_ARGUMENT for a title
   holding a newline. */
S2RDEF s2r_result s2r_record_begin(s2r_record* r, const char* title, uint64_t settings, uint64_t build);
/* One line, printf-style, without its newline.  A line holding a newline
   or a NUL, or starting with "end", is S2R_ERR_INVALID_ARGUMENT; any
   failure is kept in r->status and makes the save fail too. */
S2RDEF s2r_result s2r_record_add(s2r_record* r, const char* format, ...);
/* Seal the record with its end line and write it to path whole
   (S2R_ERR_IO, path untouched, when it cannot be written). */
S2RDEF s2r_result s2r_record_save(s2r_record* r, const char* path, char* error);
/* Read and check the record at path (r not initialised; free it after)
   against the stamps the reader expects; the errors above. */
S2RDEF s2r_result s2r_record_load(s2r_record* r, const char* path, uint64_t settings, uint64_t build, char* error);
/* The same for a record's bytes already in memory (`name` for messages). */
S2RDEF s2r_result s2r_record_parse(s2r_record* r, const char* image, size_t n, const char* name, uint64_t settings,
                                   uint64_t build, char* error);
/* The job's line i (0 .. lines - 1) of a loaded record, without its
   newline; *number (if given) its line number in the file.  NULL past the
   lines. */
S2RDEF const char* s2r_record_line(const s2r_record* r, int i, int* number);
S2RDEF void        s2r_record_free(s2r_record* r);

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
   Job records (implementation)
   ========================================================================== */

/* Append n bytes to the record's text. */
static s2r_result s2r__record_append(s2r_record* r, const char* bytes, size_t n) {
    if (r->length + n + 1 > r->capacity) {
        size_t cap = r->capacity ? r->capacity : 1024;
        char* grown;
        while (cap < r->length + n + 1) cap *= 2;
        if (cap > (size_t)S2R_RECORD_MAX_BYTES + 1 || !(grown = (char*)S2R_REALLOC(r->text, cap)))
            return r->status = s2r__fail(r->error, S2R_ERR_OUT_OF_MEMORY, "record: no room for %lu more bytes "
                                         "(at most %ld in all)", (unsigned long)n, S2R_RECORD_MAX_BYTES);
        r->text = grown;
        r->capacity = cap;
    }
    memcpy(r->text + r->length, bytes, n);
    r->length += n;
    r->text[r->length] = '\0';
    return S2R_OK;
}

S2RDEF s2r_result s2r_record_begin(s2r_record* r, const char* title, uint64_t settings, uint64_t build) {
    char stamps[64];
    S2R_ASSERT(r);
    memset(r, 0, sizeof *r);
    if (title && strchr(title, '\n'))
        return r->status = s2r__fail(r->error, S2R_ERR_INVALID_ARGUMENT, "record: a title of one line");
    snprintf(stamps, sizeof stamps, "settings,%016llx\nbuild,%016llx\n", (unsigned long long)settings,
             (unsigned long long)build);
    if (title && (s2r__record_append(r, "# ", 2) != S2R_OK || s2r__record_append(r, title, strlen(title)) != S2R_OK ||
                  s2r__record_append(r, "\n", 1) != S2R_OK))
        return r->status;
    return s2r__record_append(r, stamps, strlen(stamps));
}

S2RDEF s2r_result s2r_record_add(s2r_record* r, const char* format, ...) {
    char line[1024];
    va_list ap;
    int n;
    S2R_ASSERT(r);
    if (!format) return r->status = s2r__fail(r->error, S2R_ERR_INVALID_ARGUMENT, "record: the format is NULL");
    if (r->status != S2R_OK) return r->status;
    va_start(ap, format);
    n = vsnprintf(line, sizeof line, format, ap);
    va_end(ap);
    if (n < 0 || n >= (int)sizeof line)
        return r->status = s2r__fail(r->error, S2R_ERR_INVALID_ARGUMENT, "record: a line longer than %d bytes",
                                     (int)sizeof line - 1);
    if (strchr(line, '\n') || strncmp(line, "end", 3) == 0)
        return r->status = s2r__fail(r->error, S2R_ERR_INVALID_ARGUMENT, "record: line '%.60s' holds a newline or "
                                     "starts with \"end\" (the seal's word)", line);
    line[n] = '\n';
    if (s2r__record_append(r, line, (size_t)n + 1) != S2R_OK) return r->status;
    r->lines++;
    return S2R_OK;
}

/* FNV-1a 64 of a record's first n bytes (what its end line seals) and
   the lines they hold. */
static uint64_t s2r__record_sum(const char* text, size_t n, long* lines) {
    size_t i;
    for (*lines = 0, i = 0; i < n; i++) *lines += text[i] == '\n';
    return s2r__fnv1a(0xCBF29CE484222325ull, text, n);
}

S2RDEF s2r_result s2r_record_save(s2r_record* r, const char* path, char* error) {
    char end[64];
    s2r_result res;
    size_t content;
    uint64_t sum;
    long lines;
    S2R_ASSERT(r);
    if (!path) return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "save record: path is NULL");
    if (r->status != S2R_OK) return s2r__fail(error, r->status, "%s: not saved: %s", path, r->error);
    if (!r->text) return s2r__fail(error, S2R_ERR_STATE, "%s: the record was not begun (s2r_record_begin)", path);
    content = r->length;
    sum = s2r__record_sum(r->text, content, &lines);
    snprintf(end, sizeof end, "end,%ld,%016llx\n", lines, (unsigned long long)sum);
    if ((res = s2r__record_append(r, end, strlen(end))) != S2R_OK) return s2r__fail(error, res, "%s: %s", path, r->error);
    res = s2r_file_write_all(path, r->text, r->length, error);
    r->length = content;   /* the seal is the file's, not the record's: more lines may follow */
    r->text[content] = '\0';
    return res;
}

/* Exactly 16 lowercase hex digits, then the end of the line, at s into *v. */
static int s2r__record_hex(const char* s, uint64_t* v) {
    int i;
    for (*v = 0, i = 0; i < 16; i++) {
        char c = s[i];
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return 0;
        *v = (*v << 4) | (uint64_t)(c <= '9' ? c - '0' : c - 'a' + 10);
    }
    return s[16] == '\0';
}

/* "KEY,<16 hex digits>" at s (a line without its newline) into *v. */
static int s2r__record_stamp(const char* s, const char* key, uint64_t* v) {
    size_t k = strlen(key);
    return strncmp(s, key, k) == 0 && s[k] == ',' && s2r__record_hex(s + k + 1, v);
}

/* The end line at s, "end,N,<16 hex digits>", into count and sum. */
static int s2r__record_end(const char* s, long* count, uint64_t* sum) {
    char* after;
    if (strncmp(s, "end,", 4) != 0 || !isdigit((unsigned char)s[4]) || (s[4] == '0' && s[5] != ',')) return 0;
    errno = 0;
    *count = strtol(s + 4, &after, 10);
    return errno == 0 && *after == ',' && s2r__record_hex(after + 1, sum);
}

/* What is wrong with the record in r->text (n bytes, ending in a newline;
   each line is cut at its newline as it is checked), or NULL; *line: the
   line it is at.  The job's lines' offsets go into r. */
static const char* s2r__record_check(s2r_record* r, size_t n, uint64_t* settings, uint64_t* build, int* line) {
    char* text = r->text;
    size_t at, next, content = n - 1;
    int stamps = 0;
    long count = 0, lines;
    uint64_t sum = 0, seal;
    while (content > 0 && text[content - 1] != '\n') content--;   /* where the last line starts */
    seal = s2r__record_sum(text, content, &lines);
    for (*line = 0, at = 0; at < n; at = next) {
        char* nl = (char*)memchr(text + at, '\n', n - at);
        const char* s = text + at;
        ++*line;
        *nl = '\0';
        next = (size_t)(nl - text) + 1;
        if (stamps == 0 && s[0] == '#' && at != content) continue;   /* the title */
        if (stamps < 2) {
            if (!s2r__record_stamp(s, stamps == 0 ? "settings" : "build", stamps == 0 ? settings : build))
                return at == content ? "its stamps are missing (deleted, or the record cut short)"
                       : stamps == 0 ? "not the settings stamp (settings,<16 hex digits>) after the title"
                                     : "not the build stamp (build,<16 hex digits>) after the settings stamp";
            if (++stamps == 2) r->first_line = *line + 1;
        } else if (strncmp(s, "end", 3) != 0) {
            if (at == content) return "it has no end line (cut short)";
            r->offset[r->lines++] = at;
        } else if (at != content) {
            return "an end line before the last line (the record was edited)";
        } else if (!s2r__record_end(s, &count, &sum)) {
            return "a malformed end line (end,<lines>,<16 hex digits>)";
        }
    }
    if (stamps < 2) return "it ends before its stamps (cut short)";
    if (count != lines) return "the end line counts another number of lines (a line added or removed)";
    if (sum != seal) return "the checksum in the end line is not the content's (the record was edited or damaged)";
    return NULL;
}

S2RDEF s2r_result s2r_record_parse(s2r_record* r, const char* image, size_t n, const char* name, uint64_t settings,
                                   uint64_t build, char* error) {
    uint64_t got_settings = 0, got_build = 0;
    const char *why, *nul;
    size_t i, lines = 1;
    int line, other;
    S2R_ASSERT(r);
    memset(r, 0, sizeof *r);
    if (!image || !name) return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "record: image and name are needed");
    if (n > (size_t)S2R_RECORD_MAX_BYTES)
        return s2r__fail(error, S2R_ERR_CORRUPT, "%s: %lu bytes, more than a record's %ld", name, (unsigned long)n,
                         S2R_RECORD_MAX_BYTES);
    if ((nul = (const char*)memchr(image, '\0', n)) != NULL)
        return s2r__fail(error, S2R_ERR_CORRUPT, "%s: a NUL byte at offset %ld: not a record", name, (long)(nul - image));
    for (i = 0; i < n; i++) lines += image[i] == '\n';
    r->text = (char*)S2R_MALLOC(n + 1);
    r->offset = (size_t*)S2R_MALLOC(sizeof(size_t) * lines);
    if (!r->text || !r->offset) {
        s2r_record_free(r);
        return s2r__fail(error, S2R_ERR_OUT_OF_MEMORY, "%s: out of memory for %lu bytes", name, (unsigned long)n);
    }
    memcpy(r->text, image, n);
    r->text[n] = '\0';
    r->length = r->capacity = n;
    if (n == 0 || image[n - 1] != '\n') {
        line = (int)lines;
        s2r_record_free(r);
        return s2r__fail(error, S2R_ERR_CORRUPT, "%s, line %d: %s", name, line,
                         n == 0 ? "it is empty" : "its last line has no newline at its end (cut short)");
    }
    if ((why = s2r__record_check(r, n, &got_settings, &got_build, &line)) != NULL) {
        s2r_record_free(r);
        return s2r__fail(error, S2R_ERR_CORRUPT, "%s, line %d: %s", name, line, why);
    }
    if (got_settings == settings && got_build == build) return S2R_OK;
    other = got_settings != settings;
    s2r_record_free(r);
    return s2r__fail(error, S2R_ERR_STATE, "%s: made by %s (its %s stamp %016llx, this run's %016llx)", name,
                     other ? "a run with other settings" : "another build", other ? "settings" : "build",
                     (unsigned long long)(other ? got_settings : got_build),
                     (unsigned long long)(other ? settings : build));
}

S2RDEF s2r_result s2r_record_load(s2r_record* r, const char* path, uint64_t settings, uint64_t build, char* error) {
    char* text = NULL;
    s2r_result res;
    S2R_ASSERT(r);
    memset(r, 0, sizeof *r);
    if (!path) return s2r__fail(error, S2R_ERR_INVALID_ARGUMENT, "record: path is NULL");
    res = s2r__read_text_file(path, S2R_RECORD_MAX_BYTES, &text, error);   /* refuses a FIFO before opening it */
    if (res == S2R_ERR_PARSE) res = S2R_ERR_CORRUPT;                        /* a NUL byte */
    if (res != S2R_OK) return res;
    res = s2r_record_parse(r, text, strlen(text), path, settings, build, error);
    S2R_FREE(text);
    return res;
}

S2RDEF const char* s2r_record_line(const s2r_record* r, int i, int* number) {
    S2R_ASSERT(r);
    if (!r->text || !r->offset || i < 0 || i >= r->lines) return NULL;
    if (number) *number = r->first_line + i;
    return r->text + r->offset[i];
}

S2RDEF void s2r_record_free(s2r_record* r) {
    if (!r) return;
    S2R_FREE(r->text);
    S2R_FREE(r->offset);
    memset(r, 0, sizeof *r);
}

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
