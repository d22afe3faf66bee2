/* Appended to every tests/course/ASSIGNMENT/wrong_*.c by tests/test_course.sh,
   for a second run of the check its "expect:" line names.  A definition of
   fprintf in the student's file takes the place of the C library's for the
   worker's own calls (grade.h writes the reply with fprintf): it drops every
   failure message (F lines) and sends every expectation (X lines) as held.
   A mistake that is caught only by a message - the worker's word, which a
   student's code shares the process with - then passes; one caught by a
   result compared with the reference's still fails. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
int fprintf(FILE* f, const char* fmt, ...) {
    va_list ap;
    int n;
    va_start(ap, fmt);
    if (strcmp(fmt, "%s F %s\n") == 0) { va_end(ap); return 0; }
    if (strcmp(fmt, "%s X %u %d\n") == 0) {
        char line[128];
        const char* token = va_arg(ap, const char*);
        unsigned id = va_arg(ap, unsigned);
        va_end(ap);
        snprintf(line, sizeof line, "%s X %u 1\n", token, id);
        return fputs(line, f) < 0 ? -1 : (int)strlen(line);
    }
    n = vfprintf(f, fmt, ap);
    va_end(ap);
    return n;
}
