/* An attack on the verdict: before any check runs, a constructor prints a
   full score, tries to take the check's preamble (fd 4: this run's token)
   and to send an end on the reply (fd 3) with it, then leaves with
   _exit(0).  A grader that reads the score from the text printed, or
   takes a reply that ends as a passed check, gives it full marks; the
   worker reads fd 4 before any constructor runs.  Nothing of the delay
   line is written.
   fails: all
   says: stopped before the check ended, with exit status 0 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "sim2real.h"
__attribute__((constructor)) static void forge(void) {
    char pre[256] = {0}, end[128];
    ssize_t n = read(4, pre, sizeof pre - 1);
    char* nl = strchr(pre, '\n');
    printf("score: 14 / 14 points\n8 passed, 0 failed\n");
    fflush(stdout);
    if (n > 0 && nl) {
        *nl = 0;
        snprintf(end, sizeof end, "%s END\n", pre);
        if (write(3, end, strlen(end)) < 0) {}
    }
    _exit(0);
}
S2RDEF s2r_result s2r_delay_init(s2r_delay_line* line, int width, int capacity) { (void)line; (void)width; (void)capacity; return S2R_OK; }
S2RDEF void s2r_delay_free(s2r_delay_line* line) { (void)line; }
S2RDEF void s2r_delay_reset(s2r_delay_line* line, const double* fill) { (void)line; (void)fill; }
S2RDEF void s2r_delay_push(s2r_delay_line* line, const double* x) { (void)line; (void)x; }
S2RDEF const double* s2r_delay_peek(const s2r_delay_line* line, int k) { (void)line; (void)k; return NULL; }
S2RDEF void s2r_delay_read(const s2r_delay_line* line, int k, double* out) { (void)line; (void)k; (void)out; }
S2RDEF void s2r_delay_jitter_init(s2r_delay_jitter* j, int b, int jit, int m) { (void)j; (void)b; (void)jit; (void)m; }
S2RDEF void s2r_delay_jitter_reset(s2r_delay_jitter* j) { (void)j; }
S2RDEF int s2r_delay_jitter_next(s2r_delay_jitter* j, s2r_rng* rng) { (void)j; (void)rng; return 0; }
