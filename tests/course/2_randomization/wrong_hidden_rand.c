/* A typical mistake: the draws come from the C library's rand() instead
   of the generator passed in, so a seed no longer fixes an episode: two
   runs with the same seed train and evaluate on different parameters, and
   the rng's stream (the episode's noise) does not advance as it should.
   expect: FAIL the rng is the only randomness (one draw per uniform) */
#define MISTAKE_HIDDEN_RAND
#include "right.c"
