/* An attack on a verdict the worker would decide: the worker reads this
   run's token before any constructor runs, but keeps it in memory the
   student's code shares.  A constructor searches its own process's memory
   (/proc/self/maps) for the preamble - 32 hex digits, then "check", then
   the check's name - writes "TOKEN END" on the reply (fd 3), a complete,
   well-formed reply that reports no failure, and leaves with _exit(0).
   Nothing of the delay line is written.  A check whose verdict rests on
   the worker's word (no result for the judge to compare: "the ring wraps"
   once sent nothing) passes on that reply; every check sends the judge
   raw results now, so the forgery scores nothing.
   fails: all
   says: no result "wrap_50_pushes_capacity_7" came back */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "sim2real.h"

/* The start of "<32 hex>\ncheck\n" in [p, end), or NULL. */
static const char* find_preamble(const char* p, const char* end) {
    for (; p + 40 <= end; p++) {
        int i;
        for (i = 0; i < 32 && ((p[i] >= '0' && p[i] <= '9') || (p[i] >= 'a' && p[i] <= 'f')); i++) {}
        if (i == 32 && memcmp(p + 32, "\ncheck\n", 7) == 0) return p;
    }
    return NULL;
}

__attribute__((constructor)) static void forge(void) {
    FILE* maps = fopen("/proc/self/maps", "r");
    char line[512], end[64];
    const char* token = NULL;
    while (maps && !token && fgets(line, sizeof line, maps)) {
        unsigned long lo, hi;
        char perms[8];
        if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) != 3 || perms[0] != 'r' || perms[1] != 'w') continue;
        token = find_preamble((const char*)lo, (const char*)hi);
    }
    if (maps) fclose(maps);
    if (!token) return;
    memcpy(end, token, 32);
    memcpy(end + 32, " END\n", 6);
    if (write(3, end, strlen(end)) < 0) {}
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
