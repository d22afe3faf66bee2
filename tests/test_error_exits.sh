#!/bin/sh
# tests/test_error_exits.sh - every example's error exit under
# AddressSanitizer, UndefinedBehaviorSanitizer and LeakSanitizer: each is
# given an input that stops it part-way (a missing upstream policy, a
# corrupt checkpoint or training state, a malformed ranges file or log, an
# output folder that cannot be one) and must exit with an error status
# (1), say what went wrong, and leave no sanitizer report: no leak on the
# way out, no bad access.  make sanitize builds the examples it runs
# (build/<example>_asan) and sets the sanitizers' options.
# Usage: tests/test_error_exits.sh [build dir]    (from the repository root)
set -u
BUILD=${1:-build}
WORK=$BUILD/error_exits
failed=0

# run NAME "what it should say" ARGS... : the example's ASan build in its
# own folder WORK/NAME (prepared by the caller), checked.
run() {
    name=$1 says=$2
    shift 2
    log=$WORK/$name.log
    "./$BUILD/${name}_asan" "$@" > "$log" 2>&1
    status=$?
    if [ $status -ne 1 ]; then
        echo "FAIL error exit: $name gave status $status (want 1)"; tail -n 30 "$log"; failed=$((failed + 1))
    elif grep -q "Sanitizer\|runtime error" "$log"; then
        echo "FAIL error exit: $name: sanitizer report"; tail -n 40 "$log"; failed=$((failed + 1))
    elif ! grep -q "$says" "$log"; then
        echo "FAIL error exit: $name did not say \"$says\""; tail -n 10 "$log"; failed=$((failed + 1))
    else
        echo "ok   error exit: $name ($says), clean under the sanitizers"
    fi
}

# A folder per example, with what makes it stop.
folder() { rm -rf "$WORK/$1" && mkdir -p "$WORK/$1" && echo "$WORK/$1"; }
garbage() { printf 'not a sim2real file\n' > "$1"; }

rm -rf "$WORK" && mkdir -p "$WORK" || exit 1
printf 'kp uniform 0.9\n' > "$WORK/bad_ranges.txt"
printf 't,q0\n0,0\n' > "$WORK/bad_log.csv"
: > "$WORK/a_file"

run 00_hello_robot "not a directory\|not writable\|cannot" --out "$WORK/a_file/out"
d=$(folder 01_the_gap); garbage "$d/01_pure_sim.state"
run 01_the_gap "corrupt\|too short\|not a" --quick --resume --out "$d"
d=$(folder 02_domain_randomization)
run 02_domain_randomization "uniform needs 2 numbers" --quick --ranges "$WORK/bad_ranges.txt" --out "$d"
d=$(folder 03_system_id)
run 03_system_id "uniform needs 2 numbers" --quick --ranges "$WORK/bad_ranges.txt" --out "$d"
d=$(folder 04_finetune)
run 04_finetune "02_dr.ckpt" --quick --out "$d"
run 05_real_only "not a directory\|not writable\|cannot" --quick --out "$WORK/a_file/out"
d=$(folder 06_staged_deployment); garbage "$d/03_dr_sysid_unit1.ckpt"
run 06_staged_deployment "03_dr_sysid_unit1.ckpt" --quick --out "$d"
d=$(folder 07_the_table); garbage "$d/07_pure_sim_seed1.state"
run 07_the_table "07_pure_sim_seed1.state" --smoke --resume --out "$d"
d=$(folder 08_scene_renders); garbage "$d/02_dr.ckpt"
run 08_scene_renders "02_dr.ckpt\|S2R_RENDER\|OSMesa" --out "$d"
d=$(folder 09_gap_attribution)
run 09_gap_attribution "run 07 first" --quick --out "$d"
run 10_sysid_vs_truth "not a directory\|not writable\|cannot" --quick --out "$WORK/a_file/out"
run 11_gates "not a directory\|not writable\|cannot" --quick --out "$WORK/a_file/out"
d=$(folder 12_sysid_from_logs)
run 12_sysid_from_logs "bad_log.csv" --quick --log "$WORK/bad_log.csv" --out "$d"
d=$(folder 13_recipe_depth)
run 13_recipe_depth "uniform needs 2 numbers" --quick --ranges "$WORK/bad_ranges.txt" --out "$d"
d=$(folder 14_predicting_transfer); cp "$WORK/bad_ranges.txt" "$d/07_push_dr_ranges.txt"
run 14_predicting_transfer "uniform needs 2 numbers" --task push --quick --out "$d"

run robot_server "cannot serve at" "$WORK/a_file/robot.sock" --clients 1
run robot_client "cannot connect" "$WORK/no_robot.sock" --timeout-ms 50
printf '# rate 50 Hz\nt,command_1,command_2,command_3,command_4\n0,0,0,0,0\n0.02,0,0,0,0\n' > "$WORK/exc4.csv"
run robot_player "exc4.csv has 4 joints, ur5e 6" "$WORK/exc4.csv" "$WORK/played.csv" --unit 1
echo "$failed error exit(s) failed"
[ $failed -eq 0 ]
