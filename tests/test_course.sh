#!/bin/sh
# tests/test_course.sh - the course kit's tests (course/).
#
#   sh tests/test_course.sh [ASSIGNMENT ...]     (from the repository root)
#
# 1. The student copy (course/student_copy.sh): it is made, it compiles as
#    C99 and as C++, it differs from sim2real.h only between the solution
#    markers, and no line of a solution survives in it.
# 2. Every grader (or the ones named), against
#    - the reference (the header's own solution): every check passes;
#    - the skeleton as handed out: it fails, with messages;
#    - tests/course/ASSIGNMENT/right*.c, correct implementations written
#      apart from the reference: every check passes (and its "regrade:
#      CHECK on SEED ..." line's check on those grading seeds too);
#    - tests/course/ASSIGNMENT/wrong_*.c, each a typical mistake: it fails,
#      and the check its "expect: FAIL <name>" line names is among the
#      failures (and its "says: TEXT" line, if any, is in the messages),
#      and fails it again with its messages dropped and its expectations
#      sent as held (tests/course/silenced.c appended): on a compared result;
#    - right.c again on two more grading seeds (the unit checks: some
#      integration checks draw from it too), so a correct answer
#      passes on three; and (1_latency) the same seed measured twice gives
#      the same answers and the same grade;
#    - tests/course/ASSIGNMENT/attack_*.c, attacks on that assignment's
#      grader, on the grading seed: "expect: FAIL <name>" scores 0 on that
#      check, "expect: PASS every check" gets nothing from its attack.
# 3. The one-command grading of a folder of submissions (one right, one
#    wrong, one that does not compile, one missing the file, one that
#    crashes and one that loops forever): each student is graded, the run
#    ends, and the summary names them all.
# 4. Submissions that attack the grader (tests/course/attacks/), graded as
#    one folder with correct students and bad input (links, 100 MB, headers
#    beside the file), on a fresh grading seed: the attacks score nothing on
#    what they attack, the others keep their grades, the answers are
#    untouched, nothing is left (no process, no SysV IPC object, with
#    namespaces or without); the replay of the public answers, which
#    scores nothing there, takes full marks on the fixed inputs (--seed 0).
# 5. The kits (course/kit.sh), used as a student would.
# Prints one line per check and "N passed, N failed"; exits 1 on a failure.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2
build=${GRADE_BUILD:-$root/build/course}
export GRADE_BUILD="$build"
# Graders may cut the budgets of their slowest checks under GRADE_QUICK=1
# (the open assignment trains for 8k steps instead of 200k): here the
# path is tested, not the ranges.
export GRADE_QUICK=${GRADE_QUICK:-1}
# The instructor's runs grade on a seed (course/grade.sh --seed): here one
# fixed seed for every run (its answers measured once per assignment),
# two more for the correct answers, a fresh one for the attacks.
export GRADE_SEED=${GRADE_SEED:-271828}
mkdir -p "$build/test"
passed=0; failed=0
ok()   { echo "ok   course: $1"; passed=$((passed + 1)); }
fail() { echo "FAIL course: $1"; failed=$((failed + 1)); }

assignments=${*:-$(cd course && ls -d [0-9]*_*/ | tr -d / | tr '\n' ' ')}
tested_all=0; [ $# = 0 ] && tested_all=1

# --- 1. the student copy ----------------------------------------------------
copy="$build/test/student/sim2real.h"
if sh course/student_copy.sh sim2real.h "$copy" > "$build/test/copy.log" 2>&1; then
    ok "the student copy is made"
    printf '#define SIM2REAL_IMPLEMENTATION\n#include "sim2real.h"\n' > "$build/test/student/impl.c"
    cp "$build/test/student/impl.c" "$build/test/student/impl.cpp"
    if ${CC:-cc} -std=c99 -Wall -Wextra -pedantic -fopenmp -I"$build/test/student" -I/usr/include/stb -fsyntax-only \
         "$build/test/student/impl.c" > "$build/test/c99.log" 2>&1 && ! grep -q warning "$build/test/c99.log"; then
        ok "the student copy compiles as C99, without warnings"
    else fail "the student copy does not compile cleanly as C99 ($build/test/c99.log)"; fi
    if ${CXX:-c++} -Wall -fopenmp -I"$build/test/student" -I/usr/include/stb -fsyntax-only \
         "$build/test/student/impl.cpp" > "$build/test/cxx.log" 2>&1; then
        ok "the student copy compiles as C++"
    else fail "the student copy does not compile as C++ ($build/test/cxx.log)"; fi
    # outside the solution markers, the two are the same line for line
    outside='/^\/\* >> solution [a-z0-9_]+ begin \*\/$/ { skip = 1; print; next }
             /^\/\* >> solution [a-z0-9_]+ end \*\/$/ { skip = 0 } !skip { print }'
    if awk "$outside" sim2real.h > "$build/test/outside_ref" && awk "$outside" "$copy" > "$build/test/outside_copy" && \
       cmp -s "$build/test/outside_ref" "$build/test/outside_copy"; then
        ok "the student copy differs from the header only between the solution markers"
    else fail "the student copy differs from the header outside the solution markers"; fi
    # no solution line of any substance survives anywhere in the copy
    awk '/^\/\* >> solution [a-z0-9_]+ begin \*\/$/ { s = 1; next } /^\/\* >> solution [a-z0-9_]+ end \*\/$/ { s = 0 }
         s { sub(/^[ \t]+/, ""); if (length($0) >= 24 && $0 !~ /^(\/\*|\*|})/) print }' sim2real.h | sort -u > "$build/test/solution_lines"
    # lines a stub must share with its solution do not count: those said outside the markers
    # too, and a skeleton's signature lines
    { sed 's/^[ \t]*//' "$build/test/outside_ref"
      for f in course/*/*.c; do awk '/^\/\* >> stub end \*\/$/ { s = 0 }
          s { sub(/^[ \t]+/, ""); if ($0 ~ /^S2RDEF / || ($0 ~ /(\) \{|,)$/ && $0 !~ /[;=]/)) print }
          /^\/\* >> stub begin \*\/$/ { s = 1 }' "$f"; done
    } | sort -u > "$build/test/shared_lines"
    grep -vxFf "$build/test/shared_lines" "$build/test/solution_lines" > "$build/test/solution_only" || true
    mv "$build/test/solution_only" "$build/test/solution_lines"
    survivors=$(sed 's/^[ \t]*//' "$copy" | grep -xFf "$build/test/solution_lines" | head -n 3)
    n_solution=$(wc -l < "$build/test/solution_lines")
    if [ "$n_solution" -gt 100 ] && [ -z "$survivors" ]; then
        ok "none of the $n_solution solution lines survives in the student copy"
    else fail "solution lines survive in the student copy (or too few found: $n_solution): $survivors"; fi
else
    fail "the student copy could not be made: $(cat "$build/test/copy.log")"
fi

# --- 2. every grader against the reference, the skeleton, right and wrong ---
# The libraries the graders link to, compiled first, two at a time.
printf '%s\n' $assignments | xargs -P "${THREADS:-2}" -I{} sh course/grade.sh {} --library > "$build/test/libraries.log" 2>&1 ||
    { fail "the graders' libraries do not compile ($build/test/libraries.log)"; tail -n 20 "$build/test/libraries.log"; }
# One assignment's lines ("ok ..." / "FAIL ..."), on standard output.
# Grade test file $2 of assignment $1 into log $3 as one submission (a submission is one file: the
# right.c it includes, pasted in, at $one); rc is grade.sh's status.
grade_one() {
    one="$build/test/one/$1/$(basename "$2")"
    mkdir -p "$(dirname "$one")"
    awk -v dir="$(dirname "$2")" '/^#include "right[a-z_]*\.c"$/ { f = $2; gsub(/"/, "", f); while ((getline l < (dir "/" f)) > 0) print l; next }
         { print }' "$2" > "$one"
    sh course/grade.sh "$1" "$one" > "$3" 2>&1
    rc=$?
}

test_assignment() {
    a=$1
    [ -f "course/$a/grade.c" ] || { fail "$a: no course/$a/grade.c"; return; }
    log="$build/test/$a"
    sh course/grade.sh "$a" --reference > "$log.reference.log" 2>&1
    if [ $? = 0 ] && grep -q '^[1-9][0-9]* passed, 0 failed$' "$log.reference.log"; then
        ok "$a: the reference passes every check ($(grep '^score:' "$log.reference.log"))"
    else fail "$a: the reference fails its grader ($log.reference.log)"; tail -n 20 "$log.reference.log"; fi
    # its folder (the other exercises' references, the answers, the reports) is the grading account's alone
    [ "$(stat -c %a "$build/$a")" = 700 ] && { [ ! -f "$build/impl_reference.o" ] || [ "$(stat -c %a "$build/impl_reference.o")" = 600 ]; } &&
        ok "$a: build/course/$a is mode 700 (and the library with the solutions, if built, 600)" ||
        fail "$a: build/course/$a or impl_reference.o is open to other accounts ($(stat -c %a "$build/$a"))"
    sh course/grade.sh "$a" > "$log.skeleton.log" 2>&1
    if [ $? = 1 ] && grep -q '^[0-9]* passed, [1-9][0-9]* failed$' "$log.skeleton.log" && grep -q '^      - ' "$log.skeleton.log"; then
        ok "$a: the skeleton as handed out fails, saying why ($(grep -E '^[0-9]+ passed' "$log.skeleton.log"))"
    else fail "$a: the skeleton does not fail every check ($log.skeleton.log)"; fi
    # GRADE_ONLY leaves unit checks out of the report, not out of the gate: the skeleton's
    # integration checks alone are skipped (a forged reply would else take their points)
    if grep -q '^FAIL integration' "$log.skeleton.log"; then
        GRADE_ONLY=integration sh course/grade.sh "$a" > "$log.only.log" 2>&1
        [ $? = 1 ] && grep -q '^score: 0 / ' "$log.only.log" && ! grep -q '^PASS' "$log.only.log" &&
            grep -q '^FAIL integration' "$log.only.log" && [ "$(grep -c '^FAIL integration' "$log.only.log")" = "$(grep -c 'left out of this report by --only, not out of the gate' "$log.only.log")" ] &&
            ok "$a: GRADE_ONLY=integration still runs the unit checks first: the skeleton's integration checks are skipped" ||
            fail "$a: GRADE_ONLY=integration skips the unit gate ($log.only.log)"
    fi
    for f in tests/course/$a/right*; do
        [ -f "$f" ] || continue
        flog="$log.$(basename "$f" | sed 's/\.[a-z]*$//').log"
        sh course/grade.sh "$a" "$f" > "$flog" 2>&1
        rc=$?
        # "says: TEXT" (in a ranges file, after a #): what its report must say
        says=$(sed -n 's/^[# ]*says: \(.*[^ ]\) *\*\/ *$/\1/p; s/^[# ]*says: \(.*[^ ]\) *$/\1/p' "$f" | head -n 1)
        if [ $rc = 0 ] && { [ -z "$says" ] || grep -F -- "$says" "$flog" > /dev/null; }; then
            ok "$a: $(basename "$f") (a correct answer of its own) passes${says:+, saying \"$says\"}"
        else fail "$a: $(basename "$f"), a correct answer, fails or does not say \"$says\" ($flog)"
             grep -A3 '^FAIL' "$flog" | head -n 12; fi
        # "regrade: CHECK on SEED ...": that check again on those grading seeds, where it once failed it
        regrade=$(sed -n 's/^[# ]*regrade: \(.*[^ ]\) on \([0-9 ]*[0-9]\) *\*\/ *$/\1|\2/p' "$f" | head -n 1)
        if [ -n "$regrade" ]; then
            seeds_ok=""; seeds=${regrade#*|}
            for seed in $seeds; do
                GRADE_ONLY="${regrade%%|*}" sh course/grade.sh "$a" --seed "$seed" "$f" > "${flog%.log}_seed$seed.log" 2>&1 &&
                    grep -q "^PASS .*${regrade%%|*}" "${flog%.log}_seed$seed.log" && seeds_ok="$seeds_ok $seed"
            done
            [ "$seeds_ok" = " $seeds" ] &&
                ok "$a: $(basename "$f") passes \"${regrade%%|*}\" on the grading seeds $seeds" ||
                { fail "$a: $(basename "$f") fails \"${regrade%%|*}\" on a grading seed (passed on:$seeds_ok; ${flog%.log}_seed*.log)"
                  grep -h -A4 '^FAIL' "${flog%.log}"_seed*.log | head -n 12; }
        fi
    done
    # two more grading seeds: a correct answer passes on every one
    if [ -f "tests/course/$a/right.c" ] && grep -q 'grade_seed()' "course/$a/grade.c"; then
        seeds_ok=""
        for seed in 314159 161803; do
            GRADE_SEED=$seed GRADE_UNITS=1 sh course/grade.sh "$a" tests/course/$a/right.c > "$log.right_seed$seed.log" 2>&1 &&
                grep -q "^grading seed: $seed " "$log.right_seed$seed.log" && grep -q '(seeded)$' "$log.right_seed$seed.log" &&
                seeds_ok="$seeds_ok $seed"
        done
        [ "$seeds_ok" = " 314159 161803" ] &&
            ok "$a: right.c passes on the grading seeds $GRADE_SEED, 314159 and 161803 (the unit checks draw inputs from each)" ||
            { fail "$a: right.c fails on a grading seed (passed on:$seeds_ok; $log.right_seed*.log)"; grep -h -A3 '^FAIL' "$log".right_seed*.log | head -n 12; }
    fi
    wrong=0
    for f in tests/course/$a/wrong_*; do
        [ -f "$f" ] || continue
        wrong=$((wrong + 1))
        expect=$(sed -n 's/^.*expect: FAIL \(.*[^ ]\) *\*\/.*$/\1/p; s/^.*expect: FAIL \(.*[^ ]\) *$/\1/p' "$f" | head -n 1)
        flog="$log.$(basename "$f" | sed 's/\.[a-z]*$//').log"
        grade_one "$a" "$f" "$flog"
        # "says: TEXT": the message must name the cause
        says=$(sed -n 's/^[# ]*says: \(.*[^ ]\) *\*\/ *$/\1/p; s/^[# ]*says: \(.*[^ ]\) *$/\1/p' "$f" | head -n 1)
        if [ $rc = 1 ] && [ -n "$expect" ] && grep -F "FAIL $expect" "$flog" > /dev/null && \
           { [ -z "$says" ] || grep -F -- "$says" "$flog" > /dev/null; }; then
            ok "$a: $(basename "$f") is caught by \"$expect\"${says:+, saying \"$says\"}"
        else fail "$a: $(basename "$f") not caught as expected (rc $rc, expected FAIL $expect; $flog)"; fi
        # again with every message dropped and every expectation sent as held (silenced.c: an
        # fprintf of the student's file takes the worker's): the mistake must still fail its check,
        # on a result compared with the reference's, not on the worker's word alone
        case "$f" in *.c)
            { cat "$one"; cat tests/course/silenced.c; } > "${one%.c}_silenced.c"
            GRADE_ONLY="$expect" sh course/grade.sh "$a" "${one%.c}_silenced.c" > "${flog%.log}_silenced.log" 2>&1
            if [ $? = 1 ] && grep -F "FAIL $expect" "${flog%.log}_silenced.log" > /dev/null; then
                ok "$a: $(basename "$f"), its messages silenced, still fails \"$expect\" (on a compared result)"
            else fail "$a: $(basename "$f"), its messages silenced, passes \"$expect\": caught only by the worker's word (${flog%.log}_silenced.log)"; fi
        ;; esac
    done
    [ $wrong -ge 2 ] && ok "$a: $wrong typical mistakes kept as tests" || fail "$a: fewer than two wrong implementations in tests/course/$a"
    # data that changes what the simulator draws (tests/course/ASSIGNMENT/differs_*): never taken for the default
    for f in tests/course/$a/differs_*; do
        [ -f "$f" ] || continue
        GRADE_UNITS=1 sh course/grade.sh "$a" "$f" > "$log.$(basename "$f").log" 2>&1
        grep -q '^PASS it is not the default ranges' "$log.$(basename "$f").log" &&
            ok "$a: $(basename "$f"), a real change, is not taken for the default" ||
            fail "$a: $(basename "$f"), a real change, is taken for the default ($log.$(basename "$f").log)"
    done
    # attacks on this assignment's grader (tests/course/ASSIGNMENT/attack_*.c), graded on the
    # grading seed: "expect: FAIL <check>" - it scores nothing on that check; "expect: PASS every
    # check" - it gets nothing from what it tries (a correct answer that stops when it does)
    for f in tests/course/$a/attack_*.c; do
        [ -f "$f" ] || continue
        expect=$(sed -n 's/^.*expect: \(.*[^ ]\) *\*\/.*$/\1/p; s/^.*expect: \(.*[^ ]\) *$/\1/p' "$f" | head -n 1)
        flog="$log.$(basename "$f" .c).log"
        grade_one "$a" "$f" "$flog"
        case "$expect" in
            "PASS every check") [ $rc = 0 ] && grep -q '^[1-9][0-9]* passed, 0 failed$' "$flog" ;;
            "FAIL "*) [ $rc = 1 ] && grep -q "^FAIL ${expect#FAIL } *0/" "$flog" ;;
            *) false ;;
        esac && ok "$a: $(basename "$f" .c) gets nothing from its attack ($expect)" ||
            { fail "$a: $(basename "$f" .c) is not held (rc $rc, expected $expect; $flog)"; grep -A3 '^FAIL' "$flog" | head -n 12; }
    done
}

# Two assignments at a time (each grader is one process; their folders are
# their own), their lines printed in order and counted.
set -- $assignments
while [ $# -gt 0 ]; do
    test_assignment "$1" > "$build/test/$1.out" 2>&1 &
    if [ $# -gt 1 ]; then (test_assignment "$2") > "$build/test/$2.out" 2>&1; shift; fi
    wait
    shift
done
for a in $assignments; do
    cat "$build/test/$a.out"
    passed=$((passed + $(grep -c '^ok   course: ' "$build/test/$a.out")))
    failed=$((failed + $(grep -c '^FAIL course: ' "$build/test/$a.out")))
done

# --- 2b. the judge's guard against a partial replay --------------------------
# tests/course/judge/partial_replay.c: a check whose seeded result the stub gets right and
# whose other result is public.  On a seed, with the skeleton's worker, the judge refuses it.
pr="$build/test/partial_replay"
rm -rf "$pr" && mkdir -p "$pr"
if ${CC:-cc} -std=c99 -O2 course/judge.c -o "$pr/judge" -lm && \
   ${CC:-cc} -std=c99 -O2 -Icourse tests/course/judge/partial_replay.c -o "$pr/reference" -lm && \
   ${CC:-cc} -std=c99 -O2 -Icourse -DSKELETON tests/course/judge/partial_replay.c -o "$pr/skeleton" -lm && \
   "$pr/judge" --record "$pr/fixed.txt" --worker "$pr/reference" > "$pr/fixed.log" 2>&1; then
    "$pr/judge" --record "$pr/seeded.txt" --seed 5 --base "$pr/fixed.txt" --worker "$pr/reference" > "$pr/plain.log" 2>&1
    plain=$?
    "$pr/judge" --record "$pr/seeded.txt" --seed 5 --base "$pr/fixed.txt" --worker "$pr/reference" --skeleton "$pr/skeleton" \
        > "$pr/skeleton.log" 2>&1
    partial=$?
    if [ $plain = 0 ] && [ $partial = 1 ] && grep -q 'passes for the skeleton as handed out with its seed-independent results replayed' "$pr/skeleton.log"; then
        ok "the judge refuses a grader whose seeded check the skeleton passes once its public results are replayed"
    else fail "the judge takes a grader a partial replay passes ($pr/skeleton.log)"; fi
else fail "the partial replay's grader cannot be recorded ($pr)"; fi
# tests/course/judge/memory_children.c: four children of 100 MB each, each within RLIMIT_AS;
# a check may hold GRADE_CHECK_MEMORY_MB in all its processes together
mem="$build/test/memory_children"
rm -rf "$mem" && mkdir -p "$mem/run" && chmod 755 "$mem/run"
if ${CC:-cc} -std=c99 -O2 tests/course/judge/memory_children.c -o "$mem/run/children"; then
    [ "$(id -u)" = 0 ] && chown -R 65534:65534 "$mem/run"
    GRADE_CHECK_MEMORY_MB=256 "$pr/judge" --run --scratch "$mem/run" -- ./children > "$mem/256.log" 2>&1; r256=$?
    GRADE_CHECK_MEMORY_MB=800 "$pr/judge" --run --scratch "$mem/run" -- ./children > "$mem/800.log" 2>&1; r800=$?
    [ $r256 = 125 ] && grep -q 'held [0-9]* MB of memory, over 256 MB' "$mem/256.log" && [ $r800 = 0 ] && grep -q 'held 4 of 4' "$mem/800.log" &&
        ok "a check's processes together hold at most GRADE_CHECK_MEMORY_MB (4 x 100 MB: stopped at 256, held at 800)" ||
        fail "the memory of a check's processes together is not held ($mem)"
    # the same in memfds (written, never mapped: no RSS shows them)
    GRADE_CHECK_MEMORY_MB=256 "$pr/judge" --run --scratch "$mem/run" -- ./children memfd > "$mem/memfd.log" 2>&1
    [ $? = 125 ] && grep -q 'held [0-9]* MB of memory, over 256 MB' "$mem/memfd.log" &&
        ok "what a check's processes hold in memfds counts too (4 x 100 MB in memfds: stopped at 256)" ||
        fail "memory held in memfds is not counted ($mem/memfd.log)"
else fail "tests/course/judge/memory_children.c does not compile"; fi

# --- 3. a folder of submissions, graded in one command ---------------------
case " $assignments " in *" 1_latency "*)
    sub="$build/test/submissions"
    rm -rf "$sub" && mkdir -p "$sub/ada" "$sub/grace" "$sub/linus" "$sub/ken" "$sub/dennis" "$sub/barbara"
    cp tests/course/1_latency/right.c "$sub/ada/latency.c"
    # a wrong file includes right.c beside it: grace gets the two in one file
    { printf '#define MISTAKE_OFF_BY_ONE\n'; cat tests/course/1_latency/right.c; } > "$sub/grace/latency.c"
    printf '#include "sim2real.h"\nthis is not C\n' > "$sub/linus/latency.c"
    sed 's/^S2RDEF void s2r_delay_push(s2r_delay_line\* line, const double\* x) {$/&\n    *(volatile int*)0 = 1;/' \
        tests/course/1_latency/right.c > "$sub/dennis/latency.c"
    sed 's/^S2RDEF int s2r_delay_jitter_next(s2r_delay_jitter\* j, s2r_rng\* rng) {$/&\n    for (;;) {}/' \
        tests/course/1_latency/right.c > "$sub/barbara/latency.c"
    # names outside the safe set: one would share ada's report (ada~), one forge a summary row
    mkdir -p "$sub/ada~" "$sub/$(printf 'eve\nada 14 - 14 points')"
    for d in "$sub/ada~" "$sub/eve"*; do cp tests/course/1_latency/right.c "$d/latency.c"; done
    sh course/grade.sh 1_latency "$sub" > "$build/test/folder.log" 2>&1
    rc=$?
    summary=$(sed -n '/^=== summary/,$p' "$build/test/folder.log")
    if echo "$summary" | grep -q '^ada? .*not graded: the name' && echo "$summary" | grep -q '^eve?ada?14?-?14?points .*not graded' && \
       [ "$(echo "$summary" | grep -c '^ada')" = 2 ] && head -n 1 "$build/1_latency/ada.log" | grep -qx 'grading ada (1_latency)'; then
        ok "names outside A-Z a-z 0-9 . _ - are refused, said in the summary: no shared report, no forged row"
    else fail "unsafe student names ($build/test/folder.log)"; echo "$summary"; fi
    if [ $rc = 1 ] && echo "$summary" | grep -q '^ada .* 0 failed' && echo "$summary" | grep -q '^grace ' && \
       echo "$summary" | grep -q '^linus .*does not compile' && echo "$summary" | grep -q '^ken .*missing latency.c' && \
       echo "$summary" | grep -q '^dennis ' && echo "$summary" | grep -q '^barbara ' && \
       grep -q 'crashed: ' "$build/test/folder.log" && grep -q 'did not finish within' "$build/test/folder.log"; then
        ok "a folder of six submissions is graded in one command (right, wrong, broken, missing, crashing, endless)"
    else fail "grading a folder of submissions ($build/test/folder.log)"; echo "$summary"; fi
    ;;
esac

# --- 3a. a submissions folder whose path holds a space and glob characters -----
case " $assignments " in *" 1_latency "*)
    odd="$build/test/my subs [1] *"
    rm -rf "$build/test/my subs"* && mkdir -p "$odd/ada" && cp tests/course/1_latency/right.c "$odd/ada/latency.c"
    cp tests/course/1_latency/right.c "$odd/grace.c"
    GRADE_UNITS=1 sh course/grade.sh 1_latency "$odd" > "$build/test/odd_path.log" 2>&1
    [ $? = 0 ] && [ "$(grep -c '^score: 10 / 10 points$' "$build/test/odd_path.log")" = 2 ] &&
        ok "a submissions folder named \"my subs [1] *\" is graded (its path passed as one word)" ||
        fail "a submissions folder with a space or glob characters in its path ($build/test/odd_path.log)"
    rm -rf "$build/test/my subs"*
    ;;
esac

# --- 3a'. two runs of one assignment at once: each its own compile log and result -----------
case " $assignments " in *" 1_latency "*)
    two="$build/test/two_runs"
    rm -rf "$two" && mkdir -p "$two/a/ada" "$two/a/grace" "$two/b/linus" "$two/b/joan"
    cp tests/course/1_latency/right.c "$two/a/ada/latency.c"
    { printf '#define MISTAKE_OFF_BY_ONE\n'; cat tests/course/1_latency/right.c; } > "$two/a/grace/latency.c"
    printf '#include "sim2real.h"\nthis is not C\n' > "$two/b/linus/latency.c"
    cp tests/course/1_latency/right.c "$two/b/joan/latency.c"
    GRADE_UNITS=1 sh course/grade.sh 1_latency "$two/a" > "$two/a.log" 2>&1 &
    first=$!
    GRADE_UNITS=1 sh course/grade.sh 1_latency "$two/b" > "$two/b.log" 2>&1
    wait $first
    if grep -q '^ada  .*10 / 10 points' "$two/a.log" && grep -q '^grace  .*points  *[0-9]* passed, [1-9]' "$two/a.log" &&
       grep -q '^linus  .*does not compile' "$two/b.log" && grep -q '^joan  .*10 / 10 points' "$two/b.log" &&
       [ -z "$(ls -A "$build/1_latency" | grep '^\.run\.')" ]; then
        ok "two runs of one assignment at once: each grade its own, no run's file left"
    else fail "two runs of one assignment at once ($two)"; fi
    ;;
esac

# --- 3b. the same seed, the same grade --------------------------------------
case " $assignments " in *" 1_latency "*)
    d="$build/test/same_seed"
    rm -rf "$d" && mkdir -p "$d"
    { printf '#define MISTAKE_OFF_BY_ONE\n'; cat tests/course/1_latency/right.c; } > "$d/grace.c"
    seeded="$build/1_latency/answers/answers$([ "$GRADE_QUICK" = 1 ] && echo .quick).seed-424242.txt"
    rm -f "$seeded"
    GRADE_SEED=424242 GRADE_UNITS=1 sh course/grade.sh 1_latency "$d/grace.c" > "$d/first.log" 2>&1
    cp "$seeded" "$d/first_answers" 2> /dev/null
    rm -f "$seeded"
    GRADE_SEED=424242 GRADE_UNITS=1 sh course/grade.sh 1_latency "$d/grace.c" > "$d/second.log" 2>&1
    if [ -f "$d/first_answers" ] && cmp -s "$seeded" "$d/first_answers" && grep -q '^FAIL ' "$d/first.log" &&
       grep -q '^grading seed: 424242 ' "$d/first.log" && [ "$(grep -c '^grade: measuring' "$d/second.log")" = 1 ] &&
       [ "$(sed -n '/^=== /,$p' "$d/first.log")" = "$(sed -n '/^=== /,$p' "$d/second.log")" ]; then
        ok "the same grading seed, measured again, gives the same answers and the same grade ($(grep '^score:' "$d/first.log"))"
    else fail "the grading seed 424242 measured twice gives other answers or another grade ($d)"; fi
    ;;
esac

# --- 4. submissions that attack the grader ----------------------------------
# tests/course/attacks/*.c, each the correct delay line with an attack in
# its jitter (or a forger with nothing of the work): graded as one folder
# with two correct students, one before them all and one after.  Each
# attack scores 0 on the checks it attacks ("fails: jitter": the jitter
# checks fail and the others pass; "compile": it does not compile, its
# report's one score line 0 / 14, no PASS; "integration": the integration check
# fails, the unit checks pass; "all": 0 points; "none": full marks,
# it attacks the others or the machine) with
# the cause it names ("says:"),
# the correct students keep full marks, the answers are untouched, no
# process of a check is left, and nothing is written outside.
case " $assignments " in *" 1_latency "*)
    att="$build/test/attacks"
    rm -rf "$att" && mkdir -p "$att/aa_right" "$att/zz_right"
    cp tests/course/1_latency/right.c "$att/aa_right/latency.c"
    cp tests/course/1_latency/right.c "$att/zz_right/latency.c"
    answers=$(sh course/grade.sh 1_latency --measure 2> /dev/null | tail -n 1)
    escape="/tmp/s2r_escape.$$"
    rm -f "$escape"
    # a file planted under a path the sandbox hides (planted_file.c looks for it): as a library
    # installed apart from the system's packages would be; where namespaces work (judge --sandbox)
    planted="/usr/local/lib/s2r_planted.$$"
    have_ns=0; "$build/judge" --sandbox > /dev/null 2>&1 && have_ns=1
    { echo "every solution" > "$planted"; } 2> /dev/null || planted=""
    # the public answers, as a kit's expected.txt holds them (a replay carries them whole)
    "$build/judge" --public "$answers" > "$build/test/public_1_latency.txt" 2> /dev/null ||
        fail "attacks: the public answers of 1_latency cannot be made"
    for f in tests/course/attacks/*.c; do
        n=$(basename "$f" .c)
        mkdir -p "$att/$n"
        awk -v pub="$build/test/public_1_latency.txt" '
             /^#include "\.\.\/1_latency\/right\.c"$/ { while ((getline l < "tests/course/1_latency/right.c") > 0) print l; next }
             /^@PUBLIC_ANSWERS@$/ { while ((getline l < pub) > 0) { gsub(/\\/, "\\\\", l); gsub(/"/, "\\\"", l); print "    \"" l "\\n\"" }; next }
             { print }' "$f" | sed "s|@ANSWERS@|$answers|g; s|@ESCAPE@|$escape|g; s|@ROOT@|$root|g; s|@PLANTED@|$planted|g" > "$att/$n/latency.c"
    done
    # bad input: links to the answers and to another student, 100 MB, headers beside the file
    ln -s "$answers" "$att/link_answers"
    ln -s "$att/aa_right" "$att/link_peer"
    mkdir -p "$att/huge" "$att/headers"
    truncate -s 100M "$att/huge/latency.c"
    cp tests/course/1_latency/right.c "$att/headers/latency.c"
    printf '#error a header of the student folder was used\n' > "$att/headers/stdlib.h"
    cp "$att/headers/stdlib.h" "$att/headers/sim2real.h"
    # names: a folder and a file of one name, a name the grader's own files use, a leading '-'
    for n in carol compile -n .hidden; do mkdir -p "$att/$n"; cp tests/course/1_latency/right.c "$att/$n/latency.c"; done
    mkdir -p "$att/.git" && echo x > "$att/.git/HEAD"   # a dot folder that holds no submission: not a student
    cp tests/course/1_latency/right.c "$att/carol.c"
    rm -f "$build/1_latency/.log"
    [ -f "$answers" ] && cp "$answers" "$build/test/answers_before" || fail "attacks: no answers measured for 1_latency"
    # the checks' scratch folders in a place of their own: a process of theirs has its
    # working directory there (other graders may run on this machine as nobody too)
    scratch="/tmp/s2r_attacks.$$"
    rm -rf "$scratch" && mkdir -p "$scratch" && chmod 755 "$scratch"
    ours() {
        for p in $(pgrep -u 65534; pgrep -f "$scratch"); do
            case "$(readlink "/proc/$p/cwd" 2> /dev/null)" in "$scratch"/*) echo "$p" ;; esac
        done | sort -u | tr '\n' ' '
    }
    before=$(ours)
    t0=$(date +%s)
    (unset GRADE_SEED; GRADE_SCRATCH="$scratch" sh course/grade.sh 1_latency "$att") > "$build/test/attacks.log" 2>&1
    t1=$(date +%s)
    [ -n "$planted" ] && rm -f "$planted"
    left=$(ours)
    # shm_left.c's SysV objects (keys 0x53325201 .. 3, in decimal in /proc/sysvipc): none outlives its check
    ipc_left() { awk 'FNR > 1 && ($1 == 1395806721 || $1 == 1395806722 || $1 == 1395806723) { print FILENAME ": " $1 }' \
                     /proc/sysvipc/shm /proc/sysvipc/msg /proc/sysvipc/sem 2> /dev/null | tr '\n' ' '; }
    ipc=$(ipc_left)
    [ -z "$ipc" ] && ok "attacks: no SysV segment, queue or semaphore set of shm_left outlives its check" ||
        fail "attacks: shm_left's SysV objects outlive its check: $ipc"
    section() { awk -v who="=== $1" '$0 == who { on = 1; next } /^=== / { on = 0 } on' "$build/test/attacks.log"; }
    for who in link_answers link_peer huge; do
        section "$who" | grep -q '^refused: ' && ok "attacks: $who is refused ($(section "$who" | sed -n 's/^refused: //p'))" ||
            fail "attacks: $who is not refused ($build/test/attacks.log)"
    done
    [ "$(grep -c '^=== carol$' "$build/test/attacks.log")" = 2 ] && section carol | grep -q '^score: 14 / 14 points$' &&
        section carol | grep -q '^refused: not graded: another submission of this run is named "carol"' &&
        section compile | grep -q '^refused: not graded: "compile" is a name the grader uses' &&
        section -n | grep -q "^refused: not graded: the name \"-n\" is empty, starts with '.' or '-'" &&
        section .hidden | grep -q "^refused: not graded: the name \".hidden\" is empty, starts with '.' or '-'" &&
        grep -q '^\.hidden  .*not graded: the name' "$build/test/attacks.log" && ! grep -q '^=== \.git$' "$build/test/attacks.log" &&
        [ ! -e "$build/1_latency/.log" ] && grep -q '^carol  .*14 / 14 points' "$build/test/attacks.log" &&
        ok "attacks: names that would share a report (carol/ and carol.c, compile, -n) or hide from it (.hidden/) are refused, each said" ||
        fail "attacks: colliding names are not refused ($build/test/attacks.log)"
    # what a student controls reaches the report fit for a terminal: no control byte, no long line
    esc=$(printf '\033\007\015')
    if ! LC_ALL=C grep -q "[$esc]" "$build/test/attacks.log" && ! LC_ALL=C grep -q '.\{600\}' "$build/test/attacks.log" &&
       [ "$(section escapes | grep -c 'flood')" -le 64 ] && section escapes | grep -q '^      - \.\.\. and [0-9]* more$'; then
        ok "attacks: no terminal escape, control byte or line over 600 bytes in the report; a flood of messages is cut"
    else fail "attacks: the report carries escapes, long lines or a flood of messages ($build/test/attacks.log)"; fi
    for who in aa_right zz_right headers; do
        section "$who" | grep -q '^score: 14 / 14 points$' && ok "attacks: $who, a correct student among them, keeps 14 / 14" ||
            fail "attacks: $who, a correct student, lost points ($build/test/attacks.log)"
    done
    for f in tests/course/attacks/*.c; do
        n=$(basename "$f" .c)
        if [ "$n" = planted_file ] && { [ $have_ns = 0 ] || [ -z "$planted" ]; }; then
            ok "attacks: $n skipped: $([ $have_ns = 0 ] && echo "no namespaces here (judge --sandbox): a path is hidden only in a root of the check's own" || echo "nothing can be planted under /usr/local/lib (not root?)")"
            continue
        fi
        fails=$(sed -n 's/^ *fails: \([a-z]*\).*$/\1/p' "$f" | head -n 1)
        says=$(sed -n 's/^ *says: \(.*[^ ]\) *\*\/ *$/\1/p; s/^ *says: \(.*[^ ]\) *$/\1/p' "$f" | head -n 1)
        got=$(section "$n")
        case $fails in
            jitter) echo "$got" | grep -q '^PASS jitter' || ! echo "$got" | grep -q '^FAIL jitter: base' ||
                        ! echo "$got" | grep -q '^FAIL jitter: the draws' || echo "$got" | grep -q '^FAIL [^ij]' ||
                        ! echo "$got" | grep -q '^score: 7 / 14 points$' ;;
            all) ! echo "$got" | grep -q '^score: 0 / 14 points$' || echo "$got" | grep -q '^PASS ' ;;
            integration) echo "$got" | grep -q '^PASS integration' || ! echo "$got" | grep -q '^FAIL integration' ||
                        echo "$got" | grep '^FAIL ' | grep -qv '^FAIL integration' || ! echo "$got" | grep -q '^score: 10 / 14 points$' ;;
            none) ! echo "$got" | grep -q '^score: 14 / 14 points$' ;;
            compile) ! echo "$got" | grep -q '^FAIL does not compile' || [ "$(echo "$got" | grep -c '^score: ')" != 1 ] ||
                        ! echo "$got" | grep -q '^score: 0 / 14 points$' || echo "$got" | grep -q '^PASS ' ;;
            *) true ;;
        esac
        held=$?   # 0: a problem was seen
        [ $held = 1 ] && [ -n "$says" ] && ! echo "$got" | grep -qF -- "$says" && held=0
        if [ $held = 1 ] && [ -n "$fails" ]; then ok "attacks: $n scores nothing on what it attacks ($fails)${says:+, said: \"$says\"}"
        else fail "attacks: $n is not held (fails: $fails, says: $says; $build/test/attacks.log)"; echo "$got" | head -n 20; fi
    done
    # PID 1 of a check's namespace (the judge's fork) shows none of the judge's command line
    section proc_cmdline | grep -q '| PID 1 says: ' && ! section proc_cmdline | grep -qE -- "--answers|--hide|--result|$build" &&
        ok "attacks: /proc/1/cmdline and the worker's own show a check none of the judge's options or paths" ||
        fail "attacks: a check reads the judge's command line ($(section proc_cmdline | grep -m 1 'says: '))"
    drawn=$(sed -n 's/^=== summary: 1_latency (grading seed: \([0-9]*\))$/\1/p' "$build/test/attacks.log")
    [ -n "$drawn" ] && [ "$drawn" != 0 ] && [ "$drawn" != "$GRADE_SEED" ] && [ "$(grep -c "^grading seed: $drawn " "$build/test/attacks.log")" -ge 3 ] &&
        ok "attacks: graded on a fresh grading seed ($drawn, from /dev/urandom), printed in every report and the summary" ||
        fail "attacks: no fresh grading seed in the reports ($build/test/attacks.log)"
    # a file swapped for a link to another student's between grade.sh's tests and its copy: the
    # judge copies (judge --copy: no link followed, a regular file only), so what is compiled is
    # what was opened.  First the copy itself, then the race (mallory's file flips between the
    # stub and a link to ada's, by rename, while mallory is graded six times)
    cpd="$build/test/copy"
    rm -rf "$cpd" && mkdir -p "$cpd" && echo hello > "$cpd/file" && ln -s file "$cpd/link" && mkfifo "$cpd/fifo"
    "$build/judge" --copy "$cpd/file" "$cpd/file.copy" 100 2> /dev/null; c_file=$?
    "$build/judge" --copy "$cpd/link" "$cpd/link.copy" 100 2> /dev/null; c_link=$?
    timeout 10 "$build/judge" --copy "$cpd/fifo" "$cpd/fifo.copy" 100 2> /dev/null; c_fifo=$?
    "$build/judge" --copy "$cpd/file" "$cpd/big.copy" 3 2> /dev/null; c_big=$?
    [ "$c_file $c_link $c_fifo $c_big" = "0 3 4 5" ] && cmp -s "$cpd/file" "$cpd/file.copy" && [ ! -e "$cpd/link.copy" ] &&
        [ ! -e "$cpd/fifo.copy" ] && [ ! -e "$cpd/big.copy" ] &&
        ok "attacks: judge --copy copies a regular file, refuses a link, a FIFO (without waiting) and a file over its size" ||
        fail "attacks: judge --copy (file $c_file, link $c_link, fifo $c_fifo, too big $c_big; $cpd)"
    race="$build/test/race"
    rm -rf "$race" && mkdir -p "$race/subs/ada" "$race/subs/mallory"
    printf '#error this is the code of ada\n' > "$race/subs/ada/latency.c"
    cp course/1_latency/latency.c "$race/stub.c"
    cp "$race/stub.c" "$race/subs/mallory/latency.c"
    touch "$race/flipping"
    ( cd "$race/subs/mallory" && while [ -e "$race/flipping" ]; do
          ln -sfn ../ada/latency.c .link && mv -T .link latency.c; cp "$race/stub.c" .file && mv -T .file latency.c; done ) &
    flipper=$!
    for i in 1 2 3 4 5 6; do
        GRADE_ONLY=init GRADE_SCRATCH="$scratch" sh course/grade.sh 1_latency "$race/subs/mallory" >> "$race/grades.log" 2>&1
    done
    rm -f "$race/flipping"; wait $flipper 2> /dev/null
    if ! grep -q 'this is the code of ada' "$race/grades.log" && [ "$(grep -c '^=== mallory$' "$race/grades.log")" = 6 ]; then
        ok "attacks: a file swapped for a link to another student's while graded: never that student's code ($(grep -c '^refused: ' "$race/grades.log") of 6 refused)"
    else fail "attacks: a swapped file let mallory be graded on ada's code ($race/grades.log)"; fi
    # the replay of the public answers is a real attack: on the fixed inputs it takes full marks
    GRADE_SEED=0 GRADE_SCRATCH="$scratch" sh course/grade.sh 1_latency "$att/replayed_answers" > "$build/test/replay_fixed.log" 2>&1
    grep -q '^score: 14 / 14 points$' "$build/test/replay_fixed.log" && grep -q '^grading seed: none' "$build/test/replay_fixed.log" &&
        ok "attacks: replayed_answers takes 14 / 14 on the public fixed inputs (--seed 0), nothing on a grading seed" ||
        fail "attacks: replayed_answers on the fixed inputs does not take full marks ($build/test/replay_fixed.log)"
    grep -q '^GRADED ON THE PUBLIC INPUTS (seed 0, no grading seed): a reply replayed from expected.txt would pass' "$build/test/replay_fixed.log" &&
        ok "attacks: a run on the public inputs says so at its end (a replay would pass)" ||
        fail "attacks: a run on the public inputs does not say a replay would pass ($build/test/replay_fixed.log)"
    # a kit's expected.txt (and library.o) copied by mistake into the repository: the header beside
    # course/ holds the solutions, so the run still grades on a seed, says the file is ignored, and
    # the replay scores nothing (in a copy of the repository, sharing this build)
    stray="$build/test/stray"
    rm -rf "$stray" && mkdir -p "$stray" && cp -p sim2real.h "$stray/" && cp -pR course "$stray/" &&
        cp "$build/test/public_1_latency.txt" "$stray/course/1_latency/expected.txt" && printf "a kit's object\n" > "$stray/course/1_latency/library.o" &&
        printf 'double s2r_gae;   /* a kit'"'"'s stand-ins: linked beside the library, they clash */\n' > "$stray/course/1_latency/stand_ins.c"
    (unset GRADE_SEED; GRADE_UNITS=1 GRADE_SCRATCH="$scratch" sh "$stray/course/grade.sh" 1_latency "$att/replayed_answers") > "$build/test/stray.log" 2>&1
    grep -q '^grade: course/1_latency/expected.txt ignored: this is the repository' "$build/test/stray.log" && grep -q '^grade: course/1_latency/library.o ignored' "$build/test/stray.log" &&
        grep -q '^grade: course/1_latency/stand_ins.c ignored' "$build/test/stray.log" &&
        grep -q '^grading seed: [1-9]' "$build/test/stray.log" && grep -q '^score: 0 / 10 points$' "$build/test/stray.log" &&
        ! grep -q '^GRADED ON THE PUBLIC' "$build/test/stray.log" &&
        ok "attacks: a kit's expected.txt, library.o and stand_ins.c copied into the repository are ignored, said: the run grades on a seed, the replay scores 0" ||
        fail "attacks: a stray expected.txt in the repository turns the run public ($build/test/stray.log)"
    rm -rf "$stray"
    cmp -s "$answers" "$build/test/answers_before" && ok "attacks: the answers are untouched" ||
        fail "attacks: the answers file changed ($answers)"
    if [ "$left" = "$before" ]; then ok "attacks: no process of a check is left when grading ends"
    else fail "attacks: processes left: $(ps -o pid,user,etime,args -p "$(echo $left | tr ' ' ',')" 2> /dev/null | tail -n +2)"
         for p in $left; do case " $before " in *" $p "*) ;; *) kill -9 "$p" 2> /dev/null ;; esac; done; fi
    sleep 4
    [ ! -e "$escape" ] && [ "$(ours)" = "$before" ] &&
        ok "attacks: nothing written outside a check's folder, at once or 4 s after" ||
        { fail "attacks: a check wrote $escape or left a process"; rm -f "$escape"; }
    # without namespaces (GRADE_NO_NAMESPACES=1, as where user namespaces are refused): the
    # judge's processes are not readable (judge_memory), what a check starts ends with it
    # (setsid_writer), a correct student after them keeps its grade, and every report says
    # the grades are not safe against a hostile student
    nons="$build/test/nons"
    rm -rf "$nons" && mkdir -p "$nons"
    for n in judge_memory setsid_writer shm_left zz_right; do cp -r "$att/$n" "$nons/$n"; done
    rm -f "$escape"
    (unset GRADE_SEED; GRADE_NO_NAMESPACES=1 GRADE_UNITS=1 GRADE_SCRATCH="$scratch" sh course/grade.sh 1_latency "$nons") \
        > "$build/test/nons.log" 2>&1
    rm -f "$escape"; sleep 2
    nsec() { awk -v who="=== $1" '$0 == who { on = 1; next } /^=== / { on = 0 } on' "$build/test/nons.log"; }
    if nsec judge_memory | grep -q '^score: 0 / 10 points$' && nsec zz_right | grep -q '^score: 10 / 10 points$' &&
       nsec setsid_writer | grep -q '^score: 10 / 10 points$' && [ ! -e "$escape" ] && [ "$(ours)" = "$before" ] &&
       nsec shm_left | grep -q '^score: 10 / 10 points$' && [ -z "$(ipc_left)" ] &&
       [ "$(grep -c '^sandbox: NO namespaces here.*not safe against a hostile student$' "$build/test/nons.log")" = 5 ]; then
        ok "attacks, without namespaces: judge_memory scores 0, setsid_writer's daemon ends with its check, shm_left's SysV objects are removed with it, each report says it is not safe"
    else fail "attacks, without namespaces: not held ($build/test/nons.log)"; rm -f "$escape"; fi
    rmdir "$scratch" 2> /dev/null || fail "attacks: a scratch folder was left in $scratch"
    rm -rf "$scratch"
    echo "attacks: graded in $((t1 - t0)) s" > "$build/test/attacks.time"
    ;;
esac

# --- 5. the kit a student receives, used as a student would ---------------
# Only when every assignment is tested (the kit needs every answer).
if [ $tested_all = 1 ]; then
    kit="$build/test/kit"
    if sh course/kit.sh "$kit" > "$build/test/kit.log" 2>&1 && [ -f "$kit/1_latency/sim2real.h" ] && \
       [ -f "$kit/1_latency/course/1_latency/expected.txt" ] && [ ! -d "$kit/1_latency/course/2_randomization" ] && \
       [ "$(grep -c 'TODO(course' "$kit/1_latency/sim2real.h")" -ge 5 ]; then
        ok "the kits are made: $(ls -d "$kit"/[0-9]*_*/ | wc -l) assignments, each with the student copy and its public answers"
        # in a kit, with its own header and answers: a correct file passes, the skeleton fails
        (cd "$kit/1_latency" && unset GRADE_SEED && GRADE_BUILD="$kit/build" sh course/grade.sh 1_latency "$root/tests/course/1_latency/right.c") \
            > "$build/test/kit_right.log" 2>&1 && ok "in the kit, a correct delay line passes (the kit's header and answers)" \
            || fail "in the kit, a correct delay line does not pass ($build/test/kit_right.log)"
        # an assignment stands alone: its unit checks run on the kit's library; an integration
        # check that needs an exercise still open (the delay line) is left to the instructor
        (cd "$kit/2_randomization" && unset GRADE_SEED && GRADE_BUILD="$kit/build" sh course/grade.sh 2_randomization "$root/tests/course/2_randomization/right.c") \
            > "$build/test/kit_right2.log" 2>&1 && grep -q "^      - not run here: it needs latency" "$build/test/kit_right2.log" \
            && ok "in the kit, a correct sampler passes; the integration checks needing the open delay line are the instructor's" \
            || fail "in the kit, a correct sampler does not pass ($build/test/kit_right2.log)"
        # the open assignment has no exercise in the header: its kit is told by the other stubs,
        # grades a file's validity (the simulator's part left to the instructor) on its answers
        (cd "$kit/6_ranges" && unset GRADE_SEED && GRADE_BUILD="$kit/build" sh course/grade.sh 6_ranges "$root/tests/course/6_ranges/right.txt") \
            > "$build/test/kit_right6.log" 2>&1 && grep -q "^PASS your ranges file loads and is valid" "$build/test/kit_right6.log" &&
            grep -q "^PASS it is not the default ranges" "$build/test/kit_right6.log" && grep -q '^grading seed: none' "$build/test/kit_right6.log" \
            && ok "in the open assignment's kit, a ranges file is graded on the kit's answers (validity, not the default)" \
            || fail "in the open assignment's kit, a ranges file is not graded ($build/test/kit_right6.log)"
        # a student who writes the exercise into the kit's own header still has a kit (the other exercises'
        # stubs say so): it grades on the kit's answers, it is not taken for the repository
        cp -pR "$kit/1_latency" "$kit/1_latency_edited" &&
            awk '/TODO\(course 1_latency/ { next } { print }' "$kit/1_latency/sim2real.h" > "$kit/1_latency_edited/sim2real.h"
        (cd "$kit/1_latency_edited" && unset GRADE_SEED && GRADE_BUILD="$kit/build_edited" sh course/grade.sh 1_latency "$root/tests/course/1_latency/right.c") \
            > "$build/test/kit_edited.log" 2>&1 && grep -q '^grading seed: none' "$build/test/kit_edited.log" &&
            ! grep -q 'ignored: this is the repository' "$build/test/kit_edited.log" &&
            ok "a kit whose header the student edited is still a kit (graded on its answers)" ||
            fail "a kit whose header the student edited is taken for the repository ($build/test/kit_edited.log)"
        rm -rf "$kit/1_latency_edited" "$kit/build_edited"
        # a GRADE_ONLY that matches no check grades nothing: an error, not a pass
        (cd "$kit/1_latency" && unset GRADE_SEED && GRADE_ONLY="no such check" GRADE_BUILD="$kit/build" sh course/grade.sh 1_latency) \
            > "$build/test/kit_only_typo.log" 2>&1
        typo=$?
        (cd "$kit/1_latency" && unset GRADE_SEED && GRADE_ONLY="unit" GRADE_BUILD="$kit/build" sh course/grade.sh 1_latency) \
            > "$build/test/kit_only_kind.log" 2>&1   # a word of the answers' lines, not of a check's name
        kind=$?
        [ $typo = 2 ] && [ $kind = 2 ] && grep -q "matches no check" "$build/test/kit_only_typo.log" &&
            grep -q "matches no check" "$build/test/kit_only_kind.log" &&
            ok "a GRADE_ONLY that matches no check is an error naming the checks" ||
            fail "a GRADE_ONLY that matches no check passes ($build/test/kit_only_typo.log)"
        (cd "$kit/1_latency" && unset GRADE_SEED && GRADE_BUILD="$kit/build" sh course/grade.sh 1_latency) > "$build/test/kit_skeleton.log" 2>&1 \
            && fail "in the kit, the skeleton passes" || ok "in the kit, the skeleton as handed out fails"
        (cd "$kit/1_latency" && GRADE_BUILD="$kit/build" sh course/grade.sh 1_latency --seed 5 "$root/tests/course/1_latency/right.c") \
            > "$build/test/kit_seed.log" 2>&1
        [ $? = 2 ] && grep -q 'a kit grades on the public fixed inputs only' "$build/test/kit_seed.log" &&
            grep -q '^grading seed: none' "$build/test/kit_right.log" &&
            ok "a kit grades on the public fixed inputs (its report says so) and refuses a grading seed" ||
            fail "a kit does not refuse a grading seed, or does not say it grades on the fixed inputs ($build/test/kit_seed.log)"
        # no answers in a student's hands: no open exercise's reference in a kit's library
        # (every exercise is open in these kits), no instructor's guide, no full answers
        leaks=""
        for f in course/[0-9]*_*/*.c; do
            awk '/^\/\* >> stub begin \*\/$/ { s = 1; next } /^\/\* >> stub end \*\/$/ { s = 0 }
                 s && /^S2RDEF / { sub(/\(.*/, ""); n = split($0, w, /[ *]+/); print w[n] }' "$f"
        done | sort -u > "$build/test/exercise_functions"
        for d in "$kit"/[0-9]*_*/; do
            k=$(basename "$d")
            nm --defined-only "$d/course/$k/library.o" | awk '$2 ~ /^[TtDdBbRr]$/ { print $3 }' | sort -u > "$build/test/kit_symbols"
            found=$(grep -xFf "$build/test/exercise_functions" "$build/test/kit_symbols" | tr '\n' ' ')
            [ -n "$found" ] && leaks="$leaks $k/library.o defines $found;"
            [ -e "$d/course/README.md" ] && leaks="$leaks $k holds the instructor's guide;"
            ls "$d/course/$k" | grep -q '^answers' && leaks="$leaks $k holds answers files;"
        done
        n_functions=$(wc -l < "$build/test/exercise_functions")
        [ "$n_functions" -ge 10 ] && [ -z "$leaks" ] \
            && ok "no kit's library defines any of the $n_functions exercise functions; no kit holds the guide or the full answers" \
            || fail "the kits hold answers:$leaks (exercise functions found: $n_functions)"
        # no reference in source form either: no line of a solution in any file of a kit (the
        # graders, the skeletons, the stand-ins, the harness: not only the student copy), and no
        # model of an exercise's answer in a grader (a grader's models of mistakes are named
        # mistake_*; the ones once found in kits are named here so they cannot come back)
        leaks=""
        n_files=0
        for d in "$kit"/[0-9]*_*/; do
            k=$(basename "$d")
            for f in $(find "$d" -type f \( -name '*.c' -o -name '*.h' -o -name '*.sh' -o -name '*.md' -o -name '*.txt' \) \
                       ! -path "$d/sim2real.h" | sort); do
                n_files=$((n_files + 1))
                found=$(sed 's/^[ \t]*//' "$f" | grep -xFf "$build/test/solution_lines" | head -n 1)
                [ -n "$found" ] && leaks="$leaks ${f#$kit/} holds the solution line \"$found\";"
                found=$(grep -oE '\b(model_[a-z0-9_]+|next_value|wilson)[ ]*\(' "$f" | sort -u | tr '\n' ' ')
                [ -n "$found" ] && leaks="$leaks ${f#$kit/} holds a model ($found);"
            done
        done
        [ "$n_files" -ge 30 ] && [ -z "$leaks" ] \
            && ok "no file of a kit ($n_files files: graders, skeletons, stand-ins, harness) holds a solution line or a model of an answer" \
            || fail "the kits hold references in source form:$leaks ($n_files files)"
        # and no grader of code hands a reference value to the worker (grade_reference): the
        # student's code shares that process and could send it back as its own result
        found=$(grep -l 'grade_reference(' course/[0-9]*_*/grade.c | while read -r g; do
                    [ -f "$(dirname "$g")/$(basename "$(dirname "$g")" | sed 's/^[0-9]*_//').c" ] && echo "$g"; done | tr '\n' ' ')
        [ -z "$found" ] && ok "no grader of code hands a reference value to the process that runs the student's code" \
            || fail "graders hand reference values to the worker (grade_reference): $found"
        printf '#include "sim2real.h"\nint main(void) { double lo, hi; s2r_wilson_interval(3, 10, &lo, &hi); return lo < hi; }\n' \
            > "$build/test/kit_wilson.c"
        if ${CC:-cc} -std=c99 -I"$kit/1_latency" "$build/test/kit_wilson.c" "$kit/1_latency/course/1_latency/library.o" \
             -o "$build/test/kit_wilson" -lmujoco -lm -fopenmp > "$build/test/kit_wilson.log" 2>&1; then
            fail "a program calling s2r_wilson_interval links against kit 1's library (the reference is in it)"
        elif grep -q "undefined reference to .s2r_wilson_interval" "$build/test/kit_wilson.log"; then
            ok "a program calling s2r_wilson_interval does not link against kit 1's library"
        else fail "the Wilson link test failed for another reason ($build/test/kit_wilson.log)"; fi
    else fail "the kit could not be made ($build/test/kit.log)"; tail -n 5 "$build/test/kit.log"; fi
fi

echo "$passed passed, $failed failed"
[ $failed = 0 ]
