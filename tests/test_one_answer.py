"""One answer (issue 29, items 6 and 7): a numpy integer is an integer wherever it stands (in an
object array as beside one), a float is refused in the same words on every path (scalar,
array, the bare ufunc, its methods, dask), and an apparent period is offered with its
evidence or not at all."""

from __future__ import annotations

import numpy as np
import pytest

from nimbers import Nimber, nim_add, nim_div, nim_mul, nim_pow, nim_sqrt, nim_square

NUMPY_INTS = [np.uint8(3), np.uint16(3), np.uint32(3), np.uint64(3), np.int8(3), np.int16(3),
              np.int32(3), np.int64(3)]


@pytest.mark.parametrize("x", NUMPY_INTS, ids=lambda x: type(x).__name__)
def test_numpy_integers_in_object_arrays_are_integers(x):
    objects = np.array([x, 5], dtype=object)
    assert nim_mul(objects, 3).tolist() == [nim_mul(x, 3), nim_mul(5, 3)] == [2, 15]
    assert nim_add(objects, 1).tolist() == [2, 4]
    assert nim_pow(objects, 2).tolist() == [nim_mul(3, 3), nim_mul(5, 5)]
    assert nim_pow(np.array([2], dtype=object), np.array([x], dtype=object)).tolist() == [1]
    assert nim_sqrt(objects).tolist() == [nim_sqrt(3), nim_sqrt(5)]
    assert nim_div(objects, np.array([x, x], dtype=object)).tolist() == [1, nim_div(5, 3)]
    assert all(type(v) is int for v in nim_mul(objects, 3).tolist())


def test_numpy_bools_and_nimbers_beside_them():
    mixed = np.array([np.bool_(True), Nimber(3), 2**70, np.int64(6)], dtype=object)
    got = nim_mul(mixed, 3).tolist()
    assert got == [3, Nimber(2), nim_mul(2**70, 3), nim_mul(6, 3)]
    assert type(got[1]) is Nimber
    with pytest.raises(ValueError, match="non-negative"):
        nim_mul(np.array([np.int64(-3)], dtype=object), 3)


FLOAT_CALLS = {
    "python float": lambda: nim_mul(2.0, 3),
    "numpy float scalar": lambda: nim_mul(np.float64(2.0), 3),
    "float array and int": lambda: nim_mul(np.array([2.0]), 3),
    "int array and float array": lambda: nim_mul(np.array([3]), np.array([2.5], np.float32)),
    "float arrays": lambda: nim_mul(np.array([2.0]), np.array([3.0])),
    "complex array": lambda: nim_mul(np.array([1j]), 3),
    "float beside objects": lambda: nim_mul(np.array([2.0]), np.array([3], dtype=object)),
    "float in an object array": lambda: nim_mul(np.array([2.0], dtype=object), 3),
    "list of floats": lambda: nim_mul([2.0, 3.0], 3),
    "unary": lambda: nim_square(np.array([2.0])),
    "power": lambda: nim_pow(np.array([2.0]), 2),
    "the bare ufunc": lambda: nim_mul.ufunc(np.array([2.0]), np.array([1])),
    "outer": lambda: nim_mul.outer(np.array([2.0]), np.array([1])),
    "reduce": lambda: nim_mul.reduce(np.array([2.0, 1.0])),
    "int array and python float": lambda: nim_mul(np.array([3]), 2.5),
}


@pytest.mark.parametrize("name", list(FLOAT_CALLS))
def test_floats_are_refused_in_the_same_words_everywhere(name):
    with pytest.raises(TypeError, match="^nim arithmetic takes integers, not (float|complex)"):
        FLOAT_CALLS[name]()


def test_floats_in_dask_are_refused_in_the_same_words():
    da = pytest.importorskip("dask.array")
    x = da.from_array(np.array([2.0, 3.0]), chunks=1)
    for call in (lambda: nim_mul(x, 3), lambda: nim_mul(x, x).compute(),
                 lambda: nim_mul(da.from_array(np.array([3], dtype=np.uint8)), 2.5)):
        with pytest.raises(TypeError, match="^nim arithmetic takes integers"):
            call()
