"""Hardening: no leaks over many calls (results and errors), threads sharing inputs, the
command line under malformed arguments, and sizes refused up front."""

import gc
import os
import subprocess
import sys
import threading
import tracemalloc

import numpy as np
import pytest

from nimbers import nim_add, nim_div, nim_inv, nim_mul, nim_pow, nim_sqrt, nim_square
from nimbers.field import nim_log, nim_order
from nimbers.linalg import det, inv, rank


def rss_kib():
    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[1])
    return pages * 4


def exercise():
    """One pass over every public entry point of the C core: results and errors."""
    big = 2**300 + 12345
    arr = np.arange(1, 65, dtype=np.uint64)
    nim_mul(123456789, 987654321)
    nim_mul(big, big)
    nim_add(big, 5)
    nim_div(big, 7)
    nim_pow(big, -3)
    nim_pow(7, 2**70)
    nim_inv(big)
    nim_sqrt(big)
    nim_square(12345)
    nim_mul(arr, arr)
    nim_mul.outer(arr[:8], arr[:8])
    nim_mul.reduce(arr)
    nim_inv(arr)
    nim_pow(arr, -2)
    nim_mul(arr.astype(object), 3)
    for bad in ((-1, 2), (1.5, 2), ("x", 1)):
        try:
            nim_mul(*bad)
        except (ValueError, TypeError):
            pass
    for f, args in ((nim_inv, (0,)), (nim_div, (1, 0)), (nim_pow, (0, -1))):
        try:
            f(*args)
        except ZeroDivisionError:
            pass
    try:
        nim_mul(np.array([1, -1]), 2)
    except ValueError:
        pass
    m = np.arange(1, 10, dtype=np.uint64).reshape(3, 3)
    det(m)
    rank(m)
    try:
        inv([[1, 2], [2, 3]])
    except ValueError:
        pass
    det([[big, 1], [2, big]])
    nim_order(12345)
    nim_log(3, 2)


@pytest.mark.parametrize("rounds", [3000])
def test_no_leaks(rounds):
    """Every entry point 3000 times (a documented long run: 10^5, see docs/reliability.md):
    Python-level allocations and resident memory stay flat."""
    for _ in range(200):
        exercise()
    gc.collect()
    tracemalloc.start()
    before_py = tracemalloc.get_traced_memory()[0]
    before_rss = rss_kib()
    for _ in range(rounds):
        exercise()
    gc.collect()
    after_py = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    after_rss = rss_kib()
    assert after_py - before_py < 200_000, f"Python allocations grew {after_py - before_py} bytes"
    if os.environ.get("NIMBERS_UNDER_SANITIZER"):
        return  # AddressSanitizer holds freed memory in quarantine, so RSS grows by design
    assert after_rss - before_rss < 8_000, f"resident memory grew {after_rss - before_rss} KiB"


def test_refcounts_of_arguments_stay_put():
    big = 2**200 + 1
    before = sys.getrefcount(big)
    for _ in range(1000):
        nim_mul(big, big)
        try:
            nim_div(big, 0)
        except ZeroDivisionError:
            pass
    assert sys.getrefcount(big) == before


def test_threads_share_inputs():
    rng = np.random.default_rng(5)
    a = rng.integers(0, 2**64, 200_000, dtype=np.uint64, endpoint=False)
    b = rng.integers(0, 2**64, 200_000, dtype=np.uint64, endpoint=False)
    a.flags.writeable = False
    b.flags.writeable = False
    expected = nim_mul(a, b)
    results = [None] * 4
    errors = []

    def work(i):
        try:
            for _ in range(5):
                r = nim_mul(a, b) if i % 2 == 0 else nim_mul.outer(a[:300], b[:300])
            results[i] = r
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert np.array_equal(results[0], expected) and np.array_equal(results[2], expected)
    assert np.array_equal(results[1], nim_mul.outer(a[:300], b[:300]))


def test_sizes_refused_up_front():
    # a 2^25-bit operand: past the supported 2^24 bits, refused before any work
    with pytest.raises(ValueError, match="2\\^24"):
        nim_mul(1 << (1 << 25), 1)
    from nimbers.tables import mul_table
    with pytest.raises(ValueError, match="too large"):
        mul_table(10**6)
    from nimbers.games.nim import solve_bottom_up
    with pytest.raises(ValueError):
        solve_bottom_up([10**9, 10**9])
    from nimbers.games import octal_game
    with pytest.raises(ValueError):
        octal_game("0.77").nim_values(10**12)


MALFORMED = [
    [], [""], ["mul"], ["mul", ""], ["mul", "-1"], ["mul", "9" * 5000, "x"], ["mul", "1", "--nope"],
    ["pow", "2"], ["pow", "2", "1.5"], ["div", "1"], ["inv", "abc"], ["sqrt", "-0x5"],
    ["explain", "-2", "3"], ["table"], ["table", "-4"], ["table", "99999999"],
    ["table", "8", "--format", "xml"], ["det"], ["rank", "/no/such/file"], ["solve", "-", "-"],
    ["nim"], ["nim", "3", "-5"], ["heap", "0.9Z"], ["heap", "0.77", "-1"], ["turning", "bogus"],
    ["turning", "ruler", "--heads", "x,y"], ["tartan", "twins"], ["tartan", "twins", "twins", "--heads", "1"],
    ["log", "0", "2"], ["log", "5", "2"], ["order", "0"], ["minpoly", "-1"],
    ["solve-quadratic", "1"], ["solve-quadratic", "1", "7", "--bits", "3"], ["play"],
    ["play", "nim", "x"], ["play", "octal", "0.77"], ["frobnicate"], ["--wat"],
]


@pytest.mark.parametrize("argv", MALFORMED, ids=lambda a: " ".join(a) or "(none)")
def test_cli_malformed_arguments(argv):
    r = subprocess.run([sys.executable, "-m", "nimbers", *argv], capture_output=True, text=True,
                       input="", timeout=60)
    assert r.returncode == 2, r
    if argv:  # with no command at all the help is printed
        assert len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "Traceback" not in r.stderr


@pytest.mark.parametrize("command", ["det", "rank"])
def test_cli_binary_garbage_on_stdin(command):
    garbage = bytes(range(256)) * 4
    r = subprocess.run([sys.executable, "-m", "nimbers", command, "-"], input=garbage,
                       capture_output=True, timeout=60)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1
    assert b"Traceback" not in r.stderr
