"""Lenstra's constants: κ_q for the prime powers q, the Q-sets, the excesses e(p) and
α_p = κ_p^p (H. W. Lenstra, "On the algebraic closure of two", 1977; "Nim multiplication",
1978), computed from their definitions and cached, for the primes up to
:data:`~nimbers.ordinal.exponents.MAX_PRIME`.

>>> q_set(7), excess(7), str(alpha(7))
((3,), 1, 'ω + 1')
"""

from __future__ import annotations

from functools import lru_cache
from typing import Iterable

import numpy as np

from .._limits import check_time
from .._tower import _prime_factors
from .exponents import MAX_PRIME, Exponent, _check_prime, _INDEX, _odd_prime, _strip
from .fields import _Field
from .ordinals import Ordinal, register_constants

#: Steps a second of the loop in :func:`order_of_two` (measured: about 3 million on a shared
#: 2-core x86 machine; set lower, so that the estimate errs on the side of refusing).
_ORDER_STEPS_PER_SECOND = 2e6


def order_of_two(p: int) -> int:
    """f(p): the multiplicative order of 2 modulo an odd p >= 3 (for Lenstra's constants, an
    odd prime), the least f >= 1 with 2^f = 1 (mod p).

    Raises TypeError for a non-integer, ValueError for an even p or one below 3 (2 has no
    order there) and for a p so large that the search (up to p - 1 steps) would pass the
    time cap (:func:`nimbers._limits.time_cap`).

    >>> [order_of_two(p) for p in (3, 5, 7, 11, 13)]
    [2, 4, 3, 10, 12]
    """
    if isinstance(p, bool) or not isinstance(p, (int, np.integer)):
        raise TypeError(f"p must be an odd int, not {type(p).__name__}")
    p = int(p)
    if p < 3 or p % 2 == 0:
        raise ValueError(f"2 has no multiplicative order modulo {_short(p)}: p must be odd and "
                         "at least 3")
    check_time(p - 1, _ORDER_STEPS_PER_SECOND, f"the order of 2 modulo {_short(p)} (up to p - 1 "
               "steps)", "pass a smaller p")
    f, t = 1, 2
    while t != 1:
        t = t * 2 % p
        f += 1
    return f


def _short(n: int) -> str:
    """n in a message: its digits, or its size when they would not fit on a line."""
    return str(n) if n.bit_length() <= 128 else f"a {n.bit_length()}-bit number"


def _prime_power(q: int) -> tuple[int, int]:
    p = _prime_factors(q)
    if len(p) != 1:
        raise ValueError(f"{q} is not a prime power")
    n, r = 0, q
    while r > 1:
        r //= p[0]
        n += 1
    return p[0], n


def kappa(q: int) -> Ordinal:
    """Lenstra's κ_q for a prime power q: 2^(2^(n-1)) for q = 2^n, and ω^(ω^(j-1)·p^(n-1))
    for q = p^n with p the j-th odd prime.

    >>> print(kappa(4), kappa(3), kappa(9), kappa(5), kappa(7))
    4 ω ω^3 ω^ω ω^(ω^2)
    """
    p, n = _prime_power(int(q))
    if p == 2:
        return Ordinal(1 << (1 << (n - 1)))
    e = [0] * (_INDEX[p] + 1)
    e[_INDEX[p]] = p ** (n - 1)
    return Ordinal._from_dict({_strip(e): 1})


def _kappa_sum(qs: Iterable[int]) -> Ordinal:
    total = Ordinal(0)
    for q in qs:
        total = total + kappa(q)
    return total


def _sorted_qs(qs: Iterable[int]) -> tuple[int, ...]:
    return tuple(sorted(qs, key=_prime_power))


@lru_cache(maxsize=None)
def _kappa_set(h: int) -> tuple[int, ...]:
    """The prime powers q whose κ_q sum to κ_h (Lenstra 1977): with q the power of the
    smallest prime in h and g = h/q, κ_h = κ_g if q divides the degree of κ_g over GF(2),
    and κ_g + κ_q otherwise."""
    smallest = _prime_factors(h)[0]
    q = 1
    while h % (q * smallest) == 0:
        q *= smallest
    g = h // q
    if g == 1:
        return (q,)
    kg = _kappa_set(g)
    if _kappa_sum(kg).degree() % q == 0:
        return kg
    return _sorted_qs(kg + (q,))


@lru_cache(maxsize=None)
def q_set(p: int) -> tuple[int, ...]:
    """Lenstra's Q-set of a prime p: the prime powers q with κ_(f(p)) = Σ κ_q, f(p) the
    order of 2 modulo p (sorted by prime, as in CGSuite's NimFieldConstants).

    >>> q_set(3), q_set(7), q_set(11), q_set(13), q_set(19)
    ((2,), (3,), (5,), (4, 3), (9,))
    """
    p = _check_prime(p)
    if p == 2:
        return ()
    return _kappa_set(order_of_two(p))


@lru_cache(maxsize=None)
def excess(p: int) -> int:
    """Lenstra's excess e(p): the least natural number m such that κ_(f(p)) + m (ordinal
    sum) is not a p-th power in the field of the ordinals below κ_p; then
    κ_p^p = α_p = κ_(f(p)) + e(p).  Computed from that definition: α is a p-th power in a
    finite field F ⊇ GF(2)(α) of degree D prime to p... exactly when α^((2^D-1)/p) = 1
    (or p does not divide 2^D - 1).

    >>> [excess(p) for p in (3, 5, 7, 11, 13, 17, 19, 23)]
    [0, 0, 1, 1, 0, 0, 4, 1]
    """
    p = _check_prime(p)
    if p == 2:
        return 0
    f = order_of_two(p)
    qs = q_set(p)
    odd = {e: c for e, c in _kappa_sum(q for q in qs if q % 2)._terms}
    finite = sum(int(kappa(q)) for q in qs if q % 2 == 0)
    m = 0
    while True:
        candidate = Ordinal._from_dict({**odd, (): finite + m})
        field = _Field.of([candidate])
        if not field.tower.is_pth_power(field.dense(candidate), p, f):
            return m
        m += 1


def alpha(p: int) -> Ordinal:
    """α_p = κ_p^p = κ_(f(p)) + excess(p), the ordinal whose p-th root κ_p is.

    >>> print(alpha(3), alpha(5), alpha(7), alpha(19))
    2 4 ω + 1 ω^3 + 4
    """
    return _alpha(_check_prime(p))


@lru_cache(maxsize=None)
def _alpha(p: int) -> Ordinal:
    qs = q_set(p)
    x = _kappa_sum(q for q in qs if q % 2)
    finite = sum(int(kappa(q)) for q in qs if q % 2 == 0) + excess(p)
    return x + Ordinal(finite)


def alpha_terms(j: int) -> dict[Exponent, int]:
    """The terms of α_p for the j-th odd prime p (ValueError past MAX_PRIME)."""
    p = _odd_prime(j)
    if p > MAX_PRIME:
        raise ValueError(f"out of range: this product needs Lenstra's constant α_{p} for "
                         f"ω^(ω^{j}), computed only for primes p <= {MAX_PRIME}")
    return dict(_alpha(p)._terms)


register_constants(alpha_terms)
