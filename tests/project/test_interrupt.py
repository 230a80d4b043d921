"""Ctrl-C stops long compiled work, other threads run meanwhile, and private entry points
validate their input (docs/reliability.md, "promises")."""

import _thread
import threading
import time

import numpy as np
import pytest

from nimbers import _core, linalg


def _interrupt_after(seconds):
    timer = threading.Timer(seconds, _thread.interrupt_main)
    timer.start()
    return timer


@pytest.mark.usefixtures("python_sigint")
def test_ctrl_c_stops_a_long_determinant():
    rng = np.random.default_rng(1)
    m = rng.integers(0, 2**63, size=(3000, 3000), dtype=np.uint64)  # about 20 s of work
    timer = _interrupt_after(0.3)
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        linalg.det(m)
    elapsed = time.monotonic() - start
    timer.join()
    assert elapsed < 10, f"det ran {elapsed:.1f} s after the interrupt"  # not a speed bar


def test_other_threads_run_during_a_determinant():
    rng = np.random.default_rng(2)
    m = rng.integers(0, 2**63, size=(700, 700), dtype=np.uint64)
    ticks = []
    stop = threading.Event()

    def count():
        while not stop.is_set():
            ticks.append(1)
            time.sleep(0.001)

    counter = threading.Thread(target=count)
    counter.start()
    try:
        before = len(ticks)
        linalg.det(m)
        during = len(ticks) - before
    finally:
        stop.set()
        counter.join()
    assert during > 0


def test_log_table_refuses_a_zero_generator():
    """Found by the second reliability round: a zero generator made an inverse of 0."""
    with pytest.raises(ValueError, match="generators not 0"):
        _core.LogTable(1, [(3, 0, 1, 2)])


@pytest.mark.parametrize("entries", [
    [(1, 2, 1, 2)],            # not a prime order
    [(3, 2, 1, 0)],            # no baby steps
    [(3, 2**64, 1, 2)],        # generator outside the field
    [(3, -1, 1, 2)],           # negative
    [(3, "2", 1, 2)],          # not an int
])
def test_log_table_validates_every_entry(entries):
    with pytest.raises((ValueError, TypeError)):
        _core.LogTable(1, entries)


def test_log_tables_answer_under_either_kernel():
    """Tables keep nim-basis values: built under one kernel, they answer under the other."""
    from nimbers import get_kernel, set_kernel
    from nimbers.field import nim_log

    if not _core.clmul_available():
        pytest.skip("one kernel only on this CPU")
    before = get_kernel()
    try:
        set_kernel("clmul")
        x = nim_log(12345678901, 2**32 + 6)
        set_kernel("portable")
        assert nim_log(12345678901, 2**32 + 6) == x
    finally:
        set_kernel(before)


class Sneaky(int):
    """An int subclass whose own arithmetic lies: C must use the int value alone."""

    def __mod__(self, other):
        return 0

    def __index__(self):
        return 7


def test_int_subclass_exponents_use_their_value():
    from nimbers import nim_pow

    assert nim_pow(2**70 + 5, Sneaky(3)) == nim_pow(2**70 + 5, 3)
    assert nim_pow(6, Sneaky(-3)) == nim_pow(6, -3)


def test_kernel_switches_never_mix_bases_under_threads():
    """Four threads compute products, reductions, inverses, determinants and big-int powers
    while the main thread switches kernels: each switch happens between computations or is
    refused with a clear error, and every answer is the sequential one."""
    from nimbers import get_kernel, nim_inv, nim_mul, nim_pow, set_kernel

    if not _core.clmul_available():
        pytest.skip("one kernel only on this CPU")
    rng = np.random.default_rng(3)
    a = rng.integers(1, 2**63, 20000, dtype=np.uint64)
    m = rng.integers(0, 2**63, (60, 60), dtype=np.uint64)
    big = 2**200 + 12345
    expect = (nim_mul(a, a[::-1]), nim_mul.reduce(a), nim_inv(a), linalg.det(m), nim_pow(big, 77))
    errors, stop = [], threading.Event()

    def work():
        while not stop.is_set():
            got = (nim_mul(a, a[::-1]), nim_mul.reduce(a), nim_inv(a), linalg.det(m),
                   nim_pow(big, 77))
            if not ((got[0] == expect[0]).all() and got[1] == expect[1] and
                    (got[2] == expect[2]).all() and got[3] == expect[3] and got[4] == expect[4]):
                errors.append("a wrong answer")

    threads = [threading.Thread(target=work) for _ in range(4)]
    before = get_kernel()
    for t in threads:
        t.start()
    switched = refused = 0
    try:
        deadline = time.monotonic() + 2
        while time.monotonic() < deadline:
            for name in ("portable", "clmul"):
                try:
                    set_kernel(name)
                    switched += 1
                except RuntimeError as e:
                    assert "another thread" in str(e)
                    refused += 1
    finally:
        stop.set()
        for t in threads:
            t.join()
        set_kernel(before)
    assert not errors
    assert switched + refused > 0


def test_a_bad_kernel_variable_warns_and_imports():
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-c", "import nimbers; print(nimbers.nim_mul(8, 8))"],
                         env={**__import__("os").environ, "NIMBERS_KERNEL": "garbage"},
                         capture_output=True, text=True)
    assert run.returncode == 0 and run.stdout.strip() == "13"
    assert "NIMBERS_KERNEL='garbage' ignored" in run.stderr and "Traceback" not in run.stderr


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.uint32, np.uint64, np.int32])
def test_trace_on_arrays_equals_the_scalar_trace(dtype):
    from nimbers.field import nim_trace

    top = min(np.iinfo(dtype).max, 2**40)
    a = np.array(sorted({top * i // 60 for i in range(61)} | {0, 1, 2, 3, 5, 8}), dtype=dtype)
    assert nim_trace(a).tolist() == [nim_trace(int(v)) for v in a]
    assert nim_trace(a, 64).tolist() == [nim_trace(int(v), 64) for v in a]
    small = a[a < 256]
    assert nim_trace(small, 8, to=2).tolist() == [nim_trace(int(v), 8, to=2) for v in small]


@pytest.mark.parametrize("call", ["product", "power"])
@pytest.mark.usefixtures("python_sigint")
def test_ctrl_c_stops_huge_tower_work(call):
    """A product of two 2^22-bit nimbers takes seconds in the tower's recursion, which polls
    for Ctrl-C at every level of 2048 limbs and more."""
    from nimbers import nim_mul, nim_pow

    x = (1 << (1 << 22)) + 12345
    timer = _interrupt_after(0.3)
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        nim_mul(x, 3 * x + 1) if call == "product" else nim_pow(x, (1 << 4000) + 7)
    elapsed = time.monotonic() - start
    timer.join()
    assert elapsed < 10, f"ran {elapsed:.1f} s after the interrupt"  # not a speed bar
