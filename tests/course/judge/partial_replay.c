/* A grader with the flaw a partial replay uses (tests/test_course.sh
   records it with course/judge.c, which must refuse it on a seed): its one
   unit check sends a result that is the same on every seed (public: a kit's
   expected.txt holds it) and one drawn from the seed that the skeleton's
   stub gets right without any work.  A forger copies the first from
   expected.txt and lets the stub send the second.  Compiled twice: the
   reference (the work done) and, with -DSKELETON, the stub. */
#include "grade.h"
static double work(double v) {
#ifdef SKELETON
    (void)v;
    return 0;        /* TODO: the stub does nothing */
#else
    return 2 * v;
#endif
}
static double echo(double v) { return v; }   /* what even the stub returns */
static void check_one(void) {
    double x = (double)(grade_seeded(7) % 1000), got;
    got = work(1);
    grade_answer("public", &got, 1, 0);
    got = echo(x);
    grade_answer("seeded", &got, 1, 0);
}
int main(int argc, char** argv) {
    static const grade_check checks[] = {{"a check a partial replay passes", 1, 10, GRADE_UNIT, check_one}};
    return grade_main(argc, argv, "partial_replay", checks, 1);
}
