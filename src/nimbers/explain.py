"""Step-by-step derivations of nim-sums and nim-products, in the manner of R. K. Guy's letter
to E. McDonnell, quoted in McDonnell's J article ("J be Nimble, J be Quick", Vector 19(1),
2002): split into powers of 2, distribute, turn each power of 2
into a product of Fermat powers, square Fermat powers (X (x) X = 3X/2), multiply distinct
Fermat powers ordinarily, collect, and repeat on what is left.

>>> print(explain_mul(8, 8))
8 ⊗ 8
= 4 ⊗ 2 ⊗ 4 ⊗ 2
= 6 ⊗ 3
= (4 ⊕ 2) ⊗ (2 ⊕ 1)
= (4 ⊗ 2) ⊕ (4 ⊗ 1) ⊕ (2 ⊗ 2) ⊕ (2 ⊗ 1)
= 8 ⊕ 4 ⊕ 3 ⊕ 2
= 13
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ._digits import to_decimal
from .arith import nim_mul
from .nimber import nimber_value

__all__ = ["Derivation", "explain_mul", "explain_sum"]

#: A derivation line with more terms than this is not printed: the rules go on silently
#: and the derivation says how many rounds it skipped.
MAX_TERMS = 32
_MAX_ROUNDS = 200

#: Operands up to this many bits get the whole derivation (at most about half a second);
#: past it, the rewriting would take minutes to hours and show a few lines of thousand-digit
#: numbers, so :func:`explain_mul` gives the product and a summary: the first level of the
#: Fermat-power split, the four half-size products computed.
MAX_EXPLAIN_BITS = 64

#: Numbers up to this many bits are written in decimal; longer ones in hexadecimal (written
#: in time linear in their length, where decimal conversion is quadratic).
MAX_DECIMAL_BITS = 1 << 14

#: explain_sum shows the columns of bits up to this width; past it, the numbers and their
#: sum in one line.
MAX_SUM_COLUMNS = 1024


@dataclass(repr=False)
class Derivation:
    """The steps of a derivation.  ``lines[0]`` is the question; each later line is an
    expression equal to it (so ``value`` is the value of every line).  ``summarized`` tells
    whether rounds were left out because a line grew past :data:`MAX_TERMS` terms, and
    ``omitted`` how many."""

    lines: list[str]
    value: int
    summarized: bool = False
    omitted: int = 0
    notes: list[str] = field(default_factory=list)
    equations: bool = True  #: False for a display (explain_sum's columns), not a chain

    def __str__(self) -> str:
        if not self.equations:
            return "\n".join(self.lines + self.notes)
        body = [self.lines[0]] + ["= " + line for line in self.lines[1:]]
        return "\n".join(body + self.notes)

    def __repr__(self) -> str:
        steps = len(self.lines) - 1
        return f"<Derivation {self.lines[0].strip()} = {self.value} in {steps} steps>" \
            if self.equations else f"<Derivation of a nim-sum: {self.value}>"

    def _repr_html_(self) -> str:
        """Notebooks: the steps as a two-column table (the = signs aligned)."""
        if not self.equations:
            body = html.escape("\n".join(self.lines + self.notes))
            return f'<pre class="nimbers-derivation">{body}</pre>'
        rows = [f"<tr><td></td><td>{html.escape(self.lines[0])}</td></tr>"]
        rows += [f"<tr><td>=</td><td>{html.escape(line)}</td></tr>" for line in self.lines[1:]]
        notes = "".join(f"<p>{html.escape(n)}</p>" for n in self.notes)
        return f'<table class="nimbers-derivation">{"".join(rows)}</table>{notes}'

    def _repr_latex_(self) -> str | None:
        """Notebooks: an aligned chain of equations (None for explain_sum's columns)."""
        if not self.equations:
            return None
        first, *rest = self.lines
        body = [_tex(first) + " &= " + _tex(rest[0])] if rest else [_tex(first)]
        body += ["&= " + _tex(line) for line in rest[1:]]
        return "$$\\begin{aligned}" + r" \\ ".join(body) + "\\end{aligned}$$"


def _tex(line: str) -> str:
    return line.replace("⊗", r"\otimes").replace("⊕", r"\oplus")


# An expression is a nim-sum of terms; a term is a tuple of factors (their nim-product),
# a factor an int, or a tuple of ints standing for their nim-sum (a split factor).
Term = tuple[Any, ...]

def _is_power_of_two(x: int) -> bool:
    return x > 0 and x & (x - 1) == 0


def _is_fermat(x: int) -> bool:
    """2, 4, 16, 256, ...: 2^(2^k)."""
    return _is_power_of_two(x) and _is_power_of_two(x.bit_length() - 1)


def _bits(x: int) -> list[int]:
    return [1 << i for i in range(x.bit_length() - 1, -1, -1) if x >> i & 1]


def _has_split(term: Term) -> bool:
    return any(isinstance(f, tuple) for f in term)


def _normal(term: Term) -> Term:
    """Drops factors 1; a term with no factor left is the product 1."""
    kept = tuple(f for f in term if f != 1)
    return kept if kept else (1,)


def _split(expr: list[Term]) -> list[Term] | None:
    """Each composite factor of a product, as a nim-sum of powers of 2."""
    changed = False
    out: list[Term] = []
    for term in expr:
        if len(term) == 1:
            out.append(term)
            continue
        new: list[Any] = []
        for f in term:
            if isinstance(f, int) and not _is_power_of_two(f):
                new.append(tuple(_bits(f)))
                changed = True
            else:
                new.append(f)
        out.append(tuple(new))
    return out if changed else None


def _distribute(expr: list[Term]) -> list[Term] | None:
    """Multiplies out every split factor (distributivity of ⊗ over ⊕)."""
    if not any(isinstance(f, tuple) for term in expr for f in term):
        return None
    out: list[Term] = []
    for term in expr:
        partial: list[Term] = [()]
        for f in term:
            choices = f if isinstance(f, tuple) else (f,)
            partial = [p + (c,) for p in partial for c in choices]
        out.extend(partial)
    return out


def _fermat(expr: list[Term]) -> list[Term] | None:
    """Each power of 2 that is not a Fermat power, as the product of distinct Fermat powers:
    2^n = ⊗ of 2^(2^k) over the bits 2^k of n (products of distinct Fermat powers are
    ordinary)."""
    changed = False
    out: list[Term] = []
    for term in expr:
        if len(term) == 1 or _has_split(term):  # a value, or waiting to be distributed
            out.append(term)
            continue
        new: list[Any] = []
        for f in term:
            if _is_power_of_two(f) and f > 2 and not _is_fermat(f):
                n = f.bit_length() - 1
                new.extend(1 << k for k in _bits(n))
                changed = True
            else:
                new.append(f)
        out.append(_normal(tuple(new)))
    return out if changed else None


def _square(expr: list[Term]) -> list[Term] | None:
    """A Fermat power times itself is 3/2 of it; a product of distinct Fermat powers (or of
    a Fermat power and a smaller number) is the ordinary product."""
    changed = False
    out = []
    for term in expr:
        if len(term) == 1 or _has_split(term):
            out.append(term)
            continue
        factors = list(_normal(term))
        merged: list[int] = []
        while factors:
            f = factors.pop(0)
            if _is_fermat(f) and f in factors:
                factors.remove(f)
                merged.append(3 * f // 2)
                changed = True
            else:
                merged.append(f)
        if merged == [1]:
            changed = True
        elif all(_is_fermat(f) for f in merged) and len(set(merged)) == len(merged):
            product = 1
            for f in merged:
                product *= f
            merged = [product]
            changed = True
        elif len(merged) == 2 and _is_fermat(max(merged)) and min(merged) < max(merged):
            merged = [merged[0] * merged[1]]
            changed = True
        out.append(tuple(merged))
    return out if changed else None


def _collect(expr: list[Term]) -> list[Term] | None:
    """Nim-adds the plain numbers, and cancels equal products in pairs (x ⊕ x = 0)."""
    plain = [t[0] for t in expr if len(t) == 1]
    counts: dict[Term, int] = {}
    for t in expr:
        if len(t) > 1:
            key = tuple(sorted(t, key=repr))
            counts[key] = counts.get(key, 0) + 1
    if len(plain) < 2 and all(c == 1 for c in counts.values()):
        return None
    total = 0
    for v in plain:
        total ^= v
    seen: set[Term] = set()
    rest = []
    for t in expr:
        key = tuple(sorted(t, key=repr))
        if len(t) > 1 and counts[key] % 2 == 1 and key not in seen:
            seen.add(key)
            rest.append(t)
    return rest + ([(total,)] if total or not rest else [])


_RULES = (_fermat, _square, _collect, _split, _distribute)


def _render_factor(f: int | Term) -> str:
    if isinstance(f, tuple):
        return "(" + " ⊕ ".join(str(x) for x in f) + ")"
    return str(f)


def _render(expr: list[Term]) -> str:
    parts = []
    for term in expr:
        text = " ⊗ ".join(_render_factor(f) for f in term)
        parts.append(f"({text})" if len(term) > 1 and len(expr) > 1 else text)
    return " ⊕ ".join(parts)


def _terms(expr: list[Term]) -> int:
    return len(expr)


def explain_mul(a: int, b: int) -> Derivation:
    """The derivation of the nim-product a ⊗ b, step by step.

    Each line applies one of the rules to every term it fits: split composite factors into
    powers of 2, distribute, write powers of 2 as products of Fermat powers, square Fermat
    powers (X ⊗ X = 3X/2) and multiply distinct ones ordinarily, collect plain numbers.  A line
    that would hold more than MAX_TERMS terms is not printed: the rules keep going, and the
    derivation records how many rounds it summarized.

    Parameters
    ----------
    a, b : int or Nimber
        Non-negative integers of any size.

    Returns
    -------
    Derivation
        Its ``str`` is the chain of equations; notebooks show it as a table or in LaTeX.

    Raises
    ------
    ValueError
        For a negative number.
    TypeError
        For a non-integer.

    Examples
    --------
    >>> print(explain_mul(5, 11))
    5 ⊗ 11
    = (4 ⊕ 1) ⊗ (8 ⊕ 2 ⊕ 1)
    = (4 ⊗ 8) ⊕ (4 ⊗ 2) ⊕ (4 ⊗ 1) ⊕ (1 ⊗ 8) ⊕ (1 ⊗ 2) ⊕ (1 ⊗ 1)
    = (4 ⊗ 4 ⊗ 2) ⊕ (4 ⊗ 2) ⊕ 4 ⊕ (4 ⊗ 2) ⊕ 2 ⊕ 1
    = (6 ⊗ 2) ⊕ 8 ⊕ 4 ⊕ 8 ⊕ 2 ⊕ 1
    = (6 ⊗ 2) ⊕ 7
    = ((4 ⊕ 2) ⊗ 2) ⊕ 7
    = (4 ⊗ 2) ⊕ (2 ⊗ 2) ⊕ 7
    = 8 ⊕ 3 ⊕ 7
    = 12
    """
    a, b = nimber_value(a), nimber_value(b)
    if max(a.bit_length(), b.bit_length()) > MAX_EXPLAIN_BITS:
        return _summary_mul(a, b)
    value = nim_mul(a, b)
    lines = [f"{a} ⊗ {b}"]
    if a <= 1 or b <= 1:  # x ⊗ 0 = 0 and x ⊗ 1 = x: nothing to derive
        return Derivation(lines + [str(value)], value)
    expr: list[Term] = [(a, b)]
    omitted = 0
    for _ in range(_MAX_ROUNDS):
        if len(expr) == 1 and len(expr[0]) == 1:
            break
        for rule in _RULES:
            new = rule(expr)
            if new is not None:
                expr = new
                break
        else:
            break
        if _terms(expr) <= MAX_TERMS:
            lines.append(_render(expr))
        else:
            omitted += 1
    if len(expr) != 1 or len(expr[0]) != 1:  # safety net: never leave a derivation unfinished
        omitted += 1
    if lines[-1] != str(value):
        lines.append(str(value))
    notes = []
    if omitted:
        notes.append(f"({omitted} rounds with more than {MAX_TERMS} terms are not shown; "
                     f"the same rules apply)")
    return Derivation(lines, value, summarized=omitted > 0, omitted=omitted, notes=notes)


def _summary_mul(a: int, b: int) -> Derivation:
    """The first level of the derivation for operands past :data:`MAX_EXPLAIN_BITS`: with X
    the Fermat power such that a, b < X^2 (a field GF(X^2)), write a = a1 X ⊕ a0 (an
    ordinary product: a1 < X), distribute, and use X ⊗ X = X ⊕ X/2 (ONAG, ch. 6):

        (a1 X ⊕ a0) ⊗ (b1 X ⊕ b0) = (a1 b1 ⊕ a1 b0 ⊕ a0 b1) X ⊕ (a1 b1) ⊗ X/2 ⊕ a0 b0.

    Time and memory are linear in the operands' length besides the core's four products."""
    value = nim_mul(a, b)
    half = _field_bits(max(a.bit_length(), b.bit_length())) // 2
    fermat, low = 1 << half, (1 << half) - 1
    a1, a0, b1, b0 = a >> half, a & low, b >> half, b & low
    p, q, r, s = nim_mul(a1, b1), nim_mul(a1, b0), nim_mul(a0, b1), nim_mul(a0, b0)
    hex_form = max(a.bit_length(), b.bit_length()) > MAX_DECIMAL_BITS
    n = hex if hex_form else to_decimal
    x, h = n(fermat), n(fermat // 2)
    u = p ^ q ^ r
    lines = [f"{n(a)} ⊗ {n(b)}",
             f"{_fermat_form(n(a1), x, n(a0))} ⊗ {_fermat_form(n(b1), x, n(b0))}",
             f"(({n(a1)} ⊗ {n(b1)}) ⊕ ({n(a1)} ⊗ {n(b0)}) ⊕ ({n(a0)} ⊗ {n(b1)})) ⊗ {x} ⊕ "
             f"({n(a1)} ⊗ {n(b1)}) ⊗ {h} ⊕ ({n(a0)} ⊗ {n(b0)})",
             f"({n(p)} ⊕ {n(q)} ⊕ {n(r)}) ⊗ {x} ⊕ {n(p)} ⊗ {h} ⊕ {n(s)}",
             f"({n(u)} ⊗ {x}) ⊕ {n(nim_mul(p, fermat // 2))} ⊕ {n(s)}",
             n(value)]
    bits = max(a.bit_length(), b.bit_length())
    notes = [f"({bits}-bit operands are past what a derivation shows step by step (at most "
             f"{MAX_EXPLAIN_BITS} bits): this is its first level, splitting at the Fermat "
             f"power 2^{half} with X ⊗ X = X ⊕ X/2; the four half-size products are computed, "
             "and explaining each of them goes one level further"
             + (", numbers in hexadecimal)" if hex_form else ")")]
    return Derivation(lines, value, summarized=True, notes=notes)


def _field_bits(bits: int) -> int:
    """The bits of the smallest field GF(2^(2^k)) holding numbers of ``bits`` bits."""
    field_bits = 1
    while field_bits < bits:
        field_bits *= 2
    return field_bits


def _fermat_form(high: str, fermat: str, low: str) -> str:
    """``(high ⊗ X ⊕ low)``, the number split at a Fermat power."""
    return f"({high} ⊗ {fermat} ⊕ {low})"


def explain_sum(*xs: Any) -> Derivation:
    """The nim-sum as McDonnell's J article shows it: the binary forms one under the other, and
    the parity of each column.

    Parameters
    ----------
    *xs : int or Nimber, or one list of them
        Non-negative integers: ``explain_sum(3, 5, 7)`` or, as ``nim_sum`` takes them,
        ``explain_sum([3, 5, 7])``.

    Returns
    -------
    Derivation
        The columns; ``value`` is the nim-sum.

    Examples
    --------
    >>> print(explain_sum(3, 5, 7))
      3 = 0 1 1
      5 = 1 0 1
      7 = 1 1 1
    -----------
    ⊕ 1 = 0 0 1
    """
    if len(xs) == 1 and isinstance(xs[0], Iterable) and not isinstance(xs[0], (str, bytes)):
        xs = tuple(xs[0])
    xs = tuple(nimber_value(x) for x in xs)
    total = 0
    for x in xs:
        total ^= x
    width = max([x.bit_length() for x in xs] + [1])
    if width > MAX_SUM_COLUMNS:
        return _summary_sum(xs, total, width)
    label = max([len(str(x)) for x in xs] + [len(str(total))]) + 2

    def row(x: int) -> str:
        return " ".join(format(x, f"0{width}b"))

    lines = [f"{str(x).rjust(label)} = {row(x)}" for x in xs]
    lines.append("-" * (label + 3 + 2 * width - 1))
    lines.append(f"⊕ {str(total).rjust(label - 2)} = {row(total)}")
    return Derivation(lines, total, equations=False)


def _summary_sum(xs: tuple[int, ...], total: int, width: int) -> Derivation:
    """Numbers too wide for columns of bits: the sum on one line (linear time)."""
    n = hex if width > MAX_DECIMAL_BITS else to_decimal
    line = " ⊕ ".join(n(x) for x in xs) + f" = {n(total)}"
    note = (f"({width}-bit numbers are past what columns of bits can show (at most "
            f"{MAX_SUM_COLUMNS}): the nim-sum is the bitwise exclusive or, column by column)")
    return Derivation([line], total, summarized=True, notes=[note], equations=False)
