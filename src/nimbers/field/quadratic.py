"""Quadratic equations x (x) x (+) b (x) x = c over the nimbers, reduced to the
Artin-Schreier equation y (x) y (+) y = d and solved down the tower of fields.

>>> solve_quadratic(1, 7)          # x (x) x (+) x = 7
[12, 13]
"""

from __future__ import annotations

from functools import lru_cache

from .. import _core
from ..arith import field_bits, nim_div, nim_mul, nim_square, nim_sqrt
from .group import _check_bits, _check_nimber


@lru_cache(maxsize=None)
def _artin_schreier_tables() -> tuple[tuple[int, ...], ...]:
    """Byte tables of a GF(2)-linear map S on GF(2^64) with S(d)^2 + S(d) = d for every d
    that has a root there.  y -> y^2 + y is linear over GF(2) (squaring is the Frobenius map)
    with kernel {0, 1}, so one Gauss-Jordan elimination (its images of the basis, reduced so
    each pivot bit belongs to one image) gives a preimage map, applied as eight lookups.
    The roots are y and y + 1, so a subfield that holds a root holds the one S finds."""
    pivots: dict[int, tuple[int, int]] = {}  # pivot bit -> (image, preimage), fully reduced
    bits = 64
    for i in range(bits):
        image, pre = nim_square(1 << i) ^ (1 << i), 1 << i
        for p, (v, w) in pivots.items():
            if image >> p & 1:
                image, pre = image ^ v, pre ^ w
        if image:
            p = image.bit_length() - 1
            for q, (v, w) in list(pivots.items()):  # clear the new pivot from the others
                if v >> p & 1:
                    pivots[q] = (v ^ image, w ^ pre)
            pivots[p] = (image, pre)
    columns = [pivots[j][1] if j in pivots else 0 for j in range(bits)]
    return tuple(_byte_table(columns[8 * k: 8 * k + 8]) for k in range(8))


def _byte_table(columns: list[int]) -> tuple[int, ...]:
    """The 256 values of the linear map with these (at most 8) columns on a byte."""
    table = [0]
    for column in columns:
        table += [t ^ column for t in table]
    return tuple(table + [0] * (256 - len(table)))


def _artin_schreier(d: int, bits: int) -> int | None:
    """A root y < 2^bits of y (x) y (+) y = d, or None.  Up to 64 bits: the precomputed
    linear solve of GF(2^64).  Beyond, by the tower: with y = y1 X + y0, d = d1 X + d0 (X = 2^(bits/2),
    X (x) X = X + h), the equation splits into y1^2 + y1 = d1 and y0^2 + y0 = d0 + y1^2 (x) h."""
    if bits <= 64:
        t = _artin_schreier_tables()
        y = (t[0][d & 0xFF] ^ t[1][d >> 8 & 0xFF] ^ t[2][d >> 16 & 0xFF] ^ t[3][d >> 24 & 0xFF] ^
             t[4][d >> 32 & 0xFF] ^ t[5][d >> 40 & 0xFF] ^ t[6][d >> 48 & 0xFF] ^ t[7][d >> 56])
        return y if y >> bits == 0 and nim_square(y) ^ y == d else None
    half = bits // 2
    X, h = 1 << half, 1 << (half - 1)
    d1, d0 = d >> half, d & (X - 1)
    y1 = _artin_schreier(d1, half)
    if y1 is None:
        return None
    for choice in (y1, y1 ^ 1):  # the two roots of the upper half
        y0 = _artin_schreier(d0 ^ nim_mul(nim_square(choice), h), half)
        if y0 is not None:
            return (choice << half) | y0
    return None


def solve_quadratic(b: int, c: int, bits: int | None = None) -> list[int]:
    """All x with x (x) x (+) b (x) x = c, sorted.  Among all nimbers there are two roots when
    b != 0 and one when b = 0 (squaring is a bijection); with bits, only the roots below
    2^bits (0, 1 or 2 of them).  Core: Artin-Schreier y (x) y (+) y = d, solved down the tower.

    Parameters
    ----------
    b, c : int or Nimber
        The coefficients.
    bits : int, optional
        Only roots in GF(2^bits).

    Returns
    -------
    list of int
        The roots, increasing.

    Examples
    --------
    >>> solve_quadratic(1, 1), solve_quadratic(1, 1, bits=1), solve_quadratic(0, 2)
    ([2, 3], [], [3])
    """
    fast = _core.solve_quadratic64(b, c) if bits is None else None
    if fast is not None:  # ints below 2^64: one call to the C core (same answer, 20x faster)
        return list(fast)
    b, c = _check_nimber(b), _check_nimber(c)
    limit = None if bits is None else _check_bits(bits)
    if b == 0:
        roots = [nim_sqrt(c)]
    else:
        # x = b y: b^2 (y^2 + y) = c, so y^2 + y = c / b^2
        d = nim_div(c, nim_square(b))
        size = max(field_bits(d), 64)  # GF(2^64) holds the roots of every d below 2^32
        y = _artin_schreier(d, size)
        if y is None:  # the roots lie in the next field up, where every d has them
            y = _artin_schreier(d, 2 * size)
        if y is None:
            raise AssertionError("y^2 + y = d always has a root one field up")
        roots = sorted({nim_mul(b, y), nim_mul(b, y ^ 1)})
    if limit is not None:
        roots = [r for r in roots if r < 1 << limit]
    return roots
