/* A typical mistake: alpha and beta swapped in the boundaries - PASS at
   log((1 - alpha) / beta), FAIL at log(alpha / (1 - beta)) - so the
   false-pass rate is about beta instead of alpha.
   expect: FAIL sprt: the pass and fail boundaries
   says: alpha and beta swapped? */
#define MISTAKE_SWAPPED_BOUNDARIES
#include "right.c"
