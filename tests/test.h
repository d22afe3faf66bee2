/* tests/test.h - the tiny harness every test file uses.

   A test is `static int test_name(void)` returning 0 on pass.  CHECK and
   CHECKF return 1 from the test with a line saying what failed; the runner
   (tests/test_main.c) prints one line per test and a final
   "N passed, N failed" and exits non-zero on any failure. */
#ifndef S2R_TEST_H
#define S2R_TEST_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>

typedef struct test_case { const char* name; int (*fn)(void); } test_case;

#define CHECK(cond) do { if (!(cond)) { \
    printf("    check failed: %s (%s:%d)\n", #cond, __FILE__, __LINE__); \
    return 1; } } while (0)

#define CHECKF(cond, ...) do { if (!(cond)) { \
    printf("    check failed: %s (%s:%d): ", #cond, __FILE__, __LINE__); \
    printf(__VA_ARGS__); printf("\n"); return 1; } } while (0)

/* Run the cases whose name contains `only` (NULL: all), one line each;
   counts add to *passed and *failed. */
/* Run the cases whose name holds `only` (NULL: all).  With S2R_TEST_TIMES
   set in the environment, each line ends with the case's wall seconds and
   processor seconds (all threads; the fair measure on a shared machine), so
   the slow ones can be found. */
static void test_run(const test_case* cases, int count, const char* only, int* passed, int* failed) {
    int i, times = getenv("S2R_TEST_TIMES") != NULL;
    for (i = 0; i < count; i++) {
        int bad;
        double start = s2r_seconds();
        clock_t cpu = clock();
        if (only && !strstr(cases[i].name, only)) continue;
        bad = cases[i].fn();
        if (times)
            printf("%s %s (%.1f s, %.1f s CPU)\n", bad ? "FAIL" : "ok  ", cases[i].name, s2r_seconds() - start,
                   (double)(clock() - cpu) / CLOCKS_PER_SEC);
        else printf("%s %s\n", bad ? "FAIL" : "ok  ", cases[i].name);
        fflush(stdout);
        if (bad) (*failed)++; else (*passed)++;
    }
}

#endif
