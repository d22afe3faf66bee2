/* A typical mistake: the search probes one step up and one step down and
   keeps the best of the three points - no bracketing, no refinement - so
   it ends a whole step from the minimum, and system identification's
   next step (twice this move) shrinks to nothing.
   expect: FAIL quadratic, minimum inside: within 4 tol of it */
#include "sim2real.h"

S2RDEF double s2r_line_minimize(s2r_line_loss loss, void* context, double lo, double hi, double t0, double f0,
                                double step, double tol, double* f_min) {
    double up = t0 + step < hi ? t0 + step : hi, down = t0 - step > lo ? t0 - step : lo, t = t0, f = f0, fu, fd;
    (void)tol;
    if (up > t0 && (fu = loss(context, up)) < f) { t = up; f = fu; }
    if (down < t0 && (fd = loss(context, down)) < f) { t = down; f = fd; }
    *f_min = f;
    return t;
}
