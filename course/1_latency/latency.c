/* course/1_latency/latency.c - assignment 1: the delay line.

   Write the nine functions below; their contracts are the comments above
   their declarations in sim2real.h (search "Latency: delay lines").  The
   simulator runs its command, sensing and camera delays through them, so
   once they pass the grader, every example runs on your delay line.

   Grade:   sh course/grade.sh 1_latency course/1_latency/latency.c
   Use it:  compile the library with -DS2R_EXERCISE_LATENCY and link this
            file (course/1_latency/README.md shows the line). */
#include "sim2real.h"
#include <stdlib.h>
#include <string.h>

/* >> stub begin */
/* TODO(course 1_latency): replace every body below with yours.  Until
   then a delay line cannot be made (s2r_delay_init fails), so a simulator
   built on this copy of the library refuses to start with that error. */
S2RDEF s2r_result s2r_delay_init(s2r_delay_line* line, int width, int capacity) {
    line->data = NULL;
    line->width = line->capacity = line->newest = 0;
    (void)width; (void)capacity;
    return S2R_ERR_UNSUPPORTED;
}

S2RDEF void s2r_delay_free(s2r_delay_line* line) {
    (void)line;
}

S2RDEF void s2r_delay_reset(s2r_delay_line* line, const double* fill) {
    (void)line; (void)fill;
}

S2RDEF void s2r_delay_push(s2r_delay_line* line, const double* x) {
    (void)line; (void)x;
}

S2RDEF const double* s2r_delay_peek(const s2r_delay_line* line, int k) {
    (void)k;
    return line->data;   /* wrong: always the first slot */
}

S2RDEF void s2r_delay_read(const s2r_delay_line* line, int k, double* out) {
    (void)line; (void)k; (void)out;
}

S2RDEF void s2r_delay_jitter_init(s2r_delay_jitter* j, int base_steps, int jitter_steps, int max_steps) {
    j->base = base_steps; j->jitter = jitter_steps; j->max = max_steps; j->last = 0;
}

S2RDEF void s2r_delay_jitter_reset(s2r_delay_jitter* j) {
    (void)j;
}

S2RDEF int s2r_delay_jitter_next(s2r_delay_jitter* j, s2r_rng* rng) {
    (void)j; (void)rng;
    return 0;   /* wrong: no delay at all */
}
/* >> stub end */
