/* course/1_latency/grade.c - the grader of assignment 1 (the delay line).

   Unit checks hold the delay line to its contract (sim2real.h, "Latency:
   delay lines"): sizes, zero fill, the age of what a read returns, the
   clamping at both ends, reset, free, and the jitter's ages and the one
   random draw it makes.  Each check sends what the delay line returned
   (reads, return codes, sizes, ages) to the judge, which compares it with
   what the reference returned; the messages here say what is wrong.  The integration check runs the
   scripted reach controller in the simulator with 0, 40 and 80 ms of
   command and sensing delay (the gap example's latency effect) and
   compares success and final distance with the reference's, which are
   bit-identical when the delay line meets its contract.

   On the instructor's run every unit check also draws inputs from the
   grading seed (grade_seed(): sizes, pushed samples, fills, k's, the
   jitter's base and generator), so its answers there are not the public
   expected.txt; on a student's own run those inputs are the fixed ones.

   Run through course/grade.sh (it compiles this file with your
   latency.c); it prints one line per check and "N passed, N failed". */
#include "grade.h"
#include "sim2real.h"

/* Push the samples 1, 2, ..., n (width w: sample t is t, t + 0.5, ...). */
static void push_counting(s2r_delay_line* line, int w, int n) {
    double x[8];
    int t, i;
    for (t = 1; t <= n; t++) {
        for (i = 0; i < w; i++) x[i] = t + 0.5 * i;
        s2r_delay_push(line, x);
    }
}

/* On a seeded run: a line of a width and capacity drawn from rng, pushed
   `pushes` samples drawn from it, every read (k = -2 .. capacity + 2)
   put under what (the history is checked by the judge against the
   reference's reads on the same inputs). */
static void seeded_line(s2r_rng* rng, int pushes_max, int reset, const char* what) {
    s2r_delay_line line;
    double x[8], out[8], fill[8];
    int w = 1 + s2r_rng_int(rng, 8), cap = 1 + s2r_rng_int(rng, 24), n = s2r_rng_int(rng, pushes_max + 1), t, k, i;
    s2r_result rc = s2r_delay_init(&line, w, cap);
    grade_put(rc, "%s: init(width %d, capacity %d): the result code", what, w, cap);
    if (rc != S2R_OK) return;
    grade_put(line.width, "%s: init(%d, %d): width", what, w, cap);
    grade_put(line.capacity, "%s: init(%d, %d): capacity", what, w, cap);
    for (t = 0; t < n; t++) {
        for (i = 0; i < w; i++) x[i] = s2r_rng_range(rng, -10, 10);
        s2r_delay_push(&line, x);
    }
    if (reset) {
        for (i = 0; i < w; i++) fill[i] = s2r_rng_range(rng, -5, 5);
        s2r_delay_reset(&line, reset == 1 ? fill : NULL);
        for (i = 0; i < w && n > 0; i++) x[i] = s2r_rng_range(rng, -10, 10);
        if (n > 0) s2r_delay_push(&line, x);
    }
    for (k = -2; k <= cap + 2; k++) {
        const double* p = s2r_delay_peek(&line, k);
        for (i = 0; i < w; i++) out[i] = NAN;
        s2r_delay_read(&line, k, out);
        for (i = 0; i < w; i++)
            grade_put(out[i], "%s: width %d, capacity %d, %d pushes%s: read(%d), value %d", what, w, cap, n,
                      reset == 1 ? ", reset(fill), one push" : reset ? ", reset(NULL), one push" : "", k, i + 1);
        grade_put(p ? p[w - 1] : NAN, "%s: width %d, capacity %d, %d pushes: peek(%d)[%d] (NaN: NULL)", what, w, cap, n, k, w - 1);
    }
    s2r_delay_free(&line);
}

static void check_init(void) {
    s2r_delay_line line;
    double out[3] = {7, 7, 7};
    int k;
    s2r_result rc;
    memset(&line, 0xA5, sizeof line);   /* what a stack struct may hold: a failed init must still zero it */
    rc = s2r_delay_init(&line, 0, 4);
    grade_put(rc, "init(width 0): the result code (S2R_ERR_INVALID_ARGUMENT is %d)", (int)S2R_ERR_INVALID_ARGUMENT);
    GRADE_EXPECT(rc == S2R_ERR_INVALID_ARGUMENT, "init(width 0) must be S2R_ERR_INVALID_ARGUMENT");
    grade_put(line.data != NULL, "after a failed init: data is not NULL (1) or NULL (0)");
    grade_put(line.width, "after a failed init: width");
    grade_put(line.capacity, "after a failed init: capacity");
    GRADE_EXPECT(line.data == NULL && line.width == 0, "after a failed init the line must be zeroed and hold nothing");
    rc = s2r_delay_init(&line, 3, 0);
    grade_put(rc, "init(capacity 0): the result code");
    GRADE_EXPECT(rc == S2R_ERR_INVALID_ARGUMENT, "init(capacity 0) must be S2R_ERR_INVALID_ARGUMENT");
    rc = s2r_delay_init(&line, -2, 5);
    grade_put(rc, "init(width -2): the result code");
    GRADE_EXPECT(rc == S2R_ERR_INVALID_ARGUMENT, "init(width -2) must be S2R_ERR_INVALID_ARGUMENT");
    rc = s2r_delay_init(&line, 3, 5);
    grade_put(rc, "init(width 3, capacity 5): the result code (S2R_OK is %d)", (int)S2R_OK);
    if (rc != S2R_OK) { grade_fail("init(width 3, capacity 5) did not return S2R_OK"); grade_put_send("init", 0); return; }
    grade_put(line.width, "init(3, 5): width");
    grade_put(line.capacity, "init(3, 5): capacity");
    grade_put(line.data != NULL, "init(3, 5): data is not NULL (1)");
    GRADE_EXPECT(line.width == 3 && line.capacity == 5 && line.data != NULL, "init(3, 5): width %d, capacity %d, data %p",
                 line.width, line.capacity, (void*)line.data);
    for (k = 0; k < 5; k++) {
        /* where peek points first: a slot outside the ring is an index out of range, not a fill */
        const double* at = s2r_delay_peek(&line, k);
        int inside = !line.data || (at >= line.data && at + 3 <= line.data + 3 * 5);
        out[0] = out[1] = out[2] = 7;
        if (inside) s2r_delay_read(&line, k, out);
        else {
            out[0] = out[1] = out[2] = NAN;
            grade_fail("a new line: peek(%d) points outside the buffer (at sample %ld of 0 .. 4): the slot index is out "
                       "of range - in C, (newest - k) %% capacity is negative when k > newest; add capacity before the %%",
                       k, (long)((at - line.data) / 3));
        }
        grade_put(out[0], "a new line: read(%d), value 1", k);
        grade_put(out[1], "a new line: read(%d), value 2", k);
        grade_put(out[2], "a new line: read(%d), value 3", k);
        GRADE_EXPECT(!inside || (out[0] == 0 && out[1] == 0 && out[2] == 0), "a new line must read zeros (read(%d) gave %g %g %g)",
                     k, out[0], out[1], out[2]);
    }
    s2r_delay_free(&line);
    grade_put(line.data != NULL, "after free: data is not NULL (1) or NULL (0)");
    GRADE_EXPECT(line.data == NULL, "free must leave data NULL");
    s2r_delay_free(&line);   /* twice: must be safe */
    if (grade_seed()) { s2r_rng rng = s2r_rng_make(grade_seed(), 0); seeded_line(&rng, 0, 0, "a new line (seeded)"); }
    grade_put_send("init", 0);
}

static void check_age(void) {
    s2r_delay_line line;
    double out[2];
    int k;
    if (s2r_delay_init(&line, 2, 6) != S2R_OK) { grade_fail("init(2, 6) failed"); return; }
    push_counting(&line, 2, 4);   /* pushed 1 2 3 4 */
    for (k = 0; k < 4; k++) {
        s2r_delay_read(&line, k, out);
        grade_put(out[0], "after pushing 1, 2, 3, 4 (width 2, capacity 6): read(%d), value 1", k);
        grade_put(out[1], "after pushing 1, 2, 3, 4 (width 2, capacity 6): read(%d), value 2", k);
        GRADE_EXPECT(out[0] == 4 - k && out[1] == 4.5 - k, "after pushing 1, 2, 3, 4: read(%d) gave %g, expected %d "
                     "(k = 0 is the newest push; k pushes ago)", k, out[0], 4 - k);
    }
    s2r_delay_read(&line, 4, out);
    grade_put(out[0], "after 4 pushes into a zeroed line of capacity 6: read(4)");
    GRADE_EXPECT(out[0] == 0, "after 4 pushes into a zeroed line of capacity 6, read(4) must be 0 (gave %g)", out[0]);
    s2r_delay_free(&line);
    if (grade_seed()) {
        s2r_rng rng = s2r_rng_make(grade_seed(), 0);
        seeded_line(&rng, 12, 0, "seeded pushes");
        seeded_line(&rng, 12, 0, "seeded pushes");
    }
    grade_put_send("age", 0);
}

/* Many pushes, wrapping the ring several times, against the whole history. */
/* GRADE_COUNTS_ALLOCATIONS: course/grade.sh links this grader with the C
   library's allocators wrapped (ld's --wrap): every call of the student's
   file, the grader's and the library's to malloc, calloc, realloc,
   reallocarray, aligned_alloc, posix_memalign, memalign, valloc, strdup,
   strndup or mmap comes here first and is counted.  Linked without it
   (the weak __real_ functions absent) nothing counts. */
#define GRADE__WRAPPED(ret, name, params, args) \
    ret __real_##name params __attribute__((weak)); \
    ret __wrap_##name params; \
    ret __wrap_##name params { allocations++; return __real_##name args; }
static long allocations;   /* allocator calls so far */
GRADE__WRAPPED(void*, malloc, (size_t n), (n))
GRADE__WRAPPED(void*, calloc, (size_t n, size_t size), (n, size))
GRADE__WRAPPED(void*, realloc, (void* p, size_t n), (p, n))
GRADE__WRAPPED(void*, reallocarray, (void* p, size_t n, size_t size), (p, n, size))
GRADE__WRAPPED(void*, aligned_alloc, (size_t align, size_t n), (align, n))
GRADE__WRAPPED(int, posix_memalign, (void** p, size_t align, size_t n), (p, align, n))
GRADE__WRAPPED(void*, memalign, (size_t align, size_t n), (align, n))
GRADE__WRAPPED(void*, valloc, (size_t n), (n))
GRADE__WRAPPED(char*, strdup, (const char* s), (s))
GRADE__WRAPPED(char*, strndup, (const char* s, size_t n), (s, n))
GRADE__WRAPPED(void*, mmap, (void* at, size_t n, int prot, int flags, int fd, long offset), (at, n, prot, flags, fd, offset))

static void check_wrap(void) {
    enum { CAP = 7, PUSHES = 50 };
    s2r_delay_line line;
    double history[PUSHES + 1], out[1], x[1];
    const double* storage;
    s2r_rng rng = s2r_rng_make(grade_seeded(11), 0);
    int t, k, bad = 0, moved = 0;
    long counted, allocated;
    if (s2r_delay_init(&line, 1, CAP) != S2R_OK) { grade_fail("init(1, %d) failed", CAP); return; }
    storage = line.data;
    counted = allocations;
    for (t = 0; t < PUSHES; t++) {
        x[0] = history[t] = s2r_rng_uniform(&rng);
        s2r_delay_push(&line, x);
        if (line.data != storage && moved++ == 0)   /* a fresh buffer per push: it allocates */
            grade_fail("push %d moved the line's storage (line->data changed): push never allocates - the ring is "
                       "allocated once, by init, and push writes into it", t + 1);
        for (k = 0; k <= t && k < CAP; k++) {
            s2r_delay_read(&line, k, out);
            grade_put(out[0], "after push %d into capacity %d: read(%d)", t + 1, CAP, k);
            if (out[0] != history[t - k] && bad++ < 3)
                grade_fail("after push %d, read(%d) gave %g, the push %d ago was %g", t + 1, k, out[0], k, history[t - k]);
        }
    }
    allocated = allocations - counted;
    s2r_delay_free(&line);
    grade_put_send("wrap_50_pushes_capacity_7", 0);
    grade_put(moved, "pushes that moved the line's storage (none: push never allocates)");
    grade_put_send("wrap_storage_moved", 0);
    GRADE_EXPECT(allocated == 0, "50 pushes and their reads called an allocator (malloc, mmap, strdup, ...) %ld times: push and read "
                 "never allocate - the ring is allocated once, by init, and push writes into it", allocated);
    grade_put((double)allocated, "allocations in 50 pushes and their reads (none)");
    grade_put_send("wrap_allocations", 0);
}

static void check_clamp(void) {
    s2r_delay_line line;
    double out[1];
    if (s2r_delay_init(&line, 1, 4) != S2R_OK) { grade_fail("init(1, 4) failed"); return; }
    push_counting(&line, 1, 9);   /* keeps 6 7 8 9 */
    {
        static const int ks[6] = {-3, -1, 0, 3, 4, 100};
        int i;
        for (i = 0; i < 6; i++) {
            const double* p = s2r_delay_peek(&line, ks[i]);
            s2r_delay_read(&line, ks[i], out);
            grade_put(out[0], "pushed 1 .. 9 into capacity 4: read(%d)", ks[i]);
            grade_put(p ? p[0] : NAN, "pushed 1 .. 9 into capacity 4: peek(%d)[0] (NaN: it gave NULL)", ks[i]);
        }
        grade_put_send("clamp", 0);
    }
    s2r_delay_read(&line, -3, out);
    GRADE_EXPECT(out[0] == 9, "read(-3) must read as read(0), the newest (9); gave %g", out[0]);
    s2r_delay_read(&line, 3, out);
    GRADE_EXPECT(out[0] == 6, "read(3) on capacity 4 must be the oldest kept (6); gave %g", out[0]);
    s2r_delay_read(&line, 100, out);
    GRADE_EXPECT(out[0] == 6, "read(100) on capacity 4 must read as read(3), the oldest kept (6); gave %g", out[0]);
    GRADE_EXPECT(s2r_delay_peek(&line, 1) && s2r_delay_peek(&line, 1)[0] == 8, "peek(1) must point at the sample 1 push ago (8)");
    GRADE_EXPECT(s2r_delay_peek(&line, 100) && s2r_delay_peek(&line, 100)[0] == 6, "peek(100) must clamp like read");
    s2r_delay_free(&line);
    if (grade_seed()) {
        s2r_rng rng = s2r_rng_make(grade_seed(), 0);
        seeded_line(&rng, 60, 0, "seeded, k beyond both ends");
        grade_put_send("clamp_seeded", 0);
    }
}

static void check_reset(void) {
    s2r_delay_line line;
    double fill[2] = {0.25, -1.5}, out[2];
    int k;
    if (s2r_delay_init(&line, 2, 3) != S2R_OK) { grade_fail("init(2, 3) failed"); return; }
    push_counting(&line, 2, 5);
    s2r_delay_reset(&line, fill);
    for (k = 0; k < 3; k++) {
        s2r_delay_read(&line, k, out);
        grade_put(out[0], "after reset(fill 0.25 -1.5): read(%d), value 1", k);
        grade_put(out[1], "after reset(fill 0.25 -1.5): read(%d), value 2", k);
        GRADE_EXPECT(out[0] == 0.25 && out[1] == -1.5, "after reset(fill) read(%d) gave %g %g, expected the fill 0.25 -1.5",
                     k, out[0], out[1]);
    }
    push_counting(&line, 2, 1);
    s2r_delay_read(&line, 0, out);
    grade_put(out[0], "after reset and one push (1): read(0)");
    GRADE_EXPECT(out[0] == 1, "after reset and one push, read(0) must be that push (1), gave %g", out[0]);
    s2r_delay_read(&line, 1, out);
    grade_put(out[0], "after reset and one push (1): read(1)");
    GRADE_EXPECT(out[0] == 0.25, "after reset and one push, read(1) must be the fill (0.25), gave %g", out[0]);
    s2r_delay_reset(&line, NULL);
    s2r_delay_read(&line, 2, out);
    grade_put(out[0], "after reset(NULL): read(2), value 1");
    grade_put(out[1], "after reset(NULL): read(2), value 2");
    GRADE_EXPECT(out[0] == 0 && out[1] == 0, "reset(NULL) must fill zeros, read(2) gave %g %g", out[0], out[1]);
    s2r_delay_free(&line);
    if (grade_seed()) {
        s2r_rng rng = s2r_rng_make(grade_seed(), 0);
        seeded_line(&rng, 30, 1, "seeded reset");
        seeded_line(&rng, 30, 2, "seeded reset");
    }
    grade_put_send("reset", 0);
}

/* The jitter: ages without jitter, the clamps, and the draws. */
static void check_jitter_rules(void) {
    s2r_delay_jitter j;
    s2r_rng rng = s2r_rng_make(5, 0), before;
    int t, k;
    s2r_delay_jitter_init(&j, 3, 0, 10);
    before = rng;
    for (t = 0; t < 5; t++) {
        k = s2r_delay_jitter_next(&j, &rng);
        grade_put(k, "base 3, no jitter, max 10: the age at call %d", t + 1);
        GRADE_EXPECT(k == 3, "base 3, no jitter: age %d at call %d, expected 3", k, t + 1);
    }
    GRADE_EXPECT(memcmp(&rng, &before, sizeof rng) == 0, "with jitter 0 the generator must not be used");
    {
        s2r_rng after = rng;
        uint64_t x = s2r_rng_u64(&after);
        grade_put((double)(x >> 32), "with jitter 0: the generator's next number after the calls (high half; it must not be used)");
        grade_put((double)(x & 0xffffffffu), "with jitter 0: the generator's next number after the calls (low half)");
    }
    s2r_delay_jitter_init(&j, 12, 0, 10);
    k = s2r_delay_jitter_next(&j, &rng);
    grade_put(k, "base 12 with max 10: the age");
    GRADE_EXPECT(k == 10, "base 12 with max 10: age %d, expected 10 (clamped to max)", k);
    s2r_delay_jitter_init(&j, -4, -1, 10);
    grade_put(j.base, "init(base -4, jitter -1): base");
    grade_put(j.jitter, "init(base -4, jitter -1): jitter");
    GRADE_EXPECT(j.base == 0 && j.jitter == 0, "negative base and jitter must be taken as 0 (got %d, %d)", j.base, j.jitter);
    /* never older than the previous read plus one: a long delay after a short one grows one step per call */
    s2r_delay_jitter_init(&j, 0, 0, 10);
    s2r_delay_jitter_next(&j, &rng);
    j.base = 6;
    for (t = 1; t <= 6; t++) {
        k = s2r_delay_jitter_next(&j, &rng);
        grade_put(k, "after age 0, base 6: the age at call %d (at most the previous age + 1)", t);
        GRADE_EXPECT(k == t, "after age 0, base 6: call %d gave age %d, expected %d (at most the previous age + 1)", t, k, t);
    }
    s2r_delay_jitter_reset(&j);
    grade_put(j.last, "after jitter reset: last (max is %d)", j.max);
    GRADE_EXPECT(j.last == j.max, "reset must forget the previous age (last = max), got last %d", j.last);
    if (grade_seed()) {   /* bases, maxima and base jumps drawn from the seed, no jitter */
        s2r_rng draw = s2r_rng_make(grade_seed(), 0);
        int b = s2r_rng_int(&draw, 16), m = 1 + s2r_rng_int(&draw, 14);
        s2r_delay_jitter_init(&j, b, 0, m);
        for (t = 0; t < 24; t++) {
            if (t % 6 == 5) j.base = s2r_rng_int(&draw, 20);
            k = s2r_delay_jitter_next(&j, &rng);
            grade_put(k, "seeded: base %d, no jitter, max %d (the base set anew every 6 calls): the age at call %d", b, m, t + 1);
        }
    }
    grade_put_send("jitter_rules", 0);
}

static void check_jitter_draws(void) {
    s2r_delay_jitter j;
    s2r_rng rng = s2r_rng_make(grade_seeded(2024), 3);
    double ages[40], mean = 0;
    int t, lo = 100, hi = -100;
    s2r_delay_jitter_init(&j, 5, 2, 9);
    for (t = 0; t < 40; t++) ages[t] = s2r_delay_jitter_next(&j, &rng);
    grade_answer("jitter_ages_base5_jitter2", ages, 40, 0);
    s2r_delay_jitter_init(&j, 4, 3, 20);
    for (t = 0; t < 20000; t++) {
        int k = s2r_delay_jitter_next(&j, &rng);
        mean += k;
        if (k < lo) lo = k;
        if (k > hi) hi = k;
    }
    mean /= 20000;
    GRADE_EXPECT(lo == 1 && hi == 7, "base 4 +- 3: ages ranged %d..%d, expected 1..7", lo, hi);
    grade_put(lo, "base 4 +- 3, 20000 calls: the lowest age");
    grade_put(hi, "base 4 +- 3, 20000 calls: the highest age");
    grade_put_send("jitter_range_base4_jitter3", 0);
    /* the "never older" rule pulls the mean below base: compare with the reference's */
    grade_answer("jitter_mean_age_base4_jitter3", &mean, 1, 0.01);
    GRADE_EXPECT(mean < 4.0, "base 4 +- 3: mean age %.3f; the rule 'never older than the previous age + 1' "
                 "should pull it below 4", mean);
}

/* The reach expert with command and sensing delays: the gap example's
   latency effect, on this delay line.  It needs no other exercise: its
   latencies are fixed, which stand_in_randomization.c (not the reference)
   draws, so the program it runs in holds no other exercise's reference. */
static void check_latency_effect(void) {
    static const double latency_ms[3] = {0, 40, 80};
    double got[6];
    int i;
    for (i = 0; i < 3; i++) {
        s2r_task_config tc = s2r_task_config_default(S2R_TASK_REACH);
        s2r_sim_config sc = s2r_task_sim_config(S2R_TASK_REACH, S2R_ROBOT_UR5E);
        s2r_sim sim;
        s2r_task task;
        s2r_expert expert;
        s2r_expert_config ec = s2r_expert_config_default();
        s2r_controller controller;
        s2r_eval_result r;
        s2r_result res;
        sc.randomization = s2r_randomization_none();
        sc.randomization.p[S2R_PARAM_ACTION_LATENCY].enabled = 1;
        sc.randomization.p[S2R_PARAM_ACTION_LATENCY].dist = s2r_dist_fixed(latency_ms[i] / 1000);
        sc.randomization.p[S2R_PARAM_OBS_LATENCY].enabled = 1;
        sc.randomization.p[S2R_PARAM_OBS_LATENCY].dist = s2r_dist_fixed(latency_ms[i] / 2000);
        sc.randomization.p[S2R_PARAM_LATENCY_JITTER].enabled = 1;
        sc.randomization.p[S2R_PARAM_LATENCY_JITTER].dist = s2r_dist_fixed(0.004);
        if (s2r_sim_init(&sim, &sc) != S2R_OK) { grade_fail("the simulator did not start: %s", sim.error); return; }
        if (s2r_task_init(&task, &tc, s2r_sim_backend(&sim)) != S2R_OK) {
            grade_fail("the task did not start: %s", task.error ? task.error : "?");
            s2r_sim_free(&sim);
            return;
        }
        if (s2r_expert_init(&expert, &ec, &tc, s2r_sim_backend(&sim)->info) != S2R_OK) {
            grade_fail("the expert did not start: %s", expert.error);
            s2r_task_free(&task);
            s2r_sim_free(&sim);
            return;
        }
        controller = s2r_expert_controller(&expert);
        /* the episodes (their targets and starts) from the grading seed on the instructor's run: the
           results there are not expected.txt's, so a reply forged from it carries the wrong numbers */
        res = s2r_evaluate(&controller, &task, 24, grade_seeded(7), &r, NULL);
        GRADE_EXPECT(res == S2R_OK, "evaluation at %g ms failed: %s", latency_ms[i], s2r_result_string(res));
        got[2 * i] = r.success_rate;
        got[2 * i + 1] = r.mean_distance;
        printf("      %2.0f ms command delay: success %4.1f %%, final distance %.4f m\n", latency_ms[i], 100 * r.success_rate,
               r.mean_distance);
        s2r_expert_free(&expert);
        s2r_task_free(&task);
        s2r_sim_free(&sim);
    }
    grade_answer("expert_success_distance_0_40_80ms", got, 6, 1e-9);
    GRADE_EXPECT(got[5] > got[1], "80 ms of delay should leave the arm further from the target than none "
                 "(%.4f vs %.4f m): is the delay applied at all?", got[5], got[1]);
}

int main(int argc, char** argv) {
    static const grade_check checks[] = {
        {"init: sizes, zero fill, free", 1, 10, GRADE_UNIT, check_init},
        {"read(k) returns the sample pushed k pushes ago", 2, 10, GRADE_UNIT, check_age},
        {"the ring wraps: 50 pushes into capacity 7", 2, 10, GRADE_UNIT, check_wrap},
        {"read and peek clamp k to 0 .. capacity - 1", 1, 10, GRADE_UNIT, check_clamp},
        {"reset fills the history (fill or zeros)", 1, 10, GRADE_UNIT, check_reset},
        {"jitter: base, clamps, never older than last + 1", 2, 10, GRADE_UNIT, check_jitter_rules},
        {"jitter: the draws (one s2r_rng_int per call)", 1, 10, GRADE_UNIT, check_jitter_draws},
        {"integration: the expert at 0, 40, 80 ms of delay", 4, 60, GRADE_INTEGRATION, check_latency_effect},
    };
    return grade_main(argc, argv, "1_latency (the delay line)", checks, (int)(sizeof checks / sizeof *checks));
}
