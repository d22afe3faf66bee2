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
#include "test_docs.c"

#define main quickstart_main
#include "../build/quickstart.c"
#undef main

static int test_quickstart(void) {
    CHECK(quickstart_main() == 0);
    return 0;
}
static const test_case manual_tests[] = {{"manual: the quick start compiles and runs", test_quickstart}};

typedef struct test_group { const test_case* cases; int count; } test_group;
#define GROUP(a) {a, (int)(sizeof a / sizeof a[0])}

int main(int argc, char** argv) {
    const test_group groups[] = {GROUP(robot_tests), GROUP(tools_tests), GROUP(gap_tests), GROUP(sim_tests), GROUP(plot_tests), GROUP(learn_tests), GROUP(learn_slow_tests), GROUP(sysid_tests), GROUP(deploy_tests), GROUP(recipe_tests), GROUP(push_tests), GROUP(harden_tests), GROUP(docs_tests), GROUP(manual_tests), GROUP(recipe_slow_tests)};
    int g, passed = 0, failed = 0;
    for (g = 0; g < (int)(sizeof groups / sizeof groups[0]); g++)
        test_run(groups[g].cases, groups[g].count, argc > 1 ? argv[1] : NULL, &passed, &failed);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
