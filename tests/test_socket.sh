#!/bin/sh
# tests/test_socket.sh - the socket backend across two programs: build/
# robot_server serving stand-in unit 2, build/robot_client evaluating the
# scripted controller on it must print the same line, digit for digit, as
# the client evaluating the same unit in its own process (reach and push);
# then the server killed (SIGKILL) mid-evaluation: the client must stop
# within seconds with status 1 and say the connection closed.
# Usage: tests/test_socket.sh [build dir]    (from the repository root)
set -u
BUILD=${1:-build}
SOCK=$BUILD/test_socket.sock
failed=0

for task in reach push; do
    scene=arm; [ $task = push ] && scene=push
    "./$BUILD/robot_server" "$SOCK" --unit 2 --scene $scene --clients 1 > "$BUILD/test_socket_server.log" 2>&1 &
    server=$!
    over=$("./$BUILD/robot_client" "$SOCK" --task $task --episodes 4 --seed 7 --timeout-ms 10000 | grep '^success')
    [ -n "$over" ] || kill $server    # the client never got through: do not wait for it
    wait $server
    here=$("./$BUILD/robot_client" --in-process 2 --task $task --episodes 4 --seed 7 | grep '^success')
    if [ -n "$over" ] && [ "$over" = "$here" ] && grep -q "^robot side: client 1 connected" "$BUILD/test_socket_server.log" &&
       grep -q "^robot side: client 1 finished (it said bye), the arm halted" "$BUILD/test_socket_server.log" &&
       ! grep -q "lost\|watchdog" "$BUILD/test_socket_server.log"; then
        echo "ok   socket: $task over the socket, the same digits as in process: $over; the server logged its client's coming and" \
             "going (it finished, with a bye)"
    else
        echo "FAIL socket: $task over the socket \"$over\", in process \"$here\""; failed=$((failed + 1))
    fi
done

"./$BUILD/robot_server" "$SOCK" --unit 2 --clients 1 > "$BUILD/test_socket_server.log" 2>&1 &
server=$!
"./$BUILD/robot_client" "$SOCK" --episodes 1000 --timeout-ms 10000 > "$BUILD/test_socket_client.log" 2>&1 &
client=$!
sleep 2
kill -9 $server
waited=0
while kill -0 $client 2>/dev/null && [ $waited -lt 10 ]; do sleep 1; waited=$((waited + 1)); done
if kill -0 $client 2>/dev/null; then
    kill $client; echo "FAIL socket: the client still runs 10 s after its robot side was killed"; failed=$((failed + 1))
else
    wait $client; status=$?
    if [ $status -eq 1 ] && grep -q "closed the connection\|connection lost" "$BUILD/test_socket_client.log"; then
        echo "ok   socket: robot side killed mid-evaluation, the client stopped: $(grep "robot_client:" "$BUILD/test_socket_client.log")"
    else
        echo "FAIL socket: after the kill the client gave status $status:"; cat "$BUILD/test_socket_client.log"; failed=$((failed + 1))
    fi
fi
# Options validated (status 2, nothing served), a file at the address left
# as it was, a stop request answered with status 130 and the path removed.
rm -f "$SOCK"   # left by the server killed above
for bad in "--unit abc" "--unit 0" "--scene bogus" "--clients -1" "--watchdog-ms 0" "--robot kuka" "--unit"; do
    # shellcheck disable=SC2086
    "./$BUILD/robot_server" "$SOCK" $bad > "$BUILD/test_socket_options.log" 2>&1; status=$?
    if [ $status -eq 2 ] && grep -q "bad value for\|unknown option" "$BUILD/test_socket_options.log" && [ ! -e "$SOCK" ]; then
        echo "ok   socket: robot_server $bad refused: $(head -n 1 "$BUILD/test_socket_options.log")"
    else
        echo "FAIL socket: robot_server $bad gave status $status:"; cat "$BUILD/test_socket_options.log"; failed=$((failed + 1))
    fi
done
for bad in "--episodes x" "--episodes 0" "--seed -1" "--timeout-ms 5ms" "--task jump"; do
    # shellcheck disable=SC2086
    "./$BUILD/robot_client" "$SOCK" $bad > "$BUILD/test_socket_options.log" 2>&1; status=$?
    if [ $status -eq 2 ] && grep -q "bad value for" "$BUILD/test_socket_options.log"; then
        echo "ok   socket: robot_client $bad refused"
    else
        echo "FAIL socket: robot_client $bad gave status $status:"; cat "$BUILD/test_socket_options.log"; failed=$((failed + 1))
    fi
done
for prog in robot_server robot_client robot_player; do   # --help: the usage, status 0, nothing served or run
    "./$BUILD/$prog" --help > "$BUILD/test_socket_options.log" 2>&1; status=$?
    if [ $status -eq 0 ] && head -n 1 "$BUILD/test_socket_options.log" | grep -q "^usage: $prog "; then
        echo "ok   socket: $prog --help prints its usage"
    else
        echo "FAIL socket: $prog --help gave status $status:"; cat "$BUILD/test_socket_options.log"; failed=$((failed + 1))
    fi
done
printf 'precious\n' > "$SOCK"
"./$BUILD/robot_server" "$SOCK" --clients 1 > "$BUILD/test_socket_options.log" 2>&1; status=$?
if [ $status -eq 1 ] && grep -q "exists and is not a socket" "$BUILD/test_socket_options.log" && [ "$(cat "$SOCK")" = precious ]; then
    echo "ok   socket: robot_server refuses a file at its address and leaves it: $(cat "$BUILD/test_socket_options.log")"
else
    echo "FAIL socket: robot_server at a file: status $status, the file now \"$(cat "$SOCK" 2>&1)\""; failed=$((failed + 1))
fi
rm -f "$SOCK"
"./$BUILD/robot_server" "$SOCK" > "$BUILD/test_socket_server.log" 2>&1 &
server=$!
waited=0
while [ ! -S "$SOCK" ] && [ $waited -lt 100 ]; do sleep 0.1; waited=$((waited + 1)); done
kill -TERM $server; wait $server; status=$?
if [ $status -eq 130 ] && [ ! -e "$SOCK" ]; then
    echo "ok   socket: robot_server stopped by SIGTERM: status 130, its socket removed"
else
    echo "FAIL socket: robot_server after SIGTERM: status $status, socket $(ls -l "$SOCK" 2>&1)"; failed=$((failed + 1))
fi
rm -f "$SOCK"

# examples/robot_server.py: the same rules for its address and its stop.
printf 'precious\n' > "$SOCK"
python3 examples/robot_server.py "$SOCK" --clients 1 > "$BUILD/test_socket_options.log" 2>&1; status=$?
if [ $status -ne 0 ] && grep -q "exists and is not a socket" "$BUILD/test_socket_options.log" && [ "$(cat "$SOCK")" = precious ]; then
    echo "ok   socket: robot_server.py refuses a file at its address and leaves it"
else
    echo "FAIL socket: robot_server.py at a file: status $status, the file now \"$(cat "$SOCK" 2>&1)\""; failed=$((failed + 1))
fi
rm -f "$SOCK"
"./$BUILD/robot_server" "$SOCK" --unit 2 --clients 1 > "$BUILD/test_socket_server.log" 2>&1 &
server=$!
waited=0
while [ ! -S "$SOCK" ] && [ $waited -lt 100 ]; do sleep 0.1; waited=$((waited + 1)); done
python3 examples/robot_server.py "$SOCK" --clients 1 > "$BUILD/test_socket_options.log" 2>&1; status=$?
over=$("./$BUILD/robot_client" "$SOCK" --episodes 1 --seed 7 --timeout-ms 10000 | grep '^success')
[ -n "$over" ] || kill $server
wait $server
if [ $status -ne 0 ] && grep -q "another server is live there" "$BUILD/test_socket_options.log" && [ -n "$over" ]; then
    echo "ok   socket: robot_server.py refuses a live server's socket, which goes on serving: $over"
else
    echo "FAIL socket: robot_server.py beside a live server: status $status, the client then \"$over\""; failed=$((failed + 1))
fi
rm -f "$SOCK"
python3 examples/robot_server.py "$SOCK" > "$BUILD/test_socket_server.log" 2>&1 &
server=$!
waited=0
while [ ! -S "$SOCK" ] && [ $waited -lt 100 ]; do sleep 0.1; waited=$((waited + 1)); done
kill -TERM $server; wait $server; status=$?
if [ $status -eq 130 ] && [ ! -e "$SOCK" ]; then
    echo "ok   socket: robot_server.py stopped by SIGTERM: status 130, its socket removed"
else
    echo "FAIL socket: robot_server.py after SIGTERM: status $status, socket $(ls -l "$SOCK" 2>&1)"; failed=$((failed + 1))
fi
rm -f "$SOCK"

# robot_server.py gives no ground truth (its TRUTH answer is the owner's to fill): evaluating on it and
# deploying on it stop with status 1 and say why - never a success count or a gate's verdict read from
# numbers it did not give; 06 asks at connection, before any stage, and hangs up with a bye (the robot
# side logged it as lost).
python3 examples/robot_server.py "$SOCK" --clients 2 > "$BUILD/test_socket_py.log" 2>&1 &
server=$!
waited=0
while [ ! -S "$SOCK" ] && [ $waited -lt 100 ]; do sleep 0.1; waited=$((waited + 1)); done
"./$BUILD/robot_client" "$SOCK" --episodes 2 --timeout-ms 10000 > "$BUILD/test_socket_truth.log" 2>&1; client=$?
rm -rf "$BUILD/test_socket_truth"
"./$BUILD/06_staged_deployment" --address "$SOCK" --quick --out "$BUILD/test_socket_truth" > "$BUILD/test_socket_truth06.log" 2>&1
deploy=$?
kill $server 2>/dev/null; wait $server 2>/dev/null
if [ $client -eq 1 ] && ! grep -q "^success" "$BUILD/test_socket_truth.log" &&
   grep -q "the robot side gives no ground truth: the step's outcome (distance, success, reward) cannot be judged" "$BUILD/test_socket_truth.log" &&
   grep -q "or evaluate on a simulator (robot side: truth: this arm has no external measurement of its flange (fill answer()'s TRUTH))$" "$BUILD/test_socket_truth.log" &&
   [ $deploy -eq 1 ] && grep -q "gives no ground truth" "$BUILD/test_socket_truth06.log" && ! grep -q "sim regression" "$BUILD/test_socket_truth06.log" &&
   [ "$(grep -c "finished (it said bye)" "$BUILD/test_socket_py.log")" -eq 2 ]; then
    echo "ok   socket: robot_server.py gives no ground truth: evaluation and 06 stop saying so: $(grep "06 judges" "$BUILD/test_socket_truth06.log")"
else
    echo "FAIL socket: on robot_server.py, which gives no ground truth: robot_client status $client, 06 status $deploy"
    cat "$BUILD/test_socket_truth.log" "$BUILD/test_socket_truth06.log"; failed=$((failed + 1))
fi
rm -f "$SOCK"

# robot_server.py --play: the excitation files 12 writes played on its arm and logged as the
# trajectory files 12 reads (the fake arm is a first-order lag, not a UR5e: 12 reads and fits
# them; its verdict, block, is not the point, but then 12 must not say to train on its ranges, and,
# every joint off alike, it names what a simulator's parameters cannot hold).
PLAYED=$BUILD/test_socket_played
rm -rf "$PLAYED" && mkdir -p "$PLAYED"
./"$BUILD"/12_sysid_from_logs --quick --write-excitation "$PLAYED/exc.csv" > "$PLAYED/write.log" 2>&1 &&
python3 examples/robot_server.py --play "$PLAYED/exc_1.csv" "$PLAYED/log_1.csv" --play "$PLAYED/exc_4.csv" \
    "$PLAYED/log_4.csv" > "$PLAYED/play.log" 2>&1 &&
./"$BUILD"/12_sysid_from_logs --quick --log "$PLAYED/log_1.csv" --log "$PLAYED/log_4.csv" --out "$PLAYED" > "$PLAYED/fit.log" 2>&1
status=$?
if [ $status -eq 0 ] && grep -q "^  fit $PLAYED/log_1.csv: 50 Hz, 1.20 s, velocities measured" "$PLAYED/fit.log" &&
   ! grep -q "^Next: train on them" "$PLAYED/fit.log" && grep -q "^Next: do not train on them - the verdict is block" "$PLAYED/fit.log" &&
   grep -q "every joint off alike .* the arm has what no parameter here holds - backlash, friction that changes" "$PLAYED/fit.log" &&
   grep -q "^  intervals:" "$PLAYED/fit.log" && head -n 2 "$PLAYED/log_1.csv" | grep -q "^# rate 50 Hz"; then
    echo "ok   socket: robot_server.py --play plays 12's excitations and logs them; 12 fits the logs: $(grep '^  held-out error [0-9]' "$PLAYED/fit.log")"
else
    echo "FAIL socket: robot_server.py --play and 12: status $status"; cat "$PLAYED/play.log"; tail -n 5 "$PLAYED/fit.log"; failed=$((failed + 1))
fi
# The same motion as fitted and held-out log (a copy under another name): refused, no held-out verdict.
cp "$PLAYED/log_1.csv" "$PLAYED/log_1_again.csv"
./"$BUILD"/12_sysid_from_logs --quick --log "$PLAYED/log_1.csv" --log "$PLAYED/log_1_again.csv" --out "$PLAYED/again" \
    > "$PLAYED/again.log" 2>&1
status=$?
if [ $status -eq 1 ] && grep -q "the held-out log $PLAYED/log_1_again.csv holds the same motion as the fitted $PLAYED/log_1.csv" \
   "$PLAYED/again.log" && ! grep -q "held-out error" "$PLAYED/again.log"; then
    echo "ok   socket: 12 refuses a held-out log that is a fitted one: $(tail -n 1 "$PLAYED/again.log")"
else
    echo "FAIL socket: 12 with the same log fitted and held out: status $status"; tail -n 3 "$PLAYED/again.log"; failed=$((failed + 1))
fi
printf '# rate 50 Hz\nt,command_1\n0,0\n0.02,0\n' > "$PLAYED/one_joint.csv"
python3 examples/robot_server.py --play "$PLAYED/one_joint.csv" "$PLAYED/no.csv" > "$PLAYED/bad.log" 2>&1; status=$?
if [ $status -eq 1 ] && [ ! -e "$PLAYED/no.csv" ] && grep -q "one_joint.csv, line 2: the columns are t,command_1; this arm's excitation has t,command_1,command_2" "$PLAYED/bad.log"; then
    echo "ok   socket: robot_server.py --play refuses another arm's excitation: $(cat "$PLAYED/bad.log")"
else
    echo "FAIL socket: robot_server.py --play on another arm's file: status $status"; cat "$PLAYED/bad.log"; failed=$((failed + 1))
fi
# A log given the path of an excitation (the same path, or the same file by another) is refused before
# anything is played: it overwrote the excitation (robot_player and robot_server.py --play).
cp "$PLAYED/exc_1.csv" "$PLAYED/exc_1_kept.csv"
./"$BUILD"/robot_player "$PLAYED/exc_1.csv" "$PLAYED/./exc_1.csv" > "$PLAYED/same.log" 2>&1; player=$?
python3 examples/robot_server.py --play "$PLAYED/exc_1.csv" "$PLAYED/exc_1.csv" > "$PLAYED/same_py.log" 2>&1; py=$?
if [ $player -eq 2 ] && [ $py -eq 2 ] && cmp -s "$PLAYED/exc_1.csv" "$PLAYED/exc_1_kept.csv" &&
   grep -q "writing it would overwrite what is played" "$PLAYED/same.log" && grep -q "would overwrite" "$PLAYED/same_py.log"; then
    echo "ok   socket: robot_player and robot_server.py --play refuse a log at an excitation's path: $(cat "$PLAYED/same.log")"
else
    echo "FAIL socket: a log at the excitation's path: robot_player $player, robot_server.py $py"
    cat "$PLAYED/same.log" "$PLAYED/same_py.log"; failed=$((failed + 1))
fi
# A first client that says hello and then nothing (it holds the arm: robot_client would stop at
# its first step, on no ground truth), then robot_client with a timeout: held_then_client LOG
# TIMEOUT_MS ARGS... serves robot_server.py ARGS into LOG, robot_client's status in $second.
held_then_client() {
    log=$1 timeout=$2; shift 2
    python3 examples/robot_server.py "$SOCK" "$@" > "$log" 2>&1 &
    server=$!
    waited=0
    while [ ! -S "$SOCK" ] && [ $waited -lt 100 ]; do sleep 0.1; waited=$((waited + 1)); done
    python3 -c 'import socket, sys, time
sys.path.insert(0, "examples"); import robot_server as r
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
s.sendall(r.HEADER.pack(r.MAGIC, r.VERSION, r.HELLO, 0, 0, r.ARM_BLOCK.size) + r.arm_block())
s.recv(4096); time.sleep(30)' "$SOCK" > /dev/null 2>&1 &
    client=$!
    waited=0
    while ! grep -q "client 1 connected" "$log" && [ $waited -lt 100 ]; do sleep 0.1; waited=$((waited + 1)); done
    "./$BUILD/robot_client" "$SOCK" --episodes 1 --timeout-ms "$timeout" > "$log.client" 2>&1; second=$?
    kill $client 2>/dev/null; wait $client 2>/dev/null
    wait $server
    rm -f "$SOCK"
}
# robot_server.py logs its clients: the first's coming, a second refused busy, the first's going.
held_then_client "$BUILD/test_socket_py.log" 200 --clients 1
if [ $second -eq 1 ] && grep -q "^client 1 connected (hello answered)" "$BUILD/test_socket_py.log" &&
   grep -q "^a connection refused: busy: another client has held this arm" "$BUILD/test_socket_py.log" &&
   grep -q "^client 1 lost between episodes: its connection closed without a bye" "$BUILD/test_socket_py.log"; then
    echo "ok   socket: robot_server.py logs a client's coming, a busy refusal and the client's going"
else
    echo "FAIL socket: robot_server.py's log (second client status $second):"; cat "$BUILD/test_socket_py.log"; failed=$((failed + 1))
fi
# A client silent between episodes (stopped, hung) holds robot_server.py's arm only until --idle-ms:
# then the next to connect takes it, and the log says why the first went.
held_then_client "$BUILD/test_socket_py_idle.log" 3000 --clients 2 --idle-ms 300
if grep -q "^client 1 gave way, its connection closed: silent [0-9.]* s between episodes (idle_ms 300)" "$BUILD/test_socket_py_idle.log" &&
   grep -q "^client 2 connected (hello answered)" "$BUILD/test_socket_py_idle.log"; then
    echo "ok   socket: robot_server.py gives the arm of a client silent --idle-ms between episodes to the next"
else
    echo "FAIL socket: robot_server.py --idle-ms:"; cat "$BUILD/test_socket_py_idle.log"; failed=$((failed + 1))
fi

# The two sides load different arms: refused on both sides, each message naming both. robot_server
# --mjcf arm4 and a client whose arm4 has another elbow range: the client stops (status 1) saying the
# robot side refused it and how the arms differ, the server logs the refusal and serves the next
# client, which loads the same file. robot_server.py (a UR5e) refuses a client with arm4.
ARMS=$BUILD/test_socket_arms
rm -rf "$ARMS" && mkdir -p "$ARMS"
sed "s/name='elbow' range='-2.6 2.6'/name='elbow' range='-2.5 2.5'/" examples/arm4.xml > "$ARMS/arm4_other_elbow.xml"
"./$BUILD/robot_server" "$SOCK" --mjcf examples/arm4.xml --clients 1 > "$ARMS/server.log" 2>&1 &
server=$!
"./$BUILD/robot_client" "$SOCK" --mjcf "$ARMS/arm4_other_elbow.xml" --episodes 1 --timeout-ms 10000 > "$ARMS/other.log" 2>&1; other=$?
same=$("./$BUILD/robot_client" "$SOCK" --mjcf examples/arm4.xml --episodes 1 --timeout-ms 10000 2>&1 | grep '^success')
[ -n "$same" ] || kill $server
wait $server
python3 examples/robot_server.py "$SOCK" --clients 1 > "$ARMS/py.log" 2>&1 &
server=$!
"./$BUILD/robot_client" "$SOCK" --mjcf examples/arm4.xml --episodes 1 --timeout-ms 10000 > "$ARMS/py_client.log" 2>&1; py=$?
# (the robot side logs the refusal after sending it: wait for the line before stopping it)
waited=0
while ! grep -q "^a connection refused" "$ARMS/py.log" && [ $waited -lt 100 ]; do sleep 0.1; waited=$((waited + 1)); done
kill $server 2>/dev/null; wait $server 2>/dev/null
said="joint 3 is 'elbow' \[-2.5000, 2.5000\] rad in the client's 'arm4', 'elbow' \[-2.6000, 2.6000\] in this robot side's 'arm4'"
if [ $other -eq 1 ] && grep -q "the robot side refused this arm: $said (this side loaded $ARMS/arm4_other_elbow.xml: load the same arm on both sides)" "$ARMS/other.log" &&
   grep -q "^robot side: a connection refused: its hello names another arm: $said$" "$ARMS/server.log" &&
   grep -q "^robot side: client 1 connected" "$ARMS/server.log" && [ -n "$same" ] &&
   [ $py -eq 1 ] && grep -q "the robot side refused this arm: the client's arm is a custom (arm scene, 4 joints), this robot side's a ur5e (arm scene, 6 joints)" "$ARMS/py_client.log" &&
   grep -q "^a connection refused: its hello names another arm: the client's arm is a custom" "$ARMS/py.log"; then
    echo "ok   socket: another arm refused by robot_server and robot_server.py, naming both: $(cat "$ARMS/other.log")"
else
    echo "FAIL socket: another arm: client status $other (then \"$same\"), on robot_server.py $py"
    cat "$ARMS/other.log" "$ARMS/server.log" "$ARMS/py_client.log" "$ARMS/py.log"; failed=$((failed + 1))
fi
rm -f "$SOCK"

# Addresses read strictly by both robot sides: tcp:0.0.0.0 (every interface, no authentication) and a
# TCP: in capitals (once a path) refused, nothing served or created.
for address in tcp:0.0.0.0:47211 TCP:127.0.0.1:47211 tcp:127.0.0.1:047211; do
    "./$BUILD/robot_server" "$address" --clients 1 > "$BUILD/test_socket_options.log" 2>&1; status=$?
    python3 examples/robot_server.py "$address" --clients 1 > "$BUILD/test_socket_py.log" 2>&1; py=$?
    if [ $status -eq 1 ] && [ $py -eq 1 ] && [ ! -e "$address" ] &&
       grep -q "0.0.0.0 is every network interface\|write tcp: in lower case\|without sign or leading zero" "$BUILD/test_socket_options.log" &&
       grep -q "0.0.0.0 is every network interface\|write tcp: in lower case\|without sign or leading zero" "$BUILD/test_socket_py.log"; then
        echo "ok   socket: both robot sides refuse $address: $(tail -n 1 "$BUILD/test_socket_options.log")"
    else
        echo "FAIL socket: $address: robot_server status $status, robot_server.py $py"; cat "$BUILD/test_socket_options.log" "$BUILD/test_socket_py.log"
        failed=$((failed + 1))
    fi
done
# A client given a file that is no socket says so (it said "Connection refused"); robot_server's option
# errors echo the value they refuse.
printf 'not a socket\n' > "$BUILD/test_socket_regular.txt"
said=$("./$BUILD/robot_client" "$BUILD/test_socket_regular.txt" --episodes 1 --timeout-ms 2000 2>&1)
bad=$("./$BUILD/robot_server" "$SOCK" --unit abc 2>&1 | head -n 1)
if echo "$said" | grep -q "it is a file, not a socket (is that the robot side's address?)" &&
   [ "$(cat "$BUILD/test_socket_regular.txt")" = "not a socket" ] && [ "$bad" = "robot_server: bad value for --unit 'abc'" ]; then
    echo "ok   socket: a client at a regular file says it is no socket, and leaves it; robot_server echoes a bad value"
else
    echo "FAIL socket: a client at a regular file: $said / robot_server: $bad"; failed=$((failed + 1))
fi
rm -f "$BUILD/test_socket_regular.txt"
# robot_server.py never pads a reading: a driver that drops a joint mid-run (a /joint_states missing a
# name) gets the request refused naming the field, where the log recorded 0 rad for the joint.
said=$(python3 - <<'PY' 2>&1
import struct, sys
sys.path.insert(0, "examples")
import robot_server as rs
arm = rs.FakeArm()
status, reply = rs.answer(arm, rs.SENSORS, b"")
whole = status == 0
arm.sensors = lambda: (0.0, arm.q[:-1], arm.qd, [0.0] * arm.n, arm.target, [0.0] * 3)
status, reply = rs.answer(arm, rs.SENSORS, b"")
print("whole" if whole else "not whole", status, reply.decode())
PY
)
if [ "$said" = "whole -8 sensors: the driver gave 5 values of q, the arm has 6" ]; then
    echo "ok   socket: robot_server.py refuses a reading that lacks a joint, naming it: ${said#whole -8 }"
else
    echo "FAIL socket: robot_server.py on a dropped joint: $said"; failed=$((failed + 1))
fi
echo "$failed socket test(s) failed"
[ $failed -eq 0 ]
