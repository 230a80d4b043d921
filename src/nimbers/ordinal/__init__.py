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

The package, one module per concept (imports run down this list, never up; the fields and
the constants register themselves with :mod:`~nimbers.ordinal.ordinals`, whose products
need them):
:mod:`~nimbers.ordinal.exponents` (exponents below ω^ω, the odd primes),
:mod:`~nimbers.ordinal.notation` (Cantor normal form as text), :mod:`~nimbers.ordinal.ordinals`
(the :class:`Ordinal` type and its products), :mod:`~nimbers.ordinal.fields` (finite fields of
ordinals, densely), :mod:`~nimbers.ordinal.lenstra` (Lenstra's constants),
:mod:`~nimbers.ordinal.roots` (equations), :mod:`~nimbers.ordinal.explain` (products
explained) and :mod:`~nimbers.ordinal.nim` (transfinite Nim).
"""

from __future__ import annotations

from .exponents import MAX_PRIME
from .explain import explain_mul
from .fields import MAX_FIELD_DEGREE as MAX_FIELD_DEGREE  # the dense operations' cap
from .fields import Subfield, subfield
from .lenstra import alpha, excess, kappa, order_of_two, q_set
from .nim import nim_heap_value, winning_move
from .ordinals import Ordinal
from .roots import roots, solve_artin_schreier

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
