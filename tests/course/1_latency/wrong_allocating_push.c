/* A typical mistake: push allocates - a fresh buffer each time, the ring
   copied into it and the old one freed - where the contract says push and
   read never allocate (a control loop's step must not wait on malloc).
   Every read is right; the storage moves.
   expect: FAIL the ring wraps: 50 pushes into capacity 7 */
#define MISTAKE_ALLOCATING_PUSH
#include "right.c"
