"""The quotient of the whole game from a finite computation: the periodicity theorem for
misère quotients (T. Plambeck and A. Siegel, "Misère quotients for impartial games", JCTA 115
(2008); A. Siegel, "Misère games and misère quotients", Games of No Chance 5, MSRI Publ. 70,
2017, with a proof; A. Siegel's MisereSolver applies it after each heap).

**The statement checked here.**  Let the game be a take-and-break game whose code is finite
(digits d0.d1...dk, dk its last nonzero digit, so a move removes at most k tokens) and
whose moves leave at most two heaps (every digit below 8; d0 = 0 or 4).  Let Q_N be the
proved quotient of the heaps up to N and Φ its pretending function.  If for some p >= 1 and
n0 >= 1

    Φ(n + p) = Φ(n) for every n with n0 <= n <= N - p,  and  N >= 2 n0 + 2p + k - 1,

then Q_N is the quotient of the whole game and Φ(n + p) = Φ(n) for every n >= n0.

*Why* (the argument of Guy and Smith, carried to the quotient): extend Φ periodically past
N.  For a heap m > N, each option of m is a heap m - j or two heaps a + b = m - j (j <= k),
and m - j >= 2 n0 + 2p, so a heap of the option of at least n0 + p tokens can be lowered by p
(its element unchanged), and conversely each option of m - p has a heap of at least n0
tokens that can be raised by p: m and m - p have the same set T of option elements.  Then,
by induction on the game tree, a position G is a misère P-position exactly when Φ(G) is in
P: G's outcome is decided by its options, that is by the sets T of its heaps and the elements
of the rest; G', with every heap over N lowered by a multiple of p into (N - p, N], has the
same sets and elements, lies among the heaps up to N where Q_N is proved, and Φ(G') = Φ(G).
So Q_N, whose elements positions of heaps up to N already tell apart, is the whole quotient.
n0 is taken at least 1 (with n0 = 0 a split a + b could be paired with a + 0, a move of
another digit's kind), as nimbers' Guy-Smith proofs of normal-play periods do.  First digit
4 (a split that removes nothing, j = 0) is covered by the same argument (j ranges over
0 .. k); the game is short, so the induction on its tree holds although such a move keeps
the tokens.

*Against the sources.*  The published statements (the two above) could not be read in full
here, so this module rests on the proof above, not on their wording.  MisereSolver as
published in CGSuite's source (misere/solver/CommandLineInterface.java, with
TBCode.periodicityChecker and PeriodicityChecker) closes the game once
m n0 + m p + k + m <= N + 1, m the bit length of the largest digit (m = 3 for octal
digits 4 to 7), and allows n0 = 0: for two-heap games that asks more heaps than the bound
here (Kayles: heap 253 where this closes at 167; 0.75: 34 against 21), with the same
quotient, period and pre-period (checked on the two-digit codes and three-digit classes
of the census, tests/data/published_misere_quotients.txt).  Both bounds are sufficient;
the one here is the smaller, and proved.

**Where it is not applied** (and the reason says so): Nim and Grundy's game (no finite
code), hexadecimal digits 8 and up (a move may leave three heaps: the two-heap argument
fails), a quotient not proved to heap N, a period that does not reach 2 n0 + 2p + k - 1.

The pre-period reported is the least n0 >= 1 for the period p found.  The *rogue* heaps
are MisereSolver's: a heap whose element lies outside the kernel (the least ideal) of Q;
:func:`rogues` gives the last one, or says that they recur with the period.  (It is not
n0 - 1 in general: Kayles' last rogue heap is 25, its pre-period 71.)

>>> closing([0, 4, 1, 4, 1, 3, 1, 3, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2], 2)
(2, 8, 21)
>>> closing([0, 4, 1, 4, 1, 3, 1, 3, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1], 2) is None
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from ..codes import parse_take_break_code

__all__ = ["WholeGame", "removal_bound", "closing", "Closure", "whole_of", "reduced_heap", "kernel",
           "rogues"]


@dataclass(frozen=True)
class WholeGame:
    """Whether a quotient Q_N is the quotient of the whole game, and why.

    proved: the periodicity theorem's hypotheses were checked on the computed Q_N (then
    period, preperiod and closed_at are set: Φ(n + period) = Φ(n) for every n >= preperiod,
    and closed_at is N, the heap whose proved Q_N closed it); why: the statement, or the
    reason it is not proved.  last_rogue and rogues_recur need the monoid (whole_of's
    table); to_json leaves them out, as they follow from the quotient's data."""

    proved: bool
    why: str
    period: int | None = None
    preperiod: int | None = None
    closed_at: int | None = None
    #: the last rogue heap (see :func:`rogues`), None when there is none or no last one
    last_rogue: int | None = None
    #: True when rogue heaps recur with the period (then there is no last one)
    rogues_recur: bool = False

    def rogue_text(self) -> str:
        """The rogue heaps in words (see :func:`rogues`)."""
        if self.rogues_recur:
            return "rogue heaps, outside the kernel, recur with the period"
        if self.last_rogue is None:
            return "no rogue heap (every heap's element is in the kernel)"
        return f"the last rogue heap, the last outside the kernel, is {self.last_rogue}"

    def to_json(self) -> dict[str, Any]:
        return {"proved": self.proved, "why": self.why, "period": self.period,
                "preperiod": self.preperiod, "closed_at": self.closed_at}


def removal_bound(code: str) -> int | str:
    """k, the most tokens a move removes, when the periodicity theorem applies to the game
    with this code (a finite take-and-break code whose moves leave at most two heaps); else
    the reason it does not, as a phrase.

    >>> removal_bound("0.75"), removal_bound("4.07"), removal_bound("0.3F")
    (2, 2, 'a move of 0.3F may leave three heaps (a hexadecimal digit 8 or more)')
    >>> removal_bound("nim")
    'nim has no finite take-and-break code'
    """
    try:
        digits = parse_take_break_code(code).digits
    except (ValueError, TypeError):
        return f"{code} has no finite take-and-break code"
    if any(d >= 8 for d in digits):
        return f"a move of {code} may leave three heaps (a hexadecimal digit 8 or more)"
    if not any(digits):
        return f"{code} has no move"
    return max(k for k, d in enumerate(digits) if d)


def _last_mismatch(phi: np.ndarray) -> np.ndarray:
    """last[p] (p = 1 .. len - 1): the largest n with phi[n] != phi[n + p], -1 when none."""
    n = len(phi)
    last = np.full(n, -1, dtype=np.int64)
    for p in range(1, n):
        bad = np.flatnonzero(phi[p:] != phi[:n - p])
        if len(bad):
            last[p] = int(bad[-1])
    return last


def _best(last: np.ndarray, top: int, k: int) -> tuple[int, int, int] | None:
    """(p, n0, bound): the period whose bound 2 n0 + 2p + k - 1 is least (then the least p),
    among those whose bound is at most top; n0 = max(1, last mismatch + 1)."""
    if len(last) < 2:
        return None
    p = np.arange(1, len(last), dtype=np.int64)
    n0 = np.maximum(1, last[1:] + 1)
    bound = 2 * n0 + 2 * p + k - 1
    ok = np.flatnonzero(bound <= top)
    if not len(ok):
        return None
    i = int(ok[np.lexsort((p[ok], bound[ok]))[0]])
    return int(p[i]), int(n0[i]), int(bound[i])


def closing(pretending: Sequence[int], k: int) -> tuple[int, int, int] | None:
    """(p, n0, bound) when the pretending function of a proved Q_N (N = len - 1) closes the
    whole game by the theorem (see the module): Φ(n + p) = Φ(n) for n0 <= n <= N - p and
    bound = 2 n0 + 2p + k - 1 <= N; the least bound, then the least p.  None otherwise."""
    phi = np.asarray(pretending, dtype=np.int64)
    return _best(_last_mismatch(phi), len(phi) - 1, k)


class Closure:
    """The theorem applied after each heap of a search (the search's pretending function
    given whole each time: its elements are renumbered when the quotient changes, so the
    mismatches are kept only while the earlier heaps' elements stay the same)."""

    def __init__(self, k: int) -> None:
        self.k = k
        self.phi = np.zeros(0, dtype=np.int64)
        self.last = np.zeros(0, dtype=np.int64)

    def after(self, pretending: Sequence[int]) -> tuple[int, int, int] | None:
        """(p, n0, bound) once the heaps up to len(pretending) - 1 close the game."""
        phi = np.asarray(pretending, dtype=np.int64)
        n = len(phi)
        if n == len(self.phi) + 1 and np.array_equal(phi[:-1], self.phi):
            p = np.arange(1, n)
            bad = phi[n - 1 - p] != phi[n - 1]
            self.last = np.concatenate([self.last, np.full(1, -1, dtype=np.int64)])
            self.last[1:][bad] = (n - 1 - p)[bad]
        else:
            self.last = _last_mismatch(phi)
        self.phi = phi
        return _best(self.last, n - 1, self.k)


def kernel(table: np.ndarray) -> np.ndarray:
    """The kernel of a finite commutative monoid (its multiplication table), as a mask: its
    least ideal, zQ for z the product of every element (each ideal I holds z, a multiple
    of any of I's elements, so zQ lies in I).

    >>> q = np.array([[0, 1, 2], [1, 0, 2], [2, 2, 2]])     # {1, a, z}: a² = 1, z a zero
    >>> kernel(q).tolist()
    [False, False, True]
    """
    z = 0
    for x in range(len(table)):
        z = int(table[z, x])
    mask = np.zeros(len(table), dtype=bool)
    mask[table[z]] = True
    return mask


def rogues(table: np.ndarray, pretending: Sequence[int], period: int,
           preperiod: int) -> tuple[int | None, bool]:
    """(last rogue heap, whether rogue heaps recur) of a whole quotient.  A *rogue* heap is
    one of at least 1 token whose element lies outside the kernel of Q, as A. Siegel's
    MisereSolver reports it ("LastRogue", the last heap whose pretending-function value is
    not in the kernel; CGSuite's misere/solver/CommandLineInterface.java).  With the period
    p from heap n0 on, a rogue among heaps n0 .. n0 + p - 1 recurs for ever: then there is
    no last one (None, True)."""
    outside = ~kernel(table)[np.asarray(pretending, dtype=np.int64)]
    outside[0] = False
    if outside[preperiod:preperiod + period].any():
        return None, True
    found = np.flatnonzero(outside[:preperiod])
    return (int(found[-1]) if len(found) else None), False


def whole_of(code: str, pretending: Sequence[int], gave_up: str | None,
             table: np.ndarray | None = None) -> WholeGame:
    """What a proved Q_N (its pretending function for heaps 0 .. N) says of the whole game:
    derived from the data alone, so a saved claim can be checked against it; with the
    monoid's table, the rogue heaps too."""
    n = len(pretending) - 1
    k = removal_bound(code)
    if isinstance(k, str):
        return WholeGame(False, f"the periodicity theorem does not apply: {k}")
    found = closing(pretending, k)
    if found is None:
        why = (f"only Q_{n} is proved: the pretending function shows no period p from a heap "
               f"n0 with 2 n0 + 2p + {k} - 1 <= {n} (the periodicity theorem's condition)")
        if gave_up:
            why += f"; the search stopped at {gave_up}"
        return WholeGame(False, why)
    p, n0, bound = found
    last, recur = rogues(table, pretending, p, n0) if table is not None else (None, False)
    return WholeGame(True, f"Q_{n} is the quotient of the whole game (periodicity theorem of "
                           f"Plambeck and Siegel: the pretending function has period {p} from "
                           f"heap {n0} through heap {n} >= 2*{n0} + 2*{p} + {k} - 1 = {bound})",
                     p, n0, n, last, recur)


def reduced_heap(heap: int, whole: WholeGame) -> int:
    """A heap of at most closed_at tokens with the same element as heap (heap itself when it
    is no larger)."""
    if not whole.proved or whole.closed_at is None or whole.period is None \
            or heap <= whole.closed_at:
        return heap
    p = whole.period
    return heap - p * ((heap - whole.closed_at + p - 1) // p)
