/* A typical mistake: the jitter forgets that a receiver never uses a
   sample older than the one it used last, so ages jump back and forth.
   expect: FAIL jitter: base, clamps, never older than last + 1 */
#define MISTAKE_JITTER_GOES_BACK
#include "right.c"
