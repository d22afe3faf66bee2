/* A subtle mistake: the boundaries compared as ">=" and "<=" with no
   tolerance, on an llr written k (log p1 - log p0) + (n - k) (log1p(-p1)
   - log1p(-p0)) - the same number in exact arithmetic, an ulp off in
   floating point, so a crossing exactly on a boundary is missed; the
   contract compares within S2R_GATE_EPS.
   expect: FAIL sprt: a crossing exactly on a boundary decides */
#define MISTAKE_NO_TOLERANCE
#include "right.c"
