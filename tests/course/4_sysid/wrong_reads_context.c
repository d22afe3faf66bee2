/* An attack, not a mistake: no search at all.  The grader's loss context
   was once its own case struct (layout public in course/4_sysid/grade.c),
   which holds the loss's centre: a "search" that finds the arguments lo,
   hi, t0, step and tol in the context returns the centre, clamped, after
   one loss call for *f_min - and every unit check passed.  The losses are
   now the judge's (course/judge.c, "the hidden losses"): the context holds
   no centre of a case drawn from the grading seed, and not in the old
   layout: this finds nothing there and returns t0, as the stub does
   (attack_centre_in_memory.c searches the whole stack).
   expect: FAIL quadratic, minimum inside: within 4 tol of it */
#include "sim2real.h"
#include <string.h>
typedef struct seen_case {   /* the grader's old line_case, as published */
    int    kind;
    double c, w, shape;
    double lo, hi, t0, step, tol;
} seen_case;
S2RDEF double s2r_line_minimize(s2r_line_loss loss, void* context, double lo, double hi, double t0, double f0,
                                double step, double tol, double* f_min) {
    const seen_case* lc = (const seen_case*)context;
    if (lc->lo == lo && lc->hi == hi && lc->t0 == t0 && lc->step == step && lc->tol == tol &&
        lc->c == lc->c && lc->kind == 0) {   /* QUADRATIC: the minimum is its centre */
        double t = lc->c < lo ? lo : lc->c > hi ? hi : lc->c;
        double f = loss(context, t);
        if (f < f0) { *f_min = f; return t; }
    }
    *f_min = f0;
    return t0;
}
