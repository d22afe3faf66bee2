#!/bin/sh
# bench/rltools_pendulum.sh RLTOOLS_DIR [PAIRS] - the library's pendulum
# beside RLtools' CPU Pendulum PPO example, time to a deterministic return
# of -200, in CPU seconds (user + system of the training alone: fair on a
# machine others are using, as every run here is one thread).
#
# RLTOOLS_DIR is a checkout of https://github.com/rl-tools/rl-tools (nothing
# of it is copied here).  Its example (src/rl/environments/pendulum/ppo/cpu,
# its config.h unchanged, BENCHMARK mode, no BLAS) is built twice, -O3
# -march=native and -O2, into build/rltools/ with a driver written below:
# RLtools' own loop, and after each of its loop steps (4 environments x 1024
# steps) the actor's deterministic action evaluated on 10 episodes from a
# generator seeded 1234 (the same 10 starts each time), outside the timed
# part - what bench_main does for the library (`bench_main pendulum`: the
# library's defaults and RLtools' settings).  PAIRS rounds (default 3), each
# the library then RLtools -O3 then RLtools -O2; prints every run's line,
# then per round RLtools' time / the library's, and the medians.
set -e
RLT=${1:?usage: sh bench/rltools_pendulum.sh RLTOOLS_DIR [PAIRS]}
PAIRS=${2:-3}
OUT=build/rltools
CXX=${CXX:-c++}
EXAMPLE=$RLT/src/rl/environments/pendulum/ppo/cpu
[ -f "$EXAMPLE/config.h" ] || { echo "rltools_pendulum: $EXAMPLE/config.h not found (is $RLT a checkout of rl-tools?)"; exit 1; }
mkdir -p $OUT
cat > $OUT/time_to_200.cpp <<'EOF'
#include <rl_tools/operations/cpu_mux.h>
#include <rl_tools/rl/environments/pendulum/operations_generic.h>
#include <rl_tools/rl/environment_wrappers/scale_observations/operations_generic.h>
#include <rl_tools/nn/optimizers/adam/instance/operations_generic.h>
#include <rl_tools/nn/layers/standardize/operations_generic.h>
#include <rl_tools/nn_models/mlp_unconditional_stddev/operations_generic.h>
#include <rl_tools/nn_models/sequential/operations_generic.h>
#include <rl_tools/nn/optimizers/adam/operations_generic.h>
#include <rl_tools/rl/algorithms/ppo/loop/core/config.h>
#include <rl_tools/rl/loop/steps/evaluation/config.h>
#include <rl_tools/rl/loop/steps/timing/config.h>
#include <rl_tools/rl/algorithms/ppo/loop/core/operations_generic.h>
#include <rl_tools/rl/loop/steps/evaluation/operations_generic.h>
#include <rl_tools/rl/loop/steps/timing/operations_cpu.h>
#include <utility>
#include <chrono>
#include <ctime>
#include <cstdio>
namespace rlt = rl_tools;
#include "config.h"
using DEVICE = rlt::devices::DEVICE_FACTORY<>;
using TYPE_POLICY = rlt::numeric_types::Policy<float>;
using TI = typename DEVICE::index_t;
using CONFIG = CONFIG_FACTORY<DEVICE, TYPE_POLICY, true>;
using LOOP_CONFIG = CONFIG::LOOP_TIMING_CONFIG;
using LOOP_STATE = typename LOOP_CONFIG::template State<LOOP_CONFIG>;
using EVAL_SPEC = rlt::rl::utils::evaluation::Specification<TYPE_POLICY, TI, typename LOOP_CONFIG::ENVIRONMENT_EVALUATION, 10,
                                                            CONFIG::ENVIRONMENT::EPISODE_STEP_LIMIT>;
using POLICY = rlt::utils::typing::remove_reference_t<decltype(rlt::get_actor(std::declval<LOOP_STATE>()))>;
using EVAL_BUFFER = rlt::rl::utils::evaluation::PolicyBuffer<rlt::rl::utils::evaluation::PolicyBufferSpecification<EVAL_SPEC, POLICY, true>>;
static EVAL_BUFFER eval_buffer;
int main() {
    DEVICE device;
    static LOOP_STATE ts;
    double cpu = 0, wall = 0, reached_cpu = -1, reached_wall = -1, last = 0;
    long reached_steps = -1, per_step = CONFIG::LOOP_CORE_PARAMETERS::N_ENVIRONMENTS * CONFIG::LOOP_CORE_PARAMETERS::ON_POLICY_RUNNER_STEPS_PER_ENV;
    bool finished = false;
    rlt::malloc(device, ts);
    rlt::malloc(device, eval_buffer);
    rlt::init(device, ts, 0);
    while (!finished) {
        clock_t c0 = clock();
        auto w0 = std::chrono::steady_clock::now();
        finished = rlt::step(device, ts);
        cpu += (double)(clock() - c0) / CLOCKS_PER_SEC;
        wall += std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
        typename CONFIG::RNG rng;
        rlt::malloc(device, rng);
        rlt::init(device, rng, 1234);
        rlt::rl::utils::evaluation::Result<EVAL_SPEC> result;
        auto actor = rlt::get_actor(ts);
        evaluate(device, rlt::get_ref(device, ts.envs, 0), ts.ui, actor, eval_buffer, result, rng, rlt::Mode<rlt::mode::Evaluation<>>{});
        rlt::free(device, rng);
        last = result.returns_mean;
        if (reached_cpu < 0 && last >= -200) { reached_cpu = cpu; reached_wall = wall; reached_steps = (long)ts.step * per_step; }
    }
    std::printf("pendulum, RLtools:\n  ");
    if (reached_cpu >= 0) std::printf("return -200 after %ld steps, %.2f s (%.2f s CPU);", reached_steps, reached_wall, reached_cpu);
    else std::printf("return -200 not reached;");
    std::printf(" %ld steps in %.2f s (%.2f s CPU), final return %.1f\n", (long)ts.step * per_step, wall, cpu, last);
    return 0;
}
EOF
build() { # tag flags...
    tag=$1; shift
    [ -x $OUT/rltools_$tag ] && [ $OUT/rltools_$tag -nt $OUT/time_to_200.cpp ] && return 0
    echo "building RLtools' example, $*"
    $CXX -std=c++17 "$@" -DBENCHMARK -DRL_TOOLS_DISABLE_TENSORBOARD -I"$RLT/include" -I"$EXAMPLE" $OUT/time_to_200.cpp \
        -o $OUT/rltools_$tag
}
build O3native -O3 -march=native
build O2 -O2
make --no-print-directory build/bench_main
cpu_to_200() { # file label: the CPU seconds to -200 on the line after "pendulum, LABEL"
    awk -v l="pendulum, $2" 'index($0, l) == 1 { getline; if (match($0, /\(([0-9.]+) s CPU\);/)) print substr($0, RSTART + 1, RLENGTH - 9) }' "$1"
}
i=1
while [ $i -le $PAIRS ]; do
    OMP_NUM_THREADS=1 ./build/bench_main pendulum > $OUT/library_$i.txt
    $OUT/rltools_O3native > $OUT/rltools_O3native_$i.txt
    $OUT/rltools_O2 > $OUT/rltools_O2_$i.txt
    cat $OUT/library_$i.txt $OUT/rltools_O3native_$i.txt $OUT/rltools_O2_$i.txt
    i=$((i + 1))
done
echo "RLtools' CPU seconds to -200 / the library's (per round, then the median):"
for tag in O3native O2; do
    for lib in "library defaults" "RLtools' CPU example's settings"; do
        ratios=""
        i=1
        while [ $i -le $PAIRS ]; do
            r=$(cpu_to_200 $OUT/rltools_${tag}_$i.txt RLtools)
            l=$(cpu_to_200 $OUT/library_$i.txt "$lib")
            ratios="$ratios $(awk -v r="$r" -v l="$l" 'BEGIN { if (r == "" || l == "") print "-"; else printf "%.2f", r / l }')"
            i=$((i + 1))
        done
        med=$(echo $ratios | tr ' ' '\n' | grep -v '^-$' | sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)]; else print "-" }')
        echo "  RLtools $tag / library with $lib:$ratios  (median $med)"
    done
done
