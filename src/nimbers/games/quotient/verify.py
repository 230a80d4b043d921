"""Checking a candidate quotient on every position, and reading P off a candidate monoid.

A candidate is a commutative monoid Q (element 0 the identity) with a subset P and a map phi
from heaps to Q; Phi(X) is the product of phi over the heaps of a position X.  It says the
misère outcome of every position of heaps up to n exactly when both hold (by induction over
the positions, since a misère P-position is one that has a move and whose options are all
N-positions):

* **no P-position has a P-option** (the P-check): a position X is Y + h for each of its heaps
  h, and the options of X in that heap have the elements Phi(Y) t, t in T_h (the elements of
  h's options); so it is enough that x phi(h) in P implies x t not in P for every element x
  and heap h -- a finite check over Q x heaps;
* **every other non-empty position has a P-option** (the N-check): the options of X depend on
  more than Phi(X), so the positions are explored through the states (Phi(X), W(X)),
  W(X) = {z : some option X' of X has Phi(X') z in P}; adding heap h gives
  W(X + h) = {z : Phi(X) t z in P, t in T_h} | {z : phi(h) z in W(X)}, and X is right when
  Phi(X) in P or the identity is in W(X).  Both are monotone in W, so a state whose W
  contains another state's W (same element) needs no exploring: whatever fails beyond it
  fails beyond the smaller one first.  A heap whose element equals a smaller-or-equal heap's
  and whose W-contribution contains that heap's is likewise left out of the exploration.

This is the verification of A. Siegel's MisereSolver (a P-check over Q x heaps and an
N-check over positions pruned by their sets of option elements), in our own formulation.
The positions are ordered as MisereSolver orders its words: by the number of the largest
heap first, then the next; the first position of each element in that order (its lex-least
word) is where mark_p reads the element's outcome, from options that come earlier.
"""

from __future__ import annotations

import time
from typing import Callable, Sequence

import numpy as np

__all__ = ["Word", "lex_least", "mark_p", "p_failure", "n_failure", "minimal_heaps"]

#: a position as the exponents of the heaps with a move, largest heap first
Word = tuple[int, ...]

#: the most states the N-check explores before it gives up
MAX_STATES = 2_000_000


class GiveUp(Exception):
    """The search stopped at a bound; the message says which."""


def lex_least(mul: np.ndarray, phi: Sequence[int], gens: Sequence[int]
              ) -> dict[int, Word]:
    """The lex-least word of each element the heaps gens (largest first) generate.

    Depth-first over the exponents of gens[0], then gens[1], ...: once a prefix's element
    was met before, every longer word through it is equivalent to one met before (and
    lex-smaller), so the branch stops.
    """
    found: dict[int, Word] = {}
    exps = [0] * len(gens)
    g = [int(phi[h]) for h in gens]

    def visit(d: int, e: int) -> None:
        if d == len(gens):
            found[e] = tuple(exps)
            return
        visit(d + 1, e)
        k = 0
        while True:
            e = int(mul[e, g[d]])
            k += 1
            if e in found:
                break
            exps[d] = k
            visit(d + 1, e)
        exps[d] = 0

    visit(0, 0)
    return found


def mark_p(mul: np.ndarray, phi: Sequence[int], gens: Sequence[int],
           opts: dict[int, np.ndarray]) -> np.ndarray:
    """P read off the monoid: each element takes the outcome of its lex-least position,
    whose options (elements met earlier) are already marked; opts[h] are the elements of
    heap h's options in this monoid.  Elements the heaps do not reach stay out of P."""
    m = mul.shape[0]
    p = np.zeros(m, dtype=bool)
    seen = np.zeros(m, dtype=bool)
    g = [int(phi[h]) for h in gens]
    empty = np.zeros(0, dtype=np.int64)

    def visit(d: int, e: int, tr: np.ndarray) -> None:
        if d == len(gens):
            seen[e] = True
            p[e] = len(tr) > 0 and not bool(p[tr].any())
            return
        visit(d + 1, e, tr)
        t = opts[gens[d]]
        while True:
            tr = np.unique(np.concatenate([mul[tr, g[d]], mul[e, t]]))
            e = int(mul[e, g[d]])
            if seen[e]:
                break
            visit(d + 1, e, tr)

    visit(0, 0, empty)
    return p


def p_failure(mul: np.ndarray, p: np.ndarray, phi: Sequence[int], gens: Sequence[int],
              opts: dict[int, np.ndarray], words: dict[int, Word]) -> Word | None:
    """The lex-least position that the candidate puts in P but which has an option it puts
    in P, or None."""
    elems = np.array(sorted(words), dtype=np.int64)
    best: Word | None = None
    for i, h in enumerate(gens):
        t = opts[h]
        if not len(t):
            continue
        bad = p[mul[elems, phi[h]]] & p[mul[np.ix_(elems, t)]].any(axis=1)
        for x in elems[bad].tolist():
            w = list(words[x])
            w[i] += 1
            if best is None or tuple(w) < best:
                best = tuple(w)
    return best


def minimal_heaps(mul: np.ndarray, p: np.ndarray, phi: Sequence[int], gens: Sequence[int],
                  opts: dict[int, np.ndarray]) -> list[int]:
    """The heaps the N-check must add: a heap whose element equals another's and whose
    options' P-rows contain the other's is dominated by it (any position with it has the
    same element and a W containing the position with the other)."""
    rows = p[mul]
    reach = {h: rows[opts[h]].any(axis=0) for h in gens}
    keep: list[int] = []
    for h in sorted(gens):
        if not any(phi[k] == phi[h] and not (reach[k] & ~reach[h]).any() for k in keep):
            keep.append(h)
    return keep


def n_failure(mul: np.ndarray, p: np.ndarray, phi: Sequence[int], gens: Sequence[int],
              opts: dict[int, np.ndarray], deadline: float | None,
              interrupt: Callable[[], None] | None = None) -> tuple[Word | None, int]:
    """The lex-least position (a word over gens) that the candidate puts outside P but which
    has no option in P, or None; and the number of states explored.

    The positions are visited depth-first in lex order (as lex_least does), each with its
    state (Phi(X), W(X)).  A position whose state contains an earlier one's (same element,
    W a superset) is not extended: if X + Y failed, the earlier X' + Y, lex-smaller, would
    fail too, so the lex-least failure is never cut off, and the search ends because the
    states are finitely many.

    Raises
    ------
    GiveUp
        the state cap or the time limit reached.
    """
    m = mul.shape[0]
    explore = sorted(minimal_heaps(mul, p, phi, gens, opts), reverse=True)
    rows = p[mul]
    col = [gens.index(h) for h in explore]
    g = [int(phi[h]) for h in explore]
    gain = [rows[mul[:, opts[h]]].any(axis=1) if len(opts[h])
            else np.zeros((m, m), dtype=bool) for h in explore]
    shift = [mul[x] for x in g]
    kept: dict[int, list[np.ndarray]] = {}    # per element, the packed W kept (an antichain)
    exps = [0] * len(gens)
    count = [0]

    def fresh(x: int, w: np.ndarray) -> bool:
        packed = np.packbits(w)
        mine = kept.setdefault(x, [])
        if any(not (k & ~packed).any() for k in mine):
            return False
        mine[:] = [k for k in mine if (packed & ~k).any()]
        mine.append(packed)
        count[0] += 1
        if count[0] % 4096 == 0:
            if deadline is not None and time.monotonic() > deadline:
                raise GiveUp("time limit reached")
            if interrupt is not None:
                interrupt()
            if count[0] > MAX_STATES:
                raise GiveUp(f"more than {MAX_STATES:,} states in the N-check")
        return True

    def visit(d: int, x: int, w: np.ndarray) -> bool:
        """False when a failure was found (exps holds it)."""
        if d == len(explore):
            return True
        if not visit(d + 1, x, w):
            return False
        while True:
            w = gain[d][x] | w[shift[d]]
            x = int(mul[x, g[d]])
            if not fresh(x, w):
                break
            exps[col[d]] += 1
            if not p[x] and not w[0]:
                return False
            if not visit(d + 1, x, w):
                return False
        exps[col[d]] = 0
        return True

    if visit(0, 0, np.zeros(m, dtype=bool)):
        return None, count[0]
    return tuple(exps), count[0]
