"""The Frobenius map a -> a^2 and what it defines: traces and norms down to a subfield,
conjugates, minimal polynomials over GF(2), and the subfields GF(2^(2^k)) themselves.

>>> conjugates(2), minimal_polynomial(2)       # 2 (x) 2 = 3 = 2 (+) 1: x^2 + x + 1
([2, 3], [1, 1, 1])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._gf2 import XorBasis
from ..arith import field_bits, nim_mul, nim_pow, nim_square
from .group import _check_bits, _check_nimber

def _field_of(a: int, bits: int | None) -> int:
    b = field_bits(a) if bits is None else _check_bits(bits)
    if a >= 1 << b:
        raise ValueError(f"{a} does not lie in GF(2^{b})")
    return b


def nim_trace(a: Any, bits: int | None = None, to: int = 1) -> Any:
    """The trace from GF(2^bits) down to its subfield GF(2^to): the sum of the conjugates
    a^(2^(to*i)).

    Parameters
    ----------
    a : int, Nimber or array of unsigned integers
        The element (arrays: fields up to 64 bits).
    bits : int, optional
        The field GF(2^bits); by default the smallest holding a -- on arrays too, element
        by element, so an array gives exactly the scalar answers.
    to : int, default 1
        The subfield GF(2^to) (a power of two dividing bits).

    Returns
    -------
    int or ndarray
        The trace, an element of GF(2^to).

    Examples
    --------
    >>> nim_trace(2), nim_trace(2, 4), nim_trace(8, 4, to=2)
    (1, 0, 2)
    >>> nim_trace(np.array([2, 3, 5, 8], dtype=np.uint8)).tolist()
    [1, 1, 0, 1]
    """
    to = _check_bits(to)
    if isinstance(a, np.ndarray):
        return _trace_of_array(a, bits, to)
    a = _check_nimber(a)
    b = _field_of(a, bits)
    if to > b:
        raise ValueError(f"GF(2^{to}) is not a subfield of GF(2^{b})")
    total, x = 0, a
    for _ in range(b // to):
        total ^= x
        for _ in range(to):
            x = nim_square(x)
    return total


def _trace_of_array(a: np.ndarray, bits: int | None, to: int) -> np.ndarray:
    """nim_trace on an unsigned (or non-negative signed) array, each element in its field."""
    if a.dtype.kind not in "ui":
        raise TypeError(f"nimbers are non-negative integers, not an array of {a.dtype}")
    if a.dtype.kind == "i" and a.size and a.min() < 0:
        raise ValueError(f"nimbers are non-negative integers, got {a.min()}")
    xs = a.astype(np.uint64)
    if bits is None:
        own = field_bits(xs).astype(np.int64)
    else:
        b = _check_bits(bits)
        if b < 64 and xs.size and int(xs.max()) >> b:
            raise ValueError(f"the array holds values outside GF(2^{b})")
        own = np.full(xs.shape, b, dtype=np.int64)
    if xs.size and int(own.min()) < to:
        raise ValueError(f"GF(2^{to}) is not a subfield of the field of every element")
    sums = np.zeros_like(xs)
    for i in range(int(own.max()) // to if xs.size else 0):
        sums ^= np.where(i < own // to, xs, np.uint64(0))
        for _ in range(to):
            xs = nim_square(xs)
    return sums.astype(np.dtype(f"u{a.dtype.itemsize}"))


def nim_norm(a: int, bits: int | None = None, to: int = 1) -> int:
    """The norm from GF(2^bits) down to GF(2^to): the product of the conjugates,
    a^((2^bits - 1) / (2^to - 1)).

    Parameters
    ----------
    a : int or Nimber
        The element.
    bits : int, optional
        The field GF(2^bits); by default the smallest holding a.
    to : int, default 1
        The subfield GF(2^to).

    Returns
    -------
    int
        The norm, an element of GF(2^to).

    Examples
    --------
    >>> nim_norm(2), nim_norm(2, 4), nim_norm(2, 4, to=2)
    (1, 1, 3)
    """
    a = _check_nimber(a)
    b = _field_of(a, bits)
    to = _check_bits(to)
    if to > b:
        raise ValueError(f"GF(2^{to}) is not a subfield of GF(2^{b})")
    return nim_pow(a, ((1 << b) - 1) // ((1 << to) - 1))


def conjugates(a: int) -> list[int]:
    """The Frobenius orbit a, a^2, a^4, ... (distinct values): the roots of a's minimal
    polynomial over GF(2).

    Parameters
    ----------
    a : int or Nimber
        A nimber (any size).

    Returns
    -------
    list of int
        The conjugates, in the order a, a^2, a^4, ...

    Examples
    --------
    >>> conjugates(2), conjugates(4)
    ([2, 3], [4, 6, 5, 7])
    """
    a = _check_nimber(a)
    orbit = [a]
    x = nim_square(a)
    while x != a:
        orbit.append(x)
        x = nim_square(x)
    return orbit


#: minimal_polynomial works on nimbers of fields up to this many bits unless told otherwise:
#: past it the elimination's cost (about bits^3 / 64 word operations) reaches minutes.
MINPOLY_MAX_BITS = 8192


def minimal_polynomial(a: int, max_bits: int = MINPOLY_MAX_BITS) -> list[int]:
    """The minimal polynomial of a over GF(2), coefficients highest degree first.

    It is the first GF(2)-linear relation among the powers 1, a, a^2, ...: each new power is
    reduced against the earlier ones (bit vectors, one product a power), and the first that
    reduces to 0 gives the relation.  (Its roots are a's conjugates, ``conjugates(a)``.)  A
    nimber of a field wider than ``max_bits`` is refused up front: its degree may reach the
    field's width, and the work grows as its cube.

    Parameters
    ----------
    a : int or Nimber
        A nimber (any size).

    Returns
    -------
    list of int
        The coefficients (0 or 1), highest degree first.

    Examples
    --------
    >>> minimal_polynomial(0), minimal_polynomial(1), minimal_polynomial(4)
    ([1, 0], [1, 1], [1, 0, 0, 1, 1])
    """
    a = _check_nimber(a)
    bits = field_bits(a)
    if bits > max_bits:
        raise ValueError(f"minimal_polynomial: {a.bit_length()}-bit nimbers lie in GF(2^{bits}), "
                         f"where the degree can reach {bits} (about {bits**3 // 64:.2e} word "
                         f"operations); pass max_bits={bits} to compute it anyway")
    basis = XorBasis()  # the powers so far, tagged with which powers they combine
    power = 1
    for k in range(bits + 1):
        remainder, powers = basis.insert(power, 1 << k)
        if remainder == 0:  # sum of a^i over the bits of powers is 0: the minimal relation
            return [powers >> i & 1 for i in range(k, -1, -1)]
        power = nim_mul(power, a)
    raise AssertionError("the powers of a nimber of GF(2^bits) are dependent by a^(2^bits)")


# ---- subfields ---------------------------------------------------------------------------------


def subfield(a: int) -> int:
    """The bits of the smallest subfield GF(2^(2^k)) holding a.

    Parameters
    ----------
    a : int or Nimber
        A nimber (any size).

    Returns
    -------
    int
        2^k.

    Examples
    --------
    >>> subfield(5), subfield(300)
    (4, 16)
    """
    return int(field_bits(_check_nimber(a)))


def in_subfield(a: int, bits: int) -> bool:
    """Whether a lies in GF(2^bits), i.e. a < 2^bits (and a^(2^bits) = a).

    Parameters
    ----------
    a : int or Nimber
        A nimber (any size).
    bits : int
        The field GF(2^bits): a power of two.

    Returns
    -------
    bool

    Examples
    --------
    >>> in_subfield(5, 4), in_subfield(5, 2)
    (True, False)
    """
    return _check_nimber(a) < 1 << _check_bits(bits)
