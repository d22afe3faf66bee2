/* An attack on the machine: the jitter makes a SysV shared-memory
   segment (key 0x53325201, 1 MB), a message queue (0x53325202) and a
   semaphore set (0x53325203) and leaves them: they outlive their process.
   In an IPC namespace they die with the check; without one the judge
   removes what the check made when it ends - after grading, none of them
   is left (tests/test_course.sh looks in /proc/sysvipc).  Its delay line
   is correct.
   fails: none */
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
static void attack(void) {
    static int made;
    int id;
    if (made++) return;
    if ((id = shmget(0x53325201, 1 << 20, IPC_CREAT | 0666)) >= 0) {
        char* p = (char*)shmat(id, 0, 0);
        if (p != (char*)-1) { p[0] = 'x'; shmdt(p); }
    }
    msgget(0x53325202, IPC_CREAT | 0666);
    semget(0x53325203, 1, IPC_CREAT | 0666);
}
#define ATTACK_IN_JITTER attack()
#include "../1_latency/right.c"
