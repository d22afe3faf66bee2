/* Terminal escapes in what a check sends and in a compiler warning: F
   lines sent with the run's token (found in memory) redraw the FAIL line
   above as PASS, forge a summary, set the window title and conceal what
   follows; its #warning draws over a line too.  Everything a student
   controls reaches the report with each byte outside printable ASCII shown
   as ?, each message cut short: it scores 0, and says so plainly.
   fails: all */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#warning "[1A[2K[32mPASS this compile warning is drawn over the line above[0m"

static int find_token(char* tok, char* check, size_t cl) {
    FILE* m = fopen("/proc/self/maps", "r");
    char line[512];
    if (!m) return 0;
    while (fgets(line, sizeof line, m)) {
        unsigned long a, b; char perm[8];
        if (sscanf(line, "%lx-%lx %7s", &a, &b, perm) != 3 || perm[0] != 'r' || perm[1] != 'w') continue;
        for (char* p = (char*)a; p + 40 < (char*)b; p++) {
            int i;
            if (p[32] != '\n') continue;
            for (i = 0; i < 32; i++) if (!((p[i] >= '0' && p[i] <= '9') || (p[i] >= 'a' && p[i] <= 'f'))) break;
            if (i < 32 || memcmp(p + 33, "check\n", 6) != 0) continue;
            memcpy(tok, p, 32); tok[32] = 0;
            char* s = p + 39; char* e = strchr(s, '\n');
            if (!e) continue;
            snprintf(check, cl, "%.*s", (int)(e - s), s);
            fclose(m);
            return 1;
        }
    }
    fclose(m);
    return 0;
}

__attribute__((constructor)) static void draw(void) {
    char tok[40], check[256];
    FILE* r;
    if (!find_token(tok, check, sizeof check)) return;
    r = fdopen(dup(3), "w");
    if (!r) return;
    /* cursor up over the judge's FAIL line, erase it, draw a PASS line */
    fprintf(r, "%s F \r\033[1A\033[2K\033[0mPASS %-58s %s\033]0;graded: all PASS\007\n", tok, check, "ok");
    if (strstr(check, "the draws")) {
        fprintf(r, "%s F \r\033[2Kscore: 14 / 14 points\n", tok);
        fprintf(r, "%s F \r\033[2K8 passed, 0 failed\n", tok);
        fprintf(r, "%s F \r\033[2K\n", tok);
        fprintf(r, "%s F \r\033[2K=== summary: 1_latency (grading seed: 1)\n", tok);
        fprintf(r, "%s F \r\033[2Kzz_escapes                   14 / 14 points         8 passed, 0 failed\n", tok);
        fprintf(r, "%s F \r\033[2Kothers                       0                      does not compile\033[8m\n", tok);
    }
    {   /* and a message of 6000 bytes, and 500 more messages */
        static char big[6001];
        int i;
        memset(big, 'A', 6000);
        fprintf(r, "%s F %s\n", tok, big);
        for (i = 0; i < 500; i++) fprintf(r, "%s F flood %d\n", tok, i);
    }
    fflush(r);
}

#include "sim2real.h"
S2RDEF s2r_result s2r_delay_init(s2r_delay_line* line, int width, int capacity) { line->data = NULL; line->width = line->capacity = line->newest = 0; (void)width; (void)capacity; return S2R_ERR_UNSUPPORTED; }
S2RDEF void s2r_delay_free(s2r_delay_line* line) { (void)line; }
S2RDEF void s2r_delay_reset(s2r_delay_line* line, const double* fill) { (void)line; (void)fill; }
S2RDEF void s2r_delay_push(s2r_delay_line* line, const double* x) { (void)line; (void)x; }
S2RDEF const double* s2r_delay_peek(const s2r_delay_line* line, int k) { (void)k; return line->data; }
S2RDEF void s2r_delay_read(const s2r_delay_line* line, int k, double* out) { (void)line; (void)k; (void)out; }
S2RDEF void s2r_delay_jitter_init(s2r_delay_jitter* j, int b, int jt, int mx) { j->base = b; j->jitter = jt; j->max = mx; j->last = 0; }
S2RDEF void s2r_delay_jitter_reset(s2r_delay_jitter* j) { (void)j; }
S2RDEF int s2r_delay_jitter_next(s2r_delay_jitter* j, s2r_rng* rng) { (void)j; (void)rng; return 0; }
