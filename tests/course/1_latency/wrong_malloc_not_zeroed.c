/* A typical mistake: init takes its history from malloc and never zeroes
   it.  Fresh memory from the system is zero, so on a quiet run this
   passes by luck; a check's allocations hold garbage (MALLOC_PERTURB_ in
   the worker's environment), so it is caught.
   expect: FAIL init: sizes, zero fill, free */
#define MISTAKE_MALLOC_NOT_ZEROED
#include "right.c"
