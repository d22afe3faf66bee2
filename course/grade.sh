#!/bin/sh
# course/grade.sh - grade one assignment: a student's file, a folder of
# submissions, the skeleton as handed out, or the reference.
#
#   sh course/grade.sh ASSIGNMENT [--seed S] [SUBMISSION ...]
#   sh course/grade.sh ASSIGNMENT [--seed S] --reference
#   sh course/grade.sh ASSIGNMENT --measure | --library
#
# ASSIGNMENT   an assignment folder in course/ (1_latency), its number (1)
#              or its name (latency)
# SUBMISSION   a student's file (e.g. latency.c); a folder holding that file
#              (one student, named after the folder); or a folder of such
#              folders or of such files (one student each).  None: the
#              skeleton in course/ASSIGNMENT, as handed out.
# --reference  the header's own solution (an instructor's check: 100 %)
# --seed S     the grading seed (GRADE_SEED): in the repository (the
#              instructor's side) each run draws a fresh one from
#              /dev/urandom, and the unit checks draw some of their inputs
#              from it, so their answers are not the public expected.txt;
#              the report prints it, and --seed S grades again on the same
#              inputs (the same grade).  --seed 0: the public fixed inputs,
#              as a kit grades (a kit grades only on those)
# --measure    only measure the reference's answers (once; the run that
#              measures them fails unless the reference passes every check),
#              and print the file's name
# --library    only compile the library without the exercise, and print
#              the object's name (a kit ships it as course/ASSIGNMENT/library.o,
#              so an assignment does not need the others done)
#
# Each submission is compiled against the student copy of the header
# (course/student_copy.sh: every exercise a stub; the repository, full
# header included, is hidden from the compile) with the exercise point
# switched off (-DS2R_EXERCISE_NAME), linked with the grader and the rest of the
# library (compiled once per assignment into GRADE_BUILD), and graded; a
# submission that does not compile, crashes or hangs gets a graded
# failure, and the next one is graded all the same.  With more than one
# submission a summary table ends the output.
#
# The reference's answers, which the graders compare with, are measured by
# running the grader on the reference (the header with solutions) the
# first time, into GRADE_BUILD, and again on each grading seed for the
# checks that read it; a student's kit made by `make course` ships the
# fixed inputs' answers as course/ASSIGNMENT/expected.txt instead.
#
# Environment: CC (cc), GRADE_BUILD (build/course beside course/),
# GRADE_TIMEOUT (seconds for a whole grader run; the sum of its checks' limits
# and a minute: a check's own limit is never cut by the run's), GRADE_UNITS (1: the
# unit checks alone, a quick look), GRADE_QUICK (1: the
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
limit=${GRADE_TIMEOUT:-}
# the instructor's compiles (the library, the reference's grader): its paths quoted, so a
# repository or build folder whose path holds a space or a glob character works
cc_host() { $CC -std=c99 -O2 -fopenmp -I"$root" -I"$here" -I/usr/include/stb "$@"; }
# a student's file: only its own folder (the student copy of the header, grade.h)
STUDENT_CFLAGS="-std=c99 -O2 -fopenmp -I. -I/usr/include/stb"
LIBS="-lmujoco -lm"

usage() { sed -n '2,29p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[ $# -ge 1 ] || usage
case "$1" in -h|--help) usage ;; esac
asked=$1; shift
seed=${GRADE_SEED:-}
case "${1:-}" in
    --seed) [ $# -ge 2 ] || usage; seed=$2; shift 2 ;;
    --seed=*) seed=${1#--seed=}; shift ;;
esac
for s in "$@"; do
    case "$s" in --seed|--seed=*) echo "grade: --seed S goes right after the assignment: sh course/grade.sh $asked --seed S ..." >&2; exit 2 ;; esac
done
case "$seed" in
    '') ;;
    *[!0-9]*|?????????????????????*) echo "grade: --seed $seed: not a number 0 .. 2^64 - 1" >&2; exit 2 ;;
esac
a=$asked
[ -d "$here/$a" ] || a=$(cd "$here" && ls -d "$a"_* [0-9]*_"$a" 2>/dev/null | head -n 1)
if [ -z "$a" ] || [ ! -f "$here/$a/grade.c" ]; then
    echo "grade: no assignment '$asked' in course/ (there: $(cd "$here" && ls -d [0-9]*_*/ | tr -d / | tr '\n' ' '))" >&2
    exit 2
fi
name=${a#*_}
# A grader that counts allocations (it says GRADE_COUNTS_ALLOCATIONS: 1_latency, whose push and
# read never allocate) is linked with the C library's allocators wrapped (malloc and its kin, the
# aligned ones, strdup, mmap), its own counters between every object's calls and the C library's.
grep -q 'GRADE_COUNTS_ALLOCATIONS' "$here/$a/grade.c" &&
    LIBS="$LIBS -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=reallocarray,--wrap=aligned_alloc,--wrap=posix_memalign,--wrap=memalign,--wrap=valloc,--wrap=strdup,--wrap=strndup,--wrap=mmap"
# What a student hands in: code (NAME.c, linked into the grader) or data
# (NAME.txt, e.g. a ranges file, given to the grader as --submission).
file="$name.c"
[ -f "$here/$a/$file" ] || file="$name.txt"
macro=S2R_EXERCISE_$(echo "$name" | tr a-z A-Z)
out="$build/$a"
# the assignment's folder holds the library with every other exercise's reference, the
# reference's grader, the answers and every student's report: the grading account's alone
# (a build folder outside a private repository, in /tmp say, is else open to every account)
mkdir -p "$out" && chmod 700 "$out" || exit 2
# this run's own files (two runs of one assignment at once must not share a compile log or a
# result): named with a leading '.', which no student's report can have, and removed at the end
run="$out/.run.$$"
trap 'rm -f "$run".*' EXIT
trap 'exit 2' INT TERM HUP

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
        # this run's own source file: two runs at once after a change of the header each write one
        printf '#define SIM2REAL_IMPLEMENTATION\n#include "sim2real.h"\n' > "$build/impl_reference.$$.c"
        echo "grade: compiling the library with its solutions (once)"
        cc_host -c "$build/impl_reference.$$.c" -o "$ref_obj.partial.$$" && chmod 600 "$ref_obj.partial.$$" &&
            mv "$ref_obj.partial.$$" "$ref_obj"
        rm -f "$build/impl_reference.$$.c"
    fi
}

# A student copy holds the stub (it says TODO(course ...)) where the
# header holds a solution: any exercise's - a kit's copy holds every open
# exercise's stub, the repository's header none - so a student who writes
# their own exercise into the kit's header still has a kit (the others'
# stubs), and 6_ranges, with no exercise in the header, is told alike.
has_solution=$(awk '/^\/\* >> solution [a-z0-9_]+ begin \*\/$/ { inside = 1 }
    inside && /TODO\(course/ { any = 1 }
    /^\/\* >> solution [a-z0-9_]+ end \*\/$/ { inside = 0 }
    END { print any ? 0 : 1 }' "$root/sim2real.h")
# A kit or the repository: the header beside course/ decides (a kit's is the student copy), never
# a file in course/ASSIGNMENT - a kit's expected.txt or library.o copied into the repository would
# else turn every instructor's run into one on the public inputs, which a reply replayed from
# expected.txt passes.  In the repository such a file is ignored, and said.
kit=0; [ $has_solution = 0 ] && kit=1
# a kit holds its own assignment only: one whose student wrote every exercise into its header is still one
if [ $kit = 0 ] && [ "$(cd "$here" && ls -d [0-9]*_*/ 2> /dev/null | wc -l)" = 1 ]; then kit=1; has_solution=0; fi
if [ $kit = 0 ]; then
    for f in expected.txt library.o stand_ins.c; do
        [ -e "$here/$a/$f" ] && echo "grade: course/$a/$f ignored: this is the repository (sim2real.h holds the solutions: it builds its own library, measures its own answers and grades on a seed) - a kit's file copied here? remove it" >&2
    done
fi

# The library without the exercise (every student links to it), and the
# reference with it: each compiled once, again only when the header changed.
impl="$out/impl_exercise.o"
has_exercise=1; grep -q "^#ifndef $macro\$" "$root/sim2real.h" || has_exercise=0
if [ $kit = 1 ] && [ -f "$here/$a/library.o" ]; then
    impl="$here/$a/library.o"   # a kit: the whole library but this exercise, as the instructor built it
elif [ $has_exercise = 0 ]; then
    reference_library || { echo "grade: the library does not compile" >&2; exit 2; }
    impl=$ref_obj   # no exercise point: the whole library
elif [ ! -f "$impl" ] || [ "$root/sim2real.h" -nt "$impl" ]; then
    printf '#define SIM2REAL_IMPLEMENTATION\n#include "sim2real.h"\n' > "$out/impl.$$.c"
    echo "grade: compiling the library without the $name exercise (once)"
    cc_host -D$macro -c "$out/impl.$$.c" -o "$impl.partial.$$" && mv "$impl.partial.$$" "$impl" ||
        { rm -f "$out/impl.$$.c"; echo "grade: the library does not compile" >&2; exit 2; }
    rm -f "$out/impl.$$.c"
fi
# The library with no exercise's reference at all, and the stand-ins (the skeletons' stubs)
# for the other exercises: on the instructor's side a student's unit checks, and the
# integration checks that need no other exercise, run on it, so the student's code cannot
# call (and print) another exercise's reference there.  The same object as an all-open kit's.
exercises=$(sed -n 's/^#ifndef S2R_EXERCISE_\([A-Z_]*\)$/\1/p' "$root/sim2real.h" | tr A-Z a-z | sort -u)
units_impl=""; units_stand_ins=""
# the stubs of every other exercise but those named in $2 (the ones the program keeps the
# references of), into $1
write_stand_ins() {
    { echo '#include "sim2real.h"'; echo '#include <math.h>'; echo '#include <stdlib.h>'; echo '#include <string.h>'
      for n in $exercises; do
          [ "$n" = "$name" ] && continue
          case " $2 " in *" $n "*) continue ;; esac
          # an assignment's own stand-in for another exercise (course/A/stand_in_N.c: not the
          # reference, e.g. 1_latency's FIXED-only randomization) before that skeleton's stub
          src_stub=$(ls "$here"/[0-9]*_"$n"/"$n".c); [ -f "$here/$a/stand_in_$n.c" ] && src_stub="$here/$a/stand_in_$n.c"
          awk '/^\/\* >> stub begin \*\/$/ { s = 1; next } /^\/\* >> stub end \*\/$/ { s = 0 } s' "$src_stub"
      done; } > "$1.$$" && mv "$1.$$" "$1"
}
if [ $kit = 0 ] && [ $has_exercise = 1 ] && [ "${file%.c}" != "$file" ]; then
    units_impl="$build/kit_library_$(echo $exercises | tr ' ' _).o"
    if [ ! -f "$units_impl" ] || [ "$root/sim2real.h" -nt "$units_impl" ]; then
        flags=""; for n in $exercises; do flags="$flags -DS2R_EXERCISE_$(echo "$n" | tr a-z A-Z)"; done
        printf '#define SIM2REAL_IMPLEMENTATION\n#include "sim2real.h"\n' > "$build/units_library.$$.c"
        echo "grade: compiling the library without any exercise (once)"
        cc_host $flags -c "$build/units_library.$$.c" -o "$units_impl.partial.$$" && mv "$units_impl.partial.$$" "$units_impl" ||
            { rm -f "$build/units_library.$$.c"; echo "grade: the library without the exercises does not compile" >&2; exit 2; }
        rm -f "$build/units_library.$$.c"
    fi
    units_stand_ins="$out/stand_ins_units.c"
    write_stand_ins "$units_stand_ins" ""
fi
# --library: only build that library and print its file's name (course/kit.sh).
if [ "${1:-}" = "--library" ]; then echo "$impl"; exit 0; fi
# A kit's stand-ins for the exercises still open in it (their stubs).
stand_ins=""; [ $kit = 1 ] && [ -f "$here/$a/stand_ins.c" ] && stand_ins="$here/$a/stand_ins.c"   # a kit's alone

# The judge: the program that decides (course/judge.c; it never links a
# student's code).
judge="$build/judge"
if [ ! -x "$judge" ] || [ "$here/judge.c" -nt "$judge" ]; then
    $CC -std=c99 -O2 "$here/judge.c" -o "$judge.partial.$$" -lm && mv "$judge.partial.$$" "$judge" ||
        { echo "grade: the judge does not compile" >&2; exit 2; }
fi


# The header a student's file compiles against: the student copy (every
# exercise a stub, course/student_copy.sh), made once from the full header
# in the repository; a kit's own header is that copy already.
student_header() {
    header="$root/sim2real.h"
    [ $has_solution = 1 ] || return 0
    header="$build/student/sim2real.h"
    if [ ! -f "$header" ] || [ "$root/sim2real.h" -nt "$header" ] || \
       [ -n "$(find "$here" -name '*.c' -newer "$header" 2> /dev/null | head -n 1)" ]; then
        sh "$here/student_copy.sh" "$root/sim2real.h" "$header.partial.$$" > /dev/null &&
            mv "$header.partial.$$" "$header" || { echo "grade: the student copy of the header cannot be made" >&2; return 1; }
    fi
}

reference_grader() {
    if [ ! -f "$out/grade_reference" ] || [ "$root/sim2real.h" -nt "$out/grade_reference" ] || \
       [ "$here/$a/grade.c" -nt "$out/grade_reference" ] || [ "$here/grade.h" -nt "$out/grade_reference" ]; then
        obj=$impl   # without an exercise point, the library students link to is the reference
        if [ $has_exercise = 1 ]; then reference_library || return 1; obj=$ref_obj; fi
        cc_host "$here/$a/grade.c" "$obj" -o "$out/grade_reference.partial.$$" $LIBS &&
            mv "$out/grade_reference.partial.$$" "$out/grade_reference" || return 1
    fi
}

# The skeleton as handed out (the stub: it does no work), as a worker of its own: on a
# grading seed the judge runs it on each seeded unit check with the checks' seed-independent
# results replayed from the fixed answers, and refuses a grader that such a partial replay
# passes (judge --skeleton).  The instructor's own files: compiled here, not in the sandbox.
skeleton_bin=""
skeleton_grader() {
    [ "${file%.c}" != "$file" ] && [ $has_exercise = 1 ] || return 0
    skeleton_bin="$out/grade_skeleton"
    if [ ! -f "$skeleton_bin" ] || [ "$impl" -nt "$skeleton_bin" ] || [ "$here/$a/grade.c" -nt "$skeleton_bin" ] || \
       [ "$here/$a/$file" -nt "$skeleton_bin" ] || [ "$here/grade.h" -nt "$skeleton_bin" ]; then
        cc_host -w -D$macro "$here/$a/grade.c" "$here/$a/$file" ${stand_ins:+"$stand_ins"} "$impl" -o "$skeleton_bin.partial.$$" $LIBS &&
            mv "$skeleton_bin.partial.$$" "$skeleton_bin" || return 1
    fi
}

# The answers: a kit's public expected values, or measured on the
# reference into a folder of their own (hidden from every check).
quick=""; [ "${GRADE_QUICK:-0}" = 1 ] && quick=".quick"
answers="$here/$a/expected.txt"
if [ $kit = 0 ] || [ ! -f "$answers" ]; then
    mkdir -p "$out/answers" && chmod 700 "$out/answers"
    answers="$out/answers/answers$quick.txt"
    if [ ! -f "$answers" ] || [ "$root/sim2real.h" -nt "$answers" ] || [ "$here/$a/grade.c" -nt "$answers" ] || \
       [ "$here/grade.h" -nt "$answers" ] || [ "$here/judge.c" -nt "$answers" ]; then
        if [ $has_solution = 0 ]; then
            echo "grade: no answers: this header is a student copy (no reference solution for $name) and" >&2
            echo "course/$a/expected.txt is missing; the kit made by 'make course' ships it" >&2
            exit 2
        fi
        echo "grade: measuring the reference's answers (once)"
        reference_grader || { echo "grade: the grader does not compile" >&2; exit 2; }
        "$judge" --record "$answers.partial.$$" --worker "$out/grade_reference" > "$run.record.log" 2>&1 || {
            cat "$run.record.log"; mv -f "$run.record.log" "$out/record.log"
            echo "grade: the reference does not pass its own grader" >&2; rm -f "$answers.partial.$$"; exit 2; }
        mv -f "$run.record.log" "$out/record.log"
        chmod 444 "$answers.partial.$$" && mv "$answers.partial.$$" "$answers"
    fi
fi

# --measure: only make sure the answers are measured (course/kit.sh).
if [ "${1:-}" = "--measure" ]; then echo "$answers"; exit 0; fi

# The grading seed.  A kit holds the fixed inputs' answers only (no
# reference to measure others); the repository draws a fresh seed per run
# unless one is given, and measures the reference's answers on it for
# every check that reads it, before any student is graded.
if [ $kit = 1 ]; then
    if [ -n "$seed" ] && [ "$seed" != 0 ]; then
        echo "grade: --seed $seed: a kit grades on the public fixed inputs only (expected.txt); grading on a seed" >&2
        echo "needs the reference, on the instructor's side" >&2
        exit 2
    fi
    seed=0
elif [ $has_solution = 1 ]; then
    [ -n "$seed" ] || seed=$(od -An -N8 -tu8 /dev/urandom | tr -d ' \n')
    seed=$(echo "$seed" | sed 's/^0*\([0-9]\)/\1/')
    [ -n "$seed" ] || seed=1
    if [ "$seed" != 0 ]; then
        seeded="$out/answers/answers$quick.seed-$seed.txt"
        if [ ! -f "$seeded" ] || [ "$answers" -nt "$seeded" ]; then
            echo "grade: measuring the reference's answers on the grading seed $seed"
            reference_grader || { echo "grade: the grader does not compile" >&2; exit 2; }
            skeleton_grader || { echo "grade: the skeleton does not compile with its grader" >&2; exit 2; }
            # the instructor's secret number: with the seed, the key of the centres of 4_sysid's test
            # losses, which only the judge holds (the same seed, the same answers)
            secret="$out/answers/secret"
            [ -s "$secret" ] || { (umask 077; od -An -N8 -tu8 /dev/urandom | tr -d ' \n' > "$secret.$$") && mv "$secret.$$" "$secret"; } ||
                { echo "grade: cannot write $secret" >&2; exit 2; }
            "$judge" --record "$seeded.partial.$$" --seed "$seed" --base "$answers" --worker "$out/grade_reference" \
                ${skeleton_bin:+--skeleton "$skeleton_bin"} --secret "$secret" > "$run.record_seed.log" 2>&1 || {
                cat "$run.record_seed.log"; mv -f "$run.record_seed.log" "$out/record_seed.log"
                echo "grade: no answers on the grading seed $seed (the judge says why above)" >&2
                rm -f "$seeded.partial.$$"; exit 2; }
            mv -f "$run.record_seed.log" "$out/record_seed.log"
            chmod 444 "$seeded.partial.$$" && mv "$seeded.partial.$$" "$seeded"
        fi
        answers=$seeded
    fi
else seed=0; fi

# The library the checks that need other exercises run on (an integration check's NEEDS, in the
# answers: 2_randomization's and 4_sysid's simulator runs the delay line): the references of those
# exercises only, every other exercise's stub in its place - a student's program there cannot call
# the reference of an exercise it does not need (another assignment's, still open).  None needed:
# every check runs on the library with no exercise's reference (grade_units).
needs=""; needs_impl=""; needs_stand_ins=""
if [ -n "$units_impl" ]; then
    needs=$(awk '$1 == "check" && $7 != "-" { print $7 }' "$answers" | tr ',' '\n' | sort -u | tr '\n' ' ')
    if [ -n "$needs" ]; then
        open=""; flags=""
        for n in $exercises; do
            case " $needs " in *" $n "*) continue ;; esac
            open="${open}_$n"; flags="$flags -DS2R_EXERCISE_$(echo "$n" | tr a-z A-Z)"
        done
        needs_impl="$build/kit_library$open.o"   # the name course/kit.sh gives that library
        if [ ! -f "$needs_impl" ] || [ "$root/sim2real.h" -nt "$needs_impl" ]; then
            printf '#define SIM2REAL_IMPLEMENTATION\n#include "sim2real.h"\n' > "$build/needs_library.$$.c"
            echo "grade: compiling the library with the references of $needs only (once)"
            cc_host $flags -c "$build/needs_library.$$.c" -o "$needs_impl.partial.$$" && mv "$needs_impl.partial.$$" "$needs_impl" ||
                { rm -f "$build/needs_library.$$.c"; echo "grade: the library for the integration checks does not compile" >&2; exit 2; }
            rm -f "$build/needs_library.$$.c"
        fi
        needs_stand_ins="$out/stand_ins_needs.c"
        write_stand_ins "$needs_stand_ins" "$needs"
    fi
fi

# The whole grader run's limit: by default every check's own limit (and the 2 s each may take
# to exit after its reply), and a minute (a fixed 600 s cut 6_ranges' 900 s row check short)
[ -n "$limit" ] || limit=$(awk '$1 == "check" { t += $4 + 2 } END { print t + 60 }' "$answers")

# Grade one student's file ($2, may be missing) under the name $1; $3:
# the folder of submissions it came from (hidden from its checks).
max_bytes=${GRADE_MAX_BYTES:-1048576}
# what the compiler said of a student's file, fit for a terminal and a log: every byte outside
# printable ASCII (terminal escapes among them) shown as '?', lines cut at 300 characters, and
# each under "      | " as a check's output is: a file name of the student's can hold a newline
# (#line "x\nscore: ..."), so no line of it may start a line of the report
shown() { LC_ALL=C tr -c '\n -~' '?' | cut -c1-300 | sed 's/^/      | /'; }
# the points a run grades (for the score line of a file that does not compile): the checks of
# the answers that run here (not a kit's "not run here", --units, GRADE_ONLY)
total_points() {
    awk -v units="${GRADE_UNITS:-0}" -v only="${GRADE_ONLY:-}" '$1 == "check" {
        name = $0; for (i = 1; i <= 7; i++) sub(/^[^ ]+ /, "", name)
        if ($6 == 2 || (units == 1 && $5 == "integration") || (only != "" && !index(name, only))) next
        t += $3 } END { print t + 0 }' "$answers"
}
summary=""
any_failed=0
graded=""   # the students' names graded so far
reserved="compile copy record record_seed reference result answers student impl impl_exercise grade_reference grade_data grade_skeleton summary"
refuse() {   # who, why
    printf 'refused: %s\n' "$2"
    summary="$summary$1|$2|0|-\n"; any_failed=1
}
grade_one() {
    who=$1; src=$2; from=${3:-}; work=""; bin_units=""
    # a folder that holds the library or the build is not hidden (the checks need them)
    case "$root/" in "$from"/*) from="" ;; esac
    case "$build/" in "$from"/*) from="" ;; esac
    safe=$who
    # a student's name (a folder's or file's) names the report: only letters, digits, '.', '_'
    # and '-', or two names could share a report, and a newline could forge a summary row
    if [ "$src" != "--reference" ] && [ "$src" != "$here/$a/$file" ]; then
        case "$who" in ''|.*|-*|*[!A-Za-z0-9._-]*)
            shown=$(printf '%s' "$who" | tr -c 'A-Za-z0-9._-' '?')
            printf '=== %s\n' "$shown"
            refuse "$shown" "not graded: the name \"$shown\" is empty, starts with '.' or '-', or holds characters outside A-Z a-z 0-9 . _ - (shown as ?): rename the folder or file"
            return ;;
        esac
        # one report per name: a name the grader's own files use, or one already graded in
        # this run (a folder carol/ and a file carol.c), would share (and overwrite) a report
        case " $reserved " in *" $who "*)
            printf '=== %s\n' "$who"
            refuse "$who" "not graded: \"$who\" is a name the grader uses for its own files ($reserved): rename the folder or file"
            return ;;
        esac
        case " $graded " in *" $who "*)
            printf '=== %s\n' "$who"
            refuse "$who" "not graded: another submission of this run is named \"$who\" too (a folder and a file?): give each its own name"
            return ;;
        esac
        graded="$graded $who"
    fi
    safe=$(printf '%s\n' "$who" | tr -c 'A-Za-z0-9._\n-' _)   # the skeleton's and the reference's labels
    log="$out/$safe.log"
    printf '=== %s\n' "$who"
    data=""
    if [ "$src" = "--reference" ]; then
        [ $has_solution = 1 ] || { echo "grade: --reference: this header is a student copy, with no reference to grade (use the repository)" >&2; exit 2; }
        reference_grader || { echo "grade: the grader does not compile" >&2; exit 2; }
        bin="$out/grade_reference"
    elif [ -L "$src" ]; then refuse "$who" "$file is a symbolic link (hand in the file itself)"; return
    elif [ ! -e "$src" ]; then
        echo "missing: $file (nothing to grade)"
        summary="$summary$who|missing $file|0|-\n"; any_failed=1; return
    elif [ ! -f "$src" ]; then refuse "$who" "$file is not a regular file"; return
    elif [ "$(wc -c < "$src")" -gt "$max_bytes" ]; then
        refuse "$who" "$file is $(( $(wc -c < "$src") / 1048576 )) MB: a submission is one file of at most $((max_bytes / 1024)) kB"; return
    elif [ "${file%.txt}" != "$file" ]; then
        if [ ! -f "$out/grade_data" ] || [ "$impl" -nt "$out/grade_data" ] || [ "$here/$a/grade.c" -nt "$out/grade_data" ] || \
           [ "$here/grade.h" -nt "$out/grade_data" ]; then
            cc_host "$here/$a/grade.c" ${stand_ins:+"$stand_ins"} "$impl" -o "$out/grade_data.partial.$$" $LIBS &&
                mv "$out/grade_data.partial.$$" "$out/grade_data" || { echo "grade: the grader does not compile" >&2; exit 2; }
        fi
        bin="$out/grade_data"; data="$src"
    else
        # compiled in the sandbox, from copies in a folder of its own outside the
        # repository (or kit), which is hidden from the compile: the student's file sees
        # the student copy of the header (the exercises as stubs), never the full one
        student_header || exit 2
        # (a folder of the grading account's, 711, holding the one the compile writes: as root the
        # compile runs as nobody, and the program it made is the grading account's before it runs)
        ctop=$(mktemp -d "${GRADE_SCRATCH:-${TMPDIR:-/tmp}}/s2r_compile.XXXXXX") && chmod 711 "$ctop" &&
            work="$ctop/c" && mkdir "$work" || exit 2
        # The compile of the student's file sees only its copy, grade.c, grade.h, the student
        # header and the stand-ins: no object holding a reference (library.o has every other
        # exercise's) is in its folder, or the assembler's .incbin could embed it.  The
        # objects are linked in a second step, which reads no file a student's object names.
        # The student's file is copied by the judge, which follows no symbolic link and copies
        # only a regular file of at most max_bytes - the file it opened, not the one tested
        # above: a file swapped for a link to another student's in between is refused here.
        "$judge" --copy "$src" "$work/$file" "$max_bytes" 2> "$run.copy.log"
        case $? in
            0) ;;
            3|4|5) rm -rf "$ctop"
                   refuse "$who" "$file changed while it was being graded (now $(sed -n 's/^judge: --copy .*: //p' "$run.copy.log")): hand in one regular file, and leave it alone"
                   return ;;
            *) cat "$run.copy.log" >&2; exit 2 ;;
        esac
        cp "$here/$a/grade.c" "$work/grade.c" &&
            cp "$header" "$work/sim2real.h" && cp "$here/grade.h" "$work/grade.h" || exit 2
        extra=""; [ -n "$stand_ins" ] && { cp "$stand_ins" "$work/stand_ins.c"; extra="stand_ins.c"; }
        [ "$(id -u)" = 0 ] && chown -R 65534:65534 "$work"
        # hidden from the compile besides: the repository, the build folder outside it, the
        # folder of GRADE_REFERENCE_LIBRARY (each passed as one word: paths may hold spaces)
        build_apart=""; case "$build/" in "$root"/*) ;; *) build_apart=$build ;; esac
        reflib_dir=""; [ -n "${GRADE_REFERENCE_LIBRARY:-}" ] && [ -f "$GRADE_REFERENCE_LIBRARY" ] &&
            reflib_dir=$(cd "$(dirname "$GRADE_REFERENCE_LIBRARY")" && pwd)
        compiled=0
        if GRADE_RUN_SECONDS=120 "$judge" --run --scratch "$work" --hide "$(dirname "$answers")" ${from:+--hide "$from"} \
               --hide "$root" ${build_apart:+--hide "$build_apart"} ${reflib_dir:+--hide "$reflib_dir"} -- sh -c "$CC $STUDENT_CFLAGS -Wall -D$macro -c grade.c $file $extra" \
               > "$run.compile.log" 2>&1 && [ -f "$work/$name.o" ] && [ ! -L "$work/$name.o" ]; then
            # the link: the library (and, for the checks that need no other exercise, the
            # library with no exercise's reference, the others' stubs in their place)
            # (and, for the checks that need other exercises, the library with those exercises'
            # references only: needs_impl; none needed, grade_units runs every check)
            rm -f "$work/library.o" "$work/library_units.o" "$work/stand_ins_units.c" "$work/stand_ins_needs.c" || exit 2
            if [ -z "$units_impl" ]; then
                cp "$impl" "$work/library.o" || exit 2
                link="$CC $STUDENT_CFLAGS grade.o $name.o ${extra:+${extra%.c}.o} library.o -s -o grade $LIBS"
            else
                cp "$units_impl" "$work/library_units.o" && cp "$units_stand_ins" "$work/stand_ins_units.c" || exit 2
                link="$CC $STUDENT_CFLAGS -w -c stand_ins_units.c && $CC $STUDENT_CFLAGS grade.o $name.o stand_ins_units.o library_units.o -s -o grade_units $LIBS"
                if [ -n "$needs_impl" ]; then
                    cp "$needs_impl" "$work/library.o" && cp "$needs_stand_ins" "$work/stand_ins_needs.c" || exit 2
                    link="$link && $CC $STUDENT_CFLAGS -w -c stand_ins_needs.c && $CC $STUDENT_CFLAGS grade.o $name.o stand_ins_needs.o library.o -s -o grade $LIBS"
                fi
            fi
            [ "$(id -u)" = 0 ] && chown 65534:65534 "$work"/library*.o "$work"/stand_ins_*.c 2> /dev/null
            GRADE_RUN_SECONDS=120 "$judge" --run --scratch "$work" --hide "$(dirname "$answers")" ${from:+--hide "$from"} \
               --hide "$root" ${build_apart:+--hide "$build_apart"} ${reflib_dir:+--hide "$reflib_dir"} -- sh -c "$link" \
               >> "$run.compile.log" 2>&1 && { [ -n "$units_impl" ] || [ -f "$work/grade" ]; } &&
               { [ -z "$units_impl" ] || [ -f "$work/grade_units" ]; } && { [ -z "$needs_impl" ] || [ -f "$work/grade" ]; } && compiled=1
        fi
        if [ $compiled = 0 ]; then
            { head -n 25 "$run.compile.log" | shown
              if [ $kit = 1 ] && [ -f "$here/$a/library.o" ] && grep -q "library.o" "$run.compile.log" && ! grep -q "$file" "$run.compile.log"; then
                  echo "(the kit's course/$a/library.o does not link here: a kit holds object code for the kind"
                  echo " of machine it was made on - ask for a kit made on this one)"
              fi
              echo "FAIL does not compile (the compiler's first messages are above)"
              echo "score: 0 / $(total_points) points"
              echo "0 passed, 1 failed"; } > "$log"
            cat "$log"
            rm -rf "$ctop"
            summary="$summary$who|does not compile|0|$log\n"; any_failed=1; return
        fi
        grep -q "warning" "$run.compile.log" && { echo "(compiler warnings:)"; grep -A3 "warning" "$run.compile.log" | head -n 12 | shown; }
        [ "$(id -u)" = 0 ] && { chown -R 0:0 "$work" && chmod -R go-w "$work" || exit 2; }
        bin="$work/grade"
        if [ -n "$units_impl" ] && [ -n "$needs_impl" ]; then bin_units="$work/grade_units"
        elif [ -n "$units_impl" ]; then bin="$work/grade_units"; fi
    fi
    rm -f "$run.result"
    timeout -s KILL "$limit" "$judge" --answers "$answers" --worker "$bin" ${bin_units:+--unit-worker "$bin_units"} --result "$run.result" --name "$who ($a)" --hide "$build" ${from:+--hide "$from"} \
        ${data:+--submission "$data"} ${GRADE_ONLY:+--only "$GRADE_ONLY"} $([ "${GRADE_UNITS:-0}" = 1 ] && echo --units) > "$log" 2>&1
    rc=$?
    cat "$log"
    [ -z "$work" ] || rm -rf "$ctop"
    [ $rc = 137 ] && echo "FAIL the whole grader ran over $limit s"
    # the verdict is the judge's result file, never text the checks printed
    if [ -f "$run.result" ] && read points total passed failed < "$run.result"; then
        result="$passed passed, $failed failed"; score="$points / $total points"
    else result="grader stopped (status $rc)"; score=0; fi
    [ $rc = 0 ] || any_failed=1
    summary="$summary$who|$result|$score|$log\n"
}

# a GRADE_ONLY that names no check would grade nothing, and pass
if [ -n "${GRADE_ONLY:-}" ] && ! awk -v only="$GRADE_ONLY" '$1 == "check" { $1 = $2 = $3 = $4 = $5 = $6 = $7 = ""; sub(/^ +/, "")
        if (index($0, only)) found = 1 } END { exit !found }' "$answers"; then
    echo "grade: GRADE_ONLY='$GRADE_ONLY' matches no check of $a; its checks:" >&2
    awk '$1 == "check" { $1 = $2 = $3 = $4 = $5 = $6 = $7 = ""; sub(/^ +/, ""); print "  " $0 }' "$answers" >&2
    exit 2
fi
if [ $# = 0 ]; then
    grade_one "skeleton ($a/$file)" "$here/$a/$file"
fi
for s in "$@"; do
    while [ "${s%/}" != "$s" ] && [ "$s" != / ]; do s=${s%/}; done
    if [ "$s" = "--reference" ]; then
        grade_one "reference" --reference
    elif [ -L "$s" ]; then
        grade_one "$(basename -- "$s" | sed 's/\.[a-z]*$//')" "$s"
    elif [ -f "$s" ]; then
        dir=$(cd "$(dirname "$s")" && pwd)
        case "$dir/" in "$here"/*) dir="" ;; esac   # the kit's own folder holds its grader
        grade_one "$(basename -- "$s" | sed 's/\.[a-z]*$//')" "$s" "$dir"
    elif [ -d "$s" ] && [ -e "$s/$file" -o -L "$s/$file" ]; then
        grade_one "$(basename -- "$s")" "$s/$file" "$(cd "$s" && pwd)"
    elif [ -d "$s" ]; then
        found=0
        top=$(cd "$s" && pwd)
        # names starting with '.' too (a student's ".ada/" would vanish from the table): those
        # that hold a submission are listed, refused for their name; other dot entries (.git,
        # .DS_Store) are not submissions
        for d in "$s"/* "$s"/.[!.]* "$s"/..?*; do
            [ -e "$d" ] || [ -L "$d" ] || continue
            case "$(basename -- "$d")" in .*)
                [ -L "$d" ] || [ -e "$d/$file" ] || [ -L "$d/$file" ] || [ "${d%.${file##*.}}" != "$d" ] || continue ;;
            esac
            if [ -L "$d" ]; then printf '=== %s\n' "$(basename -- "$d")"; refuse "$(basename -- "$d")" "a symbolic link, not a folder or file of its own"; found=1
            elif [ -d "$d" ]; then grade_one "$(basename -- "$d")" "$d/$file" "$top"; found=1
            elif [ "${d%.${file##*.}}" != "$d" ]; then grade_one "$(basename -- "$d" ".${file##*.}")" "$d" "$top"; found=1; fi
        done
        [ $found = 1 ] || { echo "grade: $s holds no $file, no student folders and no .${file##*.} files" >&2; any_failed=1; }
    else
        echo "grade: no such file or folder: $s" >&2
        any_failed=1
    fi
done

if [ "$(printf '%b' "$summary" | grep -c .)" -gt 1 ]; then
    echo
    echo "=== summary: $a (grading seed: $seed)"
    printf '%b' "$summary" | awk -F'|' '{ printf "%-28s %-22s %s\n", $1, $3, $2 }'
    "$judge" --sandbox > /dev/null 2>&1 ||
        echo "sandbox: NO namespaces here ($judge --sandbox says what is open): these grades are not safe against a hostile student"
fi
# the public inputs: every answer is in a kit's expected.txt, so a forged reply takes full marks
# (said for a class - a summary - or in the repository; not on a student's own run of a kit)
[ "$seed" = 0 ] && [ -n "$graded" ] && { [ $kit = 0 ] || [ "$(printf '%b' "$summary" | grep -c .)" -gt 1 ]; } &&
    echo "GRADED ON THE PUBLIC INPUTS (seed 0$([ $kit = 1 ] && echo ': a kit'), no grading seed): a reply replayed from expected.txt would pass - grade in the repository, on a seed (the default), to trust these grades"
exit $any_failed
