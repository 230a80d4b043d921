"""The :class:`Ordinal` type: ordinals below ω^ω^ω in Cantor normal form, with Conway's nim
arithmetic (ONAG ch. 6), and the product of sparse sums of ω-powers after Lenstra.

A product ω^e1 ⊗ ω^e2 adds the exponents digit by digit in the base of each position's odd
prime; a carry out of the lowest digit of position j is a factor κ_p^p = α_p (Lenstra's
constant, :mod:`nimbers.ordinal.lenstra`).  Inverses, powers and roots work densely in the
finite field that holds the operand (:mod:`nimbers.ordinal.fields`).  Those two modules are
built on this one, and this one needs them back (α_p is computed by arithmetic in smaller
fields): they register themselves here (:func:`register_constants`,
:func:`register_fields`), so that imports run one way.

>>> w = Ordinal("w")
>>> w * w * w, w ** 3 == 2
(Ordinal('2'), True)
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any, Callable, Iterable

import numpy as np

from ..arith import nim_inv, nim_mul, nim_pow, nim_sqrt
from .exponents import Exponent, _add_digits, _exp_key, _odd_prime, _strip
from .notation import exponent_of, format_terms, parse_terms

if TYPE_CHECKING:
    from .fields import _Field


# ---- the Ordinal type ---------------------------------------------------------------------------

class Ordinal:
    """An ordinal below ω^ω^ω with Conway's nim arithmetic: ``+`` and ``-`` are the
    nim-sum, ``*``, ``/``, ``**`` the field operations (ONAG ch. 6).

    Made from an int, or parsed from Cantor normal form such as ``"ω^(ω^2+3)·5 + ω + 2"``
    (ASCII: ``"w^(w^2+3)*5 + w + 2"``; ``ω^ω^2`` means ω^(ω^2)).  Exact, immutable,
    hashable (a finite ordinal hashes and compares like its int) and ordered as ordinals.

    >>> x = Ordinal("w^(w^2+3)*5 + w + 2")
    >>> print(x); x.ascii(); x > Ordinal("ω^ω^2")
    ω^(ω^2+3)·5 + ω + 2
    'w^(w^2+3)*5 + w + 2'
    True
    >>> Ordinal("ω") * Ordinal("ω^2"), Ordinal(5) * 11
    (Ordinal('2'), Ordinal('12'))
    """

    __slots__ = ("_terms", "_hash")
    _terms: tuple[tuple[Exponent, int], ...]  # (exponent, coefficient), decreasing exponents
    _hash: int | None  # computed on first use

    def __init__(self, value: int | str | Ordinal = 0) -> None:
        if isinstance(value, Ordinal):
            terms = value._terms
        elif isinstance(value, str):
            terms = Ordinal._from_dict(parse_terms(value))._terms
        elif isinstance(value, (int, np.integer)) and not isinstance(value, bool):
            if value < 0:
                raise ValueError(f"ordinals are non-negative, got {value}")
            terms = (((), int(value)),) if value else ()
        else:
            raise TypeError(f"an Ordinal is made from an int or a string, not {type(value).__name__}")
        object.__setattr__(self, "_terms", terms)
        object.__setattr__(self, "_hash", None)

    @classmethod
    def _from_dict(cls, terms: dict[Exponent, int]) -> Ordinal:
        x = object.__new__(cls)
        items = tuple(sorted(((e, c) for e, c in terms.items() if c),
                             key=lambda t: _exp_key(t[0]), reverse=True))
        object.__setattr__(x, "_terms", items)
        object.__setattr__(x, "_hash", None)
        return x

    @classmethod
    def omega_power(cls, exponent: int | Ordinal | str) -> Ordinal:
        """ω^exponent for an exponent below ω^ω.

        >>> print(Ordinal.omega_power(Ordinal("ω·2+1")))
        ω^(ω·2+1)
        """
        e = _as_exponent(Ordinal(exponent) if not isinstance(exponent, Ordinal) else exponent)
        return cls._from_dict({e: 1})

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Ordinal is immutable")

    # ---- views ----------------------------------------------------------------------------

    def terms(self) -> list[tuple[Ordinal, int]]:
        """The Cantor normal form as (exponent, coefficient) pairs, largest first.

        >>> [(str(e), c) for e, c in Ordinal("ω^ω·3 + 7").terms()]
        [('ω', 3), ('0', 7)]
        """
        return [(_exponent_ordinal(e), c) for e, c in self._terms]

    @property
    def is_finite(self) -> bool:
        return all(e == () for e, _ in self._terms)

    def __int__(self) -> int:
        if not self.is_finite:
            raise ValueError(f"{self} is infinite")
        return self._terms[0][1] if self._terms else 0

    def __index__(self) -> int:
        return int(self)

    def __bool__(self) -> bool:
        return bool(self._terms)

    def _key(self) -> tuple[tuple[tuple[int, Exponent], int], ...]:
        return tuple((_exp_key(e), c) for e, c in self._terms)

    def __hash__(self) -> int:
        if self._hash is None:
            h = hash(int(self)) if self.is_finite else hash(self._terms)
            object.__setattr__(self, "_hash", h)
            return h
        return self._hash

    def __str__(self) -> str:
        return format_terms(self._terms, "ω", "·", " + ")

    def ascii(self) -> str:
        """Cantor normal form in ASCII: ``w`` for ω and ``*`` for the product."""
        return format_terms(self._terms, "w", "*", " + ")

    def __repr__(self) -> str:
        return f"Ordinal({str(self)!r})"

    # ---- order ----------------------------------------------------------------------------

    @staticmethod
    def _coerce(x: Any) -> Ordinal | None:
        if isinstance(x, Ordinal):
            return x
        if isinstance(x, (int, np.integer)) and not isinstance(x, bool) and x >= 0:
            return Ordinal(int(x))
        return None

    def __eq__(self, other: object) -> bool:
        o = self._coerce(other)
        return NotImplemented if o is None else self._terms == o._terms

    def __lt__(self, other: Any) -> bool:
        o = self._coerce(other)
        return NotImplemented if o is None else self._key() < o._key()

    def __le__(self, other: Any) -> bool:
        o = self._coerce(other)
        return NotImplemented if o is None else self._key() <= o._key()

    def __gt__(self, other: Any) -> bool:
        o = self._coerce(other)
        return NotImplemented if o is None else self._key() > o._key()

    def __ge__(self, other: Any) -> bool:
        o = self._coerce(other)
        return NotImplemented if o is None else self._key() >= o._key()

    # ---- the field operations ----------------------------------------------------------------

    def __add__(self, other: Any) -> Ordinal:
        o = self._coerce(other)
        if o is None:
            return NotImplemented
        acc = dict(self._terms)
        for e, c in o._terms:
            acc[e] = acc.get(e, 0) ^ c
        return Ordinal._from_dict(acc)

    __radd__ = __add__
    __sub__ = __add__
    __rsub__ = __add__

    def __neg__(self) -> Ordinal:
        return self

    def __pos__(self) -> Ordinal:
        return self

    def __mul__(self, other: Any) -> Ordinal:
        o = self._coerce(other)
        if o is None:
            return NotImplemented
        return Ordinal._from_dict(_sparse_mul(dict(self._terms), dict(o._terms)))

    __rmul__ = __mul__

    def inverse(self) -> Ordinal:
        """The nim-inverse (ZeroDivisionError for 0).

        >>> print(Ordinal("ω").inverse(), Ordinal("ω+1").inverse())
        ω^2·3 ω^2·2 + ω·2 + 2
        """
        if not self:
            raise ZeroDivisionError("the nim-inverse of 0 does not exist")
        if self.is_finite:
            return Ordinal(nim_inv(int(self)))
        field = _field_of([self], "inverse")
        return field.ordinal(field.tower.inverse(field.dense(self)))

    def __truediv__(self, other: Any) -> Ordinal:
        o = self._coerce(other)
        if o is None:
            return NotImplemented
        return self * o.inverse()

    def __rtruediv__(self, other: Any) -> Ordinal:
        o = self._coerce(other)
        if o is None:
            return NotImplemented
        return o * self.inverse()

    def __pow__(self, k: int) -> Ordinal:
        if isinstance(k, bool) or not isinstance(k, (int, np.integer)):
            return NotImplemented
        k = int(k)
        if k < 0:
            return self.inverse() ** -k
        if k == 0:
            return Ordinal(1)
        if k == 1 or not self:
            return self
        if self.is_finite:
            return Ordinal(nim_pow(int(self), k))
        if k & (k - 1) == 0:  # x^(2^j): the Frobenius map, no multiplication at all
            field = _field_of([self], "Frobenius map")
            return field.ordinal(field.tower.frobenius(field.dense(self), k.bit_length() - 1))
        field = _field_of([self])
        k %= (1 << field.tower.degree) - 1  # the order of the multiplicative group
        field.check_work("power", products=k.bit_length())
        return field.ordinal(field.tower.pow(field.dense(self), k))

    def square(self) -> Ordinal:
        """x ⊗ x, termwise (the Frobenius map is additive in characteristic 2)."""
        return self * self

    def sqrt(self) -> Ordinal:
        """The nim square root (every ordinal nimber has exactly one).

        >>> print(Ordinal(2).sqrt(), Ordinal("ω").sqrt())
        3 ω^2·2
        """
        if self.is_finite:
            return Ordinal(nim_sqrt(int(self)))
        field = _field_of([self], "Frobenius map")
        return field.ordinal(field.tower.sqrt(field.dense(self)))

    def degree(self) -> int:
        """The degree over GF(2) of the field this ordinal generates: the degree of its
        minimal polynomial.

        >>> Ordinal(2).degree(), Ordinal("ω").degree(), Ordinal("ω^ω").degree()
        (2, 6, 20)
        """
        if not self or self == 1:
            return 1
        field = _field_of([self], "degree")
        return field.tower.element_degree(field.dense(self))

    def minimal_polynomial(self) -> list[int]:
        """The minimal polynomial over GF(2), coefficients highest degree first (as
        :func:`nimbers.field.minimal_polynomial`).

        >>> Ordinal("ω").minimal_polynomial()   # ω^6 + ω^3 + 1 = 3 + 2 + 1 = 0
        [1, 0, 0, 1, 0, 0, 1]
        """
        field = _field_of([self], "minimal polynomial")
        return field.minimal_polynomial(self)

    def conjugates(self) -> list[Ordinal]:
        """x, x^2, x^4, ...: the roots of the minimal polynomial.

        >>> [str(c) for c in Ordinal("ω").conjugates()]
        ['ω', 'ω^2', 'ω·2', 'ω^2·3', 'ω·3', 'ω^2·2']
        """
        field = _field_of([self], "conjugates")
        a = field.dense(self)
        out = [self]
        for _ in range(1, self.degree()):
            a = field.tower.frobenius(a, 1)
            out.append(field.ordinal(a))
        return out


# ---- printing and parsing ---------------------------------------------------------------------

def _as_exponent(x: Ordinal) -> Exponent:
    """An ordinal below ω^ω as the tuple of its coefficients (a_0, a_1, ...)."""
    return exponent_of(dict(x._terms))


def _exponent_ordinal(e: Exponent) -> Ordinal:
    return Ordinal._from_dict({((k,) if k else ()): a for k, a in enumerate(e) if a})


# ---- where the recursion closes ----------------------------------------------------------------
# Products need Lenstra's constants α_p, and inverses need the dense field of their operand;
# both are computed with this module's products.  So the modules above this one register
# them here when they are imported (importing any part of nimbers.ordinal imports them all),
# and the imports keep running one way.

_alpha_source: Callable[[int], dict[Exponent, int]] | None = None
_field_source: Callable[[Iterable[Ordinal]], _Field] | None = None


def register_constants(alpha_terms: Callable[[int], dict[Exponent, int]]) -> None:
    """Called by :mod:`nimbers.ordinal.lenstra`: the terms of α_p for the j-th odd prime."""
    global _alpha_source
    _alpha_source = alpha_terms


def register_fields(field_of: Callable[[Iterable[Ordinal]], _Field]) -> None:
    """Called by :mod:`nimbers.ordinal.fields`: the smallest dense field holding ordinals."""
    global _field_source
    _field_source = field_of


def _alpha_terms(j: int) -> dict[Exponent, int]:
    """The terms of Lenstra's α_p for the j-th odd prime p (ValueError past MAX_PRIME)."""
    if _alpha_source is None:
        raise RuntimeError("nimbers.ordinal.lenstra was not imported")
    return _alpha_source(j)


def _field_of(xs: Iterable[Ordinal], work: str | None = None) -> _Field:
    """The smallest field of the tower (dense arithmetic) holding the ordinals, with the
    work to be done there checked against the time cap (:meth:`_Field.check_work`)."""
    if _field_source is None:
        raise RuntimeError("nimbers.ordinal.fields was not imported")
    field = _field_source(xs)
    if work is not None:
        field.check_work(work)
    return field


@lru_cache(maxsize=1 << 16)
def _mono_mul(e1: Exponent, e2: Exponent) -> tuple[tuple[Exponent, int], ...]:
    """ω^e1 ⊗ ω^e2 as (exponent, finite coefficient) pairs."""
    n = max(len(e1), len(e2))
    new, overflow = [], []
    for j in range(n):
        a = e1[j] if j < len(e1) else 0
        b = e2[j] if j < len(e2) else 0
        if a == 0 or b == 0:
            new.append(a + b)
            continue
        s, over = _add_digits(a, b, _odd_prime(j))
        new.append(s)
        if over:
            overflow.append(j)
    result: dict[Exponent, int] = {_strip(new): 1}
    for j in reversed(overflow):
        result = _sparse_mul(result, _alpha_terms(j))
    return tuple(result.items())


def _sparse_mul(x: dict[Exponent, int], y: dict[Exponent, int]) -> dict[Exponent, int]:
    acc: dict[Exponent, int] = {}
    for e1, c1 in x.items():
        for e2, c2 in y.items():
            c = nim_mul(c1, c2)
            if not c:
                continue
            key = (e1, e2) if _exp_key(e1) <= _exp_key(e2) else (e2, e1)
            for e, c3 in _mono_mul(*key):
                acc[e] = acc.get(e, 0) ^ (c if c3 == 1 else nim_mul(c, c3))
    return {e: c for e, c in acc.items() if c}
