/* course/grade.h - the worker side of every grader in course/.

   A grader is two programs (course/judge.c says more).  This header makes
   the worker: course/N_NAME/grade.c on it, linked with the student's file
   and the library, computes a check's results and sends them to the judge;
   it decides nothing.  The judge, which never links or loads a student's
   code, runs the worker once per check in a sandboxed child, compares what
   comes back with the reference's answers, and scores it.  A check passes
   only when its reply is complete (it ran to its end), well formed (every
   line carries the run's random token), reports no failure, evaluated every
   expectation the reference's run evaluated, and every result it sent for
   comparison agrees with the reference's.

   A check's verdict rests on raw results: grade_answer("key", got, n, tol)
   sends n of them (what the student's functions returned on the check's
   inputs, never a verdict worked out here), which the judge compares with
   what the reference sent under the same key (the tolerance recorded with
   the reference's answer is the one used).  A check that sends none rests
   on this process's word, which the student's code, sharing the process,
   can forge.  The answers are measured, never typed in: the judge's
   --record runs every check on the reference and keeps what it sent, so a
   grader holds no model of an exercise's answer - the reference, run by
   the instructor, is the model (the judge refuses a grader with a check
   that sends no result, unless the check is GRADE_DATA).  grade_label() names a value for the
   judge's message when it disagrees.  grade_fail() / GRADE_EXPECT() say
   what is wrong in words a student can act on (a contract's property, a
   known mistake recognised); they can fail a check, never pass one.

   The instructor's run grades on a grading seed (course/grade.sh draws
   one per run): every unit check draws some of its inputs from
   grade_seed(), so the answers there are the reference's on those inputs,
   not the public expected.txt a kit holds (a reply forged from it then
   carries the wrong numbers).  On a student's own run grade_seed() is 0
   and the inputs are the fixed, public ones.

   Usage, in a grader's .c file (include this first: it selects POSIX):

       #include "../grade.h"
       #include "sim2real.h"
       static void check_push_then_read(void) {
           ...
           GRADE_EXPECT(out[0] == 1.0, "read(0) after push(1) gave %g", out[0]);
       }
       int main(int argc, char** argv) {
           static const grade_check checks[] = {
               {"push then read", 2, 10, GRADE_UNIT, check_push_then_read}, ...};
           return grade_main(argc, argv, "1_latency", checks, sizeof checks / sizeof *checks);
       }

   Integration checks (GRADE_INTEGRATION) run only when every unit check
   passed.  GRADE_HIDDEN on a check (with its code between the lines
   "/" "* >> hidden begin *" "/" and "/" "* >> hidden end *" "/") keeps it
   out of the students' kits: the instructor's grader runs it.  `needs`
   names the other exercises an integration check runs on ("latency,ppo");
   a kit whose library leaves one of them open shows that check's outcome
   band instead of running it. */
#ifndef S2R_GRADE_H
#define S2R_GRADE_H

#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* Every function here is static; a grader uses some of them. */
#if defined(__GNUC__) || defined(__clang__)
#define GRADE_FN static __attribute__((unused))
#else
#define GRADE_FN static
#endif

enum { GRADE_UNIT = 0, GRADE_INTEGRATION = 1, GRADE_HIDDEN = 2, GRADE_DATA = 4 };

typedef struct grade_check {
    const char* name;     /* what is checked, one line                          */
    int         points;   /* weight in the score                                */
    int         seconds;  /* time limit of the check's child process            */
    int         kind;     /* GRADE_UNIT or GRADE_INTEGRATION, | GRADE_HIDDEN,
                             | GRADE_DATA: it runs none of the student's code
                             (it reads a handed-in data file), so its own
                             verdict cannot be forged and it may send no
                             result to compare                                  */
    void      (*run)(void);
    const char* needs;    /* other exercises it runs on, "a,b"; NULL: none      */
} grade_check;

/* Report a failure of the running check (printf-style); the check goes on,
   so one run can report several problems. */
GRADE_FN void grade_fail(const char* fmt, ...);
/* Report a failure and end the running check now, its reply complete
   (for a check that finds the student's code will not return: a search
   that never stops, said at once rather than at the time limit).  Never
   returns. */
GRADE_FN void grade_abandon(const char* fmt, ...);
/* An expectation: sent to the judge whether it holds or not (the judge
   asks that every expectation the reference evaluated was evaluated). */
#define GRADE_EXPECT(cond, ...) do { if (!grade__expect(grade__hash(#cond), (cond) != 0)) grade_fail(__VA_ARGS__); } while (0)

/* |got - want| <= tol * max(1, |want|); NaN is never close. */
GRADE_FN int grade_close(double got, double want, double tol);
/* Send got [n] to the judge, which compares it with the reference's
   answer under `key` within tol (relative, as grade_close); NaN agrees
   with NaN only.  More than GRADE_MAX_VALUES go as key.1, key.2, ... */
GRADE_FN void grade_answer(const char* key, const double* got, int n, double tol);
/* The same within an absolute tolerance: |got - want| <= tol. */
GRADE_FN void grade_answer_within(const char* key, const double* got, int n, double tol);
/* What value i of the n sent under key is ("k = 5, n = 7: the verdict"),
   said by the judge when that value disagrees with the reference's. */
GRADE_FN void grade_label(const char* key, int n, int i, const char* fmt, ...);
/* 1 while the reference's answers are recorded. */
GRADE_FN int grade_recording(void);
/* The grading seed, for this check: 0 on the public fixed inputs (a
   student's own run, a kit, --seed 0); on the instructor's run a number
   drawn from the run's seed (fresh from /dev/urandom, or --seed S to
   reproduce a grade) and the check's name, never 0.  A check draws some
   of its inputs from it (if (grade_seed()) ...), so its answers on the
   instructor's run are not the public expected.txt: they are recorded by
   running the reference on the same seed before any student is graded.
   Calling it tells the judge the check reads the seed (the judge then
   records that check again for each seed; it refuses a unit check of a
   student's code that reads no seed, or one its fixed answers, replayed,
   would pass on a seed). */
GRADE_FN unsigned long long grade_seed(void);
/* `fixed` on the public fixed inputs; else a number drawn from the
   check's seed and `fixed` (an rng seed: s2r_rng_make(grade_seeded(11), 0)
   draws the public inputs on a student's run, others on the instructor's). */
GRADE_FN unsigned long long grade_seeded(unsigned long long fixed);
/* The reference's value under key, for checks that compare themselves:
   recording, got[] is sent and copied to want[]; grading, the judge gave
   it to this check.  Returns 0 when the answer is missing, after
   reporting it.  Only for a GRADE_DATA check: the value reaches the
   worker's memory, where a student's code could read it and send it back
   as its own result (make test checks no grader of code calls it). */
GRADE_FN int grade_reference(const char* key, const double* got, double* want, int n);
/* Values gathered one at a time, each with its label, then sent under one
   key: grade_put(v, "read(%d) after %d pushes", k, t) ... grade_put_send(
   "key", tol) (relative, as grade_answer) or grade_put_send_within("key",
   tol) (absolute).  At most GRADE_PUT_MAX values at a time. */
#define GRADE_PUT_MAX 2048
GRADE_FN void grade_put(double v, const char* fmt, ...);
GRADE_FN void grade_put_send(const char* key, double tol);
GRADE_FN void grade_put_send_within(const char* key, double tol);
/* Keep n values for the later checks of this run (grade_kept reads them;
   0 when none were kept: the earlier check failed or did not run). */
GRADE_FN void grade_keep(const char* key, const double* v, int n);
GRADE_FN int grade_kept(const char* key, double* v, int n);

/* A question to the judge, answered by its grader side (course/judge.c's
   hidden losses: what a check must not hold in this process, which runs
   the student's code): the text goes as a line "TOKEN Q text", the
   judge's one-line answer comes back as a number (NaN: none, or no
   judge). */
GRADE_FN double grade_ask(const char* fmt, ...);
/* A failure the judge decides: when t lies more than `limit` tol from the
   minimum of the judge's hidden loss `loss` (grade_ask("open ...")'s
   number), the check fails with the message (printf-style; "{min}" the
   minimum, "{err}" the distance in tol, "{c:ID}" loss ID's centre, filled
   in by the judge).  At most 3 such messages per check are said. */
GRADE_FN void grade_fail_far(int loss, double t, double limit, const char* fmt, ...);
/* The most search calls (Q f) one hidden loss of this check may take.
   Said by the reference when its answers are recorded and kept in them:
   the judge then holds every student's search to it with its own count
   of the calls it answered (a search that asks the judge itself, around
   the counting loss function, is counted all the same).  A student's
   worker saying it is ignored. */
GRADE_FN void grade_loss_calls_limit(long calls);

/* The file a student handed in when it is data, not code (the open
   assignment's ranges file): a copy in the check's scratch folder; NULL
   when none. */
GRADE_FN const char* grade_submission(void);

/* The worker's main: `grader --worker`, run by the judge (fd 3: the reply,
   fd 4: the preamble).  Anything else: a usage message, status 2. */
GRADE_FN int grade_main(int argc, char** argv, const char* assignment, const grade_check* checks, int count);

/* ------------------------------------------------------------------------ */

#define GRADE_MAX_GIVEN 256
#define GRADE_KEY_LEN 96
#define GRADE_MAX_VALUES 64

typedef struct grade_given {
    char   key[GRADE_KEY_LEN];
    int    n, kept;
    double v[GRADE_MAX_VALUES];
} grade_given;

static struct {
    FILE*        reply;        /* fd 3                                        */
    char         token[40];
    int          recording;
    char         submission[64];
    grade_given* given;        /* GRADE_MAX_GIVEN                             */
    int          n_given;
    unsigned     seen[512];    /* expectations already sent                   */
    char         failed[512];  /* ... and already sent as failed              */
    int          n_seen;
    unsigned long long seed;   /* the run's seed (0: the public fixed inputs) */
    int          seed_said;
    char         check[256];   /* the running check's name                   */
} grade__state;
static int grade__answers = -1;   /* the judge's answers to grade_ask (fd 4, moved away once read) */

GRADE_FN unsigned grade__hash(const char* s) {
    unsigned h = 2166136261u;
    while (*s) { h ^= (unsigned char)*s++; h *= 16777619u; }
    return h;
}

GRADE_FN int grade__expect(unsigned id, int ok) {
    int i;
    if (!grade__state.reply) return ok;
    for (i = 0; i < grade__state.n_seen; i++) if (grade__state.seen[i] == id) break;
    if (i == grade__state.n_seen || (!ok && !grade__state.failed[i])) {   /* once, and its first failure */
        if (i == grade__state.n_seen && grade__state.n_seen < 512) grade__state.seen[grade__state.n_seen++] = id;
        if (!ok && i < 512) grade__state.failed[i] = 1;
        fprintf(grade__state.reply, "%s X %u %d\n", grade__state.token, id, ok);
    }
    return ok;
}

GRADE_FN void grade_fail(const char* fmt, ...) {
    char text[1024], *p;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    for (p = text; *p; p++) if (*p == '\n' || *p == '\r') *p = ' ';
    if (grade__state.reply) {
        fprintf(grade__state.reply, "%s F %s\n", grade__state.token, text);
        fflush(grade__state.reply);
    } else fprintf(stderr, "      - %s\n", text);
}

GRADE_FN void grade_abandon(const char* fmt, ...) {
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    grade_fail("%s", text);
    fflush(stdout);
    if (grade__state.reply) {
        fprintf(grade__state.reply, "%s END\n", grade__state.token);
        fflush(grade__state.reply);
    }
    _exit(0);
}

GRADE_FN int grade_close(double got, double want, double tol) {
    double scale = fabs(want) > 1 ? fabs(want) : 1;
    if (isnan(got) || isnan(want)) return 0;
    if (isinf(want)) return got == want;
    return fabs(got - want) <= tol * scale;
}

GRADE_FN int grade_recording(void) { return grade__state.recording; }

/* splitmix64's finalizer */
GRADE_FN unsigned long long grade__mix(unsigned long long x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

GRADE_FN unsigned long long grade_seed(void) {
    unsigned long long s;
    if (!grade__state.seed_said && grade__state.reply) {   /* the judge learns the check reads it */
        fprintf(grade__state.reply, "%s S\n", grade__state.token);
        grade__state.seed_said = 1;
    }
    if (!grade__state.seed) return 0;
    s = grade__mix(grade__state.seed ^ grade__mix(grade__hash(grade__state.check)));
    return s ? s : 1;
}

GRADE_FN unsigned long long grade_seeded(unsigned long long fixed) {
    unsigned long long s = grade_seed();
    return s ? grade__mix(s ^ grade__mix(fixed)) : fixed;
}

GRADE_FN const char* grade_submission(void) { return grade__state.submission[0] ? grade__state.submission : NULL; }

GRADE_FN void grade__send(char kind, const char* key, const double* v, int n, double tol) {
    int i;
    if (!grade__state.reply) return;
    fprintf(grade__state.reply, "%s %c %s", grade__state.token, kind, key);
    if (kind == 'A') fprintf(grade__state.reply, " %.17g", tol);
    fprintf(grade__state.reply, " %d", n);
    for (i = 0; i < n; i++) fprintf(grade__state.reply, " %.17g", v[i]);
    fprintf(grade__state.reply, "\n");
}

GRADE_FN int grade__key_ok(const char* key, int n) {
    const char* p;
    if (n < 1 || n > GRADE_MAX_VALUES || strlen(key) >= GRADE_KEY_LEN || !*key) return 0;
    for (p = key; *p; p++) if (*p <= ' ' || *p > '~') return 0;
    return 1;
}

GRADE_FN const grade_given* grade__find(const char* key, int kept) {
    int i;
    for (i = 0; i < grade__state.n_given; i++)
        if (grade__state.given[i].kept == kept && strcmp(grade__state.given[i].key, key) == 0) return &grade__state.given[i];
    return NULL;
}

GRADE_FN int grade_reference(const char* key, const double* got, double* want, int n) {
    const grade_given* e;
    int i;
    if (!grade__key_ok(key, n)) { grade_fail("grader bug: answer key \"%s\" with %d values", key, n); return 0; }
    if (grade__state.recording) {
        grade__send('R', key, got, n, 0);
        for (i = 0; i < n; i++) want[i] = got[i];
        return 1;
    }
    e = grade__find(key, 0);
    if (!e || e->n != n) {
        grade_fail("no reference answer \"%s\" (answers file missing or out of date: run course/grade.sh again)", key);
        return 0;
    }
    for (i = 0; i < n; i++) want[i] = e->v[i];
    return 1;
}

/* The key value i of n goes under (key, or key.c for the c-th chunk of
   GRADE_MAX_VALUES), and its index there. */
GRADE_FN int grade__chunk(const char* key, int n, int i, char* out) {
    if (n <= GRADE_MAX_VALUES) { snprintf(out, GRADE_KEY_LEN, "%s", key); return i; }
    snprintf(out, GRADE_KEY_LEN, "%s.%d", key, i / GRADE_MAX_VALUES + 1);
    return i % GRADE_MAX_VALUES;
}

GRADE_FN void grade__answer(const char* key, const double* got, int n, double tol) {
    char part[GRADE_KEY_LEN];
    int i;
    if (n < 1 || strlen(key) + 8 >= GRADE_KEY_LEN || !grade__key_ok(key, 1)) {
        grade_fail("grader bug: answer key \"%s\" with %d values", key, n);
        return;
    }
    for (i = 0; i < n; i += GRADE_MAX_VALUES) {
        int m = n - i < GRADE_MAX_VALUES ? n - i : GRADE_MAX_VALUES;
        grade__chunk(key, n, i, part);
        grade__send('A', part, got + i, m, tol);
    }
}

GRADE_FN void grade_answer(const char* key, const double* got, int n, double tol) { grade__answer(key, got, n, tol); }
GRADE_FN void grade_answer_within(const char* key, const double* got, int n, double tol) { grade__answer(key, got, n, -fabs(tol)); }

GRADE_FN void grade_label(const char* key, int n, int i, const char* fmt, ...) {
    char part[GRADE_KEY_LEN], text[200], *p;
    int at;
    va_list ap;
    if (!grade__state.reply || i < 0 || i >= n) return;
    at = grade__chunk(key, n, i, part);
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    for (p = text; *p; p++) if (*p == '\n' || *p == '\r') *p = ' ';
    fprintf(grade__state.reply, "%s L %s %d %s\n", grade__state.token, part, at, text);
}

static struct { double v[GRADE_PUT_MAX]; char label[GRADE_PUT_MAX][160]; int n; } grade__put;

GRADE_FN void grade_put(double v, const char* fmt, ...) {
    va_list ap;
    if (grade__put.n >= GRADE_PUT_MAX) { grade_fail("grader bug: more than %d values put", GRADE_PUT_MAX); return; }
    grade__put.v[grade__put.n] = v;
    va_start(ap, fmt);
    vsnprintf(grade__put.label[grade__put.n], sizeof grade__put.label[0], fmt, ap);
    va_end(ap);
    grade__put.n++;
}

GRADE_FN void grade__put_send(const char* key, double tol) {
    int i;
    if (grade__put.n == 0) { grade_fail("grader bug: nothing put for \"%s\"", key); return; }
    for (i = 0; i < grade__put.n; i++) grade_label(key, grade__put.n, i, "%s", grade__put.label[i]);
    grade__answer(key, grade__put.v, grade__put.n, tol);
    grade__put.n = 0;
}

GRADE_FN void grade_put_send(const char* key, double tol) { grade__put_send(key, tol); }
GRADE_FN void grade_put_send_within(const char* key, double tol) { grade__put_send(key, -fabs(tol)); }

GRADE_FN double grade_ask(const char* fmt, ...) {
    char q[512], a[128], *p;
    size_t n = 0;
    ssize_t got;
    va_list ap;
    if (!grade__state.reply) return NAN;
    va_start(ap, fmt);
    vsnprintf(q, sizeof q, fmt, ap);
    va_end(ap);
    for (p = q; *p; p++) if (*p == '\n' || *p == '\r') *p = ' ';
    fprintf(grade__state.reply, "%s Q %s\n", grade__state.token, q);
    fflush(grade__state.reply);
    while (n < sizeof a - 1) {   /* one line, written by the judge at once */
        got = read(grade__answers, a + n, sizeof a - 1 - n);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return NAN;
        n += (size_t)got;
        if (a[n - 1] == '\n') break;
    }
    a[n] = 0;
    return strtod(a, NULL);
}

GRADE_FN void grade_fail_far(int loss, double t, double limit, const char* fmt, ...) {
    char text[1024], *p;
    va_list ap;
    if (!grade__state.reply) return;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    for (p = text; *p; p++) if (*p == '\n' || *p == '\r') *p = ' ';
    fprintf(grade__state.reply, "%s G %d %.17g %.17g %s\n", grade__state.token, loss, t, limit, text);
}

GRADE_FN void grade_loss_calls_limit(long calls) {
    if (grade__state.reply) fprintf(grade__state.reply, "%s C %ld\n", grade__state.token, calls);
}

GRADE_FN void grade_keep(const char* key, const double* v, int n) {
    if (grade__key_ok(key, n)) grade__send('K', key, v, n, 0);
}

GRADE_FN int grade_kept(const char* key, double* v, int n) {
    const grade_given* e = grade__find(key, 1);
    int i;
    if (!e || e->n != n) return 0;
    for (i = 0; i < n; i++) v[i] = e->v[i];
    return 1;
}

/* The preamble on fd 4 (token, mode, check name, submission, S seed,
   R/K lines, END) is read whole before any constructor of the student's file runs
   (.preinit_array: before every .init_array entry, on a Linux executable):
   a constructor finds no token there, and fd 4 closed (the pipe, moved to
   another descriptor, then carries only the judge's answers to grade_ask).  The token stays in
   this process's memory, which the student's code shares: a check whose
   verdict is decided here (GRADE_EXPECT, grade_fail) can be forged by code
   that searches memory for it; a grade_answer result cannot be, without
   the reference's values. */
#define GRADE_PREAMBLE_MAX (1 << 20)
static char grade__preamble[GRADE_PREAMBLE_MAX + 1];
static long grade__preamble_len = -1;
static void grade__read_fd4(void) {
    long n = 0;
    ssize_t got;
    while (n < GRADE_PREAMBLE_MAX && (got = read(4, grade__preamble + n, (size_t)(GRADE_PREAMBLE_MAX - n))) != 0) {
        if (got < 0) { if (errno == EINTR) continue; if (n == 0) return; break; }
        n += got;
        /* its last line is END (the judge then writes only answers, when asked) */
        if (n >= 5 && memcmp(grade__preamble + n - 5, "\nEND\n", 5) == 0) break;
    }
    grade__preamble[n] = 0;
    grade__preamble_len = n;
    grade__answers = fcntl(4, F_DUPFD_CLOEXEC, 5);   /* the judge's answers, off fd 4 */
    close(4);
}
#if defined(__linux__) && defined(__GNUC__)
__attribute__((section(".preinit_array"), used)) static void (*grade__preinit)(void) = grade__read_fd4;
#endif

GRADE_FN int grade__read_preamble(char* mode, size_t mode_len, char* name, size_t name_len) {
    FILE* in;
    static char line[8192];
    size_t n;
    if (grade__preamble_len < 0) grade__read_fd4();   /* no .preinit_array here */
    if (grade__preamble_len <= 0 || !(in = fmemopen(grade__preamble, (size_t)grade__preamble_len, "r"))) return -1;
#define GRADE__LINE(buf, len) (fgets(buf, (int)(len), in) ? (n = strlen(buf), (n && buf[n - 1] == '\n' ? buf[--n] = 0 : 0), 1) : 0)
    if (!GRADE__LINE(grade__state.token, sizeof grade__state.token) || !GRADE__LINE(mode, mode_len) ||
        !GRADE__LINE(name, name_len) || !GRADE__LINE(line, sizeof line)) return -1;
    if (strcmp(line, "-") != 0) snprintf(grade__state.submission, sizeof grade__state.submission, "%s", line);
    grade__state.given = (grade_given*)calloc(GRADE_MAX_GIVEN, sizeof *grade__state.given);
    if (!grade__state.given) return -1;
    while (GRADE__LINE(line, sizeof line) && strcmp(line, "END") != 0) {
        grade_given* e = &grade__state.given[grade__state.n_given];
        char* p = line + 2;
        int used, i;
        if (line[0] == 'S' && line[1] == ' ') {   /* the run's seed */
            if (sscanf(line + 2, "%llu", &grade__state.seed) != 1) return -1;
            continue;
        }
        if (grade__state.n_given >= GRADE_MAX_GIVEN || (line[0] != 'R' && line[0] != 'K') ||
            sscanf(p, "%95s %d%n", e->key, &e->n, &used) != 2 || e->n < 1 || e->n > GRADE_MAX_VALUES) return -1;
        p += used;
        for (i = 0; i < e->n; i++) { if (sscanf(p, "%lf%n", &e->v[i], &used) != 1) return -1; p += used; }
        e->kept = line[0] == 'K';
        grade__state.n_given++;
    }
#undef GRADE__LINE
    fclose(in);
    return 0;
}

GRADE_FN int grade_main(int argc, char** argv, const char* assignment, const grade_check* checks, int count) {
    char mode[32], name[256];
    int i;
    if (argc != 2 || strcmp(argv[1], "--worker") != 0) {
        fprintf(stderr, "%s: the worker of the %s grader; course/grade.sh runs it through the judge\n", argv[0], assignment);
        return 2;
    }
    if (grade__read_preamble(mode, sizeof mode, name, sizeof name) != 0) { fprintf(stderr, "grade: no preamble on fd 4\n"); return 2; }
    grade__state.reply = fdopen(3, "w");
    if (!grade__state.reply) return 2;
    if (strcmp(mode, "list") == 0) {
        for (i = 0; i < count; i++)
            fprintf(grade__state.reply, "%s T %d %d %s%s %d %s %s\n", grade__state.token, checks[i].points, checks[i].seconds,
                    (checks[i].kind & GRADE_INTEGRATION) ? "integration" : "unit", (checks[i].kind & GRADE_DATA) ? "-data" : "",
                    (checks[i].kind & GRADE_HIDDEN) ? 1 : 0,
                    checks[i].needs ? checks[i].needs : "-", checks[i].name);
    } else {
        grade__state.recording = strcmp(mode, "record") == 0;
        snprintf(grade__state.check, sizeof grade__state.check, "%s", name);
        for (i = 0; i < count && strcmp(checks[i].name, name) != 0; i++) {}
        if (i == count) { grade_fail("this grader has no check \"%s\" (an answers file of another version?)", name); return 1; }
        fflush(stdout);
        checks[i].run();
        fflush(stdout);
    }
    fprintf(grade__state.reply, "%s END\n", grade__state.token);
    fflush(grade__state.reply);
    return 0;
}

#endif /* S2R_GRADE_H */
