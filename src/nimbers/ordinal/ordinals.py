"""Ordinal nimbers below ω^ω^ω: the algebraic closure of the two-element field.

Conway (On Numbers and Games, ch. 6) extended nim-addition and nim-multiplication to all
ordinals and showed that the ordinals below ω^ω^ω form the algebraic closure of GF(2).
Lenstra ("On the algebraic closure of two", 1977; "Nim multiplication", 1978) showed how
to compute in it.  For the j-th odd prime p (p = 3, 5, 7, ... for j = 1, 2, 3, ...) put

    κ_(p^(n+1)) = ω^(ω^(j-1) · p^n),        κ_(2^(n+1)) = 2^(2^n) (the Fermat 2-powers).

Then κ_(p^(n+1))^p = κ_(p^n) for n >= 1 and κ_p^p = α_p, where α_p = κ_(f(p)) + e(p): f(p)
is the order of 2 modulo p, κ_h for a composite h is a nim-sum of the κ_q over a set of
prime powers q (the *Q-set* of p, :func:`q_set`), and the *excess* e(p) (:func:`excess`)
is the least natural number making α_p not a p-th power below κ_p.  So ω^3 = 2
(α_3 = κ_2 = 2), (ω^ω)^5 = 4, (ω^ω^2)^7 = ω + 1, ...

An ordinal in Cantor normal form is a nim-sum of terms ω^e·c with a finite nimber c, and
ω^e is the nim-product of powers κ_q^d with d < p read off from the base-p digits of the
coefficients of e; products follow from these rules and the compiled finite nim_mul.

>>> w = Ordinal("w")
>>> w * w * w
Ordinal('2')
>>> print(Ordinal("ω^ω") ** 5, Ordinal("ω^ω^2") ** 7)
4 ω + 1
>>> print(w + 5, (w + 1).inverse() * (w + 1))
ω + 5 1
>>> q_set(7), excess(7), str(alpha(7))
((3,), 1, 'ω + 1')

The constants are computed from their definition (cached) for the primes up to
:data:`MAX_PRIME` = 257, as far as CGSuite's table goes; arithmetic that needs a larger
prime's constant raises ValueError.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from math import lcm
from typing import Any, Iterable, Iterator, Sequence

import numpy as np

from .._gf2 import XorBasis
from .._tower import Tower, _prime_factors
from ..arith import nim_inv, nim_mul, nim_pow, nim_sqrt

__all__ = [
    "MAX_PRIME",
    "Ordinal",
    "Subfield",
    "alpha",
    "excess",
    "explain_mul",
    "kappa",
    "nim_heap_value",
    "order_of_two",
    "q_set",
    "roots",
    "solve_artin_schreier",
    "subfield",
    "winning_move",
]

#: The largest prime whose Lenstra constants this module computes.  An ordinal whose
#: exponents reach ω^(ω^(j-1)) for the j-th odd prime p > MAX_PRIME can be added and
#: compared, but a product that needs α_p raises ValueError.
MAX_PRIME = 257

# A field with more coordinates than this (over GF(2)) is refused by the operations that
# need a dense representation (inverse, powers, roots, degrees): the memory and time grow
# with its square.
MAX_FIELD_DEGREE = 1 << 17

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
            terms = _parse(value)._terms
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
        return _format(self._terms, "ω", "·", " + ")

    def ascii(self) -> str:
        """Cantor normal form in ASCII: ``w`` for ω and ``*`` for the product."""
        return _format(self._terms, "w", "*", " + ")

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
        field = _Field.of([self])
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
        field = _Field.of([self])
        if k & (k - 1) == 0:  # x^(2^j): the Frobenius map, no multiplication at all
            return field.ordinal(field.tower.frobenius(field.dense(self), k.bit_length() - 1))
        k %= (1 << field.tower.degree) - 1  # the order of the multiplicative group
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
        field = _Field.of([self])
        return field.ordinal(field.tower.sqrt(field.dense(self)))

    def degree(self) -> int:
        """The degree over GF(2) of the field this ordinal generates: the degree of its
        minimal polynomial.

        >>> Ordinal(2).degree(), Ordinal("ω").degree(), Ordinal("ω^ω").degree()
        (2, 6, 20)
        """
        if not self or self == 1:
            return 1
        field = _Field.of([self])
        return field.tower.element_degree(field.dense(self))

    def minimal_polynomial(self) -> list[int]:
        """The minimal polynomial over GF(2), coefficients highest degree first (as
        :func:`nimbers.field.minimal_polynomial`).

        >>> Ordinal("ω").minimal_polynomial()   # ω^6 + ω^3 + 1 = 3 + 2 + 1 = 0
        [1, 0, 0, 1, 0, 0, 1]
        """
        field = _Field.of([self])
        return field.minimal_polynomial(self)

    def conjugates(self) -> list[Ordinal]:
        """x, x^2, x^4, ...: the roots of the minimal polynomial.

        >>> [str(c) for c in Ordinal("ω").conjugates()]
        ['ω', 'ω^2', 'ω·2', 'ω^2·3', 'ω·3', 'ω^2·2']
        """
        field = _Field.of([self])
        a = field.dense(self)
        out = [self]
        for _ in range(1, self.degree()):
            a = field.tower.frobenius(a, 1)
            out.append(field.ordinal(a))
        return out


# ---- printing and parsing ---------------------------------------------------------------------

def _format_exponent(e: Exponent, w: str, dot: str) -> str:
    parts = []
    for k in range(len(e) - 1, -1, -1):
        a = e[k]
        if not a:
            continue
        if k == 0:
            parts.append(str(a))
        else:
            base = w if k == 1 else f"{w}^{k}"
            parts.append(base if a == 1 else f"{base}{dot}{a}")
    return "+".join(parts) if parts else "0"


def _format(terms: Sequence[tuple[Exponent, int]], w: str, dot: str, plus: str) -> str:
    if not terms:
        return "0"
    out = []
    for e, c in terms:
        if e == ():
            out.append(str(c))
            continue
        if e == (1,):
            power = w
        elif len(e) == 1:
            power = f"{w}^{e[0]}"
        elif e == (0, 1):
            power = f"{w}^{w}"
        else:
            power = f"{w}^({_format_exponent(e, w, dot)})"
        out.append(power if c == 1 else f"{power}{dot}{c}")
    return plus.join(out)


_TOKEN = re.compile(r"\s*(?:(\d+)|([ωwW])|(\^|\(|\)|\+|\*|·|\.))")


def _tokens(text: str) -> list[str]:
    out, pos = [], 0
    text = text.strip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise ValueError(f"cannot read an ordinal at {text[pos:pos + 10]!r} in {text!r}")
        tok = m.group(1) or m.group(2) or m.group(3)
        out.append("w" if tok in "ωwW" and not tok.isdigit() else ("*" if tok in "·.*" else tok))
        pos = m.end()
    return out


class _Parser:
    """Cantor normal form: sum := term ('+' term)*; term := NUMBER | power [('*'|'·') NUMBER];
    power := 'ω' ['^' atom]; atom := NUMBER | power | '(' sum ')'."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.toks = _tokens(text)
        self.i = 0

    def peek(self) -> str | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self, expected: str | None = None) -> str:
        tok = self.peek()
        if tok is None or (expected is not None and tok != expected):
            want = f"{expected!r}" if expected else "more"
            raise ValueError(f"expected {want} in the ordinal {self.text!r}")
        self.i += 1
        return tok

    def parse(self) -> Ordinal:
        if not self.toks:
            raise ValueError("empty ordinal")
        x = self.sum()
        if self.peek() is not None:
            raise ValueError(f"unexpected {self.peek()!r} in the ordinal {self.text!r}")
        return x

    def sum(self) -> Ordinal:
        terms = [self.term()]
        while self.peek() == "+":
            self.take("+")
            terms.append(self.term())
        acc: dict[Exponent, int] = {}
        last = None
        for e, c in terms:
            if c == 0:
                continue
            if last is not None and _exp_key(e) >= _exp_key(last):
                raise ValueError(f"{self.text!r} is not in Cantor normal form: the exponents "
                                 "must decrease from left to right (write ω·2, not ω + ω)")
            acc[e] = c
            last = e
        return Ordinal._from_dict(acc)

    def term(self) -> tuple[Exponent, int]:
        tok = self.peek()
        if tok is not None and tok.isdigit():
            return (), int(self.take())
        e = self.power()
        c = 1
        if self.peek() == "*":
            self.take("*")
            tok = self.take()
            if not tok.isdigit():
                raise ValueError(f"a coefficient is a natural number, got {tok!r} in {self.text!r}")
            c = int(tok)
        return e, c

    def power(self) -> Exponent:
        self.take("w")
        if self.peek() != "^":
            return (1,)
        self.take("^")
        tok = self.peek()
        if tok is not None and tok.isdigit():
            exponent = Ordinal(int(self.take()))
        elif tok == "w":
            exponent = Ordinal._from_dict({self.power(): 1})
        elif tok == "(":
            self.take("(")
            exponent = self.sum()
            self.take(")")
        else:
            raise ValueError(f"expected an exponent after '^' in {self.text!r}")
        return _as_exponent(exponent)


def _parse(text: str) -> Ordinal:
    return _Parser(text).parse()


def _as_exponent(x: Ordinal) -> Exponent:
    """An ordinal below ω^ω as the tuple of its coefficients (a_0, a_1, ...)."""
    e: dict[int, int] = {}
    for exp, c in x._terms:
        if len(exp) > 1:
            raise ValueError(f"the exponent {x} is not below ω^ω: this module handles the "
                             "ordinals below ω^ω^ω")
        e[exp[0] if exp else 0] = c
    return _strip(e.get(k, 0) for k in range(max(e) + 1)) if e else ()


def _exponent_ordinal(e: Exponent) -> Ordinal:
    return Ordinal._from_dict({((k,) if k else ()): a for k, a in enumerate(e) if a})


# ---- Lenstra's constants --------------------------------------------------------------------

def order_of_two(p: int) -> int:
    """f(p): the multiplicative order of 2 modulo an odd prime p.

    >>> [order_of_two(p) for p in (3, 5, 7, 11, 13)]
    [2, 4, 3, 10, 12]
    """
    p = int(p)
    f, t = 1, 2 % p
    while t != 1:
        t = t * 2 % p
        f += 1
    return f


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


def _alpha_terms(j: int) -> dict[Exponent, int]:
    p = _odd_prime(j)
    if p > MAX_PRIME:
        raise ValueError(f"out of range: this product needs Lenstra's constant α_{p} for "
                         f"ω^(ω^{j}), computed only for primes p <= {MAX_PRIME}")
    return dict(_alpha(p)._terms)


# ---- products of sparse sums of monomials ----------------------------------------------------

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


# ---- finite fields of ordinals, densely ---------------------------------------------------------

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


# ---- subfields and equations ------------------------------------------------------------------

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
    for f in (field, field.extended(2)):
        root = _linear_solve_as(f, a)
        if root is not None:
            return sorted([root, root + 1])
    raise AssertionError("x^2 + x = a has a root in the quadratic extension")


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


# ---- explanations ----------------------------------------------------------------------------

def _kappa_factors(e: Exponent) -> list[tuple[int, int]]:
    """ω^e as a product of κ_q^d: (q, d) pairs, largest q first."""
    out = []
    for j in range(len(e) - 1, -1, -1):
        p = _odd_prime(j)
        for i, d in enumerate(_digits(e[j], p)):
            if d:
                out.append((p ** (i + 1), d))
    return out


def _kappa_text(factors: list[tuple[int, int]]) -> str:
    if not factors:
        return "1"
    return " ⊗ ".join(f"κ_{q}" if d == 1 else f"κ_{q}^{d}" for q, d in factors)


def explain_mul(x: Any, y: Any) -> str:
    """Why x ⊗ y is what it is, in Lenstra's terms: each ω-power is a product of κ's
    (the base-p digits of its exponent), exponents add with κ_(p^(n+1))^p = κ_(p^n) and
    κ_p^p = α_p, and the constants are explained where they enter.

    >>> print(explain_mul("ω", "ω^2"))
    ω ⊗ ω^2
    = κ_3 ⊗ κ_3^2    (ω^(ω^(j-1)·a) is a product of κ_(p^(i+1))^d over the base-p digits d of a)
    = κ_3^3
    = α_3    (κ_3^3 = α_3)
    = 2
    α_3 = κ_f(3) + excess(3) = κ_2 + 0 = 2: f(3) = 2 is the order of 2 mod 3, and 2 is not
    a cube among the nimbers below 4 (2^((4 - 1)/3) = 2 ≠ 1), so ω, the first ordinal past
    them, is its cube root (ONAG ch. 6).
    """
    x, y = Ordinal(x), Ordinal(y)
    head = f"{x} ⊗ {y}"
    if len(x._terms) != 1 or len(y._terms) != 1:
        lines = [head, f"= {' ⊕ '.join(f'({ex} ⊗ {ey})' for ex, _ in x.terms() for ey, _ in y.terms())}"
                 if False else f"= distributing over the {len(x._terms)}×{len(y._terms)} pairs of terms"]
        lines.append(f"= {x * y}")
        return "\n".join(lines)
    (e1, c1), (e2, c2) = x._terms[0], y._terms[0]
    f1, f2 = _kappa_factors(e1), _kappa_factors(e2)
    coef = nim_mul(c1, c2)
    scal = "" if coef == 1 else f"{coef} ⊗ "
    lines = [head, f"= {scal}{_kappa_text(f1)} ⊗ {_kappa_text(f2)}    (ω^(ω^(j-1)·a) is a product "
                   f"of κ_(p^(i+1))^d over the base-p digits d of a)"]
    combined: dict[int, int] = {}
    for q, d in f1 + f2:
        combined[q] = combined.get(q, 0) + d
    lines.append(f"= {scal}{_kappa_text(sorted(combined.items(), reverse=True))}")
    notes = []
    alphas = []
    for q in sorted(combined, reverse=True):
        p, n = _prime_power(q)
        while combined.get(q, 0) >= p:
            combined[q] -= p
            if n > 1:
                combined[q // p] = combined.get(q // p, 0) + 1
            else:
                alphas.append(p)
    if alphas:
        rest = _kappa_text(sorted(((q, d) for q, d in combined.items() if d), reverse=True))
        factors = " ⊗ ".join(f"α_{p}" for p in alphas)
        why = ", ".join(f"κ_{p}^{p} = α_{p}" for p in alphas)
        lines.append(f"= {scal}{'' if rest == '1' else rest + ' ⊗ '}{factors}    ({why})")
        for p in alphas:
            notes.append(_alpha_note(p))
    lines.append(f"= {x * y}")
    return "\n".join(lines + notes)


def _alpha_note(p: int) -> str:
    f = order_of_two(p)
    qs = q_set(p)
    a = alpha(p)
    kap = " + ".join(f"κ_{q}" for q in qs)
    text = (f"α_{p} = κ_f({p}) + excess({p}) = {kap} + {excess(p)} = {a}: f({p}) = {f} is the "
            f"order of 2 mod {p}")
    if p == 3:
        text += (", and 2 is not a cube among the nimbers below 4 (2^((4 - 1)/3) = 2 ≠ 1), so ω, "
                 "the first ordinal past them, is its cube root (ONAG ch. 6).")
    else:
        text += (f", and {a} is the least such ordinal that is not a {p}-th power below κ_{p}"
                 f" = {kappa(p)} (Lenstra 1977).")
    return text


# ---- transfinite Nim ------------------------------------------------------------------------------

def nim_heap_value(heaps: Iterable[Any]) -> Ordinal:
    """The Sprague-Grundy value of a sum of Nim heaps of ordinal sizes: their nim-sum
    (a heap of size α is the game whose options are the smaller heaps, so its value is α).

    >>> print(nim_heap_value(["ω + 3", "ω·2 + 1", 5]))
    ω·3 + 7
    """
    total = Ordinal(0)
    for h in heaps:
        total = total + Ordinal(h)
    return total


def winning_move(heaps: Sequence[Any]) -> tuple[int, Ordinal] | None:
    """A winning move (heap index, new size) from a sum of ordinal Nim heaps, or None when
    the nim-sum is 0 (every move loses).  As for finite Nim: with s the nim-sum, some heap
    h has h ⊕ s < h (the one whose coefficient at s's leading exponent has s's top bit).

    >>> winning_move(["ω + 3", "ω·2 + 1", 5])
    (1, Ordinal('ω + 6'))
    """
    hs = [Ordinal(h) for h in heaps]
    s = nim_heap_value(hs)
    if not s:
        return None
    for i, h in enumerate(hs):
        if h + s < h:
            return i, h + s
    raise AssertionError("a non-zero nim-sum always has a winning move")


def _iter_terms(x: Ordinal) -> Iterator[tuple[Exponent, int]]:
    return iter(x._terms)
