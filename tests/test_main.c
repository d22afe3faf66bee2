/* tests/test_main.c - the one test runner: one line per test, then
   "N passed, N failed"; exit status 1 on any failure.

   make test builds build/quickstart.c from the quick start in the header's
   manual first, so the documented program is compiled and run here. */
#include <stdlib.h>
/* Every allocation the library makes goes through these, so a test can
   check that stepping allocates nothing. */
static long s2r_test_allocations;
#define S2R_MALLOC(sz) (s2r_test_allocations++, malloc(sz))
#define S2R_REALLOC(p, sz) (s2r_test_allocations++, realloc(p, sz))
#define S2R_FREE(p) free(p)
#define SIM2REAL_IMPLEMENTATION
#include "../sim2real.h"
#include "../sim2real_socket.h"
#include "../sim2real_jobs.h"
#include "../sim2real_logs.h"
#include "../sim2real_analysis.h"
#include "../sim2real_reports.h"
#include "../sim2real_rl_finetune.h"
#include "../examples/s2r_cli.h"
#include "../examples/s2r_figures.h"
#include <string.h>
#include "test.h"

#define S2R_TEST_RUNNER
#include "test_robot.c"
#include "test_gap.c"
#include "test_sim.c"
#include "test_plot.c"
#include "test_learn.c"
#include "test_sysid.c"
#include "test_deploy.c"
#include "test_recipe.c"
#include "test_push.c"
#include "test_harden.c"
#include "test_null_rule.c"
#include "test_docs.c"
#include "test_socket.c"

#define main quickstart_main
#include "../build/quickstart.c"
#undef main

/* The quick start must not only run: what it prints must be what the
   README and the manual show it printing - the scripted controller
   succeeding 100 of 100 times in the nominal and in the randomized
   simulator, each line word for word, its final distances included.  Its
   standard output goes to a file for the run (POSIX dup/dup2), then each
   line "<simulator> success K of N, ..." is read back and compared with
   the same line of README.md and of sim2real.h's quick start. */
#if defined(__unix__) || defined(__APPLE__)
#include <fcntl.h>
#include <unistd.h>
#define QUICKSTART_CAPTURE 1
#endif

/* K and N from the line of `text` that starts with `name` and " success";
   0 when there is none. */
static int quickstart_line(const char* text, const char* name, int* k, int* n) {
    const char* at;
    size_t len = strlen(name);
    for (at = text; at && *at; at = strchr(at, '\n') ? strchr(at, '\n') + 1 : NULL)
        if (strncmp(at, name, len) == 0 && at[len] == ' ') {
            const char* s = strstr(at, " success ");
            return s && sscanf(s, " success %d of %d", k, n) == 2;
        }
    return 0;
}

/* The line of `text` that starts, after blanks, with `name`, blanks and
   "success ", into line (cap bytes, without its newline); 0 when none. */
static int quickstart_shown(const char* text, const char* name, char* line, size_t cap) {
    const char* at;
    size_t len = strlen(name);
    for (at = text; at && *at; at = strchr(at, '\n') ? strchr(at, '\n') + 1 : NULL) {
        const char *s = at, *end;
        while (*s == ' ') s++;
        if (strncmp(s, name, len) != 0 || s[len] != ' ') continue;
        for (end = s + len; *end == ' '; end++) {}
        if (strncmp(end, "success ", 8) != 0) continue;
        end = strchr(s, '\n') ? strchr(s, '\n') : s + strlen(s);
        if ((size_t)(end - s) >= cap) return 0;
        memcpy(line, s, (size_t)(end - s));
        line[end - s] = '\0';
        return 1;
    }
    return 0;
}

/* A whole small file into a NUL-terminated buffer (caller frees); NULL when
   it cannot be read. */
static char* quickstart_read(const char* path) {
    FILE* f = fopen(path, "rb");
    char* text = (char*)malloc(2u << 20);
    size_t n = f && text ? fread(text, 1, (2u << 20) - 1, f) : 0;
    if (f) fclose(f);
    if (text) text[n] = '\0';
    return text;
}

static int test_quickstart(void) {
#ifdef QUICKSTART_CAPTURE
    const char* path = S2R_TEST_TMP "/s2r_test_quickstart.txt";
    char text[4096];
    size_t got;
    int saved, fd, status, k = -1, n = -1;
    FILE* f;
    fflush(stdout);
    saved = dup(1);
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    CHECK(saved >= 0 && fd >= 0);
    dup2(fd, 1);
    close(fd);
    status = quickstart_main();
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    f = fopen(path, "rb");
    CHECK(f != NULL);
    got = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    remove(path);
    text[got] = '\0';
    CHECKF(status == 0, "the quick start returned %d; it printed:\n%s", status, text);
    {
        static const char* const names[2] = {"nominal sim", "randomized sim"};
        static const char* const docs[2] = {"README.md", "sim2real.h"};
        char printed[256], shown[256];
        int i, d;
        for (i = 0; i < 2; i++) {
            CHECKF(quickstart_line(text, names[i], &k, &n), "no \"%s ... success K of N\" line in:\n%s", names[i], text);
            CHECKF(n == 100 && k == 100, "%s: the scripted controller succeeded %d of %d (the README shows 100 of 100)",
                   names[i], k, n);
            CHECK(quickstart_shown(text, names[i], printed, sizeof printed));
            for (d = 0; d < 2; d++) {
                char* doc = quickstart_read(docs[d]);
                int found = doc && quickstart_shown(doc, names[i], shown, sizeof shown);
                free(doc);
                CHECKF(found, "%s shows no \"%s ... success\" line of the quick start", docs[d], names[i]);
                CHECKF(strcmp(printed, shown) == 0, "the quick start printed\n  %s\nwhere %s shows\n  %s", printed,
                       docs[d], shown);
            }
        }
    }
#else
    CHECK(quickstart_main() == 0);
#endif
    return 0;
}
static const test_case manual_tests[] = {{"manual: the quick start compiles, runs and prints what README.md and the manual show (100 of 100, both lines)", test_quickstart}};

typedef struct test_group { const test_case* cases; int count; } test_group;
#define GROUP(a) {a, (int)(sizeof a / sizeof a[0])}

int main(int argc, char** argv) {
    const test_group groups[] = {GROUP(robot_tests), GROUP(tools_tests), GROUP(gap_tests), GROUP(sim_tests), GROUP(plot_tests), GROUP(learn_tests), GROUP(learn_slow_tests), GROUP(sysid_tests), GROUP(deploy_tests), GROUP(recipe_tests), GROUP(push_tests), GROUP(harden_tests), GROUP(null_rule_tests), GROUP(docs_tests), GROUP(socket_tests), GROUP(manual_tests), GROUP(recipe_slow_tests)};
    int g, passed = 0, failed = 0;
    for (g = 0; g < (int)(sizeof groups / sizeof groups[0]); g++)
        test_run(groups[g].cases, groups[g].count, argc > 1 ? argv[1] : NULL, &passed, &failed);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
