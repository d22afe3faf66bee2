/* An attack on the machine: the jitter forks a child that leaves the
   check's session (setsid), waits and then writes a file outside its
   folder (@ESCAPE@), at once and again 3 s later, when grading has ended.
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
        if ((f = fopen("@ESCAPE@", "a")) != NULL) { fputs("at once\n", f); fclose(f); }
        sleep(3);
        if ((f = fopen("@ESCAPE@", "a")) != NULL) { fputs("3 s later\n", f); fclose(f); }
        _exit(0);
    }
}
#define ATTACK_IN_JITTER attack()
#include "../1_latency/right.c"
