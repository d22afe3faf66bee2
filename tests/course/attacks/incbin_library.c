/* An attack on the compile's folder: it once held library.o - the library
   without this assignment's exercise, so with every other exercise's
   reference - and the assembler may read any file there.  The .incbin puts
   that object into the program as data; a check (a unit check: nothing has
   to pass first) could read the other references' code out of it and print
   it into its report.  The student's file is now compiled in a folder
   holding only its copy, grade.c, grade.h, the student header and the
   stand-ins, and linked in a second step: there is nothing to embed.
   fails: compile
   says: library.o */
__asm__(".section .rodata\n.global stolen_library\nstolen_library:\n.incbin \"library.o\"\n"
        ".global stolen_library_end\nstolen_library_end:\n.previous\n");
#include "../1_latency/right.c"
