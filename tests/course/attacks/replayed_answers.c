/* An attack on the values: the forged reply of forged_reply.c, now with
   the right numbers - the public ones.  A student's kit holds
   expected.txt, the reference's answers on the public fixed inputs; this
   file carries it whole (the test pastes the kit's expected.txt in at the
   line below), finds the run's token and the check's name in its own
   memory, and writes back, for that check, every expectation as held and
   every result expected.txt holds, then END, and leaves with _exit(0).
   Nothing of the delay line is written.  On the fixed inputs (--seed 0,
   as a kit grades) that is full marks; on the instructor's run every unit
   check draws inputs from the grading seed, so the public values are the
   wrong ones and it scores nothing.
   fails: all
   says: the reference gives */
#define _POSIX_C_SOURCE 200809L   /* dprintf */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sim2real.h"

static const char public_answers[] =
@PUBLIC_ANSWERS@
    "";

/* The start of "<32 hex>\ncheck\n" in [p, end), or NULL. */
static const char* find_preamble(const char* p, const char* end) {
    for (; p + 40 <= end; p++) {
        int i;
        for (i = 0; i < 32 && ((p[i] >= '0' && p[i] <= '9') || (p[i] >= 'a' && p[i] <= 'f')); i++) {}
        if (i == 32 && memcmp(p + 32, "\ncheck\n", 7) == 0) return p;
    }
    return NULL;
}

__attribute__((constructor)) static void replay(void) {
    FILE* maps = fopen("/proc/self/maps", "r");
    char line[512], token[33], name[256], want[40];
    const char *pre = NULL, *p;
    int index = -1;
    size_t n;
    while (maps && !pre && fgets(line, sizeof line, maps)) {
        unsigned long lo, hi;
        char perms[8];
        if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) != 3 || perms[0] != 'r' || perms[1] != 'w') continue;
        pre = find_preamble((const char*)lo, (const char*)hi);
    }
    if (maps) fclose(maps);
    if (!pre) return;
    memcpy(token, pre, 32);
    token[32] = 0;
    p = pre + 39;
    for (n = 0; n < sizeof name - 1 && p[n] && p[n] != '\n'; n++) name[n] = p[n];
    name[n] = 0;
    /* the check's index in expected.txt: "check I POINTS SECONDS KIND HIDDEN NEEDS NAME" */
    for (p = public_answers; *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p)) {
        int i, used = 0;
        if (sscanf(p, "check %d %*d %*d %*s %*d %*s %n", &i, &used) == 1 && used &&
            strncmp(p + used, name, strlen(name)) == 0 && p[used + strlen(name)] == '\n') { index = i; break; }
    }
    if (index < 0) return;
    snprintf(want, sizeof want, "%d ", index);
    for (p = public_answers; *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p)) {
        const char* e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        char* copy;
        if (len < 3 || p[1] != ' ' || strncmp(p + 2, want, strlen(want)) != 0) continue;
        copy = malloc(len + 1);
        memcpy(copy, p, len);
        copy[len] = 0;
        if (p[0] == 'x') {   /* every expectation, held */
            char* q = copy + 2 + strlen(want);
            unsigned long id;
            int used;
            while (sscanf(q, "%lu%n", &id, &used) == 1) { dprintf(3, "%s X %lu 1\n", token, id); q += used; }
        } else if (p[0] == 'a') dprintf(3, "%s A %s\n", token, copy + 2 + strlen(want));   /* KEY TOL N v.. */
        free(copy);
    }
    dprintf(3, "%s END\n", token);
    _exit(0);
}

S2RDEF s2r_result s2r_delay_init(s2r_delay_line* line, int width, int capacity) { (void)line; (void)width; (void)capacity; return S2R_OK; }
S2RDEF void s2r_delay_free(s2r_delay_line* line) { (void)line; }
S2RDEF void s2r_delay_reset(s2r_delay_line* line, const double* fill) { (void)line; (void)fill; }
S2RDEF void s2r_delay_push(s2r_delay_line* line, const double* x) { (void)line; (void)x; }
S2RDEF const double* s2r_delay_peek(const s2r_delay_line* line, int k) { (void)line; (void)k; return NULL; }
S2RDEF void s2r_delay_read(const s2r_delay_line* line, int k, double* out) { (void)line; (void)k; (void)out; }
S2RDEF void s2r_delay_jitter_init(s2r_delay_jitter* j, int b, int jit, int m) { (void)j; (void)b; (void)jit; (void)m; }
S2RDEF void s2r_delay_jitter_reset(s2r_delay_jitter* j) { (void)j; }
S2RDEF int s2r_delay_jitter_next(s2r_delay_jitter* j, s2r_rng* rng) { (void)j; (void)rng; return 0; }
