/* An attack, not a mistake: the loss's centre - the minimum, the answer -
   read out of the worker's memory.  The search finds the call's own lo,
   hi, t0, step and tol side by side on the stack (the grader's record of
   the search) and takes every double near them that lies in [lo, hi] as
   a candidate - and the centre the grader once kept there masked, unmasked
   with the key of the handle it passed as the context (the mask XOR the
   record's address).  It returns the best candidate after a loss call
   each, never searching.  The test losses are now the judge's: the worker
   forwards each call and sees only t and loss values, so no centre of a
   case drawn from the grading seed is in its memory, and this finds none.
   expect: FAIL quadratic, minimum inside: within 4 tol of it */
#include "sim2real.h"
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The top of this thread's stack ([stack] in /proc/self/maps). */
static uintptr_t stack_top(void) {
    static uintptr_t top;
    char line[512];
    FILE* f;
    if (top) return top;
    if (!(f = fopen("/proc/self/maps", "r"))) return 0;
    while (fgets(line, sizeof line, f)) {
        unsigned long a, b;
        if (strstr(line, "[stack]") && sscanf(line, "%lx-%lx", &a, &b) == 2) top = b;
    }
    fclose(f);
    return top;
}

S2RDEF double s2r_line_minimize(s2r_line_loss loss, void* context, double lo, double hi, double t0, double f0,
                                double step, double tol, double* f_min) {
    double want[5], best_t = t0, best_f = f0, cand[64];
    int n = 0, i, k;
    uintptr_t top = stack_top(), at;
    volatile char here = 0;
    want[0] = lo; want[1] = hi; want[2] = t0; want[3] = step; want[4] = tol;
    for (at = ((uintptr_t)&here + 7) & ~(uintptr_t)7; top && at + 5 * sizeof(double) <= top && n < 60; at += 8) {
        const double* d = (const double*)at;
        if (memcmp(d, want, sizeof want) != 0) continue;
        /* the record: every double in sight of it that lies in the bounds */
        for (k = -12; k <= 30 && n < 60; k++) {
            double v;
            if (at + 8 * k < (uintptr_t)&here || at + 8 * (k + 1) > top) continue;
            v = d[k];
            if (v == v && v >= lo && v <= hi && v != t0) cand[n++] = v;
        }
        /* the masked centre: at 168 bytes from the record's start (32 bytes before lo), its mask the
           handle's key XOR the record's address */
        if (context && at - 32 + 176 <= top) {
            uint64_t key, sealed, bits;
            double c;
            memcpy(&key, context, sizeof key);
            memcpy(&sealed, (const char*)(at - 32) + 168, sizeof sealed);
            bits = sealed ^ key ^ (uint64_t)(at - 32);
            memcpy(&c, &bits, sizeof c);
            if (c == c) cand[n++] = c < lo ? lo : c > hi ? hi : c;
        }
    }
    for (i = 0; i < n; i++) {   /* one loss call each */
        double f = loss(context, cand[i]);
        if (f < best_f) { best_f = f; best_t = cand[i]; }
    }
    *f_min = best_f;
    return best_t;
}
