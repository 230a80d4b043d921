"""The ufunc protocol, on numpy and on a real foreign array (dask): one semantics everywhere.

The checks an array library relies on: broadcasting, out=, where=, dtype=, axis=,
keepdims=, initial=, outer/reduce/accumulate/reduceat/at, the error semantics raised from
inside the loops, pickling, and a computation under dask's process scheduler.
"""

import pickle

import numpy as np
import pytest

import nimbers
from nimbers import _core, nim_add, nim_div, nim_inv, nim_mul, nim_pow, nim_sqrt, nim_square
from oracle import fermat_mul

da = pytest.importorskip("dask.array")
dask = pytest.importorskip("dask")

INT_DTYPES = [np.uint8, np.uint16, np.uint32, np.uint64, np.int8, np.int16, np.int32, np.int64]


def oracle_table(a, b):
    return [[fermat_mul(int(x), int(y)) for y in b] for x in a]


# ---- the public model ------------------------------------------------------------------------


def test_the_array_path_is_a_real_ufunc():
    for op in (nim_add, nim_mul, nim_div, nim_pow, nim_square, nim_sqrt, nim_inv):
        assert isinstance(op.ufunc, np.ufunc)
        assert op.ufunc is getattr(_core, op.__name__)
        assert op.nin == op.ufunc.nin and op.identity == op.ufunc.identity
    assert nim_mul.identity == 1 and nim_add.identity == 0


def test_pickling_of_operations_ufuncs_and_nimbers():
    for op in (nim_mul, nim_mul.ufunc, nim_inv, nim_inv.ufunc):
        assert pickle.loads(pickle.dumps(op)) is op


# ---- numpy semantics ---------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_every_integer_dtype_gives_the_scalar_answers(dtype):
    top = min(np.iinfo(dtype).max, 2**40)
    a = np.array([0, 1, 2, 3, 7, 100, top // 3, top], dtype=dtype)
    b = a[::-1].copy()
    got = nim_mul(a, b)
    assert got.dtype.kind == "u" and got.dtype.itemsize == a.dtype.itemsize
    assert got.tolist() == [fermat_mul(int(x), int(y)) for x, y in zip(a, b)]
    assert nim_mul.ufunc(a, b).tolist() == got.tolist()


def test_mixed_dtypes_never_wrap():
    big = np.array([2**63 + 5, 7], dtype=np.uint64)
    small = np.array([3, 4], dtype=np.int8)
    assert nim_mul(big, small).tolist() == [fermat_mul(2**63 + 5, 3), fermat_mul(7, 4)]
    assert nim_mul(small, big).dtype == np.uint64


def test_byte_order_and_layout():
    a = np.arange(40, dtype=">u4")[::3]
    b = np.asfortranarray(np.arange(12, dtype="<i8").reshape(3, 4))
    assert nim_mul(a, a).tolist() == [fermat_mul(int(x), int(x)) for x in a]
    assert nim_mul(b, b).tolist() == [[fermat_mul(int(x), int(x)) for x in row] for row in b]


def test_broadcasting_out_where_dtype():
    a = np.arange(12, dtype=np.uint16).reshape(3, 4)
    col = np.array([[1], [2], [3]], dtype=np.uint16)
    assert nim_mul(a, col).tolist() == [[fermat_mul(int(x), int(c[0])) for x in row]
                                        for row, c in zip(a, col)]
    out = np.full(4, 99, dtype=np.uint16)
    r = nim_mul(a[1], 5, out=out, where=a[1] % 2 == 0)
    assert r is out
    assert out.tolist() == [fermat_mul(int(x), 5) if x % 2 == 0 else 99 for x in a[1]]
    assert nim_mul(np.arange(4, dtype=np.uint8), 3, dtype=np.uint64).dtype == np.uint64


def test_reductions_axis_keepdims_initial():
    a = np.arange(1, 13, dtype=np.int32).reshape(3, 4)
    rows = nim_mul.reduce(a, axis=1, keepdims=True)
    assert rows.shape == (3, 1)
    expect = []
    for row in a.tolist():
        p = 1
        for v in row:
            p = fermat_mul(p, v)
        expect.append([p])
    assert rows.tolist() == expect
    assert int(nim_add.reduce(a, axis=None)) == np.bitwise_xor.reduce(a, axis=None)
    assert int(nim_mul.reduce(np.array([], np.uint8))) == 1
    assert int(nim_mul.reduce(np.array([3], np.uint8), initial=2)) == fermat_mul(2, 3)


def test_accumulate_reduceat_outer_at():
    a = np.array([2, 3, 4, 5], dtype=np.int64)
    running, p = [], 1
    for v in a.tolist():
        p = fermat_mul(p, v)
        running.append(p)
    assert nim_mul.accumulate(a).tolist() == running
    assert nim_add.reduceat(np.arange(8), [0, 4]).tolist() == [0, 0]
    assert nim_mul.outer([0, 1, 2, 3], [0, 1, 2, 3]).tolist() == oracle_table(range(4), range(4))
    x = np.arange(6, dtype=np.uint64)
    nim_mul.at(x, [1, 2, 2], 3)
    assert x.tolist() == [0, 3, fermat_mul(fermat_mul(2, 3), 3), 3, 4, 5]


# ---- errors come from the loops, on every path -------------------------------------------------


@pytest.mark.parametrize("call", [
    lambda: nim_mul(np.array([1, -2]), 3),
    lambda: nim_mul.ufunc(np.array([1, -2]), np.array([3, 3])),
    lambda: nim_mul.reduce(np.array([-3])),           # one element: still checked
    lambda: nim_add.reduce(np.array([[1, -1]]), axis=1),
    lambda: nim_mul.accumulate(np.array([2, -1])),
    lambda: nim_mul.outer(np.array([1, -1]), np.array([2])),
    lambda: nim_mul.reduce(np.array([-3], dtype=object)),
])
def test_negative_entries_raise_value_error(call):
    with pytest.raises(ValueError, match="non-negative"):
        call()


@pytest.mark.parametrize("call", [
    lambda: nim_inv(np.array([1, 0], np.uint32)),
    lambda: nim_div(np.array([5, 6]), np.array([1, 0])),
    lambda: nim_pow(np.array([0, 2], np.uint8), -1),
    lambda: nim_inv.ufunc(np.array([0], np.int8)),
])
def test_zero_divisors_raise_zero_division_error(call):
    with pytest.raises(ZeroDivisionError):
        call()


def test_non_integers_raise_type_error():
    for bad in (np.array([1.5]), [1.5, 2], "3", None):
        with pytest.raises(TypeError):
            nim_mul(bad, 3)


# ---- dask: lazy, distributed, same semantics ---------------------------------------------------


def test_dask_elementwise_is_lazy_and_exact():
    x = da.arange(20, chunks=6)
    y = nim_mul(x, x)
    assert isinstance(y, da.Array)
    assert y.dtype == np.uint64
    assert y.compute().tolist() == [fermat_mul(v, v) for v in range(20)]
    assert isinstance(nim_pow(x, 3), da.Array) and isinstance(nim_inv(x + 1), da.Array)
    assert nim_inv(x + 1).compute().tolist() == nim_inv(np.arange(1, 21)).tolist()


def test_dask_graphs_are_built_without_computing():
    calls = []

    def counted(block):
        calls.append(1)
        return block

    x = da.arange(10, chunks=5).map_blocks(counted, dtype=np.int64, meta=np.array((), np.int64))
    graph = nim_mul.reduce(nim_add(nim_inv(x + 1), 3))
    graph = nim_mul.outer(graph[None], x)
    assert calls == []
    graph.compute()
    assert calls


def test_dask_errors_are_the_loops_errors():
    with pytest.raises(ZeroDivisionError):
        nim_inv(da.arange(5, chunks=2)).compute()
    with pytest.raises(ValueError, match="non-negative"):
        nim_mul(da.from_array(np.array([1, -2, 3]), chunks=2), 3).compute()


def test_dask_outer_reduce_accumulate():
    a = np.arange(1, 11, dtype=np.int64)
    x = da.from_array(a, chunks=3)
    assert nim_mul.outer(x, x).compute().tolist() == nim_mul.outer(a, a).tolist()
    assert int(nim_mul.reduce(x).compute()) == int(nim_mul.reduce(a))
    m = da.from_array(a.reshape(2, 5), chunks=(1, 2))
    assert nim_add.reduce(m, axis=1).compute().tolist() == nim_add.reduce(a.reshape(2, 5),
                                                                          axis=1).tolist()
    assert nim_mul.accumulate(x).compute().tolist() == nim_mul.accumulate(a).tolist()


def test_dask_process_scheduler():
    x = da.arange(40, chunks=10)
    with dask.config.set(scheduler="processes", num_workers=2):
        got = nim_mul(x, 7).compute()
    assert got.tolist() == [fermat_mul(v, 7) for v in range(40)]


def test_public_names_reach_the_ufuncs():
    assert nimbers.nim_mul.ufunc.__name__ == "nim_mul"


@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_nim_add_is_xor_on_contiguous_blocks(dtype):
    """The contiguous nim-sum loop (vectorized, signs checked a block at a time) must agree
    with XOR, in accumulations too (the output overlaps the input one element behind)."""
    a = (np.arange(5000) % 100).astype(dtype)
    b = a[::-1].copy()
    assert (nim_add(a, b) == np.bitwise_xor(a, b)).all()
    assert (nim_add.accumulate(a) == np.bitwise_xor.accumulate(a)).all()
    if np.dtype(dtype).kind == "i":
        bad = a.copy()
        bad[3333] = -7
        with pytest.raises(ValueError, match="-7"):
            nim_add(bad, b)


def test_multiprocessing_pool_maps_the_operations():
    """The operations pickle by name, so a process pool can map them (spawn: a fresh
    interpreter per worker, the strictest start method)."""
    import multiprocessing

    with multiprocessing.get_context("spawn").Pool(2) as pool:
        inverses = pool.map(nim_inv, range(1, 200))
        products = pool.starmap(nim_mul, [(x, x + 1) for x in range(100)])
        arrays = pool.map(nim_square, [np.arange(5, dtype=np.uint16)] * 3)
    assert all(fermat_mul(x, y) == 1 for x, y in zip(range(1, 200), inverses))
    assert products == [fermat_mul(x, x + 1) for x in range(100)]
    assert all(a.tolist() == [fermat_mul(v, v) for v in range(5)] for a in arrays)
