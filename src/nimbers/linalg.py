"""Linear algebra over the nim field: determinant (= permanent), rank, inverse, solve,
null space, products and reduced row echelon form, all exact.

Two paths, one algorithm (Gaussian elimination in C, with the GIL released):

- numpy arrays of integers (entries < 2^64, uint64 or non-negative signed) take the 64-bit
  path and give numpy uint64 results;
- lists of lists and object arrays hold Python ints of any size.  Their entries are stored as
  limbs of the smallest nim field GF(2^(64 n)) holding all of them (n = 1 when every entry is
  below 2^64, the same fast path), and results come back as object arrays of Python ints.

The field has characteristic 2, so a row swap does not change the determinant's sign (-1 = 1):
the classic trap of generic elimination code does not apply, and the permanent equals the
determinant (so the permanent of a 150 x 150 matrix, a known contest problem on the nim
field, is a Gaussian elimination away; Lenstra, "Nim multiplication", for the field).

>>> det([[1, 2], [3, 4]])        # 1 (x) 4 (+) 2 (x) 3 = 4 (+) 1
5
>>> A = np.array([[1, 2], [3, 4]], dtype=np.uint64)
>>> matmul(A, inv(A)).tolist()
[[1, 0], [0, 1]]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _core
from .nimber import Nimber

__all__ = ["LinAlgError", "det", "permanent", "rank", "inv", "solve", "nullspace", "matmul",
           "row_reduce"]


class LinAlgError(np.linalg.LinAlgError):
    """A singular matrix or an inconsistent system (a ValueError, as numpy's)."""


# ---- conversion between the user's matrices and the core's (rows, cols, limbs) arrays -----


class _Matrix:
    """A matrix as the core takes it, and how to give results back in the user's form."""

    def __init__(self, limbs: np.ndarray, objects: bool) -> None:
        self.limbs = limbs  # uint64, shape (rows, cols, n), C-contiguous
        self.objects = objects  # results as Python ints (object arrays)

    @property
    def shape(self) -> tuple[int, int]:
        return self.limbs.shape[0], self.limbs.shape[1]


def _field_limbs(max_bits: int) -> int:
    words = max(1, -(-max_bits // 64))
    n = 1
    while n < words:
        n *= 2
    return n


def _matrix(m: Any, name: str = "matrix", vector_ok: bool = False) -> _Matrix:
    """Validates a matrix (or, when vector_ok, a vector: one column)."""
    if isinstance(m, np.ndarray) and m.dtype != object:
        arr = m
        kind = arr.dtype.kind
        if kind not in "uib":
            raise TypeError(f"the {name} must hold non-negative integers, not {arr.dtype}")
        if kind == "i" and arr.size and arr.min() < 0:
            raise ValueError(f"the {name} holds a negative entry: nimbers are non-negative")
        arr = _shape_check(arr, name, vector_ok)
        return _Matrix(np.ascontiguousarray(arr, dtype=np.uint64)[:, :, None].copy(), False)
    try:
        arr = np.array(m, dtype=object)
    except ValueError:
        raise ValueError(f"the {name} has rows of different lengths") from None
    arr = _shape_check(arr, name, vector_ok)
    if any(isinstance(v, Nimber) for v in arr.flat):
        arr = np.frompyfunc(int, 1, 1)(arr)
    bits = 0
    for v in arr.flat:
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
            raise TypeError(f"the {name} must hold non-negative integers, not {type(v).__name__}")
        if v < 0:
            raise ValueError(f"the {name} holds a negative entry {v}: nimbers are non-negative")
        bits = max(bits, int(v).bit_length())
    n = _field_limbs(bits)
    if n * 64 > _core.MAX_BITS:
        raise ValueError("entries of more than 2^24 bits are not supported")
    if n == 1:
        limbs = arr.astype(np.uint64)[:, :, None].copy()
    else:
        raw = b"".join(int(v).to_bytes(8 * n, "little") for v in arr.flat)
        limbs = np.frombuffer(raw, dtype="<u8").astype(np.uint64).reshape(arr.shape + (n,)).copy()
    return _Matrix(limbs, True)


def _shape_check(arr: np.ndarray, name: str, vector_ok: bool) -> np.ndarray:
    if vector_ok and arr.ndim == 1:
        return arr.reshape(-1, 1)
    if arr.ndim != 2:
        if arr.ndim == 1 and arr.size == 0:
            return arr.reshape(0, 0)
        raise ValueError(f"the {name} must be 2-dimensional, got {arr.ndim} dimension(s)")
    return arr


def _to_int(limbs: np.ndarray) -> int:
    if limbs.shape[-1] == 1:
        return int(limbs[0])
    return int.from_bytes(limbs.astype("<u8").tobytes(), "little")


def _result(limbs: np.ndarray, objects: bool) -> np.ndarray:
    """A (rows, cols, n) array back in the user's form."""
    if not objects:
        return limbs[:, :, 0].copy()
    rows, cols, _ = limbs.shape
    out = np.empty((rows, cols), dtype=object)
    for i in range(rows):
        for j in range(cols):
            out[i, j] = _to_int(limbs[i, j])
    return out


def _widen(m: _Matrix, n: int) -> _Matrix:
    """The same matrix with n limbs per entry (to share a field with another)."""
    have = m.limbs.shape[2]
    if have == n:
        return m
    wide = np.zeros(m.limbs.shape[:2] + (n,), dtype=np.uint64)
    wide[:, :, :have] = m.limbs
    return _Matrix(wide, m.objects)


def _pair(a: Any, b: Any, names: tuple[str, str], vector_ok: bool = False) -> tuple[_Matrix, _Matrix]:
    ma, mb = _matrix(a, names[0]), _matrix(b, names[1], vector_ok=vector_ok)
    n = max(ma.limbs.shape[2], mb.limbs.shape[2])
    objects = ma.objects or mb.objects
    ma, mb = _widen(ma, n), _widen(mb, n)
    ma.objects = mb.objects = objects
    return ma, mb


def _square(m: _Matrix, what: str) -> None:
    r, c = m.shape
    if r != c:
        raise ValueError(f"{what} needs a square matrix, got {r} x {c}")


# ---- the operations ------------------------------------------------------------------------


def det(m: Any) -> int:
    """The determinant over the nim field, by Gaussian elimination (O(n^3) products).

    Parameters
    ----------
    m : array_like
        A matrix of non-negative integers: a numpy integer array (64-bit fast path) or
        nested lists / an object array of Python ints of any size (or Nimbers).

    Returns
    -------
    int
        The determinant; the 0 x 0 matrix has determinant 1, as in numpy.

    Raises
    ------
    ValueError
        For a matrix that is not square, or a negative entry.
    TypeError
        For entries that are not integers.

    Examples
    --------
    >>> det([[2, 3], [1, 1]])        # 2 (+) 3
    1
    >>> det(np.zeros((0, 0), dtype=np.uint64))
    1
    """
    mat = _matrix(m)
    _square(mat, "det")
    if mat.shape[0] == 0:
        return 1
    return _core.det(mat.limbs)


def permanent(m: Any) -> int:
    """The permanent over the nim field, which equals the determinant: the two sums over
    permutations differ only in the signs (-1)^sign(p), and -1 = 1 in characteristic 2.

    Parameters
    ----------
    m : array_like
        A matrix of non-negative integers: a numpy integer array (64-bit fast path) or
        nested lists / an object array of Python ints of any size (or Nimbers).

    Returns
    -------
    int
        The permanent (= the determinant).

    Examples
    --------
    >>> permanent([[1, 2], [3, 4]]) == det([[1, 2], [3, 4]])
    True
    """
    return det(m)


def row_reduce(m: Any) -> tuple[np.ndarray, list[int]]:
    """The reduced row echelon form and the pivot columns.

    Parameters
    ----------
    m : array_like
        A matrix of non-negative integers: a numpy integer array (64-bit fast path) or
        nested lists / an object array of Python ints of any size (or Nimbers).

    Returns
    -------
    R : ndarray
        The reduced row echelon form (uint64, or object for entries past 64 bits).
    pivots : list of int
        The pivot column of each non-zero row of R.

    Examples
    --------
    >>> R, pivots = row_reduce([[1, 2], [2, 3]])   # row 2 = 2 (x) row 1
    >>> R.tolist(), pivots
    ([[1, 2], [0, 0]], [0])
    """
    mat = _matrix(m)
    if 0 in mat.shape:
        return _result(mat.limbs, mat.objects), []
    _, pivots, _ = _core.row_reduce(mat.limbs, None)
    return _result(mat.limbs, mat.objects), pivots


def rank(m: Any) -> int:
    """The rank over the nim field.

    Parameters
    ----------
    m : array_like
        A matrix of non-negative integers: a numpy integer array (64-bit fast path) or
        nested lists / an object array of Python ints of any size (or Nimbers).

    Returns
    -------
    int
        The rank.

    Examples
    --------
    >>> rank([[1, 2], [2, 3]]), rank([[1, 2], [3, 4]])
    (1, 2)
    """
    mat = _matrix(m)
    if 0 in mat.shape:
        return 0
    r, _, _ = _core.row_reduce(mat.limbs, None)
    return r


def inv(m: Any) -> np.ndarray:
    """The inverse matrix over the nim field.

    Parameters
    ----------
    m : array_like
        A matrix of non-negative integers: a numpy integer array (64-bit fast path) or
        nested lists / an object array of Python ints of any size (or Nimbers).

    Returns
    -------
    ndarray
        The inverse.

    Raises
    ------
    LinAlgError
        For a singular matrix.
    ValueError
        For a matrix that is not square.

    Examples
    --------
    >>> inv([[2]]).tolist()
    [[3]]
    """
    mat = _matrix(m)
    _square(mat, "inv")
    n = mat.shape[0]
    eye = np.zeros((n, n, mat.limbs.shape[2]), dtype=np.uint64)
    eye[np.arange(n), np.arange(n), 0] = 1
    if n == 0:
        return _result(eye, mat.objects)
    r, _, _ = _core.row_reduce(mat.limbs, eye)
    if r < n:
        raise LinAlgError(f"singular matrix: rank {r} < {n}")
    return _result(eye, mat.objects)


def solve(a: Any, b: Any) -> np.ndarray:
    """The unique x with a @ x = b over the nim field.

    Parameters
    ----------
    a : array_like
        The coefficient matrix (as for :func:`det`).
    b : array_like
        The right-hand side: a vector, or a matrix (one system per column).

    Returns
    -------
    ndarray
        x, a vector for a vector b.

    Raises
    ------
    LinAlgError
        When the system has no solution (inconsistent) or more than one (a is singular:
        see :func:`nullspace`).
    ValueError
        When the shapes do not match.

    Examples
    --------
    >>> solve([[1, 2], [3, 4]], [5, 11]).tolist()
    [3, 13]
    """
    vector = np.ndim(b) == 1
    ma, mb = _pair(a, b, ("coefficient matrix", "right-hand side"), vector_ok=True)
    rows, cols = ma.shape
    if mb.shape[0] != rows:
        raise ValueError(f"a has {rows} rows but b has {mb.shape[0]}")
    if rows == 0 or cols == 0:
        raise LinAlgError("empty system")
    r, pivots, _ = _core.row_reduce(ma.limbs, mb.limbs)
    k = mb.shape[1]
    if r < rows and mb.limbs[r:].any():
        raise LinAlgError("inconsistent system: no solution")
    if r < cols:
        raise LinAlgError(f"singular system: rank {r} < {cols} unknowns, no unique solution")
    x = np.zeros((cols, k, ma.limbs.shape[2]), dtype=np.uint64)
    for i, p in enumerate(pivots):
        x[p] = mb.limbs[i]
    out = _result(x, ma.objects)
    return out[:, 0] if vector else out


def nullspace(m: Any) -> np.ndarray:
    """A basis of the null space {x : m @ x = 0}.

    Parameters
    ----------
    m : array_like
        A matrix of non-negative integers: a numpy integer array (64-bit fast path) or
        nested lists / an object array of Python ints of any size (or Nimbers).

    Returns
    -------
    ndarray
        One basis vector per row (no rows for a matrix of full column rank).

    Examples
    --------
    >>> nullspace([[1, 2], [2, 3]]).tolist()
    [[2, 1]]
    """
    mat = _matrix(m)
    rows, cols = mat.shape
    nlimbs = mat.limbs.shape[2]
    pivots: list[int] = []
    if rows and cols:
        _, pivots, _ = _core.row_reduce(mat.limbs, None)
    free = [c for c in range(cols) if c not in set(pivots)]
    basis = np.zeros((len(free), cols, nlimbs), dtype=np.uint64)
    for k, f in enumerate(free):
        basis[k, f, 0] = 1
        for i, p in enumerate(pivots):
            basis[k, p] = mat.limbs[i, f]  # x_p = -R[i][f] = R[i][f] in characteristic 2
    return _result(basis, mat.objects)


def matmul(a: Any, b: Any) -> np.ndarray:
    """The matrix product over the nim field (sums are nim-sums, products nim-products).

    Parameters
    ----------
    a, b : array_like
        Matrices (as for :func:`det`), a's columns as many as b's rows.

    Returns
    -------
    ndarray
        The product.

    Raises
    ------
    ValueError
        When the shapes do not match.

    Examples
    --------
    >>> matmul([[1, 2]], [[3], [4]]).tolist()   # 3 (+) 2 (x) 4 = 3 (+) 8
    [[11]]
    """
    ma, mb = _pair(a, b, ("left matrix", "right matrix"))
    (r, k), (k2, c) = ma.shape, mb.shape
    if k != k2:
        raise ValueError(f"matmul: shapes {r} x {k} and {k2} x {c} do not match")
    out = np.zeros((r, c, ma.limbs.shape[2]), dtype=np.uint64)
    if r and c and k:
        _core.matmul(ma.limbs, mb.limbs, out)
    return _result(out, ma.objects)
