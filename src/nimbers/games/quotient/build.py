"""Building the misère quotient Q_n of a heap game, one heap at a time, with a proof.

The positions made of heaps of size at most n form a closed set A_n (every option of such a
position is another one).  Its misère quotient (Plambeck, "Taming the wild in impartial
combinatorial games", INTEGERS 5 (2005) G05; Plambeck and Siegel, "Misère quotients for
impartial games", JCTA 115 (2008)) is the commutative monoid of the classes
x == y  <=>  o-(x + z) = o-(y + z) for every z in A_n, with its P-portion (the classes of
misère P-positions).  It is a bipartite monoid (Q, P) with a map, the pretending function,
from heaps to Q.

How it is found here (the method of A. Siegel's MisereSolver, in our own formulation):

* Q_{n-1} is known and proved.  Heap n's options are sums of smaller heaps, so their
  elements T in Q_{n-1} are known.  The first guess for heap n is the mex interpolation: an
  element x of Q_{n-1} that behaves against every z as a game with options T would have to
  (xz in P only when no tz is in P, and x alone in P exactly when no t is).
* A candidate (Q, P, phi) is tested on every position at once by a finite automaton.  The
  state of a position X is (Phi(X), W(X)) with W(X) = {z in Q : some option X' of X has
  Phi(X') z in P}; adding a heap h to X gives
  W(X + h) = {z : Phi(X) t z in P for some t in T_h}  |  {z : phi(h) z in W(X)},
  so the states reachable from the empty position are found by a breadth-first search.
  The candidate is *proved* exactly when every reachable state has Phi(X) in P <=> (X has
  a move and 1 is not in W(X)): then, by induction over the positions, Phi(X) in P says the outcome of every X in
  A_n (a P-position is one whose options are all N-positions), and the quotient is the
  candidate reduced by indistinguishability (the minimisation below).
* When a state disagrees, the candidate is recalibrated: the automaton, with each state's
  outcome computed from its options (1 not in W), is minimised (Moore's partition
  refinement), and its classes, which form a commutative monoid because adding heaps
  commutes, are the next candidate.  Each round is right on every position one move deeper
  than the last, and a proved candidate is a fixed point; classes of Q_{n-1} that heap n
  tells apart split on the way.

The search gives up (and says so) when a candidate outgrows max_order, when the automaton
outgrows its state cap, or at the time limit; what was proved by then is kept.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

__all__ = ["Candidate", "GiveUp", "Growth", "identity_candidate", "add_heap", "prove"]

#: the most automaton states one round explores before the search gives up
MAX_STATES = 400_000


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


def identity_candidate() -> Candidate:
    """Q_0: positions with no heap at all; the empty position is a misère N-position (the
    player to move has no move and wins)."""
    return Candidate(np.zeros((1, 1), dtype=np.int32), np.zeros(1, dtype=bool), [0])


@dataclass
class Round:
    """One round over a candidate: proved, or the minimised automaton (the next
    candidate); states: how many automaton states were explored."""

    proved: bool
    next: Candidate
    states: int
    #: each state's element, and its outcome (True: P) computed from its options
    elements: np.ndarray | None = None
    outcome: np.ndarray | None = None
    #: each state's parent state and the heap added to it (a word reaching the state)
    parent: list[tuple[int, int]] | None = None
    #: the fewest tokens of a position seen reaching each state
    tokens: np.ndarray | None = None

    def word(self, state: int) -> list[int]:
        """The heaps of a position reaching state."""
        assert self.parent is not None
        out = []
        while state > 0:
            state, h = self.parent[state]
            out.append(h)
        return out


class GiveUp(Exception):
    """The search stopped at a bound; the message says which."""


def option_elements(cand: Candidate, options: Sequence[Sequence[int]]) -> np.ndarray:
    """The elements of a heap's options (each a tuple of smaller heaps) in cand."""
    found = set()
    for left in options:
        e = 0
        for h in left:
            e = int(cand.mul[e, cand.phi[h]])
        found.add(e)
    return np.array(sorted(found), dtype=np.int64)


def mex_guesses(cand: Candidate, t: np.ndarray) -> list[int]:
    """The elements x of cand that a game with option elements t could pretend to be: x
    alone is in P exactly when no t is, and xz is in P only when no tz is (else the game's
    own move would win from a position said to be lost)."""
    pmat = cand.p[cand.mul]                           # pmat[y, z]: yz in P
    reach = pmat[t].any(axis=0) if len(t) else np.zeros(cand.order, dtype=bool)
    alone_p = not bool(cand.p[t].any()) if len(t) else True
    good = ~(pmat & reach[None, :]).any(axis=1) & (cand.p == alone_p)
    return [int(x) for x in np.flatnonzero(good)]


def check_round(cand: Candidate, heaps: Sequence[int], options: Sequence[np.ndarray],
                deadline: float | None, max_order: int,
                interrupt: Callable[[], None] | None = None, minimise: bool = True,
                refine: bool = False) -> Round:
    """Explore the automaton of cand over heaps (generators), options[i] the option
    elements of heaps[i]; prove cand or return the next candidate.

    Raises
    ------
    GiveUp
        the state cap, the time limit or max_order reached.
    """
    m = cand.order
    pmat = cand.p[cand.mul]
    phis = [cand.phi[h] for h in heaps]
    # gain[i][x]: the z for which a move in the new heap i from a position of element x wins
    gain = [pmat[cand.mul[:, opts]].any(axis=1) if len(opts) else np.zeros((m, m), dtype=bool)
            for opts in options]
    shift = [cand.mul[ph] for ph in phis]   # W -> {z : phi z in W} is W[shift]
    xs: list[int] = [0]
    ws: list[np.ndarray] = [np.zeros(m, dtype=bool)]
    index: dict[bytes, int] = {b"start": 0}
    trans: list[list[int]] = [[] for _ in heaps]
    parent: list[tuple[int, int]] = [(-1, 0)]     # how each state was first reached
    tokens: list[int] = [0]                       # the fewest tokens seen reaching it
    proved = True
    head = 0
    while head < len(xs):
        if deadline is not None and time.monotonic() > deadline:
            raise GiveUp("time limit reached")
        if interrupt is not None:
            interrupt()
        stop = len(xs)
        fx = np.array(xs[head:stop], dtype=np.int64)
        fw = np.array(ws[head:stop])
        for i, ph in enumerate(phis):
            nx = cand.mul[fx, ph]
            nw = gain[i][fx] | fw[:, shift[i]]
            for j, (x, w) in enumerate(zip(nx.tolist(), nw)):
                k = _key(x, w)
                s = index.get(k)
                t = tokens[head + j] + heaps[i]
                if s is None:
                    s = len(xs)
                    index[k] = s
                    xs.append(x)
                    ws.append(w)
                    parent.append((head + j, heaps[i]))
                    tokens.append(t)
                elif t < tokens[s]:
                    tokens[s] = t
                trans[i].append(s)
        head = stop
        if len(xs) > MAX_STATES:
            raise GiveUp(f"more than {MAX_STATES:,} automaton states")
    # a position with no move is a misère N-position: only the start state has none
    outcome_p = ~np.array([w[0] for w in ws])
    outcome_p[0] = False
    predicted = cand.p[np.array(xs)]
    proved = bool(np.array_equal(outcome_p, predicted))
    if not minimise:
        return Round(proved, cand, len(xs), np.array(xs, dtype=np.int64), outcome_p, parent,
                     np.array(tokens, dtype=np.int64))
    delta = np.array(trans, dtype=np.int64).reshape(len(heaps), len(xs))
    key = np.array(xs, dtype=np.int64) * 2 + outcome_p if refine else outcome_p
    nxt = _minimise(delta, key, outcome_p, heaps, len(cand.phi), max_order)
    return Round(proved, nxt, len(xs), np.array(xs, dtype=np.int64), outcome_p)


def _key(x: int, w: np.ndarray) -> bytes:
    return x.to_bytes(4, "little") + np.packbits(w).tobytes()


def _minimise(delta: np.ndarray, key: np.ndarray, out: np.ndarray, heaps: Sequence[int],
              n_heaps: int, max_order: int) -> Candidate:
    """Moore's partition refinement of the automaton (start state 0), then its classes as
    a commutative monoid."""
    _, cls = np.unique(key, return_inverse=True)
    cls = cls.reshape(-1)
    count = len(np.unique(cls))
    while True:
        sig = np.vstack([cls[None, :], cls[delta]]).T
        _, new = np.unique(sig, axis=0, return_inverse=True)
        new = new.reshape(-1)
        c = int(new.max()) + 1
        if c == count:
            break
        cls, count = new, c
    # relabel so that the start state's class is 0, in order of first appearance
    order = np.full(count, -1, dtype=np.int64)
    nxt = 0
    for c in cls.tolist():
        if order[c] < 0:
            order[c] = nxt
            nxt += 1
    cls = order[cls]
    if count > max_order:
        raise GiveUp(f"a candidate of order {count} exceeds max_order={max_order}")
    # the class automaton; a word (heaps) reaching each class, by breadth-first search
    d = np.zeros((len(heaps), count), dtype=np.int64)
    d[:, cls] = cls[delta]
    words: list[list[int] | None] = [None] * count
    words[0] = []
    queue = [0]
    for c in queue:
        w = words[c]
        assert w is not None
        for i in range(len(heaps)):
            e = int(d[i, c])
            if words[e] is None:
                words[e] = w + [i]
                queue.append(e)
    mul = np.zeros((count, count), dtype=np.int32)
    for b in range(count):
        vec = np.arange(count, dtype=np.int64)
        wb = words[b]
        assert wb is not None
        for i in wb:
            vec = d[i, vec]
        mul[:, b] = vec
    p = np.zeros(count, dtype=bool)
    p[cls] = out
    phi = [0] * n_heaps
    for i, h in enumerate(heaps):
        phi[h] = int(d[i, 0])
    return Candidate(mul, p, phi)


# ---- one more heap --------------------------------------------------------------------------

#: the largest K tried in the products Q_{n-1} x <xi | xi^(K+1) = xi^(K-1)>
_MAX_POWER = 4
#: recalibrations of P on one structure, and refinements of the structure, per heap
_P_ROUNDS = 30
_REFINEMENTS = 4
#: the cycle of each free generator when classes split
_FREE_POWER = 3


@dataclass
class Growth:
    """How heap n entered: "old" (it pretends to be an element already there, by the mex
    interpolation), "new" (a new generator), or "split" (classes of Q_{n-1} split);
    rounds: automaton rounds; states: the automaton states of the proof."""

    how: str
    rounds: int
    states: int


class _Search:
    """The state of one heap's search: the heaps with a move (generators), the options of
    each as tuples of smaller heaps, the bounds."""

    def __init__(self, gens: list[int], options: dict[int, list[tuple[int, ...]]],
                 deadline: float | None, max_order: int,
                 interrupt: Callable[[], None] | None) -> None:
        self.gens, self.options = gens, options
        self.deadline, self.max_order, self.interrupt = deadline, max_order, interrupt
        self.rounds = 0
        self.suspects: list[int] = []

    def round(self, cand: Candidate, minimise: bool = False, refine: bool = False) -> Round:
        self.rounds += 1
        opts = [option_elements(cand, self.options[h]) for h in self.gens]
        return check_round(cand, self.gens, opts, self.deadline, self.max_order,
                           self.interrupt, minimise, refine)

    def calibrate(self, cand: Candidate) -> tuple[Candidate, Round | None]:
        """Recalibrate P on a fixed monoid: each element takes the outcome of its state
        with the fewest tokens (whose options are the smallest positions, so right first),
        until a round proves it (returned with it) or P stops changing (the last candidate,
        with None: too coarse)."""
        for _ in range(_P_ROUNDS):
            if self.deadline is not None and time.monotonic() > self.deadline:
                raise GiveUp("time limit reached")
            r = self.round(cand)
            if r.proved:
                return cand, r
            assert r.elements is not None and r.outcome is not None
            assert r.tokens is not None
            order = np.lexsort((np.arange(len(r.tokens)), r.tokens, r.elements))
            first, idx = np.unique(r.elements[order], return_index=True)
            p = cand.p.copy()
            p[first] = r.outcome[order[idx]]
            if np.array_equal(p, cand.p):
                self._suspect(r, p)
                break
            cand = Candidate(cand.mul, p, cand.phi)
        return cand, None

    def _suspect(self, r: Round, p: np.ndarray) -> None:
        """Heaps in which two positions of one element but different outcomes differ:
        the likely cause of a split."""
        assert r.elements is not None and r.outcome is not None
        wrong = np.flatnonzero(p[r.elements] != r.outcome)
        if not len(wrong):
            return
        s = int(wrong[0])
        agree = np.flatnonzero((r.elements == r.elements[s]) & (r.outcome != r.outcome[s]))
        same = int(agree[0])
        a, b = sorted(r.word(s)), sorted(r.word(same))
        for h in set(a) ^ set(b) | {h for h in set(a) & set(b) if a.count(h) != b.count(h)}:
            if h not in self.suspects:
                self.suspects.append(h)


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
    gens = [h for h in range(1, n + 1) if options[h]]
    search = _Search(gens, options, deadline, max_order, interrupt)
    # 1. the mex interpolation: heap n pretends to be an element of Q_{n-1}
    for guess in mex_guesses(q, option_elements(q, options[n]))[:3]:
        cand = Candidate(q.mul, q.p, q.phi + [guess])
        r = search.round(cand)
        if r.proved:
            return _reduce(cand, gens), Growth("old", search.rounds, r.states)
    # 2. a new generator xi beside Q_{n-1}
    for k in range(1, _MAX_POWER + 1):
        cand, proof = search.calibrate(_with_generator(q, k))
        if proof is not None:
            return _reduce(cand, gens), Growth("new", search.rounds, proof.states)
    bound = ""
    # 3. classes of Q_{n-1} split: refine the last candidate by its automaton's states and
    #    their outcomes (Moore's refinement splits what heap n tells apart) ...
    try:
        for _ in range(_REFINEMENTS):
            cand = search.round(cand, minimise=True, refine=True).next
            cand, proof = search.calibrate(cand)
            if proof is not None:
                return _reduce(cand, gens), Growth("split", search.rounds, proof.states)
    except GiveUp as e:
        if "time limit" in str(e):
            raise
        bound = str(e)
    # 4. ... or free generators for heap n and the heaps below it, one more each time,
    #    beside what the other heaps generate in Q_{n-1}
    below = [h for h in search.suspects if h != n]
    below += [h for h in reversed(gens) if h != n and h not in below]
    for extra in range(1, len(below) + 1):
        free = [n] + below[:extra]
        if deadline is not None and time.monotonic() > deadline:
            raise GiveUp("time limit reached")
        size = _free_size(q, free, gens, _FREE_POWER)
        if size > max_order:
            bound = f"a candidate of order {size} exceeds max_order={max_order}"
            break
        cand = _free_product(q, free, gens, _FREE_POWER)
        cand, proof = search.calibrate(cand)
        if proof is not None:
            return _reduce(cand, gens), Growth("split", search.rounds, proof.states)
    raise GiveUp(bound or f"no candidate proved after {search.rounds} rounds")


def _free_size(q: Candidate, free: Sequence[int], gens: Sequence[int], k: int) -> int:
    """The order _free_product would have."""
    keep = [q.phi[h] for h in gens if h not in free]
    sub = {0}
    frontier = [0]
    while frontier:
        frontier = [y for x in frontier for g in keep if (y := int(q.mul[x, g])) not in sub]
        sub.update(frontier)
    return int(len(sub) * (k + 1) ** len(free))


def _free_product(q: Candidate, free: Sequence[int], gens: Sequence[int], k: int
                  ) -> Candidate:
    """What the heaps outside free generate in q, times a cycle <xi | xi^(k+1) = xi^(k-1)>
    for each heap in free (free[0] the new heap); P guessed from q's P-portion."""
    n = free[0]
    keep = [h for h in gens if h not in free]
    sub = [0]
    index = {0: 0}
    for x in sub:
        for h in keep:
            y = int(q.mul[x, q.phi[h]])
            if y not in index:
                index[y] = len(sub)
                sub.append(y)
    elems = np.array(sub, dtype=np.int64)
    lookup = np.full(q.order, -1, dtype=np.int64)
    lookup[elems] = np.arange(len(sub))
    mul = lookup[q.mul[np.ix_(elems, elems)]]
    old = elems.copy()                      # each element's element in q, heap n left out
    flip = np.zeros(len(sub), dtype=bool)   # an odd number of heap n
    powers = np.arange(k + 1)
    add = powers[:, None] + powers[None, :]
    add = np.where(add > k, k - 1 + (add - k + 1) % 2, add)
    phi = [0] * (n + 1)
    for h in keep:
        phi[h] = index[q.phi[h]]
    for h in free:
        m = mul.shape[0]
        mul = (add[:, None, :, None] * m + mul[None, :, None, :]).reshape(m * (k + 1), -1)
        if h == n:
            old = np.tile(old, k + 1)
            flip = np.concatenate([flip ^ bool(j % 2) for j in range(k + 1)])
        else:
            pw = [0]
            for _ in range(k):
                pw.append(int(q.mul[pw[-1], q.phi[h]]))
            old = np.concatenate([q.mul[old, pw[j]] for j in range(k + 1)])
            flip = np.tile(flip, k + 1)
        phi[h] = m
    return Candidate(mul.astype(np.int32), q.p[old] ^ flip, phi)


def _with_generator(q: Candidate, k: int) -> Candidate:
    """Q x <xi | xi^(k+1) = xi^(k-1)>, xi the new heap's element; P guessed (recalibrated
    after)."""
    m = q.order
    powers = np.arange(k + 1)
    add = powers[:, None] + powers[None, :]
    add = np.where(add > k, k - 1 + (add - k + 1) % 2, add)    # fold into the cycle k-1, k
    mul = (add[:, None, :, None] * m + q.mul[None, :, None, :]).reshape(m * (k + 1), m * (k + 1))
    p = np.concatenate([q.p ^ bool(j % 2) for j in range(k + 1)])
    return Candidate(mul.astype(np.int32), p, q.phi + [m])


def _reduce(cand: Candidate, gens: Sequence[int]) -> Candidate:
    """The proved candidate's elements reached from the heaps, modulo indistinguishability
    (x ~ y when xz in P <=> yz in P for every z): the misère quotient."""
    reach = [0]
    index = {0: 0}
    for x in reach:
        for h in gens:
            y = int(cand.mul[x, cand.phi[h]])
            if y not in index:
                index[y] = len(reach)
                reach.append(y)
    delta = np.array([[index[int(cand.mul[x, cand.phi[h]])] for x in reach] for h in gens],
                     dtype=np.int64).reshape(len(gens), len(reach))
    out = cand.p[np.array(reach)]
    return _minimise(delta, out, out, gens, len(cand.phi), 2**31)


def prove(mul: np.ndarray, p: np.ndarray, phi: Sequence[int],
          options: dict[int, list[tuple[int, ...]]], time_limit: float | None = None) -> bool:
    """True when (mul, p, phi) says the misère outcome of every position of heaps up to
    len(phi) - 1 of the game whose heaps have these options (one automaton round)."""
    gens = [h for h in range(1, len(phi)) if options[h]]
    cand = Candidate(mul.astype(np.int32), p.astype(bool), list(phi))
    if any(cand.phi[h] != 0 for h in range(1, len(phi)) if not options[h]):
        return False        # a heap with no move must be the identity
    deadline = None if time_limit is None else time.monotonic() + time_limit
    opts = [option_elements(cand, options[h]) for h in gens]
    return check_round(cand, gens, opts, deadline, 2**31, minimise=False).proved
