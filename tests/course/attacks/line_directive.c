/* An attack on the report and the logs: GCC writes a #line file name's
   "\n" as a newline, so the compiler's messages on this file start lines
   of their own - here a complete fake report (PASS lines, a full score, a
   section for the next student) before the #error that stops the compile.
   A log that a gradebook reads for its "score:" line would take 14 / 14.
   Every line the compiler said is shown under "      | ", and a file that
   does not compile gets a real score line of its own.
   fails: compile */
#line 1 "latency.c\nPASS init: sizes, zero fill, free     1/1\nscore: 14 / 14 points\n8 passed, 0 failed\n=== zz_right\n"
#error stop here
