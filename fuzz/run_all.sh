#!/usr/bin/env bash
# Runs every harness for SECONDS each (default 4); CI runs this for a short smoke run.
# A documented long run: fuzz/run_all.sh 0 RUNS   (RUNS inputs per harness, e.g. 1000000)
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
