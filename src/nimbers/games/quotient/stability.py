"""What a computed quotient proves and what it only shows.

A search that reaches heap n proves Q_n, the quotient of the positions whose heaps have at
most n tokens.  That Q_n stopped growing, or that the pretending function repeats, is by
itself evidence only; what closes the quotient of the whole game is the periodicity theorem
of Plambeck and Siegel, whose hypotheses :mod:`.whole` checks on the computed Q_n (then the
evidence says so, with the period, pre-period and heap where it closed); otherwise nothing
is claimed beyond Q_n.

Also here: whether a quotient is tame, that is isomorphic (with its P-portion) to a quotient
of misère Nim (Plambeck and Siegel, "Misère quotients for impartial games", JCTA 115
(2008)): {1, a} and an elementary abelian 2-group I (an ideal) with identity e = x² for
every x in I, a² = 1, ae in I other than e, and P = {a, e}.  Order 1 (no heap has a move)
counts as tame too.

>>> from nimbers.games import octal_game, misere_quotient
>>> e = evidence(misere_quotient(octal_game("0.75"), 12))
>>> e.proved_heap, e.order, e.unchanged_from, e.tame
(12, 8, 5, False)
>>> evidence(misere_quotient(octal_game("0.31"), 12)).tame     # tame: order 6, P = {a, b²}
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .presentation import growth, pretending_period

__all__ = ["Evidence", "evidence", "is_tame"]


@dataclass(frozen=True)
class Evidence:
    """What is proved (Q_n for heaps up to proved_heap, of this order) and what is only
    observed: Q_n unchanged from heap unchanged_from to proved_heap, the pretending function
    repeating with period (p, from heap n0) through proved_heap, and the heap sizes over
    which both hold (stable_run); longest: the first and last heap of the longest run of
    heap sizes over which Q_n did not change (anywhere)."""

    proved_heap: int
    order: int
    unchanged_from: int
    period: tuple[int, int] | None
    tame: bool
    gave_up: str | None
    longest: tuple[int, int] = (0, 0)
    #: the whole game's quotient, proved or not, and why (:class:`.whole.WholeGame`)
    whole: Any = None

    @property
    def unchanged_run(self) -> int:
        """How many heap sizes Q_n did not change over (the last run)."""
        return self.proved_heap - self.unchanged_from + 1 if self.proved_heap else 0

    @property
    def stable_run(self) -> int:
        """How many of the last heap sizes both left Q_n unchanged and continued the
        pretending function's period."""
        if self.period is None:
            return 0
        return self.proved_heap - max(self.unchanged_from, self.period[1]) + 1

    def lines(self) -> list[str]:
        """The statement in words: proved, observed only, claimed."""
        n = self.proved_heap
        out = [f"proved: Q_{n}, the quotient of every position with heaps of at most {n} "
               f"tokens (order {self.order}), each such position checked"]
        run = self.unchanged_run
        seen = [f"Q_n unchanged for n = {self.unchanged_from}..{n} "
                f"({run} heap size{'s' if run != 1 else ''})"] if n else []
        if self.period is not None:
            p, n0 = self.period
            seen.append(f"the pretending function repeats with period {p} from heap {n0} "
                        f"to {n} ({(n - n0 + 1) / p:.1f} periods)")
        first, last = self.longest
        if n and (first, last) != (self.unchanged_from, n):
            seen.append(f"the longest run without change: Q_{first} = ... = Q_{last} "
                        f"({last - first + 1} heap sizes)")
        if seen:
            out.append("observed only: " + "; ".join(seen))
        if self.whole is not None and self.whole.proved:
            w = self.whole
            out.append(f"whole game, proved: {w.why}; for every n >= {w.preperiod}, heap n + "
                       f"{w.period} is heap n's element ({w.rogue_text()})")
        else:
            why = self.whole.why if self.whole is not None else "no theorem was applied"
            out.append(f"claimed: nothing for heaps over {n} ({why})")
        if self.gave_up and not (self.whole is not None and self.gave_up in self.whole.why):
            out.append(f"gave up: {self.gave_up}")
        return out


def evidence(q: Any) -> Evidence:
    """The evidence of a :class:`~nimbers.games.quotient.MisereQuotient` (see the module)."""
    grew = growth(q.orders)
    start = grew[-1][0] if grew else 1
    words = q.heap_words()
    return Evidence(q.max_heap, q.order, min(start, q.max_heap) if q.max_heap else 0,
                    pretending_period(words), is_tame(q.table, q.p_portion), q.gave_up,
                    _longest_run(q.orders), q.whole)


def _longest_run(orders: Any) -> tuple[int, int]:
    """(first, last) heap of the longest run of equal orders, the first such run."""
    best = (0, 0)
    start = 1
    for n in range(1, len(orders) + 1):
        if n > 1 and orders[n - 1] != orders[n - 2]:
            start = n
        if n - start > best[1] - best[0] or best == (0, 0):
            best = (start, n)
    return best


def is_tame(table: Any, p_portion: Any) -> bool:
    """True when the bipartite monoid (table, element 0 the identity; p_portion) is a
    quotient of misère Nim (see the module).

    >>> is_tame([[0, 1], [1, 0]], [1]), is_tame([[0, 1], [1, 1]], [1])
    (True, False)
    """
    mul = np.asarray(table, dtype=np.int64)
    m = mul.shape[0]
    p = sorted(int(x) for x in p_portion)
    if m == 1:
        return not p
    for a in range(1, m):
        if mul[a, a] != 0:
            continue
        ideal = np.array([x for x in range(1, m) if x != a], dtype=np.int64)
        if len(ideal) == 0:
            return p == [a]
        if _tame_with(mul, a, ideal, p):
            return True
    return False


def _tame_with(mul: np.ndarray, a: int, ideal: np.ndarray, p: list[int]) -> bool:
    size = len(ideal)
    if size & (size - 1):
        return False                    # not a power of 2
    sub = mul[np.ix_(ideal, ideal)]
    inside = np.zeros(mul.shape[0], dtype=bool)
    inside[ideal] = True
    e = int(mul[ideal[0], ideal[0]])
    return bool(inside[sub].all() and (np.diagonal(sub) == e).all()
                and (mul[e, ideal] == ideal).all() and inside[mul[a, ideal]].all()
                and int(mul[a, e]) != e and p == sorted([a, e]))
