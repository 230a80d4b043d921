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

Also here: refine (Moore's partition refinement, the reduction's loop) and
certified_lower_bound (how many classes a wrong candidate still proves).  The loops are the
C core's (csrc/core/quotient.c).
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from ... import _core

__all__ = ["Word", "lex_least", "mark_p", "p_failure", "n_failure", "minimal_heaps",
           "certified_lower_bound", "certified_powers", "refine"]

#: a position as the exponents of the heaps with a move, largest heap first
Word = tuple[int, ...]

#: the most states the N-check keeps before it gives up
MAX_STATES = 20_000_000
#: and the most bytes its states' sets may take
MAX_STATE_BYTES = 2 << 30


class GiveUp(Exception):
    """The search stopped at a bound; the message says which."""


def lex_least(mul: np.ndarray, phi: Sequence[int], gens: Sequence[int]
              ) -> dict[int, Word]:
    """The lex-least word of each element the heaps gens (largest first) generate.

    Depth-first over the exponents of gens[0], then gens[1], ...: once a prefix's element
    was met before, every longer word through it is equivalent to one met before (and
    lex-smaller), so the branch stops.
    """
    _, parent, via, order = _walk(mul, phi, gens, {h: np.zeros(0, np.int64) for h in gens})
    found: dict[int, Word] = {0: (0,) * len(gens)}
    for e in order[1:].tolist():
        w = list(found[int(parent[e])])
        w[via[e]] += 1
        found[e] = tuple(w)
    return found


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


def refine(delta: np.ndarray, out: np.ndarray) -> tuple[np.ndarray, int]:
    """Moore's partition refinement of an automaton (delta[i, s]: where heap i takes state
    s; out[s]: its output): each state's class, and the number of classes.  (The C core's,
    csrc/core/quotient.c.)"""
    cls, count = _core.quotient_refine(np.ascontiguousarray(delta, dtype=np.int32),
                                       np.ascontiguousarray(out, dtype=np.uint8))
    return np.frombuffer(cls, dtype=np.int32).astype(np.int64), count


def _csr(gens: Sequence[int], opts: dict[int, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """The option elements of gens, flat, and where each generator's start."""
    start = np.zeros(len(gens) + 1, dtype=np.int64)
    start[1:] = np.cumsum([len(opts[h]) for h in gens])
    flat = (np.concatenate([opts[h] for h in gens]) if gens else np.zeros(0)).astype(np.int32)
    return start, flat


def mark_p(mul: np.ndarray, phi: Sequence[int], gens: Sequence[int],
           opts: dict[int, np.ndarray], cycles: Sequence[tuple[int, int]] = ()
           ) -> np.ndarray:
    """P read off the monoid (the table mul times the cyclic monoids of cycles, each
    (index, period): see Factored in :mod:`.build`): each element takes the outcome of its
    lex-least position, whose options (elements met earlier) are already marked; opts[h]
    are the elements of heap h's options in this monoid.  Elements the heaps do not reach
    stay out of P.  (The loop is the C core's, csrc/core/quotient.c.)"""
    return _walk(mul, phi, gens, opts, cycles)[0]


def _walk(mul: np.ndarray, phi: Sequence[int], gens: Sequence[int],
          opts: dict[int, np.ndarray], cycles: Sequence[tuple[int, int]] = ()
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """P read off, and the lex-least positions: (p, parent, via, order) as the C core's
    mq_mark_p gives them."""
    start, flat = _csr(gens, opts)
    g = np.array([phi[h] for h in gens], dtype=np.int32)
    cyc = np.array(cycles, dtype=np.int32).reshape(len(cycles), 2)
    p, parent, via, order = _core.quotient_mark_p(np.ascontiguousarray(mul, dtype=np.int32),
                                                  cyc, g, start, flat)
    return (np.frombuffer(p, dtype=np.uint8).astype(bool),
            np.frombuffer(parent, dtype=np.int32), np.frombuffer(via, dtype=np.int32),
            np.frombuffer(order, dtype=np.int32))


def n_failure(mul: np.ndarray, p: np.ndarray, phi: Sequence[int], gens: Sequence[int],
              opts: dict[int, np.ndarray]) -> tuple[Word | None, int]:
    """The lex-least position (a word over gens) that the candidate puts outside P but which
    has no option in P, or None; and the number of states kept.

    The positions are visited depth-first in lex order (as lex_least does), each with its
    state (Phi(X), W(X)).  A position whose state contains an earlier one's (same element,
    W a superset) is not extended: if X + Y failed, the earlier X' + Y, lex-smaller, would
    fail too, so the lex-least failure is never cut off, and the search ends because the
    states are finitely many.  Only the heaps of minimal_heaps are added: the lex-least
    failure uses no other (a dominated heap's replacement is smaller).  (The loop is the C
    core's, csrc/core/quotient.c.)

    Raises
    ------
    GiveUp
        more than MAX_STATES states.
    """
    explore = sorted(minimal_heaps(mul, p, phi, gens, opts), reverse=True)
    start, flat = _csr(explore, opts)
    g = np.array([phi[h] for h in explore], dtype=np.int32)
    cap = min(MAX_STATES, MAX_STATE_BYTES // (8 * ((mul.shape[0] + 63) // 64)))
    found, exps, states = _core.quotient_n_failure(
        np.ascontiguousarray(mul, dtype=np.int32), np.ascontiguousarray(p, dtype=np.uint8),
        g, start, flat, cap)
    if found < 0:
        raise GiveUp(f"more than {cap:,} states in the N-check")
    if not found:
        return None, states
    word = [0] * len(gens)
    for h, k in zip(explore, exps):
        word[gens.index(h)] = k
    return tuple(word), states


def certified_lower_bound(mul: np.ndarray, p: np.ndarray, phi: Sequence[int],
                          gens: Sequence[int], bad: Word) -> int:
    """A number of classes the true quotient certainly has, from a candidate whose lex-least
    wrong position is bad.

    Every position lex-smaller than bad is said right by the candidate (its options are
    smaller still: induction), and the order is compatible with addition.  So for a set S of
    elements whose lex-least positions are all at most a position U (lex-wise: the first c
    elements in lex order, U the c-th; or componentwise: a box, U a fraction of bad) and the
    elements x whose lex-least position X has U + X < bad, every A + X is said right:
    elements of S with distinct rows (p[a x])_x are told apart by exact outcomes, so the
    distinct rows are that many distinct classes.  The best count over a few such sets, and
    over the elements taken one by one (each with the tests its own position allows), is
    the bound: a fixed amount of work (never a time budget), so the bound, and the reason a
    row gives, does not depend on the machine's load.
    """
    words = lex_least(mul, phi, gens)
    elems = np.array(sorted(words, key=lambda e: words[e]), dtype=np.int64)
    w = np.array([words[int(e)] for e in elems], dtype=np.int64).reshape(len(elems), len(gens))
    target = np.array(bad, dtype=np.int64)
    sets: list[tuple[np.ndarray, np.ndarray]] = [
        (np.arange(len(elems)) < c, w[c - 1]) for c in _cuts(len(elems))]
    for k in (2, 4, 6):
        box = target * k // 8
        sets.append((np.asarray((w <= box[None, :]).all(axis=1)), box))
    best = _one_by_one(mul, p, elems, w, target)
    for inside, top in sets:
        tests = elems[_lex_below(top[None, :] + w, target)]
        if len(tests) and inside.any():
            best = max(best, _distinct_rows(mul, p, elems[inside], tests))
    return best


def _one_by_one(mul: np.ndarray, p: np.ndarray, elems: np.ndarray, w: np.ndarray,
                target: np.ndarray, work: int = 20_000_000) -> int:
    """Elements taken in lex order, each with every test x its own position allows
    (A + X < bad), kept when told apart from every element kept before (whose positions,
    lex-smaller, allow those tests too); until about work outcomes were compared."""
    kept: list[int] = []
    for i, a in enumerate(elems.tolist()):
        tests = elems[_lex_below(w[i][None, :] + w, target)]
        if not len(tests):
            continue
        work -= len(kept) * len(tests)
        if work < 0:
            break
        if kept:
            mine = p[mul[a, tests]]
            theirs = p[mul[np.ix_(np.array(kept, dtype=np.int64), tests)]]
            if not (theirs != mine[None, :]).any(axis=1).all():
                continue
        kept.append(a)
    return len(kept)


def _cuts(n: int, parts: int = 4) -> list[int]:
    """Where to cut the first c elements: n, then evenly down to n / parts."""
    return sorted({max(1, n * k // parts) for k in range(1, parts + 1)}, reverse=True)


def _lex_below(words: np.ndarray, target: np.ndarray) -> np.ndarray:
    """Which rows of words are lex-smaller than target (largest heap first)."""
    diff = words - target[None, :]
    first = np.argmax(diff != 0, axis=1)
    out: np.ndarray = diff[np.arange(len(words)), first] < 0
    return out


def _distinct_rows(mul: np.ndarray, p: np.ndarray, elems: np.ndarray, tests: np.ndarray,
                   chunk: int = 256) -> int:
    """How many distinct rows (p[a x])_{x in tests} the elements a have (built a few rows at
    a time, packed to bits: 8192 x 8192 outcomes take 8 MB)."""
    packed = np.concatenate([np.packbits(p[mul[np.ix_(elems[i:i + chunk], tests)]], axis=1)
                             for i in range(0, len(elems), chunk)])
    return len(np.unique(packed, axis=0))


def certified_powers(mul: np.ndarray, p: np.ndarray, phi: Sequence[int], gens: Sequence[int],
                     bad: Word) -> tuple[int, int, int]:
    """(h, k, apart): the heap h with the largest exponent in bad, k that exponent, and how
    many classes exact outcomes tell apart among its powers h^0 .. h^(k-1) (as
    certified_lower_bound does: by the tests X with (k - 1) h + X < bad).  apart = k, for a
    large k, is a sign (not a proof) of an infinite quotient: the search's candidates then
    grow without settling."""
    i = int(np.argmax(bad))
    k = int(bad[i])
    words = lex_least(mul, phi, gens)
    elems = np.array(sorted(words), dtype=np.int64)
    w = np.array([words[int(e)] for e in elems], dtype=np.int64).reshape(len(elems), len(gens))
    top = np.zeros(len(gens), dtype=np.int64)
    top[i] = k - 1
    tests = elems[_lex_below(top[None, :] + w, np.array(bad, dtype=np.int64))]
    powers = [0]
    for _ in range(k - 1):
        powers.append(int(mul[powers[-1], phi[gens[i]]]))
    apart = _distinct_rows(mul, p, np.array(powers, dtype=np.int64), tests) if len(tests) else 1
    return gens[i], k, apart
