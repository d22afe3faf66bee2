#!/bin/sh
# tests/test_your_arm.sh - a third-party arm model through the "your arm"
# path, with no hand edits: tests/models/arm6_gripper.xml (implicitfast, a
# gripper on a tendon, the servo damping in the joints, meshes, no target
# body and no flange site) through 00_hello_robot, 12_sysid_from_logs
# --quick, 02_domain_randomization --quick on 12's ranges, and
# 06_staged_deployment --quick over the socket (robot_server --mjcf serves
# the nominal simulator of the same file).  Each must run to its end, say
# once what loading inferred (the integrator, the target, the flange, the
# gripper, the damping), and write what it promises.  12 also identifies
# the model itself served over the socket: a perfect model with no delay
# is "good" at zero command latency (no held sensing delay blocks it).
# 06 on an arm at --address alone puts its demo fault into no unit; its
# system ID on the model itself served (no delay) finds no error, as 12
# does (the sensing delay held at 0, not at the built-in ranges' 6 ms),
# and the robot side's watchdog never halts the arm.
# Usage: tests/test_your_arm.sh [build dir]    (from the repository root)
set -u
BUILD=${1:-build}
MODEL=tests/models/arm6_gripper.xml
WORK=$BUILD/your_arm
SOCK=$WORK/arm.sock
failed=0
rm -rf "$WORK" && mkdir -p "$WORK" || exit 1

# step NAME LOG FILE... : the command before ran with status $status; it must
# be 0, the log must hold each notice once, and each FILE must exist.
step() {
    name=$1 log=$2
    shift 2
    bad=""
    [ "$status" -eq 0 ] || bad="status $status"
    for said in "read as 'implicit'" "no mocap body 'target'" "no site 'flange'" "actuator 'gripper' left out" \
                "keep the servo damping in <joint damping>"; do
        n=$(grep -c "$said" "$log")
        [ "$n" -eq 1 ] || bad="$bad; \"$said\" said $n times"
    done
    for f in "$@"; do [ -s "$f" ] || bad="$bad; no $f"; done
    if [ -z "$bad" ]; then
        echo "ok   your arm: $name on $MODEL, its notices said once"
    else
        echo "FAIL your arm: $name: $bad"; tail -n 15 "$log"; failed=$((failed + 1))
    fi
}

# Meanwhile, from the start (it waits on the socket more than it computes), 06 on examples/arm4.xml
# served alone, with the expert stand-in as its candidate, through every stage to the autonomous
# rounds: the fleet's one unit is the arm at --address, a real robot for all 06 knows, so the demo's
# knocked camera goes into no unit, and the console says so.
"./$BUILD/robot_server" "$WORK/expert.sock" --mjcf examples/arm4.xml --clients 1 > "$WORK/server_expert.log" 2>&1 &
expert_server=$!
(sleep 0.5; ./"$BUILD"/06_staged_deployment --quick --mjcf examples/arm4.xml --address "$WORK/expert.sock" \
    --out "$WORK/expert" > "$WORK/06_expert.log" 2>&1; echo $? > "$WORK/06_expert.status") &
expert=$!
./"$BUILD"/00_hello_robot --mjcf "$MODEL" --out "$WORK" > "$WORK/00.log" 2>&1; status=$?
step 00_hello_robot "$WORK/00.log" "$WORK/00_hold_home.csv"
# The meshes found from the model file's folder (meshdir="assets" beside it), whatever the working folder.
here=$(pwd)
(cd / && "$here/$BUILD/00_hello_robot" --mjcf "$here/$MODEL" --out "$here/$WORK/elsewhere" > "$here/$WORK/00_elsewhere.log" 2>&1)
if [ $? -eq 0 ] && [ -s "$WORK/elsewhere/00_hold_home.csv" ]; then
    echo "ok   your arm: $MODEL and its meshes load from another working folder (/)"
else
    echo "FAIL your arm: $MODEL from the working folder /"; tail -n 3 "$WORK/00_elsewhere.log"; failed=$((failed + 1))
fi
./"$BUILD"/12_sysid_from_logs --quick --mjcf "$MODEL" --out "$WORK" > "$WORK/12.log" 2>&1; status=$?
step "12_sysid_from_logs --quick" "$WORK/12.log" "$WORK/12_ranges.txt" "$WORK/12_fit.png"
verdict=$(sed -n 's/.*held-out error .* of the motion (was .*): \([a-z]*\)$/\1/p' "$WORK/12.log")
# 12's made-different simulator (its lab_arm): kp x0.9, kv x1.1, 0.2 kg, 0.2 N m, 20 ms; the armature as modelled.
inside=$(awk -v truth="kp=0.9 kv=1.1 payload=0.2 armature=1 frictionloss=0.2 action_latency=0.02" \
    -f tests/check_intervals.awk "$WORK/12.log")
if [ "$verdict" = good ] && [ -n "$inside" ] && [ "${inside#*BAD}" = "$inside" ]; then
    echo "ok   your arm: 12 identifies the fixture's made-different simulator: $verdict; $inside"
else
    echo "FAIL your arm: 12's verdict on the fixture is \"$verdict\"; $inside"; failed=$((failed + 1))
fi
"./$BUILD/robot_server" "$SOCK" --mjcf "$MODEL" --clients 1 > "$WORK/server_12.log" 2>&1 &
server=$!
./"$BUILD"/12_sysid_from_logs --quick --mjcf "$MODEL" --address "$SOCK" --out "$WORK/served" > "$WORK/12_served.log" 2>&1
status=$?
kill $server 2>/dev/null; wait $server 2>/dev/null
verdict=$(sed -n 's/.*held-out error .* of the motion (was .*): \([a-z]*\)$/\1/p' "$WORK/12_served.log")
latency=$(sed -n 's/^ *action_latency  *s  *[0-9.]*  *\([0-9.]*\) .*/\1/p' "$WORK/12_served.log")
# An exact fit (loss 0): said so, with finite sensitivities and no NaN (was 6e302, "(-nan %)", intervals [1, 1]).
exact=$(grep -c "an exact fit: the training loss" "$WORK/12_served.log")
nan=$(( $(grep -ciw "nan" "$WORK/12_served.log") + $(grep -c "e+30[0-9]" "$WORK/12_served.log") ))
if [ $status -eq 0 ] && [ "$verdict" = good ] && [ "$latency" = 0 ] && [ "$exact" -eq 1 ] && [ "$nan" -eq 0 ]; then
    echo "ok   your arm: the model itself served over the socket (no delay at all) identified $verdict, command latency $latency s, an exact fit said so"
else
    echo "FAIL your arm: 12 on the served model itself: status $status, verdict \"$verdict\", latency \"$latency\", exact fit said $exact times, NaN or 1e30x on $nan lines"
    tail -n 5 "$WORK/12_served.log"; failed=$((failed + 1))
fi
# One fitted log corrupted (its q columns garbage after its first rows, at rest there): 12 names it and
# its verdict is block - it was "good" with every parameter "not identifiable", the log unnamed.
awk -F, 'BEGIN { OFS = ","; srand(3) } /^#/ || /^t/ { print; next }
         { if (++n > 8) for (i = 8; i <= 13; i++) $i = $i + (rand() - 0.5) * 0.3; print }' \
    "$WORK/served/12_log_2.csv" > "$WORK/garbage_log_2.csv"
./"$BUILD"/12_sysid_from_logs --quick --mjcf "$MODEL" --log "$WORK/served/12_log_1.csv" --log "$WORK/garbage_log_2.csv" \
    --log "$WORK/served/12_log_3.csv" --log "$WORK/served/12_log_4.csv" --out "$WORK/garbage" > "$WORK/12_garbage.log" 2>&1
verdict=$(sed -n 's/.*held-out error .* of the motion (was .*): \([a-z]*\).*$/\1/p' "$WORK/12_garbage.log")
if grep -q "^  fit log $WORK/garbage_log_2.csv: off by .* it is not the arm the others are" "$WORK/12_garbage.log" &&
   [ "$verdict" = block ] && [ "$(grep -c '^  fit log .*: off by' "$WORK/12_garbage.log")" -eq 1 ]; then
    echo "ok   your arm: a corrupted fit log is named and blocks the verdict: $(grep '^  fit log' "$WORK/12_garbage.log" | cut -c3-110)..."
else
    echo "FAIL your arm: a corrupted fit log: verdict \"$verdict\""; grep "fit log\|held-out error [0-9]" "$WORK/12_garbage.log"
    failed=$((failed + 1))
fi
# An arm that sags under soft servos and rings after a reset (tests/models/sag_arm.xml, as the iiwa's and
# Sawyer's models do), served by robot_server: 12 --address holds each start pose until the arm is still
# and records from the settled reading, so its own logs are not refused as "moving at the start"; the
# served model itself is identified good.
SAG=tests/models/sag_arm.xml
"./$BUILD/robot_server" "$WORK/sag.sock" --mjcf "$SAG" --clients 1 > "$WORK/server_sag.log" 2>&1 &
server=$!
./"$BUILD"/12_sysid_from_logs --quick --mjcf "$SAG" --address "$WORK/sag.sock" --out "$WORK/sag" > "$WORK/12_sag.log" 2>&1
status=$?
kill $server 2>/dev/null; wait $server 2>/dev/null
verdict=$(sed -n 's/.*held-out error .* of the motion (was .*): \([a-z]*\)$/\1/p' "$WORK/12_sag.log")
held=$(grep -c "^  log [1-4]: the arm was moving at its start pose after the reset: held it there" "$WORK/12_sag.log")
if [ $status -eq 0 ] && [ "$verdict" = good ] && [ "$held" -ge 1 ] && ! grep -q "moving at the start" "$WORK/12_sag.log"; then
    echo "ok   your arm: 12 --address on a sagging arm ($SAG) settles each start first ($held of 4 logs held) and identifies" \
         "it: $verdict"
else
    echo "FAIL your arm: 12 --address on $SAG: status $status, verdict \"$verdict\", $held logs held"
    tail -n 3 "$WORK/12_sag.log"; failed=$((failed + 1))
fi
rm -f "$WORK/sag.sock"
# A parameter the fit cannot identify keeps its training range in the ranges file, and the console says
# so: 12 printed "the recentred range" for it beside a ranges file holding the default one.
./"$BUILD"/12_sysid_from_logs --quick --mjcf "$SAG" --out "$WORK/sag_lab" > "$WORK/12_sag_lab.log" 2>&1
line=$(grep "^    armature " "$WORK/12_sag_lab.log")
if echo "$line" | grep -q "not identifiable: the ranges file keeps its training range$" &&
   grep -q "^armature  *loguniform  *0.7 1.4  *scale" "$WORK/sag_lab/12_ranges.txt" &&
   ! grep "not identifiable" "$WORK/12_sag_lab.log" | grep -q "recentred range"; then
    echo "ok   your arm: 12 says a parameter it cannot identify keeps its training range, as its ranges file does"
else
    echo "FAIL your arm: 12's unidentifiable armature: '$line'"; grep "^armature" "$WORK/sag_lab/12_ranges.txt"
    failed=$((failed + 1))
fi
./"$BUILD"/02_domain_randomization --quick --mjcf "$MODEL" --ranges "$WORK/12_ranges.txt" --out "$WORK" > "$WORK/02.log" 2>&1
status=$?
step "02_domain_randomization --quick" "$WORK/02.log" "$WORK/02_dr.ckpt" "$WORK/02_ranges.txt"
if grep -q "^Domain randomization on your arm ($MODEL): ranges in" "$WORK/02.log"; then
    echo "ok   your arm: 02 names the arm it trains on: $(grep '^Domain randomization on' "$WORK/02.log")"
else
    echo "FAIL your arm: 02 does not name $MODEL: $(grep '^Domain randomization on' "$WORK/02.log")"; failed=$((failed + 1))
fi
# Stiff servos that reach their forcerange on every step (tests/models/stiff_arm4.xml, as a Panda's): 06 on
# the model itself served, with the expert stand-in, raises no alarm (the torque alarm sits above the
# canary's own peaks: it fired on the unchanged arm once its window filled, as "(other)", and blamed the
# unit from 0 episodes under the fallback).
STIFF=tests/models/stiff_arm4.xml
"./$BUILD/robot_server" "$WORK/stiff.sock" --mjcf "$STIFF" --clients 0 > "$WORK/server_stiff.log" 2>&1 &
server=$!
./"$BUILD"/06_staged_deployment --quick --mjcf "$STIFF" --address "$WORK/stiff.sock" --out "$WORK/stiff" > "$WORK/06_stiff.log" 2>&1
status=$?
kill $server 2>/dev/null; wait $server 2>/dev/null
if [ $status -eq 0 ] && grep -q "^  no alarm in [0-9]* rounds" "$WORK/06_stiff.log" &&
   grep -q "^  canary: unit socket: sim (1 of 1 = 100 % of the fleet)" "$WORK/06_stiff.log" &&   # one unit named once
   grep -q "^  torque alarm above a rolling mean peak of" "$WORK/06_stiff.log" && ! grep -q "(other)" "$WORK/06_stiff.log"; then
    echo "ok   your arm: 06 on stiff servos served unchanged ($STIFF) raises no alarm:$(grep '^  torque alarm' "$WORK/06_stiff.log" | cut -c2-90)..."
else
    echo "FAIL your arm: 06 on $STIFF served unchanged: status $status"; grep "ALARM\|alarm\|under the fallback" "$WORK/06_stiff.log"
    failed=$((failed + 1))
fi
rm -f "$WORK/stiff.sock"
"./$BUILD/robot_server" "$SOCK" --mjcf "$MODEL" --clients 0 > "$WORK/server.log" 2>&1 &
server=$!
./"$BUILD"/06_staged_deployment --quick --mjcf "$MODEL" --address "$SOCK" --out "$WORK" > "$WORK/06.log" 2>&1
status=$?
kill $server 2>/dev/null; wait $server 2>/dev/null
[ $status -eq 1 ] && grep -q "^deployment stopped in stage sim_regression" "$WORK/06.log" && status=0   # the quick policy stops there
step "06_staged_deployment --quick --address" "$WORK/06.log" "$WORK/06_deployment_log.jsonl"
wait $expert
kill $expert_server 2>/dev/null; wait $expert_server 2>/dev/null
status=$(cat "$WORK/06_expert.status")
if [ "$status" -eq 0 ] && grep -q "no fault injected: this demo puts its knocked camera into stand-in units only" "$WORK/06_expert.log" &&
   ! grep -q "knocked by" "$WORK/expert/06_deployment_log.jsonl" && ! grep -q "recalibrate" "$WORK/06_expert.log" &&
   [ "$(awk -F, 'NR > 1 && $6 != 0' "$WORK/expert/06_rounds.csv" | wc -l)" -eq 0 ] && [ -s "$WORK/expert/06_rounds.csv" ]; then
    echo "ok   your arm: 06 on the arm at --address alone injects no fault into it, and says so: $(grep -A1 'no fault injected' "$WORK/06_expert.log" | tr -s ' \n' ' ')"
else
    echo "FAIL your arm: 06 with the expert on the arm at --address: status $status"; grep -i "round\|knock\|recalib" "$WORK/06_expert.log"
    failed=$((failed + 1))
fi
sysid=$(grep '^  sysID: ' "$WORK/06_expert.log")
if echo "$sysid" | grep -q "held-out error 0.00 % of the motion identified, 0.0 % with the datasheet model" &&
   ! grep -q watchdog "$WORK/server_expert.log"; then
    echo "ok   your arm: 06's system ID of the model itself served over the socket finds no error, as 12 does, and no" \
         "watchdog halt:$(echo "$sysid" | sed 's/^ *sysID://')"
else
    echo "FAIL your arm: 06's system ID of the served model itself: $sysid"; grep watchdog "$WORK/server_expert.log"
    failed=$((failed + 1))
fi
rm -f "$SOCK"
echo "$failed your-arm test(s) failed"
[ $failed -eq 0 ]
