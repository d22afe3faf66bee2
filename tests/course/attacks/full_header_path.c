/* full_header.c's attack with the full header named by its absolute path
   (the repository's own sim2real.h, solutions included), which no -I
   option can replace.  The repository is hidden from the compile (and the
   folder it compiles in lies outside it), so the file does not compile.
   fails: compile
   says: does not compile */
#undef S2R_EXERCISE_LATENCY
#define S2R_STATIC
#define SIM2REAL_IMPLEMENTATION
#define s2r_delay_init ref_delay_init
#define s2r_delay_free ref_delay_free
#define s2r_delay_reset ref_delay_reset
#define s2r_delay_push ref_delay_push
#define s2r_delay_peek ref_delay_peek
#define s2r_delay_read ref_delay_read
#define s2r_delay_jitter_init ref_delay_jitter_init
#define s2r_delay_jitter_reset ref_delay_jitter_reset
#define s2r_delay_jitter_next ref_delay_jitter_next
#include "@ROOT@/sim2real.h"
#undef s2r_delay_init
#undef s2r_delay_free
#undef s2r_delay_reset
#undef s2r_delay_push
#undef s2r_delay_peek
#undef s2r_delay_read
#undef s2r_delay_jitter_init
#undef s2r_delay_jitter_reset
#undef s2r_delay_jitter_next

s2r_result s2r_delay_init(s2r_delay_line* l, int w, int c) { return ref_delay_init(l, w, c); }
void s2r_delay_free(s2r_delay_line* l) { ref_delay_free(l); }
void s2r_delay_reset(s2r_delay_line* l, const double* f) { ref_delay_reset(l, f); }
void s2r_delay_push(s2r_delay_line* l, const double* x) { ref_delay_push(l, x); }
const double* s2r_delay_peek(const s2r_delay_line* l, int k) { return ref_delay_peek(l, k); }
void s2r_delay_read(const s2r_delay_line* l, int k, double* o) { ref_delay_read(l, k, o); }
void s2r_delay_jitter_init(s2r_delay_jitter* j, int b, int s, int m) { ref_delay_jitter_init(j, b, s, m); }
void s2r_delay_jitter_reset(s2r_delay_jitter* j) { ref_delay_jitter_reset(j); }
int s2r_delay_jitter_next(s2r_delay_jitter* j, s2r_rng* r) { return ref_delay_jitter_next(j, r); }
