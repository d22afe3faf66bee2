#!/bin/sh
# tests/test_jobs.sh BUILD REFERENCE - example 07's table as jobs.
#
# REFERENCE is a folder where BUILD/07_the_table ran whole (one process) with
# --quick (make test makes it).  Checks, on the quick reach table (one seed:
# jobs unit:1, chain:1, real-only:1 and merge):
#   - a merge with no records names every missing job and writes no table;
#   - the jobs run with GNU parallel (examples/jobs/parallel_table.sh, two at
#     a time) give the same table, demo curve, per-seed rows and rows over
#     seeds byte for byte;
#   - a chain job killed mid-training (SIGKILL), then the same command run
#     again, gives the same files again; a merge with a record missing names
#     it and leaves the table as it was;
#   - a merge with other settings (--seed 2) refuses the records;
#   - with two seeds, the rows over seeds (07_over_seeds.csv, and the table
#     under 07_table.md) agree with the per-seed rows;
#   - the same on Slurm (examples/jobs/slurm_table.sh): a one-node Slurm is
#     started here (as root: munged, slurmctld, slurmd, a config written
#     into BUILD/slurm), the table submitted as two job arrays and a merge,
#     waited for, and compared; where Slurm cannot start (not root, not
#     installed) this part says so and is skipped.
# Prints "test_jobs: N passed, N failed"; exits 1 if any failed.
build=${1:-build}; ref=${2:-$build/quick}
program=$build/07_the_table
options="--quick"
passed=0; failed=0
ok()   { passed=$((passed + 1)); echo "ok   jobs: $1"; }
bad()  { failed=$((failed + 1)); echo "FAIL jobs: $1"; }
check() { if eval "$2"; then ok "$1"; else bad "$1"; fi; }
same_table() {   # same_table DIR: DIR's table files equal the reference's
    for f in 07_table.csv 07_demo_curve.csv 07_seeds.csv 07_over_seeds.csv; do cmp -s "$ref/$f" "$1/$f" || return 1; done
}
[ -f "$ref/07_table.csv" ] || { echo "test_jobs: no reference table in $ref (run $program $options --out $ref)"; exit 1; }

# A merge with nothing to merge.
d=$build/jobs_empty; rm -rf "$d"
$program $options --out "$d" --job merge > "$d.log" 2>&1; status=$?
check "a merge with no records fails, names the missing jobs, writes no table" \
    "[ $status = 1 ] && grep -q 'unit:1 chain:1 real-only:1 -' '$d.log' && [ ! -f '$d/07_table.csv' ]"
$program $options --out "$d" --job chain:2 > "$d.log" 2>&1; status=$?
check "a job beyond --seeds is refused at the start" "[ $status = 2 ] && grep -q 'job' '$d.log'"
$program $options --out "$d" --threads 9 > "$d.log" 2>&1; status=$?
check "--threads past what recording demonstrations takes is refused at the start" \
    "[ $status = 2 ] && grep -q -- '--threads' '$d.log' && [ ! -f '$d/07_dr_ranges.txt' ]"
$program $options --out "$d" --job chain:1 > "$d.log" 2>&1; status=$?
check "a chain job before its unit job says which job to run first" "[ $status = 1 ] && grep -q 'unit:1 first' '$d.log'"

# GNU parallel, two jobs at a time.
d=$build/jobs_parallel; rm -rf "$d"
if command -v parallel > /dev/null 2>&1; then
    sh examples/jobs/parallel_table.sh 2 2 $program $options --out "$d" > "$build/jobs_parallel.log" 2>&1; status=$?
    check "GNU parallel: the table, demo curve, per-seed rows and rows over seeds equal one process's" "[ $status = 0 ] && same_table '$d'"
    check "GNU parallel: its job logs are kept" "[ -s '$d/07_parallel_units.log' ] && [ -s '$d/07_parallel_rows.log' ]"

    # A chain killed mid-training, then the same command again.
    rm -f "$d/07_job_chain_1.csv" "$d"/07_*seed1*
    cp "$d/07_table.csv" "$build/jobs_table_before.csv"
    $program $options --out "$d" --job merge > "$build/jobs_merge.log" 2>&1; status=$?
    check "a merge with a record missing names it and leaves the table as it was" \
        "[ $status = 1 ] && grep -q 'chain:1' '$build/jobs_merge.log' && cmp -s '$d/07_table.csv' '$build/jobs_table_before.csv'"
    $program $options --out "$d" --threads 1 --checkpoint-every 1 --job chain:1 > "$build/jobs_killed.log" 2>&1 &
    pid=$!
    for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do   # until its first training state is saved
        ls "$d"/07_pure_sim_seed1.state > /dev/null 2>&1 && break; sleep 1
    done
    kill -KILL $pid 2> /dev/null; wait $pid 2> /dev/null
    check "the chain job was killed before it ended" "[ ! -f '$d/07_job_chain_1.csv' ]"
    sh examples/jobs/parallel_table.sh 2 2 $program $options --out "$d" > "$build/jobs_parallel2.log" 2>&1; status=$?
    check "run again after the kill: the same table byte for byte" "[ $status = 0 ] && same_table '$d'"
    check "run again: the finished jobs were skipped" "grep -q 'unit:1: done already' '$build/jobs_parallel2.log'"
else
    echo "test_jobs: GNU parallel part skipped: parallel is not installed (Debian: parallel)"
fi

# Other settings.
$program $options --seed 2 --out "$ref" --job merge > "$build/jobs_settings.log" 2>&1; status=$?
check "a merge with other settings refuses the records" "[ $status = 1 ] && grep -q 'other settings' '$build/jobs_settings.log'"

# Two seeds: the rows over seeds are the per-seed rows' means, and each
# step's difference is the mean of its per-seed differences (awk recomputes
# both from 07_seeds.csv; the Student-t bounds are checked in test_main).
d=$build/jobs_two_seeds; rm -rf "$d"
$program $options --seeds 2 --out "$d" --threads 1 > "$d.log" 2>&1; status=$?
over_seeds_agree() {
    awk -F, 'FNR == 1 { next }
        FILENAME ~ /07_seeds.csv$/ { rate[$5, $3] = $9; seeds[$3] = 1; next }
        { n = 0; sum = 0; diff = 0; ahead = 0; behind = 0
          for (s in seeds) {
              if (!(($1, s) in rate)) continue
              n++; sum += rate[$1, s]
              if ($6 != "none") { d = rate[$1, s] - rate[$6, s]; diff += d; ahead += d > 0; behind += d < 0 }
          }
          if (n != $2 || (sum / n - $3) ^ 2 > 1e-8) bad = bad " " $1 " (mean)"
          if ($6 != "none" && ((diff / n - $8) ^ 2 > 1e-8 || ahead != $11 || behind != $12)) bad = bad " " $1 " (paired)"
          rows++ }
        END { if (bad != "" || rows < 2) { print "over seeds disagree with the seeds:" bad " rows " rows; exit 1 } }' \
        "$1/07_seeds.csv" "$1/07_over_seeds.csv" && grep -q '^Over seeds' "$1/07_table.md"
}
check "two seeds: the rows over seeds are the per-seed rows' means and paired differences" \
    "[ $status = 0 ] && over_seeds_agree '$d'"

# Slurm: a one-node cluster on this machine.
slurm_skip() { echo "test_jobs: Slurm part skipped: $1"; }
if [ "$(id -u)" != 0 ]; then slurm_skip "starting Slurm's daemons needs root"
elif ! command -v slurmctld > /dev/null 2>&1 || ! command -v munged > /dev/null 2>&1; then
    slurm_skip "Slurm or munge is not installed (Debian: slurm-wlm munge)"
else
    s=$(cd "$build" && pwd)/slurm; host=$(hostname -s)
    rm -rf "$s"; mkdir -p "$s/state" "$s/spool" /run/munge
    cat > "$s/slurm.conf" <<CONF
ClusterName=s2rtest
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$s/state
SlurmdSpoolDir=$s/spool
SlurmctldPidFile=$s/slurmctld.pid
SlurmdPidFile=$s/slurmd.pid
SlurmctldLogFile=$s/slurmctld.log
SlurmdLogFile=$s/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=s2rtest Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
    export SLURM_CONF="$s/slurm.conf"
    started=""
    pgrep -x munged > /dev/null || { munged --force > "$s/munged.log" 2>&1 && started="$started munged"; }
    slurmctld -f "$SLURM_CONF" > "$s/start.log" 2>&1 && slurmd -f "$SLURM_CONF" >> "$s/start.log" 2>&1
    for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do
        sinfo -h -o %t 2> /dev/null | grep -qE '^(idle|mix|alloc)' && break; sleep 1
    done
    if ! sinfo -h -o %t 2> /dev/null | grep -qE '^(idle|mix|alloc)'; then
        slurm_skip "Slurm did not start here ($(tail -n 2 "$s/slurmctld.log" "$s/start.log" 2> /dev/null | tr '\n' ' '))"
    else
        d=$(cd "$build" && pwd)/jobs_slurm; rm -rf "$d"; mkdir -p "$d"
        merge=$(sh examples/jobs/slurm_table.sh $program $options --out "$d" 2> "$s/submit.log")
        state=""
        for i in $(seq 1 600); do
            state=$(scontrol show job "$merge" 2> /dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')
            case $state in COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY) break;; esac
            squeue -h -t PD -o %r 2> /dev/null | grep -q DependencyNeverSatisfied && { state=NEVER; break; }
            sleep 1
        done
        check "Slurm: two job arrays and a merge ran (merge job $merge: $state)" "[ '$state' = COMPLETED ]"
        check "Slurm: the table, demo curve, per-seed rows and rows over seeds equal one process's" "same_table '$d'"
        [ "$state" = COMPLETED ] || { cat "$s/submit.log"; tail -n 5 "$d"/slurm-*.out 2> /dev/null; }
        scancel --name=s2r-table-units --name=s2r-table-rows --name=s2r-table-merge 2> /dev/null
    fi
    for f in slurmd slurmctld; do [ -f "$s/$f.pid" ] && kill "$(cat "$s/$f.pid")" 2> /dev/null; done
    case $started in *munged*) pkill -x munged 2> /dev/null;; esac
fi

echo "test_jobs: $passed passed, $failed failed"
[ $failed = 0 ]
