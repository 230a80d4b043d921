"""Fuzzes the private entry points of nimbers._core, which the public API validates before
calling: each must still answer or raise a clear exception for ANY argument (garbage ints,
wrong dtypes and shapes, sizes past the end of buffers), never crash or read out of bounds
(run it under tools/sanitize.sh's build to catch the latter).  The frontier engine's and the
misère quotient's bindings are among them.

    python fuzz/fuzz_core.py -atheris_runs=1000000

Atheris sees the coverage of Python code only: the extension's C code is not instrumented, so
this harness gets no coverage feedback from it (its corpus stays at one input) and explores by
chance.  The C core's frontier engine and quotient walks are fuzzed with coverage feedback by
fuzz/core_fuzzer.c (libFuzzer, clang -fsanitize=fuzzer, linked straight to csrc/core/;
fuzz/run_all.sh builds and runs it).
"""

import os
import tempfile

import sys

import atheris
import numpy as np

with atheris.instrument_imports(include=["nimbers"]):
    from nimbers import _core
    from common import CLEAR_ERRORS

DTYPES = ["u1", "u4", "u8", "i8", "f8", "O"]


def any_value(fdp):
    kind = fdp.ConsumeIntInRange(0, 6)
    if kind == 0:
        return fdp.ConsumeIntInRange(0, 2**64)
    if kind == 1:
        return fdp.ConsumeInt(9)  # negative too, and past 64 bits
    if kind == 2:
        return None
    if kind == 3:
        return fdp.ConsumeUnicodeNoSurrogates(4)
    if kind == 4:
        return [fdp.ConsumeIntInRange(0, 20) for _ in range(fdp.ConsumeIntInRange(0, 4))]
    if kind == 5:
        return any_array(fdp)
    return fdp.ConsumeFloat()


def any_array(fdp):
    dt = DTYPES[fdp.ConsumeIntInRange(0, len(DTYPES) - 1)]
    shape = tuple(fdp.ConsumeIntInRange(0, 5) for _ in range(fdp.ConsumeIntInRange(0, 3)))
    size = int(np.prod(shape)) if shape else 1
    if dt == "O":
        return np.array([fdp.ConsumeInt(9) for _ in range(size)] + [0], dtype=object)[:-1].reshape(shape)
    raw = fdp.ConsumeBytes(size * np.dtype(dt).itemsize)
    raw = raw + b"\0" * (size * np.dtype(dt).itemsize - len(raw))
    arr = np.frombuffer(raw, dtype=dt).reshape(shape).copy()
    return np.nan_to_num(arr) if dt == "f8" else arr


def log_table(fdp):
    limbs = fdp.ConsumeIntInRange(0, 9)
    # primes below 2^16: a query costs at most p / baby_steps giant steps (kept short)
    entries = [(fdp.ConsumeIntInRange(0, 2**16), any_value(fdp), any_value(fdp),
                fdp.ConsumeIntInRange(0, 2**10)) for _ in range(fdp.ConsumeIntInRange(0, 3))]
    table = _core.LogTable(limbs, entries)
    table.residues(any_value(fdp))


def heap_extend(fdp):
    rules = None if fdp.ConsumeBool() else [fdp.ConsumeIntInRange(0, 20) for _ in range(4)]
    g = any_array(fdp)
    _core.heap_extend(rules, g, fdp.ConsumeIntInRange(-2, 40), fdp.ConsumeIntInRange(-2, 40),
                      fdp.ConsumeIntInRange(-2, 2**33), fdp.ConsumeIntInRange(-1, 3))


def heap_period(fdp):
    g = any_array(fdp)
    _core.heap_period(g, *(fdp.ConsumeIntInRange(-2, 2**64) for _ in range(6)))


def turning_extend(fdp):
    g = any_array(fdp)
    _core.turning_extend(fdp.ConsumeIntInRange(-1, 3), fdp.ConsumeIntInRange(-1, 5),
                         fdp.ConsumeIntInRange(-2, 8), g, fdp.ConsumeIntInRange(-2, 40),
                         fdp.ConsumeIntInRange(-2, 40))


def linear_algebra(fdp):
    which = fdp.ConsumeIntInRange(0, 2)
    a, b = any_array(fdp), any_array(fdp)
    if which == 0:
        _core.det(a)
    elif which == 1:
        _core.row_reduce(a, None if fdp.ConsumeBool() else b)
    else:
        _core.matmul(a, b, any_array(fdp))


def ufuncs(fdp):
    name = ["nim_add", "nim_mul", "nim_div", "nim_pow", "nim_square", "nim_sqrt", "nim_inv"][
        fdp.ConsumeIntInRange(0, 6)]
    uf = getattr(_core, name)
    args = [any_value(fdp) for _ in range(uf.nin)]
    method = fdp.ConsumeIntInRange(0, 3)
    if method == 0:
        uf(*args)
    elif method == 1 and uf.nin == 2:
        uf.outer(*args)
    elif method == 2:
        uf.reduce(args[0])
    else:
        uf.accumulate(args[0])


def scalars(fdp):
    name = ["add", "mul", "div", "pow", "sqrt", "inv"][fdp.ConsumeIntInRange(0, 5)]
    f = getattr(_core, name)
    args = [any_value(fdp) for _ in range(1 if name in ("sqrt", "inv") else 2)]
    f(*args)


def any_rules(fdp):
    if fdp.ConsumeIntInRange(0, 15) == 0:
        return any_value(fdp)
    if fdp.ConsumeIntInRange(0, 7) == 0:
        return None  # Grundy's game
    return [fdp.ConsumeIntInRange(0, 7) & (4 if k == 0 else 7) | 4 * (k == 1)
            if fdp.ConsumeIntInRange(0, 15) else fdp.ConsumeIntInRange(-1, 16)
            for k in range(fdp.ConsumeIntInRange(1, 6))]


def mostly(fdp, good, bad):
    """good() nearly always; bad() one time in sixteen (a garbage argument)."""
    return bad() if fdp.ConsumeIntInRange(0, 15) == 0 else good()


def frontier(fdp):
    """The frontier engine's bindings in any order, mostly with good arguments (else nothing
    past the first call runs), garbage among them."""
    engine = _core.frontier_new(any_rules(fdp), mostly(fdp, lambda: 1 + fdp.ConsumeBool(),
                                                       lambda: fdp.ConsumeIntInRange(-1, 99)),
                                fdp.ConsumeIntInRange(0, 300), fdp.ConsumeIntInRange(0, 5000))
    with tempfile.TemporaryFile() as f:
        _core.frontier_set_file(engine, mostly(fdp, f.fileno, lambda: fdp.ConsumeIntInRange(-1, 99)),
                                mostly(fdp, lambda: 2, lambda: fdp.ConsumeIntInRange(0, 3)))
        for _ in range(fdp.ConsumeIntInRange(0, 6)):
            which = fdp.ConsumeIntInRange(0, 3)
            if which == 0:
                _core.frontier_feed(engine, mostly(fdp, lambda: np.zeros(
                    fdp.ConsumeIntInRange(0, 50), dtype=np.uint16), lambda: any_array(fdp)))
            elif which == 1:
                _core.frontier_set_mask(engine, mostly(fdp, lambda: fdp.ConsumeIntInRange(0, 255),
                                                       lambda: fdp.ConsumeIntInRange(-1, 2**33)))
            elif which == 2:
                out = np.zeros(fdp.ConsumeIntInRange(0, 300), dtype=np.uint16)
                made, _ = _core.frontier_step(engine, out, mostly(
                    fdp, lambda: len(out), lambda: fdp.ConsumeIntInRange(-1, 400)))
                os.write(f.fileno(), out[:made].tobytes())
            else:
                _core.frontier_info(engine)


def int32_array(fdp, shape, top):
    return np.array([fdp.ConsumeIntInRange(0, top) for _ in range(int(np.prod(shape)))],
                    dtype=np.int32).reshape(shape)


def quotient(fdp):
    """The quotient walks' bindings: small tables and options of the right types with any
    contents (indices past the end too), now and then arrays of any dtype and shape."""
    m, ng = fdp.ConsumeIntInRange(1, 6), fdp.ConsumeIntInRange(0, 4)
    nopt = fdp.ConsumeIntInRange(0, 8)
    mul, gen, opt = int32_array(fdp, (m, m), m), int32_array(fdp, (ng,), m), int32_array(fdp, (nopt,), m)
    opt_start = np.sort(np.array([0] + [fdp.ConsumeIntInRange(0, nopt) for _ in range(ng)],
                                 dtype=np.int64))
    opt_start[-1] = nopt
    cycles = int32_array(fdp, (fdp.ConsumeIntInRange(0, 2), 2), 3)
    which = fdp.ConsumeIntInRange(0, 2)
    if which == 0:
        args = [mul, cycles, gen, opt_start, opt]
        args[fdp.ConsumeIntInRange(0, 4)] = mostly(fdp, lambda: args[0], lambda: any_array(fdp))
        _core.quotient_mark_p(*args)
    elif which == 1:
        p = np.array([fdp.ConsumeBool() for _ in range(m)], dtype=np.uint8)
        _core.quotient_n_failure(mul, p, gen, opt_start, opt, fdp.ConsumeIntInRange(-1, 99))
    else:
        _core.quotient_refine(int32_array(fdp, (ng, m), m), mostly(
            fdp, lambda: np.array([fdp.ConsumeBool() for _ in range(m)], dtype=np.uint8),
            lambda: any_array(fdp)))


TARGETS = [log_table, heap_extend, heap_period, turning_extend, linear_algebra, ufuncs, scalars,
           frontier, quotient]


def TestOneInput(data):
    fdp = atheris.FuzzedDataProvider(data)
    target = TARGETS[fdp.ConsumeIntInRange(0, len(TARGETS) - 1)]
    try:
        target(fdp)
    except CLEAR_ERRORS + (BufferError,):  # BufferError: a read-only or scalar buffer
        pass


if __name__ == "__main__":
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()
