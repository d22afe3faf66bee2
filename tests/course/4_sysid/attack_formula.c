/* An attack on the losses' formulas: no search.  The context the grader
   handed the search was once its own case struct (course/4_sysid/grade.c,
   in the kit), whose head holds the loss's kind and width; the formulas
   are public, so a quadratic's centre follows from f0 and one call - and
   "quadratic, minimum inside" passed with 0.5 loss calls on average.  The
   context is now the judge's number of the loss alone: what this reads
   as a kind and a width is not one.
   expect: FAIL quadratic, minimum inside: within 4 tol of it */
#include "sim2real.h"
#include <math.h>
typedef struct { int kind; double c, w, shape; } peek_case;   /* the head of grade.c's old line_case */
S2RDEF double s2r_line_minimize(s2r_line_loss loss, void* context, double lo, double hi, double t0, double f0,
                                double step, double tol, double* f_min) {
    const peek_case* lc = (const peek_case*)context;
    double t1, f1, c, f;
    (void)step; (void)tol;
    *f_min = f0;
    if (lc->kind != 0 || !(lc->w > 0) || !isfinite(lc->w)) return t0;   /* only the quadratics: 1 + ((t - c) / w)^2 */
    t1 = t0 + (t0 < 0.5 * (lo + hi) ? 1 : -1) * 1e-3 * (hi - lo);
    f1 = loss(context, t1);
    c = 0.5 * (t1 + t0 - lc->w * lc->w * (f1 - f0) / (t1 - t0));
    if (!(c >= lo)) c = lo;
    if (c > hi) c = hi;
    f = loss(context, c);
    if (f < f0) { *f_min = f; return c; }
    if (f1 < f0) { *f_min = f1; return t1; }
    return t0;
}
