"""The multiplicative group of GF(2^B): its order 2^B - 1 = F_0 F_1 ... F_(k-1) (B = 2^k),
the product of the Fermat numbers F_j = 2^(2^j) + 1, whose prime factors are known up to
B = 512; multiplicative orders and primitive elements.

>>> nim_order(256), nim_order(2), primitive_element(4)
(21845, 3, 4)
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from ..arith import field_bits, nim_pow
from ..nimber import nimber_value

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
