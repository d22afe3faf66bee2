/* A typical mistake: a failed s2r_delay_init returns before it zeroes the
   struct, so a line on the stack keeps whatever it held (the contract: a
   failed init leaves the line zeroed, holding nothing).
   expect: FAIL init: sizes, zero fill, free */
#define MISTAKE_INIT_UNTOUCHED
#include "right.c"
