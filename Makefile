# sim2real.h - build everything, run the tests, reproduce the table.
#
#   make          install missing Debian packages, build examples, tests, benches
#   make test     build and run the test suite (one runner, "N passed, N failed"),
#                 the crash-safety and rendering tests, the quick pipeline, the
#                 Python package's tests, the notebooks, the suite again under
#                 sanitizers, and the fuzzers
#   make table    reproduce the recipe table (examples/07) into out/: push on
#                 the UR5e; ROBOT=panda for the Panda, TASK=reach for reach
#   make figures  regenerate the committed figures in figures/
#   make answers  the benchmark with known answers (gap attribution, system
#                 ID against the truth, predicting transfer) on both tasks
#   make bench    run the benchmarks (ratios, not timings)
#   make course   the course kits students receive (build/course/kit/N_NAME/);
#                 make student-copy, make grade A=1_latency S=submissions/
#   make python   the shared library the Python package loads (python/README.md)

CC       ?= cc
CXX      ?= c++
CFLAGS   ?= -std=c99 -O2 -Wall -Wextra -pedantic -fopenmp
CPPFLAGS += -I. -I/usr/include/stb
LDLIBS   += -lmujoco -lm
BUILD    := build
DEB_PACKAGES := libmujoco-dev libstb-dev libosmesa6-dev

# Rendering (examples/08, tests/test_render.c) needs OSMesa (Debian:
# libosmesa6-dev, which `make deps` installs).  The check runs when a recipe
# does (lazy `=`), so an install earlier in the same run counts.  Without
# OSMesa both still build: 08 says how to enable rendering, test_render
# reports "0 passed, 0 failed".
HAVE_OSMESA   = $(shell (pkg-config --exists osmesa || dpkg-query -W -f='$${Status}' \
                  libosmesa6-dev 2>/dev/null | grep -q "ok installed") 2>/dev/null && echo yes)
RENDER_CFLAGS = $(if $(HAVE_OSMESA),-DS2R_RENDER)
RENDER_LIBS   = $(if $(HAVE_OSMESA),-lOSMesa)

EXAMPLES := $(patsubst examples/%.c,$(BUILD)/%,$(wildcard examples/*.c))
BENCHES  := $(patsubst bench/%.c,$(BUILD)/%,$(wildcard bench/bench_*.c))
TEST_SRC := $(wildcard tests/*.c tests/*.h)
PY_LIB   := $(BUILD)/libsim2real.so
PY_DIGEST := $(PY_LIB).sha256

.PHONY: all deps test-deps install-missing test table figures answers bench clean notebooks sanitize fuzz course \
        student-copy grade python test-python

all: deps $(EXAMPLES) $(BENCHES) $(BUILD)/test_main $(BUILD)/test_render $(PY_LIB) $(PY_DIGEST)

# Install what is missing, through sudo when not root.  Every compile waits
# for the first check ($(DEPS_STAMP), an order-only prerequisite), so even
# `make -j2` on a fresh machine installs the packages before it compiles.
DEPS_STAMP := $(BUILD)/.deps-checked
deps: $(DEPS_STAMP)
	@$(MAKE) --no-print-directory install-missing PACKAGES="$(DEB_PACKAGES)"

$(DEPS_STAMP):
	@$(MAKE) --no-print-directory install-missing PACKAGES="$(DEB_PACKAGES)"
	@mkdir -p $(BUILD) && touch $@

# What the test suite adds: clang and its runtimes for the fuzzers, Jupyter
# for the notebooks, PyTorch for the Python package's CleanRL-style example
# (python3-torch: 147 MB to fetch, 636 MB installed, about a minute on
# Debian 12), GNU parallel and a one-node Slurm for the table's jobs
# (tests/test_jobs.sh).
TEST_PACKAGES := clang-14 libclang-rt-14-dev jupyter-nbconvert python3-ipykernel python3-numpy python3-matplotlib \
                 python3-torch parallel slurm-wlm munge
test-deps: deps
	@$(MAKE) --no-print-directory install-missing PACKAGES="$(TEST_PACKAGES)"

install-missing:
	@missing=""; for p in $(PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq --no-install-recommends $$missing; fi

# Compile once.  The implementation - sim2real.h, its companions beside it
# (sim2real_socket.h, sim2real_jobs.h, sim2real_logs.h, sim2real_analysis.h,
# sim2real_reports.h, sim2real_rl_finetune.h) and the examples' companion headers
# (examples/s2r_cli.h, s2r_figures.h, s2r_render.h) - is compiled
# once per configuration from one generated file, $(IMPL_C), into an object:
# sim2real.o (-O2), sim2real_render.o (-O2 with rendering, for 08 and
# test_render), sim2real_asan.o (sanitizers), sim2real_fuzz.o (clang,
# libFuzzer).  Each example, bench and test keeps its own
# `#define SIM2REAL_IMPLEMENTATION` line, so it still builds alone
# (`cc -I. -I/usr/include/stb examples/02_domain_randomization.c -lmujoco -lm`);
# here it is compiled with -DS2R_IMPLEMENTATION_ELSEWHERE (sim2real.h,
# section 4), which turns that line off, and linked to the object.  Only the
# programs that call private functions or count allocations through
# S2R_MALLOC (tests/test_main.c, bench_main, bench_push) compile the
# implementation themselves: each is a configuration of its own.
HEADERS   := sim2real.h $(wildcard sim2real_*.h) $(wildcard examples/s2r_*.h)
IMPL_C    := $(BUILD)/sim2real_impl.c
ELSEWHERE := -DS2R_IMPLEMENTATION_ELSEWHERE

$(IMPL_C): Makefile | $(DEPS_STAMP)
	printf '#define SIM2REAL_IMPLEMENTATION\n#include "sim2real.h"\n#include "sim2real_socket.h"\n#include "sim2real_jobs.h"\n#include "sim2real_logs.h"\n#include "sim2real_analysis.h"\n#include "sim2real_reports.h"\n#include "sim2real_rl_finetune.h"\n#include "examples/s2r_cli.h"\n#include "examples/s2r_figures.h"\n#include "examples/s2r_render.h"\n' > $@

$(BUILD)/sim2real.o: $(IMPL_C) $(HEADERS)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(BUILD)/sim2real_render.o: $(IMPL_C) $(HEADERS)
	$(CC) $(CPPFLAGS) $(RENDER_CFLAGS) $(CFLAGS) -c $< -o $@

$(BUILD)/%: examples/%.c $(HEADERS) $(BUILD)/sim2real.o
	$(CC) $(CPPFLAGS) $(ELSEWHERE) $(CFLAGS) $< $(BUILD)/sim2real.o -o $@ $(LDLIBS)

# Example 07's second half (its jobs, records and merge) is a file of its own.
$(BUILD)/07_the_table $(BUILD)/07_the_table_asan: examples/07_the_table_jobs.h

# These explicit rules take precedence over the pattern rules.
$(BUILD)/08_scene_renders: examples/08_scene_renders.c $(HEADERS) $(BUILD)/sim2real_render.o
	$(CC) $(CPPFLAGS) $(ELSEWHERE) $(RENDER_CFLAGS) $(CFLAGS) $< $(BUILD)/sim2real_render.o -o $@ $(LDLIBS) $(RENDER_LIBS)

$(BUILD)/test_render: tests/test_render.c tests/test.h tests/stb_image_decoder.h $(HEADERS) $(BUILD)/sim2real_render.o
	$(CC) $(CPPFLAGS) $(ELSEWHERE) $(RENDER_CFLAGS) $(CFLAGS) $< $(BUILD)/sim2real_render.o -o $@ $(LDLIBS) $(RENDER_LIBS)

WHITEBOX_BENCHES := $(BUILD)/bench_main $(BUILD)/bench_push
$(WHITEBOX_BENCHES): $(BUILD)/bench_%: bench/bench_%.c $(HEADERS) | $(DEPS_STAMP)
	$(CC) $(CPPFLAGS) $(CFLAGS) $< -o $@ $(LDLIBS)

$(BUILD)/bench_%: bench/bench_%.c $(HEADERS) $(BUILD)/sim2real.o
	$(CC) $(CPPFLAGS) $(ELSEWHERE) $(CFLAGS) $< $(BUILD)/sim2real.o -o $@ $(LDLIBS)

# Python (python/README.md): the flat C API for bindings (python/sim2real_flat.h)
# compiled with the implementation into the shared library the package
# python/sim2real/ loads (with the renderer where OSMesa is installed:
# Env(render_mode="rgb_array")), and the C program its tests compare against.
# Beside it, its SHA-256 ($(PY_DIGEST)), which the package checks before it
# loads the library: a file damaged without a change of size loaded and
# crashed, or gave wrong numbers (python/README.md).  Made right after each
# build of the library (which removes the old one first), by every target
# that builds the library for Python.
$(PY_LIB): python/sim2real_flat.c python/sim2real_flat.h $(HEADERS) | $(DEPS_STAMP)
	rm -f $(PY_DIGEST)
	$(CC) $(CPPFLAGS) $(RENDER_CFLAGS) $(CFLAGS) -fPIC -shared $< -o $@ $(LDLIBS) $(RENDER_LIBS)

$(PY_DIGEST): $(PY_LIB)
	sha256sum $< | cut -c1-64 > $@.tmp && mv $@.tmp $@

$(BUILD)/python_reference: python/tests/reference.c $(PY_LIB)
	$(CC) $(CPPFLAGS) $(CFLAGS) $< -o $@ -L$(BUILD) -lsim2real -Wl,-rpath,'$$ORIGIN' $(LDLIBS)

python: deps $(PY_LIB) $(PY_DIGEST)

# The Python tests (python/tests/test_sim2real.py, about a minute): Python
# against the C reference, bit for bit, a reach policy of the UR5e trained in
# quick mode (PY_CHECKPOINT), and 12_sysid_from_logs's identification from
# the logs of its quick run (PY_LOGS); a checkpoint written from Python
# through evaluation and staged deployment (06); the CleanRL-style example
# at smoke size where PyTorch is installed; Gymnasium's checks where
# gymnasium is (it is not in Debian: those skip, saying so).  Alone,
# 01_the_gap and 12_sysid_from_logs make both in build/quick_python; make
# test passes the ones its quick pipeline has made.  Debian's python3 and
# numpy (python3-numpy, in TEST_PACKAGES); skipped, with a message, where
# either is missing.
PYTHON ?= $(firstword $(wildcard /usr/bin/python3) $(shell command -v python3 2>/dev/null))
PY_CHECKPOINT ?= $(BUILD)/quick_python/01_pure_sim.ckpt
PY_LOGS       ?= $(BUILD)/quick_python
$(BUILD)/quick_python/01_pure_sim.ckpt: $(BUILD)/01_the_gap
	./$(BUILD)/01_the_gap --quick --out $(BUILD)/quick_python --threads $(THREADS)
# (after 01: both write build/quick_python, which one run at a time holds)
$(BUILD)/quick_python/12_ranges.txt: $(BUILD)/12_sysid_from_logs | $(BUILD)/quick_python/01_pure_sim.ckpt
	./$(BUILD)/12_sysid_from_logs --quick --out $(BUILD)/quick_python

test-python: deps $(PY_LIB) $(PY_DIGEST) $(BUILD)/python_reference $(BUILD)/06_staged_deployment
	@if [ -z "$(PYTHON)" ] || ! $(PYTHON) -c 'import numpy' 2>/dev/null; then \
	  echo "test-python: skipped: python3 with numpy not installed (apt-get install python3 python3-numpy)"; \
	else $(MAKE) --no-print-directory $(PY_CHECKPOINT) $(PY_LOGS)/12_ranges.txt && \
	  S2R_BUILD=$(BUILD) S2R_TEST_CHECKPOINT=$(PY_CHECKPOINT) S2R_TEST_LOGS=$(PY_LOGS) \
	  $(PYTHON) python/tests/test_sim2real.py; fi

# The quick start of the header's manual, cut out verbatim so the tests compile it.
$(BUILD)/quickstart.c: sim2real.h | $(DEPS_STAMP)
	awk '/^   #define SIM2REAL_IMPLEMENTATION/{f=1} f{sub(/^   /,""); print} f&&/^}/{exit}' $< > $@

$(BUILD)/test_main: $(TEST_SRC) $(HEADERS) $(BUILD)/quickstart.c | $(DEPS_STAMP)
	$(CC) $(CPPFLAGS) $(CFLAGS) tests/test_main.c -o $@ $(LDLIBS)

# "The real arm" of tests/test_foreign_arm.sh: plain MuJoCo, not the header.
$(BUILD)/foreign_arm: tests/foreign_arm.c | $(DEPS_STAMP)
	$(CC) $(CFLAGS) $< -o $@ $(LDLIBS)

# examples/README.md's own-reward program, cut out verbatim, compiles as it
# stands against the header (compiled only: it trains for minutes).
$(BUILD)/own_reward.c: examples/README.md | $(DEPS_STAMP)
	awk '/^## Your own MJCF/{s=1} s&&/^```c$$/{f=1; next} f&&/^```$$/{exit} f{print}' $< > $@
	grep -q 's2r_ppo_train' $@ || { echo "$@: no program found in $<" >&2; rm -f $@; exit 1; }
$(BUILD)/own_reward.o: $(BUILD)/own_reward.c sim2real.h
	$(CC) -I. $(CFLAGS) -O0 -c $< -o $@

# The core alone compiles and runs with no stb on the include path: the
# quick start, built with -I. only.
$(BUILD)/core_check: $(BUILD)/quickstart.c sim2real.h | $(DEPS_STAMP)
	$(CC) -I. $(CFLAGS) $< -o $@ $(LDLIBS)

# The header and its companions must also compile as C++.
$(BUILD)/cxx_check.o: $(IMPL_C) $(HEADERS)
	cp $(IMPL_C) $(BUILD)/cxx_check.cpp
	$(CXX) $(CPPFLAGS) $(RENDER_CFLAGS) -O0 -Wall -Wextra -pedantic -fopenmp -c $(BUILD)/cxx_check.cpp -o $@

THREADS ?= $(shell nproc 2>/dev/null || echo 1)
# How many jobs make sanitize and make fuzz run at once: THREADS, or within
# make test (SUB_JOBS empty) what its own -j leaves them.
SUB_JOBS ?= -j$(THREADS)

# The suite, then the whole pipeline as a smoke run (quick sizes), on both tasks.
# Its programs are built first, THREADS at a time, once the packages they
# need are there.  tests/test_companions.sh checks that a companion header
# misused (before sim2real.h, its implementation twice) stops compilation.
#
# Then the checks run as two chains side by side (THREADS at a time; one
# after the other with THREADS=1), as no file one chain writes is read or
# written by the other:
#   the programs checked one process at a time: the suite, the crash,
#     option and socket tests, rendering, then the sanitizers (the suite
#     again, which writes the suite's files: after it, in the same chain);
#   the quick pipeline and what reads its runs (jobs, Python, notebooks),
#     the course graders and the fuzzers.
# Each step prints its output whole when it ends.  The steps are ordered
# within a chain only to run two things at a time; make them through
# `make test`.  Two chains of OpenMP programs on two cores leave a thread
# waiting at a barrier for one that is not running: the checks run with
# OMP_WAIT_POLICY=passive, so a waiting thread sleeps instead of spinning
# (the same threads, the same numbers; on a loaded machine the quick reach
# table took 16 s of processor time instead of 110 s, identical files).
TEST_BUILDS := $(BUILD)/test_main $(BUILD)/test_render $(BUILD)/cxx_check.o $(BUILD)/core_check $(BUILD)/own_reward.o $(EXAMPLES) \
               $(PY_LIB) $(PY_DIGEST) $(BUILD)/python_reference $(BUILD)/foreign_arm
TEST_CHAINS := test-step-sanitize test-step-fuzz
.PHONY: $(TEST_CHAINS) test-step-suite test-step-crash test-step-pipeline test-step-course test-step-python
test: test-deps
	@$(MAKE) --no-print-directory -j$(THREADS) --output-sync=target $(TEST_BUILDS)
	@OMP_WAIT_POLICY=passive $(MAKE) --no-print-directory -j$(THREADS) --output-sync=target SUB_JOBS= $(TEST_CHAINS)

test-step-suite:
	./$(BUILD)/test_main
	./$(BUILD)/core_check
	sh tests/test_companions.sh "$(CC) $(CPPFLAGS)" $(BUILD)
	./$(BUILD)/test_render

test-step-crash: test-step-suite
	sh tests/test_options.sh $(BUILD)
	sh tests/test_resume.sh $(BUILD)
	sh tests/test_socket.sh $(BUILD)

test-step-sanitize: test-step-crash
	@$(MAKE) --no-print-directory sanitize

test-step-pipeline:
	./$(BUILD)/00_hello_robot --out $(BUILD)/quick_examples
	./$(BUILD)/05_real_only --quick --out $(BUILD)/quick_examples --threads $(THREADS)
	./$(BUILD)/08_scene_renders --quick --out $(BUILD)/quick_examples
	./$(BUILD)/07_the_table --smoke --out $(BUILD)/quick --threads $(THREADS)
	sh tests/test_jobs.sh $(BUILD) $(BUILD)/quick
	./$(BUILD)/07_the_table --task push --smoke --out $(BUILD)/quick_push --threads $(THREADS)
	./$(BUILD)/09_gap_attribution --task push --quick --out $(BUILD)/quick_push --threads $(THREADS)
	./$(BUILD)/14_predicting_transfer --task push --quick --out $(BUILD)/quick_push --threads $(THREADS)
	./$(BUILD)/14_predicting_transfer --quick --out $(BUILD)/quick --threads $(THREADS)
	./$(BUILD)/10_sysid_vs_truth --quick --out $(BUILD)/quick --threads $(THREADS)
	./$(BUILD)/11_gates --quick --out $(BUILD)/quick
	./$(BUILD)/12_sysid_from_logs --quick --out $(BUILD)/quick_logs
	sh tests/test_deploy_socket.sh $(BUILD) $(BUILD)/quick_logs
	./$(BUILD)/12_sysid_from_logs --quick --log $(BUILD)/quick_logs/12_log_1.csv --log $(BUILD)/quick_logs/12_log_4.csv --joint 'kp[4]' --out $(BUILD)/quick_logs_joint
	grep -q '^kp\[4\] ' $(BUILD)/quick_logs_joint/12_ranges.txt
	./$(BUILD)/02_domain_randomization --quick --ranges $(BUILD)/quick_logs_joint/12_ranges.txt --out $(BUILD)/quick_logs_joint
	./$(BUILD)/12_sysid_from_logs --quick --mjcf examples/arm4.xml --out $(BUILD)/quick_arm4
	./$(BUILD)/12_sysid_from_logs --quick --mjcf examples/arm4.xml --write-excitation $(BUILD)/quick_arm4_excitation/exc.csv --out $(BUILD)/quick_arm4_excitation
	grep -q '^t,command_1,command_2,command_3,command_4$$' $(BUILD)/quick_arm4_excitation/exc_4.csv
	./$(BUILD)/02_domain_randomization --quick --mjcf examples/arm4.xml --ranges $(BUILD)/quick_arm4/12_ranges.txt --out $(BUILD)/quick_arm4
	sh tests/test_your_arm.sh $(BUILD)
	sh tests/test_foreign_arm.sh $(BUILD)
	./$(BUILD)/13_recipe_depth --quick --out $(BUILD)/quick_push
	./$(BUILD)/13_recipe_depth --adr --quick --out $(BUILD)/quick_push
	./$(BUILD)/13_recipe_depth --privileged --quick --out $(BUILD)/quick_push

test-step-course: test-step-pipeline
	GRADE_REFERENCE_LIBRARY=$(BUILD)/sim2real.o THREADS=$(THREADS) sh tests/test_course.sh

test-step-python: test-step-course
	printf '%s\n' "$(BUILD)/quick 07_the_table --smoke" "$(BUILD)/quick_push 07_the_table --task push --smoke" \
	  "$(BUILD)/quick_push 09_gap_attribution --task push" "$(BUILD)/quick_push 14_predicting_transfer --task push" \
	  "$(BUILD)/quick 10_sysid_vs_truth" > $(BUILD)/quick_runs.txt
	@$(MAKE) --no-print-directory test-python PY_CHECKPOINT=$(BUILD)/quick/07_pure_sim_seed1.ckpt PY_LOGS=$(BUILD)/quick_logs
	@$(MAKE) --no-print-directory notebooks NOTEBOOK_RUNS=$(BUILD)/quick_runs.txt

test-step-fuzz: test-step-python
	@$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=$(TEST_FUZZ_SECONDS)

# The notebooks (notebooks/*.ipynb), executed headless in recipe order with
# Debian's Jupyter and Python kernel; the executed copies, with outputs, go to
# build/notebooks/ beside the artifacts they read (the committed notebooks stay
# without outputs).  Skipped, with a message, where jupyter is not installed.
# NOTEBOOK_RUNS=FILE (make test sets it): the example runs made already, one
# a line, "FOLDER NAME OPTIONS" for `build/NAME --quick OPTIONS --out FOLDER`;
# a notebook copies such a run's files instead of running it again.
NOTEBOOKS := $(sort $(wildcard notebooks/*.ipynb))
JUPYTER   ?= $(firstword $(wildcard /usr/bin/jupyter) $(shell command -v jupyter 2>/dev/null))

notebooks: deps $(EXAMPLES)
ifeq ($(strip $(JUPYTER)),)
	@echo "notebooks: skipped: jupyter not installed (apt-get install jupyter-nbconvert python3-ipykernel python3-numpy python3-matplotlib)"
else
	@mkdir -p $(BUILD)/notebooks
	PYDEVD_DISABLE_FILE_VALIDATION=1 $(if $(NOTEBOOK_RUNS),S2R_NOTEBOOK_RUNS=$(abspath $(NOTEBOOK_RUNS))) \
	  $(JUPYTER) nbconvert --to notebook --execute \
	  --ExecutePreprocessor.kernel_name=python3 --ExecutePreprocessor.timeout=900 \
	  --output-dir $(BUILD)/notebooks $(NOTEBOOKS)
endif

# The recipe table, push on the UR5e (ROBOT=panda for the Panda, TASK=reach
# for reach), into out/.  SEEDS=N training seeds (each with its own unit;
# default 3), REAL_SEED=N the units from #N (default 1), QUICK=1 the quick table (one seed, 50 episodes a
# row, every training long enough to succeed in its simulator; its time on
# two cores in figures/07_push_quick_run_ur5e.csv, labelled "quick" in the table's files; example 07's
# --smoke sizes, which train nothing, are the tests'), OUT=DIR another folder.  JOBS=N runs the table as its jobs,
# N at a time, with GNU parallel (examples/jobs/parallel_table.sh, installed
# here when missing): the same table byte for byte, and run again after a
# crash it picks up where it stopped.  On a Slurm cluster:
# examples/jobs/slurm_table.sh.
ROBOT ?= ur5e
TASK  ?= push
OUT   ?= out
TABLE_OPTIONS = --task $(TASK) --robot $(ROBOT) --out $(OUT) $(if $(QUICK),--quick) $(if $(SEEDS),--seeds $(SEEDS)) \
                $(if $(REAL_SEED),--real-seed $(REAL_SEED))
table: deps $(EXAMPLES)
ifeq ($(strip $(JOBS)),)
	./$(BUILD)/07_the_table $(TABLE_OPTIONS) --threads $(THREADS)
else
	@$(MAKE) --no-print-directory install-missing PACKAGES=parallel
	sh examples/jobs/parallel_table.sh $(JOBS) $(THREADS) ./$(BUILD)/07_the_table $(TABLE_OPTIONS)
endif

# Regenerate the committed figures (the physics timesteps' measurement,
# bench/bench_timestep.c, about 40 min; the full tables, both tasks on both
# arms, examples 01-02 for DR's margin, on push a filmstrip (08) and the
# recipe's deeper tools (13), then make answers: several hours on two cores,
# each table 7-64 minutes - see their run records, 07_run.csv and 07_push_run.csv).  The tables and examples run in
# build/ and only their figures, tables and run records are copied: reach's
# with a _panda suffix for the Panda, push's with the arm's name
# (07_push_table_ur5e.csv); each table's timing as 07_<task>_timing_<arm>.csv.
# Their pure-sim and DR policies of seed 1 are then measured at every
# candidate timestep (bench_timestep --policy: timestep_policy.csv).
# The push tables run again with ten seeds, as jobs two at a time, into
# 07_push_*_<arm>_seeds10.* (the README's headline push tables), and on a
# second set of units, #7001-#7003, into 07_push_*_<arm>_unit7001.* (with its log).
TABLE_FIGURES := 07_table.md 07_table.csv 07_table.png 07_demo_curve.csv 07_run.csv 07_seeds.csv 07_units.csv \
                 07_pure_sim_seed1_training.png 07_dr_seed1_training.png
PUSH_FIGURES  := table.md table.csv table.png demo_curve.csv seeds.csv over_seeds.csv run.csv timing.csv jobs.csv \
                 units.csv demo_curve_seeds.csv \
                 dr_ranges.txt \
                 dr_camera_ranges.txt \
                 pure_sim_seed1_training.png dr_seed1_training.png
PUSH10_FIGURES := table.md table.csv table.png demo_curve.csv seeds.csv over_seeds.csv run.csv timing.csv jobs.csv \
                  units.csv demo_curve_seeds.csv
MARGIN_FIGURES := 02_margin.csv 02_margin.png
figures: deps $(EXAMPLES) $(PY_LIB) $(PY_DIGEST) $(BUILD)/bench_timestep
	./$(BUILD)/bench_timestep --out figures --threads $(THREADS)
	./$(BUILD)/00_hello_robot --out figures
	./$(BUILD)/11_gates --out figures
	./$(BUILD)/08_scene_renders --out figures
	./$(BUILD)/08_scene_renders --out figures --robot panda
	for r in ur5e panda; do \
	  ./$(BUILD)/01_the_gap --robot $$r --out $(BUILD)/margin_$$r --threads $(THREADS) && \
	  ./$(BUILD)/02_domain_randomization --robot $$r --out $(BUILD)/margin_$$r --threads $(THREADS) || exit 1; \
	  for f in $(MARGIN_FIGURES); do \
	    cp $(BUILD)/margin_$$r/$$f figures/$${f%.*}$$( [ $$r = panda ] && echo _panda ).$${f##*.} || exit 1; \
	  done; \
	done
	./$(BUILD)/07_the_table --task reach --out $(BUILD)/table_ur5e --threads $(THREADS)
	for f in $(TABLE_FIGURES); do cp $(BUILD)/table_ur5e/$$f figures/$$f || exit 1; done
	cp $(BUILD)/table_ur5e/07_timing.csv figures/07_reach_timing_ur5e.csv
	./$(BUILD)/07_the_table --task reach --robot panda --out $(BUILD)/table_panda --threads $(THREADS)
	for f in $(TABLE_FIGURES); do cp $(BUILD)/table_panda/$$f figures/$${f%.*}_panda.$${f##*.} || exit 1; done
	cp $(BUILD)/table_panda/07_timing.csv figures/07_reach_timing_panda.csv
	for r in ur5e panda; do \
	  mkdir -p $(BUILD)/push_$$r && \
	  ./$(BUILD)/07_the_table --task push --robot $$r --out $(BUILD)/push_$$r --threads $(THREADS) \
	    > $(BUILD)/push_$$r/07_push_log.txt || exit 1; cp $(BUILD)/push_$$r/07_push_log.txt figures/07_push_log_$$r.txt; \
	  for f in $(PUSH_FIGURES); do cp $(BUILD)/push_$$r/07_push_$$f figures/07_push_$${f%.*}_$$r.$${f##*.} || exit 1; done; \
	  ./$(BUILD)/08_scene_renders --task push --robot $$r --out $(BUILD)/push_$$r || exit 1; \
	  cp $(BUILD)/push_$$r/08_push_filmstrip_$$r.png figures/ || exit 1; \
	  ./$(BUILD)/13_recipe_depth --robot $$r --out $(BUILD)/depth_$$r --threads $(THREADS) || exit 1; \
	  ./$(BUILD)/13_recipe_depth --adr --robot $$r --out $(BUILD)/depth_$$r --threads $(THREADS) || exit 1; \
	  ./$(BUILD)/13_recipe_depth --privileged --robot $$r --out $(BUILD)/depth_$$r --threads $(THREADS) || exit 1; \
	  for t in memory adr privileged; do for f in csv png; do \
	    cp $(BUILD)/depth_$$r/13_$$t.$$f figures/13_ablation_$${t}_$$r.$$f || exit 1; done; done; \
	done
	./$(BUILD)/bench_timestep --out figures --threads $(THREADS) $(foreach r,ur5e panda,\
	  --policy $(BUILD)/push_$(r)/07_push_pure_sim_seed1.ckpt --policy $(BUILD)/push_$(r)/07_push_dr_seed1.ckpt)
	@$(MAKE) --no-print-directory install-missing PACKAGES=parallel
	for r in ur5e panda; do \
	  sh examples/jobs/parallel_table.sh 2 $(THREADS) ./$(BUILD)/07_the_table --task push --robot $$r --seeds 10 \
	     --out $(BUILD)/push10_$$r || exit 1; \
	  for f in $(PUSH10_FIGURES); do cp $(BUILD)/push10_$$r/07_push_$$f figures/07_push_$${f%.*}_$${r}_seeds10.$${f##*.} || exit 1; done; \
	done
	for r in ur5e panda; do \
	  mkdir -p $(BUILD)/push7001_$$r && \
	  ./$(BUILD)/07_the_table --task push --robot $$r --real-seed 7001 --out $(BUILD)/push7001_$$r --threads $(THREADS) \
	    > $(BUILD)/push7001_$$r/07_push_log.txt || exit 1; cp $(BUILD)/push7001_$$r/07_push_log.txt figures/07_push_log_$${r}_unit7001.txt; \
	  for f in $(PUSH10_FIGURES); do cp $(BUILD)/push7001_$$r/07_push_$$f figures/07_push_$${f%.*}_$${r}_unit7001.$${f##*.} || exit 1; done; \
	done
	@if [ -n "$(PYTHON)" ] && $(PYTHON) -c 'import numpy, torch' 2>/dev/null; then d=$(BUILD)/margin_ur5e; \
	  S2R_LIBRARY=$(PY_LIB) $(PYTHON) python/examples/cleanrl_ppo.py --out $$d --compare $$d/02_dr.ckpt && \
	  cp $$d/cleanrl_ppo_result.csv figures/python_cleanrl_ppo_reach.csv || exit 1; \
	  for c in "cleanrl_ppo cleanrl_ppo_ranges python_cleanrl_ppo" "02_dr 02_ranges python_02_dr"; do set -- $$c; \
	    ./$(BUILD)/06_staged_deployment --quick --policy $$d/$$1.ckpt --ranges $$d/$$2.txt --out $$d/deploy_$$3 && \
	    cp $$d/deploy_$$3/06_timeline.csv figures/$${3}_reach_timeline.csv || exit 1; done; \
	else echo "figures: python/examples/cleanrl_ppo.py skipped: python3 with numpy and torch not installed"; fi
	@$(MAKE) --no-print-directory answers

# The benchmark with known answers, for both tasks on both arms (ORACLE
# tools: they read the units' hidden truth to score, and no step of the
# recipe calls them): where each policy's gap comes from (09), how well
# simulation predicted its real success (14) - both on the tables' policies,
# in the folders make figures runs the tables in (a table missing there is
# run first) - and system ID against the truth over 20 units per arm (10;
# the arm's identification is the same for both tasks), on the units as
# they are and without the effects the simulator cannot represent.  Figures named with
# the task and the arm: 09_push_attribution_ur5e.png, 09_push_camera_tolerance_ur5e.csv,
# 14_prediction_panda.csv.
# REAL_SEED=N measures on units N, N+1, N+2 instead (its tables in folders
# of their own).
REAL_SEED ?= 1
ANSWERS_UNITS = $(if $(filter 1,$(REAL_SEED)),,_unit$(REAL_SEED))
answers: deps $(EXAMPLES)
	for t in reach push; do for r in ur5e panda; do \
	  d=$(BUILD)/$$( [ $$t = push ] && echo push || echo table )_$${r}$(ANSWERS_UNITS); p=$$( [ $$t = push ] && echo _push ); \
	  o="--task $$t --robot $$r --real-seed $(REAL_SEED) --out $$d --threads $(THREADS)"; \
	  [ -f $$d/07$${p}_table.csv ] || ./$(BUILD)/07_the_table $$o || exit 1; \
	  ./$(BUILD)/09_gap_attribution $$o || exit 1; \
	  ./$(BUILD)/14_predicting_transfer $$o || exit 1; \
	  for f in 09$${p}_attribution.csv 09$${p}_attribution.png 09$${p}_camera_tolerance.csv 14$${p}_prediction.csv \
	           14$${p}_prediction.png 14$${p}_prediction_summary.csv; do cp $$d/$$f figures/$${f%.*}_$$r.$${f##*.} || exit 1; done; \
	done; done
	for r in ur5e panda; do for v in "" _representable; do \
	  ./$(BUILD)/10_sysid_vs_truth --robot $$r --real-seed $(REAL_SEED) --out $(BUILD)/sysid_$$r --threads $(THREADS) \
	    $$( [ -n "$$v" ] && echo --representable ) || exit 1; \
	  for f in sysid_truth$$v.csv sysid_truth$${v}_summary.csv sysid_truth$$v.png; do \
	    cp $(BUILD)/sysid_$$r/10_$$f figures/10_$${f%.*}_$$r.$${f##*.} || exit 1; done; \
	done; done

# The course kit (course/README.md is the instructor's guide):
#   make course   one kit per assignment, build/course/kit/N_NAME/: the
#                 student copy of the header (every exercise point's solution
#                 replaced by its stub), the assignment and its public
#                 grader's answers, the library with every open exercise left
#                 out (CLOSED=latency,ppo: exercises whose references may be
#                 in it), the other open exercises' stubs
#   make student-copy   the student copy alone, build/course/student/sim2real.h
#   make grade A=1_latency S=submissions/   grade a folder of submissions
#                 (or one file, or one student's folder) in the sandbox, on a
#                 fresh grading seed (SEED=S: on S again, to reproduce a grade;
#                 SEED=0: the public fixed inputs)
#   make test     runs tests/test_course.sh: every grader against the
#                 reference, the skeletons, correct answers and typical
#                 mistakes (tests/course/), a folder of submissions, the
#                 attacks on the grader (tests/course/attacks/), the kits
course: deps
	$(if $(CLOSED),KIT_CLOSED=$(CLOSED)) sh course/kit.sh $(BUILD)/course/kit

student-copy:
	sh course/student_copy.sh sim2real.h $(BUILD)/course/student/sim2real.h

grade: deps
	@[ -n "$(A)" ] || { echo "make grade A=ASSIGNMENT [S=SUBMISSIONS]: A is missing (1_latency ... 6_ranges)" >&2; exit 2; }
	sh course/grade.sh $(A) $(if $(SEED),--seed $(SEED)) $(S)

bench: deps $(BENCHES) $(PY_LIB) $(PY_DIGEST) $(BUILD)/python_reference
	@for b in $(BENCHES); do ./$$b || exit 1; done
	@if [ -n "$(PYTHON)" ] && $(PYTHON) -c 'import numpy' 2>/dev/null; then S2R_BUILD=$(BUILD) $(PYTHON) python/bench_steps.py; \
	else echo "bench_steps: skipped: python3 with numpy not installed"; fi

clean:
	rm -rf $(BUILD)

# --- Hardening: the suite under sanitizers, and fuzzing ----------------------
#
#   make sanitize  the suite (and the rendering tests) once more under
#                  AddressSanitizer, UndefinedBehaviorSanitizer and
#                  LeakSanitizer (gcc brings the runtimes); S2R_TEST_SHORT=1
#                  cuts the budget of the two slow learning tests, of the
#                  object's identification from strikes and of the real
#                  unit's identification, so every code path still runs;
#                  tests/lsan.supp
#                  lists the third-party leaks left out (one, in libOSMesa)
#   make fuzz      each libFuzzer harness tests/fuzz/fuzz_NAME.c (clang) for
#                  FUZZ_SECONDS, on a scratch copy of tests/fuzz/corpus/NAME
#                  under build/ (the committed corpus is never written), with
#                  tests/fuzz/NAME.dict; a crash is saved as build/fuzz_NAME-crash-*;
#                  make test runs them for TEST_FUZZ_SECONDS (10) each

SAN_CFLAGS := -std=c99 -O1 -g -fno-omit-frame-pointer -Wall -Wextra -pedantic -fopenmp \
              -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all
SAN_ENV    := S2R_TEST_SHORT=1 \
              ASAN_OPTIONS=detect_leaks=1:detect_stack_use_after_return=1:strict_string_checks=1:check_initialization_order=1:strict_init_order=1 \
              UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
              LSAN_OPTIONS=suppressions=tests/lsan.supp:print_suppressions=0

FUZZ_CC      ?= clang-14
FUZZ_SECONDS ?= 20
TEST_FUZZ_SECONDS ?= 10
FUZZ_CFLAGS  := -g -O1 -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
FUZZ_ENV     := UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
FUZZERS      := $(patsubst tests/fuzz/%.c,$(BUILD)/%,$(wildcard tests/fuzz/fuzz_*.c))

$(BUILD)/test_main_asan: $(TEST_SRC) $(HEADERS) $(BUILD)/quickstart.c | $(DEPS_STAMP)
	$(CC) $(CPPFLAGS) $(SAN_CFLAGS) tests/test_main.c -o $@ $(LDLIBS)

# The implementation compiled once with the sanitizers (and rendering), for
# the rendering tests and every example's error exit (tests/test_error_exits.sh).
SAN_EXAMPLES := $(patsubst examples/%.c,$(BUILD)/%_asan,$(wildcard examples/*.c))
$(BUILD)/sim2real_asan.o: $(IMPL_C) $(HEADERS)
	$(CC) $(CPPFLAGS) $(RENDER_CFLAGS) $(SAN_CFLAGS) -c $< -o $@

$(BUILD)/test_render_asan: tests/test_render.c tests/test.h tests/stb_image_decoder.h $(HEADERS) $(BUILD)/sim2real_asan.o
	$(CC) $(CPPFLAGS) $(ELSEWHERE) $(RENDER_CFLAGS) $(SAN_CFLAGS) $< $(BUILD)/sim2real_asan.o -o $@ $(LDLIBS) $(RENDER_LIBS)

$(BUILD)/%_asan: examples/%.c $(HEADERS) $(BUILD)/sim2real_asan.o
	$(CC) $(CPPFLAGS) $(ELSEWHERE) $(RENDER_CFLAGS) $(SAN_CFLAGS) $< $(BUILD)/sim2real_asan.o -o $@ $(LDLIBS) $(RENDER_LIBS)

sanitize: deps
	@$(MAKE) --no-print-directory $(SUB_JOBS) --output-sync=target $(BUILD)/test_main_asan $(BUILD)/test_render_asan \
	  $(SAN_EXAMPLES)
	$(SAN_ENV) ./$(BUILD)/test_main_asan
	$(SAN_ENV) ./$(BUILD)/test_render_asan
	$(SAN_ENV) sh tests/test_error_exits.sh $(BUILD)

$(BUILD)/sim2real_fuzz.o: $(IMPL_C) $(HEADERS)
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -c $< -o $@

$(BUILD)/fuzz_%: tests/fuzz/fuzz_%.c $(HEADERS) $(BUILD)/sim2real_fuzz.o
	$(FUZZ_CC) $(CPPFLAGS) $(ELSEWHERE) $(FUZZ_CFLAGS) $< $(BUILD)/sim2real_fuzz.o -o $@ $(LDLIBS)

# Each harness builds and runs THREADS at a time, each for FUZZ_SECONDS.
FUZZ_RUNS := $(patsubst $(BUILD)/fuzz_%,fuzz-run-%,$(FUZZERS))
fuzz: test-deps
	@$(MAKE) --no-print-directory $(SUB_JOBS) --output-sync=target $(FUZZERS)
	@$(MAKE) --no-print-directory $(SUB_JOBS) --output-sync=target $(FUZZ_RUNS)

fuzz-run-%: $(BUILD)/fuzz_%
	@n=$*; rm -rf $(BUILD)/fuzz_corpus/$$n && mkdir -p $(BUILD)/fuzz_corpus/$$n && \
	  cp tests/fuzz/corpus/$$n/* $(BUILD)/fuzz_corpus/$$n/ || exit 1; \
	  echo "fuzz_$$n: $(FUZZ_SECONDS) s (log: $(BUILD)/fuzz_$$n.log)"; \
	  if $(FUZZ_ENV) ./$< -dict=tests/fuzz/$$n.dict -max_total_time=$(FUZZ_SECONDS) \
	       -print_final_stats=1 -artifact_prefix=$(BUILD)/fuzz_$$n- \
	       $(BUILD)/fuzz_corpus/$$n > $(BUILD)/fuzz_$$n.log 2>&1; \
	  then grep -E '^(Done|stat::average_exec_per_sec)' $(BUILD)/fuzz_$$n.log; \
	  else tail -n 40 $(BUILD)/fuzz_$$n.log; exit 1; fi
