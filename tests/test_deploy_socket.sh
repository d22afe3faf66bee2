#!/bin/sh
# tests/test_deploy_socket.sh - your arm's path with the arm in another
# process: build/robot_server serving stand-in unit 1 over a socket.
# First example 12 records its logs there (--address) and identifies from
# the CSV files: the logs, the identified model and the ranges must be the
# same files as 12's recording the unit in its own process (LOGS, a
# folder of `12_sysid_from_logs --quick`; run here when not given).  02
# trains (quick) on those ranges and 06 deploys that policy over the
# socket: the same files as in process.  Then
# build/06_staged_deployment --address deploys on it through the socket
# backend.  For reach and for push (quick sizes), every file 06 writes
# (the deployment log, the timeline, the rounds, the figure) must be the
# same, byte for byte, as 06's with the same unit in its own process, and
# its printout the same line for line (bar the line naming the
# connection); the two runs go side by side.  The robot side's watchdog
# never fires in these runs: 06 ends the lab unit's episode (a halt)
# before it computes on its own, between stages and while other units
# run.  Then the robot side is killed (SIGKILL) once system
# identification has decided: 06 must stop
# within seconds, in whichever later stage next drives the lab unit, with
# status 1, name the lost connection and the stage, close its log with a
# "stopped" record in that stage after the records it had (every line
# whole JSON) and write the timeline of the decisions so far.
# Usage: tests/test_deploy_socket.sh [build dir [LOGS]]    (from the repository root)
set -u
BUILD=${1:-build}
WORK=$BUILD/test_deploy_socket
LOGS=${2:-$WORK/logs_here}
SOCK=$WORK/robot.sock
failed=0
rm -rf "$WORK"
mkdir -p "$WORK"

# Logs recorded over the socket, identified from the files.
[ -f "$LOGS/12_ranges.txt" ] || "./$BUILD/12_sysid_from_logs" --quick --out "$LOGS" > "$WORK/logs_here.txt" 2>&1
"./$BUILD/robot_server" "$SOCK" --unit 1 --clients 1 > "$WORK/server_logs.log" 2>&1 &
server=$!
"./$BUILD/12_sysid_from_logs" --quick --address "$SOCK" --out "$WORK/logs" > "$WORK/logs.txt" 2>&1
status=$?
kill $server 2>/dev/null; wait $server 2>/dev/null
same=0
for f in 12_log_1.csv 12_log_2.csv 12_log_3.csv 12_log_4.csv 12_identified.txt 12_ranges.txt; do
    cmp -s "$WORK/logs/$f" "$LOGS/$f" && same=$((same + 1))
done
if [ $status -eq 0 ] && [ $same -eq 6 ] && grep -q "on socket: real ur5e #1" "$WORK/logs.txt"; then
    echo "ok   deploy socket: 12 recorded its logs over the socket and identified from them: 4 logs, the identified model and" \
         "the ranges the same files as in process ($(grep '^ *held-out error [0-9]' "$WORK/logs.txt" | sed 's/^ *//'))"
else
    echo "FAIL deploy socket: 12 over the socket: status $status, $same of 6 files the same as in $LOGS"; tail -3 "$WORK/logs.txt"
    failed=$((failed + 1))
fi

# 06's printout without what names the run's folder or the connection.
printout() {
    sed -e "s#$1#DIR#g" -e 's/, served at --address//' -e '/^  lab unit: .*, connected at /d' "$1.txt"
}

# Trained on what 12 found over the socket, then deployed there: 02 trains
# (quick) on 12's ranges, and 06 takes that policy as its candidate, over
# the socket and in process, in two folders holding the same 02 files.
T=$WORK/trained
"./$BUILD/02_domain_randomization" --quick --ranges "$WORK/logs/12_ranges.txt" --out "$T" > "$WORK/trained_02.txt" 2>&1
status=$?
cp -r "$T" "${T}_here"
"./$BUILD/robot_server" "$SOCK" --unit 1 --clients 1 > "$WORK/server_trained.log" 2>&1 &
server=$!
"./$BUILD/06_staged_deployment" --quick --address "$SOCK" --out "$T" > "$T.txt" 2>&1 &
client=$!
"./$BUILD/06_staged_deployment" --quick --out "${T}_here" > "${T}_here.txt" 2>&1
here=$?
wait $client; over=$?
kill $server 2>/dev/null; wait $server 2>/dev/null
same=0
for f in deployment_log.jsonl timeline.csv rounds.csv staged_deployment.png; do
    cmp -s "$T/06_$f" "${T}_here/06_$f" && same=$((same + 1))
done
printout "$T" > "$T.lines"
printout "${T}_here" > "${T}_here.lines"
if [ $status -eq 0 ] && [ $here -eq 0 ] && [ $over -eq 0 ] && [ $same -eq 4 ] && cmp -s "$T.lines" "${T}_here.lines" &&
   grep -q "^candidate: the trained policy in $T/02_dr.ckpt" "$T.txt" && ! grep -q watchdog "$WORK/server_trained.log"; then
    echo "ok   deploy socket: 02 trained on 12's ranges from the socket's logs, 06 deployed that policy over the socket:" \
         "4 files and $(wc -l < "$T.lines") lines the same as in process; now $(grep '^  now:' "$T.txt" | sed 's/ *now: //')"
else
    echo "FAIL deploy socket: the trained candidate: 02 status $status, 06 status $over over the socket and $here in" \
         "process, $same of 4 files the same"; tail -3 "$WORK/trained_02.txt" "$T.txt"; grep watchdog "$WORK/server_trained.log"
    failed=$((failed + 1))
fi

for task in reach push; do
    scene=arm; [ $task = push ] && scene=push
    pre=06; [ $task = push ] && pre=06_push
    "./$BUILD/robot_server" "$SOCK" --unit 1 --scene $scene --clients 1 > "$WORK/server_$task.log" 2>&1 &
    server=$!
    "./$BUILD/06_staged_deployment" --quick --task $task --address "$SOCK" --out "$WORK/socket_$task" \
        > "$WORK/socket_$task.txt" 2>&1 &
    client=$!
    "./$BUILD/06_staged_deployment" --quick --task $task --out "$WORK/here_$task" > "$WORK/here_$task.txt" 2>&1
    here=$?
    wait $client; over=$?
    kill $server 2>/dev/null; wait $server 2>/dev/null
    if [ $here -ne 0 ] || [ $over -ne 0 ]; then
        echo "FAIL deploy socket: $task: status $over over the socket, $here in process"
        tail -3 "$WORK/socket_$task.txt" "$WORK/here_$task.txt"; failed=$((failed + 1)); continue
    fi
    same=1
    for f in deployment_log.jsonl timeline.csv rounds.csv staged_deployment.png; do
        if ! cmp -s "$WORK/socket_$task/${pre}_$f" "$WORK/here_$task/${pre}_$f"; then
            echo "FAIL deploy socket: $task: ${pre}_$f differs between the socket and in process"; same=0
        fi
    done
    printout "$WORK/socket_$task" > "$WORK/socket_$task.lines"
    printout "$WORK/here_$task" > "$WORK/here_$task.lines"
    if ! cmp -s "$WORK/socket_$task.lines" "$WORK/here_$task.lines"; then
        echo "FAIL deploy socket: $task: the printouts differ:"; diff "$WORK/socket_$task.lines" "$WORK/here_$task.lines" | head -5
        same=0
    fi
    grep -q "^  lab unit: socket: real ur5e #1, connected at" "$WORK/socket_$task.txt" || { echo "FAIL deploy socket: $task: no connection said"; same=0; }
    if grep -q watchdog "$WORK/server_$task.log"; then
        echo "FAIL deploy socket: $task: the robot side's watchdog halted the arm (06 left an episode open):"
        grep watchdog "$WORK/server_$task.log" | head -3; same=0
    fi
    if [ $same -eq 1 ]; then
        echo "ok   deploy socket: $task: the lab unit over the socket, 4 files and $(wc -l < "$WORK/here_$task.lines") lines the same as in process," \
             "no watchdog halt on the robot side;" \
             "$(grep -c '"event":"gate"' "$WORK/here_$task/${pre}_deployment_log.jsonl") gates, now $(grep '^  now:' "$WORK/here_$task.txt" | sed 's/ *now: //')"
    else
        failed=$((failed + 1))
    fi
done

# The robot side killed after the system-ID gate: the next stage finds it gone.
LOG=$WORK/killed/06_deployment_log.jsonl
"./$BUILD/robot_server" "$SOCK" --unit 1 --clients 1 > "$WORK/server_killed.log" 2>&1 &
server=$!
"./$BUILD/06_staged_deployment" --quick --address "$SOCK" --out "$WORK/killed" > "$WORK/killed.txt" 2>&1 &
client=$!
waited=0
while ! grep -q '"stage":"sysid_validation","verdict"' "$LOG" 2>/dev/null && kill -0 $client 2>/dev/null && [ $waited -lt 600 ]; do
    sleep 1; waited=$((waited + 1))
done
kill -9 $server 2>/dev/null; wait $server 2>/dev/null
waited=0
while kill -0 $client 2>/dev/null && [ $waited -lt 20 ]; do sleep 1; waited=$((waited + 1)); done
if kill -0 $client 2>/dev/null; then
    kill $client; echo "FAIL deploy socket: 06 still runs 20 s after its lab unit's robot side was killed"; failed=$((failed + 1))
else
    wait $client; status=$?
    said=$(grep "^deployment stopped in stage" "$WORK/killed.txt")
    stage=$(echo "$said" | sed -n 's/^deployment stopped in stage \([a-z_]*\): .*/\1/p')
    last=$(tail -n 1 "$LOG" 2>/dev/null)
    whole=$(python3 -c 'import json, sys; [json.loads(l) for l in open(sys.argv[1])]; print("whole")' "$LOG" 2>/dev/null)
    gates=$(grep -c '"event":"gate"' "$LOG" 2>/dev/null)
    rows=$(($(wc -l < "$WORK/killed/06_timeline.csv" 2>/dev/null || echo 0) - 1))
    if [ $status -eq 1 ] && echo "$said" | grep -q "socket: real ur5e #1: .*\(closed the connection\|connection lost\)" &&
       [ -n "$stage" ] && [ "$stage" != sim_regression ] && [ "$stage" != sysid_validation ] &&
       [ "$whole" = whole ] && echo "$last" | grep -q "\"event\":\"stopped\",\"stage\":\"$stage\"" &&
       [ "$rows" -eq "$gates" ] && [ "$gates" -ge 2 ]; then
        echo "ok   deploy socket: robot side killed after system ID: status 1, $said; the log whole, $(wc -l < "$LOG")" \
             "records ending \"stopped\" in $stage, the timeline's $rows decisions written"
    else
        echo "FAIL deploy socket: after the kill: status $status, stage '$stage', $gates gates logged, $rows in the timeline," \
             "last log record: $last"; tail -5 "$WORK/killed.txt"
        failed=$((failed + 1))
    fi
fi
rm -f "$SOCK"
echo "$failed deploy socket test(s) failed"
[ $failed -eq 0 ]
