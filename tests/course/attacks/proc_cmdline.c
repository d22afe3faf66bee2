/* A look at what PID 1 of the check's namespace says of itself: the ns
   init is a fork of the judge, never exec'd, so /proc/1/cmdline was the
   judge's whole command line - the answers file's path (with the seed),
   the build folder, the submissions folder, the instructor's options.
   The init wipes it.  The delay line is correct: full marks, and the
   report holds what /proc/1/cmdline and /proc/self/cmdline said (the test
   looks there for the judge's options and paths).
   fails: none
   says: PID 1 says: [s2r-init] */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
static void say(const char* path, const char* who) {
    char buf[4096];
    int fd = open(path, O_RDONLY);
    ssize_t n = fd >= 0 ? read(fd, buf, sizeof buf - 1) : -1, i;
    if (fd >= 0) close(fd);
    if (n < 0) n = 0;
    for (i = 0; i < n; i++) if (buf[i] == 0) buf[i] = ' ';
    while (n > 0 && buf[n - 1] == ' ') n--;
    buf[n] = 0;
    printf("%s says: [%s]\n", who, buf);
}
__attribute__((constructor)) static void look(void) {
    say("/proc/1/cmdline", "PID 1");
    say("/proc/self/cmdline", "the worker");
    fflush(stdout);
}
#include "../1_latency/right.c"
