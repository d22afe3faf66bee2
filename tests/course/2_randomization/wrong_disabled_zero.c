/* A typical mistake: a disabled entry gets 0, whatever its mode - for a
   scale entry that is a friction, a gain or a timestep of zero, not the
   nominal value (the identity of scale is 1).
   expect: FAIL table: enabled entries drawn, disabled at identity */
#define MISTAKE_DISABLED_ZERO
#include "right.c"
