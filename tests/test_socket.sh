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
    if [ -n "$over" ] && [ "$over" = "$here" ]; then
        echo "ok   socket: $task over the socket, the same digits as in process: $over"
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
rm -f "$SOCK"
echo "$failed socket test(s) failed"
[ $failed -eq 0 ]
