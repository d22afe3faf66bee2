#!/bin/sh
# examples/jobs/slurm_job.sh - one task of example 07's table on Slurm (what
# examples/jobs/slurm_table.sh submits; see there).
#
#   slurm_job.sh units|rows|merge PROGRAM [options of example 07]
#
# units: array task S runs --job unit:S; rows: task 2S-1 runs --job chain:S
# and task 2S --job real-only:S; merge: --job merge.  Threads: the CPUs
# Slurm gave the task (--cpus-per-task), 1 by default.
phase=$1; program=$2; shift 2
i=${SLURM_ARRAY_TASK_ID:-0}
case $phase in
    units) job=unit:$i ;;
    rows)  if [ $((i % 2)) = 1 ]; then job=chain:$(( (i + 1) / 2 )); else job=real-only:$((i / 2)); fi ;;
    merge) exec "$program" "$@" --job merge ;;
    *)     echo "$0: phase is units, rows or merge, not '$phase'" >&2; exit 2 ;;
esac
exec "$program" "$@" --threads "${SLURM_CPUS_PER_TASK:-1}" --resume --job "$job"
