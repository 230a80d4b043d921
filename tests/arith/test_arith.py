"""The arithmetic core: reference tables, worked examples, field laws, every path agreeing
with the slow oracle, and bad input."""

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nimbers
from nimbers import (Nimber, field_bits, nim_add, nim_div, nim_inv, nim_mul, nim_pow, nim_sqrt,
                     nim_square)
from conftest import DATA, KERNELS
from oracle import fermat_mul, load_table, mex_mul_table

UNSIGNED = [np.uint8, np.uint16, np.uint32, np.uint64]
SIZES = [8, 16, 32, 64, 128, 256, 4096]


def test_reference_tables(kernel):
    mul = load_table(DATA / "nim_mul_16x16.txt")
    add = load_table(DATA / "nim_add_16x16.txt")
    for a in range(16):
        for b in range(16):
            assert nim_mul(a, b) == mul[a][b]
            assert nim_add(a, b) == add[a][b]
    assert nim_mul.outer(np.arange(16, dtype=np.uint8), np.arange(16, dtype=np.uint8)).tolist() == mul


def test_reference_table_matches_mex_definition():
    assert load_table(DATA / "nim_mul_16x16.txt") == mex_mul_table(16)


def test_guy_worked_examples():
    assert nim_mul(8, 8) == 13
    assert nim_mul(5, 11) == 12
    assert nim_mul(4, 4) == 6 and nim_mul(2, 2) == 3 and nim_mul(6, 3) == 13


@pytest.mark.parametrize("k", range(0, 11))
def test_fermat_power_squared_is_three_halves(k):
    X = 1 << (1 << k)
    assert nim_mul(X, X) == 3 * X // 2
    assert nim_square(X) == 3 * X // 2


@pytest.mark.parametrize("k", range(1, 9))
def test_fermat_power_times_smaller_is_ordinary(k):
    X = 1 << (1 << k)
    rng = random.Random(k)
    for _ in range(20):
        y = rng.randrange(X)
        assert nim_mul(X, y) == X * y


def test_distinct_fermat_powers_multiply_ordinarily():
    fermat = [1 << (1 << k) for k in range(9)]
    prod = 1
    for X in fermat:
        assert nim_mul(prod, X) == prod * X
        prod *= X


@pytest.mark.parametrize("bits", SIZES)
def test_scalar_agrees_with_oracle(bits, kernel):
    rng = random.Random(bits)
    for _ in range(30 if bits <= 256 else 3):
        a, b = rng.getrandbits(bits), rng.getrandbits(bits)
        assert nim_mul(a, b) == fermat_mul(a, b)


@pytest.mark.parametrize("dtype", UNSIGNED)
def test_every_dtype_agrees_with_scalar(dtype, kernel):
    rng = np.random.default_rng(7)
    info = np.iinfo(dtype)
    a = rng.integers(0, info.max, 500, dtype=dtype, endpoint=True)
    b = rng.integers(0, info.max, 500, dtype=dtype, endpoint=True)
    got = nim_mul(a, b)
    assert got.dtype == dtype
    assert got.tolist() == [fermat_mul(int(x), int(y)) for x, y in zip(a, b)]
    objects = nim_mul(a.astype(object), b.astype(object))
    assert objects.dtype == object and objects.tolist() == got.tolist()
    nz = np.where(b == 0, 1, b).astype(dtype)
    assert nim_mul(nim_div(a, nz), nz).tolist() == a.tolist()
    assert nim_square(a).tolist() == [nim_square(int(x)) for x in a]
    assert nim_sqrt(a).tolist() == [nim_sqrt(int(x)) for x in a]
    assert nim_inv(nz).tolist() == [nim_inv(int(x)) for x in nz]
    assert nim_pow(a, 7).tolist() == [nim_pow(int(x), 7) for x in a]
    assert nim_pow(nz, -3).tolist() == [nim_pow(int(x), -3) for x in nz]


def test_kernels_identical():
    if len(KERNELS) < 2:
        pytest.skip("this CPU has no carry-less multiplication")
    rng = np.random.default_rng(1)
    a = rng.integers(0, 2**64, 20000, dtype=np.uint64, endpoint=False)
    b = rng.integers(0, 2**64, 20000, dtype=np.uint64, endpoint=False)
    results = {}
    for k in KERNELS:
        nimbers.set_kernel(k)
        results[k] = (nim_mul(a, b), nim_inv(a | np.uint64(1)), nim_sqrt(a), nim_pow(a, 12345),
                      nim_mul(2**200 + 12345, 3**100), nim_inv(7**150))
    nimbers.set_kernel("auto")
    ref = results["portable"]
    for other in results.values():
        for x, y in zip(ref, other):
            assert np.array_equal(x, y) if isinstance(x, np.ndarray) else x == y


def test_broadcasting_out_and_ufunc_methods(kernel):
    a = np.arange(16, dtype=np.uint64).reshape(4, 4)
    row = np.arange(4, dtype=np.uint64)
    assert nim_mul(a, row).tolist() == [[fermat_mul(int(x), int(y)) for x, y in zip(r, row)] for r in a]
    out = np.zeros((4, 4), dtype=np.uint64)
    res = nim_mul(a, 3, out=out)
    assert res is out and out.tolist() == [[fermat_mul(int(x), 3) for x in r] for r in a]
    x = np.array([3, 5, 7, 9], dtype=np.uint32)
    assert int(nim_mul.reduce(x)) == fermat_mul(fermat_mul(fermat_mul(3, 5), 7), 9)
    assert int(nim_add.reduce(x)) == 3 ^ 5 ^ 7 ^ 9
    assert nim_mul.accumulate(x).tolist() == [3, fermat_mul(3, 5), fermat_mul(fermat_mul(3, 5), 7),
                                              fermat_mul(fermat_mul(fermat_mul(3, 5), 7), 9)]
    assert int(nim_mul.reduce(np.array([], dtype=np.uint64))) == 1
    assert int(nim_add.reduce(np.array([], dtype=np.uint64))) == 0
    y = np.array([1, 2, 3], dtype=np.uint8)
    nim_mul.at(y, [0, 2], 2)
    assert y.tolist() == [2, 2, 1]
    assert nim_mul.reduceat(np.array([2, 3, 4, 5], dtype=np.uint8), [0, 2]).tolist() == [1, fermat_mul(4, 5)]


def test_big_ints_in_arrays():
    big = 2**100 + 3
    got = nim_mul(np.array([1, 2, 3], dtype=np.uint64), big)
    assert got.dtype == object and got.tolist() == [fermat_mul(v, big) for v in (1, 2, 3)]
    assert nim_mul([2**70, 5], [2**70, 11]).tolist() == [fermat_mul(2**70, 2**70), 12]


def test_ufunc_protocol_objects_pass_through():
    class Wrapped:
        def __init__(self, data):
            self.data = data

        def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
            args = [x.data if isinstance(x, Wrapped) else x for x in inputs]
            return Wrapped(getattr(ufunc, method)(*args, **kwargs))

    w = nim_mul(Wrapped(np.array([5], dtype=np.uint64)), np.array([11], dtype=np.uint64))
    assert isinstance(w, Wrapped) and w.data.tolist() == [12]


def test_signed_arrays_without_negatives_work():
    assert nim_mul(np.array([5, 8], dtype=np.int64), np.array([11, 8], dtype=np.int16)).tolist() == [12, 13]
    assert nim_mul(np.array([True, False]), 3).tolist() == [3, 0]


def test_scalar_results_are_python_ints():
    for f, args in [(nim_mul, (3, 5)), (nim_add, (3, 5)), (nim_div, (3, 5)), (nim_pow, (3, 5)),
                    (nim_inv, (3,)), (nim_sqrt, (3,)), (nim_square, (3,)),
                    (nim_mul, (2**100, 2**90))]:
        assert type(f(*args)) is int


def test_pow_conventions():
    assert nim_pow(0, 0) == 1 and nim_pow(0, 5) == 0 and nim_pow(1, -7) == 1
    assert nim_pow(2, 3) == 1  # 2 has order 3 in GF(4)
    a = 0x123456789ABCDEF
    assert nim_pow(a, 2**64 - 1) == 1
    assert nim_pow(a, -(2**200)) == nim_pow(a, -(2**200) % (2**64 - 1))
    b = 2**100 + 12345
    assert nim_pow(b, -1) == nim_inv(b)
    assert nim_pow(b, 2**128 - 1) == 1
    assert nim_pow(np.array([0, 2], dtype=np.uint8), np.array([0, 3])).tolist() == [1, 1]
    assert nim_pow(np.array([2], dtype=np.uint64), 2**70).tolist() == [nim_pow(2, 2**70)]


@pytest.mark.parametrize("value,bits", [(0, 1), (1, 1), (2, 2), (3, 2), (4, 4), (15, 4), (16, 8),
                                        (255, 8), (256, 16), (2**32, 64), (2**64 - 1, 64),
                                        (2**64, 128), (2**4096 - 1, 4096)])
def test_field_bits(value, bits):
    assert field_bits(value) == bits
    if value < 2**64:
        assert int(field_bits(np.array([value], dtype=np.uint64))[0]) == bits


def test_products_stay_in_subfield():
    rng = random.Random(3)
    for bits in (2, 4, 8, 16, 32, 64, 128, 256, 512):
        for _ in range(20):
            a, b = rng.getrandbits(bits), rng.getrandbits(bits)
            assert nim_mul(a, b) < 2**bits
            if a:
                assert nim_inv(a) < 2**bits
            assert nim_sqrt(a) < 2**bits


def test_nimber_type():
    assert Nimber(5) * Nimber(11) == Nimber(12)
    assert repr(Nimber(12)) == "Nimber(12)" and int(Nimber(12)) == 12
    assert Nimber(3) + Nimber(5) == Nimber(6) == Nimber(3) - Nimber(5)
    assert Nimber(12) / Nimber(11) == Nimber(5)
    assert Nimber(2) ** 3 == Nimber(1) and Nimber(2) ** -1 == Nimber(3)
    assert sorted([Nimber(3), Nimber(1), Nimber(2)]) == [Nimber(1), Nimber(2), Nimber(3)]
    assert len({Nimber(3), Nimber(3), Nimber(4)}) == 2
    assert 2 * Nimber(2) == Nimber(3) and Nimber(2) * 2 == Nimber(3)
    with pytest.raises(AttributeError):
        Nimber(3)._value = 4
    with pytest.raises(ZeroDivisionError):
        Nimber(1) / Nimber(0)
    with pytest.raises(ValueError):
        Nimber(-1)
    with pytest.raises(TypeError):
        Nimber(1.5)


# ---- field laws --------------------------------------------------------------------------

def nimbers_of(bits):
    return st.integers(min_value=0, max_value=2**bits - 1)


@pytest.mark.parametrize("bits", SIZES)
def test_field_laws(bits):
    @settings(max_examples=60 if bits <= 256 else 8, deadline=None)
    @given(nimbers_of(bits), nimbers_of(bits), nimbers_of(bits))
    def laws(a, b, c):
        assert nim_mul(a, b) == nim_mul(b, a)
        assert nim_mul(nim_mul(a, b), c) == nim_mul(a, nim_mul(b, c))
        assert nim_mul(a, b ^ c) == nim_mul(a, b) ^ nim_mul(a, c)
        assert nim_mul(a, 1) == a and nim_mul(a, 0) == 0
        assert nim_square(nim_add(a, b)) == nim_square(a) ^ nim_square(b)  # Frobenius
        assert nim_square(nim_sqrt(a)) == a and nim_sqrt(nim_square(a)) == a
        if a:
            assert nim_mul(a, nim_inv(a)) == 1
            assert nim_div(nim_mul(b, a), a) == b

    laws()


@pytest.mark.parametrize("bits", [8, 64, 128])
def test_power_laws(bits):
    @settings(max_examples=40, deadline=None)
    @given(nimbers_of(bits), st.integers(-1000, 1000), st.integers(-50, 50))
    def laws(a, k, m):
        if a == 0 and (k < 0 or m < 0 or k * m < 0):
            return
        assert nim_pow(nim_pow(a, k), m) == nim_pow(a, k * m)
        if a:
            assert nim_mul(nim_pow(a, k), nim_pow(a, m)) == nim_pow(a, k + m)

    laws()


# ---- bad input ---------------------------------------------------------------------------

@pytest.mark.parametrize("bad", [-1, -(2**100)])
def test_negative_ints(bad):
    for f in (nim_square, nim_sqrt, nim_inv):
        with pytest.raises(ValueError, match="non-negative"):
            f(bad)
    for f in (nim_add, nim_mul, nim_div):
        with pytest.raises(ValueError, match="non-negative"):
            f(bad, 3)
        with pytest.raises(ValueError, match="non-negative"):
            f(3, bad)
    with pytest.raises(ValueError, match="-1"):
        nim_mul(-1, 2)


@pytest.mark.parametrize("bad", [1.5, "3", None, 2j, b"1"])
def test_non_integers(bad):
    for f in (nim_mul, nim_add, nim_div):
        with pytest.raises(TypeError):
            f(bad, 3)
        with pytest.raises(TypeError):
            f(3, bad)
    with pytest.raises(TypeError):
        nim_inv(bad)
    with pytest.raises(TypeError):
        field_bits(bad)


def test_bad_arrays():
    with pytest.raises(ValueError, match="negative"):
        nim_mul(np.array([1, -2]), np.array([1, 2]))
    with pytest.raises(TypeError):
        nim_mul(np.array([1.0, 2.0]), 3)
    with pytest.raises(TypeError):
        nim_mul(np.array(["a"]), 3)
    with pytest.raises(ValueError):
        nim_mul(np.array([1, -2], dtype=object), 3)
    with pytest.raises(TypeError):
        nim_mul(np.array([1, 2.5], dtype=object), 3)
    with pytest.raises(TypeError):
        nim_pow(np.array([2], dtype=np.uint8), 1.5)


def test_zero_divisors():
    with pytest.raises(ZeroDivisionError):
        nim_inv(0)
    with pytest.raises(ZeroDivisionError):
        nim_div(5, 0)
    with pytest.raises(ZeroDivisionError):
        nim_pow(0, -1)
    with pytest.raises(ZeroDivisionError):
        nim_inv(np.array([1, 0, 2], dtype=np.uint64))
    with pytest.raises(ZeroDivisionError):
        nim_div(np.array([1, 2]), np.array([3, 0], dtype=np.uint8))
    with pytest.raises(ZeroDivisionError):
        nim_div(np.array([1, 2], dtype=object), np.array([3, 0], dtype=object))
    with pytest.raises(ZeroDivisionError):
        nim_pow(np.array([0, 2], dtype=np.uint16), -1)


def test_empty_inputs():
    e = np.array([], dtype=np.uint64)
    assert nim_mul(e, e).shape == (0,)
    assert nim_inv(e).shape == (0,)
    assert nim_mul([], []).shape == (0,)


def test_too_large_is_refused():
    with pytest.raises(ValueError, match="2\\^24"):
        nim_mul(1 << (1 << 25), 3)


def test_wrong_operand_count():
    with pytest.raises(TypeError):
        nim_mul(1)
    with pytest.raises(TypeError):
        nim_inv(1, 2)


@pytest.mark.parametrize("dtype", UNSIGNED + [object])
def test_reduce_and_accumulate_chain_in_order(dtype, kernel):
    """Reductions and accumulations feed each result into the next product: the array loops
    must not read ahead (a bug the blocked carry-less loop once had)."""
    rng = np.random.default_rng(11)
    top = 2**64 if dtype is object else np.iinfo(dtype).max + 1
    x = np.array([int(v) % top for v in rng.integers(1, 2**63, 300, dtype=np.uint64)], dtype=dtype)
    running, expected = 1, []
    for v in x.tolist():
        running = fermat_mul(running, int(v))
        expected.append(running)
    assert nim_mul.accumulate(x).tolist() == expected
    assert int(nim_mul.reduce(x)) == expected[-1]
    m = x[:240].reshape(12, 20)
    for axis in (0, 1):
        cols = m if axis == 1 else m.T
        want = []
        for row in cols.tolist():
            acc = 1
            for v in row:
                acc = fermat_mul(acc, int(v))
            want.append(acc)
        assert nim_mul.reduce(m, axis=axis).tolist() == want
    inplace = x.copy()
    nim_mul(inplace, inplace, out=inplace)
    assert inplace.tolist() == [fermat_mul(int(v), int(v)) for v in x]
    shifted = x.copy()
    nim_mul(shifted[:-1], shifted[1:], out=shifted[1:])  # overlapping: numpy buffers it
    assert shifted[1:].tolist() == [fermat_mul(int(a), int(b)) for a, b in zip(x[:-1], x[1:])]


def test_lists_mixing_big_and_small_ints_stay_exact():
    a = 10995706271387654296  # above 2^63: numpy alone would make the list float64
    got = nim_mul([a, 5], 3)
    assert got.dtype == np.uint64 and got.tolist() == [fermat_mul(a, 3), fermat_mul(5, 3)]
    assert nim_mul([2**70, 5], 3).tolist() == [fermat_mul(2**70, 3), 15]


def test_object_arrays_are_validated_even_without_a_product():
    with pytest.raises(ValueError):
        nim_mul.reduce(np.array([-5], dtype=object))
    with pytest.raises(TypeError):
        nim_mul.reduce(np.array([1.5], dtype=object))


def test_outer_power_checks_every_pair_for_zero_divisors():
    with pytest.raises(ZeroDivisionError):
        nim_pow.outer(np.array([3, 0], dtype=np.uint8), np.array([-1, 2], dtype=np.int8))
    table = nim_pow.outer(np.array([3, 0], dtype=np.uint8), np.array([0, 2], dtype=np.int8))
    assert table.tolist() == [[1, nim_pow(3, 2)], [1, 0]]
