/* A correct delay line written apart from the reference: `newest` counts
   pushes, and the slot is taken modulo capacity when read.  It must pass
   every check of course/1_latency.  The typical mistakes of
   tests/course/1_latency/wrong_*.c each switch on a wrong variant here
   (#ifdef MISTAKE_...), the attacks in tests/course/attacks/ put their
   code in the jitter (ATTACK_IN_JITTER). */
#include "sim2real.h"
#include <stdlib.h>
#include <string.h>

S2RDEF s2r_result s2r_delay_init(s2r_delay_line* line, int width, int capacity) {
#ifdef MISTAKE_INIT_UNTOUCHED
    /* the mistake: a failed init returns before zeroing the struct, which keeps whatever it held */
    if (width <= 0 || capacity <= 0) return S2R_ERR_INVALID_ARGUMENT;
    memset(line, 0, sizeof *line);
#else
    memset(line, 0, sizeof *line);
    if (width <= 0 || capacity <= 0) return S2R_ERR_INVALID_ARGUMENT;
#endif
#ifdef MISTAKE_MALLOC_NOT_ZEROED
    /* the mistake: malloc, never zeroed (fresh memory is often zero, by luck, but not always) */
    line->data = (double*)malloc((size_t)width * capacity * sizeof(double));
#else
    line->data = (double*)calloc((size_t)width * capacity, sizeof(double));
#endif
    if (line->data == NULL) return S2R_ERR_OUT_OF_MEMORY;
    line->width = width;
    line->capacity = capacity;
    return S2R_OK;
}

S2RDEF void s2r_delay_free(s2r_delay_line* line) {
    free(line->data);
    line->data = NULL;
    line->width = line->capacity = line->newest = 0;
}

S2RDEF void s2r_delay_reset(s2r_delay_line* line, const double* fill) {
    int s, i;
    for (s = 0; s < line->capacity; s++)
        for (i = 0; i < line->width; i++) line->data[s * line->width + i] = fill ? fill[i] : 0.0;
    line->newest = 0;
}

S2RDEF void s2r_delay_push(s2r_delay_line* line, const double* x) {
#ifdef MISTAKE_ALLOCATING_PUSH
    {   /* the mistake: a fresh buffer per push, the ring copied into it and the old one freed */
        size_t bytes = sizeof(double) * (size_t)line->width * (size_t)line->capacity;
        double* fresh = (double*)malloc(bytes);
        if (fresh) {
            memcpy(fresh, line->data, bytes);
            free(line->data);
            line->data = fresh;
        }
    }
#endif
#ifdef MISTAKE_ALIGNED_SCRATCH
    {   /* the mistake: a scratch buffer per push from aligned_alloc (a vectorised copy, say), freed at once */
        double* scratch = (double*)aligned_alloc(64, 64 * (((size_t)line->width * sizeof(double) + 63) / 64));
        if (scratch) { memcpy(scratch, x, sizeof(double) * (size_t)line->width); x = scratch; }
        line->newest = (line->newest + 1) % line->capacity;
        memcpy(&line->data[line->newest * line->width], x, sizeof(double) * line->width);
        free(scratch);
        return;
    }
#endif
#ifdef MISTAKE_ALLOCATING_PUSH_IN_PLACE
    {   /* the mistake: the ring copied out, freed and allocated again at its size (malloc hands back the same
           block: the storage does not move) */
        size_t bytes = sizeof(double) * (size_t)line->width * (size_t)line->capacity;
        double* copy = (double*)malloc(bytes);
        if (copy) {
            memcpy(copy, line->data, bytes);
            free(line->data);
            line->data = (double*)malloc(bytes);
            if (line->data) memcpy(line->data, copy, bytes);
            free(copy);
        }
    }
#endif
    line->newest = (line->newest + 1) % line->capacity;
    memcpy(&line->data[line->newest * line->width], x, sizeof(double) * line->width);
}

S2RDEF const double* s2r_delay_peek(const s2r_delay_line* line, int k) {
    int slot;
#ifdef MISTAKE_NO_CLAMP
    /* the mistake: k taken modulo the capacity instead of clamped to 0 .. capacity - 1 */
    k = ((k % line->capacity) + line->capacity) % line->capacity;
#else
    k = k < 0 ? 0 : (k >= line->capacity ? line->capacity - 1 : k);
#endif
#ifdef MISTAKE_OFF_BY_ONE
    /* the mistake: one slot too far back, the sample k + 1 pushes ago */
    slot = line->newest - k - 1;
#else
    slot = line->newest - k;
#endif
#ifndef MISTAKE_NEGATIVE_SLOT   /* the mistake: a negative slot left unwrapped */
    if (slot < 0) slot += line->capacity;
#endif
    return &line->data[slot * line->width];
}

S2RDEF void s2r_delay_read(const s2r_delay_line* line, int k, double* out) {
    const double* p = s2r_delay_peek(line, k);
    int i;
    for (i = 0; i < line->width; i++) out[i] = p[i];
}

S2RDEF void s2r_delay_jitter_init(s2r_delay_jitter* j, int base_steps, int jitter_steps, int max_steps) {
    j->base = base_steps < 0 ? 0 : base_steps;
    j->jitter = jitter_steps < 0 ? 0 : jitter_steps;
    j->max = max_steps < 0 ? 0 : max_steps;
    j->last = j->max;
}

S2RDEF void s2r_delay_jitter_reset(s2r_delay_jitter* j) { j->last = j->max; }

S2RDEF int s2r_delay_jitter_next(s2r_delay_jitter* j, s2r_rng* rng) {
    int k = j->base;
#ifdef ATTACK_IN_JITTER
    ATTACK_IN_JITTER;   /* tests/course/attacks/: what the grader must survive */
#endif
    if (j->jitter > 0) k = k - j->jitter + s2r_rng_int(rng, 2 * j->jitter + 1);
    if (k > j->max) k = j->max;
    if (k < 0) k = 0;
#ifdef MISTAKE_JITTER_GOES_BACK
    /* the mistake: no limit from the last age used, so ages jump back and forth */
#else
    if (k > j->last + 1) k = j->last + 1;   /* never older than the last sample used + 1 */
#endif
    j->last = k;
    return k;
}
