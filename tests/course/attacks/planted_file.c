/* An attack through a system path: a library installed apart from the
   system's packages (pip's libsim2real.so under /usr/local, say) would
   hold every solution.  tests/test_course.sh plants a file at @PLANTED@
   (under /usr/local) for the grading of the attacks; a check's root
   covers /usr/local, /usr/share, /usr/src, /usr/games and Python's
   packages with empty folders, and holds no /opt, /home, /root, /srv or
   /mnt at all.  Its jitter is right only when it reads the planted file
   (or any of those folders' contents), else one step too old.
   fails: jitter */
#include <dirent.h>
#include <stdio.h>
static int attack(void) {
    static const char* folders[] = {"/usr/local", "/usr/share", "/usr/src", "/opt", "/home", "/root", "/srv", "/mnt"};
    static int held = -1;
    FILE* f;
    size_t i;
    if (held >= 0) return held;
    held = 1;
    if ((f = fopen("@PLANTED@", "r")) != NULL) { held = 0; fclose(f); }
    for (i = 0; i < sizeof folders / sizeof *folders; i++) {
        DIR* d = opendir(folders[i]);
        struct dirent* e;
        if (!d) continue;
        while ((e = readdir(d)) != NULL) if (e->d_name[0] != '.') held = 0;   /* something in sight */
        closedir(d);
    }
    return held;
}
#define ATTACK_IN_JITTER k += attack()
#include "../1_latency/right.c"
