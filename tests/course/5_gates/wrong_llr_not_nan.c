/* A typical mistake: invalid input gives FAIL, but llr is left as it was
   (the contract asks for NaN: no number for a test that was never valid).
   expect: FAIL sprt: invalid counts or config give FAIL */
#define MISTAKE_LLR_NOT_NAN
#include "right.c"
