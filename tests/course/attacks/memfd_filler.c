/* An attack on memory no limit saw: the jitter creates memfds
   (memfd_create, then write: the pages are no process's RSS, and no
   mapping counts them under RLIMIT_AS) - up to 200 of 8 MB each (1.6 GB),
   and one it writes past 64 MB with SIGXFSZ ignored.  RLIMIT_NOFILE
   (GRADE_FILES, 32) leaves it a few descriptors, RLIMIT_FSIZE (64 MB)
   bounds each memfd's growth, and the memory poll counts what they hold;
   past those its jitter is right, under them one step too old.
   fails: jitter */
#define _GNU_SOURCE
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
static int attack(void) {
    static int held = -1;
    static char block[1 << 20];
    int fds = 0, i, k, fd, last = -1, big = 0;
    if (held >= 0) return held;
    signal(SIGXFSZ, SIG_IGN);   /* a write past RLIMIT_FSIZE then fails with EFBIG, not a signal */
    memset(block, 'x', sizeof block);
    for (i = 0; i < 200; i++) {
        if ((fd = memfd_create("filler", 0)) < 0) break;
        for (k = 0; k < 8 && write(fd, block, sizeof block) == (ssize_t)sizeof block; k++) {}
        if (k < 8) break;
        fds++;
        last = fd;
    }
    if ((fd = memfd_create("big", 0)) < 0 && last >= 0) { close(last); fd = memfd_create("big", 0); }
    if (fd >= 0)
        for (k = 0; k < 65 && write(fd, block, sizeof block) == (ssize_t)sizeof block; k++) big++;
    held = fds <= 40 && big <= 64;
    return held;
}
#define ATTACK_IN_JITTER k += attack()
#include "../1_latency/right.c"
