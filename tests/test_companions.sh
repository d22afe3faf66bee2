#!/bin/sh
# tests/test_companions.sh - the companion headers beside sim2real.h
# (sim2real_socket.h, sim2real_jobs.h, sim2real_logs.h, sim2real_analysis.h,
# sim2real_reports.h, sim2real_rl_finetune.h) and the examples' (examples/s2r_cli.h, s2r_figures.h,
# s2r_render.h) misused stop
# compilation with an #error that says what to do: included without
# sim2real.h before them, s2r_render.h without s2r_figures.h, an
# implementation included twice in one file, SIM2REAL_IMPLEMENTATION
# defined only after sim2real.h was included.  Used rightly - declarations
# only, included twice; or every implementation once - they compile.
# Only the preprocessor runs for the misuses (#error stops it); the right
# uses are checked with -fsyntax-only.
# Usage: tests/test_companions.sh "CC CPPFLAGS" [build dir]   (from the repository root)
set -u
CC=$1
WORK=${2:-build}/companions
failed=0
rm -rf "$WORK" && mkdir -p "$WORK" || exit 1

# refused NAME "what #error says" LINES... : the file made of LINES must not
# preprocess, and the compiler must print the message.
refused() {
    name=$1 says=$2
    shift 2
    printf '%s\n' "$@" > "$WORK/$name.c"
    if $CC -E "$WORK/$name.c" -o /dev/null > "$WORK/$name.log" 2>&1; then
        echo "FAIL companions: $name compiled"; failed=$((failed + 1))
    elif ! grep -q "$says" "$WORK/$name.log"; then
        echo "FAIL companions: $name did not say \"$says\""; cat "$WORK/$name.log"; failed=$((failed + 1))
    else
        echo "ok   companions: $name stops: $says"
    fi
}

# accepted NAME LINES... : the file made of LINES compiles.
accepted() {
    name=$1
    shift
    printf '%s\n' "$@" > "$WORK/$name.c"
    if $CC -fsyntax-only "$WORK/$name.c" > "$WORK/$name.log" 2>&1; then
        echo "ok   companions: $name compiles"
    else
        echo "FAIL companions: $name"; cat "$WORK/$name.log"; failed=$((failed + 1))
    fi
}

for c in cli figures render; do
    refused "${c}_alone" "include sim2real.h before s2r_$c.h" "#include \"examples/s2r_$c.h\""
    refused "${c}_twice" "s2r_$c.h: its implementation is already in this file" \
        '#define SIM2REAL_IMPLEMENTATION' '#include "sim2real.h"' '#include "examples/s2r_figures.h"' \
        "#include \"examples/s2r_$c.h\"" "#include \"examples/s2r_$c.h\""
    refused "${c}_late_define" "s2r_$c.h: define SIM2REAL_IMPLEMENTATION before sim2real.h" \
        '#include "sim2real.h"' '#include "examples/s2r_figures.h"' '#define SIM2REAL_IMPLEMENTATION' \
        "#include \"examples/s2r_$c.h\""
done
for c in socket jobs logs analysis reports rl_finetune; do
    refused "${c}_alone" "include sim2real.h before sim2real_$c.h" "#include \"sim2real_$c.h\""
    refused "${c}_twice" "sim2real_$c.h: its implementation is already in this file" \
        '#define SIM2REAL_IMPLEMENTATION' '#include "sim2real.h"' "#include \"sim2real_$c.h\"" \
        "#include \"sim2real_$c.h\""
    refused "${c}_late_define" "sim2real_$c.h: define SIM2REAL_IMPLEMENTATION before sim2real.h" \
        '#include "sim2real.h"' '#define SIM2REAL_IMPLEMENTATION' "#include \"sim2real_$c.h\""
done
refused render_without_figures "include s2r_figures.h before s2r_render.h" \
    '#include "sim2real.h"' '#include "examples/s2r_render.h"'
accepted declarations_twice '#include "sim2real.h"' '#include "sim2real_socket.h"' '#include "sim2real_jobs.h"' \
    '#include "sim2real_socket.h"' '#include "sim2real_jobs.h"' '#include "sim2real_logs.h"' '#include "sim2real_logs.h"' \
    '#include "sim2real_analysis.h"' '#include "sim2real_analysis.h"' '#include "sim2real_reports.h"' \
    '#include "sim2real_reports.h"' '#include "sim2real_rl_finetune.h"' '#include "sim2real_rl_finetune.h"' '#include "examples/s2r_cli.h"' '#include "examples/s2r_figures.h"' \
    '#include "examples/s2r_render.h"' '#include "examples/s2r_cli.h"' '#include "examples/s2r_figures.h"' \
    '#include "examples/s2r_render.h"' 'int main(void) { return 0; }'
accepted core_companions_once '#define SIM2REAL_IMPLEMENTATION' '#include "sim2real.h"' '#include "sim2real_socket.h"' \
    '#include "sim2real_jobs.h"' '#include "sim2real_logs.h"' '#include "sim2real_analysis.h"' '#include "sim2real_reports.h"' \
    '#include "sim2real_rl_finetune.h"' 'int main(void) { return 0; }'
accepted elsewhere '#define SIM2REAL_IMPLEMENTATION' '#define S2R_IMPLEMENTATION_ELSEWHERE' '#include "sim2real.h"' \
    '#include "sim2real_socket.h"' '#include "sim2real_jobs.h"' \
    '#include "examples/s2r_cli.h"' '#include "examples/s2r_figures.h"' '#include "examples/s2r_figures.h"' \
    'int main(void) { return 0; }'

if [ $failed -ne 0 ]; then echo "companions: $failed failed"; exit 1; fi
echo "companions: all passed"
