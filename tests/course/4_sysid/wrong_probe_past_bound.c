/* A typical mistake: a probe past the upper bound (where t0 + step lies
   beyond it), its loss then ignored: every point returned is right, and
   only the loss's calls show it (in system ID: a model simulated with,
   say, a negative payload).  The search's results agree with the
   reference's, so the check must fail on the calls outside [lo, hi],
   sent as a result, and not on its message alone: silenced (its messages
   dropped), it still fails.
   expect: FAIL minimum at or beyond a bound: the bound, no call outside
   says: outside the bounds */
#define MISTAKE_PROBE_PAST_BOUND
#include "right.c"
