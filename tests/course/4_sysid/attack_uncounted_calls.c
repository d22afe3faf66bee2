/* An attack on the loss calls' count: a brute-force "search" (a 150-point
   grid, then golden section on the best cell, about 165 calls a search)
   whose calls go around the grader's counting loss function - each sent
   to the judge as its own "TOKEN Q f ID t" line on fd 3 (the token found
   in the worker's memory, the loss's number read from the opaque
   context), the answer read back from the judge.  The worker's count is
   then 0; the judge's, which it holds to the limit the reference's
   recording kept, is not.
   expect: FAIL loss calls: at most 100 per search at tol 1e-4 */
#include "sim2real.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
static char tok[33];
static int ishex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); }
static void find_token(void) {
    FILE* m = fopen("/proc/self/maps", "r");
    char line[512];
    if (!m) return;
    while (!tok[0] && fgets(line, sizeof line, m)) {
        unsigned long lo, hi; char perm[8];
        if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perm) != 3 || perm[0] != 'r' || perm[1] != 'w') continue;
        for (char* p = (char*)lo; p + 40 < (char*)hi; p++) {
            int k;
            if (p[32] != '\n' || memcmp(p + 33, "check\n", 6) != 0) continue;
            for (k = 0; k < 32 && ishex(p[k]); k++) {}
            if (k < 32) continue;
            memcpy(tok, p, 32); tok[32] = 0; break;
        }
    }
    fclose(m);
}
static long direct_calls;
static double direct(void* context, double t) {
    char q[200], a[128]; size_t n = 0; ssize_t got; int len;
    fflush(NULL);   /* the worker's reply stream first, whole lines */
    len = snprintf(q, sizeof q, "%s Q f %d %.17g\n", tok, *(int*)context, t);
    if (write(3, q, (size_t)len) != len) return NAN;
    while (n < sizeof a - 1) { got = read(5, a + n, sizeof a - 1 - n); if (got <= 0) return NAN; n += (size_t)got; if (a[n - 1] == '\n') break; }
    a[n] = 0; direct_calls++;
    return strtod(a, NULL);
}
S2RDEF double s2r_line_minimize(s2r_line_loss loss, void* context, double lo, double hi, double t0, double f0,
                                double step, double tol, double* f_min) {
    const int N = 150; const double g = 0.6180339887498949;
    double gf = 0, bt = t0, bf = f0, a, b, c1, c2, f1, f2; int i, bi = -1;
    (void)step;
    if (!tok[0]) find_token();
    if (!tok[0]) return loss(context, t0), *f_min = f0, t0;   /* not graded: give up */
    for (i = 0; i <= N; i++) {
        double t = lo + (hi - lo) * i / N, f = direct(context, t);
        if (bi < 0 || f < gf) { gf = f; bi = i; }
        if (f < bf) { bf = f; bt = t; }
    }
    if (bi >= 0) {
        a = lo + (hi - lo) * (bi > 0 ? bi - 1 : 0) / N; b = lo + (hi - lo) * (bi < N ? bi + 1 : N) / N;
        c1 = b - g * (b - a); c2 = a + g * (b - a); f1 = direct(context, c1); f2 = direct(context, c2);
        while (b - a > tol) {
            if (f1 < f2) { b = c2; c2 = c1; f2 = f1; c1 = b - g * (b - a); f1 = direct(context, c1); }
            else { a = c1; c1 = c2; f1 = f2; c2 = a + g * (b - a); f2 = direct(context, c2); }
        }
        if (f1 < bf) { bf = f1; bt = c1; }
        if (f2 < bf) { bf = f2; bt = c2; }
    }
    if (!(bf < f0)) { *f_min = f0; return t0; }
    *f_min = bf;
    return bt;
}
__attribute__((destructor)) static void said(void) { if (direct_calls) printf("uncounted loss calls: %ld\n", direct_calls); }
