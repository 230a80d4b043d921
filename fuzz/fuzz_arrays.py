"""Fuzzes the ufunc path: every integer dtype (and floats, bools, objects), both byte orders,
shapes with zero-size axes, negative and non-unit strides, broadcasting, out=, outer,
reduce and accumulate.  Each answer is compared element by element with the scalar path.

    python fuzz/fuzz_arrays.py -atheris_runs=1000000
"""

import sys

import atheris
import numpy as np

with atheris.instrument_imports(include=["nimbers"]):
    import nimbers
    from common import CLEAR_ERRORS

DTYPES = ["u1", "u2", "u4", "u8", "i1", "i2", "i4", "i8", "?", "f8", "O"]
OPS = ["add", "mul", "div", "pow", "square", "sqrt", "inv"]


def array(fdp):
    dt = DTYPES[fdp.ConsumeIntInRange(0, len(DTYPES) - 1)]
    ndim = fdp.ConsumeIntInRange(0, 3)
    shape = tuple(fdp.ConsumeIntInRange(0, 4) for _ in range(ndim))
    size = int(np.prod(shape)) if shape else 1
    if dt == "O":
        values = [fdp.ConsumeIntInRange(0, 2**80) if fdp.ConsumeBool() else fdp.ConsumeInt(3)
                  for _ in range(size)]
        arr = np.array(values + [0], dtype=object)[:-1].reshape(shape)
    else:
        raw = fdp.ConsumeBytes(size * np.dtype(dt).itemsize)
        raw = raw + b"\0" * (size * np.dtype(dt).itemsize - len(raw))
        arr = np.frombuffer(raw, dtype=dt).reshape(shape).copy()
        if dt == "f8":
            arr = np.nan_to_num(arr)
        if fdp.ConsumeBool() and dt not in ("?", "u1", "i1"):
            arr = arr.astype(arr.dtype.newbyteorder(">"))
    if arr.ndim and fdp.ConsumeBool():
        arr = arr[::-1]  # negative strides
    if arr.ndim > 1 and fdp.ConsumeBool():
        arr = arr.T  # non-contiguous
    return arr


def expected(op, a, b):
    f = getattr(nimbers, "nim_" + op)
    return f(int(a)) if b is None else f(int(a), int(b))


def TestOneInput(data):
    fdp = atheris.FuzzedDataProvider(data)
    op = OPS[fdp.ConsumeIntInRange(0, len(OPS) - 1)]
    f = getattr(nimbers, "nim_" + op)
    unary = op in ("square", "sqrt", "inv")
    a = array(fdp)
    b = None if unary else array(fdp)
    method = fdp.ConsumeIntInRange(0, 3)
    try:
        if method == 1 and not unary:
            r = f.outer(a, b)
            pairs = [(x, y) for x in a.ravel().tolist() for y in b.ravel().tolist()]
        elif method == 2 and op in ("add", "mul") and a.ndim >= 1:
            r = f.reduce(a, axis=0)
            pairs = None
        else:
            r = f(a) if unary else f(a, b)
            if unary:
                pairs = [(x, None) for x in a.ravel().tolist()]
            else:
                ba, bb = np.broadcast_arrays(a, b)
                pairs = list(zip(ba.ravel().tolist(), bb.ravel().tolist()))
    except CLEAR_ERRORS:
        return  # a clear error: its type is checked by the scalar rules below only on success
    if pairs is not None:
        got = np.asarray(r).ravel().tolist()
        assert len(got) == len(pairs)
        for value, (x, y) in zip(got, pairs):
            assert value == expected(op, x, y), (op, x, y, value)
    else:
        cols = np.moveaxis(np.asarray(a), 0, -1).reshape(-1, a.shape[0]) if a.size else []
        got = np.asarray(r).ravel().tolist()
        for value, col in zip(got, cols):
            acc = 0 if op == "add" else 1
            for v in col.tolist():
                acc = expected(op, acc, v)
            assert value == acc


if __name__ == "__main__":
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()
