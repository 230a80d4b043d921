"""Building the misère quotient Q_n of a heap game, one heap at a time, with a proof.

The positions made of heaps of size at most n form a closed set A_n (every option of such a
position is another one).  Its misère quotient (Plambeck, "Taming the wild in impartial
combinatorial games", INTEGERS 5 (2005) G05; Plambeck and Siegel, "Misère quotients for
impartial games", JCTA 115 (2008)) is the commutative monoid of the classes
x == y  <=>  o-(x + z) = o-(y + z) for every z in A_n, with its P-portion (the classes of
misère P-positions).  It is a bipartite monoid (Q, P) with a map, the pretending function,
from heaps to Q.

How Q_n is found from the proved Q_{n-1} (the method of A. Siegel's MisereSolver, in our
own formulation):

1. **The mex interpolation.**  Heap n's options are sums of smaller heaps, so their elements
   T in Q_{n-1} are known.  Heap n may pretend to be an element x of Q_{n-1} that behaves
   against every z as a game with options T would (xz in P only when no tz is in P, and x
   alone in P exactly when no t is); each such x is tried, and the first that passes the
   checks of :mod:`.verify` makes Q_n = Q_{n-1}.
2. **A new generator.**  Otherwise heap n becomes a new element xi beside Q_{n-1}, in
   Q_{n-1} x <xi | xi^4 = xi^2>, whose P-portion is read off its lex-least positions
   (:func:`.verify.mark_p`) and which is reduced (indistinguishable elements merged).
3. **Recalibration.**  While the checks find a wrong position (the lex-least one), the heaps
   in it are freed, one, then two, ...: each becomes a cyclic generator of its own (index at
   least its exponent in the wrong position), beside what the other heaps generate; P is
   read off again and the candidate reduced, until one says the wrong position right.
   Classes of Q_{n-1} that heap n tells apart split this way.

Every answer passes both checks of :mod:`.verify`, which together prove that the candidate
says the misère outcome of every position of heaps up to n; reduced, it is the quotient.
The search gives up (and says so) when a candidate outgrows WORKING_FACTOR * max_order
(the quotient's order is then bounded below by what exact outcomes certify), when a proved
Q_n has more than max_order elements (a true reason: its order is stated), when a check
outgrows its state cap, or at the time limit; what was proved by then is kept.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from itertools import combinations
from typing import Callable, Sequence

import numpy as np

from .verify import (GiveUp, Word, certified_lower_bound, certified_powers, lex_least, mark_p,
                     n_failure, p_failure, refine)

__all__ = ["Candidate", "GiveUp", "Growth", "identity_candidate", "add_heap", "prove"]

#: recalibrations per heap before the search gives up
MAX_RECALIBRATIONS = 500
#: how far past max_order a candidate may grow while the search goes on: a wrong candidate
#: can be larger than the quotient it leads to (0.64 at heap 14 passes through 1972 to a
#: proved Q_14 of 2248), and a proved quotient past max_order is a true reason to stop
WORKING_FACTOR = 2
#: how many of a heap's powers told apart a stop reports (as a sign of an infinite quotient)
POWERS_APART = 12
#: the most elements of an unreduced candidate (never tabulated: about 1 kB each at most
#: while it is reduced)
MAX_UNREDUCED = 1 << 19


@dataclass
class Candidate:
    """A bipartite monoid with a pretending function: element 0 is the identity,
    mul[a, b] the product, p[a] True for the P-portion, phi[h] the element of heap h."""

    mul: np.ndarray
    p: np.ndarray
    phi: list[int]

    @property
    def order(self) -> int:
        return int(self.mul.shape[0])

    def product(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """The products of a and b (arrays, broadcast)."""
        out: np.ndarray = self.mul[a, b].astype(np.int64)
        return out

    def element(self, word: Word, gens: Sequence[int]) -> int:
        """The element of a position given as exponents of gens."""
        e = 0
        for h, k in zip(gens, word):
            for _ in range(k):
                e = int(self.mul[e, self.phi[h]])
        return e


@dataclass
class Factored:
    """A monoid too large to tabulate, for the candidates before reduction: the table sub
    times the cyclic monoids <x | x^(i + p) = x^i> of cycles; element a + s (k1 + c1 (k2 +
    ...)) (s the order of sub, c the size i + p of a cycle) is a times the k-th powers of
    the cycles' generators."""

    sub: np.ndarray
    cycles: list[tuple[int, int]]

    @property
    def order(self) -> int:
        return int(self.sub.shape[0]) * int(np.prod([i + p for i, p in self.cycles]))

    def product(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """The products of a and b (arrays, broadcast)."""
        a, b = np.asarray(a, dtype=np.int64), np.asarray(b, dtype=np.int64)
        s = int(self.sub.shape[0])
        out: np.ndarray = self.sub[a % s, b % s].astype(np.int64)
        a, b, scale = a // s, b // s, s
        for i, p in self.cycles:
            c = i + p
            k = a % c + b % c
            out = out + np.where(k < c, k, i + (k - i) % p) * scale
            a, b, scale = a // c, b // c, scale * c
        return out


def identity_candidate() -> Candidate:
    """Q_0: positions with no heap at all; the empty position is a misère N-position (the
    player to move has no move and wins)."""
    return Candidate(np.zeros((1, 1), dtype=np.int32), np.zeros(1, dtype=bool), [0])


@dataclass
class Growth:
    """How heap n entered: "old" (it pretends to be an element already there, by the mex
    interpolation) or "new" (a new generator, with recalibrations: classes may split);
    rounds: checks run; states: the states of the last N-check."""

    how: str
    rounds: int
    states: int


def option_elements(mono: Candidate | Factored, phi: Sequence[int],
                    options: Sequence[Sequence[int]]) -> np.ndarray:
    """The elements of a heap's options (each a tuple of smaller heaps) in mono."""
    if not options:
        return np.zeros(0, dtype=np.int64)
    width = max(len(left) for left in options)
    heaps = np.array([[phi[h] for h in left] + [-1] * (width - len(left)) for left in options],
                     dtype=np.int64).reshape(len(options), width)
    e = np.zeros(len(options), dtype=np.int64)
    for j in range(width):
        has = heaps[:, j] >= 0
        e[has] = mono.product(e[has], heaps[has, j])
    return np.unique(e)


def mex_guesses(cand: Candidate, t: np.ndarray) -> list[int]:
    """The elements x of cand that a game with option elements t could pretend to be: x
    alone is in P exactly when no t is, and xz is in P only when no tz is (else the game's
    own move would win from a position said to be lost)."""
    pmat = cand.p[cand.mul]                           # pmat[y, z]: yz in P
    reach = pmat[t].any(axis=0) if len(t) else np.zeros(cand.order, dtype=bool)
    alone_p = not bool(cand.p[t].any()) if len(t) else True
    good = ~(pmat & reach[None, :]).any(axis=1) & (cand.p == alone_p)
    return [int(x) for x in np.flatnonzero(good)]


class _Search:
    """One heap's search: the heaps with a move (largest first), their options as tuples of
    smaller heaps, the bounds, and the counts of the work done."""

    def __init__(self, n: int, options: dict[int, list[tuple[int, ...]]],
                 deadline: float | None, max_order: int,
                 interrupt: Callable[[], None] | None) -> None:
        self.gens = [h for h in range(n, 0, -1) if options[h]]
        self.options = options
        self.deadline, self.max_order, self.interrupt = deadline, max_order, interrupt
        self.rounds = 0
        self.states = 0
        #: trials of the last recalibration that outgrew the bounds
        self.too_large = 0

    def opts(self, mono: Candidate | Factored, phi: Sequence[int]) -> dict[int, np.ndarray]:
        return {h: option_elements(mono, phi, self.options[h]) for h in self.gens}

    def failure(self, cand: Candidate, p_check: bool = True) -> Word | None:
        """The lex-least wrong position the checks find, or None when cand is proved."""
        self.rounds += 1
        opts = self.opts(cand, cand.phi)
        bad_p = None
        if p_check:
            words = lex_least(cand.mul, cand.phi, self.gens)
            bad_p = p_failure(cand.mul, cand.p, cand.phi, self.gens, opts, words)
        if self.interrupt is not None:
            self.interrupt()
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise GiveUp("time limit reached")
        bad_n, self.states = n_failure(cand.mul, cand.p, cand.phi, self.gens, opts)
        if bad_p is None or (bad_n is not None and bad_n < bad_p):
            return bad_n
        return bad_p

    def calibrated(self, mono: Factored, phi: list[int]) -> Candidate:
        """P read off (mono, phi) by the lex-least positions, then reduced."""
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise GiveUp("time limit reached")
        if self.interrupt is not None:
            self.interrupt()
        p = mark_p(mono.sub, phi, self.gens, self.opts(mono, phi), mono.cycles)
        return _reduce(mono, p, phi, self.gens, WORKING_FACTOR * self.max_order)

    def recalibrate(self, cand: Candidate, bad: Word) -> Candidate:
        """A candidate that says the wrong position bad right: the heaps in it freed, the
        fewest first (MisereSolver's recalibration)."""
        should_p = not cand.p[cand.element(bad, self.gens)]
        involved = [h for h, k in zip(self.gens, bad) if k]
        exps = dict(zip(self.gens, bad))
        self.too_large = 0
        for size in range(1, len(involved) + 1):
            for free in combinations(involved, size):
                indices = [max(_index(cand.mul, cand.phi[h]), exps[h] - 1) for h in free]
                wide = [(i, max(2, 2 * int((i - 4) / 2))) for i in indices]
                for cycles in ([wide, [(i, 2) for i in indices]] if any(
                        p != 2 for _, p in wide) else [wide]):
                    trial = self._trial(cand, free, cycles)
                    if trial is not None and trial.p[trial.element(bad, self.gens)] == should_p:
                        return trial
        raise GiveUp(f"no recalibration says the position {_heaps(bad, self.gens)} right "
                     f"within the working order {WORKING_FACTOR * self.max_order} "
                     f"({self.too_large} outgrew it)")

    def _trial(self, cand: Candidate, free: Sequence[int], cycles: list[tuple[int, int]]
               ) -> Candidate | None:
        """The candidate with the heaps free as the cycles, P read off and reduced; None
        when it would be too large."""
        work = WORKING_FACTOR * self.max_order
        built = _freed(cand, self.gens, free, cycles, min(64 * work, MAX_UNREDUCED))
        if built is None:
            self.too_large += 1
            return None
        try:
            return self.calibrated(*built)
        except _TooLarge:
            self.too_large += 1
            return None


def add_heap(q: Candidate, n: int, options: dict[int, list[tuple[int, ...]]],
             deadline: float | None, max_order: int,
             interrupt: Callable[[], None] | None = None) -> tuple[Candidate, Growth]:
    """Q_n from the proved Q_{n-1} (q, with q.phi for heaps 0 .. n-1) and the options of
    every heap up to n (options[h]: tuples of smaller heaps).

    Raises
    ------
    GiveUp
        a bound was reached before a candidate was proved.
    """
    if not options[n]:      # a heap with no move changes no outcome: the identity
        return Candidate(q.mul, q.p, q.phi + [0]), Growth("old", 0, 0)
    search = _Search(n, options, deadline, max_order, interrupt)
    # 1. the mex interpolation: heap n pretends to be an element of Q_{n-1}; the guesses
    #    pass the P-check by construction (Q_{n-1} passed it for the other heaps)
    for guess in mex_guesses(q, option_elements(q, q.phi, options[n])):
        cand = Candidate(q.mul, q.p, q.phi + [guess])
        if search.failure(cand, p_check=False) is None:
            return reduce_candidate(cand, search.gens), Growth("old", search.rounds,
                                                               search.states)
    # 2. a new generator xi beside Q_{n-1}, xi^4 = xi^2; 3. recalibrated while wrong
    try:
        cand = search.calibrated(Factored(q.mul, [(2, 2)]), q.phi + [q.order])
    except _TooLarge:
        raise GiveUp(f"a candidate exceeds the working order {WORKING_FACTOR * max_order}; "
                     f"|Q_{n}| >= {q.order}") from None
    last: tuple[Candidate, Word] | None = None
    try:
        for _ in range(MAX_RECALIBRATIONS):
            bad = search.failure(cand)
            if bad is None:
                return _within(cand, n, max_order), Growth("new", search.rounds,
                                                           search.states)
            last = (cand, bad)
            cand = search.recalibrate(cand, bad)
        raise GiveUp(f"no candidate proved after {MAX_RECALIBRATIONS} recalibrations")
    except GiveUp as e:
        if last is None or "time limit" in str(e) or "(proved)" in str(e):
            raise
        raise GiveUp(_certified(e, q, last, search.gens, n, max_order)) from None


def _within(cand: Candidate, n: int, max_order: int) -> Candidate:
    """The proved Q_n, or the true reason to stop: its order past max_order."""
    if cand.order > max_order:
        raise GiveUp(f"|Q_{n}| = {cand.order} exceeds max_order={max_order} (proved)")
    return cand


def _certified(e: GiveUp, q: Candidate, last: tuple[Candidate, Word], gens: Sequence[int],
               n: int, max_order: int) -> str:
    """Why the search stopped, with the order that exact outcomes certify (the last wrong
    candidate is right on every position lex-smaller than its wrong one): past max_order,
    that is a true reason to stop."""
    at_least = max(q.order, certified_lower_bound(last[0].mul, last[0].p, last[0].phi, gens,
                                                   last[1]))
    why = f"{e}; |Q_{n}| >= {at_least} (that many positions told apart by exact outcomes)"
    if at_least > max_order:
        return why + f", which exceeds max_order={max_order} (certified)"
    if max(last[1]) < POWERS_APART:
        return why
    heap, k, apart = certified_powers(last[0].mul, last[0].p, last[0].phi, gens, last[1])
    if apart == k:
        why += (f"; the {k} sums of 0 .. {k - 1} heaps of {heap} are pairwise told apart "
                f"(a sign, not a proof, of an infinite quotient)")
    return why


def _heaps(word: Word, gens: Sequence[int]) -> str:
    return "+".join(str(h) for h, k in zip(gens, word) for _ in range(k)) or "0"


def _index(mul: np.ndarray, x: int) -> int:
    """The index of x: the least i with x^i = x^j for some j > i."""
    seen = [0]
    e = 0
    while True:
        e = int(mul[e, x])
        if e in seen:
            return seen.index(e)
        seen.append(e)


def _reached(mono: Candidate | Factored, elems: Sequence[int]) -> np.ndarray:
    """The elements generated by elems (0 first), as an array."""
    gen = np.unique(np.asarray(elems, dtype=np.int64))
    seen = np.zeros(mono.order, dtype=bool)
    seen[0] = True
    frontier = np.zeros(1, dtype=np.int64)
    while len(frontier):
        nxt = np.unique(mono.product(frontier[:, None], gen[None, :]))
        frontier = nxt[~seen[nxt]]
        seen[frontier] = True
    return np.flatnonzero(seen)


def _freed(cand: Candidate, gens: Sequence[int], free: Sequence[int],
           cycles: Sequence[tuple[int, int]], limit: int
           ) -> tuple[Factored, list[int]] | None:
    """What the heaps outside free generate in cand, times a cycle for each freed heap;
    the pretending function on it.  None when it would have more than limit elements."""
    keep = [h for h in gens if h not in free]
    elems = _reached(cand, [cand.phi[h] for h in keep])
    if len(elems) * int(np.prod([i + per for i, per in cycles])) > limit:
        return None
    lookup = np.full(cand.order, -1, dtype=np.int64)
    lookup[elems] = np.arange(len(elems))
    sub = lookup[cand.mul[np.ix_(elems, elems)]].astype(np.int32)
    phi = [0] * len(cand.phi)
    for h in keep:
        phi[h] = int(lookup[cand.phi[h]])
    stride = len(elems)
    for h, (i, per) in zip(free, cycles):
        phi[h] = stride
        stride *= i + per
    return Factored(sub, list(cycles)), phi


def reduce_candidate(cand: Candidate, gens: Sequence[int]) -> Candidate:
    """The candidate's elements reached from the heaps, modulo indistinguishability
    (x ~ y when xz in P <=> yz in P for every z): for a proved candidate, the misère
    quotient."""
    return _reduce(cand, cand.p, cand.phi, gens)


class _TooLarge(GiveUp):
    """A reduced candidate would have more elements than allowed."""


def _reduce(mono: Candidate | Factored, p: np.ndarray, phi: Sequence[int],
            gens: Sequence[int], limit: int | None = None) -> Candidate:
    reach = _reached(mono, [phi[h] for h in gens])
    lookup = np.full(mono.order, -1, dtype=np.int64)
    lookup[reach] = np.arange(len(reach))
    heaps = np.array([phi[h] for h in gens], dtype=np.int64)
    delta = lookup[mono.product(heaps[:, None], reach[None, :])]
    return _minimise(delta.reshape(len(gens), len(reach)), p[reach], gens, len(phi), limit)


def _minimise(delta: np.ndarray, out: np.ndarray, heaps: Sequence[int], n_heaps: int,
              limit: int | None = None) -> Candidate:
    """Moore's partition refinement of the automaton (start state 0, transitions delta[i]
    for heaps[i], output out), then its classes as a commutative monoid, numbered in the
    order a breadth-first search over the heaps meets them."""
    cls, count = refine(delta, out)
    if limit is not None and count > limit:
        raise _TooLarge(f"a candidate of order {count} exceeds max_order={limit}")
    # the class automaton; classes renumbered in breadth-first order, each reached from an
    # earlier one (parent) by one heap (step): then column b of the table is column
    # parent[b] moved by that heap
    d = np.zeros((len(heaps), count), dtype=np.int64)
    d[:, cls] = cls[delta]
    # (level by level: within a level, in the order of (class met, heap), as a queue would)
    label = np.full(count, -1, dtype=np.int64)
    label[cls[0]] = 0
    queue = [np.array([cls[0]], dtype=np.int64)]
    parents, steps = [np.zeros(1, dtype=np.int64)], [np.zeros(1, dtype=np.int64)]
    met = 1
    frontier = queue[0]
    while len(frontier):
        reached = d[:, frontier].T.ravel()              # class c's heaps, c in order
        fresh, first = np.unique(reached, return_index=True)
        keep = label[fresh] < 0
        fresh, first = fresh[keep], first[keep]
        order = np.argsort(first, kind="stable")
        frontier, first = fresh[order], first[order]
        label[frontier] = np.arange(met, met + len(frontier))
        met += len(frontier)
        queue.append(frontier)
        parents.append(label[queue[-2][first // len(heaps)]])
        steps.append(first % len(heaps))
    flat = np.concatenate(queue)
    parent, step = np.concatenate(parents).tolist(), np.concatenate(steps).tolist()
    d = label[d[:, flat]]
    mul = np.zeros((count, count), dtype=np.int64)
    mul[:, 0] = np.arange(count)
    for b in range(1, count):
        mul[:, b] = d[step[b], mul[:, parent[b]]]
    mul = mul.astype(np.int32)
    p = np.zeros(count, dtype=bool)
    p[label[cls]] = out
    phi = [0] * n_heaps
    for i, h in enumerate(heaps):
        phi[h] = int(d[i, 0])
    return Candidate(mul, p, phi)


def prove(mul: np.ndarray, p: np.ndarray, phi: Sequence[int],
          options: dict[int, list[tuple[int, ...]]], time_limit: float | None = None) -> bool:
    """True when (mul, p, phi) says the misère outcome of every position of heaps up to
    len(phi) - 1 of the game whose heaps have these options (both checks of
    :mod:`.verify`)."""
    n = len(phi) - 1
    cand = Candidate(mul.astype(np.int32), p.astype(bool), list(phi))
    if any(cand.phi[h] != 0 for h in range(1, n + 1) if not options[h]):
        return False        # a heap with no move must be the identity
    if cand.p[0]:
        return False        # the empty position is an N-position
    deadline = None if time_limit is None else time.monotonic() + time_limit
    search = _Search(n, options, deadline, 2**31, None)
    return search.failure(cand) is None
