/* An allocating push by another door: a scratch copy from aligned_alloc
   each time, freed at once - push and read never allocate, whichever
   allocator; every allocator a push could reach is counted.
   expect: FAIL the ring wraps: 50 pushes into capacity 7 */
#define _ISOC11_SOURCE
#define MISTAKE_ALIGNED_SCRATCH
#include "right.c"
