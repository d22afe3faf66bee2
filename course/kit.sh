#!/bin/sh
# course/kit.sh - make the kits students receive (`make course` runs it).
#
#   sh course/kit.sh [OUT] [--closed NAME,NAME...]     (default: build/course/kit)
#
# One kit per assignment, OUT/N_NAME/, each a folder to hand out whole:
#   sim2real.h        the student copy of the header: every exercise point's
#                     solution replaced by its stub (course/student_copy.sh)
#   course/           the harness, the judge and the driver, and N_NAME/
#                     with its README, skeleton and grader, plus
#     expected.txt    the public answers: the reference's answers for the
#                     checks the kit runs, measured on the reference by
#                     course/grade.sh (which must pass every check, or no
#                     kit is made); an integration check that needs an
#                     exercise still open in the kit keeps only its outcome
#                     band (the instructor's grader runs it);
#     library.o       the rest of the library, compiled from the full
#                     header with every open exercise left out: it holds no
#                     open exercise's reference, in any form;
#     stand_ins.c     the stubs of the other open exercises (the skeletons'
#                     code, visibly not solutions), which the grader links
#                     in their place.
# --closed (or KIT_CLOSED) names the exercises whose answers may be known
# (assignments handed in and graded): their references are compiled into
# every kit's library, and the integration checks that need them run in
# the kit.  None by default.  The instructor's guide (course/README.md)
# stays out of the kits.  Make the kits on the kind of machine the
# students use (library.o is object code: Debian's compiler and MuJoCo).
# A student runs, in the kit:  sh course/grade.sh N_NAME course/N_NAME/NAME.c
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
out=""
closed=${KIT_CLOSED:-}
while [ $# -gt 0 ]; do
    case "$1" in
        --closed) closed=${2:-}; shift 2 ;;
        --closed=*) closed=${1#--closed=}; shift ;;
        *) out=$1; shift ;;
    esac
done
out=${out:-$root/build/course/kit}
build=${GRADE_BUILD:-$root/build/course}
CC=${CC:-cc}
cc_host() { $CC -std=c99 -O2 -fopenmp -I"$root" -I"$here" -I/usr/include/stb "$@"; }   # paths quoted: spaces work
mkdir -p "$build"
exercises=$(sed -n 's/^#ifndef S2R_EXERCISE_\([A-Z_]*\)$/\1/p' "$root/sim2real.h" | tr A-Z a-z | sort -u)
for c in $(echo "$closed" | tr ',' ' '); do
    echo "$exercises" | grep -qx "$c" || { echo "kit: --closed $c: no such exercise (there: $(echo $exercises))" >&2; exit 2; }
done
is_closed() { case ",$closed," in *",$1,"*) return 0 ;; esac; return 1; }

rm -rf "$out.partial"
mkdir -p "$out.partial"
sh "$here/student_copy.sh" "$root/sim2real.h" "$out.partial/sim2real.h"
# the judge must compile here (grade.sh compiles it in the kit)
$CC -std=c99 -O2 "$here/judge.c" -o "$build/judge.kit.$$" -lm || {
    echo "kit: course/judge.c does not compile: no kit made" >&2; rm -rf "$out.partial"; exit 1; }
rm -f "$build/judge.kit.$$"

# The library of a kit whose open exercises are $1 (names): compiled once
# per set, its object's name printed.
library() {
    flags=""; tag=""
    for n in $1; do flags="$flags -DS2R_EXERCISE_$(echo "$n" | tr a-z A-Z)"; tag="${tag}_$n"; done
    obj="$build/kit_library${tag}.o"
    if [ ! -f "$obj" ] || [ "$root/sim2real.h" -nt "$obj" ]; then
        printf '#define SIM2REAL_IMPLEMENTATION\n#include "sim2real.h"\n' > "$build/kit_library.c"
        cc_host $flags -c "$build/kit_library.c" -o "$obj.partial.$$" >&2 && mv "$obj.partial.$$" "$obj" || return 1
    fi
    echo "$obj"
}
# The stubs of the exercises $1 (names), from their skeletons.
stand_ins() {
    echo "/* stand_ins.c - the stubs of the exercises still open in this kit (their"
    echo "   skeletons' code, not solutions): the grader links them in their place. */"
    echo '#include "sim2real.h"'
    echo '#include <math.h>'
    echo '#include <stdlib.h>'
    echo '#include <string.h>'
    for n in $1; do
        echo
        # the assignment's own stand-in for that exercise (course/A/stand_in_N.c), if it has one
        src_stub=$(ls "$here"/[0-9]*_"$n"/"$n".c); [ -f "$here/$2/stand_in_$n.c" ] && src_stub="$here/$2/stand_in_$n.c"
        awk '/^\/\* >> stub begin \*\/$/ { s = 1; next } /^\/\* >> stub end \*\/$/ { s = 0 } s' "$src_stub"
    done
}

for dir in "$here"/[0-9]*_*/; do
    a=$(basename "$dir")
    name=${a#*_}
    kit="$out.partial/$a"
    mkdir -p "$kit/course/$a"
    cp "$out.partial/sim2real.h" "$kit/"
    cp "$here/grade.h" "$here/grade.sh" "$here/judge.c" "$kit/course/"
    for f in "$dir"*; do
        case "$(basename "$f")" in answers*.txt|expected.txt|library.o|stand_ins.c) ;; *) cp "$f" "$kit/course/$a/" ;; esac
    done
    open=""; others=""
    for n in $exercises; do
        if [ "$n" = "$name" ]; then open="$open $n"
        elif ! is_closed "$n"; then open="$open $n"; others="$others $n"; fi
    done
    lib=$(library "$open") || { echo "kit: the library without$open does not compile: no kit made" >&2; rm -rf "$out.partial"; exit 1; }
    cp "$lib" "$kit/course/$a/library.o"
    [ -n "$others" ] && stand_ins "$others" "$a" > "$kit/course/$a/stand_ins.c"
    GRADE_BUILD="$build" sh "$here/grade.sh" "$a" --measure > "$build/kit_$a.log" 2>&1 || {
        cat "$build/kit_$a.log"; echo "kit: the reference does not pass course/$a's grader: no kit made" >&2
        rm -rf "$out.partial"; exit 1; }
    answers=$(tail -n 1 "$build/kit_$a.log")
    "$build/judge" --public "$answers" --closed "$(echo "$closed" | tr ' ' ',')" > "$kit/course/$a/expected.txt" || {
        echo "kit: the public answers of $a could not be made: no kit made" >&2; rm -rf "$out.partial"; exit 1; }
    echo "kit: $a: open in its library:$open; $(grep -c '^check ' "$kit/course/$a/expected.txt") checks public"
done
rm -f "$out.partial/sim2real.h"
rm -rf "$out"
mv "$out.partial" "$out"
echo "kit: $out/N_NAME/ for each assignment (hand out one such folder whole)"
