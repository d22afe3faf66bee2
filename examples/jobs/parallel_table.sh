#!/bin/sh
# examples/jobs/parallel_table.sh - example 07's table as jobs on one machine,
# N at a time, with GNU parallel (Debian: parallel).  make table JOBS=N runs it.
#
#   sh examples/jobs/parallel_table.sh N THREADS PROGRAM [07's options: --task,
#      --robot, --seeds, --quick, --out DIR, ...]
#
# Three phases, each waiting for the one before: every unit:S job (identify
# unit S, record its demonstrations), then every chain:S and real-only:S job,
# then the merge.  Each job gets THREADS / N threads (at least 1).  Every job
# runs with --resume, so running the same command again after a crash or a
# kill skips the jobs whose records are there and continues the training a
# killed job was in; GNU parallel's job log of each phase is kept in the
# output folder (07[_push]_parallel_<phase>.log) with each job's run time and
# exit status.  The table is the same byte for byte as a single process
# makes it (PROGRAM without --job).
set -e
if [ $# -lt 3 ]; then
    echo "usage: $0 N THREADS PROGRAM [options of example 07]" >&2
    exit 2
fi
n=$1; threads=$2; program=$3; shift 3
command -v parallel >/dev/null 2>&1 || { echo "$0: GNU parallel is not installed (Debian: apt-get install parallel)" >&2; exit 1; }
case $n in ''|*[!0-9]*|0) echo "$0: N must be a whole number of jobs at a time, not '$n'" >&2; exit 2;; esac
per_job=$(( threads / n )); [ "$per_job" -ge 1 ] || per_job=1

# The output folder and the file prefix, as 07 names them.
out=out; prefix=07; prev=
for a in "$@"; do
    [ "$prev" = --out ] && out=$a
    [ "$prev" = --task ] && [ "$a" = push ] && prefix=07_push
    prev=$a
done

jobs=$("$program" "$@" --job list)   # refuses bad options before any work
mkdir -p "$out"                      # for the job logs: listing leaves no folder behind
echo "$jobs" | grep -q '^unit:' || { echo "$0: '$program --job list' listed no jobs" >&2; exit 1; }
echo "$jobs" | grep -E '^unit:' | parallel -q --will-cite -j "$n" --halt now,fail=1 --line-buffer --tag \
    --joblog "$out/${prefix}_parallel_units.log" "$program" "$@" --threads "$per_job" --resume --job {}
echo "$jobs" | grep -E '^(chain|real-only):' | parallel -q --will-cite -j "$n" --halt now,fail=1 --line-buffer --tag \
    --joblog "$out/${prefix}_parallel_rows.log" "$program" "$@" --threads "$per_job" --resume --job {}
"$program" "$@" --job merge
