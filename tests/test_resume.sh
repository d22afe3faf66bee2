#!/bin/sh
# tests/test_resume.sh - crash-safe training, end to end, on example 02 in
# quick mode (4 PPO updates, the state saved after each):
#   1. a run that is never stopped;
#   2. a run killed with SIGKILL once its first state is on disk, then resumed
#      with --resume: its final checkpoint must be byte-identical to run 1's,
#      and while it was dead no output existed half-written under its name;
#   3. a run stopped with SIGINT: it must save, say so and exit with 130, and
#      resume (on 2 threads) to the same checkpoint again; SIGTERM the same,
#      during training, then in the resumed run between later stages (02),
#      and in 10, which trains nothing; SIGINT in 06, which resumes nothing,
#      closing its deployment log with a "stopped" record;
#   4. a unit's system-ID policy is not taken for another unit (example 04),
#      nor any policy trained on other ranges than its run wrote (04, 06);
#   5. --task push in the reach run's folder keeps the reach files;
#   6. a run refused for what it was given or found (impossible ranges, a
#      bad MJCF, a foreign training state, an upstream checkpoint cut short
#      or made for another arm or task, a policy beside ranges from another
#      run) says so, changes no file of the folder and does no work first.
# Usage: tests/test_resume.sh [build dir]    (run from the repository root)
set -u
BUILD=${1:-build}
EXAMPLE=$BUILD/02_domain_randomization
WORK=$BUILD/resume_test
ARGS="--quick --checkpoint-every 1 --threads 1"
failed=0

check() {   # check "what" command...
    what=$1; shift
    if "$@"; then echo "ok   resume: $what"; else echo "FAIL resume: $what"; failed=$((failed + 1)); fi
}

# Start the example in the background and wait for its first saved state.
start_and_wait() {   # start_and_wait DIR
    "$EXAMPLE" $ARGS --out "$1" > "$1.log" 2>&1 &
    pid=$!
    i=0
    while [ ! -f "$1/02_dr.state" ] && [ $i -lt 3000 ]; do sleep 0.01; i=$((i + 1)); done
}

rm -rf "$WORK" && mkdir -p "$WORK" || exit 1

"$EXAMPLE" $ARGS --out "$WORK/whole" > "$WORK/whole.log" 2>&1
check "the uninterrupted run finishes" test -f "$WORK/whole/02_dr.ckpt"

# The other task in the same folder writes its own names (02_push_*) and
# leaves the reach run's files as they were.
mkdir -p "$WORK/reach_files" && cp "$WORK/whole/02_dr.ckpt" "$WORK/whole/02_ranges.txt" "$WORK/whole/02_dr.csv" \
  "$WORK/reach_files/" || exit 1
"$EXAMPLE" $ARGS --task push --out "$WORK/whole" > "$WORK/push.log" 2>&1
check "push in the reach folder writes 02_push_dr.ckpt" test -f "$WORK/whole/02_push_dr.ckpt"
for file in 02_dr.ckpt 02_ranges.txt 02_dr.csv; do
    check "push leaves the reach run's $file as it was" cmp -s "$WORK/reach_files/$file" "$WORK/whole/$file"
done

start_and_wait "$WORK/killed"
kill -KILL $pid 2>/dev/null
wait $pid 2>/dev/null
check "SIGKILL lands before the run ends" test ! -f "$WORK/killed/02_dr.ckpt"
check "no half-written training CSV under its name" test ! -f "$WORK/killed/02_dr_training.csv"
"$EXAMPLE" $ARGS --out "$WORK/killed" --resume > "$WORK/killed.resume.log" 2>&1
check "the resumed run says where it resumed" grep -q "resumed from" "$WORK/killed.resume.log"
check "killed + resumed checkpoint is byte-identical" cmp -s "$WORK/whole/02_dr.ckpt" "$WORK/killed/02_dr.ckpt"

start_and_wait "$WORK/interrupted"
kill -INT $pid 2>/dev/null
wait $pid
status=$?
check "SIGINT exits with 130" test $status -eq 130
check "SIGINT says the state was saved" grep -q "state saved to" "$WORK/interrupted.log"
"$EXAMPLE" --quick --checkpoint-every 1 --threads 2 --out "$WORK/interrupted" --resume > "$WORK/interrupted.resume.log" 2>&1
check "interrupted + resumed on 2 threads is byte-identical" cmp -s "$WORK/whole/02_dr.ckpt" "$WORK/interrupted/02_dr.ckpt"

# SIGTERM is Ctrl-C's twin: during training it saves the state and exits
# with 130; resumed, the run trains to the same checkpoint, and a SIGTERM
# after training stops it at the next stage, or inside the evaluation that
# follows (it reads the stop after every episode), with 130;
# --resume then finishes it from what was saved.
start_and_wait "$WORK/terminated"
kill -TERM $pid 2>/dev/null
wait $pid
status=$?
check "SIGTERM during training exits with 130" test $status -eq 130
check "SIGTERM during training says the state was saved" grep -q "state saved to" "$WORK/terminated.log"
"$EXAMPLE" $ARGS --out "$WORK/terminated" --resume > "$WORK/terminated.resume.log" 2>&1 &
pid=$!
i=0
while [ ! -f "$WORK/terminated/02_dr.ckpt" ] && [ $i -lt 6000 ]; do sleep 0.01; i=$((i + 1)); done
kill -TERM $pid 2>/dev/null
wait $pid
status=$?
check "SIGTERM + resumed is byte-identical" cmp -s "$WORK/whole/02_dr.ckpt" "$WORK/terminated/02_dr.ckpt"
check "SIGTERM after training exits with 130 at the next stage" test $status -eq 130
check "SIGTERM after training says where it stopped (between stages, or inside the evaluation after them)" \
  grep -q "interrupted between stages\|evaluation: stopped (Ctrl-C or SIGTERM)" "$WORK/terminated.resume.log"
check "SIGTERM after training: the run's results are not written" test ! -f "$WORK/terminated/02_margin.csv"
"$EXAMPLE" $ARGS --out "$WORK/terminated" --resume > "$WORK/terminated.resume2.log" 2>&1
check "SIGTERM after training, resumed: finishes with the same checkpoint" \
  cmp -s "$WORK/whole/02_dr.ckpt" "$WORK/terminated/02_dr.ckpt"
check "SIGTERM after training, resumed: writes the results" test -f "$WORK/terminated/02_margin.csv"
# an example without training stops at its next stage too (10: after identifying its units;
# its full size, as --quick is done within a second)
$BUILD/10_sysid_vs_truth --threads 1 --out "$WORK/terminated10" > "$WORK/terminated10.log" 2>&1 &
pid=$!
sleep 1
kill -TERM $pid 2>/dev/null
wait $pid
status=$?
check "SIGTERM stops 10 with 130 before it writes" sh -c "test $status -eq 130 && test ! -f '$WORK/terminated10/10_sysid_truth.csv'"
# 06 (no --resume) stopped with SIGINT in sim regression, once its log is
# begun: 130, a message that offers no --resume, the log closed by a
# "stopped" record naming the interrupt, the timeline so far written.
LOG6=$WORK/interrupted06/06_deployment_log.jsonl
$BUILD/06_staged_deployment --quick --out "$WORK/interrupted06" > "$WORK/interrupted06.log" 2>&1 &
pid=$!
i=0
while [ ! -s "$LOG6" ] && [ $i -lt 6000 ]; do sleep 0.01; i=$((i + 1)); done
kill -INT $pid 2>/dev/null
wait $pid
status=$?
check "SIGINT stops 06 with 130" test $status -eq 130
check "SIGINT stops 06 saying a run again starts over, no --resume offered" \
  sh -c "grep -q 'this program does not resume: a run again starts over' '$WORK/interrupted06.log' &&
         ! grep -q -- --resume '$WORK/interrupted06.log'"
check "SIGINT stops 06 with its log closed by a stopped record, the timeline written" \
  sh -c "tail -n 1 '$LOG6' | grep -q '\"event\":\"stopped\",.*interrupted (Ctrl-C or SIGTERM)' &&
         test -f '$WORK/interrupted06/06_timeline.csv'"

# Stops inside long work, within a second: 12 reading a 1,000,000-row log
# (54 MB), 12 fitting its first 30 s (a longer log is cut there, saying so),
# and 12 recording and fitting its own quick logs: each SIGTERM exits 130
# and writes no result.
# A machine that stalls (a virtual one paused, a disk flushing) can hold
# any process past a second: a late stop is tried once more, and only a
# second late one fails.
terminate_12() {   # terminate_12 NAME WHAT AFTER_S ARGS...: 12 $SIZE12 into WORK/NAME, SIGTERM after AFTER_S s
    name=$1 what=$2 after=$3; shift 3
    tries="" try=1
    while :; do
        rm -rf "$WORK/$name"
        $BUILD/12_sysid_from_logs ${SIZE12---quick} --out "$WORK/$name" "$@" > "$WORK/$name.log" 2>&1 &
        pid=$!
        sleep "$after"
        sent=$(date +%s.%N)
        kill -TERM $pid 2>/dev/null
        wait $pid
        status=$?
        late=$(awk -v a="$sent" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
        awk "BEGIN { exit !($late < 1) }" || [ $try -eq 2 ] || { tries="; a first try took $late s"; try=2; continue; }
        break
    done
    check "SIGTERM stops 12 $what with 130 within a second (took $late s$tries), nothing written" \
        sh -c "test $status -eq 130 && awk 'BEGIN { exit !($late < 1) }' && test ! -f '$WORK/$name/12_ranges.txt'"
}
awk 'BEGIN { print "t,command_1,command_2,command_3,command_4,q_1,q_2,q_3,q_4"
             for (k = 0; k < 1000000; k++) { t = k * 0.02; c = t > 1 ? 0.1 * sin(0.5 * t) : 0
                 printf "%.2f,%.4f,%.4f,0.1,0.1,%.4f,%.4f,0.1,0.1\n", t, c, -c, c, -c } }' > "$WORK/long_log.csv"
terminate_12 stop12_read "reading a 1,000,000-row log" 0.5 --mjcf examples/arm4.xml --log "$WORK/long_log.csv"
terminate_12 stop12_long "fitting a long log's first 30 s" 5 --mjcf examples/arm4.xml --log "$WORK/long_log.csv"
check "12 says how much of a long log it uses" grep -q "used its first 30.00 s of 19999.98 s" "$WORK/stop12_long.log"
rm -f "$WORK/long_log.csv"
# its own logs at their full size: --quick records and fits them in under 2 s
SIZE12= terminate_12 stop12_record "recording and fitting its own logs" 2
SIZE12= terminate_12 stop12_fit "fitting its own logs" 4

# A policy belongs to the unit it was identified on: 04 run for unit #2
# beside unit #1's system-ID policy must not take it (it says so and starts
# from the DR policy).
mkdir -p "$WORK/unit" && cp "$WORK/whole/02_dr.ckpt" "$WORK/whole/02_ranges.txt" "$WORK/unit/" &&
  cp "$WORK/whole/02_dr.ckpt" "$WORK/unit/03_dr_sysid_unit1.ckpt" || exit 1
$BUILD/04_finetune --quick --threads 1 --real-seed 2 --out "$WORK/unit" > "$WORK/unit.log" 2>&1
check "04 for unit #2 finishes beside unit #1's system-ID policy" test -f "$WORK/unit/04_curve.csv"
check "04 for unit #2 does not take unit #1's policy" grep -q "03_dr_sysid_unit2.ckpt not found" "$WORK/unit.log"

# A checkpoint records the ranges it was trained on: a "system-ID policy"
# for unit #2 that is really the DR policy, beside ranges re-centred
# otherwise, stops 04 and 06 with an error naming both files; so does the
# DR policy once its own ranges file is edited.
cp "$WORK/whole/02_dr.ckpt" "$WORK/unit/03_dr_sysid_unit2.ckpt" &&
  sed 's/^kp .*/kp uniform 0.9 1.1 scale/' "$WORK/whole/02_ranges.txt" > "$WORK/unit/03_ranges_ur5e_unit2.txt" || exit 1
$BUILD/04_finetune --quick --threads 1 --real-seed 2 --out "$WORK/unit" > "$WORK/ranges.log" 2>&1
status=$?
check "04 stops on a policy not trained on its unit's ranges" test $status -ne 0
check "04 names the checkpoint and the ranges" grep -q "03_dr_sysid_unit2.ckpt was not trained on the ranges in .*03_ranges_ur5e_unit2.txt" "$WORK/ranges.log"
$BUILD/06_staged_deployment --quick --real-seed 2 --out "$WORK/unit" > "$WORK/ranges6.log" 2>&1
status=$?
check "06 stops on the same policy" test $status -ne 0
check "06 names them" grep -q "was not trained on the ranges" "$WORK/ranges6.log"
rm "$WORK/unit/03_dr_sysid_unit2.ckpt" && cp "$WORK/unit/03_ranges_ur5e_unit2.txt" "$WORK/unit/02_ranges.txt" || exit 1
$BUILD/04_finetune --quick --threads 1 --real-seed 2 --out "$WORK/unit" > "$WORK/ranges2.log" 2>&1
check "04 stops on the DR policy once its ranges are edited" grep -q "02_dr.ckpt was not trained on the ranges" "$WORK/ranges2.log"

# Nothing is written before everything that can be checked is checked, and
# what an example reads from an earlier one is checked first: a failed run
# leaves the folder's good files as they were.
# refused NAME "what it must say" "how to prepare the folder" EXAMPLE ARGS... :
# in a copy of the whole run's folder (the preparation runs there); status 1,
# the message, and no file of the folder changed.
refused() {
    name=$1 says=$2 prepare=$3 prog=$4
    shift 4
    dir=$WORK/refused_$name
    rm -rf "$dir" && cp -r "$WORK/whole" "$dir" && (cd "$dir" && sh -c "$prepare") || exit 1
    (cd "$dir" && ls -l --time-style=+%s.%N | sort > "../refused_$name.before"; md5sum * | sort >> "../refused_$name.before")
    "$BUILD/$prog" --quick --threads 1 --out "$dir" "$@" > "$dir.log" 2>&1
    status=$?
    (cd "$dir" && ls -l --time-style=+%s.%N | sort > "../refused_$name.after"; md5sum * | sort >> "../refused_$name.after")
    check "$prog refuses $name (status $status)" test $status -eq 1
    check "$prog names it: $says" grep -q -e "$says" "$dir.log"
    check "$prog refusing $name writes nothing" cmp -s "$WORK/refused_$name.before" "$WORK/refused_$name.after"
}
sed 's/^action_latency .*/action_latency uniform 0.5 0.6 absolute/' "$WORK/whole/02_ranges.txt" > "$WORK/latency.txt"
printf '<mujoco/>\n' > "$WORK/empty_arm.xml"
refused latency "latency up to .* exceeds max_latency" "" 02_domain_randomization --ranges "$WORK/latency.txt"
refused mjcf "empty_arm.xml: the model has no mocap body 'target'" "" 02_domain_randomization --mjcf "$WORK/empty_arm.xml"
refused state "02_dr.state was saved by a run with different" "cp ../whole/02_push_dr.state 02_dr.state" 02_domain_randomization --resume
refused pure_cut "01_pure_sim.ckpt: 1000 bytes" "head -c 1000 ../whole/02_dr.ckpt > 01_pure_sim.ckpt" 02_domain_randomization
refused pure_push "01_pure_sim.ckpt was trained for the ur5e push task, not the ur5e reach task" "cp ../whole/02_push_dr.ckpt 01_pure_sim.ckpt" 02_domain_randomization
refused dr_cut "02_dr.ckpt: 1000 bytes" "head -c 1000 ../whole/02_dr.ckpt > 02_dr.ckpt" 03_system_id
refused other_state "03_dr_sysid_unit1.state was saved by a run with different" "cp ../whole/02_ranges.txt 03_ranges_ur5e_unit1.txt &&
  cp ../whole/02_dr.state 03_dr_sysid_unit1.state" 03_system_id --robot ur5e --resume
refused arm4 "03_dr_sysid_unit1.ckpt was trained for the ur5e reach task, not the panda reach task" "cp ../whole/02_dr.ckpt 03_dr_sysid_unit1.ckpt" 04_finetune --robot panda
refused arm6 "03_dr_sysid_unit1.ckpt was trained for the ur5e reach task, not the panda reach task" "cp ../whole/02_dr.ckpt 03_dr_sysid_unit1.ckpt" 06_staged_deployment --robot panda
# 14 reads 07's policies beside their ranges: a unit's ranges from another
# run (here edited) are refused before any unit is measured.
refused foreign14 "07_dr_sysid_seed1.ckpt was not trained on the ranges in .*07_ranges_unit1.txt" "cp 02_dr.ckpt 07_pure_sim_seed1.ckpt && cp 02_dr.ckpt 07_dr_seed1.ckpt &&
  cp 02_dr.ckpt 07_dr_sysid_seed1.ckpt && cp 02_ranges.txt 07_dr_ranges.txt &&
  sed 's/^kp .*/kp uniform 0.9 1.1 scale/' 02_ranges.txt > 07_ranges_unit1.txt" 14_predicting_transfer

echo "$failed resume check(s) failed"
[ $failed -eq 0 ]
