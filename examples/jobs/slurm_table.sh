#!/bin/sh
# examples/jobs/slurm_table.sh - example 07's table as jobs on a Slurm cluster:
# two job arrays and a merge, each waiting for the one before (afterok).
#
#   sh examples/jobs/slurm_table.sh PROGRAM [07's options: --task, --robot,
#      --seeds, --quick, --out DIR on a filesystem every node shares, ...]
#
# Submits (sbatch) examples/jobs/slurm_job.sh three times:
#   units  an array of --seeds tasks: task S runs --job unit:S
#   rows   an array of 2 x --seeds tasks, after every unit task succeeded:
#          task 2S-1 runs --job chain:S, task 2S --job real-only:S
#   merge  one task after every rows task succeeded: --job merge
# and prints the merge's job id.  Extra sbatch options (a partition, an
# account, a time limit, --cpus-per-task=K for K threads per job) go in
# SBATCH_OPTIONS; the output of each task goes to DIR/slurm-<job>_<task>.out.
# If a task fails, the jobs after it never start (Slurm marks them
# DependencyNeverSatisfied: scancel them); fix the cause and submit again:
# every task runs with --resume, so finished jobs are skipped and a killed
# training continues from its saved state.
set -e
if [ $# -lt 1 ]; then
    echo "usage: $0 PROGRAM [options of example 07]" >&2
    exit 2
fi
program=$1; shift
here=$(cd "$(dirname "$0")" && pwd)
command -v sbatch >/dev/null 2>&1 || { echo "$0: sbatch not found (Slurm's client; Debian: slurm-client)" >&2; exit 1; }
case $program in /*) ;; *) program=$(pwd)/$program;; esac   # tasks may start elsewhere

out=out; prev=
for a in "$@"; do [ "$prev" = --out ] && out=$a; prev=$a; done
case $out in /*) ;; *) echo "$0: give --out as an absolute path on a shared filesystem, not '$out'" >&2; exit 2;; esac

seeds=$("$program" "$@" --job list | grep -c '^unit:')   # refuses bad options before anything is submitted
[ "$seeds" -ge 1 ] || { echo "$0: '$program --job list' listed no jobs" >&2; exit 1; }
units=$(sbatch --parsable $SBATCH_OPTIONS --array=1-"$seeds" --job-name=s2r-table-units \
        --output="$out/slurm-%x-%A_%a.out" "$here/slurm_job.sh" units "$program" "$@")
rows=$(sbatch --parsable $SBATCH_OPTIONS --array=1-$((2 * seeds)) --dependency=afterok:"${units%%;*}" \
       --job-name=s2r-table-rows --output="$out/slurm-%x-%A_%a.out" "$here/slurm_job.sh" rows "$program" "$@")
merge=$(sbatch --parsable $SBATCH_OPTIONS --dependency=afterok:"${rows%%;*}" --job-name=s2r-table-merge \
        --output="$out/slurm-%x-%j.out" "$here/slurm_job.sh" merge "$program" "$@")
echo "${merge%%;*}"
