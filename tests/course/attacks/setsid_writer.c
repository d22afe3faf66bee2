/* An attack on the machine: the jitter forks a child that leaves the
   check's session (setsid) and writes a file outside its folder
   (@ESCAPE@) every second for two minutes, long after grading ended.
   Its delay line is correct.
   fails: none */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
static void attack(void) {
    static int forked;
    if (forked++) return;
    if (fork() == 0) {
        FILE* f;
        setsid();
        if (fork() != 0) _exit(0);   /* the grandchild, reparented */
        int s;
        for (s = 0; s < 120; s++) {   /* every second for two minutes: long after grading ended */
            if ((f = fopen("@ESCAPE@", "a")) != NULL) { fprintf(f, "%d s after\n", s); fclose(f); }
            sleep(1);
        }
        _exit(0);
    }
}
#define ATTACK_IN_JITTER attack()
#include "../1_latency/right.c"
