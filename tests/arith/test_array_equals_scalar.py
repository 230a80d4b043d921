"""One function, one answer: for every public function that accepts arrays, every integer
dtype, byte order and memory layout gives exactly the scalar function's answers, element by
element (docs/reliability.md, "array = scalar")."""

import numpy as np
import pytest

from nimbers import field_bits, nim_add, nim_div, nim_inv, nim_mul, nim_pow, nim_sqrt, nim_square
from nimbers.field import from_polynomial_basis, nim_trace, to_polynomial_basis

DTYPES = ["u1", "u2", "u4", "u8", "i1", "i2", "i4", "i8"]
ORDERS = ["<", ">"]
LAYOUTS = ["contiguous", "reversed", "every_third", "fortran"]


def values(dtype: np.dtype, n: int, seed: int, nonzero: bool = False) -> np.ndarray:
    """Non-negative values spread over the dtype's range, with the edges."""
    top = int(np.iinfo(dtype).max)
    rng = np.random.default_rng(seed)
    v = [int(x) for x in rng.integers(0, top, n - 4, endpoint=True, dtype=np.uint64)]
    v += [0, 1, top, top // 2 + 1]
    v = [x if x or not nonzero else 1 for x in v]
    return np.array(v[:n], dtype=np.uint64)


def arranged(v: np.ndarray, dtype: str, order: str, layout: str) -> np.ndarray:
    """v in the given dtype, byte order and layout (the same elements, row-major)."""
    dt = np.dtype(dtype).newbyteorder(order)
    if layout == "contiguous":
        return v.astype(dt)
    if layout == "reversed":
        return v[::-1].astype(dt)[::-1]
    if layout == "every_third":
        wide = np.zeros(3 * v.size, dtype=dt)
        wide[::3] = v
        return wide[::3]
    grid = np.asfortranarray(v.reshape(6, -1).astype(dt))  # column-major 2-D
    return grid


def flat(a) -> list[int]:
    return [int(x) for x in np.asarray(a).reshape(-1)]


def setup(dtype, order, layout, seed, nonzero=False):
    v = values(np.dtype(dtype), 48, seed, nonzero)
    return arranged(v, dtype, order, layout), flat(arranged(v, dtype, order, layout))


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("dtype", DTYPES)
def test_binary_operations(dtype, order, layout):
    a, xs = setup(dtype, order, layout, 1)
    b, ys = setup(dtype, order, layout, 2, nonzero=True)
    for op in (nim_add, nim_mul, nim_div):
        got = op(a, b)
        assert flat(got) == [op(x, y) for x, y in zip(xs, ys)], op.__name__
        assert got.dtype.kind == "u" and got.shape == a.shape
    assert flat(nim_mul.reduce(a, axis=None)) == [_fold(nim_mul, xs, 1)]
    assert flat(nim_add.accumulate(a.reshape(-1))) == _running(nim_add, xs, 0)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("dtype", DTYPES)
def test_unary_operations_and_powers(dtype, order, layout):
    a, xs = setup(dtype, order, layout, 3, nonzero=True)
    for op in (nim_square, nim_sqrt, nim_inv):
        assert flat(op(a)) == [op(x) for x in xs], op.__name__
    for k in (0, 1, 5, -3, 2**63 - 1, -(2**63)):
        assert flat(nim_pow(a, k)) == [nim_pow(x, k) for x in xs], k


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("dtype", DTYPES)
def test_field_functions(dtype, order, layout):
    a, xs = setup(dtype, order, layout, 4)
    assert flat(field_bits(a)) == [field_bits(x) for x in xs]
    assert flat(nim_trace(a)) == [nim_trace(x) for x in xs]
    if dtype.startswith("u"):  # the basis maps take unsigned arrays (documented)
        for bits in (8, 16, 32, 64):
            if np.dtype(dtype).itemsize * 8 <= bits:
                assert flat(to_polynomial_basis(a, bits)) == [to_polynomial_basis(x, bits) for x in xs]
                assert flat(from_polynomial_basis(a, bits)) == [from_polynomial_basis(x, bits)
                                                                for x in xs]


def _fold(op, xs, start):
    for x in xs:
        start = op(start, x)
    return start


def _running(op, xs, start):
    out = []
    for x in xs:
        start = op(start, x)
        out.append(start)
    return out
