"""The nim field in depth: multiplicative orders, primitive elements, discrete logarithms,
traces and norms, conjugates and minimal polynomials, quadratic equations, the polynomial
basis, and subfields.

The nimbers below 2^B (B = 2^k) form the field GF(2^B); its multiplicative group is cyclic of
order 2^B - 1 = F_0 F_1 ... F_(k-1), the product of the Fermat numbers F_j = 2^(2^j) + 1, whose
prime factors are known up to B = 512 (F_5 = 641 * 6700417, F_6 = 274177 * 67280421310721, ...).

>>> nim_order(256), nim_order(2)
(21845, 3)
>>> nim_log(nim_pow(primitive_element(64), 12345), primitive_element(64))
12345
>>> minimal_polynomial(2)          # 2 (x) 2 = 3 = 2 (+) 1: x^2 + x + 1
[1, 1, 1]
>>> solve_quadratic(1, 7)          # x (x) x (+) x = 7
[12, 13]
"""

from __future__ import annotations

from functools import lru_cache
from math import gcd, isqrt
from typing import Any

import numpy as np

from . import _core
from ._gf2 import XorBasis
from .arith import field_bits, nim_div, nim_mul, nim_pow, nim_square, nim_sqrt
from .nimber import nimber_value

__all__ = ["FERMAT_PRIME_FACTORS", "group_order_factors", "nim_order", "is_primitive",
           "primitive_element", "nim_log", "nim_trace", "nim_norm", "conjugates",
           "minimal_polynomial", "solve_quadratic", "to_polynomial_basis",
           "from_polynomial_basis", "polynomial_modulus", "subfield", "in_subfield"]

#: The prime factors of the Fermat numbers F_j = 2^(2^j) + 1, j = 0..8 (F_0..F_4 are prime;
#: F_5 by Euler, F_6 by Landry, F_7 by Morrison and Brillhart, F_8 by Brent and Pollard).
#: The tests check every product and primality.
FERMAT_PRIME_FACTORS: dict[int, tuple[int, ...]] = {
    0: (3,),
    1: (5,),
    2: (17,),
    3: (257,),
    4: (65537,),
    5: (641, 6700417),
    6: (274177, 67280421310721),
    7: (59649589127497217, 5704689200685129054721),
    8: (1238926361552897,
        93461639715357977769163558199606896584051237541638188580280321),
}


def _check_bits(bits: Any) -> int:
    if isinstance(bits, bool) or not isinstance(bits, (int, np.integer)):
        raise TypeError(f"a field size is a power of two in bits, not {type(bits).__name__}")
    size = int(bits)
    if size < 1 or size & (size - 1):
        raise ValueError(f"nim fields have 2^(2^k) elements: bits must be a power of two, got {size}")
    return size


def _check_nimber(a: Any) -> int:
    return nimber_value(a)


def group_order_factors(bits: int) -> list[int]:
    """The distinct primes dividing 2^bits - 1 (the order of GF(2^bits)*), from the known
    factorizations of the Fermat numbers (:data:`FERMAT_PRIME_FACTORS`).

    Parameters
    ----------
    bits : int
        The field GF(2^bits): a power of two.

    Returns
    -------
    list of int
        The primes, increasing.

    Examples
    --------
    >>> group_order_factors(64)
    [3, 5, 17, 257, 641, 65537, 6700417]
    """
    bits = _check_bits(bits)
    k = bits.bit_length() - 1
    if k - 1 > max(FERMAT_PRIME_FACTORS):
        raise ValueError(f"the factorization of 2^{bits} - 1 is not known to nimbers "
                         f"(fields up to {2 ** (max(FERMAT_PRIME_FACTORS) + 1)} bits)")
    primes: list[int] = []
    for j in range(k):
        primes.extend(FERMAT_PRIME_FACTORS[j])
    return sorted(primes)


def _order_in(a: int, bits: int) -> int:
    order = (1 << bits) - 1
    for p in group_order_factors(bits):
        while order % p == 0 and nim_pow(a, order // p) == 1:
            order //= p
    return order


def nim_order(a: int) -> int:
    """The multiplicative order of a != 0: the least n >= 1 with a^n = 1 (nim power).  It
    does not depend on the field a is taken in, and divides 2^B - 1 for a < 2^B (Lenstra,
    "Nim multiplication").

    Parameters
    ----------
    a : int or Nimber
        A nimber (any size).

    Returns
    -------
    int
        The order.

    Raises
    ------
    ZeroDivisionError
        For 0, which has no order.

    Examples
    --------
    >>> [nim_order(a) for a in range(1, 9)]
    [1, 3, 3, 15, 15, 15, 15, 5]
    """
    a = _check_nimber(a)
    if a == 0:
        raise ZeroDivisionError("0 has no multiplicative order")
    return _order_in(a, field_bits(a))


def is_primitive(a: int, bits: int) -> bool:
    """Whether a generates the multiplicative group of GF(2^bits).

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
    >>> is_primitive(2**32 + 6, 64), is_primitive(2, 64)
    (True, False)
    """
    a, bits = _check_nimber(a), _check_bits(bits)
    if a == 0 or a >= 1 << bits:
        return False
    return _order_in(a, bits) == (1 << bits) - 1


@lru_cache(maxsize=None)
def primitive_element(bits: int) -> int:
    """The generator of GF(2^bits)* that nimbers uses: the least primitive element, which is
    at least 2^(bits/2) since the subfields hold no generator (1 for GF(2)).

    Parameters
    ----------
    bits : int
        The field GF(2^bits): a power of two.

    Returns
    -------
    int
        The least primitive element.

    Examples
    --------
    >>> primitive_element(2), primitive_element(8), primitive_element(64) == 2**32 + 6
    (2, 18, True)
    """
    bits = _check_bits(bits)
    if bits == 1:
        return 1
    a = 1 << (bits // 2)
    while not is_primitive(a, bits):
        a += 1
    return a


# ---- discrete logarithms ------------------------------------------------------------------


#: Discrete logarithms reach this field size: beyond it, 2^B - 1 has prime factors too
#: large for baby-step giant-step (F_7 = 59649589127497217 * 5704689200685129054721).
MAX_LOG_BITS = 128


@lru_cache(maxsize=None)
def _log_table(bits: int) -> tuple[list[int], Any]:  # (CRT coefficients, table)
    """The primes of 2^bits - 1 and the compiled baby-step tables of their subgroups,
    built once per field (about 0.1 s for 64 bits, seconds and ~100 MB for 128)."""
    if bits > MAX_LOG_BITS:
        raise ValueError(f"discrete logarithms are supported in fields of up to {MAX_LOG_BITS} "
                         f"bits: 2^{bits} - 1 has prime factors too large for baby-step giant-step")
    n = (1 << bits) - 1
    g = primitive_element(bits)
    primes = group_order_factors(bits)
    entries = []
    for p in primes:
        # enough baby steps for a handful of giant steps on 64 bits; capped memory beyond
        baby = min(p, max(1 << 16, isqrt(p) + 1), 1 << 22)
        entries.append((p, nim_pow(g, n // p), n // p, baby))
    # Chinese remainder theorem: x = sum of r_p c_p (mod n), c_p = 1 mod p and 0 mod the rest
    crt = [(n // p) * pow(n // p, -1, p) for p in primes]
    return crt, _core.LogTable(max(1, bits // 64), entries)


def _log_primitive(a: int, bits: int) -> int:
    """log of a != 0 to the base primitive_element(bits), mod 2^bits - 1, by Pohlig-Hellman
    (2^bits - 1 is square-free: each prime once) and baby-step giant-step per prime."""
    crt, table = _log_table(bits)
    x = 0
    for c, r in zip(crt, table.residues(a)):
        x += c * r
    return x % ((1 << bits) - 1)


def nim_log(a: int, base: int) -> int:
    """The discrete logarithm: the least x >= 0 with nim_pow(base, x) == a.

    **Mind the order: the value comes first, the base second**, as in Python's
    ``math.log(x, base)`` -- contest statements often write the equation the other way
    round (base^x = a).  Keywords make calls unambiguous: ``nim_log(a=3, base=2)``.

    Pohlig-Hellman over the prime factors of 2^B - 1 (on 64 bits: 3, 5, 17, 257, 641, 65537,
    6700417) with baby-step giant-step, both logarithms taken to a fixed primitive element.

    Parameters
    ----------
    a : int or Nimber
        The value whose logarithm is sought (non-zero).
    base : int or Nimber
        The base (non-zero).

    Returns
    -------
    int
        The least x >= 0 with base^x = a.

    Raises
    ------
    ValueError
        When a is not a power of base (no such x), or for a = 0 or base = 0.

    Examples
    --------
    >>> nim_log(3, 2)      # 2 (x) 2 = 3
    2
    """
    a, base = _check_nimber(a), _check_nimber(base)
    if a == 0 or base == 0:
        raise ValueError("0 has no logarithm and is no base: nim_log works on non-zero nimbers")
    bits = int(max(field_bits(a), field_bits(base)))
    n = (1 << bits) - 1
    la, lb = _log_primitive(a, bits), _log_primitive(base, bits)
    order = n // gcd(lb, n)  # the order of base
    # base^x = a  <=>  lb x = la (mod n): solvable iff gcd(lb, n) divides la
    d = gcd(lb, n)
    if la % d:
        raise ValueError(f"{a} is not a power of {base}: no logarithm exists")
    return (la // d) * pow(lb // d, -1, order) % order


# ---- trace, norm, conjugates, minimal polynomials ------------------------------------------


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


# ---- quadratic equations ---------------------------------------------------------------------


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


# ---- the polynomial basis ----------------------------------------------------------------------


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
