"""Nimber arithmetic on lazy and distributed arrays (dask), through the same ufuncs.

The ufuncs of nimbers validate inside their loops, so a dask array gets exactly numpy's
semantics chunk by chunk, and nothing is computed until ``.compute()``.  Two things dask
cannot do on its own with a third-party ufunc, and this module does for it:

- infer the result's dtype: dask runs the operation on uninitialised one-element arrays,
  which a validating loop rightly refuses (a zero to invert, a negative entry), so the
  element-wise call passes the dtype numpy resolves without running a loop;
- ``outer``, ``reduce`` and ``accumulate``: dask routes these only for numpy's own ufuncs;
  here they are built from ``dask.array.blockwise``, ``reduction`` and ``cumreduction``.

The public operations use this module by themselves whenever an operand is a dask array:

>>> import dask.array as da
>>> from nimbers import nim_mul
>>> x = da.arange(1, 9, chunks=3)
>>> y = nim_mul(x, 3)                      # a lazy dask array: a graph, nothing computed
>>> y.compute().tolist()
[3, 1, 2, 12, 15, 13, 14, 4]
>>> int(nim_mul.reduce(x).compute())       # the nim-product of 1..8, chunk by chunk
8
>>> nim_mul.outer(x[:3], x[:3]).compute().tolist()
[[1, 2, 3], [2, 3, 1], [3, 1, 2]]

A cluster is dask's business: the same calls run on a ``dask.distributed`` client, and the
ufuncs pickle by name for its worker processes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["is_lazy", "elementwise", "outer", "reduce", "accumulate", "unsigned_view"]


def is_lazy(x: Any) -> bool:
    """Whether x is an array of another library (dask, ...) that speaks the ufunc protocol.

    >>> import numpy as np
    >>> is_lazy(np.arange(3)), is_lazy(5)
    (False, False)
    """
    return hasattr(x, "__array_ufunc__") and not isinstance(x, (np.ndarray, np.generic))


def _dtype_of(x: Any) -> Any:
    if isinstance(x, int):
        return int  # a Python int: NEP 50's weak scalar
    return np.dtype(x.dtype)


def elementwise(ufunc: np.ufunc, *operands: Any, **kwargs: Any) -> Any:
    """ufunc(*operands) with the result's dtype resolved by numpy, for lazy libraries.

    >>> import dask.array as da
    >>> from nimbers import nim_inv
    >>> elementwise(nim_inv.ufunc, da.arange(1, 4, chunks=2)).compute().tolist()
    [1, 3, 2]
    """
    known = all(isinstance(x, int) or hasattr(x, "dtype") for x in operands)
    if known and "dtype" not in kwargs and "signature" not in kwargs:
        dtypes = tuple(_dtype_of(x) for x in operands) + (None,) * ufunc.nout
        kwargs["dtype"] = ufunc.resolve_dtypes(dtypes)[-1]
    return ufunc(*operands, **kwargs)


def unsigned_view(a: Any) -> Any:
    """A signed (or boolean) numpy array as unsigned of the same width, after checking that it
    holds no negative entry: numpy runs ``accumulate`` and ``reduceat`` only where input and
    output share a dtype.  Other arrays are returned as they are.

    >>> import numpy as np
    >>> unsigned_view(np.array([1, 2], dtype=np.int16)).dtype
    dtype('uint16')
    """
    if isinstance(a, np.ndarray) and a.dtype.kind in "ib":
        if a.dtype.kind == "i" and a.size and a.min() < 0:
            raise ValueError(f"nimbers are non-negative integers, got {a.min()}")
        return a.astype(np.dtype(f"u{a.dtype.itemsize}"))
    return a


def _result_dtype(ufunc: np.ufunc, *dtypes: Any) -> np.dtype:
    return ufunc.resolve_dtypes(tuple(dtypes) + (None,))[-1]


def outer(ufunc: np.ufunc, a: Any, b: Any) -> Any:
    """The table ufunc(a[i...], b[j...]) of two dask arrays, block by block."""
    import dask.array as da

    a, b = da.asarray(a), da.asarray(b)
    a_ind = tuple(range(a.ndim))
    b_ind = tuple(range(a.ndim, a.ndim + b.ndim))
    dtype = _result_dtype(ufunc, a.dtype, b.dtype)
    return da.blockwise(ufunc.outer, a_ind + b_ind, a, a_ind, b, b_ind, dtype=dtype)


def reduce(ufunc: np.ufunc, a: Any, axis: Any = 0, keepdims: bool = False) -> Any:
    """ufunc.reduce along axis (None: all axes) of a dask array: each chunk reduced, then
    the partial results (an associative, commutative operation: add and mul)."""
    import dask.array as da

    if ufunc.identity is None:
        raise TypeError(f"{ufunc.__name__} has no identity: reduce it with numpy arrays")
    a = da.asarray(a)
    dtype = _result_dtype(ufunc, a.dtype, a.dtype)

    def partial(x: Any, axis: Any, keepdims: bool) -> Any:
        return ufunc.reduce(x, axis=axis, keepdims=keepdims)

    return da.reduction(a, partial, partial, axis=axis, keepdims=keepdims, dtype=dtype,
                        concatenate=True)


def accumulate(ufunc: np.ufunc, a: Any, axis: int = 0) -> Any:
    """ufunc.accumulate along axis of a dask array (each chunk, then the carries)."""
    import dask.array as da

    if ufunc.identity is None:
        raise TypeError(f"{ufunc.__name__} has no identity: accumulate it with numpy arrays")
    a = da.asarray(a)
    dtype = _result_dtype(ufunc, a.dtype, a.dtype)
    unsigned = a.map_blocks(unsigned_view, dtype=dtype)  # numpy needs one dtype here

    def running(x: Any, axis: int, dtype: Any = None) -> Any:
        return ufunc.accumulate(x, axis=axis)

    from dask.array.reductions import cumreduction

    return cumreduction(running, ufunc, ufunc.identity, unsigned, axis=axis, dtype=dtype)
