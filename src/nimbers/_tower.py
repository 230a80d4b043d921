"""Dense arithmetic in a finite field of ordinal nimbers, for :mod:`nimbers.ordinal`.

Lenstra ("On the algebraic closure of two", 1977) builds every finite subfield of the
ordinals below ω^ω^ω as a tower of pure extensions over a field of finite nimbers:

    K_0 = GF(2^(2^k))   (the nimbers below 2^(2^k), multiplied by the compiled nim_mul)
    K_i = K_(i-1)[θ_i] / (θ_i^(r_i) - β_i)      r_i = p^n for an odd prime p, β_i = α_p,

where θ_i = κ_(p^n) = ω^(ω^(j-1)·p^(n-1)) for p the j-th odd prime, and α_p is Lenstra's
constant (κ_p^p = α_p, not a p-th power in the field below κ_p, so the polynomial is
irreducible).  An element of K_m is a numpy array of shape (r_m, ..., r_1) of finite
nimbers: the coefficient of θ_m^(i_m) ... θ_1^(i_1).

Everything here is reached through :class:`Tower`; nothing here knows how ordinals are
written.  Products are polynomial products with the reduction θ^r = β layer by layer;
squaring is additive in characteristic 2, and every power of the Frobenius map x -> x^2
is a permutation of the monomials times known factors, which makes inverses (Itoh and
Tsujii's addition chain) and p-th power tests cheap.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._progress import Progress
from .arith import nim_mul, nim_square

# A product whose outer-product array would hold more entries than this is computed one
# row of the top layer at a time, so memory stays bounded (the entries are at most 8 bytes).
_OUTER_LIMIT = 1 << 22
# Polynomials longer than this multiply by Karatsuba's method.
_KARATSUBA = 12


def _prime_factors(n: int) -> list[int]:
    out, d = [], 2
    while d * d <= n:
        if n % d == 0:
            out.append(d)
            while n % d == 0:
                n //= d
        d += 1
    if n > 1:
        out.append(n)
    return out


def _dtype(bits: int) -> Any:
    for dt in (np.uint8, np.uint16, np.uint32, np.uint64):
        if bits <= np.dtype(dt).itemsize * 8:
            return dt
    return object


class Tower:
    """The field K_m described in the module docstring.

    Parameters
    ----------
    base_bits : int
        2^k: the base field is the nimbers below 2^base_bits.
    layers : list of (r, beta)
        From the bottom up: the degree r of each pure extension and β as an array of the
        field below it (shape of the layers below; a 0-d array for the base field).
    """

    def __init__(self, base_bits: int, layers: list[tuple[int, np.ndarray]]) -> None:
        self.base_bits = base_bits
        self.dtype = _dtype(base_bits)
        self.r = [r for r, _ in layers]
        self.beta = [np.asarray(b, dtype=self.dtype) for _, b in layers]
        self.degrees = [base_bits]  # degree over GF(2) of K_0, K_1, ...
        for r in self.r:
            self.degrees.append(self.degrees[-1] * r)
        self.degree = self.degrees[-1]
        self.shape = tuple(reversed(self.r))
        self._frob_cache: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}
        # base fields of at most 8 bits multiply by table lookup (several times faster than
        # the general ufunc on these tiny operands); the tables come from nim_mul itself
        self._table = None
        if base_bits <= 8:
            values = np.arange(1 << base_bits, dtype=np.uint8)
            self._table = nim_mul.outer(values, values).astype(np.uint8).reshape(-1)
            self._square_table = nim_square(values).astype(np.uint8)

    # ---- elements -----------------------------------------------------------------------

    def zero(self, level: int | None = None) -> np.ndarray:
        level = len(self.r) if level is None else level
        return np.zeros(self._shape(level), dtype=self.dtype)

    def one(self, level: int | None = None) -> np.ndarray:
        z = self.zero(level)
        z[(0,) * z.ndim] = 1
        return z

    def _shape(self, level: int) -> tuple[int, ...]:
        return tuple(reversed(self.r[:level]))

    @staticmethod
    def equal(a: np.ndarray, b: np.ndarray) -> bool:
        return bool(np.array_equal(a, b))

    @staticmethod
    def is_zero(a: np.ndarray) -> bool:
        return not np.any(a)

    # ---- products -------------------------------------------------------------------------

    def mul(self, a: np.ndarray, b: np.ndarray, level: int | None = None) -> np.ndarray:
        """a ⊗ b, batched over any leading axes (numpy broadcasting)."""
        level = len(self.r) if level is None else level
        return self._mul(np.asarray(a, dtype=self.dtype), np.asarray(b, dtype=self.dtype), level)

    def _mul(self, a: np.ndarray, b: np.ndarray, level: int) -> np.ndarray:
        if level == 0:
            return self._base_mul(a, b)
        return self._reduce(self._polymul(a, b, level), level)

    def _polymul(self, a: np.ndarray, b: np.ndarray, level: int) -> np.ndarray:
        """The product of two polynomials in θ of the same length n (axis -level) with
        coefficients in the field below: length 2n - 1.  Karatsuba above _KARATSUBA
        coefficients (three half-size products, batched into one call), schoolbook below."""
        m = level - 1
        tail = (slice(None),) * m
        n = a.shape[a.ndim - m - 1]
        if n > _KARATSUBA:
            # same number of axes, so the stacked halves line up
            a = a.reshape((1,) * (b.ndim - a.ndim) + a.shape)
            b = b.reshape((1,) * (a.ndim - b.ndim) + b.shape)
            h = (n + 1) // 2
            a0, a1 = self._halves(a, h, m)
            b0, b1 = self._halves(b, h, m)
            batch_a = np.stack(np.broadcast_arrays(a0, a1, a0 ^ a1))
            batch_b = np.stack(np.broadcast_arrays(b0, b1, b0 ^ b1))
            p0, p2, p1 = self._polymul(batch_a, batch_b, level)
            p1 = p1 ^ p0 ^ p2
            out = np.zeros(p0.shape[: p0.ndim - m - 1] + (4 * h - 1,) + p0.shape[p0.ndim - m:],
                           dtype=self.dtype)
            out[(Ellipsis, slice(0, 2 * h - 1)) + tail] ^= p0
            out[(Ellipsis, slice(h, 3 * h - 1)) + tail] ^= p1
            out[(Ellipsis, slice(2 * h, 4 * h - 1)) + tail] ^= p2
            return out[(Ellipsis, slice(0, 2 * n - 1)) + tail]
        lower = self._shape(m)
        batch = np.broadcast_shapes(a.shape[: a.ndim - m - 1], b.shape[: b.ndim - m - 1])
        size = int(np.prod(batch, dtype=np.int64)) * n * n * (int(np.prod(lower, dtype=np.int64)) ** 2)
        out = np.zeros(batch + (2 * n - 1,) + lower, dtype=self.dtype)
        if size <= _OUTER_LIMIT:
            # all n*n products of coefficients at once, then sum along anti-diagonals
            a2 = a.reshape(a.shape[: a.ndim - m] + (1,) + lower)
            b2 = b.reshape(b.shape[: b.ndim - m - 1] + (1, n) + lower)
            prod = self._mul(a2, b2, m)
            for i in range(n):
                out[(Ellipsis, slice(i, i + n)) + tail] ^= prod[(Ellipsis, i, slice(None)) + tail]
        else:
            for i in range(n):
                ai = a[(Ellipsis, slice(i, i + 1)) + tail]
                out[(Ellipsis, slice(i, i + n)) + tail] ^= self._mul(ai, b, m)
        return out

    def _halves(self, a: np.ndarray, h: int, m: int) -> tuple[np.ndarray, np.ndarray]:
        """The low h coefficients and the high ones, zero-padded to h."""
        tail = (slice(None),) * m
        n = a.shape[a.ndim - m - 1]
        low = a[(Ellipsis, slice(0, h)) + tail]
        high = np.zeros_like(low)
        high[(Ellipsis, slice(0, n - h)) + tail] = a[(Ellipsis, slice(h, n)) + tail]
        return low, high

    def _base_mul(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        if self._table is None:
            return np.asarray(nim_mul(a, b), dtype=self.dtype)
        table: np.ndarray = self._table
        if self.base_bits <= 4:
            return np.asarray(table[(a << self.base_bits) | b])
        return np.asarray(table[(a.astype(np.uint16) << self.base_bits) | b])

    def _reduce(self, poly: np.ndarray, level: int) -> np.ndarray:
        """A polynomial in θ of degree < 2r - 1 modulo θ^r - β."""
        r = self.r[level - 1]
        m = level - 1
        tail = (slice(None),) * m
        high = poly[(Ellipsis, slice(r, None)) + tail]
        if high.shape[-m - 1] and np.any(high):
            low = poly[(Ellipsis, slice(0, high.shape[-m - 1])) + tail]
            low ^= self._mul(high, self.beta[level - 1], level - 1)
        return np.ascontiguousarray(poly[(Ellipsis, slice(0, r)) + tail])

    def square(self, a: np.ndarray) -> np.ndarray:
        return self.frobenius(a, 1)

    def pow(self, a: np.ndarray, e: int, progress: Progress | None = None) -> np.ndarray:
        """a^e for e >= 0 (squarings are Frobenius maps, so cheap); progress, when given,
        advances one step an exponent bit."""
        result = self.one()
        base = a
        while e:
            if e & 1:
                result = self.mul(result, base)
            e >>= 1
            if e:
                base = self.frobenius(base, 1)
            if progress is not None:
                progress.update()
        return result

    # ---- the Frobenius map ------------------------------------------------------------------

    def frobenius(self, a: np.ndarray, k: int, level: int | None = None) -> np.ndarray:
        """a^(2^k), batched over leading axes."""
        level = len(self.r) if level is None else level
        k %= self.degrees[level]
        if k == 0:
            return a.copy()
        if level == 0:
            for _ in range(k):
                a = self._square_table[a] if self._table is not None else nim_square(a)
            return np.asarray(a, dtype=self.dtype)
        m = level - 1
        tail = (slice(None),) * m
        coeffs = self.frobenius(a, k, level - 1)
        perm, factors = self._frobenius_table(level, k)
        scaled = self._mul(coeffs, factors, level - 1)
        out = np.empty_like(scaled)
        out[(Ellipsis, perm) + tail] = scaled
        return out

    def _frobenius_table(self, level: int, k: int) -> tuple[np.ndarray, np.ndarray]:
        """(θ^i)^(2^k) = F_i · θ^(perm[i]) with F_i in the field below: perm and the F_i.

        θ^(2^k) = β^u θ^v with v = 2^k mod r, u = (2^k - v) / r, so (θ^i)^(2^k) =
        β^(i·u + floor(i·v / r)) θ^(i·v mod r); the exponent of β only matters modulo the
        order of the multiplicative group below, 2^d - 1.
        """
        key = (level, k)
        if key in self._frob_cache:
            return self._frob_cache[key]
        r = self.r[level - 1]
        beta = self.beta[level - 1]
        lower = level - 1
        group = (1 << self.degrees[lower]) - 1
        two_k = pow(2, k, r * group)  # enough to know 2^k mod r and u mod group
        v = two_k % r
        u = ((two_k - v) // r) % group
        beta_u = self._pow_level(beta, u, lower)
        beta_u1 = self._mul(beta_u, beta, lower)
        factors = np.empty((r,) + self._shape(lower), dtype=self.dtype)
        factors[0] = self.one(lower)
        perm = np.zeros(r, dtype=np.intp)
        for i in range(1, r):
            carry = perm[i - 1] + v >= r
            factors[i] = self._mul(factors[i - 1], beta_u1 if carry else beta_u, lower)
            perm[i] = (perm[i - 1] + v) % r
        self._frob_cache[key] = (perm, factors)
        return perm, factors

    def _pow_level(self, a: np.ndarray, e: int, level: int) -> np.ndarray:
        result = self.one(level)
        base = np.asarray(a, dtype=self.dtype)
        while e:
            if e & 1:
                result = self._mul(result, base, level)
            e >>= 1
            if e:
                base = self.frobenius(base, 1, level)
        return result

    def frobenius_product(self, a: np.ndarray, step: int, count: int) -> np.ndarray:
        """a · a^(2^step) · a^(2^(2·step)) ... (count factors), by doubling."""
        if count == 1:
            return a
        half = self.frobenius_product(a, step, count // 2)
        result = self.mul(half, self.frobenius(half, step * (count // 2)))
        if count % 2:
            result = self.mul(result, self.frobenius(a, step * (count - 1)))
        return result

    # ---- derived operations -------------------------------------------------------------------

    def inverse(self, a: np.ndarray) -> np.ndarray:
        """a^(2^D - 2) = (a^(2^(D-1) - 1))^2, by Itoh and Tsujii's chain."""
        if self.is_zero(a):
            raise ZeroDivisionError("the nim-inverse of 0 does not exist")
        if self.degree == 1:
            return a.copy()
        return self.frobenius(self.frobenius_product(a, 1, self.degree - 1), 1)

    def sqrt(self, a: np.ndarray) -> np.ndarray:
        return self.frobenius(a, self.degree - 1)

    def element_degree(self, a: np.ndarray) -> int:
        """The degree over GF(2) of the field the element generates."""
        d = self.degree
        for ell in _prime_factors(self.degree):
            while d % ell == 0 and self.equal(self.frobenius(a, d // ell), a):
                d //= ell
        return d

    def is_pth_power(self, a: np.ndarray, p: int, order_of_two: int) -> bool:
        """Whether a = b^p for some b in this field (p an odd prime, order_of_two the order
        of 2 modulo p).  The group has order 2^D - 1; when p does not divide it every
        element is a p-th power; otherwise a is one exactly when a^((2^D - 1)/p) = 1, and
        that exponent is ((2^f - 1)/p)·(1 + 2^f + 2^(2f) + ...), a power followed by a
        product of Frobenius images."""
        f = order_of_two
        if self.degree % f or self.is_zero(a):
            return True
        exponent = ((1 << f) - 1) // p
        # In fields of thousands of bits (p = 107, 139, 167, 179, 227) this takes seconds to
        # minutes: a bar on the terminal (Ctrl-C stops it between products).
        with Progress(exponent.bit_length(), f"p-th power test in a field of degree {self.degree}",
                      min_total=1 if self.degree >= 4096 else 1 << 62) as bar:
            gamma = self.pow(a, exponent, bar)
        return self.equal(self.frobenius_product(gamma, f, self.degree // f), self.one())
