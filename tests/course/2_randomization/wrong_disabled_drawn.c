/* A typical mistake: every entry is drawn, and a disabled one's draw is
   then thrown away for its identity.  The values look right, but each
   disabled entry with a range still takes numbers from the generator, so
   every later parameter (and the episode's noise) differs from what the
   same seed gives with that entry truly off.
   expect: FAIL table: enabled entries drawn, disabled at identity */
#define MISTAKE_DISABLED_DRAWN
#include "right.c"
