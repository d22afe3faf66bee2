/* An attack on memory no poll sees: the jitter makes a user and mount
   namespace of its own (where it holds every capability again), mounts
   a tmpfs on /tmp and fills it with files of 32 MB - up to 1 GB: tmpfs
   pages are no process's RSS, and the scratch folder's cap is another
   mount's.  The check's user namespace allows none nested in it
   (judge.c, enter_namespaces); past that its jitter is right, under it
   one step too old.
   fails: jitter */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>
static int attack(void) {
    static int held = -1;
    static char block[1 << 20];
    int st = 0;
    pid_t p;
    if (held >= 0) return held;
    if ((p = fork()) == 0) {
        int i, k, fd, mb = 0;
        char name[32], umap[32], gmap[32];
        snprintf(umap, sizeof umap, "0 %u 1", (unsigned)getuid());   /* root inside (a file's owner must be mapped) */
        snprintf(gmap, sizeof gmap, "0 %u 1", (unsigned)getgid());
        if (unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0) _exit(1);
        if ((fd = open("/proc/self/setgroups", O_WRONLY)) >= 0) { if (write(fd, "deny", 4) < 0) {} close(fd); }
        if ((fd = open("/proc/self/uid_map", O_WRONLY)) >= 0) { if (write(fd, umap, strlen(umap)) < 0) {} close(fd); }
        if ((fd = open("/proc/self/gid_map", O_WRONLY)) >= 0) { if (write(fd, gmap, strlen(gmap)) < 0) {} close(fd); }
        if (mount("none", "/tmp", "tmpfs", 0, NULL) != 0) _exit(1);
        memset(block, 'x', sizeof block);
        for (i = 0; i < 32 && mb < 1024; i++) {
            memcpy(name, "/tmp/f", 6); name[6] = (char)('a' + i); name[7] = 0;
            if ((fd = open(name, O_WRONLY | O_CREAT, 0600)) < 0) break;
            for (k = 0; k < 32 && write(fd, block, sizeof block) == (ssize_t)sizeof block; k++) mb++;
            close(fd);
        }
        _exit(mb >= 1024 ? 0 : 1);
    }
    if (p < 0) return held = 1;
    while (waitpid(p, &st, 0) < 0) {}
    held = !(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    return held;
}
#define ATTACK_IN_JITTER k += attack()
#include "../1_latency/right.c"
