"""The array kernels behind the uint ufunc loops, each against the scalar path and the
independent oracle, on every kernel: a constant operand as a linear map (also when numpy's
buffers repeat a broadcast operand), reductions and accumulations chained in the working basis,
Montgomery's batch inversion and division, and the GF(2^8) / GF(2^16) tables."""

import numpy as np
import pytest

from nimbers import nim_div, nim_inv, nim_mul
from oracle import fermat_mul

SIZES = [1, 2, 3, 4, 5, 255, 256, 257, 383, 384, 385, 700, 1025]


def random_u64(rng, n, low=0):
    return rng.integers(low, 2**64, n, dtype=np.uint64, endpoint=False)


def oracle_products(a, b):
    return [fermat_mul(int(x), int(y)) for x, y in zip(a, b)]


@pytest.mark.parametrize("n", SIZES)
def test_constant_operand(kernel, n):
    rng = np.random.default_rng(n)
    b = random_u64(rng, n)
    c = int(random_u64(rng, 1)[0])
    expect = [fermat_mul(c, int(x)) for x in b]
    assert nim_mul(b, np.uint64(c)).tolist() == expect
    assert nim_mul(np.uint64(c), b).tolist() == expect
    assert nim_mul(np.full(n, c, dtype=np.uint64), b).tolist() == expect  # a run, not a stride 0


def test_outer_rows_become_runs(kernel):
    rng = np.random.default_rng(7)
    a, b = random_u64(rng, 9), random_u64(rng, 500)
    table = nim_mul.outer(a, b)
    for i, x in enumerate(a):
        assert table[i].tolist() == [fermat_mul(int(x), int(y)) for y in b]


# nim_mul.outer of two uint64 arrays runs in the core: a linear map per row (rows of 128 or
# more, no shorter than a column block), per column in blocks of 32768 // n rows (blocks of
# 128 rows or more), else the block kernel row by row; uint8 / uint16 by their tables.
OUTER_SHAPES = [(3, 200), (2, 128), (1, 1000), (300, 5), (128, 256), (200, 160), (5000, 7), (129, 127),
                (20, 30), (127, 1), (1, 1), (0, 5), (5, 0)]


def oracle_outer(a, b):
    return [[fermat_mul(int(x), int(y)) for y in b.ravel()] for x in a.ravel()]


@pytest.mark.parametrize("shape", OUTER_SHAPES)
def test_outer_uint64_every_path(kernel, shape):
    m, n = shape
    rng = np.random.default_rng(m * 1000 + n)
    a, b = random_u64(rng, m), random_u64(rng, n)
    table = nim_mul.outer(a, b)
    assert table.dtype == np.uint64 and table.shape == (m, n)
    assert table.tolist() == oracle_outer(a, b)
    out = np.full((m, n), 7, dtype=np.uint64)
    assert nim_mul.outer(a, b, out=out) is out
    assert out.tolist() == table.tolist()


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.uint32])
@pytest.mark.parametrize("shape", [(3, 200), (300, 5), (20, 30)])
def test_outer_small_dtypes(kernel, dtype, shape):
    m, n = shape
    rng = np.random.default_rng(m + n)
    top = np.iinfo(dtype).max + 1
    a, b = rng.integers(0, top, m).astype(dtype), rng.integers(0, top, n).astype(dtype)
    table = nim_mul.outer(a, b)
    assert table.dtype == dtype
    assert table.tolist() == oracle_outer(a, b)


def test_outer_whole_gf256_table():
    r = np.arange(256, dtype=np.uint8)
    assert nim_mul.outer(r, r).tolist() == oracle_outer(r, r)


def test_outer_keeps_numpy_semantics(kernel):
    rng = np.random.default_rng(11)
    a, b = random_u64(rng, 6).reshape(2, 3), random_u64(rng, 4)
    expect = np.array(oracle_outer(a, b), dtype=np.uint64).reshape(2, 3, 4)
    assert (nim_mul.outer(a, b) == expect).all()                       # n-d operands
    assert (nim_mul.outer(a[:, ::-2], b) == expect[:, ::-2]).all()     # strided operand
    assert (nim_mul.outer(a, b, out=(np.empty((2, 3, 4), np.uint64),)) == expect).all()
    fortran = np.empty((2, 3, 4), np.uint64, order="F")                # numpy's own path
    assert nim_mul.outer(a, b, out=fortran) is fortran and (fortran == expect).all()
    assert nim_mul.outer(a, b, dtype=np.uint64).tolist() == expect.tolist()
    assert nim_mul.outer(np.uint64(a[0, 0]), b).tolist() == expect[0, 0].tolist()
    assert nim_mul.outer(a[0, :1].astype(np.uint8), b).dtype == np.uint64  # promotion
    swapped = b.astype(">u8")                                          # numpy casts it
    assert nim_mul.outer(a, swapped).tolist() == expect.tolist()
    into_swapped = np.empty((2, 3, 4), ">u8")
    assert nim_mul.outer(a, b, out=into_swapped).tolist() == expect.tolist()
    big = [2**64 - 1, 2**63]
    assert nim_mul.outer(big, big).tolist() == [[fermat_mul(x, y) for y in big] for x in big]
    with pytest.raises(ValueError):
        nim_mul.outer(np.array([1, -1]), np.array([2]))


def test_outer_into_an_overlapping_out_is_numpys(kernel):
    """An out= sharing memory with an operand: numpy's own outer, element by element."""
    mine, plain = np.zeros((4, 4), np.uint64), np.zeros((4, 4), np.uint64)
    mine[0] = plain[0] = [3, 5, 7, 2**64 - 1]
    nim_mul.outer(mine[0], mine[0], out=mine)
    nim_mul.ufunc.outer(plain[0], plain[0], out=plain)
    assert mine.tolist() == plain.tolist()


def test_products_with_zero_and_half_halves(kernel):
    """The portable kernel masks a zero 16-bit factor (log 0 does not exist) and folds sums of
    up to three logarithms: operands whose 16-bit pieces are 0, 1, 2^15 or random."""
    rng = np.random.default_rng(12)
    pieces = np.array([0, 0, 1, 0x8000, 0xffff], dtype=np.uint64)
    halves = np.where(rng.random((4000, 4)) < 0.6, pieces[rng.integers(0, 5, (4000, 4))],
                      rng.integers(0, 2**16, (4000, 4), dtype=np.uint64))
    x = (halves << (16 * np.arange(4, dtype=np.uint64))).sum(axis=1, dtype=np.uint64)
    a, b = x[:2000], x[2000:]
    assert nim_mul(a, b).tolist() == oracle_products(a, b)
    assert nim_mul(a.astype(np.uint16), b.astype(np.uint16)).tolist() == oracle_products(
        a.astype(np.uint16), b.astype(np.uint16))


def test_runs_shorter_than_the_threshold_and_mixed(kernel):
    rng = np.random.default_rng(8)
    a = np.repeat(random_u64(rng, 6), [1, 300, 2, 400, 383, 384])
    b = random_u64(rng, a.size)
    assert nim_mul(a, b).tolist() == oracle_products(a, b)
    assert nim_mul(b, a).tolist() == oracle_products(a, b)


@pytest.mark.parametrize("n", SIZES)
def test_reduce_and_accumulate(kernel, n):
    rng = np.random.default_rng(100 + n)
    a = random_u64(rng, n)
    running, p = [], 1
    for x in a.tolist():
        p = fermat_mul(p, x)
        running.append(p)
    assert int(nim_mul.reduce(a)) == p
    assert nim_mul.accumulate(a).tolist() == running
    assert int(nim_mul.reduce(a[::-3])) == int(nim_mul.reduce(a[::-3].copy()))


@pytest.mark.parametrize("n", SIZES)
def test_batch_inversion_and_division(kernel, n):
    rng = np.random.default_rng(200 + n)
    a, b = random_u64(rng, n, low=1), random_u64(rng, n, low=1)
    inv = nim_inv(a)
    assert all(fermat_mul(int(x), int(y)) == 1 for x, y in zip(a, inv))
    q = nim_div(a, b)
    assert all(fermat_mul(int(y), int(z)) == int(x) for x, y, z in zip(a, b, q))
    in_place = a.copy()
    nim_inv(in_place, out=in_place)
    assert (in_place == inv).all()
    assert nim_inv(a[::-2]).tolist() == inv[::-2].tolist()


def test_batch_inversion_refuses_a_zero_anywhere(kernel):
    a = np.arange(1, 1000, dtype=np.uint64)
    a[777] = 0
    with pytest.raises(ZeroDivisionError):
        nim_inv(a)
    with pytest.raises(ZeroDivisionError):
        nim_div(a[::-1], a)


def test_gf256_table_is_the_whole_product_table(kernel):
    x, y = np.meshgrid(np.arange(256, dtype=np.uint8), np.arange(256, dtype=np.uint8))
    scalar = np.array([[nim_mul(int(i), int(j)) for i in range(256)] for j in range(256)])
    assert (nim_mul(x, y) == scalar).all()
    assert nim_mul(x, y).dtype == np.uint8


def test_gf65536_table(kernel):
    rng = np.random.default_rng(9)
    a = rng.integers(0, 65536, 3000).astype(np.uint16)
    b = rng.integers(0, 65536, 3000).astype(np.uint16)
    assert nim_mul(a, b).tolist() == oracle_products(a, b)
    assert nim_mul.accumulate(a[:300]).tolist() == nim_mul.accumulate(a[:300].astype(np.uint64)).tolist()


@pytest.mark.parametrize("n", [1, 2, 31, 32, 33, 64, 65, 97])
def test_blocked_determinant_equals_plain_elimination(kernel, n):
    """det (blocked in panels of 32 columns) against row_reduce's determinant (the plain
    elimination), with zero pivots that force row swaps and singular matrices."""
    from nimbers import _core, linalg

    rng = np.random.default_rng(300 + n)
    m = rng.integers(0, 2**64, (n, n), dtype=np.uint64, endpoint=False)
    m[:, 0] = 0
    m[n // 2, 0] = 5          # the first pivot is found halfway down
    if n > 33:
        m[33, 31:] = m[2, 31:]  # zero pivots inside and across panels
    for matrix in (m, np.vstack([m[:-1], m[:1]])):  # the second is singular when n > 1
        _, _, plain = _core.row_reduce(matrix.reshape(n, n, 1).copy(), None)
        assert int(linalg.det(matrix)) == plain


@pytest.mark.parametrize("n", [1, 7, 16384, 16385, 40000])
def test_signed_64_bit_operands_take_the_array_kernel(kernel, n):
    """int64 arrays (and a reduction's unsigned accumulator beside one) go through the array
    kernel a chunk of 16384 at a time, each chunk checked first: the answers are the uint64
    ones, a constant and a reduction included, and a negative entry in any chunk is named."""
    rng = np.random.default_rng(n)
    a, b = random_u64(rng, n) >> np.uint64(1), random_u64(rng, n) >> np.uint64(1)
    ai, bi = a.astype(np.int64), b.astype(np.int64)
    product = nim_mul(a, b)
    for x, y in ((ai, bi), (a, bi), (ai, b), (ai[::-1][::-1], bi)):
        assert (nim_mul(x, y) == product).all()
    assert (nim_mul(ai, 0x1234567) == nim_mul(a, 0x1234567)).all()
    assert nim_mul.reduce(ai) == nim_mul.reduce(a)
    assert (nim_mul.accumulate(ai) == nim_mul.accumulate(a)).all()
    assert (nim_mul(ai[::3], bi[::3]) == product[::3]).all()
    bad = ai.copy()
    bad[-1] = -5
    for call in (lambda: nim_mul(bad, bi), lambda: nim_mul(b, bad), lambda: nim_mul.reduce(bad),
                 lambda: nim_mul(bad, 3)):
        with pytest.raises(ValueError, match="got -5"):
            call()


@pytest.mark.parametrize("c", [0, 1, 2, 3, 255, 256, 2**32, 2**63, 2**64 - 1, 0x1234567890ABCDEF])
def test_constant_times_strided_and_in_place(kernel, c):
    """A constant times an array is a linear map (tables; GFNI byte products under vpclmul
    where the CPU has them): contiguous, strided, reversed and in place, every tail length."""
    rng = np.random.default_rng(c % 1000)
    b = random_u64(rng, 1203)
    expect = np.array([fermat_mul(c, int(x)) for x in b], dtype=np.uint64)
    cu = np.uint64(c)
    for n in (384, 385, 386, 387, 1203):
        assert (nim_mul(b[:n], cu) == expect[:n]).all()
    assert (nim_mul(cu, b[::3]) == expect[::3]).all()
    assert (nim_mul(b[::-1], cu) == expect[::-1]).all()
    inplace = b.copy()
    nim_mul(inplace, cu, out=inplace)
    assert (inplace == expect).all()
    out = np.zeros(2 * len(b), dtype=np.uint64)
    nim_mul(b, cu, out=out[::2])
    assert (out[::2] == expect).all() and not out[1::2].any()
