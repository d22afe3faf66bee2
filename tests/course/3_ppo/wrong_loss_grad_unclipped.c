/* A typical mistake: the loss is right but its derivative is always
   -A ratio, also where the clipped term is the larger one: there the loss
   is flat and the derivative must be 0, or the clip does nothing.
   expect: FAIL clipped loss: derivative matches finite differences */
#define MISTAKE_LOSS_GRAD_UNCLIPPED
#include "right.c"
