#!/usr/bin/env bash
# The four-digit census (issue 49) on a machine with many cores, time-limited, its table under
# $OUT: `nimbers census --digits 4 --until 2^20` on every core (the process pool: no dask
# needed), then, while time is left, the same census on to 2^22 (only the open rows go on).
#
#   OUT=/some/dir bash tools/device_census4.sh            # from the repository root
#   CENSUS4_SECONDS=480 CENSUS4_UNTIL=2^20 CENSUS4_THEN=2^22 ...   (the defaults)
#   CENSUS4_CODES=FILE ...    # these codes instead of --digits 4 (a quick trial of the script)
#   CENSUS4_BUILD=0 ...       # use the extension already built in src/nimbers
#
# The census runs in $WORK (default /tmp/census4-work, outside $OUT: its frontier runs hold
# many files) under `timeout`, so it stops (SIGTERM, then SIGKILL 20 s later) before the time
# is spent; its rows are appended and fsync'd as classes finish, so a stopped census leaves a
# valid partial table, and the same command run again on the same $WORK goes on.  At the end
# at most 8 files go to $OUT: census.jsonl (gzip'd past 12 MiB), census.json, manifest.json,
# progress.log, czajka.csv, flammenkamp.csv, report.txt and run.txt (the machine, the build,
# the wall time of each stage and the peak memory).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:?set OUT to the folder that comes back}
work=${WORK:-/tmp/census4-work}
budget=${CENSUS4_SECONDS:-480}
until=${CENSUS4_UNTIL:-2^20}
then=${CENSUS4_THEN:-2^22}
py=${PYTHON:-python3}
what=(--digits 4)
[ -n "${CENSUS4_CODES:-}" ] && what=(--codes "$CENSUS4_CODES")
began=$(date +%s)
log="$out/run.txt"
mkdir -p "$out" "$work"
export PYTHONUNBUFFERED=1 PYTHONPATH="$PWD/src${PYTHONPATH:+:$PYTHONPATH}"
say() { echo "$(date -u +%H:%M:%S) +$(( $(date +%s) - began ))s $*" | tee -a "$log"; }
left() { echo $(( budget - ($(date +%s) - began) )); }

say "cores $(nproc); $(grep -m1 'model name' /proc/cpuinfo); $($py --version 2>&1);" \
    "memory $(free -g | awk '/Mem/ {print $2}') GiB"

build_with_gcc() {   # no setuptools: the extension as setup.py builds it, by hand
    local inc ext
    inc=$($py -c 'import sysconfig, numpy; print(sysconfig.get_paths()["include"], numpy.get_include())')
    ext=$($py -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
    # shellcheck disable=SC2046
    gcc -O2 -std=c11 -shared -fPIC -Wl,-s -Icsrc/core -Icsrc/python $(printf -- '-I%s ' $inc) \
        $(find csrc/core -name '*.c' | sort) $(ls csrc/python/*.c | sort) \
        -o "src/nimbers/_core$ext" -lm
}
if [ "${CENSUS4_BUILD:-1}" = 0 ]; then
    say "not built (CENSUS4_BUILD=0): the extension in src/nimbers as it is"
elif $py setup.py -q build_ext --inplace -j "$(nproc)" >"$work/build.log" 2>&1; then
    say "built with setup.py build_ext"
elif build_with_gcc >>"$work/build.log" 2>&1; then
    say "built with gcc directly (setup.py failed: $(grep -m1 -i error "$work/build.log"))"
else
    say "build failed"; tail -30 "$work/build.log" | tee -a "$log"; exit 1
fi

run_census() {   # run_census UNTIL: the census to UNTIL within the time left (less 40 s)
    local t=$(( $(left) - 40 ))
    if [ "$t" -lt 30 ]; then say "no time left for --until $1"; return 1; fi
    local tm=() rc
    [ -x /usr/bin/time ] && tm=(/usr/bin/time -v -o "$work/time-$1.txt")
    say "census ${what[*]} --until $1 --workers $(nproc) (at most $t s)"
    "${tm[@]}" timeout -k 20 "$t" $py -m nimbers census "${what[@]}" --until "$1" \
        --workers "$(nproc)" --out "$work/census" >>"$work/census.out" 2>>"$work/progress.err"
    rc=$?
    say "census --until $1 ended: exit $rc ($([ $rc = 124 ] && echo 'stopped by the time limit' || echo 'done'));" \
        "peak RSS of the census process: $(awk -F': ' '/Maximum resident/ {print $2 " kB"}' "$work/time-$1.txt" 2>/dev/null)"
    return $rc
}
run_census "$until" && run_census "$then"

say "exports"
for columns in czajka flammenkamp; do
    $py -m nimbers census export "$work/census" --format csv --columns "$columns" \
        --save "$out/$columns.csv" >>"$log" 2>&1
done
$py -m nimbers census report "$work/census" >"$out/report.txt" 2>&1
for f in census.json manifest.json progress.log; do
    [ -f "$work/census/$f" ] && cp "$work/census/$f" "$out/$f"
done
table="$work/census/census.jsonl"
if [ -f "$table" ] && [ "$(stat -c %s "$table")" -gt $((12 << 20)) ]; then
    gzip -c "$table" >"$out/census.jsonl.gz"
elif [ -f "$table" ]; then
    cp "$table" "$out/census.jsonl"
fi
say "done: $(head -1 "$out/report.txt")"
