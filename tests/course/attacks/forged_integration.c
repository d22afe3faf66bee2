/* An attack on the integration check's points, once the unit checks pass:
   a correct delay line (the work of every unit check), and a constructor
   that, in the integration check alone, finds the run's token and the
   check's name in its own memory and writes back expected.txt's results
   for it (the public answers, pasted in below), every expectation as held,
   then END, and leaves with _exit(0): the check's pipeline never runs (a
   delay line too slow for it, or wrong in a way only the pipeline shows,
   would take its points so).  On the fixed inputs that passes; on the
   instructor's run the integration check's episodes are drawn from the
   grading seed, so the public values are the wrong ones.
   fails: integration
   says: the reference gives */
#define _POSIX_C_SOURCE 200809L   /* dprintf */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

__attribute__((constructor)) static void replay_integration(void) {
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
    if (strncmp(name, "integration", 11) != 0) return;   /* the unit checks: the delay line below does the work */
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

#include "../1_latency/right.c"
