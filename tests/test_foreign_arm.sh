#!/bin/sh
# tests/test_foreign_arm.sh - identification of an arm the library did not
# simulate.  build/foreign_arm (tests/foreign_arm.c: plain MuJoCo, it does not
# include sim2real.h) is examples/arm4.xml made different on purpose - kp x 0.9,
# kv x 1.5, armature x 1.6, 0.5 N m of dry friction added, 30 ms of command
# delay and 10 ms of sensing delay, encoder noise - and settles under gravity
# before each log.  It is recorded twice: over the socket (the protocol of
# sim2real_socket.h; 12 --address records its excitations) and by hand (it
# plays the excitation files 12 --write-excitation writes and writes the
# trajectory files of sim2real_logs.h itself, at 250 Hz), and a third time
# by examples/robot_player.c, the shipped player, over the socket.  Each time
# 12_sysid_from_logs --quick must identify the planted kp, kv, friction loss,
# no payload, and the armature where it calls it identifiable, each inside the
# interval it reports, and the total delay (40 ms) inside action_latency's.
# Usage: tests/test_foreign_arm.sh [build dir]    (from the repository root)
set -u
BUILD=${1:-build}
MODEL=examples/arm4.xml
WORK=$BUILD/foreign_arm_test
failed=0
rm -rf "$WORK" && mkdir -p "$WORK" || exit 1

if grep -q '#include.*sim2real' tests/foreign_arm.c; then
    echo "FAIL foreign arm: tests/foreign_arm.c includes the library"; exit 1
fi

# check LABEL LOG: every planted value inside the interval 12 printed in LOG.
PLANTED="kp=0.9 kv=1.5 payload=0 armature=1.6? frictionloss=0.5 action_latency=0.04"
check() {
    label=$1 log=$2
    result=$(awk -v truth="$PLANTED" -f tests/check_intervals.awk "$log")
    case "$result" in
        *BAD*|"") echo "FAIL foreign arm, $label: $result"; tail -n 12 "$log"; failed=$((failed + 1)) ;;
        *) echo "ok   foreign arm, $label: $result" ;;
    esac
}

# 1. Over the socket: 12 records its four excitations on the foreign arm.
./"$BUILD"/foreign_arm "$MODEL" --serve "$WORK/arm.sock" --clients 1 > "$WORK/server.log" 2>&1 &
server=$!
./"$BUILD"/12_sysid_from_logs --quick --mjcf "$MODEL" --address "$WORK/arm.sock" --out "$WORK/socket" > "$WORK/socket.log" 2>&1
status=$?
kill $server 2>/dev/null; wait $server 2>/dev/null
if [ $status -ne 0 ]; then echo "FAIL foreign arm, over the socket: 12 exited $status"; tail -n 8 "$WORK/socket.log"; failed=$((failed + 1))
else check "over the socket" "$WORK/socket.log"; fi

# 2. From its own CSV: the excitation files played and logged by the foreign arm.
./"$BUILD"/12_sysid_from_logs --quick --mjcf "$MODEL" --write-excitation "$WORK/exc.csv" > "$WORK/excitation.log" 2>&1 || {
    echo "FAIL foreign arm: --write-excitation"; cat "$WORK/excitation.log"; exit 1; }
logs=""
for i in 1 2 3 4; do
    ./"$BUILD"/foreign_arm "$MODEL" --play "$WORK/exc_$i.csv" --log "$WORK/log_$i.csv" --seed $i > /dev/null 2>&1 || {
        echo "FAIL foreign arm: playing exc_$i.csv"; failed=$((failed + 1)); }
    logs="$logs --log $WORK/log_$i.csv"
done
# shellcheck disable=SC2086
./"$BUILD"/12_sysid_from_logs --quick --mjcf "$MODEL" $logs --out "$WORK/csv" > "$WORK/csv.log" 2>&1
status=$?
if [ $status -ne 0 ]; then echo "FAIL foreign arm, from its CSV logs: 12 exited $status"; tail -n 8 "$WORK/csv.log"; failed=$((failed + 1))
else check "from its CSV logs (250 Hz)" "$WORK/csv.log"; fi

# 3. The shipped player (examples/robot_player.c) on the foreign arm over the
#    socket: home, a slow move to each file's first row, settled, played, logged.
./"$BUILD"/foreign_arm "$MODEL" --serve "$WORK/player.sock" --clients 1 > "$WORK/player_server.log" 2>&1 &
server=$!
./"$BUILD"/robot_player --address "$WORK/player.sock" --mjcf "$MODEL" "$WORK/exc_1.csv" "$WORK/played_1.csv" \
    "$WORK/exc_2.csv" "$WORK/played_2.csv" "$WORK/exc_3.csv" "$WORK/played_3.csv" "$WORK/exc_4.csv" "$WORK/played_4.csv" \
    > "$WORK/player.log" 2>&1
status=$?
kill $server 2>/dev/null; wait $server 2>/dev/null
if [ $status -ne 0 ]; then echo "FAIL foreign arm: robot_player exited $status"; cat "$WORK/player.log"; failed=$((failed + 1))
else
    ./"$BUILD"/12_sysid_from_logs --quick --mjcf "$MODEL" --log "$WORK/played_1.csv" --log "$WORK/played_2.csv" \
        --log "$WORK/played_3.csv" --log "$WORK/played_4.csv" --out "$WORK/played" > "$WORK/played.log" 2>&1
    status=$?
    if [ $status -ne 0 ]; then echo "FAIL foreign arm, played by robot_player: 12 exited $status"; tail -n 8 "$WORK/played.log"; failed=$((failed + 1))
    else check "played by robot_player" "$WORK/played.log"; fi
fi

# 4. A logger that says another rate than it recorded at: refused, naming both.
./"$BUILD"/foreign_arm "$MODEL" --play "$WORK/exc_1.csv" --log "$WORK/log_claimed.csv" --claim-rate 125 > /dev/null 2>&1
./"$BUILD"/12_sysid_from_logs --quick --mjcf "$MODEL" --log "$WORK/log_claimed.csv" --log "$WORK/log_4.csv" \
    --out "$WORK/claimed" > "$WORK/claimed.log" 2>&1
status=$?
if [ $status -eq 1 ] && grep -q "log_claimed.csv, line 4: its header says 125 Hz, but t steps by 0.004 s between rows (median), 250 Hz: the file is faster than it says" "$WORK/claimed.log"; then
    echo "ok   foreign arm: a log at 250 Hz that says 125 Hz refused: $(head -c 150 "$WORK/claimed.log")..."
else
    echo "FAIL foreign arm: a log claiming 125 Hz: status $status"; cat "$WORK/claimed.log"; failed=$((failed + 1))
fi

# 5. An arm that will not settle (its encoder noise above --settle-speed): no log, the reason.
./"$BUILD"/foreign_arm "$MODEL" --serve "$WORK/noisy.sock" --clients 1 > /dev/null 2>&1 &
server=$!
./"$BUILD"/robot_player --address "$WORK/noisy.sock" --mjcf "$MODEL" --settle-speed 1e-9 "$WORK/exc_1.csv" \
    "$WORK/unsettled.csv" > "$WORK/unsettled.log" 2>&1
status=$?
kill $server 2>/dev/null; wait $server 2>/dev/null
if [ $status -eq 1 ] && [ ! -e "$WORK/unsettled.csv" ] && grep -q "the arm did not settle at the first row within 10 s" "$WORK/unsettled.log"; then
    echo "ok   foreign arm: robot_player on an arm that does not settle: $(cat "$WORK/unsettled.log")"
else
    echo "FAIL foreign arm: robot_player on an unsettled arm: status $status"; cat "$WORK/unsettled.log"; failed=$((failed + 1))
fi

echo "$failed foreign-arm test(s) failed"
[ $failed -eq 0 ]
