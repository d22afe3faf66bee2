/* course/judge.c - the process that decides a grade.

   A grader is two programs.  The worker (course/N_NAME/grade.c on
   course/grade.h, linked with the student's file) computes; the judge
   (this file: no sim2real.h, no student code, nothing a student wrote is
   ever linked into it or loaded by it) runs the worker once per check in
   a sandboxed child, reads what the child sends back, compares it with
   the answers and decides.  An exit status, a signal or text the child
   prints never passes anything: a check passes only on a complete,
   well-formed reply whose every result agrees with the reference's.

       judge --record ANSWERS --worker BIN            measure the reference
       judge --record ANSWERS --seed S --base FIXED --worker BIN [--skeleton BIN2] [--secret F]
                                                       ... on the seed S's inputs
                                                       (BIN2: the skeleton's worker,
                                                       for the partial replay's test;
                                                       F: the instructor's number, the
                                                       hidden losses' key with S)
       judge --answers ANSWERS --worker BIN [--unit-worker BIN2] [--submission FILE]
             [--only TEXT] [--result FILE] [--name WHO] [--hide DIR ...] [--units]
                                                       grade one student (--units:
                                                       the unit checks alone; BIN2:
                                                       the same student on a library
                                                       with no exercise's reference,
                                                       for every check that needs
                                                       no other exercise)
       judge --public ANSWERS --closed LIST           the kit's public checks
       judge --run [--scratch DIR] [--hide DIR ...] -- CMD ARGS   (sandboxed)
       judge --sandbox                                 say what the sandbox does
       judge --copy FROM TO MAX_BYTES                  copy a student's file: no link
                                                       followed, a regular file only

   The reply.  The judge writes a preamble to the child's fd 4 (a random
   per-run token, the mode, the check's name, the run's seed, the reference
   values the check may read) and reads the child's fd 3: lines "TOKEN KIND ...",
   KIND one of
       X id ok          an expectation was evaluated (id: hash of its text)
       F text           a failure, in words
       A key tol n v..  raw results the judge compares with the answers
                        (tol >= 0: relative, |got - want| <= tol max(1, |want|);
                        tol < 0: absolute, |got - want| <= -tol; NaN agrees
                        with NaN only)
       L key i text     what value i of key's results is, for a message
       S                the check reads the grading seed (grade_seed())
       R key n v..      (recording) a reference value a check reads
       K key n v..      a value kept for the later checks of this run
       T pts sec kind hidden needs name   (listing) one check of the table
                        (kind: unit or integration, "-data" appended
                        when it runs no student code)
       Q question       a question the judge answers at once, one line on
                        fd 4 (the hidden losses, below: 4_sysid's test
                        losses, whose centres the worker never holds)
       G id t limit text   a failure when t is over limit tol from hidden
                        loss id's minimum (the judge holds it)
       END              the check ran to its end
   A line without the token, a malformed line, more than GRADE_REPLY_MAX
   bytes, or no END: the check fails, and the judge names the cause from
   what it saw (the time limit, a signal, exit()).  A check's verdict rests
   on its A results: a check that sends none would be the worker's word
   (which code in the worker's process can forge), so --record refuses a
   grader with such a check - unless it is marked "-data" in the listing
   (GRADE_DATA: it runs none of the student's code).

   The grading seed.  On the public fixed inputs (seed 0: a kit's
   expected.txt, a student's own run) every answer is public, and a reply
   forged from expected.txt would carry the right numbers.  So the
   instructor's run grades on a seed of its own: its answers file says
   "seed S", the judge hands S to every check in the preamble, and each
   check that reads it (grade_seed()) draws some of its inputs from it.
   --record --seed S --base FIXED makes that file from the fixed answers:
   it runs the reference again on every check the fixed recording saw
   read the seed and keeps the others' answers as they are.  --record
   refuses a grader with a unit check of the student's code that reads no
   seed (a replay of expected.txt would pass it on every run), and
   --record --seed one whose fixed answers, replayed, would pass it on the
   seed - or, given the skeleton's worker (--skeleton), one that the
   skeleton as handed out passes on the seed once its seed-independent
   results are replayed from expected.txt (a stub that gets the seeded
   results right, the rest copied: a partial replay).

   The sandbox (per check): its own process group, killed with SIGKILL at
   the check's limit (or END_GRACE s after its reply ended); RLIMIT_AS,
   RLIMIT_CPU, RLIMIT_FSIZE (which bounds a memfd too), RLIMIT_NPROC,
   RLIMIT_NOFILE (FILES), RLIMIT_CORE 0, and the resident memory of all its
   processes together, with what their memfds hold, polled
   (CHECK_MEMORY_MB); a fresh scratch folder as the working directory; no
   descriptor but its pipes and its output file.  As root, the child runs
   as nobody.  Where unprivileged user namespaces work (Debian's default),
   the child also gets a PID namespace (when it ends, every process it
   started ends with it, setsid or not), an IPC namespace (its SysV memory
   held to IPC_MB), no user namespace of its own, no network, and
   a root of its own: /usr and /etc read-only (/usr/local, /usr/share,
   /usr/src, /usr/games and /usr/lib/python* covered by empty folders), a
   few devices, its own /proc and the scratch folder, with each --hide
   folder (the answers, the submissions) under them covered by an empty
   one.  Where they do not, `judge --sandbox` says so and what is then
   left open; the SysV IPC objects a check made are then removed when it
   ends (remove_ipc).

   The answers file (v2): "grade-answers 2", then
       seed S                        (only on a seeded run's answers)
       key K                         (... the hidden losses' key on it)
   then per check
       check I POINTS SECONDS KIND HIDDEN NEEDS NAME...
       s I                           (the check reads the seed)
       x I id id ...
       a I KEY TOL N v1 .. vN
       r I KEY N v1 .. vN
   written by --record from the reference's replies, read back whole
   before any child starts. */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <math.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define GRADE_REPLY_MAX (8 << 20)     /* bytes a check may send back          */
#define MAX_CHECKS 64
#define MAX_ENTRIES 4096
#define MAX_IDS 512
#define MAX_VALUES 64
#define KEY_LEN 96
#define MAX_HIDE 16
#define NOBODY 65534
#define MAX_LABELS 4096

/* ---- limits (environment GRADE_MEMORY_MB, GRADE_FILE_MB, GRADE_PROCS) ---- */
static long env_long(const char* name, long fallback) {
    const char* s = getenv(name);
    char* end;
    long v;
    if (!s || !*s) return fallback;
    v = strtol(s, &end, 10);
    return (*end || v <= 0) ? fallback : v;
}
#define MEMORY_MB env_long("GRADE_MEMORY_MB", 3072)   /* address space per process */
/* resident memory of all a check's processes together (RLIMIT_AS is per
   process: 63 children of 2.5 GB each would fill the machine) */
#define CHECK_MEMORY_MB env_long("GRADE_CHECK_MEMORY_MB", MEMORY_MB)
#define FILE_MB env_long("GRADE_FILE_MB", 64)         /* largest file it writes  */
#define PROCS env_long("GRADE_PROCS", 64)             /* processes and threads   */
/* descriptors per process: its stdio, the reply and preamble pipes and a
   few of its own (the compile's cc and ld among them).  Each memfd holds
   at most FILE_MB (RLIMIT_FSIZE bounds a memfd's growth too: write past
   it fails with SIGXFSZ / EFBIG), so a process holds at most FILES x
   FILE_MB of memory no mapping counts; the memory poll adds them up */
#define FILES env_long("GRADE_FILES", 32)

/* ---- the answers ---------------------------------------------------------- */
typedef struct entry {
    int    check;               /* index into the table                     */
    char   kind;                /* 'a' compared, 'r' read by the check, 'k'  */
    char   key[KEY_LEN];
    double tol;
    int    n;
    double v[MAX_VALUES];
} entry;

typedef struct check {
    int      points, seconds, integration, hidden, data, seeded;
    long     calls_limit;           /* search calls one hidden loss may take (0: LOSS_CALLS) */
    char     needs[128];
    char     name[160];
    uint32_t ids[MAX_IDS];      /* expectations the reference evaluated      */
    int      n_ids;
} check;

static check checks[MAX_CHECKS];
static int n_checks;
static entry* entries;          /* MAX_ENTRIES                               */
static int n_entries;
static unsigned long long run_seed;   /* the answers' seed; 0: the public fixed inputs */
static unsigned long long loss_key;   /* a seeded run's key of the hidden losses' centres ("key K"); 0: none */

static void chomp(char* s) { size_t n = strlen(s); while (n && (s[n - 1] == '\n' || s[n - 1] == '\r')) s[--n] = 0; }

/* Read an answers file whole; 0, or -1 after saying what is wrong. */
static int load_answers(const char* path) {
    FILE* f = fopen(path, "r");
    char line[8192];
    int lineno = 0;
    if (!f) { fprintf(stderr, "judge: cannot open the answers %s: %s\n", path, strerror(errno)); return -1; }
    if (!fgets(line, sizeof line, f) || strncmp(line, "grade-answers 2", 15) != 0) {
        fprintf(stderr, "judge: %s is not an answers file of this judge (its first line is not \"grade-answers 2\"): "
                        "delete it, course/grade.sh measures it again\n", path);
        fclose(f);
        return -1;
    }
    lineno = 1;
    while (fgets(line, sizeof line, f)) {
        char* p = line;
        int i, used, ok = 0;
        lineno++;
        chomp(line);
        if (!*line) continue;
        if (strncmp(p, "seed ", 5) == 0 && n_checks == 0) {
            char* end;
            errno = 0;
            run_seed = strtoull(p + 5, &end, 10);
            ok = !errno && !*end && run_seed != 0;
        } else if (strncmp(p, "key ", 4) == 0 && n_checks == 0) {
            char* end;
            errno = 0;
            loss_key = strtoull(p + 4, &end, 10);
            ok = !errno && !*end && loss_key != 0;
        } else if (p[0] == 's' && p[1] == ' ') {
            ok = sscanf(p + 2, "%d", &i) == 1 && i >= 0 && i < n_checks;
            if (ok) checks[i].seeded = 1;
        } else if (p[0] == 'l' && p[1] == ' ') {
            long calls;
            ok = sscanf(p + 2, "%d %ld", &i, &calls) == 2 && i >= 0 && i < n_checks && calls > 0;
            if (ok) checks[i].calls_limit = calls;
        } else if (strncmp(p, "check ", 6) == 0 && n_checks < MAX_CHECKS) {
            check* c = &checks[n_checks];
            char kind[16];
            if (sscanf(p + 6, "%d %d %d %15s %d %127s %n", &i, &c->points, &c->seconds, kind, &c->hidden, c->needs, &used) == 6 &&
                i == n_checks && c->seconds > 0) {
                c->integration = strcmp(kind, "integration") == 0;
                snprintf(c->name, sizeof c->name, "%s", p + 6 + used);
                n_checks++;
                ok = 1;
            }
        } else if (p[0] == 'x' && p[1] == ' ') {
            p += 2;
            if (sscanf(p, "%d%n", &i, &used) == 1 && i >= 0 && i < n_checks) {
                unsigned long id;
                p += used;
                ok = 1;
                while (sscanf(p, "%lu%n", &id, &used) == 1 && checks[i].n_ids < MAX_IDS) {
                    checks[i].ids[checks[i].n_ids++] = (uint32_t)id;
                    p += used;
                }
            }
        } else if ((p[0] == 'a' || p[0] == 'r') && p[1] == ' ' && n_entries < MAX_ENTRIES) {
            entry* e = &entries[n_entries];
            int k;
            e->kind = p[0];
            e->tol = 0;
            p += 2;
            if (e->kind == 'a' ? sscanf(p, "%d %95s %lf %d%n", &e->check, e->key, &e->tol, &e->n, &used) == 4
                               : sscanf(p, "%d %95s %d%n", &e->check, e->key, &e->n, &used) == 3) {
                p += used;
                ok = e->check >= 0 && e->check < n_checks && e->n >= 1 && e->n <= MAX_VALUES;
                for (k = 0; ok && k < e->n; k++) {
                    if (sscanf(p, "%lf%n", &e->v[k], &used) != 1) ok = 0;
                    p += used;
                }
                if (ok) n_entries++;
            }
        }
        if (!ok) {
            fprintf(stderr, "judge: %s line %d is malformed: %.60s (delete the file: course/grade.sh measures it again)\n",
                    path, lineno, line);
            fclose(f);
            return -1;
        }
    }
    fclose(f);
    if (n_checks == 0) { fprintf(stderr, "judge: %s holds no checks\n", path); return -1; }
    return 0;
}

static int write_answers(const char* path) {
    FILE* f = fopen(path, "w");
    int i, j, k;
    if (!f) { fprintf(stderr, "judge: cannot write %s: %s\n", path, strerror(errno)); return -1; }
    fprintf(f, "grade-answers 2\n");
    if (run_seed) fprintf(f, "seed %llu\n", run_seed);
    if (loss_key) fprintf(f, "key %llu\n", loss_key);
    for (i = 0; i < n_checks; i++) {
        const check* c = &checks[i];
        fprintf(f, "check %d %d %d %s %d %s %s\n", i, c->points, c->seconds, c->integration ? "integration" : "unit",
                c->hidden, c->needs, c->name);
        if (c->seeded) fprintf(f, "s %d\n", i);
        if (c->calls_limit > 0) fprintf(f, "l %d %ld\n", i, c->calls_limit);
        fprintf(f, "x %d", i);
        for (j = 0; j < c->n_ids; j++) fprintf(f, " %lu", (unsigned long)c->ids[j]);
        fprintf(f, "\n");
        for (j = 0; j < n_entries; j++) {
            const entry* e = &entries[j];
            if (e->check != i || e->kind == 'k') continue;
            if (e->kind == 'a') fprintf(f, "a %d %s %.17g %d", i, e->key, e->tol, e->n);
            else fprintf(f, "r %d %s %d", i, e->key, e->n);
            for (k = 0; k < e->n; k++) fprintf(f, " %.17g", e->v[k]);
            fprintf(f, "\n");
        }
    }
    if (fclose(f) != 0) { fprintf(stderr, "judge: cannot write %s: %s\n", path, strerror(errno)); return -1; }
    return 0;
}

/* ---- the sandbox ------------------------------------------------------------ */
typedef struct sandbox {
    const char* hide[MAX_HIDE];
    int         n_hide;
    const char* scratch;        /* given (--run --scratch): kept             */
    const char* copy_in;        /* a data submission, copied in as submission.txt */
} sandbox;

static int namespaces_work = -1;   /* probed once                               */

/* The judge's own command line (argv[0] .. the end of its last argument):
   the ns init, a fork of the judge that is PID 1 of a check's namespace,
   wipes it, or /proc/1/cmdline would show a check the answers' path, the
   build folder, the submissions folder and the instructor's options. */
static char* args_start;
static size_t args_len;
static void wipe_command_line(void) {
    static const char name[] = "s2r-init";
    if (!args_start || !args_len) return;
    memset(args_start, 0, args_len);
    if (args_len > sizeof name) memcpy(args_start, name, sizeof name);
    prctl(PR_SET_NAME, name, 0, 0, 0);
}

static int write_file(const char* path, const char* text) {
    int fd = open(path, O_WRONLY), ok;
    if (fd < 0) return -1;
    ok = write(fd, text, strlen(text)) == (ssize_t)strlen(text);
    close(fd);
    return ok ? 0 : -1;
}

/* Mount flags a bind remount must keep (an unprivileged remount may not
   drop them). */
static unsigned long kept_flags(const char* path) {
    struct statvfs s;
    unsigned long f = 0;
    if (statvfs(path, &s) != 0) return 0;
    if (s.f_flag & ST_NOSUID) f |= MS_NOSUID;
    if (s.f_flag & ST_NODEV) f |= MS_NODEV;
    if (s.f_flag & ST_NOEXEC) f |= MS_NOEXEC;
    if (s.f_flag & ST_NOATIME) f |= MS_NOATIME;
    if (s.f_flag & ST_NODIRATIME) f |= MS_NODIRATIME;
    if (s.f_flag & ST_RELATIME) f |= MS_RELATIME;
    return f;
}

/* mkdir -p of path's folders (and path itself). */
static void make_dirs(const char* path) {
    char b[4400], *p;
    snprintf(b, sizeof b, "%s", path);
    for (p = b + 1; *p; p++)
        if (*p == '/') { *p = 0; mkdir(b, 0755); *p = '/'; }
    mkdir(b, 0755);
}

/* A bind mount of `from` at `to`, then read-only (keeping the flags an
   unprivileged remount may not drop).  0 or -1. */
static int bind_ro(const char* from, const char* to, int recursive) {
    if (mount(from, to, NULL, MS_BIND | (recursive ? MS_REC : 0), NULL) != 0) return -1;
    return mount(NULL, to, NULL, MS_BIND | MS_REMOUNT | MS_RDONLY | kept_flags(from), NULL);
}

#define SCRATCH_MB env_long("GRADE_SCRATCH_MB", 256)      /* a check's scratch folder, in all */
#define SCRATCH_FILES env_long("GRADE_SCRATCH_FILES", 512) /* ... and its files and folders   */

/* Inside the new mount namespace the worker gets a root of its own: an
   empty tmpfs (read-only) holding the system's programs and libraries
   (/usr, /etc and the links to them, read-only), a /dev of a few devices,
   its own /proc, and the scratch folder at its path - a tmpfs of at most
   SCRATCH_MB and SCRATCH_FILES (or, for --run --scratch, the given folder
   itself, which the caller reads afterwards).  Nothing else: no
   repository, no home, no answers, no other student, and the old root is
   detached, so /proc/self/mountinfo names none of them.  Each --hide
   folder that lies under what is kept is covered by an empty tmpfs too.
   Returns the number of steps that failed (>= 1000: none of it holds). */
static int restrict_mounts(const sandbox* sb, const char* scratch) {
    static const char* kept[] = { "usr", "etc", "bin", "sbin", "lib", "lib32", "lib64", "libx32" };
    static const char* devices[] = { "null", "zero", "full", "random", "urandom" };
    char nr[4200], p[4400], opts[128];
    int sfd, failed = 0;
    size_t i;
    struct stat st;
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) return 1000;
    sfd = open(scratch, O_PATH | O_DIRECTORY | O_CLOEXEC);   /* the host's scratch, before it is covered */
    if (sfd < 0) return 1000;
    snprintf(nr, sizeof nr, "%s", scratch);   /* the new root is mounted on the scratch folder's path */
    if (mount("none", nr, "tmpfs", MS_NOSUID | MS_NODEV, "size=1m,nr_inodes=256,mode=755") != 0) return 1000;
    for (i = 0; i < sizeof kept / sizeof kept[0]; i++) {
        char src[64], link[512];
        ssize_t n;
        snprintf(src, sizeof src, "/%s", kept[i]);
        snprintf(p, sizeof p, "%s/%s", nr, kept[i]);
        if (lstat(src, &st) != 0) continue;
        if (S_ISLNK(st.st_mode)) {
            if ((n = readlink(src, link, sizeof link - 1)) > 0) { link[n] = 0; if (symlink(link, p) != 0) failed++; }
        } else if (S_ISDIR(st.st_mode)) {
            mkdir(p, 0755);
            if (bind_ro(src, p, 1) != 0) failed++;
        }
    }
    {   /* what a compile and a worker do not need, under what is kept, covered by an empty tmpfs: what
           is installed apart from the system's packages (/usr/local: a pip-installed library with the
           solutions in it, say), the shared data and sources, Python's packages */
        static const char* covered[] = { "usr/local", "usr/share", "usr/src", "usr/games" };
        DIR* d;
        struct dirent* e;
        for (i = 0; i < sizeof covered / sizeof covered[0]; i++) {
            snprintf(p, sizeof p, "%s/%s", nr, covered[i]);
            if (stat(p, &st) == 0 && S_ISDIR(st.st_mode) &&
                mount("none", p, "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, "size=4k,nr_inodes=4") != 0)
                failed++;
        }
        if ((d = opendir("/usr/lib")) != NULL) {
            while ((e = readdir(d)) != NULL) {
                if (strncmp(e->d_name, "python", 6) != 0) continue;
                snprintf(p, sizeof p, "%s/usr/lib/%s", nr, e->d_name);
                if (stat(p, &st) == 0 && S_ISDIR(st.st_mode) &&
                    mount("none", p, "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, "size=4k,nr_inodes=4") != 0)
                    failed++;
            }
            closedir(d);
        }
    }
    snprintf(p, sizeof p, "%s/dev", nr);
    mkdir(p, 0755);
    if (mount("none", p, "tmpfs", MS_NOSUID | MS_NOEXEC, "size=64k,nr_inodes=64,mode=755") != 0) failed++;
    for (i = 0; i < sizeof devices / sizeof devices[0]; i++) {
        char src[64];
        int fd;
        snprintf(src, sizeof src, "/dev/%s", devices[i]);
        snprintf(p, sizeof p, "%s/dev/%s", nr, devices[i]);
        if ((fd = open(p, O_WRONLY | O_CREAT, 0666)) >= 0) close(fd);
        if (mount(src, p, NULL, MS_BIND, NULL) != 0) failed++;
    }
    snprintf(p, sizeof p, "%s/dev/fd", nr);
    if (symlink("/proc/self/fd", p) != 0) failed++;
    snprintf(p, sizeof p, "%s/dev", nr);
    mount(NULL, p, NULL, MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NOEXEC, NULL);
    snprintf(p, sizeof p, "%s/proc", nr);
    mkdir(p, 0555);
    /* this PID namespace's own /proc: the other processes out of sight,
       and PID 1 the ns init, whose command line (the judge's) it wipes
       (mounted while the old one is visible: the kernel asks for that) */
    if (mount("proc", p, "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) != 0) failed++;
    snprintf(p, sizeof p, "%s/tmp", nr);
    mkdir(p, 01777);
    snprintf(p, sizeof p, "%s%s", nr, scratch);
    make_dirs(p);
    if (sb->scratch) {   /* --run --scratch: the given folder, which the caller reads afterwards */
        char fdpath[64];
        snprintf(fdpath, sizeof fdpath, "/proc/self/fd/%d", sfd);
        if (mount(fdpath, p, NULL, MS_BIND, NULL) != 0) return 1000;
    } else {
        snprintf(opts, sizeof opts, "size=%ldm,nr_inodes=%ld,mode=700", SCRATCH_MB, SCRATCH_FILES);
        if (mount("none", p, "tmpfs", MS_NOSUID | MS_NODEV, opts) != 0) return 1000;
        if (sb->copy_in) {   /* the data submission, from the host's scratch */
            int in = openat(sfd, "submission.txt", O_RDONLY | O_NOFOLLOW), out;
            char to[4500], buf[65536];
            ssize_t n = -1;
            snprintf(to, sizeof to, "%s/submission.txt", p);
            out = open(to, O_WRONLY | O_CREAT | O_EXCL, 0644);
            if (in >= 0 && out >= 0) while ((n = read(in, buf, sizeof buf)) > 0 && write(out, buf, (size_t)n) == n) {}
            if (in >= 0) close(in);
            if (out >= 0) close(out);
            if (n != 0) return 1000;
        }
    }
    close(sfd);
    for (i = 0; i < (size_t)sb->n_hide; i++) {   /* a hidden folder under what is kept (e.g. /usr/src/...) */
        size_t len = strlen(sb->hide[i]);
        if (strncmp(scratch, sb->hide[i], len) == 0 && (scratch[len] == '/' || len == 1)) continue;   /* holds the scratch */
        snprintf(p, sizeof p, "%s%s", nr, sb->hide[i]);
        if (stat(p, &st) == 0 && S_ISDIR(st.st_mode) &&
            mount("none", p, "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, "size=4k") != 0)
            failed++;
    }
    /* into the new root; the old one detached (out of sight, out of mountinfo) */
    if (chdir(nr) != 0 || syscall(SYS_pivot_root, ".", ".") != 0 || umount2(".", MNT_DETACH) != 0 || chdir("/") != 0)
        return 1000;
    if (mount(NULL, "/", NULL, MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV, NULL) != 0) failed++;
    return failed;
}

/* The sandbox's own channel: a child that fails before its program runs
   writes its code here (CLOEXEC, so a program that started closes it
   unwritten), and the judge tells that from an exit status the student's
   code chose (exit(125) is the student's, not the sandbox's). */
static int sandbox_fail_fd = -1;
static void sandbox_exit(int code) {
    unsigned char b = (unsigned char)code;
    if (sandbox_fail_fd >= 0 && write(sandbox_fail_fd, &b, 1) != 1) {}
    _exit(code);
}

static void set_limit(int resource, rlim_t v) {
    struct rlimit r;
    r.rlim_cur = r.rlim_max = v;
    setrlimit(resource, &r);
}

/* The child's side, up to exec: never returns.  fds: 3 reply (write),
   4 preamble (read), 1 and 2 the output file. */
static void become_worker(const sandbox* sb, const char* scratch, int seconds, int exec_fd, char** argv, int in_ns) {
    int fd;
    prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);       /* its parent killed: so is this */
    if (in_ns && restrict_mounts(sb, scratch) >= 1000) sandbox_exit(121);
    set_limit(RLIMIT_CORE, 0);
    set_limit(RLIMIT_AS, (rlim_t)MEMORY_MB << 20);
    set_limit(RLIMIT_FSIZE, (rlim_t)FILE_MB << 20);
    set_limit(RLIMIT_CPU, (rlim_t)(4 * seconds + 5));
    set_limit(RLIMIT_NOFILE, (rlim_t)FILES);   /* memfds hold memory no mapping shows: a few only */
    if (in_ns || getuid() == NOBODY) set_limit(RLIMIT_NPROC, (rlim_t)PROCS);
    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
    if (chdir(scratch) != 0) sandbox_exit(122);
    for (fd = 5; fd < 1024; fd++) if (fd != exec_fd && fd != sandbox_fail_fd) close(fd);   /* both O_CLOEXEC */
    signal(SIGPIPE, SIG_DFL);
    {   /* a fixed environment: nothing of the instructor's shell (no PWD, HOME, USER, paths) */
        static char home[4200], tmpdir[4200], quick[32], perturb[32];
        static char* env[8];
        int n = 0;
        const char* q = getenv("GRADE_QUICK");
        snprintf(home, sizeof home, "HOME=%s", scratch);
        snprintf(tmpdir, sizeof tmpdir, "TMPDIR=%s", scratch);
        env[n++] = (char*)"PATH=/usr/local/bin:/usr/bin:/bin";
        env[n++] = home;
        env[n++] = tmpdir;
        env[n++] = (char*)"LC_ALL=C";
        if (q && (q[0] == '0' || q[0] == '1') && !q[1]) { snprintf(quick, sizeof quick, "GRADE_QUICK=%s", q); env[n++] = quick; }
        /* fresh allocations hold garbage (glibc fills them with the byte
           ~N): code that reads memory it never wrote does not pass by luck */
        snprintf(perturb, sizeof perturb, "MALLOC_PERTURB_=%d", 0xa5);
        env[n++] = perturb;
        env[n] = NULL;
        environ = env;
    }
    if (exec_fd >= 0) fexecve(exec_fd, argv, environ);
    else execvp(argv[0], argv);
    sandbox_exit(127);
}

/* Memory no process of the check maps, so no poll counts it, bounded in
   the check's own namespaces (enter_namespaces): SysV shared memory and
   message queues, whose limits are the IPC namespace's (a touched,
   detached segment is no one's RSS), at IPC_MB in all; and no nested
   user namespace (in one the worker would hold every capability again and
   mount a tmpfs of its own, which no poll and no scratch cap sees). */
#define IPC_MB 16
static int limit_ipc(void) {
    char v[64];
    long mb = CHECK_MEMORY_MB < IPC_MB ? CHECK_MEMORY_MB : IPC_MB;
    int failed = 0;
    snprintf(v, sizeof v, "%ld", mb << 20);
    failed |= write_file("/proc/sys/kernel/shmmax", v);
    snprintf(v, sizeof v, "%ld", (mb << 20) / sysconf(_SC_PAGESIZE));
    failed |= write_file("/proc/sys/kernel/shmall", v);
    failed |= write_file("/proc/sys/kernel/shmmni", "4");
    failed |= write_file("/proc/sys/kernel/msgmni", "4");   /* 4 queues of msgmnb (16 kB) each */
    return failed ? -1 : 0;
}

/* One user namespace: `inside` mapped to `outside` (uid and gid alike). */
static int map_ids(unsigned inside_uid, unsigned outside_uid, unsigned inside_gid, unsigned outside_gid) {
    char map[64];
    if (write_file("/proc/self/setgroups", "deny") != 0) return -1;
    snprintf(map, sizeof map, "%u %u 1", inside_uid, outside_uid);
    if (write_file("/proc/self/uid_map", map) != 0) return -1;
    snprintf(map, sizeof map, "%u %u 1", inside_gid, outside_gid);
    return write_file("/proc/self/gid_map", map);
}

/* The check's namespaces, two user namespaces deep.  The outer one maps
   root to the caller's ids: as its root (the owner of the IPC namespace
   made there) the intermediate may set the IPC limits (an IPC sysctl is
   writable only by the root of the namespace owning it).  The inner one,
   with the mount, network and PID namespaces, maps the same ids inside
   as outside (never 0): the worker's exec drops the namespace's
   capabilities, so it cannot undo the mounts, and it may make no user
   namespace of its own.  1 in them; 0 when unshare is refused (none
   made: the sandbox runs without them); -1 on a failure half way. */
static int enter_namespaces(uid_t uid, gid_t gid) {
    if (unshare(CLONE_NEWUSER) != 0) return 0;
    if (map_ids(0, (unsigned)uid, 0, (unsigned)gid) != 0 || unshare(CLONE_NEWIPC) != 0 || limit_ipc() != 0) return -1;
    if (unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWPID) != 0 ||
        map_ids((unsigned)uid, 0, (unsigned)gid, 0) != 0 ||
        write_file("/proc/sys/user/max_user_namespaces", "0") != 0)
        return -1;
    return 1;
}

/* Drop root to nobody (the scratch folder was given to nobody). */
static void drop_root(void) {
    if (geteuid() != 0) return;
    if (setgroups(0, NULL) != 0 || setresgid(NOBODY, NOBODY, NOBODY) != 0 || setresuid(NOBODY, NOBODY, NOBODY) != 0) sandbox_exit(123);
    prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);   /* else /proc/self/uid_map stays root's */
}

/* The sandboxed child, three processes deep where namespaces work:
     intermediate  (its own process group, the new user namespace; in the
                    judge's PID namespace: the judge reaps it)
       ns init     (PID 1 of the new PID namespace: reaps what is
                    orphaned there, and sends the worker's wait status
                    back; when it ends, the kernel kills every process
                    left in the namespace, setsid or not)
         worker    (PID 2: the grader program; not PID 1, so its own
                    signals - abort(), RLIMIT_CPU's SIGXCPU - act on it)
   Without namespaces the intermediate starts the worker itself. */
typedef struct child {
    pid_t pid;          /* the intermediate (group leader)                    */
    pid_t top;          /* the ns init (or the worker), as the judge sees it  */
    int   reply;        /* read end of fd 3                                   */
    int   preamble;     /* write end of fd 4                                  */
    int   done;         /* read end: the worker's raw wait status (ns init)   */
    int   in_ns;        /* it runs in namespaces (an IPC namespace among them) */
    int   failed;       /* read end: the sandbox's code when it failed (sandbox_exit) */
} child;

static int start_child(const sandbox* sb, const char* scratch, int seconds, int out_fd, int exec_fd, char** argv, child* c) {
    int reply[2], pre[2], status[2], done[2], failed[2];
    pid_t pid;
    if (pipe(reply) != 0 || pipe(pre) != 0 || pipe(status) != 0 || pipe(done) != 0) return -1;
    if (pipe2(failed, O_CLOEXEC) != 0) return -1;
    fflush(stdout);
    fflush(stderr);
    pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        pid_t w;
        int in_ns = 0, st;
        uid_t uid;
        gid_t gid;
        setpgid(0, 0);
        close(reply[0]); close(pre[1]); close(status[0]); close(done[0]); close(failed[0]);
        sandbox_fail_fd = fcntl(failed[1], F_DUPFD_CLOEXEC, 100);
        close(failed[1]);
        {   /* out of the way first, so no dup2 below clobbers a source */
            int r1 = fcntl(reply[1], F_DUPFD, 100), p0 = fcntl(pre[0], F_DUPFD, 100), o = fcntl(out_fd, F_DUPFD, 100);
            int s1 = fcntl(status[1], F_DUPFD, 100), d1 = fcntl(done[1], F_DUPFD, 100);
            if (r1 < 0 || p0 < 0 || o < 0 || s1 < 0 || d1 < 0) sandbox_exit(124);
            close(reply[1]); close(pre[0]); close(status[1]); close(done[1]);
            if (dup2(r1, 3) < 0 || dup2(p0, 4) < 0 || dup2(o, 1) < 0 || dup2(o, 2) < 0) sandbox_exit(124);
            close(r1); close(p0); close(o);
            if (out_fd > 4) close(out_fd);
            status[1] = s1;
            done[1] = d1;
            {   /* nothing to read on standard input */
                int null = open("/dev/null", O_RDONLY);
                if (null >= 0 && null != 0) { dup2(null, 0); close(null); }
            }
        }
        drop_root();
        prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);   /* the judge killed: so is this */
        if (getppid() == 1) sandbox_exit(126);
        uid = geteuid(); gid = getegid();
        prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);   /* for its own /proc/self/uid_map (the judge is not dumpable) */
        if (namespaces_work != 0) {
            int got = enter_namespaces(uid, gid);
            if (got < 0) sandbox_exit(125);
            in_ns = got;
        }
        /* from here on, no process of the check reads this one's memory (/proc/PID/mem) or
           traces it: the same uid as the worker, without a namespace between them */
        prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
        w = fork();
        if (w < 0) sandbox_exit(126);
        if (w == 0 && in_ns) {   /* the ns init */
            pid_t worker, got;
            int wiped[2];
            prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
            close(status[1]);
            if (pipe(wiped) != 0) sandbox_exit(126);
            worker = fork();
            if (worker < 0) sandbox_exit(126);
            if (worker == 0) {   /* it starts once this init's command line is wiped */
                char c;
                close(done[1]);
                close(wiped[1]);
                while (read(wiped[0], &c, 1) < 0 && errno == EINTR) {}
                close(wiped[0]);
                become_worker(sb, scratch, seconds, exec_fd, argv, in_ns);
            }
            wipe_command_line();   /* after the fork: the worker's argv may point into it until its exec */
            close(wiped[0]);
            close(wiped[1]);
            close(3); close(4); close(1); close(2);
            if (exec_fd >= 0) close(exec_fd);
            st = 0;
            for (;;) {   /* reap every orphan of the namespace until the worker ends */
                int s2;
                got = wait(&s2);
                if (got == worker) { st = s2; break; }
                if (got < 0 && errno != EINTR) { st = 126 << 8; break; }
            }
            if (write(done[1], &st, sizeof st) != (ssize_t)sizeof st) {}
            _exit(0);
        }
        if (w == 0) { close(status[1]); close(done[1]); become_worker(sb, scratch, seconds, exec_fd, argv, in_ns); }
        close(3); close(4); close(1); close(2); close(done[1]);
        if (write(status[1], &w, sizeof w) != (ssize_t)sizeof w) {}
        if (write(status[1], &in_ns, sizeof in_ns) != (ssize_t)sizeof in_ns) {}
        close(status[1]);
        while (waitpid(w, &st, 0) < 0 && errno == EINTR) {}
        if (WIFSIGNALED(st)) { signal(WTERMSIG(st), SIG_DFL); kill(getpid(), WTERMSIG(st)); }
        _exit(WIFEXITED(st) ? WEXITSTATUS(st) : 1);
    }
    setpgid(pid, pid);
    close(reply[1]); close(pre[0]); close(status[1]); close(done[1]); close(failed[1]);
    c->failed = failed[0];
    c->pid = pid;
    c->top = -1;
    {
        int in_ns = 0;
        if (read(status[0], &c->top, sizeof c->top) != (ssize_t)sizeof c->top) c->top = -1;
        if (read(status[0], &in_ns, sizeof in_ns) == (ssize_t)sizeof in_ns && namespaces_work < 0) namespaces_work = in_ns;
        c->in_ns = in_ns;
    }
    close(status[0]);
    c->reply = reply[0];
    c->preamble = pre[1];
    c->done = done[0];
    return 0;
}

/* Kill everything of the child's: the ns init (the PID namespace with it)
   and the process group. */
static void kill_child(const child* c, int reaped) {
    if (c->top > 0 && !reaped) kill(c->top, SIGKILL);
    kill(-c->pid, SIGKILL);
}

/* Kill and reap whatever a check left: every process whose parent is the
   judge (a subreaper: what a check's processes orphan, setsid or not,
   comes here), until none is left.  Between checks the judge has no
   child of its own, so each is a check's. */
static void reap_orphans(void) {
    int round;
    while (waitpid(-1, NULL, WNOHANG) > 0) {}
    for (round = 0; round < 200; round++) {
        FILE* f;
        char path[64], line[512];
        int found = 0;
        DIR* d = opendir("/proc");
        struct dirent* e;
        if (!d) return;
        while ((e = readdir(d)) != NULL) {
            long pid = strtol(e->d_name, NULL, 10), ppid = 0;
            char* close_paren;
            if (pid <= 0) continue;
            snprintf(path, sizeof path, "/proc/%ld/stat", pid);
            if (!(f = fopen(path, "r"))) continue;
            if (fgets(line, sizeof line, f) && (close_paren = strrchr(line, ')')) && sscanf(close_paren + 1, " %*c %ld", &ppid) == 1 &&
                ppid == (long)getpid()) {
                kill((pid_t)pid, SIGKILL);
                found = 1;
            }
            fclose(f);
        }
        closedir(d);
        while (waitpid(-1, NULL, found ? 0 : WNOHANG) > 0) {}
        if (!found) return;
    }
}

/* rm -r of the scratch folder (no symlink followed). */
static void remove_tree(const char* path) {
    pid_t p = fork();
    if (p == 0) {
        int devnull = open("/dev/null", O_WRONLY);
        if (devnull >= 0) { dup2(devnull, 1); dup2(devnull, 2); }
        execlp("rm", "rm", "-rf", "--one-file-system", "--", path, (char*)NULL);
        _exit(127);
    }
    if (p > 0) while (waitpid(p, NULL, 0) < 0 && errno == EINTR) {}
}

/* Copy a file of at most max_bytes into the scratch folder, owned by who
   runs there.  What is copied is what was opened: a symbolic link is not
   followed (O_NOFOLLOW), and the opened file must be a regular one (fstat
   of the descriptor: a FIFO or device is not read), so a file swapped for
   a link to another student's after grade.sh looked at it is refused,
   never read.  0; -1 (errno) on an error; COPY_LINK, COPY_NOT_REGULAR,
   COPY_TOO_BIG. */
enum { COPY_LINK = -2, COPY_NOT_REGULAR = -3, COPY_TOO_BIG = -4 };
static int copy_file(const char* from, const char* to, long long max_bytes) {
    char buf[65536];
    ssize_t n = 0;
    long long total = 0;
    struct stat st;
    int in = open(from, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY), out;
    if (in < 0) return errno == ELOOP ? COPY_LINK : -1;
    if (fstat(in, &st) != 0) { close(in); return -1; }
    if (!S_ISREG(st.st_mode)) { close(in); return COPY_NOT_REGULAR; }
    if (st.st_size > max_bytes) { close(in); return COPY_TOO_BIG; }
    out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0644);
    if (out < 0) { close(in); return -1; }
    while ((n = read(in, buf, sizeof buf)) > 0) {
        if ((total += n) > max_bytes) { n = COPY_TOO_BIG; break; }
        if (write(out, buf, (size_t)n) != n) { n = -1; break; }
    }
    close(in);
    if (geteuid() == 0 && fchown(out, NOBODY, NOBODY) != 0) {}
    close(out);
    if (n != 0) unlink(to);
    return n == 0 ? 0 : n == COPY_TOO_BIG ? COPY_TOO_BIG : -1;
}

static int make_scratch(const sandbox* sb, char* path, size_t size) {
    const char* tmp = getenv("GRADE_SCRATCH");
    char resolved[2048];
    if (sb->scratch) {
        if (!realpath(sb->scratch, resolved)) return -1;
        snprintf(path, size, "%s", resolved);
    } else {
        if (!tmp || !*tmp) tmp = "/tmp";
        if (!realpath(tmp, resolved)) return -1;
        snprintf(path, size, "%s/s2r_grade.XXXXXX", resolved);
        if (!mkdtemp(path)) return -1;
    }
    if (geteuid() == 0 && chown(path, NOBODY, NOBODY) != 0) return -1;
    if (sb->copy_in) {
        char to[4200];
        snprintf(to, sizeof to, "%s/submission.txt", path);
        unlink(to);
        if (copy_file(sb->copy_in, to, 16ll << 20) != 0) return -1;
    }
    return 0;
}

/* ---- one run of the worker ------------------------------------------------- */
static char token[40];   /* this run's, on every line of a reply (make_token) */
/* Seconds a worker may take to exit once its reply has ended (its END
   line came): then it is stopped, and the check counts as sent - a worker
   that never exits (a destructor that waits for ever) does not hold every
   check for its whole limit. */
#define END_GRACE env_long("GRADE_END_GRACE", 2)

/* ---- the hidden losses ---------------------------------------------------------
   4_sysid's line-search checks hand the student's search test losses whose
   minimum (the centre c) is the answer.  The worker runs the student's
   code, so no centre of a seeded case is ever in it: the judge holds the
   losses and answers the worker's questions (a line "TOKEN Q ..." on fd 3,
   the answer one line on fd 4, after the preamble):
       Q open KIND W SHAPE LO HI TOL c C        a loss with the centre C (public)
       Q open KIND W SHAPE LO HI TOL h BASE SPAN a loss with the centre BASE + SPAN u,
                                                u in [0, 1) drawn from this run's key
                                                (the seeded answers' "key K", which
                                                no check sees), the check's name and
                                                the loss's number
                                                -> the loss's number (0, 1, ...)
       Q f ID T     the loss at T, a call of the search (counted: at most
                    LOSS_CALLS per loss)
       Q e ID T     the loss at T for the grader's bookkeeping (f0, the loss at the
                    t returned, a slope: at most LOSS_EVALS per loss)
   Each loss counts the calls (Q f) it answered and those at a t outside
   [lo, hi] (or NaN): a check fails on any outside call, and on a loss
   with more calls than the check's limit - "TOKEN C N", said by the
   reference when its answers are recorded and kept in them ("l CHECK N"),
   never taken from a student's worker - so a search that asks the judge
   around the worker's counting loss function is counted all the same.
   The worker sees only t and loss values.  What needs the centre is said
   by the judge: a line "TOKEN G ID T LIMIT TEXT" fails the check when T is
   more than LIMIT tol from loss ID's minimum (TEXT its message, "{min}" the
   minimum and "{err}" the distance in tol), and in a message or a label
   "{c:ID}" and "{min:ID}" name loss ID's centre and minimum.  KIND is
   course/4_sysid/grade.c's loss_kind, in its order. */
#define MAX_LOSSES 8192
#define LOSS_CALLS 1000000L
#define LOSS_EVALS 8
typedef struct hidden_loss {
    int    kind;
    double c, w, shape, lo, hi, tol;
    long   calls, outside;   /* Q f answered; of them at a t outside [lo, hi] or NaN */
    double first_outside;
    int    evals;
} hidden_loss;
static hidden_loss* losses;     /* MAX_LOSSES, the running check's          */
static int n_losses;
static char loss_check[200];    /* the running check's name (its preamble's) */

static unsigned long long mix64(unsigned long long x) {   /* splitmix64's finalizer */
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}
static unsigned long long text_hash(const char* s) {
    unsigned long long h = 1469598103934665603ull;
    while (*s) { h ^= (unsigned char)*s++; h *= 1099511628211ull; }
    return h;
}

/* Loss l at t: the same formulas as course/4_sysid/grade.c's, u = (t - c) / w. */
static double loss_value(const hidden_loss* l, double t) {
    double u = (t - l->c) / l->w;
    switch (l->kind) {
    case 0: return 1 + u * u;                                              /* quadratic  */
    case 1: return 1 + (u < 0 ? -u : l->shape * u);                        /* V          */
    case 2: return 2.5;                                                    /* flat       */
    case 3: return 1 + 1e-6 * (t - l->lo) / l->w;                          /* tilted     */
    case 4: return u * u + 0.3 * (1 - cos(12 * 3.141592653589793 * u + l->shape));   /* bumpy */
    case 5: return exp(3 * u) - 1 - 3 * u;                                 /* asymmetric */
    case 6: return log(cosh(4 * u));                                       /* log cosh   */
    case 7: return 1 - exp(-(u / 0.4) * (u / 0.4));                        /* well       */
    }
    return NAN;
}
/* Where loss l's minimum lies in [lo, hi] (the tilted one: lo). */
static double loss_argmin(const hidden_loss* l) {
    if (l->kind == 3) return l->lo;
    return l->c < l->lo ? l->lo : l->c > l->hi ? l->hi : l->c;
}

/* One question (the text after "Q "), its answer into `out`. */
static void loss_answer(const char* q, char* out, size_t size) {
    hidden_loss* l;
    char how;
    double a, b, t;
    int id, used = 0;
    snprintf(out, size, "nan\n");
    if (!losses) return;
    if (strncmp(q, "open ", 5) == 0 && n_losses < MAX_LOSSES) {
        l = &losses[n_losses];
        memset(l, 0, sizeof *l);
        if (sscanf(q + 5, "%d %lf %lf %lf %lf %lf %c %lf%n", &l->kind, &l->w, &l->shape, &l->lo, &l->hi, &l->tol, &how, &a,
                   &used) != 8 || l->kind < 0 || l->kind > 7)
            return;
        if (how == 'c') l->c = a;
        else if (how == 'h' && loss_key && sscanf(q + 5 + used, "%lf", &b) == 1) {
            unsigned long long x = mix64(loss_key ^ mix64(text_hash(loss_check)) ^ mix64((unsigned long long)n_losses + 1));
            l->c = a + b * ((double)(x >> 11) * 0x1p-53);
        } else return;
        snprintf(out, size, "%d\n", n_losses++);
        return;
    }
    if ((q[0] == 'f' || q[0] == 'e') && q[1] == ' ' && sscanf(q + 2, "%d %lf", &id, &t) == 2 && id >= 0 && id < n_losses) {
        l = &losses[id];
        if (q[0] == 'f' ? l->calls++ >= LOSS_CALLS : l->evals++ >= LOSS_EVALS) return;
        if (q[0] == 'f' && !(t >= l->lo && t <= l->hi) && l->outside++ == 0) l->first_outside = t;
        snprintf(out, size, "%.17g\n", loss_value(l, t));
    }
}

/* `from` with "{c:ID}" and "{min:ID}" replaced by loss ID's centre and
   minimum (a message or label of a check that uses hidden losses). */
static void loss_names(char* to, size_t size, const char* from) {
    size_t n = 0;
    while (*from && n + 1 < size) {
        int id, used = 0;
        const char* what = NULL;
        if (strncmp(from, "{c:", 3) == 0) what = "c";
        else if (strncmp(from, "{min:", 5) == 0) what = "min";
        if (what && sscanf(from + strlen(what) + 2, "%d}%n", &id, &used) == 1 && used > 0 && id >= 0 && id < n_losses) {
            const hidden_loss* l = &losses[id];
            n += (size_t)snprintf(to + n, size - n, what[0] == 'c' ? "%.6g" : "%.9g", what[0] == 'c' ? l->c : loss_argmin(l));
            from += strlen(what) + 2 + used;
            if (n >= size) n = size - 1;
            continue;
        }
        to[n++] = *from++;
    }
    to[n] = 0;
}

typedef struct reply {
    char*  text;           /* what came back on fd 3                            */
    size_t len;
    int    overflow;
    int    timed_out;
    int    lingered;       /* stopped END_GRACE s after its reply ended          */
    long   memory_mb;      /* > 0: stopped when its processes held this many MB  */
    int    status;         /* the intermediate's wait status                    */
    int    sandbox_failed; /* 121..127: the sandbox failed (its code), not the check */
    double seconds;
    char*  output;         /* what it printed (its fd 1 and 2)                  */
    size_t output_len;
} reply;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

static char* read_fd_all(int fd, size_t cap, size_t* len) {
    char* b = malloc(cap + 1);
    size_t n = 0;
    ssize_t r;
    if (!b) return NULL;
    lseek(fd, 0, SEEK_SET);
    while (n < cap && (r = read(fd, b + n, cap - n)) > 0) n += (size_t)r;
    b[n] = 0;
    *len = n;
    return b;
}

/* The resident memory (MB) of every process of the check: while a check
   runs, the judge's descendants are its processes (the intermediate, the
   ns init and all below, and what they orphaned to the judge, a
   subreaper), found in one pass over /proc/PID/stat (ppid and rss), and
   the memfds they hold (their pages are no process's RSS: memfd_kb).
   RLIMIT_AS holds each process; this, polled while the check runs, holds
   them all together - to within what they can touch between two polls (a
   memory cgroup would hold it exactly, but needs root and a cgroup tree of
   the judge's own). */
#define MAX_SCAN 32768
/* The processes seen in the running check (its SysV IPC objects are
   matched to them when it ends: remove_ipc). */
#define MAX_SEEN 4096
static pid_t seen_pids[MAX_SEEN];
static int n_seen_pids;
static void note_pid(pid_t pid) {
    int i;
    for (i = 0; i < n_seen_pids; i++) if (seen_pids[i] == pid) return;
    if (n_seen_pids < MAX_SEEN) seen_pids[n_seen_pids++] = pid;
}
static int pid_seen(long pid) {
    int i;
    for (i = 0; i < n_seen_pids; i++) if (seen_pids[i] == (pid_t)pid) return 1;
    return 0;
}

/* The memory (kB) in the memfds process `pid` holds that no other process
   of the check counted already (memfd_create and write, never mapped:
   no RSS shows it). */
static ino_t memfds[MAX_SEEN];
static int n_memfds;
static long memfd_kb(pid_t pid) {
    char dir[64], path[400], link[256];
    long kb = 0;
    DIR* d;
    struct dirent* e;
    snprintf(dir, sizeof dir, "/proc/%ld/fd", (long)pid);
    if (!(d = opendir(dir))) return 0;
    while ((e = readdir(d)) != NULL) {
        struct stat st;
        ssize_t len;
        int k;
        if (e->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if ((len = readlink(path, link, sizeof link - 1)) <= 0) continue;
        link[len] = 0;
        if (strncmp(link, "/memfd:", 7) != 0 || stat(path, &st) != 0) continue;
        for (k = 0; k < n_memfds && memfds[k] != st.st_ino; k++) {}
        if (k < n_memfds) continue;
        if (n_memfds < MAX_SEEN) memfds[n_memfds++] = st.st_ino;
        kb += (long)(st.st_blocks / 2);
    }
    closedir(d);
    return kb;
}

static long check_memory_mb(void) {
    static pid_t pids[MAX_SCAN], ppids[MAX_SCAN];
    static long rss[MAX_SCAN];
    long total = 0, page_kb = sysconf(_SC_PAGESIZE) / 1024;
    int n = 0, i, j, hops;
    pid_t self = getpid();
    DIR* d = opendir("/proc");
    struct dirent* e;
    if (!d) return 0;
    while ((e = readdir(d)) != NULL && n < MAX_SCAN) {
        char path[64], line[1024], *paren;
        long pid = strtol(e->d_name, NULL, 10), ppid, pages = 0;
        FILE* f;
        if (pid <= 0) continue;
        snprintf(path, sizeof path, "/proc/%ld/stat", pid);
        if (!(f = fopen(path, "r"))) continue;
        /* after the name: state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime
           cstime priority nice threads itrealvalue starttime vsize rss */
        if (fgets(line, sizeof line, f) && (paren = strrchr(line, ')')) &&
            sscanf(paren + 1, " %*c %ld %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %*d %*d %*u %*u %ld",
                   &ppid, &pages) == 2) {
            pids[n] = (pid_t)pid; ppids[n] = (pid_t)ppid; rss[n] = pages; n++;
        }
        fclose(f);
    }
    closedir(d);
    n_memfds = 0;
    for (i = 0; i < n; i++) {   /* a descendant of the judge: its parents lead up to it */
        pid_t p = ppids[i];
        for (hops = 0; hops <= n && p > 1 && p != self; hops++) {
            for (j = 0; j < n && pids[j] != p; j++) {}
            if (j == n) break;
            p = ppids[j];
        }
        if (p == self) {
            total += rss[i] * page_kb + memfd_kb(pids[i]);
            note_pid(pids[i]);
        }
    }
    return total / 1024;
}

/* SysV IPC objects outlive the processes that made them.  In an IPC
   namespace they die with the check; without one, the segments, queues
   and semaphore sets the check made are removed when it ends: made (or
   last changed) since it started by its account, and - a shared memory
   segment, whose creator's PID the kernel keeps - by one of the check's
   processes (when the check runs as nobody, any of nobody's: grading as
   root, nobody is the checks' account).  A queue or a semaphore set made
   by a check run under the grading account itself is left (nothing tells
   it from the account's own). */
static void remove_ipc(uid_t uid, time_t since) {
    static const char* files[3] = {"/proc/sysvipc/shm", "/proc/sysvipc/msg", "/proc/sysvipc/sem"};
    int k, anyone = uid == NOBODY && geteuid() == 0;
    for (k = 0; k < 3; k++) {
        FILE* f = fopen(files[k], "r");
        char line[512];
        if (!f) continue;
        if (!fgets(line, sizeof line, f)) { fclose(f); continue; }   /* the header */
        while (fgets(line, sizeof line, f)) {
            long key, id, perms, a, b, c, d, e, cuid, cgid, t1, t2, ctime = 0, cpid = -1;
            int ok;
            if (k == 0)        /* key shmid perms size cpid lpid nattch uid gid cuid cgid atime dtime ctime */
                ok = sscanf(line, "%ld %ld %lo %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld", &key, &id, &perms, &a, &cpid, &b, &c,
                            &d, &e, &cuid, &cgid, &t1, &t2, &ctime) == 14;
            else if (k == 1)   /* key msqid perms cbytes qnum lspid lrpid uid gid cuid cgid stime rtime ctime */
                ok = sscanf(line, "%ld %ld %lo %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld", &key, &id, &perms, &a, &b, &c, &d,
                            &e, &t1, &cuid, &cgid, &t2, &t2, &ctime) == 14;
            else               /* key semid perms nsems uid gid cuid cgid otime ctime */
                ok = sscanf(line, "%ld %ld %lo %ld %ld %ld %ld %ld %ld %ld", &key, &id, &perms, &a, &b, &c, &cuid, &cgid, &t1,
                            &ctime) == 10;
            if (!ok || (uid_t)cuid != uid || ctime < (long)since - 1) continue;
            if (!anyone && !(k == 0 && pid_seen(cpid))) continue;
            if (k == 0) shmctl((int)id, IPC_RMID, NULL);
            else if (k == 1) msgctl((int)id, IPC_RMID, NULL);
            else semctl((int)id, 0, IPC_RMID);
        }
        fclose(f);
    }
}

/* Run argv (exec_fd: the worker, opened before anything is hidden) with
   `pre` written to its fd 4; collect its reply for at most `seconds`. */
static int run_worker(const sandbox* sb, int exec_fd, char** argv, const char* pre, int seconds, reply* r) {
    char scratch[4096], tmpl[4200];
    int out_fd, reaped = 0;
    size_t pre_len = strlen(pre), pre_done = 0;
    child c;
    double t0 = now(), deadline, next_scan = 0;
    time_t started = time(NULL);
    size_t tl = strlen(token), scanned = 0;
    int ended = 0, pre_sent = 0;
    memset(r, 0, sizeof *r);
    {   /* the hidden losses start afresh with each check, named by its preamble (token, mode, name) */
        const char* name = strchr(pre, '\n');
        if (name) name = strchr(name + 1, '\n');
        snprintf(loss_check, sizeof loss_check, "%s", name ? name + 1 : "");
        if (strchr(loss_check, '\n')) *strchr(loss_check, '\n') = 0;
        if (!losses) losses = calloc(MAX_LOSSES, sizeof *losses);
        n_losses = 0;
    }
    if (make_scratch(sb, scratch, sizeof scratch) != 0) { fprintf(stderr, "judge: no scratch folder: %s\n", strerror(errno)); return -1; }
    if (sb->scratch) {   /* not in the given folder, which the command writes: a name no one can guess */
        const char* t = getenv("TMPDIR");
        snprintf(tmpl, sizeof tmpl, "%s/s2r_run.out.XXXXXX", t && *t == '/' ? t : "/tmp");
        out_fd = mkstemp(tmpl);
    } else {
        snprintf(tmpl, sizeof tmpl, "%s.out", scratch);   /* beside the scratch folder, under its random name */
        out_fd = open(tmpl, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW, 0600);
    }
    /* unlinked at once: reachable by descriptor only */
    if (out_fd < 0) { remove_tree(scratch); return -1; }
    unlink(tmpl);
    if (geteuid() == 0 && fchown(out_fd, NOBODY, NOBODY) != 0) {}
    r->text = malloc(GRADE_REPLY_MAX + 1);
    if (!r->text || start_child(sb, scratch, seconds, out_fd, exec_fd, argv, &c) != 0) {
        close(out_fd);
        remove_tree(scratch);
        return -1;
    }
    n_seen_pids = 0;
    note_pid(c.pid);
    if (c.top > 0) note_pid(c.top);
    signal(SIGPIPE, SIG_IGN);
    /* the preamble is written as the child reads it (a child that never
       reads cannot block the judge) */
    fcntl(c.preamble, F_SETFL, O_NONBLOCK);
    fcntl(c.reply, F_SETFL, O_NONBLOCK);
    deadline = t0 + seconds;
    for (;;) {
        struct pollfd p[2];
        int st, w;
        p[0].fd = c.reply; p[0].events = POLLIN; p[0].revents = 0;
        p[1].fd = c.preamble; p[1].events = POLLOUT; p[1].revents = 0;
        poll(p, c.preamble >= 0 && !pre_sent ? 2 : 1, 50);
        if (c.preamble >= 0 && !pre_sent) {
            ssize_t put = write(c.preamble, pre + pre_done, pre_len - pre_done);
            if (put > 0) pre_done += (size_t)put;
            if (pre_done == pre_len) pre_sent = 1;   /* kept open: the hidden losses' answers follow */
            else if (put < 0 && errno != EAGAIN && errno != EINTR) { close(c.preamble); c.preamble = -1; }
        }
        for (;;) {
            ssize_t got;
            if (r->len >= GRADE_REPLY_MAX) { r->overflow = 1; break; }
            got = read(c.reply, r->text + r->len, GRADE_REPLY_MAX - r->len);
            if (got <= 0) break;
            r->len += (size_t)got;
        }
        for (;;) {   /* the questions of its complete lines ("TOKEN Q ..."), each answered at once */
            char* line = r->text + scanned;
            char* nl = memchr(line, '\n', r->len - scanned);
            size_t n;
            if (!nl) break;
            n = (size_t)(nl - line);
            scanned += n + 1;
            if (pre_sent && c.preamble >= 0 && n > tl + 3 && n < tl + 512 && memcmp(line, token, tl) == 0 &&
                memcmp(line + tl, " Q ", 3) == 0) {
                char q[512], answer[64];
                memcpy(q, line + tl + 3, n - tl - 3);
                q[n - tl - 3] = 0;
                loss_answer(q, answer, sizeof answer);
                if (write(c.preamble, answer, strlen(answer)) < 0) {}   /* a worker that does not read loses its answers */
            }
        }
        /* its reply ended ("TOKEN END" is the last line a worker writes): it has END_GRACE s to exit */
        if (!ended && tl && r->len >= tl + 5 && memcmp(r->text + r->len - 5, " END\n", 5) == 0 &&
            memcmp(r->text + r->len - 5 - tl, token, tl) == 0 && (r->len == tl + 5 || r->text[r->len - 6 - tl] == '\n')) {
            ended = 1;
            if (now() + END_GRACE < deadline) { deadline = now() + END_GRACE; r->lingered = -1; }
        }
        w = waitpid(c.pid, &st, WNOHANG);
        if (w == c.pid) { r->status = st; reaped = 1; if (r->lingered < 0) r->lingered = 0; break; }
        if (now() >= next_scan) {   /* all its processes' memory, four times a second */
            long mb = check_memory_mb();
            next_scan = now() + 0.25;
            if (mb > CHECK_MEMORY_MB) {
                r->memory_mb = mb;
                if (c.top > 0) kill(c.top, SIGKILL);
                kill(-c.pid, SIGKILL);
                while (waitpid(c.pid, &st, 0) < 0 && errno == EINTR) {}
                r->status = st;
                reaped = 1;
                break;
            }
        }
        if (r->overflow || now() > deadline) {
            r->timed_out = !r->overflow && r->lingered >= 0;
            if (r->lingered < 0) r->lingered = 1;
            if (c.top > 0) kill(c.top, SIGKILL);   /* the namespace with it; the intermediate reaps it */
            while (waitpid(c.pid, &st, 0) < 0 && errno == EINTR) {}
            r->status = st;
            reaped = 1;
            break;
        }
    }
    for (;;) {   /* what was still in the pipe */
        ssize_t got;
        if (r->len >= GRADE_REPLY_MAX) break;
        got = read(c.reply, r->text + r->len, GRADE_REPLY_MAX - r->len);
        if (got <= 0) break;
        r->len += (size_t)got;
    }
    r->text[r->len] = 0;
    if (c.preamble >= 0) close(c.preamble);
    kill_child(&c, reaped);   /* anything left in its group (no namespace: setsid escapes this) */
    {   /* the worker's own wait status, from the ns init */
        int st;
        fcntl(c.done, F_SETFL, O_NONBLOCK);
        if (!r->timed_out && read(c.done, &st, sizeof st) == (ssize_t)sizeof st) r->status = st;
        close(c.done);
    }
    {   /* the sandbox's own word: a code only when it failed before the program ran */
        unsigned char b;
        fcntl(c.failed, F_SETFL, O_NONBLOCK);
        r->sandbox_failed = read(c.failed, &b, 1) == 1 ? b : 0;
        close(c.failed);
    }
    reap_orphans();
    if (!c.in_ns) remove_ipc(geteuid() == 0 ? NOBODY : geteuid(), started);
    close(c.reply);
    r->seconds = now() - t0;
    r->output = read_fd_all(out_fd, 64 << 10, &r->output_len);
    close(out_fd);
    if (!sb->scratch) remove_tree(scratch);
    return 0;
}

/* ---- the token ---------------------------------------------------------------- */

static void make_token(void) {
    unsigned char b[16];
    int fd = open("/dev/urandom", O_RDONLY), i;
    if (fd < 0 || read(fd, b, sizeof b) != (ssize_t)sizeof b) {
        uint64_t x = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
        for (i = 0; i < 16; i++) { x = x * 6364136223846793005ULL + 1442695040888963407ULL; b[i] = (unsigned char)(x >> 56); }
    }
    if (fd >= 0) close(fd);
    for (i = 0; i < 16; i++) sprintf(token + 2 * i, "%02x", b[i]);
}

/* ---- parsing a reply -------------------------------------------------------- */
typedef struct parsed {
    int      ended, malformed, seed_read;
    long     calls_limit;               /* C: the check's search calls per hidden loss */
    char     why[200];                  /* first malformed line, said          */
    uint32_t ids[MAX_IDS * 4];
    int      n_ids, failed_ids;
    char     messages[8][512];
    int      n_messages, more_messages;
    int      n_far;                     /* G lines that failed (the first 3 said) */
    entry*   got;                       /* A/R/K records                       */
    int      n_got;
    struct label { char key[KEY_LEN]; int index; char text[200]; }* labels;   /* MAX_LABELS */
    int      n_labels;
    /* listing */
    check    table[MAX_CHECKS];
    int      n_table;
} parsed;

/* Text the worker sent, made fit for a terminal and a log: at most `cap`
   bytes (cut with "..."), every byte outside printable ASCII (control
   characters, terminal escapes, and anything else) shown as '?'. */
#define MESSAGE_MAX 511       /* bytes of one failure message shown         */
#define LABEL_MAX 199         /* bytes of one label                          */
static void shown_text(char* to, size_t size, const char* from, size_t cap) {
    size_t i, n = strlen(from);
    if (cap >= size) cap = size - 1;
    for (i = 0; i < n && i < cap; i++) {
        unsigned char c = (unsigned char)from[i];
        to[i] = c >= 0x20 && c < 0x7f ? (char)c : '?';
    }
    to[i] = 0;
    if (n > cap && cap > 3) memcpy(to + cap - 3, "...", 4);
}

static int parse_values(char* p, entry* e) {
    int k, used;
    for (k = 0; k < e->n; k++) {
        if (sscanf(p, "%lf%n", &e->v[k], &used) != 1) return 0;
        p += used;
    }
    while (*p == ' ') p++;
    return *p == 0;
}

static void parse_reply(char* text, parsed* q) {
    static char seen_text[2048];   /* a message or label with the hidden losses' names filled in */
    size_t tl = strlen(token);
    char* line = text;
    memset(q, 0, sizeof *q);
    q->got = calloc(MAX_ENTRIES, sizeof *q->got);
    q->labels = calloc(MAX_LABELS, sizeof *q->labels);
    while (line && *line) {
        char* next = strchr(line, '\n');
        char* p;
        int used;
        if (!next) { q->malformed = 1; snprintf(q->why, sizeof q->why, "its last line was cut off"); break; }
        *next = 0;
        if (strncmp(line, token, tl) != 0 || line[tl] != ' ') {
            if (!q->malformed) {
                char seen[64];
                shown_text(seen, sizeof seen, line, 60);
                snprintf(q->why, sizeof q->why, "a line without this run's token: \"%s\"", seen);
            }
            q->malformed = 1;
            line = next + 1;
            continue;
        }
        p = line + tl + 1;
        if (q->ended) { q->malformed = 1; snprintf(q->why, sizeof q->why, "lines after its end"); }
        else if (strcmp(p, "END") == 0) q->ended = 1;
        else if (strcmp(p, "S") == 0) q->seed_read = 1;
        else if (p[0] == 'C' && p[1] == ' ') {   /* kept from the reference's recording only */
            if (sscanf(p + 2, "%ld", &q->calls_limit) != 1 || q->calls_limit < 1) {
                q->malformed = 1;
                snprintf(q->why, sizeof q->why, "a malformed calls line");
            }
        }
        else if (p[0] == 'X' && p[1] == ' ') {
            unsigned long id;
            int ok;
            if (sscanf(p + 2, "%lu %d", &id, &ok) == 2) {
                if (q->n_ids < MAX_IDS * 4) q->ids[q->n_ids++] = (uint32_t)id;
                if (!ok) q->failed_ids++;
            } else { q->malformed = 1; snprintf(q->why, sizeof q->why, "a malformed expectation line"); }
        } else if (p[0] == 'Q' && p[1] == ' ') {   /* a question, answered while it ran */
        } else if (p[0] == 'G' && p[1] == ' ') {   /* a failure when t is over LIMIT tol from loss ID's minimum */
            int id;
            double t, limit;
            if (sscanf(p + 2, "%d %lf %lf %n", &id, &t, &limit, &used) == 3 && id >= 0 && id < n_losses) {
                const hidden_loss* l = &losses[id];
                double err = fabs(t - loss_argmin(l)) / l->tol;
                if (!(err <= limit) && q->n_far++ < 3) {
                    char text[1024], num[64], *at;
                    size_t k = 0;
                    const char* from = p + 2 + used;
                    while (*from && k + 1 < sizeof text) {   /* {min} and {err} */
                        if (strncmp(from, "{min}", 5) == 0 || strncmp(from, "{err}", 5) == 0) {
                            snprintf(num, sizeof num, from[1] == 'm' ? "%.9g" : "%.3g", from[1] == 'm' ? loss_argmin(l) : err);
                            for (at = num; *at && k + 1 < sizeof text; at++) text[k++] = *at;
                            from += 5;
                        } else text[k++] = *from++;
                    }
                    text[k] = 0;
                    loss_names(seen_text, sizeof seen_text, text);
                    if (q->n_messages < 8) shown_text(q->messages[q->n_messages++], sizeof q->messages[0], seen_text, MESSAGE_MAX);
                    else q->more_messages++;
                }
            } else { q->malformed = 1; snprintf(q->why, sizeof q->why, "a malformed distance line"); }
        } else if (p[0] == 'F' && p[1] == ' ') {
            loss_names(seen_text, sizeof seen_text, p + 2);
            if (q->n_messages < 8) shown_text(q->messages[q->n_messages++], sizeof q->messages[0], seen_text, MESSAGE_MAX);
            else q->more_messages++;
        } else if ((p[0] == 'A' || p[0] == 'R' || p[0] == 'K') && p[1] == ' ' && q->n_got < MAX_ENTRIES) {
            entry* e = &q->got[q->n_got];
            int ok;
            e->kind = (char)tolower((unsigned char)p[0]);
            e->tol = 0;
            ok = p[0] == 'A' ? sscanf(p + 2, "%95s %lf %d%n", e->key, &e->tol, &e->n, &used) == 3
                             : sscanf(p + 2, "%95s %d%n", e->key, &e->n, &used) == 2;
            ok = ok && e->n >= 1 && e->n <= MAX_VALUES && parse_values(p + 2 + used, e);
            if (ok) q->n_got++;
            else { q->malformed = 1; snprintf(q->why, sizeof q->why, "a malformed result line"); }
        } else if (p[0] == 'L' && p[1] == ' ') {
            struct label* l = q->n_labels < MAX_LABELS ? &q->labels[q->n_labels] : NULL;
            char key[KEY_LEN];
            int index;
            if (sscanf(p + 2, "%95s %d %n", key, &index, &used) == 2) {
                if (l) {
                    snprintf(l->key, sizeof l->key, "%s", key);
                    l->index = index;
                    loss_names(seen_text, sizeof seen_text, p + 2 + used);
                    shown_text(l->text, sizeof l->text, seen_text, LABEL_MAX);
                    q->n_labels++;
                }
            } else { q->malformed = 1; snprintf(q->why, sizeof q->why, "a malformed label line"); }
        } else if (p[0] == 'T' && p[1] == ' ' && q->n_table < MAX_CHECKS) {
            check* c = &q->table[q->n_table];
            char kind[32];
            memset(c, 0, sizeof *c);
            if (sscanf(p + 2, "%d %d %31s %d %127s %n", &c->points, &c->seconds, kind, &c->hidden, c->needs, &used) == 5 &&
                c->seconds > 0 && c->points >= 0) {
                c->integration = strncmp(kind, "integration", 11) == 0;
                c->data = strstr(kind, "-data") != NULL;   /* runs no student code */
                snprintf(c->name, sizeof c->name, "%s", p + 2 + used);
                q->n_table++;
            } else { q->malformed = 1; snprintf(q->why, sizeof q->why, "a malformed table line"); }
        } else {
            q->malformed = 1;
            char seen[48];
            shown_text(seen, sizeof seen, p, 40);
            snprintf(q->why, sizeof q->why, "an unknown line \"%s\"", seen);
        }
        line = next + 1;
    }
}

/* ---- why a check stopped ------------------------------------------------------ */
static void say_stop(const reply* r, int seconds, int in_list) {
    int st = r->status;
    if (r->memory_mb)
        printf("      - its processes held %ld MB of memory together, more than the %ld MB a check may: stopped\n", r->memory_mb,
               CHECK_MEMORY_MB);
    else if (r->timed_out)
        printf("      - did not finish within %d s (an endless loop, a search that never stops, or far too slow?)\n", seconds);
    else if (r->overflow)
        printf("      - sent more than %d MB of results: stopped\n", GRADE_REPLY_MAX >> 20);
    else if (WIFSIGNALED(st)) {
        int sig = WTERMSIG(st);
        if (sig == SIGXCPU) printf("      - used more than its CPU time (%d s of CPU): stopped\n", 4 * seconds + 5);
        else if (sig == SIGXFSZ) printf("      - wrote a file larger than %ld MB: stopped\n", FILE_MB);
        else if (sig == SIGKILL) printf("      - killed (signal 9): out of memory, or killed from outside\n");
        else if (sig == SIGSEGV)
            printf("      - crashed: %s (signal %d): a bad pointer (a NULL from malloc past the %ld MB memory limit among "
                   "them), or an endless recursion that overflowed the stack; run it under a debugger or with "
                   "-fsanitize=address to find where\n", strsignal(sig), sig, MEMORY_MB);
        else if (sig == SIGABRT)
            printf("      - aborted (signal %d): an assert, abort(), or malloc failing past the %ld MB memory limit\n", sig,
                   MEMORY_MB);
        else printf("      - crashed: %s (signal %d); run it under a debugger or with -fsanitize=address to find where\n",
                    strsignal(sig), sig);
    } else if (WIFEXITED(st)) {
        int code = WEXITSTATUS(st);
        if (r->sandbox_failed == 127) printf("      - the grader program could not be started\n");
        else if (r->sandbox_failed) printf("      - the sandbox could not start (%d): see judge --sandbox\n", r->sandbox_failed);
        else printf("      - stopped before the check ended, with exit status %d: did your code call exit() or _exit()? "
                    "(a check passes only when it runs to its end)\n", code);
    }
    (void)in_list;
}

/* What the child printed, under the verdict, marked as its own. */
static void replay_output(const reply* r) {
    const char* p = r->output;
    int lines = 0, shown = 0;
    if (!p) return;
    while (*p) {
        const char* e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (++lines <= 30) {
            size_t i;
            printf("      | ");
            for (i = 0; i < n && i < 300; i++) putchar(isprint((unsigned char)p[i]) || p[i] == '\t' ? p[i] : '?');
            putchar('\n');
            shown++;
        }
        p += n + (e ? 1 : 0);
    }
    if (lines > shown) printf("      | (%d more lines of output)\n", lines - shown);
}

/* ---- the preamble ------------------------------------------------------------- */
static char* preamble(const char* mode, const check* c, int index, const entry* kept, int n_kept, const char* submission) {
    size_t cap = 1 << 20, n = 0;
    char* b = malloc(cap);
    int i, k;
#define PUT(...) do { if (n < cap) n += (size_t)snprintf(b + n, cap - n, __VA_ARGS__); } while (0)
    PUT("%s\n%s\n", token, mode);
    PUT("%s\n", c ? c->name : "-");
    PUT("%s\n", submission ? "submission.txt" : "-");
    if (run_seed && c) PUT("S %llu\n", run_seed);
    for (i = 0; c && i < n_entries; i++) {
        const entry* e = &entries[i];
        if (e->check != index || e->kind != 'r') continue;
        PUT("R %s %d", e->key, e->n);
        for (k = 0; k < e->n; k++) PUT(" %.17g", e->v[k]);
        PUT("\n");
    }
    for (i = 0; i < n_kept; i++) {
        PUT("K %s %d", kept[i].key, kept[i].n);
        for (k = 0; k < kept[i].n; k++) PUT(" %.17g", kept[i].v[k]);
        PUT("\n");
    }
    PUT("END\n");
#undef PUT
    return b;
}

/* tol >= 0: relative (as grade_close); tol < 0: absolute, -tol.  A NaN
   the reference gave (the contract asks for it) is matched by a NaN only. */
static int close_enough(double got, double want, double tol) {
    double scale = fabs(want) > 1 ? fabs(want) : 1;
    if (isnan(got) || isnan(want)) return isnan(got) && isnan(want);
    if (isinf(want)) return got == want;
    return tol < 0 ? fabs(got - want) <= -tol : fabs(got - want) <= tol * scale;
}

/* The label the check sent for value v of key (NULL: none). */
static const char* label_of(const parsed* q, const char* key, int v) {
    int i;
    for (i = 0; i < q->n_labels; i++)
        if (q->labels[i].index == v && strcmp(q->labels[i].key, key) == 0) return q->labels[i].text;
    return NULL;
}

/* "within 1e-09 (relative) of", "within 0.05 of" */
static const char* tolerance_text(double tol) {
    static char b[64];
    if (tol < 0) snprintf(b, sizeof b, "within %g of", -tol);
    else snprintf(b, sizeof b, "within %g (relative) of", tol);
    return b;
}

/* ---- the two modes -------------------------------------------------------------- */
typedef struct run {
    const char* worker;
    const char* unit_worker;   /* for the checks that need no other exercise (NEEDS "-"): on a library
                                  with no exercise's reference; NULL: worker */
    const char* answers;
    const char* record;
    const char* submission;
    const char* only;
    const char* result;
    const char* name;     /* who is graded, for the first line            */
    const char* base;     /* --record --seed: the fixed inputs' answers   */
    const char* skeleton; /* --record --seed: the skeleton as handed out, a
                             worker of its own (a partial replay's test)  */
    const char* secret;   /* --record --seed: a file of the instructor's one number, from
                             which and the seed the hidden losses' key comes */
    int         units;    /* --units: the unit checks alone               */
    unsigned long long seed;
    sandbox     sb;
} run;

static int open_worker(const char* path) {
    int fd = open(path, O_RDONLY | O_CLOEXEC), high;
    if (fd < 0) { fprintf(stderr, "judge: cannot open the grader program %s: %s\n", path, strerror(errno)); return -1; }
    high = fcntl(fd, F_DUPFD_CLOEXEC, 200);   /* clear of the child's 0..4 */
    close(fd);
    return high;
}

/* The submission (data) copied into the scratch's reach: the child gets a
   path inside its own folder.  Here: the text itself, in the preamble's
   place... kept simple: the judge copies it next to each check's scratch. */

/* Record: the reference's table and replies become the answers. */
/* While answers are recorded: whether the reference failed check c (its
   reply q incomplete, malformed or with a failure), said as a student's
   failure is, with what it printed.  1 when it failed. */
static int reference_failed(const check* c, const parsed* q, const reply* r) {
    int k;
    if (q->ended && !q->malformed && !q->n_messages && !q->n_far && !q->failed_ids) return 0;
    printf("FAIL %-58s 0/%d\n", c->name, c->points);
    for (k = 0; k < q->n_messages; k++) printf("      - %s\n", q->messages[k]);
    if (q->malformed) printf("      - %s\n", q->why);
    if (!q->ended) say_stop(r, c->seconds, 0);
    replay_output(r);
    return 1;
}

static int record(run* R) {
    int fd = open_worker(R->worker), i, j;
    char* argv[3];
    char* pre;
    reply r;
    parsed* q = calloc(1, sizeof *q);
    entry kept[64];
    int n_kept = 0;
    if (fd < 0 || !q) return 2;
    argv[0] = (char*)R->worker; argv[1] = (char*)"--worker"; argv[2] = NULL;
    pre = preamble("list", NULL, -1, NULL, 0, NULL);
    if (run_worker(&R->sb, fd, argv, pre, 60, &r) != 0) return 2;
    parse_reply(r.text, q);
    if (!q->ended || q->malformed || q->n_table == 0) {
        fprintf(stderr, "judge: the reference grader did not list its checks (%s)\n", q->malformed ? q->why : "no end");
        say_stop(&r, 60, 1);
        replay_output(&r);
        return 2;
    }
    n_checks = q->n_table;
    memcpy(checks, q->table, sizeof checks[0] * (size_t)n_checks);
    free(pre); free(r.text); free(r.output); free(q->got); free(q->labels);
    printf("grading the reference (recording its answers)\n");
    for (i = 0; i < n_checks; i++) {
        check* c = &checks[i];
        int k;
        pre = preamble("record", c, i, kept, n_kept, R->submission);
        if (run_worker(&R->sb, fd, argv, pre, c->seconds, &r) != 0) return 2;
        parse_reply(r.text, q);
        if (reference_failed(c, q, &r)) {
            fprintf(stderr, "judge: the reference fails its own grader: no answers written\n");
            return 1;
        }
        for (k = 0; k < q->n_got && q->got[k].kind != 'a'; k++) {}
        if (k == q->n_got && !c->data) {
            fprintf(stderr, "judge: grader bug: the check \"%s\" sends no result for the judge to compare (grade_answer): "
                            "its verdict would be the worker's word, which the student's code in that process can forge; "
                            "no answers written\n", c->name);
            return 1;
        }
        c->seeded = q->seed_read;
        c->calls_limit = q->calls_limit;
        if (!c->seeded && !c->data && !c->integration) {
            fprintf(stderr, "judge: grader bug: the unit check \"%s\" draws none of its inputs from the grading seed "
                            "(grade_seed): its answers on the instructor's run would be the public ones, which a reply "
                            "forged from expected.txt carries; no answers written\n", c->name);
            return 1;
        }
        printf("PASS %-58s %d/%d\n", c->name, c->points, c->points);
        replay_output(&r);
        for (k = 0; k < q->n_ids && c->n_ids < MAX_IDS; k++) {
            for (j = 0; j < c->n_ids && c->ids[j] != q->ids[k]; j++) {}
            if (j == c->n_ids) c->ids[c->n_ids++] = q->ids[k];
        }
        for (k = 0; k < q->n_got; k++) {
            entry e = q->got[k];
            e.check = i;
            if (e.kind == 'k') { if (n_kept < 64) kept[n_kept++] = e; }
            else if (n_entries < MAX_ENTRIES) entries[n_entries++] = e;
        }
        free(pre); free(r.text); free(r.output); free(q->got); free(q->labels);
        fflush(stdout);
    }
    if (write_answers(R->record) != 0) return 2;
    printf("score: the reference passes every check; its answers are in %s\n", R->record);
    return 0;
}

/* Record on a seed: the fixed answers (R->base), with every check that
   reads the seed run again on the reference with R->seed. */
/* A partial replay: the skeleton as handed out (the stub, which does no
   work) run on check i on the seed, with every result that is the same on
   the seed as on the fixed inputs (public: expected.txt holds it) taken
   as replayed and the others as the stub sent them.  1 (after saying so)
   when that would pass the check: its seeded results are ones the stub
   gets right, and the rest a forger copies from expected.txt. */
static int partial_replay_passes(run* R, int fd_skeleton, const check* c, int i, const entry* fresh, int n_fresh,
                                 const entry* kept, int n_kept) {
    char* argv[3];
    char* pre;
    char stubbed[400] = "";
    reply r;
    parsed* q = calloc(1, sizeof *q);
    int k, j, v, passes = 1, n_stubbed = 0;
    if (!q) return 0;
    argv[0] = (char*)R->skeleton; argv[1] = (char*)"--worker"; argv[2] = NULL;
    pre = preamble("check", c, i, kept, n_kept, R->submission);
    if (run_worker(&R->sb, fd_skeleton, argv, pre, c->seconds, &r) != 0) { free(pre); free(q); return 0; }
    parse_reply(r.text, q);
    for (k = 0; k < n_fresh && passes; k++) {
        const entry* want = &fresh[k];
        int public_key = 0;
        if (want->kind != 'a') continue;
        for (j = 0; j < n_entries; j++)
            if (entries[j].check == i && entries[j].kind == 'a' && strcmp(entries[j].key, want->key) == 0) break;
        if (j < n_entries && entries[j].n == want->n) {
            for (v = 0; v < want->n && close_enough(entries[j].v[v], want->v[v], want->tol); v++) {}
            public_key = v == want->n;
        }
        if (public_key) continue;
        for (j = 0; j < q->n_got; j++) if (q->got[j].kind == 'a' && strcmp(q->got[j].key, want->key) == 0) break;
        if (j == q->n_got || q->got[j].n != want->n) { passes = 0; break; }
        for (v = 0; v < want->n && close_enough(q->got[j].v[v], want->v[v], want->tol); v++) {}
        if (v < want->n) { passes = 0; break; }
        if (n_stubbed++ < 4) snprintf(stubbed + strlen(stubbed), sizeof stubbed - strlen(stubbed), " %s", want->key);
    }
    if (passes)
        fprintf(stderr, "judge: grader bug: on the seed %llu the check \"%s\" passes for the skeleton as handed out with its "
                        "seed-independent results replayed from expected.txt (the stub itself gets the seeded%s%s right): "
                        "draw more of its inputs from the seed; no answers written\n", run_seed, c->name,
                n_stubbed ? " results" : "", n_stubbed ? stubbed : " results (it has none)");
    free(pre); free(r.text); free(r.output); free(q->got); free(q->labels); free(q);
    return passes;
}

static int record_seeded(run* R) {
    int fd = open_worker(R->worker), i, j, k;
    int fd_skeleton = R->skeleton ? open_worker(R->skeleton) : -1;
    char* argv[3];
    parsed* q = calloc(1, sizeof *q);
    entry* fresh = calloc(MAX_ENTRIES, sizeof *fresh);
    entry kept[64];
    int n_kept = 0, n_fresh, redrawn = 0;
    if (fd < 0 || !q || !fresh || (R->skeleton && fd_skeleton < 0)) return 2;
    if (load_answers(R->base) != 0) return 2;
    if (run_seed) { fprintf(stderr, "judge: --base %s is a seeded run's answers, not the fixed inputs'\n", R->base); return 2; }
    run_seed = R->seed;
    {   /* the key of the hidden losses' centres on this seed: from the instructor's secret (--secret: the
           same seed, the same key, the same answers) or fresh; kept in the answers, never in a check's sight */
        unsigned long long secret = 0;
        if (R->secret) {
            FILE* f = fopen(R->secret, "r");
            if (!f || fscanf(f, "%llu", &secret) != 1 || !secret) {
                fprintf(stderr, "judge: --secret %s: no number in it (a file of one number, 1 .. 2^64 - 1)\n", R->secret);
                if (f) fclose(f);
                return 2;
            }
            fclose(f);
            loss_key = mix64(secret ^ mix64(run_seed));
        } else {
            int fd = open("/dev/urandom", O_RDONLY);
            if (fd < 0 || read(fd, &loss_key, sizeof loss_key) != (ssize_t)sizeof loss_key) {
                fprintf(stderr, "judge: cannot read /dev/urandom for the hidden losses' key\n");
                return 2;
            }
            close(fd);
        }
        if (!loss_key) loss_key = 1;
    }
    argv[0] = (char*)R->worker; argv[1] = (char*)"--worker"; argv[2] = NULL;
    printf("grading the reference on the seed %llu (recording its answers)\n", run_seed);
    for (i = 0; i < n_checks; i++) {
        check* c = &checks[i];
        reply r;
        char* pre;
        int replayed = 1;
        if (!c->seeded) continue;
        pre = preamble("record", c, i, kept, n_kept, R->submission);
        if (run_worker(&R->sb, fd, argv, pre, c->seconds, &r) != 0) return 2;
        parse_reply(r.text, q);
        if (reference_failed(c, q, &r)) {
            fprintf(stderr, "judge: the reference fails its own grader on the seed %llu: no answers written\n", run_seed);
            return 1;
        }
        printf("PASS %-58s %d/%d\n", c->name, c->points, c->points);
        /* its answers on the seed, and whether they are the fixed ones */
        n_fresh = 0;
        for (k = 0; k < q->n_got; k++) {
            entry e = q->got[k];
            e.check = i;
            if (e.kind == 'k') { if (n_kept < 64) kept[n_kept++] = e; continue; }
            if (n_fresh < MAX_ENTRIES) fresh[n_fresh++] = e;
        }
        /* a replay of the fixed answers: would every result the seed asks for be matched? */
        for (k = 0; k < n_fresh && replayed; k++) {
            int v;
            if (fresh[k].kind != 'a') continue;
            for (j = 0; j < n_entries; j++)
                if (entries[j].check == i && entries[j].kind == 'a' && strcmp(entries[j].key, fresh[k].key) == 0) break;
            if (j == n_entries || entries[j].n != fresh[k].n) { replayed = 0; break; }
            for (v = 0; v < fresh[k].n; v++)
                if (!close_enough(entries[j].v[v], fresh[k].v[v], fresh[k].tol)) { replayed = 0; break; }
        }
        if (replayed) {
            fprintf(stderr, "judge: grader bug: the check \"%s\" reads the seed, but its fixed answers pass it on the seed "
                            "%llu: a reply replayed from expected.txt would; no answers written\n", c->name, run_seed);
            return 1;
        }
        if (fd_skeleton >= 0 && !c->integration && !c->data && partial_replay_passes(R, fd_skeleton, c, i, fresh, n_fresh, kept, n_kept))
            return 1;
        /* the check's fixed answers and expectations give way to the seed's */
        for (j = 0, k = 0; j < n_entries; j++) if (entries[j].check != i) entries[k++] = entries[j];
        n_entries = k;
        for (k = 0; k < n_fresh && n_entries < MAX_ENTRIES; k++) entries[n_entries++] = fresh[k];
        c->n_ids = 0;
        for (k = 0; k < q->n_ids && c->n_ids < MAX_IDS; k++) {
            for (j = 0; j < c->n_ids && c->ids[j] != q->ids[k]; j++) {}
            if (j == c->n_ids) c->ids[c->n_ids++] = q->ids[k];
        }
        redrawn++;
        free(pre); free(r.text); free(r.output); free(q->got); free(q->labels);
        fflush(stdout);
    }
    if (write_answers(R->record) != 0) return 2;
    printf("score: the reference passes every check on the seed %llu (%d checks drawn from it); its answers are in %s\n",
           run_seed, redrawn, R->record);
    return 0;
}

/* The hidden losses' calls as the judge answered them, whatever the worker
   counted: a call outside a loss's [lo, hi], or more calls on one loss
   than the check's recorded limit, is a failure of the check (a message). */
static void judge_loss_calls(const check* c, parsed* q) {
    long most = 0;
    int l, worst = -1, outside = -1;
    for (l = 0; l < n_losses; l++) {
        if (losses[l].calls > most) most = losses[l].calls, worst = l;
        if (losses[l].outside && outside < 0) outside = l;
    }
    if (outside >= 0 && q->n_messages < 8)
        snprintf(q->messages[q->n_messages++], sizeof q->messages[0], "a search asked for the loss at t = %.9g, outside "
                 "its bounds [%.9g, %.9g] (%ld such calls, counted by the judge): clamp every probe into [lo, hi]",
                 losses[outside].first_outside, losses[outside].lo, losses[outside].hi, losses[outside].outside);
    else if (outside >= 0) q->more_messages++;
    if (c->calls_limit > 0 && most > c->calls_limit && q->n_messages < 8)
        snprintf(q->messages[q->n_messages++], sizeof q->messages[0], "a search made %ld loss calls, more than the %ld "
                 "this check allows (counted by the judge, calls made around the loss function included; on [%.9g, "
                 "%.9g])", most, c->calls_limit, losses[worst].lo, losses[worst].hi);
    else if (c->calls_limit > 0 && most > c->calls_limit) q->more_messages++;
}

/* Grade: every check in its child, decided here. */
static int grade(run* R) {
    int fd = open_worker(R->worker), i, k, j;
    int fd_units = R->unit_worker ? open_worker(R->unit_worker) : fd;
    int passed = 0, failed = 0, points = 0, total = 0, unit_failed = 0, quiet_failed = 0, integration_selected = 0;
    char* argv[3];
    entry kept[64];
    int n_kept = 0;
    parsed* q = calloc(1, sizeof *q);
    FILE* res = NULL;
    if (fd < 0 || fd_units < 0 || !q) return 2;
    /* the worker's path (the compile folder's) is nothing a check needs to see in its command line */
    argv[0] = (char*)"grade"; argv[1] = (char*)"--worker"; argv[2] = NULL;
    if (run_seed)
        printf("grading seed: %llu (the checks marked (seeded) draw inputs from it; grade.sh --seed %llu gives this grade again)\n",
               run_seed, run_seed);
    else printf("grading seed: none (the public fixed inputs: the answers are expected.txt's)\n");
    for (i = 0, k = 0; i < n_checks; i++) {
        integration_selected |= checks[i].integration && !R->units && (!R->only || strstr(checks[i].name, R->only));
        k += !R->only || strstr(checks[i].name, R->only) != NULL;
    }
    if (k == 0) {   /* a typo would grade nothing and pass */
        fprintf(stderr, "judge: --only '%s' (GRADE_ONLY) matches no check; the checks are:\n", R->only);
        for (i = 0; i < n_checks; i++) fprintf(stderr, "  %s\n", checks[i].name);
        return 2;
    }
    for (i = 0; i < n_checks; i++) {
        check* c = &checks[i];
        reply r;
        char* pre;
        int bad = 0, shown = 0, quiet = 0, out = -1;
        if (R->units && c->integration) continue;
        if (R->only && !strstr(c->name, R->only)) {
            /* left out by --only, yet an integration check follows: the unit checks still gate it (run, not
               reported: else an integration check's points would rest on the worker's word alone) */
            if (c->integration || !integration_selected || c->hidden == 2) continue;
            quiet = 1;
            fflush(stdout);
            if ((out = dup(1)) < 0) return 2;
            { int null = open("/dev/null", O_WRONLY); if (null < 0 || dup2(null, 1) < 0) return 2; close(null); }
        }
        if (!quiet) total += c->points;
        if (c->hidden == 2) {   /* in a kit: the instructor's grader runs it */
            int band = 0;
            printf("---- %-58s -/%d\n      - not run here: it needs %s, still open in this kit (the kit's library holds "
                   "stubs there); the instructor's grader runs it\n", c->name, c->points, c->needs);
            for (k = 0; k < n_entries; k++)
                if (entries[k].check == i && entries[k].kind == 'a' && band++ < 6) {
                    if (band == 1) printf("      - it passes when:\n");
                    printf("        %s is %s", entries[k].key, tolerance_text(entries[k].tol));
                    for (j = 0; j < entries[k].n && j < 6; j++) printf(" %.4g", entries[k].v[j]);
                    printf("%s\n", entries[k].n > 6 ? " ..." : "");
                }
            if (band > 6) printf("        ... and %d more results (expected.txt holds them all)\n", band - 6);
            total -= c->points;
            continue;
        }
        if (c->integration && unit_failed) {
            printf("FAIL %-58s 0/%d\n      - skipped: make the unit checks %s pass first\n", c->name, c->points,
                   quiet_failed ? "(left out of this report by --only, not out of the gate)" : "above");
            failed++;
            continue;
        }
        pre = preamble("check", c, i, kept, n_kept, R->submission);
        if (run_worker(&R->sb, strcmp(c->needs, "-") == 0 ? fd_units : fd, argv, pre, c->seconds, &r) != 0) {
            printf("FAIL %-58s 0/%d\n      - could not start the check\n", c->name, c->points);
            if (quiet) {
                fflush(stdout);
                dup2(out, 1);
                close(out);
                unit_failed = quiet_failed = 1;
            } else failed++;
            free(pre);
            continue;
        }
        parse_reply(r.text, q);
        judge_loss_calls(c, q);
        bad = !q->ended || q->malformed || q->n_messages > 0 || q->n_far > 0 || q->failed_ids > 0;
        /* every expectation the reference evaluated must have been evaluated */
        for (k = 0; k < c->n_ids; k++) {
            for (j = 0; j < q->n_ids && q->ids[j] != c->ids[k]; j++) {}
            if (j == q->n_ids) { bad = 1; break; }
        }
        {
            int missing_ids = k < c->n_ids;
            char missing[KEY_LEN] = "";
            char cmp[8][512];
            int n_cmp = 0;
            /* every compared result against the answers */
            for (k = 0; k < n_entries; k++) {
                const entry* want = &entries[k];
                const entry* got = NULL;
                int v, wrong = 0;
                if (want->check != i || want->kind != 'a') continue;
                for (j = 0; j < q->n_got; j++)
                    if (q->got[j].kind == 'a' && strcmp(q->got[j].key, want->key) == 0) { got = &q->got[j]; break; }
                if (!got) {
                    char base[KEY_LEN], *dot;
                    bad = 1;
                    /* a key sent in chunks (key.1, key.2, ...; key.q1, ...) is named once */
                    snprintf(base, sizeof base, "%s", want->key);
                    if ((dot = strrchr(base, '.')) && (isdigit((unsigned char)dot[1]) || (dot[1] == 'q' && isdigit((unsigned char)dot[2]))))
                        *dot = 0;
                    if (q->ended && n_cmp < 8 && strcmp(base, missing) != 0)
                        snprintf(cmp[n_cmp++], sizeof cmp[0], "no result \"%s\" came back", base);
                    snprintf(missing, sizeof missing, "%s", base);
                    continue;
                }
                if (got->n != want->n) {
                    bad = 1;
                    if (n_cmp < 8) snprintf(cmp[n_cmp++], sizeof cmp[0], "%s: %d values came back, %d expected", want->key, got->n, want->n);
                    continue;
                }
                for (v = 0; v < want->n; v++)
                    if (!close_enough(got->v[v], want->v[v], want->tol)) {
                        const char* what = label_of(q, want->key, v);
                        bad = 1;
                        if (wrong++ < 3 && n_cmp < 8) {
                            /* agreeing to a float's 7 digits, not to the tolerance: say where to look */
                            int tight = want->tol >= 0 ? want->tol < 1e-6 : -want->tol < 1e-6 * fmax(1, fabs(want->v[v]));
                            const char* hint = tight && isfinite(got->v[v]) && isfinite(want->v[v]) &&
                                               close_enough(got->v[v], want->v[v], 1e-6)
                                                   ? " (the two agree to about 7 digits: is a value held in float?)" : "";
                            if (what)
                                snprintf(cmp[n_cmp++], sizeof cmp[0], "%s: got %.9g, the reference gives %.9g%s", what,
                                         got->v[v], want->v[v], hint);
                            else
                                snprintf(cmp[n_cmp++], sizeof cmp[0], "%s, value %d of %d: got %.9g, the reference gives %.9g%s",
                                         want->key, v + 1, want->n, got->v[v], want->v[v], hint);
                        }
                    }
            }
            printf("%s %-58s %d/%d%s\n", bad ? "FAIL" : "PASS", c->name, bad ? 0 : c->points, c->points,
                   run_seed && c->seeded ? "  (seeded)" : "");
            for (k = 0; k < q->n_messages; k++, shown++) printf("      - %s\n", q->messages[k]);
            if (q->more_messages) printf("      - ... and %d more\n", q->more_messages);
            for (k = 0; k < n_cmp; k++, shown++) printf("      - %s\n", cmp[k]);
            if (r.lingered)
                printf("      - it did not exit within %ld s of its reply's end: stopped there (a destructor or thread that "
                       "waits for ever?)\n", END_GRACE);
            if (q->malformed) { printf("      - its reply is not well formed (%s): it does not count\n", q->why); shown++; }
            if (!q->ended) { say_stop(&r, c->seconds, 0); shown++; }
            else if (bad && !shown && missing_ids)
                printf("      - the check ended before it had checked everything (part of it never ran): it does not count\n");
            else if (bad && !shown) printf("      - failed\n");
        }
        replay_output(&r);
        if (!bad)
            for (k = 0; k < q->n_got; k++)
                if (q->got[k].kind == 'k' && n_kept < 64) kept[n_kept++] = q->got[k];
        if (quiet) {
            fflush(stdout);
            dup2(out, 1);
            close(out);
            unit_failed |= bad;
            quiet_failed |= bad;
        } else if (bad) { failed++; unit_failed |= !c->integration; }
        else { passed++; points += c->points; }
        free(pre); free(r.text); free(r.output); free(q->got); free(q->labels);
        fflush(stdout);
    }
    if (namespaces_work != 1)
        printf("sandbox: NO namespaces here (judge --sandbox): this submission's code could read and change what the "
               "grading account can and see the other checks' processes; this grade is not safe against a hostile "
               "student\n");
    printf("score: %d / %d points\n", points, total);
    printf("%d passed, %d failed\n", passed, failed);
    if (R->result && (res = fopen(R->result, "w"))) {
        fprintf(res, "%d %d %d %d\n", points, total, passed, failed);
        fclose(res);
    }
    return failed ? 1 : 0;
}

/* --public: the answers a kit ships: no hidden check; an integration check
   whose needs are not all closed is kept as "run by the instructor" (its
   outcome band said, never run). */
static int make_public(const char* closed) {
    int i, k, m = 0, map[MAX_CHECKS];
    if (run_seed) { fprintf(stderr, "judge: --public: these are a seeded run's answers; a kit's are the fixed inputs'\n"); return 2; }
    for (i = 0; i < n_checks; i++) {
        map[i] = -1;
        if (checks[i].hidden == 1) continue;
        if (strcmp(checks[i].needs, "-") != 0) {
            char needs[128], *tok, *save;
            snprintf(needs, sizeof needs, "%s", checks[i].needs);
            for (tok = strtok_r(needs, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
                char pat[140];
                snprintf(pat, sizeof pat, ",%s,", tok);
                if (!closed || !strstr(closed, pat)) checks[i].hidden = 2;
            }
        }
        map[i] = m;
        checks[m] = checks[i];
        m++;
    }
    for (k = 0, i = 0; i < n_entries; i++) {
        if (map[entries[i].check] < 0) continue;
        if (checks[map[entries[i].check]].hidden == 2 && entries[i].kind == 'r') continue;
        entries[k] = entries[i];
        entries[k].check = map[entries[i].check];
        k++;
    }
    n_checks = m;
    n_entries = k;
    return write_answers("/dev/stdout") == 0 ? 0 : 2;
}

static int sandbox_report(void) {
    sandbox sb;
    reply r;
    char* argv[4];
    memset(&sb, 0, sizeof sb);
    argv[0] = (char*)"sh"; argv[1] = (char*)"-c"; argv[2] = (char*)"exit 0"; argv[3] = NULL;
    if (run_worker(&sb, -1, argv, "", 10, &r) != 0) return 2;
    printf("sandbox: a process group per check, killed with SIGKILL at its limit; RLIMIT_AS %ld MB, RLIMIT_FSIZE %ld MB, "
           "RLIMIT_CPU 4 x the limit + 5 s, RLIMIT_NPROC %ld%s, RLIMIT_NOFILE %ld; at most %ld MB resident in all its "
           "processes and their memfds (polled); a fresh scratch folder\n", MEMORY_MB, FILE_MB, PROCS,
           namespaces_work == 1 || geteuid() == 0 ? "" : " (not set: it would count every process of yours)", FILES,
           CHECK_MEMORY_MB);
    if (geteuid() == 0) printf("sandbox: run as root: each check runs as nobody (uid %d)\n", NOBODY);
    if (namespaces_work == 1)
        printf("sandbox: namespaces: yes - a PID and an IPC namespace (nothing outlives its check; SysV memory at most %d MB), no nested user namespace, no network, "
               "a root of its own: /usr and /etc read-only (/usr/local, /usr/share, /usr/src, /usr/games and /usr/lib/python* "
               "empty), a few devices, its own /proc and the scratch folder (a tmpfs of %ld MB, %ld files) - no repository, no "
               "home, no /opt, /srv, /mnt, no answers, no other student; a fixed environment\n", IPC_MB, SCRATCH_MB, SCRATCH_FILES);
    else
        printf("sandbox: namespaces: NO (unprivileged user namespaces are off here) - a check's process that calls setsid() "
               "can outlive it (the judge kills what it sees), its SysV IPC objects are removed when it ends, it has the "
               "network, and it can read and write what your account can: grade in a container or under an account that "
               "can lose nothing\n");
    return namespaces_work == 1 ? 0 : 1;
}

static int run_command(run* R, char** argv) {
    reply r;
    int seconds = (int)env_long("GRADE_RUN_SECONDS", 120);
    if (run_worker(&R->sb, -1, argv, "", seconds, &r) != 0) return 2;
    if (r.output_len) fwrite(r.output, 1, r.output_len, stdout);
    if (r.sandbox_failed == 127) { printf("judge: the program could not be started (not found, or not executable)\n"); return 127; }
    if (r.sandbox_failed) { printf("judge: the sandbox could not start (%d): see judge --sandbox\n", r.sandbox_failed); return r.sandbox_failed; }
    if (r.timed_out) { printf("judge: stopped after %d s\n", seconds); return 124; }
    if (r.memory_mb) { printf("judge: stopped: its processes held %ld MB of memory, over %ld MB\n", r.memory_mb, CHECK_MEMORY_MB); return 125; }
    return WIFEXITED(r.status) ? WEXITSTATUS(r.status) : 128 + WTERMSIG(r.status);
}

static int usage(void);
/* --copy FROM TO MAX_BYTES: grade.sh's copy of a student's file (copy_file):
   0 copied; 3 a symbolic link; 4 not a regular file; 5 over MAX_BYTES;
   2 another error. */
static int copy_command(const char* from, const char* to, const char* max) {
    char* end;
    long long m = strtoll(max, &end, 10);
    int rc;
    if (*end || m < 0) return usage();
    rc = copy_file(from, to, m);
    if (rc == 0) return 0;
    if (rc == COPY_LINK) { fprintf(stderr, "judge: --copy %s: a symbolic link\n", from); return 3; }
    if (rc == COPY_NOT_REGULAR) { fprintf(stderr, "judge: --copy %s: not a regular file\n", from); return 4; }
    if (rc == COPY_TOO_BIG) { fprintf(stderr, "judge: --copy %s: over %lld bytes\n", from, m); return 5; }
    fprintf(stderr, "judge: --copy %s to %s: %s\n", from, to, strerror(errno));
    return 2;
}

static int usage(void) {
    fprintf(stderr, "usage: judge --record FILE --worker BIN [--submission FILE]\n"
                    "       judge --record FILE --seed S --base FIXED --worker BIN [--skeleton BIN] [--secret FILE] [--submission FILE]\n"
                    "       judge --answers FILE --worker BIN [--unit-worker BIN] [--submission FILE] [--only TEXT] [--units] [--result FILE] [--name WHO] [--hide DIR]...\n"
                    "       judge --public FILE [--closed LIST]\n"
                    "       judge --run [--scratch DIR] [--hide DIR]... -- CMD ARGS...\n"
                    "       judge --sandbox\n"
                    "       judge --copy FROM TO MAX_BYTES\n");
    return 2;
}

int main(int argc, char** argv) {
    run R;
    const char *public_answers = NULL, *closed = NULL;
    int i, mode_run = 0;
    memset(&R, 0, sizeof R);
    if (argc > 0) {   /* its command line's memory, for wipe_command_line */
        args_start = argv[0];
        args_len = (size_t)(argv[argc - 1] + strlen(argv[argc - 1]) + 1 - argv[0]);
    }
    entries = calloc(MAX_ENTRIES, sizeof *entries);
    if (!entries) return 2;
    prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);          /* no check's process reads the judge's memory */
    prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);   /* what a check's processes orphan comes here, reaped */
    if (env_long("GRADE_NO_NAMESPACES", 0) == 1) namespaces_work = 0;   /* the sandbox without them (tests) */
    make_token();
    for (i = 1; i < argc; i++) {
        const char* a = argv[i];
        const char* v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--") == 0 && mode_run) { i++; break; }
        else if (strcmp(a, "--run") == 0) mode_run = 1;
        else if (strcmp(a, "--sandbox") == 0) return sandbox_report();
        else if (strcmp(a, "--copy") == 0) return i + 3 < argc ? copy_command(argv[i + 1], argv[i + 2], argv[i + 3]) : usage();
        else if (strcmp(a, "--units") == 0) R.units = 1;
        else if (!v) return usage();
        else if (strcmp(a, "--record") == 0) R.record = v, i++;
        else if (strcmp(a, "--answers") == 0) R.answers = v, i++;
        else if (strcmp(a, "--worker") == 0) R.worker = v, i++;
        else if (strcmp(a, "--unit-worker") == 0) R.unit_worker = v, i++;
        else if (strcmp(a, "--submission") == 0) R.submission = v, i++;
        else if (strcmp(a, "--only") == 0) R.only = v, i++;
        else if (strcmp(a, "--result") == 0) R.result = v, i++;
        else if (strcmp(a, "--name") == 0) R.name = v, i++;
        else if (strcmp(a, "--public") == 0) public_answers = v, i++;
        else if (strcmp(a, "--closed") == 0) closed = v, i++;
        else if (strcmp(a, "--base") == 0) R.base = v, i++;
        else if (strcmp(a, "--skeleton") == 0) R.skeleton = v, i++;
        else if (strcmp(a, "--secret") == 0) R.secret = v, i++;
        else if (strcmp(a, "--seed") == 0) {
            char* end;
            errno = 0;
            R.seed = strtoull(v, &end, 10);
            if (errno || *end || !*v || v[0] == '-') { fprintf(stderr, "judge: --seed %s: not a number 0 .. 2^64 - 1\n", v); return 2; }
            i++;
        }
        else if (strcmp(a, "--scratch") == 0) R.sb.scratch = v, i++;
        else if (strcmp(a, "--hide") == 0 && R.sb.n_hide < MAX_HIDE) {
            char* real = realpath(v, NULL);
            if (!real) { fprintf(stderr, "judge: --hide %s: %s\n", v, strerror(errno)); return 2; }
            R.sb.hide[R.sb.n_hide++] = real;
            i++;
        } else return usage();
    }
    R.sb.copy_in = R.submission;
    {   /* and nothing the judge knows the path of: the home, the folder it runs in, the grader's */
        const char* known[3];
        char* wdir = R.worker ? strdup(R.worker) : NULL;
        int k;
        if (wdir && strrchr(wdir, '/')) *strrchr(wdir, '/') = 0;
        else if (wdir) { free(wdir); wdir = NULL; }
        known[0] = getenv("HOME"); known[1] = "."; known[2] = wdir;
        for (k = 0; k < 3; k++) {
            char* real = known[k] && *known[k] ? realpath(known[k], NULL) : NULL;
            if (real && strcmp(real, "/") != 0 && R.sb.n_hide < MAX_HIDE) R.sb.hide[R.sb.n_hide++] = real;
            else free(real);
        }
        free(wdir);
    }
    {   /* the answers' folder is never in a check's sight */
        const char* file = R.answers ? R.answers : R.record;
        char* dir = file ? strdup(file) : NULL;
        char *slash, *real;
        if (dir && R.sb.n_hide < MAX_HIDE) {
            slash = strrchr(dir, '/');
            if (!slash) snprintf(dir, strlen(dir) + 1, ".");
            else if (slash == dir) dir[1] = 0;
            else *slash = 0;
            if ((real = realpath(dir, NULL)) != NULL) R.sb.hide[R.sb.n_hide++] = real;
        }
        free(dir);
    }
    if (mode_run) return i < argc ? run_command(&R, argv + i) : usage();
    if (public_answers) {
        char list[600];
        if (load_answers(public_answers) != 0) return 2;
        snprintf(list, sizeof list, ",%s,", closed ? closed : "");
        return make_public(list);
    }
    if (!R.worker || !R.record == !R.answers) return usage();
    if (R.record && R.seed) {
        if (!R.base) { fprintf(stderr, "judge: --record --seed needs --base, the fixed inputs' answers\n"); return 2; }
        return record_seeded(&R);
    }
    if (R.record) return record(&R);
    if (load_answers(R.answers) != 0) return 2;
    printf("grading %s\n", R.name ? R.name : R.worker);
    return grade(&R);
}
