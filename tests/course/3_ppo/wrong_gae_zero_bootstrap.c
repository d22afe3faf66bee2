/* A typical mistake: every ended episode bootstraps with 0, as if it had
   terminated - a time-limit truncation must bootstrap with end_value,
   V(final obs), or the agent learns that the clock running out is a
   catastrophe.
   expect: FAIL GAE: an ended episode bootstraps from end_value */
#define MISTAKE_GAE_ZERO_BOOTSTRAP
#include "right.c"
