/* A typical mistake: an ended episode bootstraps from values[t+1], the
   value of the next episode's first observation (the reset), instead of
   end_value - the chain is cut, but the last delta is wrong.
   expect: FAIL GAE: an ended episode bootstraps from end_value */
#define MISTAKE_GAE_NEXT_VALUES
#include "right.c"
