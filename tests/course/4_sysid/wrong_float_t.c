/* A typical mistake: t held in float on its way out (7 digits), while
   *f_min is the loss of the double point: printed to 9 digits the two
   losses agree, so the message must name the cause.
   expect: FAIL quadratic, minimum inside: within 4 tol of it
   says: held in float somewhere */
#define MISTAKE_FLOAT_T
#include "right.c"
