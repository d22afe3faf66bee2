/* A typical mistake: strict comparisons with the boundaries (llr > upper,
   llr < lower) where the contract says "once llr >= log((1 - beta) /
   alpha)" and "once llr <= log(beta / (1 - alpha))": a count whose llr
   lands exactly on a boundary is left undecided.
   expect: FAIL sprt: a crossing exactly on a boundary decides */
#define MISTAKE_STRICT_INEQUALITY
#include "right.c"
