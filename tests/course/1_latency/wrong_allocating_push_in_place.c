/* The allocating push again, so that the storage stays put: the ring
   copied out, freed and allocated again at its size (malloc hands back the
   same block).  The storage check alone passed it; the allocations are
   counted.
   expect: FAIL the ring wraps: 50 pushes into capacity 7 */
#define MISTAKE_ALLOCATING_PUSH_IN_PLACE
#include "right.c"
