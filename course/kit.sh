#!/bin/sh
# course/kit.sh - make the kits students receive (`make course` runs it).
#
#   sh course/kit.sh [OUT]        (default: build/course/kit)
#
# One kit per assignment, OUT/N_NAME/, each a folder to hand out whole:
#   sim2real.h        the student copy of the header: every exercise point's
#                     solution replaced by its stub (course/student_copy.sh)
#   course/           the guide, the harness, the judge and the driver, and N_NAME/
#                     with its README, skeleton and grader, plus
#     expected.txt    the reference's answers, measured on the reference by
#                     course/grade.sh (which must pass every check, or no
#                     kit is made);
#     library.o       the rest of the library, compiled from the full
#                     header without this exercise: the grader links the
#                     student's file to it, so each assignment stands alone
#                     (the student copy's other stubs would stop, say, the
#                     simulator its integration checks use).  It is object
#                     code of the other exercises' reference solutions too:
#                     hand a kit out once the earlier assignments' answers
#                     may be known (course/README.md says more), and make
#                     it on the kind of machine the students use (Debian's
#                     compiler and MuJoCo).
# A student runs, in the kit:  sh course/grade.sh N_NAME course/N_NAME/NAME.c
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
out=${1:-$root/build/course/kit}
build=${GRADE_BUILD:-$root/build/course}
mkdir -p "$build"
rm -rf "$out.partial"
mkdir -p "$out.partial"
sh "$here/student_copy.sh" "$root/sim2real.h" "$out.partial/sim2real.h"
for dir in "$here"/[0-9]*_*/; do
    a=$(basename "$dir")
    kit="$out.partial/$a"
    mkdir -p "$kit/course/$a"
    cp "$out.partial/sim2real.h" "$kit/"
    cp "$here/README.md" "$here/grade.h" "$here/grade.sh" "$here/judge.c" "$kit/course/"
    for f in "$dir"*; do
        case "$(basename "$f")" in answers*.txt|expected.txt|library.o) ;; *) cp "$f" "$kit/course/$a/" ;; esac
    done
    GRADE_BUILD="$build" sh "$here/grade.sh" "$a" --library > "$build/kit_$a.log" 2>&1 || {
        cat "$build/kit_$a.log"; echo "kit: the library does not compile: no kit made" >&2; rm -rf "$out.partial"; exit 1; }
    cp "$(tail -n 1 "$build/kit_$a.log")" "$kit/course/$a/library.o"
    if grep -q "^/\* >> solution ${a#*_} begin \*/\$" "$root/sim2real.h"; then
        GRADE_BUILD="$build" sh "$here/grade.sh" "$a" --measure > "$build/kit_$a.log" 2>&1 || {
            cat "$build/kit_$a.log"; echo "kit: the reference does not pass course/$a's grader: no kit made" >&2
            rm -rf "$out.partial"; exit 1; }
        answers=$(tail -n 1 "$build/kit_$a.log")
        cp "$answers" "$kit/course/$a/expected.txt"
        echo "kit: $a: the reference's answers ($(wc -l < "$answers") lines)"
    else
        echo "kit: $a: no exercise point (its grader measures the reference the first time)"
    fi
done
rm -f "$out.partial/sim2real.h"
rm -rf "$out"
mv "$out.partial" "$out"
echo "kit: $out/N_NAME/ for each assignment (hand out one such folder whole)"
