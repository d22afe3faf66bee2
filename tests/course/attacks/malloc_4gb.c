/* An attack on the memory: the jitter allocates 4 GB and touches every
   page.  Without a memory limit it takes the machine's memory.
   fails: jitter
   says: memory limit */
#include <stdlib.h>
#include <string.h>
static int attack(int fill) {
    size_t n = (size_t)4 << 30;
    volatile char* p = (volatile char*)malloc(n);
    memset((char*)p, fill, n);   /* p is NULL when the limit holds: a crash */
    return p[n / 3] - fill;
}
#define ATTACK_IN_JITTER k += attack(k + 1)
#include "../1_latency/right.c"
