#!/bin/sh
# course/grade.sh - grade one assignment: a student's file, a folder of
# submissions, the skeleton as handed out, or the reference.
#
#   sh course/grade.sh ASSIGNMENT [SUBMISSION ...]
#   sh course/grade.sh ASSIGNMENT --reference
#   sh course/grade.sh ASSIGNMENT --measure | --library
#
# ASSIGNMENT   an assignment folder in course/ (1_latency), its number (1)
#              or its name (latency)
# SUBMISSION   a student's file (e.g. latency.c); a folder holding that file
#              (one student, named after the folder); or a folder of such
#              folders or of such files (one student each).  None: the
#              skeleton in course/ASSIGNMENT, as handed out.
# --reference  the header's own solution (an instructor's check: 100 %)
# --measure    only measure the reference's answers (once; the run that
#              measures them fails unless the reference passes every check),
#              and print the file's name
# --library    only compile the library without the exercise, and print
#              the object's name (a kit ships it as course/ASSIGNMENT/library.o,
#              so an assignment does not need the others done)
#
# Each submission is compiled with the header's exercise point switched
# off (-DS2R_EXERCISE_NAME), linked with the grader and the rest of the
# library (compiled once per assignment into GRADE_BUILD), and graded; a
# submission that does not compile, crashes or hangs gets a graded
# failure, and the next one is graded all the same.  With more than one
# submission a summary table ends the output.
#
# The reference's answers, which the graders compare with, are measured by
# running the grader on the reference (the header with solutions) the
# first time, into GRADE_BUILD; a student's kit made by `make course`
# ships them as course/ASSIGNMENT/answers.txt instead.
#
# Environment: CC (cc), GRADE_BUILD (build/course beside course/),
# GRADE_TIMEOUT (seconds for a whole grader run; 600), GRADE_QUICK (1: the
# graders cut their slowest budgets, for testing the kit; its answers are
# kept apart), GRADE_REFERENCE_LIBRARY (an object of the whole library with
# its solutions already compiled, e.g. the Makefile's build/sim2real.o).
# Exit status: 0 when every submission passed every check, 1 otherwise,
# 2 on a usage error.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
CC=${CC:-cc}
build=${GRADE_BUILD:-$root/build/course}
limit=${GRADE_TIMEOUT:-600}
CFLAGS="-std=c99 -O2 -fopenmp -I$root -I$here -I/usr/include/stb"
LIBS="-lmujoco -lm"

usage() { sed -n '2,28p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[ $# -ge 1 ] || usage
case "$1" in -h|--help) usage ;; esac
asked=$1; shift
a=$asked
[ -d "$here/$a" ] || a=$(cd "$here" && ls -d "$a"_* [0-9]*_"$a" 2>/dev/null | head -n 1)
if [ -z "$a" ] || [ ! -f "$here/$a/grade.c" ]; then
    echo "grade: no assignment '$asked' in course/ (there: $(cd "$here" && ls -d [0-9]*_*/ | tr -d / | tr '\n' ' '))" >&2
    exit 2
fi
name=${a#*_}
# What a student hands in: code (NAME.c, linked into the grader) or data
# (NAME.txt, e.g. a ranges file, given to the grader as --submission).
file="$name.c"
[ -f "$here/$a/$file" ] || file="$name.txt"
macro=S2R_EXERCISE_$(echo "$name" | tr a-z A-Z)
out="$build/$a"
mkdir -p "$out" || exit 2

# The whole library, solutions included: one object every assignment's
# reference grader links to.
reference_library() {
    ref_obj="$build/impl_reference.o"
    if [ -n "${GRADE_REFERENCE_LIBRARY:-}" ] && [ -f "$GRADE_REFERENCE_LIBRARY" ] && \
       [ "$GRADE_REFERENCE_LIBRARY" -nt "$root/sim2real.h" ]; then   # one the caller compiled already
        ref_obj=$GRADE_REFERENCE_LIBRARY
        return 0
    fi
    if [ ! -f "$ref_obj" ] || [ "$root/sim2real.h" -nt "$ref_obj" ]; then
        printf '#define SIM2REAL_IMPLEMENTATION\n#include "sim2real.h"\n' > "$build/impl_reference.c"
        echo "grade: compiling the library with its solutions (once)"
        $CC $CFLAGS -c "$build/impl_reference.c" -o "$ref_obj.partial.$$" && mv "$ref_obj.partial.$$" "$ref_obj"
    fi
}

# The library without the exercise (every student links to it), and the
# reference with it: each compiled once, again only when the header changed.
impl="$out/impl_exercise.o"
has_exercise=1; grep -q "^#ifndef $macro\$" "$root/sim2real.h" || has_exercise=0
if [ -f "$here/$a/library.o" ]; then
    impl="$here/$a/library.o"   # a kit: the whole library but this exercise, as the instructor built it
elif [ $has_exercise = 0 ]; then
    reference_library || { echo "grade: the library does not compile" >&2; exit 2; }
    impl=$ref_obj   # no exercise point: the whole library
elif [ ! -f "$impl" ] || [ "$root/sim2real.h" -nt "$impl" ]; then
    printf '#define SIM2REAL_IMPLEMENTATION\n#include "sim2real.h"\n' > "$out/impl.c"
    echo "grade: compiling the library without the $name exercise (once)"
    $CC $CFLAGS -D$macro -c "$out/impl.c" -o "$impl.partial" && mv "$impl.partial" "$impl" ||
        { echo "grade: the library does not compile" >&2; exit 2; }
fi
# --library: only build that library and print its file's name (course/kit.sh).
if [ "${1:-}" = "--library" ]; then echo "$impl"; exit 0; fi

# A student copy holds the stub (it says TODO(course ...)) where the
# header holds the solution.
has_solution=$(awk -v n="$name" '$0 == "/* >> solution " n " begin */" { inside = 1; seen = 1 }
    inside && /TODO\(course/ { stub = 1 } $0 == "/* >> solution " n " end */" { inside = 0 }
    END { print (!seen || !stub) ? 1 : 0 }' "$root/sim2real.h")

reference_grader() {
    if [ ! -f "$out/grade_reference" ] || [ "$root/sim2real.h" -nt "$out/grade_reference" ] || \
       [ "$here/$a/grade.c" -nt "$out/grade_reference" ] || [ "$here/grade.h" -nt "$out/grade_reference" ]; then
        obj=$impl   # without an exercise point, the library students link to is the reference
        if [ $has_exercise = 1 ]; then reference_library || return 1; obj=$ref_obj; fi
        $CC $CFLAGS "$here/$a/grade.c" "$obj" -o "$out/grade_reference" $LIBS || return 1
    fi
}

# The answers: shipped with a kit, or measured on the reference.
answers="$here/$a/answers.txt"
quick=""; [ "${GRADE_QUICK:-0}" = 1 ] && quick=".quick"
if [ ! -f "$answers" ]; then
    answers="$out/answers$quick.txt"
    if [ ! -f "$answers" ] || [ "$root/sim2real.h" -nt "$answers" ] || [ "$here/$a/grade.c" -nt "$answers" ]; then
        if [ $has_solution = 0 ]; then
            echo "grade: no answers: this header is a student copy (no reference solution for $name) and" >&2
            echo "course/$a/answers.txt is missing; the kit made by 'make course' ships it" >&2
            exit 2
        fi
        echo "grade: measuring the reference's answers (once)"
        reference_grader || { echo "grade: the grader does not compile" >&2; exit 2; }
        "$out/grade_reference" --record "$answers.partial" > "$out/record.log" 2>&1 || {
            cat "$out/record.log"; echo "grade: the reference does not pass its own grader" >&2; rm -f "$answers.partial"; exit 2; }
        mv "$answers.partial" "$answers"
        just_recorded=1
    fi
fi

# --measure: only make sure the answers are measured (course/kit.sh).
if [ "${1:-}" = "--measure" ]; then echo "$answers"; exit 0; fi

# Grade one student's file ($2, may be missing) under the name $1.
just_recorded=${just_recorded:-0}
summary=""
any_failed=0
grade_one() {
    who=$1; src=$2; data=""; log="$out/$(echo "$who" | tr -c 'A-Za-z0-9._\n-' _).log"
    echo "=== $who"
    if [ "$src" = "--reference" ] && [ "$just_recorded" = 1 ]; then
        cp "$out/record.log" "$log"   # the run that measured the answers graded the reference
        bin=""
    elif [ "$src" = "--reference" ]; then
        [ $has_solution = 1 ] || { echo "grade: --reference: this header is a student copy, with no reference to grade (use the repository)" >&2; exit 2; }
        reference_grader || { echo "grade: the grader does not compile" >&2; exit 2; }
        bin="$out/grade_reference"
    elif [ ! -f "$src" ]; then
        echo "missing: $file (nothing to grade)"
        summary="$summary$who|missing $file|0|-\n"; any_failed=1; return
    elif [ "${file%.txt}" != "$file" ]; then
        if [ ! -f "$out/grade_data" ] || [ "$impl" -nt "$out/grade_data" ] || [ "$here/$a/grade.c" -nt "$out/grade_data" ]; then
            $CC $CFLAGS "$here/$a/grade.c" "$impl" -o "$out/grade_data" $LIBS || { echo "grade: the grader does not compile" >&2; exit 2; }
        fi
        bin="$out/grade_data"; data="$src"
    else
        bin="$out/grade_student"
        rm -f "$bin"
        if ! $CC $CFLAGS -Wall -D$macro "$here/$a/grade.c" "$src" "$impl" -o "$bin" $LIBS > "$out/compile.log" 2>&1; then
            { head -n 25 "$out/compile.log"
              if [ -f "$here/$a/library.o" ] && grep -q "library.o" "$out/compile.log" && ! grep -q "$src" "$out/compile.log"; then
                  echo "(the kit's course/$a/library.o does not link here: a kit holds object code for the kind"
                  echo " of machine it was made on - ask for a kit made on this one)"
              fi
              echo "FAIL does not compile (the compiler's first messages are above)"
              echo "0 passed, 1 failed"; } > "$log"
            cat "$log"
            summary="$summary$who|does not compile|0|$log\n"; any_failed=1; return
        fi
        grep -q "warning" "$out/compile.log" && { echo "(compiler warnings:)"; grep -A3 "warning" "$out/compile.log" | head -n 12; }
    fi
    rc=0
    if [ -z "$bin" ]; then grep -q '^[0-9]* passed, 0 failed$' "$log" || rc=1
    elif [ -n "$data" ]; then timeout "$limit" "$bin" --answers "$answers" --submission "$data" > "$log" 2>&1; rc=$?
    else timeout "$limit" "$bin" --answers "$answers" > "$log" 2>&1; rc=$?; fi
    cat "$log"
    [ $rc = 124 ] && echo "FAIL the whole grader ran over $limit s"
    result=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1)
    score=$(grep -E '^score: ' "$log" | tail -n 1 | sed 's/^score: //')
    [ -n "$result" ] || result="grader stopped (status $rc)"
    [ $rc = 0 ] || any_failed=1
    summary="$summary$who|$result|${score:-0}|$log\n"
}

if [ $# = 0 ]; then
    grade_one "skeleton ($a/$file)" "$here/$a/$file"
fi
for s in "$@"; do
    while [ "${s%/}" != "$s" ] && [ "$s" != / ]; do s=${s%/}; done
    if [ "$s" = "--reference" ]; then
        grade_one "reference" --reference
    elif [ -f "$s" ]; then
        grade_one "$(basename "$s" | sed 's/\.[a-z]*$//')" "$s"
    elif [ -d "$s" ] && [ -f "$s/$file" ]; then
        grade_one "$(basename "$s")" "$s/$file"
    elif [ -d "$s" ]; then
        found=0
        for d in "$s"/*; do
            [ -e "$d" ] || continue
            if [ -d "$d" ]; then grade_one "$(basename "$d")" "$d/$file"; found=1
            elif [ "${d%.${file##*.}}" != "$d" ]; then grade_one "$(basename "$d" ".${file##*.}")" "$d"; found=1; fi
        done
        [ $found = 1 ] || { echo "grade: $s holds no $file, no student folders and no .${file##*.} files" >&2; any_failed=1; }
    else
        echo "grade: no such file or folder: $s" >&2
        any_failed=1
    fi
done

if [ "$(printf '%b' "$summary" | grep -c .)" -gt 1 ]; then
    echo
    echo "=== summary: $a"
    printf '%b' "$summary" | awk -F'|' '{ printf "%-28s %-22s %s\n", $1, $3, $2 }'
fi
exit $any_failed
