"""Finite fields of ordinals: every finite set of ordinals below ω^ω^ω lies in a finite
field GF(2^D), a tower over GF(2^(2^k)) of extensions of degree p^n, one for each odd prime
p with κ_(p^n) the top power needed (Lenstra 1977).  :class:`_Field` maps ordinals to dense
arrays of that tower (:mod:`nimbers._tower`) and back, for the operations that need the
whole field: inverses, powers, roots, degrees, minimal polynomials.

>>> field = _Field.of([Ordinal("ω"), Ordinal(5)])   # ω: degree 3 over GF(4), 5 < 16
>>> field.tower.degree, field.ordinal(field.dense(Ordinal("ω·5 + 1")))
(12, Ordinal('ω·5 + 1'))
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from math import lcm
from typing import Any, Iterable

import numpy as np

from .._gf2 import XorBasis
from .._limits import check_time
from .._tower import Tower, _prime_factors
from .exponents import Exponent, _digits, _INDEX, _odd_prime, _strip
from .ordinals import Ordinal, _alpha_terms, register_fields

# A field with more coordinates than this (over GF(2)) is refused by the operations that
# need a dense representation (inverse, powers, roots, degrees): the memory and time grow
# with its square.
MAX_FIELD_DEGREE = 1 << 17

#: The work of the dense operations in a field of degree D over GF(2): (k, rate) for about
#: D^k steps at rate steps a second, fitted to the times of ω^(ω^j) + 1 for fields of
#: degree 684 to 29,820 on a shared 2-core x86 machine (rates set at about half the
#: measured ones, so that the estimates err on the side of refusing).  Every dense operation
#: checks its estimate against the time cap (:func:`nimbers._limits.time_cap`) before it
#: starts, through :meth:`_Field.check_work`.
_WORK: dict[str, tuple[int, float]] = {
    "Frobenius map": (2, 2e8),        # square roots, x^(2^j): a permutation table of D entries
    "degree": (2, 2e8),               # a few Frobenius maps
    "inverse": (2, 1.5e7),            # Itoh and Tsujii: 2 log2(D) products of ~D^2 / log D
    "power": (2, 1.5e9),              # per product (times the exponent's bits)
    "conjugates": (2, 2e6),           # D Frobenius maps, each written out as an ordinal
    "Artin-Schreier equation": (2, 1.5e6),    # D images of y^2 + y, eliminated over GF(2)
    "minimal polynomial": (3, 5e8),   # D products and an elimination of D vectors of D bits
    "roots": (2, 1.5e6),              # per root-finding step (times the degree squared)
}


def _base_bits(c: int) -> int:
    bits = 1
    while c >> bits:
        bits *= 2
    return bits


def _components(xs: Iterable[dict[Exponent, int]]) -> tuple[int, tuple[tuple[int, int], ...]]:
    """The smallest tower (base 2-power bits, {j: n}) holding the ordinals and closed under
    the constants its layers need: layer j with n digits needs α_p's components."""
    base = 1
    comps: dict[int, int] = {}
    todo: list[dict[Exponent, int]] = list(xs)
    seen: set[int] = set()
    while todo:
        x = todo.pop()
        for e, c in x.items():
            base = max(base, _base_bits(c))
            for j, a in enumerate(e):
                if a:
                    n = len(_digits(a, _odd_prime(j)))
                    comps[j] = max(comps.get(j, 0), n)
                    if j not in seen:
                        seen.add(j)
                        todo.append(_alpha_terms(j))
    return base, tuple(sorted(comps.items()))


def _reverse_digits(a: int, p: int, n: int) -> int:
    """θ = κ_(p^n): θ^i with i = Σ d_k p^k is ω^(ω^(j-1)·Σ d_k p^(n-1-k))."""
    out = 0
    for _ in range(n):
        a, d = divmod(a, p)
        out = out * p + d
    return out


class _Field:
    """A tower (see :mod:`nimbers._tower`) with the maps between ordinals and arrays."""

    def __init__(self, base: int, comps: tuple[tuple[int, int], ...]) -> None:
        self.base = base
        self.comps = comps
        degree = base
        for j, n in comps:
            degree *= _odd_prime(j) ** n
        if degree > MAX_FIELD_DEGREE:
            raise ValueError(f"the field holding these ordinals has degree {degree} over GF(2), "
                             f"more than MAX_FIELD_DEGREE = {MAX_FIELD_DEGREE}")
        layers = []
        for i, (j, n) in enumerate(comps):
            below = _Field.get(base, comps[:i])
            layers.append((_odd_prime(j) ** n, below.dense_terms(_alpha_terms(j))))
        self.tower = Tower(base, layers)

    def check_work(self, operation: str, products: int = 1) -> None:
        """Refuses at once (ValueError) an operation whose estimated time in this field
        passes the time cap; ``products`` multiplies the estimate (the exponent's bits for a
        power, the squared degree of a polynomial for its roots)."""
        k, rate = _WORK[operation]
        degree = self.tower.degree
        check_time(degree ** k * max(products, 1), rate,
                   f"the {operation} in the field of degree {degree:,} over GF(2) that holds "
                   "these ordinals", "ask for smaller ordinals")

    @staticmethod
    @lru_cache(maxsize=256)
    def get(base: int, comps: tuple[tuple[int, int], ...]) -> _Field:
        return _Field(base, comps)

    @staticmethod
    def of(xs: Iterable[Ordinal]) -> _Field:
        return _Field.get(*_components(dict(x._terms) for x in xs))

    def extended(self, factor: int) -> _Field:
        """The field of degree factor times this one's (factor's primes must be in range):
        twice the finite bits for each 2, one more base-p digit for each odd p."""
        base, comps = self.base, dict(self.comps)
        for ell in _prime_factors(factor):
            while factor % ell == 0:
                factor //= ell
                if ell == 2:
                    base *= 2
                else:
                    comps[_INDEX[ell]] = comps.get(_INDEX[ell], 0) + 1
        generators: list[dict[Exponent, int]] = [{(): (1 << base) - 1}]
        generators += [{_strip([0] * j + [_odd_prime(j) ** (n - 1)]): 1} for j, n in comps.items()]
        return _Field.get(*_components(generators))

    def dense_terms(self, terms: dict[Exponent, int]) -> np.ndarray:
        arr = self.tower.zero()
        layer_of = {j: i for i, (j, _) in enumerate(self.comps)}
        for e, c in terms.items():
            idx = [0] * len(self.comps)
            for j, a in enumerate(e):
                if not a:
                    continue
                if j not in layer_of or a >= _odd_prime(j) ** self.comps[layer_of[j]][1]:
                    raise ValueError("an ordinal outside this field")
                p, n = _odd_prime(j), self.comps[layer_of[j]][1]
                idx[layer_of[j]] = _reverse_digits(a, p, n)
            if c >> self.base:
                raise ValueError("a finite coefficient outside this field")
            arr[tuple(reversed(idx))] = c
        return arr

    def dense(self, x: Ordinal) -> np.ndarray:
        return self.dense_terms(dict(x._terms))

    def ordinal(self, arr: np.ndarray) -> Ordinal:
        terms: dict[Exponent, int] = {}
        if arr.ndim == 0:
            return Ordinal(int(arr))
        for idx in zip(*np.nonzero(arr)):
            e = [0] * (max((j for j, _ in self.comps), default=-1) + 1)
            for (j, n), i in zip(self.comps, reversed(idx)):
                e[j] = _reverse_digits(int(i), _odd_prime(j), n)
            terms[_strip(e)] = int(arr[idx])
        return Ordinal._from_dict(terms)

    def bits(self, arr: np.ndarray) -> int:
        """The coordinates over GF(2) as one int (for linear algebra)."""
        out = 0
        for c in arr.reshape(-1).tolist():
            out = (out << self.base) | int(c)
        return out

    def minimal_polynomial(self, x: Ordinal) -> list[int]:
        t = self.tower
        d = t.element_degree(self.dense(x)) if x not in (0, 1) else 1
        a = self.dense(x)
        powers = [t.one()]
        for _ in range(d):
            powers.append(t.mul(powers[-1], a))
        # find the c with x^d = Σ c_i x^i over GF(2): eliminate on the bit vectors
        basis = XorBasis()
        for i, pw in enumerate(powers):
            v, comb = basis.insert(self.bits(pw), 1 << i)
            if v == 0:
                return [(comb >> k) & 1 for k in range(i, -1, -1)]
        raise AssertionError("powers of an element of a finite field are dependent")


register_fields(_Field.of)


# ---- subfields ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Subfield:
    """GF(2^degree) inside the ordinals below ω^ω^ω (there is one for each degree)."""

    degree: int

    def __contains__(self, x: Any) -> bool:
        return self.degree % Ordinal(x).degree() == 0

    def __str__(self) -> str:
        return f"GF(2^{self.degree})"


def subfield(*xs: Any) -> Subfield:
    """The subfield generated by the ordinals: GF(2^d) with d the lcm of their degrees.

    >>> print(subfield(Ordinal("ω"))), Ordinal(2) in subfield("ω"), Ordinal(4) in subfield("ω")
    GF(2^6)
    (None, True, False)
    """
    return Subfield(lcm(*(Ordinal(x).degree() for x in xs)) if xs else 1)
