#!/usr/bin/env bash
# Deepens, on a lent many-core machine, the census classes results/census still holds capped
# by the earlier dense rule (34 classes at 2^17; issue 48), every core a worker, for at most
# SECONDS seconds; what it made comes back under $OUT.  Run from the repository root:
#
#     bash tools/device_census_depth.sh [UNTIL] [SECONDS]      # default 2^20 and 480
#
# 1. builds the C core in place (a setuptools wheel in .whl/ is used for the build when the
#    machine's setuptools is older than pyproject.toml needs);
# 2. makes the census directory from results/census (tools/census_depth_work.py), or from
#    $DEPTH_ROWS, the census.jsonl an earlier run of this script brought back (a class whose
#    level was not done when the time ran out does that level again); the classes taken on
#    are those any row of that table shows capped by the earlier rule and not yet solved or
#    capped by this one (census_depth_work.still_to_deepen), so a second session goes on
#    with the classes the first took past 2^17 (it listed only those still at 2^17 before);
#    a frontier run's values do not come back, so such a class's run starts again from 0;
# 3. nimbers census deepen DIR --until UNTIL --codes capped.txt --workers $(nproc), stopped
#    by SIGINT after SECONDS (the rows done stay: census.jsonl is append-only);
# 4. $OUT/census.jsonl, progress.log, report.txt, runs.tar.gz (each frontier run's stats,
#    rare and record lists; not its values) and build.log.
# Publish here afterwards (a class whose last level was not done keeps its earlier row):
#     mkdir R && tar xzf OUT/runs.tar.gz -C R
#     python tools/census_depth_work.py W --rows OUT/census.jsonl --runs R/runs
#     python tools/results.py census --export-only --work W
# A class dense at 2^20 costs the plain scan, n^2/2 per member (about 90 s for each of the 8
# members of .604 or 4.026 on one quiet core of the project's machine), and a class that goes
# on needs its members at 2^20 in memory before its frontier run: 2^22 for all 34 is some 15
# minutes of the slowest class on 16 cores.  Run it again with DEPTH_ROWS=OUT/census.jsonl
# and DEPTH_RUNS=R/runs (carried) to go on.
set -uo pipefail
UNTIL=${1:-2^20}
SECONDS_LEFT=${2:-480}
OUT=${OUT:-$PWD/depth_out}
PY=${PYTHON:-python3}
WORKERS=$(nproc)
WORK=${WORK:-/tmp/census_depth}
export PYTHONUNBUFFERED=1
mkdir -p "$OUT"

build_path=""
for wheel in .whl/setuptools-*.whl; do
    [ -e "$wheel" ] || continue
    mkdir -p /tmp/setuptools_site && $PY -m zipfile -e "$wheel" /tmp/setuptools_site
    build_path=/tmp/setuptools_site
done
if ! PYTHONPATH=$build_path $PY setup.py build_ext --inplace -j "$WORKERS" >"$OUT/build.log" 2>&1; then
    echo "device_census_depth: the build failed (the end of $OUT/build.log):"; tail -5 "$OUT/build.log"
    exit 2
fi
export PYTHONPATH=$PWD/src

rows=()
[ -n "${DEPTH_ROWS:-}" ] && rows=(--rows "$DEPTH_ROWS")
[ -n "${DEPTH_RUNS:-}" ] && rows+=(--runs "$DEPTH_RUNS")
$PY tools/census_depth_work.py "$WORK" "${rows[@]}" --codes "$WORK/capped.txt" || exit 2

echo "deepening $(wc -l <"$WORK/capped.txt") classes to $UNTIL on $WORKERS workers for at most $SECONDS_LEFT s"
timeout -s INT -k 30 "$SECONDS_LEFT" $PY -m nimbers census deepen "$WORK/census" --until "$UNTIL" \
    --codes "$WORK/capped.txt" --workers "$WORKERS" 2>&1 | tail -40
echo "deepen ended with status ${PIPESTATUS[0]} (124 or 130: the time ran out)"

cp "$WORK/census/census.jsonl" "$OUT/"
cp "$WORK/census/progress.log" "$OUT/" 2>/dev/null
$PY -m nimbers census report "$WORK/census" >"$OUT/report.txt" 2>&1
(cd "$WORK/census" && ls runs/*/stats.json >/dev/null 2>&1 &&
    tar czf "$OUT/runs.tar.gz" runs/*/stats.json runs/*/rare.csv runs/*/records.csv)
ls -l "$OUT"
