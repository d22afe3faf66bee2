/* A correct line search written apart from the reference: bracket the
   minimum with steps growing by the golden ratio, then plain golden-section
   search inside the bracket (no parabolic interpolation).  It needs more
   evaluations than the reference on smooth losses, but it meets the
   contract and must pass every check of course/4_sysid.  The typical
   mistakes of tests/course/4_sysid/wrong_*.c each switch on a wrong
   variant here (#ifdef MISTAKE_...). */
#include "sim2real.h"
#include <math.h>

#define RIGHT_GOLD 0.3819660112501051   /* 2 - golden ratio: the section's fraction */
#define RIGHT_GROW 1.618033988749895    /* golden ratio: the bracket's growth        */

#ifdef MISTAKE_ACCEPTS_TIES
/* the mistake: a probe counts as lower when it is no worse (<=), so on a flat loss the search moves */
#define RIGHT_LOWER(f, than) ((f) <= (than))
#else
#define RIGHT_LOWER(f, than) ((f) < (than))   /* a probe is taken only when strictly lower */
#endif

/* From the lower point *x (loss *fx), reached from *near, step on towards
   `edge` (the step growing) while the loss falls.  On return *near is the
   point before *x and *far the first point that was not lower (or the
   edge when *x reached it): the minimum lies between *near and *far. */
static void right_expand(s2r_line_loss loss, void* context, double edge, double* near, double* x, double* fx,
                         double* far) {
    double dir = *x > *near ? 1 : -1, step = fabs(*x - *near);
    *far = edge;
    while (*x != edge) {
        double u, fu;
#ifdef MISTAKE_FIXED_STEP
        /* the mistake: the step never grows, so a far minimum costs hundreds of calls */
#else
        step *= RIGHT_GROW;
#endif
        u = *x + dir * step;
#ifdef MISTAKE_IGNORES_BOUNDS
        /* the mistake: u is not held at the bound, so the bracket's steps go past it */
#else
        if ((u - edge) * dir > 0) u = edge;   /* never beyond the bound */
#endif
        fu = loss(context, u);
        if (!RIGHT_LOWER(fu, *fx)) { *far = u; return; }
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
#ifdef MISTAKE_BEST_VS_F0
    /* the mistake: the loop ends when a probe is no lower than the point the section started from, not than
       the best so far nor on the bracket's width: near the minimum every probe is lower, and once the bracket
       has shrunk to a point the same probe comes back for ever */
    double start = fx;
    (void)tol; (void)iter;
    for (;;) {
        double u = b - x > x - a ? x + RIGHT_GOLD * (b - x) : x - RIGHT_GOLD * (x - a);
        double fu = loss(context, u);
        if (!(fu < start)) break;
        if (fu < fx) {
            if (u > x) a = x; else b = x;
            x = u;
            fx = fu;
        } else if (u > x) b = u;
        else a = u;
    }
    *f_min = fx;
    return x;
#endif
#ifdef MISTAKE_FIXED_ITERATIONS
    /* the mistake: 12 (or MISTAKE_STEPS) steps, whatever tol, so a small tol is never reached */
#ifndef MISTAKE_STEPS
#define MISTAKE_STEPS 12
#endif
    for (iter = 0; iter < MISTAKE_STEPS; iter++) {
#else
    for (iter = 0; iter < 500 && b - a > 2 * tol; iter++) {
#endif

        double u = b - x > x - a ? x + RIGHT_GOLD * (b - x) : x - RIGHT_GOLD * (x - a);
        double fu = loss(context, u);
        if (RIGHT_LOWER(fu, fx)) {   /* strictly lower only */
            if (u > x) a = x; else b = x;
            x = u;
            fx = fu;
        } else if (u > x) b = u;
        else a = u;
    }
    *f_min = fx;
#ifdef MISTAKE_FLOAT_T
    return (float)x;   /* the mistake: t held in float on the way out; *f_min is the loss of the double x */
#else
    return x;
#endif
}

S2RDEF double s2r_line_minimize(s2r_line_loss loss, void* context, double lo, double hi, double t0, double f0,
                                double step, double tol, double* f_min) {
#ifdef MISTAKE_WORSE_THAN_START
    /* the mistake: a fresh golden section over all of [lo, hi], t0 and f0 ignored: it may end above f0 */
    double mid = lo + RIGHT_GOLD * (hi - lo);
    return right_golden(loss, context, lo, hi, mid, loss(context, mid), tol, f_min);
#endif
#ifdef MISTAKE_IGNORES_BOUNDS
    /* the mistake: the first probes are not clamped into [lo, hi] */
    double up = t0 + step, down = t0 - step;
#else
    double up = t0 + step < hi ? t0 + step : hi, down = t0 - step > lo ? t0 - step : lo;
#endif
    double fu = f0, fd = f0, near, x, fx, far;
#ifdef MISTAKE_PROBE_PAST_BOUND
    /* the mistake: one probe past the upper bound, its loss then ignored (every point returned is right) */
    if (t0 + step > hi) (void)loss(context, t0 + step);
#endif
    if (up > t0) fu = loss(context, up);
#ifdef MISTAKE_FIRST_PROBE
    /* the mistake: the best of t0 and the first probe each way is the answer - no bracket, no refinement */
    if (down < t0) fd = loss(context, down);
    *f_min = fmin(f0, fmin(fu, fd));
    return *f_min == f0 ? t0 : *f_min == fu ? up : down;
#endif
    if (RIGHT_LOWER(fu, f0)) {   /* downhill upwards */
        near = t0; x = up; fx = fu;
        right_expand(loss, context, hi, &near, &x, &fx, &far);
        return right_golden(loss, context, near, far, x, fx, tol, f_min);
    }
    if (down < t0) fd = loss(context, down);
    if (RIGHT_LOWER(fd, f0)) {   /* downhill downwards */
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
