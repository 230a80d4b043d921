"""Discrete logarithms in GF(2^B), B up to :data:`MAX_LOG_BITS`: Pohlig-Hellman over the
prime factors of 2^B - 1 with baby-step giant-step (compiled tables, :mod:`nimbers._core`).

>>> nim_log(nim_pow(primitive_element(64), 12345), primitive_element(64))
12345
"""

from __future__ import annotations

from functools import lru_cache
from math import gcd, isqrt
from typing import Any

from .. import _core
from ..arith import field_bits, nim_pow
from .group import _check_nimber, group_order_factors, primitive_element


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
