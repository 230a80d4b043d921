"""Why a product of ordinal nimbers is what it is, in Lenstra's terms (κ's, α's and the
base-p digits of the exponents).

>>> print(explain_mul("ω", "ω").splitlines()[-1])
= ω^2
"""

from __future__ import annotations

from typing import Any

from ..arith import nim_mul
from .exponents import Exponent, _digits, _odd_prime
from .lenstra import _prime_power, alpha, excess, kappa, order_of_two, q_set
from .ordinals import Ordinal


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
