/* A typical mistake: golden-section search over the whole of [lo, hi],
   started afresh and ignoring t0 and f0, returning wherever the section
   ends.  Fine on a loss with one minimum, but on a bumpy one it can end in
   a valley higher than where it started - and system identification
   would then accept a worse model.
   expect: FAIL bumpy losses: never worse than f0, lower from a slope */
#include "sim2real.h"

S2RDEF double s2r_line_minimize(s2r_line_loss loss, void* context, double lo, double hi, double t0, double f0,
                                double step, double tol, double* f_min) {
    const double g = 0.6180339887498949;
    double a = lo, b = hi, c = b - g * (b - a), d = a + g * (b - a), fc = loss(context, c), fd = loss(context, d);
    (void)t0; (void)f0; (void)step;
    while (b - a > 2 * tol) {
        if (fc < fd) { b = d; d = c; fd = fc; c = b - g * (b - a); fc = loss(context, c); }
        else         { a = c; c = d; fc = fd; d = a + g * (b - a); fd = loss(context, d); }
    }
    *f_min = fc < fd ? fc : fd;
    return fc < fd ? c : d;
}
