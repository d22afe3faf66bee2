#!/bin/sh
# course/kit.sh - make the kit a student receives (`make course` runs it).
#
#   sh course/kit.sh [OUT]        (default: build/course/kit)
#
# OUT/sim2real.h     the student copy of the header: every exercise point's
#                    solution replaced by its stub (course/student_copy.sh)
# OUT/course/        this folder without the instructor's tools: the
#                    harness, the driver, and each assignment's README,
#                    skeleton and grader, with answers.txt - the reference's
#                    answers, measured on the reference by course/grade.sh
#                    (which must pass every check, or no kit is made) - and
#                    library.o: the whole library but that assignment's
#                    exercise, compiled from the full header, which the
#                    grader links the student's file to; so each assignment
#                    stands alone (the student copy's other stubs would
#                    stop, say, the simulator an assignment's integration
#                    checks use).  It is object code for this machine's
#                    compiler and MuJoCo (Debian's): make the kit on the
#                    kind of machine the students use.
#
# A student unpacks OUT, edits course/N_NAME/NAME.c and runs
#   sh course/grade.sh N_NAME course/N_NAME/NAME.c
# in it.  The open assignment (6_ranges) has no exercise point: its
# grader measures the default ranges' row itself, the first time.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
out=${1:-$root/build/course/kit}
build=${GRADE_BUILD:-$root/build/course}
rm -rf "$out.partial"
mkdir -p "$out.partial/course"
sh "$here/student_copy.sh" "$root/sim2real.h" "$out.partial/sim2real.h"
cp "$here/README.md" "$here/grade.h" "$here/grade.sh" "$out.partial/course/"
for dir in "$here"/[0-9]*_*/; do
    a=$(basename "$dir")
    mkdir -p "$out.partial/course/$a"
    for f in "$dir"*; do
        case "$(basename "$f")" in answers*.txt|library.o) ;; *) cp "$f" "$out.partial/course/$a/" ;; esac
    done
    GRADE_BUILD="$build" sh "$here/grade.sh" "$a" --library > "$build/kit_$a.log" 2>&1 || {
        cat "$build/kit_$a.log"; echo "kit: the library does not compile: no kit made" >&2; rm -rf "$out.partial"; exit 1; }
    cp "$(tail -n 1 "$build/kit_$a.log")" "$out.partial/course/$a/library.o"
    if grep -q "^/\* >> solution ${a#*_} begin \*/\$" "$root/sim2real.h"; then
        GRADE_BUILD="$build" sh "$here/grade.sh" "$a" --measure > "$build/kit_$a.log" 2>&1 || {
            cat "$build/kit_$a.log"; echo "kit: the reference does not pass course/$a's grader: no kit made" >&2
            rm -rf "$out.partial"; exit 1; }
        answers=$(tail -n 1 "$build/kit_$a.log")
        cp "$answers" "$out.partial/course/$a/answers.txt"
        echo "kit: $a: the reference's answers ($(wc -l < "$answers") lines)"
    fi
done
rm -rf "$out"
mv "$out.partial" "$out"
echo "kit: $out (hand out this folder)"
