/* A typical mistake: golden-section search over the whole of [lo, hi],
   started afresh and ignoring t0 and f0, returning wherever the section
   ends.  Fine on a loss with one minimum, but on a bumpy one it can end in
   a valley higher than where it started - and system identification
   would then accept a worse model.
   expect: FAIL bumpy losses: never worse than f0, lower from a slope */
#define MISTAKE_WORSE_THAN_START
#include "right.c"
