/* A typical mistake: the golden section runs a fixed number of steps
   (12) instead of until the bracket is a few tol wide, so the precision
   asked for by tol is never reached when tol is small.
   expect: FAIL precision: smooth losses, tol 1e-2 .. 1e-6 of the bounds */
#include "sim2real.h"
#include <math.h>

#define SEARCH_GOLD 0.3819660112501051   /* 2 - golden ratio: the section's fraction */
#define SEARCH_GROW 1.618033988749895    /* golden ratio: the bracket's growth        */

/* From the lower point *x (loss *fx), reached from *near, step on towards
   `edge` (the step growing) while the loss falls.  On return *near is the
   point before *x and *far the first point that was not lower (or the
   edge when *x reached it): the minimum lies between *near and *far. */
static void search_expand(s2r_line_loss loss, void* context, double edge, double* near, double* x, double* fx,
                          double* far) {
    double dir = edge > *x ? 1 : -1, step = fabs(*x - *near);
    *far = edge;
    while (*x != edge) {
        double u, fu;
        step *= SEARCH_GROW;
        u = *x + dir * step;
        if ((u - edge) * dir > 0) u = edge;   /* never beyond the bound */
        fu = loss(context, u);
        if (!(fu < *fx)) { *far = u; return; }
        *near = *x;
        *x = u;
        *fx = fu;
    }
}

/* Golden section on [a, b] around the best point x (loss fx): the new
   point goes into the larger side; 12 steps, whatever tol (the mistake). */
static double search_golden(s2r_line_loss loss, void* context, double a, double b, double x, double fx, double tol,
                            double* f_min) {
    int iter;
    (void)tol;
    for (iter = 0; iter < 12; iter++) {
        double u = b - x > x - a ? x + SEARCH_GOLD * (b - x) : x - SEARCH_GOLD * (x - a);
        double fu = loss(context, u);
        if (fu < fx) {   /* strictly lower only */
            if (u > x) a = x; else b = x;
            x = u;
            fx = fu;
        } else if (u > x) b = u;
        else a = u;
    }
    *f_min = fx;
    return x;
}

S2RDEF double s2r_line_minimize(s2r_line_loss loss, void* context, double lo, double hi, double t0, double f0,
                                double step, double tol, double* f_min) {
    double up = t0 + step < hi ? t0 + step : hi, down = t0 - step > lo ? t0 - step : lo;
    double fu = f0, fd = f0, near, x, fx, far;
    if (up > t0) fu = loss(context, up);
    if (fu < f0) {   /* downhill upwards */
        near = t0; x = up; fx = fu;
        search_expand(loss, context, hi, &near, &x, &fx, &far);
        return search_golden(loss, context, near, far, x, fx, tol, f_min);
    }
    if (down < t0) fd = loss(context, down);
    if (fd < f0) {   /* downhill downwards */
        near = t0; x = down; fx = fd;
        search_expand(loss, context, lo, &near, &x, &fx, &far);
        return search_golden(loss, context, far, near, x, fx, tol, f_min);
    }
    if (fd == f0 && fu == f0) {   /* flat: a parameter the data cannot see stays */
        *f_min = f0;
        return t0;
    }
    return search_golden(loss, context, down, up, t0, f0, tol, f_min);   /* t0 is below both neighbours */
}
