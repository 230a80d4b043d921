#!/usr/bin/env bash
# Builds nimbers with AddressSanitizer and UndefinedBehaviorSanitizer in a throwaway venv and
# runs the test suite under them; fails on any sanitizer report.
#
#   tools/sanitize.sh                 the whole suite
#   tools/sanitize.sh tests/arith/test_arith.py -k laws     any pytest arguments (CI runs a subset)
#
# The switch is the environment variable NIMBERS_SANITIZE=1, read by setup.py.  Python itself
# is not instrumented, so libasan is preloaded; leak detection is off (the interpreter keeps
# memory until exit on purpose: tests/project/test_reliability.py measures leaks instead).
set -euo pipefail
cd "$(dirname "$0")/.."
venv=$(mktemp -d /tmp/nimbers-asan.XXXXXX)
trap 'rm -rf "$venv"' EXIT
python3 -m venv --system-site-packages "$venv"
# The build runs without isolation (against the numpy installed here), so the venv needs the
# build requirements of pyproject.toml itself (setuptools new enough for its SPDX license).
"$venv/bin/python" -m pip install -q "setuptools>=77" wheel
NIMBERS_SANITIZE=1 "$venv/bin/python" -m pip install -q --no-build-isolation --no-deps \
    --target "$venv/site" . >/dev/null
asan=$(gcc -print-file-name=libasan.so)
ubsan=$(gcc -print-file-name=libubsan.so)
export PYTHONPATH="$venv/site"
# allocator_may_return_null: a failed malloc returns NULL, as libc's does, so the out-of-memory
# paths run as they do without ASan.
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:halt_on_error=1:allocator_may_return_null=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
export LD_PRELOAD="$asan $ubsan"
export NIMBERS_UNDER_SANITIZER=1  # ASan keeps freed memory in quarantine: RSS is no leak gauge
log="$venv/log"
set +e
# A sanitizer writes its report to file descriptor 2 and ends the process: --capture=sys leaves
# that descriptor to the terminal (pytest's default, fd, would swallow the report with the
# test's output), and PYTHONUNBUFFERED keeps the progress line up to the failing test.
PYTHONUNBUFFERED=1 "$venv/bin/python" -m pytest -q -p no:cacheprovider --capture=sys \
    --import-mode=importlib --rootdir=. -c /dev/null "${@:-tests}" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e
if grep -qE "ERROR: AddressSanitizer|runtime error:|ERROR: LeakSanitizer" "$log"; then
    echo "sanitize.sh: a sanitizer reported an error (above)" >&2
    exit 1
fi
exit "$status"
