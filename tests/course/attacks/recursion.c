/* An attack on the stack: the jitter recurses without end.
   fails: jitter
   says: crashed: */
static int deeper(volatile int* n) { volatile int pad[64]; pad[0] = *n + 1; return deeper(pad) + pad[63]; }
#define ATTACK_IN_JITTER do { volatile int zero = 0; k += deeper(&zero); } while (0)
#include "../1_latency/right.c"
