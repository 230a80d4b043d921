"""Periodicity of heap games' Grundy sequences: the result as a value, the theorems that prove
it, and the arithmetic periods of games with three-heap splits.

The octal periodicity theorem of Guy and Smith (Winning Ways ch. 4): when every move leaves at
most two heaps and t is the most tokens a move removes, g(n + p) = g(n) for n0 <= n < 2 n0 + p + t
implies it for every n >= n0 (first digit 4 included: a split of n + p - k has a part of at
least n0 + p, whose value is that of the part p smaller).  Subtraction games: a window of t
repeated values proves the period.  The search that drives the engine until a proof is found
lives with the values (:mod:`.values`); this module holds what a proof is.

>>> rule = proof_rule((0, 7, 7), "octal")          # Kayles: t = 2
>>> rule
((2, 2, 2, 1), 'the Guy-Smith octal periodicity theorem (Winning Ways ch. 4)')
>>> proof((12, 71), rule)
Periodicity(period=12, preperiod=71, proven=True, checked_up_to=...)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

__all__ = ["Periodicity", "GUY_SMITH", "WINDOW", "proof_rule", "proof", "arithmetic_period",
           "ProofRule", "APPARENT_SHARE", "offered"]

GUY_SMITH = "the Guy-Smith octal periodicity theorem (Winning Ways ch. 4)"
WINDOW = "the window argument for subtraction games"

#: (a, b, c, floor) with a * max(n0, floor) + b * p + c values proving period p from
#: pre-period n0, and the theorem's name
ProofRule = tuple[tuple[int, int, int, int], str]


@dataclass(frozen=True)
class Periodicity:
    """The Grundy sequence's period from some point on: g(n + period) = g(n) for every
    n >= preperiod (the smallest such pre-period for the smallest period).

    proven: established by the theorem named in theorem (the octal periodicity theorem of Guy
    and Smith, or the window argument for subtraction games) from the values up to
    checked_up_to; when False, those values are consistent with it and nothing more.
    saltus: non-zero for an arithmetic period, g(n + period) = g(n) + saltus (games with
    three-heap splits; reported as CGSuite's CheckPeriodicity does, never proven here)."""

    period: int | None
    preperiod: int | None
    proven: bool
    checked_up_to: int
    theorem: str | None = None
    saltus: int = 0
    #: with no period offered: a repetition (period, pre-period) seen in the last values, too
    #: short to offer (see :data:`APPARENT_SHARE`)
    glimpse: tuple[int, int] | None = None

    @property
    def span(self) -> int | None:
        """How many of the values looked at the period covers: g(preperiod) ..
        g(checked_up_to - 1)."""
        if self.period is None or self.preperiod is None:
            return None
        return self.checked_up_to - self.preperiod

    @property
    def repetitions(self) -> float | None:
        """How many times the period repeats in those values (the evidence of an apparent
        period)."""
        span = self.span
        return None if span is None or self.period is None else span / self.period

    def __repr__(self) -> str:
        saltus = f", saltus={self.saltus}" if self.saltus else ""
        return (f"Periodicity(period={self.period}, preperiod={self.preperiod}{saltus}, "
                f"proven={self.proven}, checked_up_to=...)")

    def __str__(self) -> str:
        n = self.checked_up_to
        if self.period is None:
            if self.glimpse is None:
                return f"no period found up to n = {n}"
            p, n0 = self.glimpse
            return (f"no period found up to n = {n} (period {p} repeats in the last "
                    f"{n - n0:,} values only, too few to offer)")
        if self.proven:
            return (f"period {self.period}, pre-period {self.preperiod} (proven) by "
                    f"{self.theorem}, from {n} values")
        shape = (f"arithmetic period {self.period} with saltus {self.saltus} "
                 f"(g(n + {self.period}) = g(n) + {self.saltus})" if self.saltus else
                 f"period {self.period}")
        return f"{shape}, pre-period {self.preperiod} (not proven up to n = {n}: {self.evidence()})"

    def evidence(self) -> str:
        """What an apparent period rests on: how many repetitions over which values."""
        span, reps = self.span, self.repetitions
        if span is None or reps is None:
            return "no period"
        times = f"{reps:.1f}" if reps < 10 else f"{int(reps):,}"
        return (f"it repeats {times} times over g({self.preperiod}) .. "
                f"g({self.checked_up_to - 1}), {span:,} of the {self.checked_up_to:,} values")


#: An apparent (unproven) period is offered only when it covers at least 1 / APPARENT_SHARE of
#: the values looked at (and repeats at least 3 times): a repetition in the last few values of
#: a long run is what any sequence shows somewhere (0.16 repeats period 3 in its last 41
#: values up to 65536; its true period is 149459).
APPARENT_SHARE = 4


def offered(found: tuple[int, int], n: int) -> bool:
    """Whether a period (p, n0) seen in g(0..n-1) has the evidence to be offered."""
    p, n0 = found
    return (n - n0) * APPARENT_SHARE >= n and n - n0 >= 3 * p


def max_removal(rules: Sequence[int] | None) -> int | None:
    """The most tokens a move removes (None for Grundy's game, which removes none but has no
    digit list)."""
    if rules is None:
        return None
    return max((k for k, bits in enumerate(rules) if bits), default=0)


def proof_rule(rules: Sequence[int] | None, kind: str) -> ProofRule | None:
    """How many values prove a period of this ruleset, and by which theorem; None when no
    theorem applies.

    Guy-Smith: every move leaves at most two heaps (first digit 0 or 4), t the most tokens
    a move removes; values up to index 2 n0 + 2p + t - 1 (n0 at least 1: heap 0 is part
    of no split).  Subtraction games: the window n0 .. n0 + t - 1 repeated."""
    t = max_removal(rules)
    if t is None:
        return None  # Grundy's game: unequal splits, no theorem
    if kind == "subtraction":
        return (1, 1, t, 0), WINDOW
    if all(d < 8 for d in rules or ()):
        return (2, 2, t, 1), GUY_SMITH
    return None


def proof(found: tuple[int, int], rule: ProofRule) -> Periodicity:
    """The proven period (p, n0), with the number of values its proof needs."""
    p, n0 = found
    (a, b, c, floor), theorem = rule
    return Periodicity(p, n0, True, a * max(n0, floor) + b * p + c, theorem)


def arithmetic_period(g: np.ndarray) -> tuple[int, int, int] | None:
    """The least p (with its pre-period n0 and saltus s != 0) for which g(n + p) = g(n) + s
    holds from n0 to the end, on a stretch of at least 2p and a quarter of the values."""
    g = g.astype(np.int64)
    n = len(g)
    for p in range(1, n // 3 + 1):
        d = g[p:] - g[:-p]
        s = int(d[-1])
        if s == 0 or d[-2] != s:
            continue
        bad = np.nonzero(d != s)[0]
        n0 = int(bad[-1]) + 1 if bad.size else 0
        if n - p - n0 >= max(2 * p, n // 4):
            return p, n0, s
    return None
