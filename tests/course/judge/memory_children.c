/* Four children, each touching 100 MB and holding it for 3 s: within
   RLIMIT_AS (per process), but 400 MB together.  tests/test_course.sh runs
   it under judge --run with GRADE_CHECK_MEMORY_MB=256, which must stop it;
   it prints "held 4 of 4" when nothing did. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
int main(void) {
    int i, held = 0, st;
    for (i = 0; i < 4; i++)
        if (fork() == 0) {
            size_t n = 100u << 20;
            char* p = malloc(n);
            if (!p) _exit(1);
            memset(p, 1, n);
            sleep(3);
            _exit(p[n - 1] == 1 ? 0 : 1);
        }
    for (i = 0; i < 4; i++) if (wait(&st) > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0) held++;
    printf("held %d of 4\n", held);
    return 0;
}
