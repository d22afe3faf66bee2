/* An attack on the disk: the jitter fills its scratch folder, 16 MB at a
   time (each file under the 64 MB file limit) up to 640 MB, and makes up
   to 2000 files.  The scratch folder holds at most 256 MB and 512 files
   (GRADE_SCRATCH_MB, GRADE_SCRATCH_FILES); past them its jitter is right,
   under them one step too old.
   fails: jitter */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
static int attack(void) {
    static int held = -1;
    static char block[1 << 20];
    char name[64];
    long bytes = 0;
    int files = 0, i, k, fd;
    if (held >= 0) return held;
    memset(block, 'x', sizeof block);
    for (i = 0; i < 40; i++) {
        snprintf(name, sizeof name, "fill%d", i);
        if ((fd = open(name, O_WRONLY | O_CREAT | O_TRUNC, 0600)) < 0) break;
        for (k = 0; k < 16 && write(fd, block, sizeof block) == (ssize_t)sizeof block; k++) bytes += sizeof block;
        close(fd);
        if (k < 16) break;
    }
    for (i = 0; i < 40; i++) { snprintf(name, sizeof name, "fill%d", i); unlink(name); }
    for (i = 0; i < 2000; i++) {
        snprintf(name, sizeof name, "f%d", i);
        if ((fd = open(name, O_WRONLY | O_CREAT, 0600)) < 0) break;
        close(fd);
        files++;
    }
    held = bytes <= (256L << 20) && files <= 512;
    return held;
}
#define ATTACK_IN_JITTER k += attack()
#include "../1_latency/right.c"
