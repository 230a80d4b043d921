"""Equations over the ordinal nimbers: Artin–Schreier equations x^2 + x = a, and every root
of a polynomial (the ordinals below ω^ω^ω are algebraically closed, ONAG ch. 6), by the
trace method in a finite field of the tower (:mod:`nimbers.ordinal.fields`).

>>> [str(r) for r in roots([1, 0, 0, 2])]            # x^3 = 2: ω and its conjugates
['ω', 'ω·2', 'ω·3']
"""

from __future__ import annotations

from math import lcm
from typing import Any, Sequence

import numpy as np

from .._gf2 import XorBasis
from .._tower import Tower
from .fields import _Field
from .ordinals import Ordinal


def solve_artin_schreier(a: Any) -> list[Ordinal]:
    """Both roots of x^2 + x = a (they differ by 1): in the field of a when the trace of a
    is 0, and otherwise in its quadratic extension, which Lenstra's tower reaches by
    doubling the finite part (Artin–Schreier).

    >>> [str(r) for r in solve_artin_schreier(1)]
    ['2', '3']
    >>> [str(r) for r in solve_artin_schreier("ω")]     # in GF(2^6), the field of ω
    ['ω^2·3 + ω·2', 'ω^2·3 + ω·2 + 1']
    >>> [str(r) for r in solve_artin_schreier(2)]       # 2 has trace 1 in GF(4): GF(16)
    ['4', '5']
    """
    a = Ordinal(a)
    field = _Field.of([a])
    field.check_work("Artin-Schreier equation")
    root = _linear_solve_as(field, a)
    if root is None:  # a has trace 1 in its field: the roots lie in the quadratic extension
        field = field.extended(2)
        field.check_work("Artin-Schreier equation")
        root = _linear_solve_as(field, a)
    if root is None:
        raise AssertionError("x^2 + x = a has a root in the quadratic extension")
    return sorted([root, root + 1])


def _linear_solve_as(field: _Field, a: Ordinal) -> Ordinal | None:
    """A y in the field with y^2 + y = a, by Gaussian elimination over GF(2)."""
    t = field.tower
    size = t.degree
    n_coeffs = size // field.base
    # images of the basis vectors under y -> y^2 + y
    columns = []
    flat = t.zero().reshape(-1)
    for k in range(size):
        basis = np.zeros_like(flat)
        coeff, bit = divmod(k, field.base)
        basis[n_coeffs - 1 - coeff] = 1 << (field.base - 1 - bit) if field.base > 1 else 1
        b = basis.reshape(t.zero().shape)
        columns.append((field.bits(t.frobenius(b, 1) ^ b), field.bits(b)))
    target = field.bits(field.dense(a))
    span = XorBasis()
    for v, comb in columns:
        span.insert(v, comb)
    v, sol = span.reduce(target)
    if v:
        return None
    arr = np.zeros_like(flat)
    for k in range(n_coeffs):
        arr[n_coeffs - 1 - k] = (sol >> (k * field.base)) & ((1 << field.base) - 1)
    return field.ordinal(arr.reshape(t.zero().shape))


def roots(coefficients: Sequence[Any], seed: int = 0) -> list[Ordinal]:
    """Every root of a polynomial with ordinal-nimber coefficients (highest degree first),
    distinct and in increasing order.  The ordinals below ω^ω^ω are algebraically closed
    (ONAG ch. 6), so a polynomial of degree n >= 1 splits there; its roots lie in the
    extension of degree dividing lcm(1, ..., n) of the field of its coefficients, which is
    searched by the trace method (Cantor and Zassenhaus's splitting for characteristic 2).
    ``seed`` fixes the random choices (the answer does not depend on it).

    Raises ValueError when that field is out of range (a prime above MAX_PRIME, or a
    degree above MAX_FIELD_DEGREE over GF(2)).

    >>> [str(r) for r in roots([1, 0, 0, 2])]            # x^3 = 2: ω and its conjugates
    ['ω', 'ω·2', 'ω·3']
    >>> [str(r) for r in roots([1, 1, "ω"])]             # x^2 + x = ω (Artin–Schreier)
    ['ω^2·3 + ω·2', 'ω^2·3 + ω·2 + 1']
    >>> roots([1, 1, 1]), roots([3, 1])                  # x^2 + x + 1; 3x + 1
    ([Ordinal('2'), Ordinal('3')], [Ordinal('2')])
    """
    coeffs = [Ordinal(c) for c in coefficients]
    while coeffs and not coeffs[0]:
        coeffs.pop(0)
    if len(coeffs) < 2:
        raise ValueError("a polynomial of degree at least 1 is needed (highest degree first)")
    n = len(coeffs) - 1
    field = _Field.of(coeffs).extended(lcm(*range(1, n + 1)))
    field.check_work("roots", products=n * n)
    ring = _PolyRing(field.tower, np.random.default_rng(seed))
    poly = ring.monic([field.dense(c) for c in reversed(coeffs)])
    found = ring.split(ring.squarefree(poly))
    return sorted({field.ordinal(r) for r in found})


class _PolyRing:
    """Polynomials over a tower field: lists of coefficient arrays, constant term first."""

    def __init__(self, tower: Tower, rng: np.random.Generator) -> None:
        self.t = tower
        self.rng = rng

    def trim(self, p: list[np.ndarray]) -> list[np.ndarray]:
        while p and self.t.is_zero(p[-1]):
            p = p[:-1]
        return p

    def monic(self, p: list[np.ndarray]) -> list[np.ndarray]:
        p = self.trim(p)
        lead = self.t.inverse(p[-1])
        return [self.t.mul(c, lead) for c in p]

    def mul(self, p: list[np.ndarray], q: list[np.ndarray]) -> list[np.ndarray]:
        out = [self.t.zero() for _ in range(len(p) + len(q) - 1)]
        for i, a in enumerate(p):
            for j, b in enumerate(q):
                out[i + j] = out[i + j] ^ self.t.mul(a, b)
        return self.trim(out)

    def mod(self, p: list[np.ndarray], m: list[np.ndarray]) -> list[np.ndarray]:
        """p mod a monic m."""
        p = self.trim(list(p))
        d = len(m) - 1
        while len(p) > d:
            lead, shift = p[-1], len(p) - 1 - d
            for i in range(d):
                p[shift + i] = p[shift + i] ^ self.t.mul(lead, m[i])
            p = self.trim(p[:-1])
        return p

    def gcd(self, p: list[np.ndarray], q: list[np.ndarray]) -> list[np.ndarray]:
        p, q = self.trim(p), self.trim(q)
        while q:
            q = self.monic(q)
            p, q = q, self.mod(p, q)
        return self.monic(p)

    def squarefree(self, p: list[np.ndarray]) -> list[np.ndarray]:
        """The product of the distinct monic irreducible factors (characteristic 2: when the
        derivative vanishes, p is a square and its square root is taken coefficientwise)."""
        # the derivative: i·c_i x^(i-1) keeps the odd-degree coefficients
        deriv = self.trim([c if i % 2 == 0 else self.t.zero() for i, c in enumerate(p[1:])])
        if not deriv:
            return self.squarefree([self.t.sqrt(c) for c in p[::2]])
        g = self.gcd(p, deriv)
        if len(g) == 1:
            return p
        quotient = self.divide(p, g)
        return self.squarefree_combine(quotient, g)

    def squarefree_combine(self, q: list[np.ndarray], g: list[np.ndarray]) -> list[np.ndarray]:
        # q = p / gcd(p, p') holds every root of p not repeated an even number of times; the
        # others are roots of g: combine the square-free parts
        rest = self.squarefree(g)
        common = self.gcd(q, rest)
        return self.mul(q, self.divide(rest, common))

    def divide(self, p: list[np.ndarray], m: list[np.ndarray]) -> list[np.ndarray]:
        """The exact quotient p / m for a monic m."""
        p = list(p)
        d = len(m) - 1
        out = [self.t.zero() for _ in range(len(p) - d)]
        while len(p) > d:
            lead, shift = p[-1], len(p) - 1 - d
            out[shift] = lead
            for i in range(d):
                p[shift + i] = p[shift + i] ^ self.t.mul(lead, m[i])
            p = p[:-1]
        return self.trim(out)

    def split(self, p: list[np.ndarray]) -> list[np.ndarray]:
        """The roots of a monic square-free p that splits into linear factors."""
        if len(p) == 2:
            return [p[0]]  # x + c has the root c (characteristic 2)
        while True:
            delta = self.random()
            # the trace map Σ (δx)^(2^i) mod p: its gcd with p collects the roots r with
            # Tr(δ r) = 0, about half of them
            term = self.mod([self.t.zero(), delta], p)
            acc = list(term)
            for _ in range(self.t.degree - 1):
                term = self.mod(self.square(term), p)
                acc = self.add(acc, term)
            g = self.gcd(p, acc) if self.trim(acc) else p
            if 1 < len(g) < len(p):
                return self.split(g) + self.split(self.divide(p, g))

    def square(self, p: list[np.ndarray]) -> list[np.ndarray]:
        out = []
        for c in p:
            out += [self.t.frobenius(c, 1), self.t.zero()]
        return self.trim(out)

    def add(self, p: list[np.ndarray], q: list[np.ndarray]) -> list[np.ndarray]:
        if len(p) < len(q):
            p, q = q, p
        return self.trim([a ^ q[i] if i < len(q) else a for i, a in enumerate(p)])

    def random(self) -> np.ndarray:
        bits = self.t.base_bits
        z = self.t.zero()
        flat = z.reshape(-1)
        for i in range(flat.size):
            flat[i] = int(self.rng.integers(0, 1 << min(bits, 62))) if bits <= 62 else \
                int.from_bytes(self.rng.bytes((bits + 7) // 8), "little") >> (-bits % 8)
        return z
