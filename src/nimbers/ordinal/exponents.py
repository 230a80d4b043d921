"""Exponents below ω^ω as tuples of coefficients, and the odd primes that index them.

The ordinal ω^k·a_k + ... + ω·a_1 + a_0 < ω^ω is the tuple (a_0, a_1, ..., a_k); position j
of an exponent belongs to the j-th odd prime (3, 5, 7, ... for j = 0, 1, 2, ...), whose
base-p digits say which powers of Lenstra's κ_(p^(i+1)) make up ω^(ω^j·a) (see
:mod:`nimbers.ordinal.lenstra`).

>>> _strip([3, 0, 1, 0, 0]), _add_digits(2, 1, 3)
((3, 0, 1), (0, True))
"""

from __future__ import annotations

from typing import Any, Iterable

import numpy as np

#: The largest prime whose Lenstra constants this package computes.  An ordinal whose
#: exponents reach ω^(ω^(j-1)) for the j-th odd prime p > MAX_PRIME can be added and
#: compared, but a product that needs α_p raises ValueError.
MAX_PRIME = 257

Exponent = tuple[int, ...]  # (a_0, a_1, ..., a_k): the ordinal ω^k·a_k + ... + ω·a_1 + a_0 < ω^ω


# ---- primes ---------------------------------------------------------------------------------

def _primes_up_to(n: int) -> list[int]:
    sieve = bytearray([1]) * (n + 1)
    sieve[:2] = b"\x00\x00"
    for i in range(2, int(n ** 0.5) + 1):
        if sieve[i]:
            sieve[i * i::i] = bytearray(len(range(i * i, n + 1, i)))
    return [i for i in range(n + 1) if sieve[i]]


_ODD_PRIMES = _primes_up_to(1 << 14)[1:]  # exponent position j <-> _ODD_PRIMES[j] (j from 0)
_INDEX = {p: j for j, p in enumerate(_ODD_PRIMES)}


def _odd_prime(j: int) -> int:
    if j >= len(_ODD_PRIMES):
        raise ValueError(f"ω^(ω^{j}) is beyond the primes this module knows")
    return _ODD_PRIMES[j]


def _check_prime(p: Any) -> int:
    if isinstance(p, bool) or not isinstance(p, (int, np.integer)):
        raise TypeError(f"p must be a prime int, not {type(p).__name__}")
    prime = int(p)
    if prime != 2 and prime not in _INDEX:
        raise ValueError(f"{prime} is not a prime" if prime < _ODD_PRIMES[-1] else
                         f"p = {prime} is out of range: constants are computed for p <= {MAX_PRIME}")
    if prime > MAX_PRIME:
        raise ValueError(f"p = {prime} is out of range: Lenstra's constants are computed for "
                         f"primes p <= {MAX_PRIME} (ordinals below ω^(ω^{_INDEX[MAX_PRIME] + 1}))")
    return prime


# ---- exponents: ordinals below ω^ω as tuples --------------------------------------------------

def _strip(e: Iterable[int]) -> Exponent:
    e = list(e)
    while e and e[-1] == 0:
        e.pop()
    return tuple(e)


def _exp_key(e: Exponent) -> tuple[int, Exponent]:
    """Sort key giving the ordinal order of exponents."""
    return (len(e), tuple(reversed(e)))


def _digits(a: int, p: int) -> list[int]:
    out = []
    while a:
        a, d = divmod(a, p)
        out.append(d)
    return out


def _add_digits(a: int, b: int, p: int) -> tuple[int, bool]:
    """The exponent of κ-products: digit i of a (base p) is the power of κ_(p^(i+1)).
    p copies of κ_(p^(i+1)) make one κ_(p^i), so carries run from high digits to low
    ones; a carry out of digit 0 is a factor κ_p^p = α_p (returned as True)."""
    da, db = _digits(a, p), _digits(b, p)
    n = max(len(da), len(db))
    s = [(da[i] if i < len(da) else 0) + (db[i] if i < len(db) else 0) for i in range(n)]
    for i in range(n - 1, 0, -1):
        if s[i] >= p:
            s[i] -= p
            s[i - 1] += 1
    overflow = s[0] >= p
    if overflow:
        s[0] -= p
    return sum(d * p ** i for i, d in enumerate(s)), overflow
