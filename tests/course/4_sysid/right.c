/* A correct line search written apart from the reference: bracket the
   minimum with steps growing by the golden ratio, then plain golden-section
   search inside the bracket (no parabolic interpolation).  It needs more
   evaluations than the reference on smooth losses, but it meets the
   contract and must pass every check of course/4_sysid. */
#include "sim2real.h"
#include <math.h>

#define RIGHT_GOLD 0.3819660112501051   /* 2 - golden ratio: the section's fraction */
#define RIGHT_GROW 1.618033988749895    /* golden ratio: the bracket's growth        */

/* From the lower point *x (loss *fx), reached from *near, step on towards
   `edge` (the step growing) while the loss falls.  On return *near is the
   point before *x and *far the first point that was not lower (or the
   edge when *x reached it): the minimum lies between *near and *far. */
static void right_expand(s2r_line_loss loss, void* context, double edge, double* near, double* x, double* fx,
                         double* far) {
    double dir = edge > *x ? 1 : -1, step = fabs(*x - *near);
    *far = edge;
    while (*x != edge) {
        double u, fu;
        step *= RIGHT_GROW;
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
   point goes into the larger side; stops when the bracket is 2 tol wide. */
static double right_golden(s2r_line_loss loss, void* context, double a, double b, double x, double fx, double tol,
                           double* f_min) {
    int iter;
    for (iter = 0; iter < 500 && b - a > 2 * tol; iter++) {
        double u = b - x > x - a ? x + RIGHT_GOLD * (b - x) : x - RIGHT_GOLD * (x - a);
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
        right_expand(loss, context, hi, &near, &x, &fx, &far);
        return right_golden(loss, context, near, far, x, fx, tol, f_min);
    }
    if (down < t0) fd = loss(context, down);
    if (fd < f0) {   /* downhill downwards */
        near = t0; x = down; fx = fd;
        right_expand(loss, context, lo, &near, &x, &fx, &far);
        return right_golden(loss, context, far, near, x, fx, tol, f_min);
    }
    if (fd == f0 && fu == f0) {   /* flat: a parameter the data cannot see stays */
        *f_min = f0;
        return t0;
    }
    return right_golden(loss, context, down, up, t0, f0, tol, f_min);   /* t0 is below both neighbours */
}
