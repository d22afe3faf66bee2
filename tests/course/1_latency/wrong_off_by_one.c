/* A typical mistake: the delay is one step too long - read(k) returns the
   sample k + 1 pushes ago (the slot after the newest is taken as the
   newest).  expect: FAIL read(k) returns the sample pushed k pushes ago */
#define MISTAKE_OFF_BY_ONE
#include "right.c"
