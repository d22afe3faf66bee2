/* A typical mistake: k is not clamped, so read(-3) or read(100) takes a
   slot modulo the capacity instead of the newest or the oldest kept.
   expect: FAIL read and peek clamp k to 0 .. capacity - 1 */
#define MISTAKE_NO_CLAMP
#include "right.c"
