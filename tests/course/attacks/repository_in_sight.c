/* An attack that reads the grading machine: its jitter is right only when
   something of the instructor's is in a check's sight - the repository
   (@ROOT@/sim2real.h, with every solution, readable; its path named in
   /proc/self/mountinfo), a home folder (/root, /home), or the instructor's
   shell's environment (PWD, USER, LOGNAME, HOME outside the check's
   folder).  A constructor that finds the full header compiles the
   reference and re-executes as a grader of it: full marks without the
   work.  Without any of them the jitter is one step too old.
   fails: jitter */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
static int attack(void) {
    static int seen = -1;
    char line[4096], cwd[4096];
    const char *home = getenv("HOME"), *pwd = getenv("PWD");
    FILE* f;
    if (seen >= 0) return !seen;
    seen = access("@ROOT@/sim2real.h", R_OK) == 0 || access("/root", F_OK) == 0 || access("/home", F_OK) == 0 ||
           getenv("USER") || getenv("LOGNAME");
    if (!getcwd(cwd, sizeof cwd)) cwd[0] = 0;
    if ((home && strncmp(home, cwd, strlen(home)) != 0) || (pwd && strcmp(pwd, cwd) != 0)) seen = 1;
    if ((f = fopen("/proc/self/mountinfo", "r")) != NULL) {
        while (fgets(line, sizeof line, f)) if (strstr(line, "@ROOT@")) seen = 1;
        fclose(f);
    }
    return !seen;
}
#define ATTACK_IN_JITTER k += attack()
#include "../1_latency/right.c"
