#!/bin/sh
# tests/test_options.sh - every example program refuses, before any work,
# each option it does not take and each value one of its stages cannot
# take: exit status 2, a message naming the option, and no --out folder
# left (the folder's lock is gone at exit, and a folder the run made is
# removed again when it is empty).  Its --help lists exactly the
# options it takes: each listed one is accepted beside --help, each other
# one refused.
# Usage: tests/test_options.sh [build dir]    (from the repository root)
set -u
BUILD=${1:-build}
WORK=$BUILD/options_test
failed=0
n=0

rm -rf "$WORK" && mkdir -p "$WORK" || exit 1
printf 'kp uniform 0.9 1.1 scale\n' > "$WORK/ranges.txt"
printf 't,q0\n' > "$WORK/log.csv"

# Every option with a value it parses.
OPTIONS="--robot=panda --task=push --seed=2 --real-seed=2 --seeds=2 --threads=2 --quick --smoke --resume --checkpoint-every=2
--mjcf=examples/arm4.xml --ranges=$WORK/ranges.txt --log=$WORK/log.csv --history=2 --adr --privileged --joint=kp[1]
--weight-qd=0.01 --write-excitation=$WORK/exc.csv --address=$WORK/robot.sock --representable --policy=$WORK/p.ckpt"

# refused PROGRAM "what it must name" ARGS... : exit 2, the option named,
# nothing written.
refused() {
    prog=$1 says=$2
    shift 2
    n=$((n + 1))
    out=$WORK/out$n
    "./$BUILD/$prog" "$@" --out "$out" > "$WORK/log$n" 2>&1
    status=$?
    if [ $status -ne 2 ]; then
        echo "FAIL options: $prog $* gave status $status (want 2)"; tail -n 5 "$WORK/log$n"; failed=$((failed + 1))
    elif ! grep -q -e "$says" "$WORK/log$n"; then
        echo "FAIL options: $prog $* does not name $says"; cat "$WORK/log$n"; failed=$((failed + 1))
    elif [ -d "$out" ] && [ -n "$(ls -A "$out")" ]; then
        echo "FAIL options: $prog $* wrote $(ls -A "$out")"; failed=$((failed + 1))
    elif [ -e "$out" ]; then
        echo "FAIL options: $prog $* left its --out $out behind, empty"; failed=$((failed + 1))
    fi
}

for source in examples/[0-9][0-9]_*.c; do
    prog=$(basename "$source" .c)
    [ -x "$BUILD/$prog" ] || { echo "FAIL options: $BUILD/$prog is not built"; failed=$((failed + 1)); continue; }
    if ! "./$BUILD/$prog" --help > "$WORK/$prog.help" 2>&1; then
        echo "FAIL options: $prog --help"; failed=$((failed + 1)); continue
    fi
    for option in $OPTIONS; do
        name=${option%%=*}
        value=${option#*=}
        set -- "$name"
        [ "$value" != "$option" ] && set -- "$name" "$value"
        if grep -q -e "^  $name " "$WORK/$prog.help"; then   # listed: taken
            if ! "./$BUILD/$prog" "$@" --help > /dev/null 2>&1; then
                echo "FAIL options: $prog lists $name in --help but refuses it"; failed=$((failed + 1))
            fi
        else
            refused "$prog" "$name" "$@"
        fi
    done
    refused "$prog" "--threads" --threads 65   # the command line's own bound, whether or not it is taken
    echo "ok   options: $prog refuses what it does not take; its --help lists what it takes"
done

# Values a stage of the program cannot take, refused before the first unit
# is identified, the first demonstration recorded or the first step trained.
refused 04_finetune "--threads" --quick --threads 9
refused 05_real_only "--threads" --quick --threads 9
refused 12_sysid_from_logs "--joint" --quick --joint 'kp[7]'
refused 12_sysid_from_logs "--joint" --quick --mjcf examples/arm4.xml --joint 'kv[5]'
refused 12_sysid_from_logs "--weight-qd" --quick --weight-qd -1
refused 13_recipe_depth "--seeds" --quick --adr --seeds 17
refused 14_predicting_transfer "--seeds" --quick --seeds 17
refused 06_staged_deployment "--address" --quick --address tcp:robot:30004
refused 06_staged_deployment "--address" --quick --mjcf examples/arm4.xml
refused 12_sysid_from_logs "--address" --quick --address "$WORK/robot.sock" --log "$WORK/log.csv"
refused 06_staged_deployment "--policy" --quick --policy "$WORK/p.ckpt"
refused 06_staged_deployment "--ranges" --quick --ranges "$WORK/ranges.txt"
refused 12_sysid_from_logs "--write-excitation" --quick --write-excitation "$WORK/exc.csv" --log "$WORK/log.csv"
refused 12_sysid_from_logs "--write-excitation" --quick --write-excitation "$WORK/exc.csv" --address "$WORK/robot.sock"
refused 12_sysid_from_logs "--robot panda and --mjcf" --quick --robot panda --mjcf examples/arm4.xml
refused 02_domain_randomization "--robot ur5e and --mjcf" --quick --robot ur5e --mjcf examples/arm4.xml
echo "ok   options: stage limits (demonstration threads, joints, seeds, the robot's address) and conflicting options (--robot with --mjcf, --write-excitation with --log or --address) refused before any work"

echo "$failed option check(s) failed"
[ $failed -eq 0 ]
