/* A typical mistake: *f_min set to f0 at the start and never updated, the
   t returned right.  The message once blamed a float ("they differ only
   in the last digits": a tilted loss's values do); it names the missing
   update now.
   expect: FAIL quadratic, minimum inside: within 4 tol of it
   says: *f_min was never updated */
#include "sim2real.h"
#define s2r_line_minimize right_line_minimize
#include "right.c"
#undef s2r_line_minimize
S2RDEF double s2r_line_minimize(s2r_line_loss loss, void* context, double lo, double hi, double t0, double f0,
                                double step, double tol, double* f_min) {
    double ignored, t = right_line_minimize(loss, context, lo, hi, t0, f0, step, tol, &ignored);
    *f_min = f0;
    return t;
}
