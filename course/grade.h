/* course/grade.h - the harness every grader in course/ is built on.

   A grader is a list of checks.  Each check runs in a child process of its
   own, with a time limit, so a student's function that crashes, loops
   forever or aborts costs that check and nothing else.  A check reports
   what is wrong with grade_fail() / GRADE_EXPECT() (a few sentences a
   student can act on) and passes when it reported nothing.

   Known answers.  grade_answer("key", got, n, tol) compares n numbers
   against the answer the reference implementation gave for the same key.
   The answers are measured, never typed in: `grader --record FILE` runs
   every check against the reference (the header built without any
   S2R_EXERCISE_* switch) and writes what it computed; `grader --answers
   FILE` compares a student's build against that file.  course/grade.sh
   does both.

   Output: one line per check ("PASS" / "FAIL" with its points and, below
   a failure, what went wrong), then "score: P / T points" and the line
   "N passed, N failed".  Exit status 0 when every check passed, 1 when
   one failed, 2 on a usage error.

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
   passed: they are slower, and their failure says little while a unit
   check still fails.  Skipped, they count as failed. */
#ifndef S2R_GRADE_H
#define S2R_GRADE_H

#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <errno.h>
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

typedef enum grade_kind { GRADE_UNIT, GRADE_INTEGRATION } grade_kind;

typedef struct grade_check {
    const char* name;     /* what is checked, one line                          */
    int         points;   /* weight in the score                                */
    int         seconds;  /* time limit of the check's child process            */
    grade_kind  kind;     /* UNIT: known answers; INTEGRATION: the pipeline     */
    void      (*run)(void);
} grade_check;

/* Report a failure of the running check (printf-style); the check goes on,
   so one run can report several problems.  At most GRADE_MAX_MESSAGES
   are printed per check. */
GRADE_FN void grade_fail(const char* fmt, ...);
#define GRADE_EXPECT(cond, ...) do { if (!(cond)) grade_fail(__VA_ARGS__); } while (0)
#define GRADE_MAX_MESSAGES 6

/* |got - want| <= tol * max(1, |want|); NaN is never close. */
GRADE_FN int grade_close(double got, double want, double tol);
/* Compare got [n] with the reference's answer under `key` (record mode:
   write them).  A missing answer is a failure that names the key. */
GRADE_FN void grade_answer(const char* key, const double* got, int n, double tol);
/* 1 in record mode (the reference is running): a check may skip
   comparisons that only make sense for a student's build. */
GRADE_FN int grade_recording(void);
/* The reference's answer under key: its n values into want[] (record mode:
   the values given in got[] are recorded and copied).  Returns 0 when the
   answer is missing, after reporting it. */
GRADE_FN int grade_reference(const char* key, const double* got, double* want, int n);

/* The file a student handed in when it is data, not code (--submission
   FILE: e.g. the open assignment's ranges file); NULL when none. */
GRADE_FN const char* grade_submission(void);

/* Parse --record FILE / --answers FILE / --only TEXT / --submission FILE,
   run the checks, print the report.  `assignment` names the grader in its
   first line. */
GRADE_FN int grade_main(int argc, char** argv, const char* assignment, const grade_check* checks, int count);

/* ------------------------------------------------------------------------ */

#define GRADE_MAX_ANSWERS 4096
#define GRADE_KEY_LEN 96
#define GRADE_MAX_VALUES 64

typedef struct grade_answer_entry {
    char   key[GRADE_KEY_LEN];
    int    n;
    double v[GRADE_MAX_VALUES];
} grade_answer_entry;

static struct {
    FILE*               record;      /* record mode: answers are written here */
    grade_answer_entry* answers;     /* check mode: loaded before any check   */
    int                 n_answers;
    int                 failures;    /* in the running child                  */
    const char*         submission;  /* --submission FILE, or NULL            */
} grade__state;

GRADE_FN void grade_fail(const char* fmt, ...) {
    va_list ap;
    if (++grade__state.failures > GRADE_MAX_MESSAGES) return;
    printf("      - ");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    fflush(stdout);
}

GRADE_FN int grade_close(double got, double want, double tol) {
    double scale = fabs(want) > 1 ? fabs(want) : 1;
    if (isnan(got) || isnan(want)) return 0;
    if (isinf(want)) return got == want;
    return fabs(got - want) <= tol * scale;
}

GRADE_FN int grade_recording(void) { return grade__state.record != NULL; }

GRADE_FN const char* grade_submission(void) { return grade__state.submission; }

GRADE_FN const grade_answer_entry* grade__find(const char* key) {
    int i;
    for (i = 0; i < grade__state.n_answers; i++)
        if (strcmp(grade__state.answers[i].key, key) == 0) return &grade__state.answers[i];
    return NULL;
}

GRADE_FN int grade_reference(const char* key, const double* got, double* want, int n) {
    const grade_answer_entry* e;
    int i;
    if (n < 1 || n > GRADE_MAX_VALUES || strlen(key) >= GRADE_KEY_LEN || strchr(key, ' ')) {
        grade_fail("grader bug: answer key \"%s\" with %d values", key, n);
        return 0;
    }
    if (grade__state.record) {
        fprintf(grade__state.record, "%s %d", key, n);
        for (i = 0; i < n; i++) fprintf(grade__state.record, " %.17g", got[i]);
        fprintf(grade__state.record, "\n");
        fflush(grade__state.record);
        for (i = 0; i < n; i++) want[i] = got[i];
        return 1;
    }
    e = grade__find(key);
    if (!e || e->n != n) {
        grade_fail("no reference answer \"%s\" (answers file missing or out of date: run course/grade.sh again)", key);
        return 0;
    }
    for (i = 0; i < n; i++) want[i] = e->v[i];
    return 1;
}

GRADE_FN void grade_answer(const char* key, const double* got, int n, double tol) {
    double want[GRADE_MAX_VALUES];
    int i, shown = 0;
    if (!grade_reference(key, got, want, n)) return;
    for (i = 0; i < n; i++)
        if (!grade_close(got[i], want[i], tol) && shown++ < 3)
            grade_fail("%s, value %d of %d: got %.9g, the reference gives %.9g", key, i + 1, n, got[i], want[i]);
}

/* The answers file: one "key n v1 ... vn" per line. */
GRADE_FN int grade__load(const char* path) {
    FILE* f = fopen(path, "r");
    char key[GRADE_KEY_LEN];
    int n;
    if (!f) { fprintf(stderr, "grade: cannot open answers file %s: %s\n", path, strerror(errno)); return -1; }
    grade__state.answers = (grade_answer_entry*)calloc(GRADE_MAX_ANSWERS, sizeof *grade__state.answers);
    if (!grade__state.answers) { fclose(f); return -1; }
    while (grade__state.n_answers < GRADE_MAX_ANSWERS && fscanf(f, "%95s %d", key, &n) == 2) {
        grade_answer_entry* e = &grade__state.answers[grade__state.n_answers];
        int i;
        if (n < 1 || n > GRADE_MAX_VALUES) break;
        for (i = 0; i < n; i++)
            if (fscanf(f, "%lf", &e->v[i]) != 1) { fclose(f); fprintf(stderr, "grade: %s is malformed\n", path); return -1; }
        memcpy(e->key, key, sizeof key);
        e->n = n;
        grade__state.n_answers++;
    }
    fclose(f);
    return 0;
}

/* What a check's child printed, replayed under its verdict line: at most
   GRADE_MAX_LINES lines (a student's debugging output can be long). */
#define GRADE_MAX_LINES 30
GRADE_FN void grade__replay(FILE* out) {
    char line[512];
    int lines = 0;
    rewind(out);
    while (fgets(line, sizeof line, out)) {
        size_t len = strlen(line);
        if (++lines > GRADE_MAX_LINES) continue;
        fputs(line, stdout);
        if (len && line[len - 1] != '\n') fputc('\n', stdout);
    }
    if (lines > GRADE_MAX_LINES) printf("      (%d more lines of output)\n", lines - GRADE_MAX_LINES);
}

/* Run one check in a child whose output goes to `out`; 0 passed, 1 failed
   (the reason written to `out`). */
GRADE_FN int grade__run_one(const grade_check* c, FILE* out) {
    int status;
    pid_t pid;
    fflush(stdout);
    pid = fork();
    if (pid < 0) { fprintf(out, "      - could not start the check: %s\n", strerror(errno)); return 1; }
    if (pid == 0) {
        dup2(fileno(out), STDOUT_FILENO);
        dup2(fileno(out), STDERR_FILENO);
        grade__state.failures = 0;
        alarm((unsigned)c->seconds);
        c->run();
        if (grade__state.failures > GRADE_MAX_MESSAGES)
            printf("      - ... and %d more\n", grade__state.failures - GRADE_MAX_MESSAGES);
        fflush(stdout);
        _exit(grade__state.failures ? 1 : 0);
    }
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) { fprintf(out, "      - lost the check's process: %s\n", strerror(errno)); return 1; }
    fseek(out, 0, SEEK_END);
    if (WIFEXITED(status)) {
        if (WEXITSTATUS(status) == 0) return 0;
        if (ftell(out) == 0) fprintf(out, "      - exited with status %d (did your code call exit()?)\n", WEXITSTATUS(status));
        return 1;
    }
    if (WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        if (sig == SIGALRM)
            fprintf(out, "      - did not finish within %d s (an endless loop, or far too slow?)\n", c->seconds);
        else
            fprintf(out, "      - crashed: %s (signal %d); run the grader under a debugger or with "
                         "-fsanitize=address to find where\n", strsignal(sig), sig);
    }
    return 1;
}

GRADE_FN int grade_main(int argc, char** argv, const char* assignment, const grade_check* checks, int count) {
    const char *record = NULL, *answers = NULL, *only = NULL;
    int i, passed = 0, failed = 0, points = 0, total = 0, unit_failed = 0;
    FILE* out;
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--record") == 0 && i + 1 < argc) record = argv[++i];
        else if (strcmp(argv[i], "--answers") == 0 && i + 1 < argc) answers = argv[++i];
        else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) only = argv[++i];
        else if (strcmp(argv[i], "--submission") == 0 && i + 1 < argc) grade__state.submission = argv[++i];
        else {
            fprintf(stderr, "usage: %s (--record FILE | --answers FILE) [--only TEXT] [--submission FILE]\n", argv[0]);
            return 2;
        }
    }
    if (!record == !answers) {
        fprintf(stderr, "%s: give exactly one of --record FILE and --answers FILE\n", argv[0]);
        return 2;
    }
    if (record && !(grade__state.record = fopen(record, "w"))) {
        fprintf(stderr, "grade: cannot write %s: %s\n", record, strerror(errno));
        return 2;
    }
    if (answers && grade__load(answers) != 0) return 2;
    printf("grading %s%s\n", assignment, record ? " (recording the reference's answers)" : "");
    for (i = 0; i < count; i++) {
        const grade_check* c = &checks[i];
        int bad;
        if (only && !strstr(c->name, only)) continue;
        total += c->points;
        if (c->kind == GRADE_INTEGRATION && unit_failed) {
            printf("FAIL %-58s 0/%d\n      - skipped: make the unit checks above pass first\n", c->name, c->points);
            failed++;
            continue;
        }
        out = tmpfile();
        if (!out) { fprintf(stderr, "grade: no temporary file: %s\n", strerror(errno)); return 2; }
        bad = grade__run_one(c, out);
        printf("%s %-58s %d/%d\n", bad ? "FAIL" : "PASS", c->name, bad ? 0 : c->points, c->points);
        grade__replay(out);
        fclose(out);
        if (bad) { failed++; unit_failed |= c->kind == GRADE_UNIT; }
        else { passed++; points += c->points; }
        fflush(stdout);
    }
    if (grade__state.record) fclose(grade__state.record);
    free(grade__state.answers);
    printf("score: %d / %d points\n", points, total);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}

#endif /* S2R_GRADE_H */
