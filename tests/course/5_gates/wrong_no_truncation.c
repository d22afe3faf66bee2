/* A typical mistake: the test is not truncated at max_n - it answers
   CONTINUE for as long as the llr stays between the boundaries, so a gate
   could ask for episodes forever.
   expect: FAIL sprt: truncation at max_n (FAIL there, never CONTINUE) */
#define MISTAKE_NO_TRUNCATION
#include "right.c"
