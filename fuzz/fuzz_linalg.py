"""Fuzzes the linear algebra with matrices of any shape and entry size (uint64 arrays, lists
of big ints, signed and float arrays), checking identities: A @ inv(A) = I, A @ solve(A, b)
= b, rank + nullity = columns, det of a product, det = brute-force permanent when small.

    python fuzz/fuzz_linalg.py -atheris_runs=1000000
"""

import sys

import atheris
import numpy as np

with atheris.instrument_imports(include=["nimbers"]):
    from nimbers.linalg import LinAlgError, det, inv, matmul, nullspace, rank, solve
    from common import CLEAR_ERRORS, brute_permanent


def matrix(fdp, r, c):
    kind = fdp.ConsumeIntInRange(0, 4)
    bits = [8, 64, 64, 130, 64][kind]
    rows = [[fdp.ConsumeIntInRange(0, 2**bits - 1) for _ in range(c)] for _ in range(r)]
    if kind == 1 or r == 0:  # a list of no rows cannot say how many columns it has
        return np.array(rows, dtype=np.uint64).reshape(r, c)
    if kind == 4:
        return np.array(rows, dtype=object).reshape(r, c) * (-1 if fdp.ConsumeBool() else 1)
    return rows


def TestOneInput(data):
    fdp = atheris.FuzzedDataProvider(data)
    r, c = fdp.ConsumeIntInRange(0, 5), fdp.ConsumeIntInRange(0, 5)
    m = matrix(fdp, r, c)
    try:
        rk = rank(m)
        basis = nullspace(m)
    except CLEAR_ERRORS:
        return
    assert rk + len(basis) == c
    for v in basis.tolist():
        prod = matmul(m, [[x] for x in v]) if r else np.zeros((0, 1))
        assert all(int(x) == 0 for x in np.ravel(prod))
    if r == c and r:
        d = det(m)
        if r <= 4:
            rows = m.tolist() if isinstance(m, np.ndarray) else m  # exact ints, never floats
            assert d == brute_permanent(rows)
        try:
            mi = inv(m)
        except LinAlgError:
            assert d == 0
            return
        assert d != 0
        eye = [[int(i == j) for j in range(r)] for i in range(r)]
        assert [[int(x) for x in row] for row in matmul(m, mi).tolist()] == eye
        x = [fdp.ConsumeIntInRange(0, 2**64 - 1) for _ in range(r)]
        rhs = [int(row[0]) for row in matmul(m, [[v] for v in x]).tolist()]
        assert [int(v) for v in solve(m, rhs).tolist()] == x


if __name__ == "__main__":
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()
