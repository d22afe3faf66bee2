#!/bin/sh
# tests/test_jobs.sh BUILD REFERENCE - example 07's table as jobs.
#
# REFERENCE is a folder where BUILD/07_the_table ran whole (one process) with
# --smoke (make test makes it).  Checks, on the smoke reach table (one seed:
# jobs unit:1, chain:1, real-only:1 and merge; its trainings learn nothing,
# its cloned rows do, so the tables compared are not all zero - checked):
#   - a merge with no records names every missing job and writes no table;
#   - the jobs run with GNU parallel (examples/jobs/parallel_table.sh, two at
#     a time) give the same table, demo curve, per-seed rows, rows over
#     seeds, checkpoints (07_*.ckpt) and demonstration files
#     (07_demos*_unit*.bin) byte for byte (each check names how many files it
#     compared);
#   - a chain job killed mid-training (SIGKILL), then the same command run
#     again, gives the same files again; a merge with a record missing names
#     it and leaves the table as it was;
#   - a merge with other settings (--seed 2) refuses the records;
#   - records edited by hand are refused, naming the file and the line, and
#     no table is written: a count changed, a line duplicated, an end line
#     put in the middle, the stamps deleted, the last byte cut, a record
#     copied from another job; and, resealed with a correct checksum (a
#     forgery the checksum cannot see), a NaN, 2,000,000,000 episodes in
#     each of two seeds, an on-target count its demonstrations do not
#     hold; a FIFO or a directory named like a record is refused at once;
#   - SIGTERM stops 07 within a second, status 130, no record and nothing
#     half-written, inside the unit's identification and demonstrations
#     and the chain's evaluations and canaries; --resume then finishes,
#     the table and every checkpoint as one process's;
#   - with two seeds, the rows over seeds (07_over_seeds.csv, and the table
#     under 07_table.md) agree with the per-seed rows;
#   - the same on Slurm (examples/jobs/slurm_table.sh): a one-node Slurm is
#     started here (as root: munged, slurmctld, slurmd, a config written
#     into BUILD/slurm), the table submitted as two job arrays and a merge,
#     waited for, and compared, checkpoints and demonstrations included;
#     where Slurm cannot start (not root, not installed) this part says so
#     and is skipped.
# Prints "test_jobs: N passed, N failed"; exits 1 if any failed.
build=${1:-build}; ref=${2:-$build/quick}
program=$build/07_the_table
options="--smoke"
passed=0; failed=0
ok()   { passed=$((passed + 1)); echo "ok   jobs: $1"; }
bad()  { failed=$((failed + 1)); echo "FAIL jobs: $1"; }
check() { if eval "$2"; then ok "$1"; else bad "$1"; fi; }
# same_files DIR: DIR's table files, checkpoints and demonstration files
# equal the reference's, byte for byte; `compared` says what was compared
# (and the first file that differs).
same_files() {
    tables=0; ckpts=0; demos=0; compared=""
    for f in 07_table.csv 07_demo_curve.csv 07_seeds.csv 07_over_seeds.csv "$ref"/07_*.ckpt "$ref"/07_demos*unit*.bin; do
        f=$(basename "$f")
        if ! cmp -s "$ref/$f" "$1/$f"; then compared="$f differs"; return 1; fi
        case $f in *.ckpt) ckpts=$((ckpts + 1));; *.bin) demos=$((demos + 1));; *) tables=$((tables + 1));; esac
    done
    compared="$tables table files, $ckpts checkpoints, $demos demonstration files"
    [ $ckpts -gt 0 ] && [ $demos -gt 0 ]
}
identical() {   # identical WHAT DIR STATUS: a check that DIR equals the reference, naming what it compared
    if [ "$3" = 0 ] && same_files "$2"; then ok "$1: equal to one process's ($compared)"
    else bad "$1: equal to one process's (status $3; $compared)"; fi
}
[ -f "$ref/07_table.csv" ] || { echo "test_jobs: no reference table in $ref (run $program $options --out $ref)"; exit 1; }
# The tables compared below say something: some row's real success (column 7) is not zero.
check "the reference table has a row whose real success is not zero ($(awk -F, 'NR > 1 && $7 > 0' "$ref/07_table.csv" | cut -d, -f1 | tr '\n' ' '))" \
    "awk -F, 'NR > 1 && \$7 > 0 { found = 1 } END { exit !found }' '$ref/07_table.csv'"

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
    identical "GNU parallel: the table, demo curve, per-seed rows, rows over seeds, checkpoints and demonstrations" "$d" $status
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
    identical "run again after the kill: the same files byte for byte" "$d" $status
    check "run again: the finished jobs were skipped" "grep -q 'unit:1: done already' '$build/jobs_parallel2.log'"
else
    echo "test_jobs: GNU parallel part skipped: parallel is not installed (Debian: parallel)"
fi

# Other settings.
$program $options --seed 2 --out "$ref" --job merge > "$build/jobs_settings.log" 2>&1; status=$?
check "a merge with other settings refuses the records" "[ $status = 1 ] && grep -q 'other settings' '$build/jobs_settings.log'"

# Records edited by hand.  Each case: a copy of the reference folder without
# its table, one record changed, then a merge: refused (status 1), the
# message naming the record and the line (or the refusal reason), no table.
# BUILD/record_seal puts a correct end line (count and checksum) under a
# changed record: a forgery the checksum cannot see, for the checks behind it.
cat > "$build/record_seal.c" << 'SEAL'
/* record_seal FILE: replace FILE's end line with one sealing the lines above
   (their count and FNV-1a 64, as sim2real_jobs.h's s2r_record writes it). */
#include <stdio.h>
#include <string.h>
static char text[1 << 20];
int main(int argc, char** argv) {
    FILE* f = argc == 2 ? fopen(argv[1], "rb") : NULL;
    size_t n, i, cut;
    unsigned long long h = 0xCBF29CE484222325ull;
    long lines = 0;
    if (!f) return 2;
    n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    for (cut = n ? n - 1 : 0; cut > 0 && text[cut - 1] != '\n'; cut--) {}
    if (strncmp(text + cut, "end,", 4) != 0) cut = n;   /* no end line: seal all of it */
    for (i = 0; i < cut; i++) { lines += text[i] == '\n'; h = (h ^ (unsigned char)text[i]) * 0x100000001B3ull; }
    if (!(f = fopen(argv[1], "wb"))) return 2;
    fwrite(text, 1, cut, f);
    fprintf(f, "end,%ld,%016llx\n", lines, h);
    return fclose(f) != 0;
}
SEAL
seal=$(cd "$build" && pwd)/record_seal
cc -o "$seal" "$build/record_seal.c" 2> "$build/record_seal.log" || { bad "the record sealer builds ($(cat "$build/record_seal.log"))"; seal=false; }
t=$build/jobs_edited
edited() {   # edited NAME FROM EXPECT COMMAND...: FROM copied, COMMAND run in it, then a merge must fail saying EXPECT
    name=$1 from=$2 expect=$3; shift 3
    rm -rf "$t" && cp -r "$from" "$t" && rm -f "$t"/07_table.*
    (cd "$t" && eval "$@") || { bad "edited record: $name (the edit failed)"; return; }
    started=$(date +%s)
    timeout 60 $program $options $extra --out "$t" --job merge > "$t.log" 2>&1; status=$?
    took=$(( $(date +%s) - started ))
    if [ $status = 1 ] && grep -q -- "$expect" "$t.log" && [ ! -f "$t/07_table.csv" ] && [ $took -le 10 ]; then
        ok "edited record refused: $name ($(grep -m 1 -- "$expect" "$t.log" | cut -c 1-160))"
    else
        bad "edited record refused: $name (status $status after $took s; $(head -c 300 "$t.log"))"
    fi
}
chain=07_job_chain_1.csv; unit=07_job_unit_1.csv; extra=""
edited "an evaluation count changed" "$ref" "$chain, line [0-9]*: the checksum" \
    "sed -i '0,/^eval,real,/s/^\(eval,real,[0-9]*,[0-9]*\),\([0-9]*\),/\1,1\2,/' $chain"
edited "an evaluation line duplicated (the later one would win)" "$ref" "$chain, line [0-9]*: the end line counts" \
    "awk '/^eval,real,/ && !done { print; done = 1 } { print }' $chain > x && mv x $chain"
edited "an end line in the middle (the rest would be dropped)" "$ref" "$chain, line 6: an end line before the last" \
    "awk 'NR == 6 { print \"end\" } { print }' $chain > x && mv x $chain"
edited "the on-target count changed" "$ref" "$unit, line [0-9]*: the checksum" \
    "sed -i 's/^\(unit,[^,]*,[^,]*,[^,]*,[0-9]*\),\([0-9]*\),/\1,1\2,/' $unit"
edited "both stamps deleted" "$ref" "$chain, line 2: not the settings stamp" \
    "sed -i '/^settings,/d; /^build,/d' $chain"
edited "both stamps deleted, resealed" "$ref" "$chain, line 2: not the settings stamp" \
    "sed -i '/^settings,/d; /^build,/d' $chain && $seal $chain"
edited "its last byte cut" "$ref" "$chain, line [0-9]*: its last line has no newline" \
    "head -c -1 $chain > x && mv x $chain"
edited "a NaN in an evaluation, resealed" "$ref" "$chain, line [0-9]*: not an eval line" \
    "sed -i '0,/^eval,real,/s/^\(eval,real,[0-9]*,[0-9]*,[0-9]*,[0-9]*\),[^,]*,/\1,nan,/' $chain && $seal $chain"
edited "a line this program does not write, resealed" "$ref" "$chain, line [0-9]*: not a line this program writes" \
    "sed -i '\$i bonus,1' $chain && $seal $chain"
edited "the unit line removed, resealed" "$ref" "$unit, line [0-9]*: no unit line" \
    "sed -i '/^unit,/d' $unit && $seal $unit"
edited "a FIFO named like a record" "$ref" "$chain' is not a regular file" "rm $chain && mkfifo $chain"
edited "a directory named like a record" "$ref" "$chain' is a directory" "rm $chain && mkdir $chain"
# A forged on-target count passes the merge (which does not use it) and is
# refused by the first job that loads the unit: its demonstrations say otherwise.
rm -rf "$t" && cp -r "$ref" "$t" && awk -F, -v OFS=, '/^unit,/ { $6 = $6 > 0 ? $6 - 1 : 1 } 1' "$t/$unit" > "$t/x" &&
    mv "$t/x" "$t/$unit" && $seal "$t/$unit"
$program $options --out "$t" --job real-only:1 > "$t.log" 2>&1; status=$?
check "edited record refused: an on-target count its demonstrations do not hold, resealed (a job loading the unit)" \
    "[ $status = 1 ] && grep -q 'does not hold the demonstrations its record counts' '$t.log' && ! grep -q '^== real only' '$t.log'"

# The fine-tunes start where their rows say: the DR rows from the DR
# checkpoint (demonstrations and RL), the others from the sysID checkpoint.
rm -rf "$t" && cp -r "$ref" "$t" && rm -f "$t/$chain"
$program $options --out "$t" --job chain:1 --resume > "$t.log" 2>&1; status=$?
check "the DR rows fine-tune the DR checkpoint, the sysID rows the sysID checkpoint (demonstrations and RL)" \
    "[ $status = 0 ] && grep -q 'the DR policy ($t/07_dr_seed1.ckpt) fine-tuned on' '$t.log' &&
     grep -q 'the DR policy ($t/07_dr_seed1.ckpt) RL on' '$t.log' &&
     grep -q 'the sysID policy ($t/07_dr_sysid_seed1.ckpt) fine-tuned on' '$t.log' &&
     grep -q 'the sysID policy ($t/07_dr_sysid_seed1.ckpt) RL on' '$t.log' &&
     ! grep 'fine-tuned on\|RL on' '$t.log' | grep -v 'the DR policy ($t/07_dr_seed1.ckpt)\|the sysID policy ($t/07_dr_sysid_seed1.ckpt)' | grep -q ."

# SIGTERM mid-run: the job stops within a second with status 130, leaves no
# record and no half-written file, and the same command with --resume then
# finishes; the table and every checkpoint as one process's.  The signal is
# sent once the log shows the stage under test (a training stops only after
# its update under way; these stages are inside the long loops).
stopped() {   # stopped NAME PATTERN DIR RECORD ARGS...: SIGTERM once DIR.log shows PATTERN; then no DIR/RECORD, no .tmp
    name=$1 pattern=$2 dir=$3 record=$4; shift 4
    : > "$dir.log"
    stdbuf -oL $program $options --out "$dir" "$@" > "$dir.log" 2>&1 &
    pid=$!
    i=0
    while ! grep -q -- "$pattern" "$dir.log" 2> /dev/null && [ $i -lt 1200 ] && kill -0 $pid 2> /dev/null; do
        sleep 0.05; i=$((i + 1))
    done
    sent=$(date +%s.%N)
    kill -TERM $pid 2> /dev/null
    wait $pid; status=$?
    late=$(awk -v a="$sent" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
    check "SIGTERM $name: status 130 within a second (took $late s), no record, nothing half-written" \
        "[ $status = 130 ] && awk 'BEGIN { exit !($late < 1) }' && [ ! -e '$dir/$record' ] && ! ls '$dir'/*.tmp > /dev/null 2>&1"
}
d=$build/jobs_stopped; rm -rf "$d"
stopped "during the unit's identification" "Identifying unit" "$d" 07_job_unit_1.csv --job unit:1
stopped "during the unit's demonstrations" "Recording" "$d" 07_job_unit_1.csv --job unit:1
rm -rf "$d" && cp -r "$ref" "$d" && rm -f "$d/$chain" "$d"/07_table.* "$d"/07_*seed1*
stopped "during the chain's evaluations" " Pure sim training (no DR) " "$d" "$chain" --job chain:1
stopped "during the chain's fine-tunes and canaries (resumed)" " Sim + DR + system ID " "$d" "$chain" --job chain:1 --resume
$program $options --out "$d" --resume --job chain:1 > "$d.log" 2>&1 && $program $options --out "$d" --job merge >> "$d.log" 2>&1
identical "stopped twice, then --resume: the same files" "$d" $?

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

two=$d; extra="--seeds 2"
edited "2,000,000,000 episodes in each of two seeds, resealed (the pooled count would overflow)" "$two" \
    "$chain, line [0-9]*: an evaluation of 2000000000 episodes" \
    "for f in 07_job_chain_1.csv 07_job_chain_2.csv; do sed -i 's/^\(eval,real,0\),[0-9]*,/\1,2000000000,/' \$f && $seal \$f; done"
edited "a record copied from another job (chain:2's as chain:1's)" "$two" "$chain, line [0-9]*: the record of job chain:2" \
    "cp 07_job_chain_2.csv $chain"
extra=""

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
        [ "$state" = COMPLETED ] && status=0 || status=1
        identical "Slurm: the table, demo curve, per-seed rows, rows over seeds, checkpoints and demonstrations" "$d" $status
        [ "$state" = COMPLETED ] || { cat "$s/submit.log"; tail -n 5 "$d"/slurm-*.out 2> /dev/null; }
        scancel --name=s2r-table-units --name=s2r-table-rows --name=s2r-table-merge 2> /dev/null
    fi
    for f in slurmd slurmctld; do [ -f "$s/$f.pid" ] && kill "$(cat "$s/$f.pid")" 2> /dev/null; done
    case $started in *munged*) pkill -x munged 2> /dev/null;; esac
fi

echo "test_jobs: $passed passed, $failed failed"
[ $failed = 0 ]
