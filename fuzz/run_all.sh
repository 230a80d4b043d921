#!/usr/bin/env bash
# Runs every harness for SECONDS each (default 4); CI runs this for a short smoke run.
# A documented long run: fuzz/run_all.sh 0 RUNS   (RUNS inputs per harness, e.g. 1000000)
#
# The Python harnesses run under atheris, which sees the coverage of Python code only; the C
# core's frontier engine and misère quotient walks are fuzzed with coverage feedback from their
# own code by core_fuzzer.c (libFuzzer), built here with clang when clang is installed
# (apt-get install clang), into fuzz/build/ with its corpus in fuzz/build/corpus/.
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-4}
runs=${2:-}
for h in fuzz_scalar fuzz_arrays fuzz_linalg fuzz_games fuzz_cli fuzz_core fuzz_web fuzz_saved_state; do
    if [ -n "$runs" ]; then
        python3 "$h.py" -atheris_runs="$runs" -print_final_stats=1 2>&1 | tail -n 3
    else
        python3 "$h.py" -max_total_time="$seconds" 2>&1 | tail -n 2
    fi
    echo "$h: ok"
done
if command -v clang >/dev/null 2>&1; then
    mkdir -p build/corpus
    clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
        -I../csrc/core core_fuzzer.c ../csrc/core/frontier/*.c ../csrc/core/sparse.c ../csrc/core/quotient.c \
        -lpthread -o build/core_fuzzer
    if [ -n "$runs" ]; then
        build/core_fuzzer -runs="$runs" -print_final_stats=1 build/corpus 2>&1 | tail -n 6
    else
        build/core_fuzzer -max_total_time="$seconds" build/corpus 2>&1 | tail -n 2
    fi
    echo "core_fuzzer: ok"
else
    echo "core_fuzzer: skipped (no clang; apt-get install clang to fuzz the C core with coverage)"
fi
