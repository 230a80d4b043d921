#!/usr/bin/env bash
# The frontier engine's thread counts past two, on a machine with many cores (issue 35): builds
# the extension in place, T. Czajka's solver if its sources are given, and runs
# bench_frontier.py twice to 2^24: the widest vector path with 1, 2, 4, 8 and 16 threads, then
# the narrower paths with 1, 2 and 8; the solvers run alongside (cores to spare), each
# invocation timing its own, so every ratio is against a peer of the same run.
#
#   bash benchmarks/many_cores.sh [OCTAL_GAMES_SRC_DIR [OUT_DIR]]
#   NIMBERS_BENCH_QUICK=1 bash benchmarks/many_cores.sh "" OUT_DIR   # a short lease: the widest
#       path with 1, 2, 3, 4 and 8 threads, no peers (ratios against one thread)
#
# OCTAL_GAMES_SRC_DIR: the src/ folder of github.com/tczajka/octal-games at commit 30baeb7
# (never vendored here); OUT_DIR (default .) receives bench-*.txt and rows.jsonl.
set -euo pipefail
cd "$(dirname "$0")/.."
peer_src=${1:-}
out=${2:-.}
export PYTHONUNBUFFERED=1 PYTHONPATH="$PWD/src${PYTHONPATH:+:$PYTHONPATH}"
py=${PYTHON:-python3}
echo "cores: $(nproc); $(grep -m1 'model name' /proc/cpuinfo); $($py --version)"
$py setup.py -q build_ext --inplace -j "$(nproc)" >"$out/build.log" 2>&1 || {
    tail -40 "$out/build.log"; exit 1; }
peer=()
if [ -n "$peer_src" ]; then
    g++ -O3 -march=native -std=c++11 -pthread -I"$peer_src" "$peer_src"/analyze_exec.cc \
        "$peer_src"/game.cc "$peer_src"/game_util.cc "$peer_src"/hadamard.cc -o /tmp/analyze
    peer=(--peer-bin /tmp/analyze)
fi
read -r -a paths <<<"$($py -c 'from nimbers import _core; print(*_core.frontier_paths()[::-1])')"
narrow=$(IFS=,; echo "${paths[*]:1}")
echo "paths, widest first: ${paths[*]}"
if [ -n "${NIMBERS_BENCH_QUICK:-}" ]; then
    $py benchmarks/bench_frontier.py --until 24 --paths "${paths[0]}" --threads 1,2,3,4,8 --games 0.6,grundy \
        --no-peers --log "$out/rows.jsonl" 2>&1 | tee "$out/bench-quick.txt"
    exit
fi
$py benchmarks/bench_frontier.py --until 24 --paths "${paths[0]}" --threads 1,2,4,8,16 \
    "${peer[@]}" --peers-alongside --log "$out/rows.jsonl" 2>&1 | tee "$out/bench-widest.txt"
if [ -n "$narrow" ]; then
    $py benchmarks/bench_frontier.py --until 24 --paths "$narrow" --threads 1,2,8 \
        "${peer[@]}" --peers-alongside --log "$out/rows.jsonl" 2>&1 | tee "$out/bench-narrow.txt"
fi
