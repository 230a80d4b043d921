"""The polynomial basis of GF(2^B): the field isomorphism to GF(2)[t]/(f) with t mapped to
primitive_element(B), under which nim products become carry-less products mod f (the basis
the compiled 64-bit carry-less kernel works in).

>>> polynomial_modulus(4)
[1, 0, 0, 1, 1]
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from .. import _core
from ..arith import nim_mul
from .group import _check_bits, _check_nimber, primitive_element


@lru_cache(maxsize=None)
def _basis(bits: int) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """Powers alpha^0..alpha^(bits-1) of the basis generator, the columns of the inverse map,
    and the modulus f (as an int, bit i = coefficient of t^i).  At 64 bits the generator is
    the compiled carry-less kernel's, so there is one owner of that basis (the tests check
    that it is primitive_element(64), as at every other width)."""
    alpha = _core.poly_basis()[0] if bits == 64 else primitive_element(bits)
    powers = [1]
    for _ in range(bits):
        powers.append(nim_mul(powers[-1], alpha))
    inverse = _invert_columns(powers[:bits], bits)
    rest = _apply(inverse, powers[bits])
    return tuple(powers[:bits]), tuple(inverse), (1 << bits) | rest


def _apply(columns: tuple[int, ...] | list[int], v: int) -> int:
    out = 0
    i = 0
    while v:
        if v & 1:
            out ^= columns[i]
        v >>= 1
        i += 1
    return out


def _invert_columns(cols: list[int], n: int) -> list[int]:
    """Columns of the inverse of the n x n GF(2) matrix with the given columns."""
    # rows of [A | I], Gauss-Jordan
    rows = [sum(((cols[j] >> i) & 1) << j for j in range(n)) for i in range(n)]
    aug = [1 << i for i in range(n)]
    for c in range(n):
        p = next(r for r in range(c, n) if rows[r] >> c & 1)
        rows[c], rows[p] = rows[p], rows[c]
        aug[c], aug[p] = aug[p], aug[c]
        for r in range(n):
            if r != c and rows[r] >> c & 1:
                rows[r] ^= rows[c]
                aug[r] ^= aug[c]
    return [sum(((aug[i] >> j) & 1) << i for i in range(n)) for j in range(n)]


def polynomial_modulus(bits: int) -> list[int]:
    """The modulus f of the polynomial basis of GF(2^bits): the minimal polynomial of
    primitive_element(bits), coefficients highest degree first.

    Parameters
    ----------
    bits : int
        The field GF(2^bits): a power of two.

    Returns
    -------
    list of int
        The coefficients (0 or 1), highest degree first.

    Examples
    --------
    >>> polynomial_modulus(2)
    [1, 1, 1]
    """
    f = _basis(_check_bits(bits))[2]
    return [f >> i & 1 for i in range(bits, -1, -1)]


def _linear_on_arrays(columns: tuple[int, ...], arr: np.ndarray) -> np.ndarray:
    """A GF(2)-linear map on an unsigned array, by byte tables.  The result's dtype holds
    every element of the field (uint8 in, GF(2^16) map: uint16 out), never truncates."""
    out = np.zeros(arr.shape, dtype=np.uint64)
    x = arr.astype(np.uint64)
    for byte in range(min(arr.dtype.itemsize, (len(columns) + 7) // 8)):
        table = np.zeros(256, dtype=np.uint64)
        for v in range(256):
            table[v] = _apply(columns[8 * byte: 8 * byte + 8], v)
        out ^= table[(x >> np.uint64(8 * byte)) & np.uint64(0xFF)]
    field_bytes = max(1, min(8, len(columns) // 8))
    return out.astype(np.dtype(f"u{max(arr.dtype.itemsize, field_bytes)}"))


def _basis_map(x: Any, bits: int, columns: tuple[int, ...], what: str) -> Any:
    """A GF(2)-linear map given by its columns, on an int or an unsigned array."""
    if isinstance(x, np.ndarray):
        _check_array(x, bits)
        return _linear_on_arrays(columns, x)
    x = _check_nimber(x)
    if x >= 1 << bits:
        raise ValueError(f"{x} is not {what} of GF(2^{bits})")
    return _apply(columns, x)


def to_polynomial_basis(a: Any, bits: int = 64) -> Any:
    """The field isomorphism GF(2^bits) -> GF(2)[t]/(f): a as p(alpha) with alpha =
    primitive_element(bits), returned as the int whose bit i is p's coefficient of t^i.
    Products become carry-less products mod f.

    Parameters
    ----------
    a : int, Nimber or array of unsigned integers
        Elements of GF(2^bits).
    bits : int, default 64
        The field.

    Returns
    -------
    int or ndarray
        The polynomial-basis form.

    Examples
    --------
    >>> p = to_polynomial_basis(12345, 16)
    >>> from_polynomial_basis(p, 16)
    12345
    """
    bits = _check_bits(bits)
    return _basis_map(a, bits, _basis(bits)[1], "an element")


def from_polynomial_basis(p: Any, bits: int = 64) -> Any:
    """The inverse of :func:`to_polynomial_basis`: the nimber p(alpha).

    Parameters
    ----------
    p : int or array of unsigned integers
        Polynomials of degree < bits, bit i the coefficient of t^i.
    bits : int, default 64
        The field.

    Returns
    -------
    int or ndarray
        The nimbers.

    Examples
    --------
    >>> from_polynomial_basis(to_polynomial_basis(7, 4), 4)
    7
    """
    bits = _check_bits(bits)
    return _basis_map(p, bits, _basis(bits)[0], "a polynomial (degree < bits)")


def _check_array(a: np.ndarray, bits: int) -> None:
    if a.dtype.kind != "u":
        raise TypeError(f"expected an array of unsigned integers, not {a.dtype}")
    if a.dtype.itemsize * 8 > bits and a.size and int(a.max()) >= 1 << bits:
        raise ValueError(f"the array holds values outside GF(2^{bits})")
    if bits > 64:
        raise ValueError("arrays work on fields up to 64 bits; use ints beyond")
