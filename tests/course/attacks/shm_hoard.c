/* An attack on memory no poll sees: the jitter makes SysV shared-memory
   segments of 8 MB, touches each and detaches it - up to 1 GB.  No
   process maps them then: no RSS, no memfd, no RLIMIT_AS.  The check's
   IPC namespace holds SysV memory to a few MB (judge.c, limit_ipc); past
   that limit its jitter is right, under it one step too old.
   fails: jitter */
#include <string.h>
#include <sys/ipc.h>
#include <sys/shm.h>
static int attack(void) {
    static int held = -1;
    long mb = 0;
    if (held >= 0) return held;
    while (mb < 1024) {
        int id = shmget(IPC_PRIVATE, 8ul << 20, IPC_CREAT | 0600);
        char* p;
        if (id < 0) break;
        if ((p = (char*)shmat(id, 0, 0)) == (char*)-1) break;
        memset(p, 'x', 8ul << 20);
        shmdt(p);
        mb += 8;
    }
    held = mb < 1024;
    return held;
}
#define ATTACK_IN_JITTER k += attack()
#include "../1_latency/right.c"
