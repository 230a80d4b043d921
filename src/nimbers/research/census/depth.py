"""One code taken to a depth: the engine that fits it, its proof, its statistics, in bounded
memory.  What happens to a code depends on the code and the depth alone, never on a clock, so
the same depth gives the same row on any machine and under any load.

The engines (chosen by :func:`engine_for`):

* ``"memory"``: the ordinary engine (``HeapGame.period``): codes whose moves never leave two
  heaps (no sparse space; periodic early, the Guy-Smith proof found in memory), and every code
  up to :data:`FRONTIER_FROM` heap sizes;
* ``"frontier"``: deeper, the bounded-memory frontier engine (:mod:`nimbers.research.frontier`)
  in ``RUNS/<code>/``, checkpointed, resumed after ``kill -9``, each level going on from the
  last;
* ``"dense"``: a code without a useful sparse space where it stands, stopped there; its row's
  cap says where.  Whether a code is dense is decided again at every level, from its values
  alone (:func:`is_dense`: more than 1/:data:`DENSE_SHARE` of the heap sizes of the latest
  half of its values rare under the best mask, as 0.04 and 0.06 at 2^17: T. Czajka's tables
  stop them there).  A code judged at :data:`DENSE_DEPTH` heap sizes (the ordinary engine's
  last depth) and, past it, at every level of the frontier engine (:func:`judged_at`): the
  first judgement that finds it dense caps it, so a code whose rare values thin out (0.146:
  a quarter of its heap sizes from 2^12 to 2^13 rare, 9 of the 1,966,080 from 2^17 to 2^21)
  goes on to the frontier engine, and one that stays dense stops at DENSE_DEPTH.

Where judgement begins and how far a class's members are compared is the census's
:class:`DepthRule`, recorded in its census.json: the three-digit census's (DENSE_DEPTH,
MEMBER_DEPTH) is above; a four-digit census judges from 2^18 and compares the members of a
capped class only to 2^16 (:func:`rule_for_digits`, where the cost argument is).  With
judgement beginning below FRONTIER_FROM, a code in memory is computed to each judgement point
in turn and stops at the first where it is dense.

A period is proven by the Guy-Smith theorem from the values alone (the least period whose
proof fits, then its least pre-period), and the values kept are exactly those the proof needs,
so a proven code's row is the same whichever depth found it.

>>> seq = advance_code("0.77", 4096)          # Kayles: period 12 from heap 71
>>> (seq.period, seq.preperiod, seq.reached, seq.engine)
(12, 71, 168, 'memory')
>>> summary(seq)["largest"], summary(seq)["rare_mask"]
(8, 'f')
"""

from __future__ import annotations

import hashlib
import inspect
import os
from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from ... import _core
from ...games.heap import octal_game
from ...games.heap.periodicity import GUY_SMITH
from ...games.heap.stats import (SparseSpace, best_mask, extended_counts, rare_mask_of,
                                  sparse_space)
from ..frontier import frontier_run, frontier_values
from ..frontier.store import RARE, RECORDS
from ..rundir import LOCK

__all__ = ["Sequence", "advance_code", "engine_for", "summary", "digests", "proof_of",
           "apparent_of", "pieces", "p_positions", "mask_of_values", "rare_count", "last_rare",
           "is_dense",
           "rare_share", "judged_at", "cap_holds", "cap_for", "earlier_cap", "EARLIER_RULE",
           "guy_smith_bound", "member_depth", "MEMBER_DEPTH", "FRONTIER_FROM", "DENSE_FROM",
           "DENSE_SHARE", "DENSE_DEPTH", "CHECKPOINTS_FROM", "EXTEND", "DepthRule",
           "rule_for_digits", "FOUR_DIGIT_DENSE_DEPTH", "FOUR_DIGIT_DENSE_MEMBER_DEPTH"]

#: deeper than this, a code with a sparse space runs on the frontier engine
FRONTIER_FROM = 1 << 20
#: from this depth on a code is judged for a useful sparse space
DENSE_FROM = 1 << 16
#: a code is dense when more than 1/DENSE_SHARE of the latest half of its heap sizes are rare
DENSE_SHARE = 16
#: how deep a code that stays dense goes: the ordinary engine's plain scan, which such a code
#: needs, costs n^2/2 options to n heap sizes (2^20: about 90 s on one core of the project's
#: machine; 2^22 some 25 minutes, 2^24 some 6 hours), while memory would allow far more (two
#: bytes a value: 2^24 values are 32 MiB); the frontier engine's cost grows with the rare heap
#: sizes, so a dense code gains nothing there.  The census's levels reach it (2^12 times 4^4).
DENSE_DEPTH = FRONTIER_FROM
#: (depth, cap) of the rows the earlier rule capped (:func:`earlier_cap`)
EARLIER_RULE = (1 << 16, 1 << 17)
#: the members of a class whose standard form is open are compared up to this depth (the
#: standard form alone goes deeper; a proven one takes its members to their proofs)
MEMBER_DEPTH = FRONTIER_FROM
#: where a four-digit census begins to judge, and how far it compares the members of a
#: capped class (:func:`rule_for_digits`)
FOUR_DIGIT_DENSE_DEPTH = 1 << 18
FOUR_DIGIT_DENSE_MEMBER_DEPTH = 1 << 16
#: the deepest a rule's depths may be (a census's deepest until)
_RULE_MOST = 1 << 40
#: a code whose apparent period's proof needs at most EXTEND times the depth goes to it
EXTEND = 2
#: checkpoints of a row: the digests of the first 2^k values, k from here on
CHECKPOINTS_FROM = 12
#: the first values a row shows (A. Flammenkamp's tables begin with them)
FIRST_VALUES = 32
#: values per piece when a long sequence is read (bounded memory)
_PIECE = 1 << 20
#: heap sizes a frontier run computes first in memory (the frontier engine's default)
FRONTIER_HEAD = 1 << 20
#: seconds between the frontier engine's checkpoints
FRONTIER_INTERVAL = 30.0


@dataclass(frozen=True)
class DepthRule:
    """A census's depth rule, the same for every task of the census (recorded in its
    census.json, so the census, its deepenings and verify all use it):

    * dense_depth: where a code is first judged dense or not (a census level, 2^12 times a
      power of 4, from DENSE_FROM); judged again at each level after it (times 4); a code
      dense at a judgement stops there, its row's cap;
    * member_depth: the members of an open class are compared with its standard form up to
      here (the standard form alone goes deeper; equal_up_to says how far);
    * dense_member_depth: the members of a class whose standard form is capped are compared
      only up to here.

    A proven standard form takes its members to their proofs whatever the rule.

    >>> rule = DepthRule(1 << 18, 1 << 20, 1 << 16)
    >>> DepthRule.from_json(rule.as_json()) == rule, rule.as_json()["dense_depth"]
    (True, 262144)
    >>> DepthRule(1 << 17, 1 << 20, 1 << 16)
    Traceback (most recent call last):
    ...
    ValueError: dense_depth is a census level (2^12 times a power of 4) from 2^16 to 2^40, got 131072
    """

    dense_depth: int
    member_depth: int
    dense_member_depth: int

    def __post_init__(self) -> None:
        for name in ("dense_depth", "member_depth", "dense_member_depth"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"{name} is an int (heap sizes), got {type(value).__name__}")
        least = 1 << CHECKPOINTS_FROM
        level = self.dense_depth & (self.dense_depth - 1) == 0 and \
            (self.dense_depth.bit_length() - 1 - CHECKPOINTS_FROM) % 2 == 0
        if not (level and DENSE_FROM <= self.dense_depth <= _RULE_MOST):
            raise ValueError("dense_depth is a census level (2^12 times a power of 4) from "
                             f"2^{DENSE_FROM.bit_length() - 1} to 2^40, got {self.dense_depth}")
        for name in ("member_depth", "dense_member_depth"):
            value = getattr(self, name)
            if value & (value - 1) or not least <= value <= _RULE_MOST:
                raise ValueError(f"{name} is a power of two from 2^12 to 2^40, got {value}")
        if self.dense_member_depth > self.member_depth:
            raise ValueError(f"dense_member_depth {self.dense_member_depth} is past "
                             f"member_depth {self.member_depth}: a capped class's members go "
                             "no further than an open one's")

    def as_json(self) -> dict[str, int]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_json(cls, data: Any) -> DepthRule:
        """The rule a census.json records (ValueError naming what is wrong)."""
        names = [f.name for f in fields(cls)]
        if not isinstance(data, dict) or sorted(data) != sorted(names):
            raise ValueError(f"a depth rule is an object with {', '.join(names)}")
        try:
            return cls(**data)
        except TypeError as exc:
            raise ValueError(str(exc)) from None

    def __str__(self) -> str:
        return ", ".join(f"{k} 2^{v.bit_length() - 1}" for k, v in self.as_json().items())


def rule_for_digits(digits: int | None) -> DepthRule:
    """The depth rule a census of the codes with up to digits digits takes by default (None:
    a census of given codes, which takes the three-digit rule).

    Three digits (and fewer): judged from DENSE_DEPTH = 2^20, members compared to
    MEMBER_DEPTH = 2^20 (results/census was made so).  Four digits and more: judged from 2^18,
    the members of a capped class compared only to 2^16.  Why: the plain scan a dense code
    needs costs n^2/2 options (on one core, 0.136: 0.35 s to 2^16, 5.5 s to 2^18, 86 s to
    2^20; 4.0644, with more moves: 1.4 s to 2^16, 22 s to 2^18), and the four-digit census
    holds about 1,300 dense codes (members included): at 2^20 they alone would cost some
    110,000 CPU s (benchmarks/README.md, "The four-digit census"); capped at 2^18 with their
    members at 2^16, some 7,000 + 500 by 0.136's figures, more for codes like 4.0644.

    >>> rule_for_digits(4).dense_depth == 1 << 18, rule_for_digits(None) == rule_for_digits(3)
    (True, True)
    """
    if digits is not None and digits >= 4:
        return DepthRule(FOUR_DIGIT_DENSE_DEPTH, MEMBER_DEPTH, FOUR_DIGIT_DENSE_MEMBER_DEPTH)
    return DepthRule(DENSE_DEPTH, MEMBER_DEPTH, MEMBER_DEPTH)


def _rule(rule: DepthRule | None) -> DepthRule:
    """rule, or the three-digit rule (read at the call: a test may bring its depths down)."""
    return rule if rule is not None else rule_for_digits(None)


@dataclass
class Sequence:
    """g(0 .. reached-1) of one code (values: an array or a memory map of its run), with the
    period proven from them (then reached is the proof's bound) and how they were made."""

    code: str
    values: np.ndarray
    reached: int
    period: int | None
    preperiod: int | None
    apparent: tuple[int, int] | None
    engine: str
    cap: int | None = None
    rules: tuple[int, ...] = ()

    @property
    def proven(self) -> bool:
        return self.period is not None


def _rules(code: str) -> tuple[int, ...]:
    rules = octal_game(code).rules
    assert rules is not None
    return tuple(rules)


def _splits(rules: tuple[int, ...]) -> bool:
    return any(d & 4 for d in rules)


def member_depth(depth: int, reached: int, proven: bool, capped: bool = False,
                 rule: DepthRule | None = None) -> int:
    """How deep a member of a class is taken: as deep as the standard form when that is
    proven (to prove the member too), else at most the rule's member_depth, or its
    dense_member_depth when the standard form is capped (then equal_up_to says so)."""
    base = max(depth, reached)
    if proven:
        return base
    found = _rule(rule)
    return min(base, found.dense_member_depth if capped else found.member_depth)


def cap_holds(row: dict[str, Any], rule: DepthRule | None = None) -> bool:
    """Whether a row's cap is one this rule makes (at its dense_depth or deeper), so the class
    stays where it is: a cap of an earlier rule (2^17, judged once from the first 2^16 heap
    sizes) is taken on by the next deepening."""
    cap = row.get("cap")
    return isinstance(cap, int) and cap >= _rule(rule).dense_depth and \
        (row.get("depth"), cap) != EARLIER_RULE


def engine_for(code: str, depth: int) -> str:
    """"memory" or "frontier": which engine takes code to depth heap sizes (a code found dense
    on the way stops where it was found so, its row's engine "dense": :func:`cap_for`)."""
    return "frontier" if _splits(_rules(code)) and depth > FRONTIER_FROM else "memory"


def _t(rules: tuple[int, ...]) -> int:
    return max(k for k, d in enumerate(rules) if d)


def guy_smith_bound(rules: tuple[int, ...], preperiod: int, period: int) -> int:
    """Values the Guy-Smith theorem needs: 2 max(n0, 1) + 2p + t (Winning Ways ch. 4)."""
    return 2 * max(preperiod, 1) + 2 * period + _t(rules)


def proof_of(g: np.ndarray, rules: tuple[int, ...]) -> tuple[int, int, int] | None:
    """(period, pre-period, bound): the least period the Guy-Smith theorem proves from g (its
    proof needing bound <= len(g) values), with its least pre-period; None when none."""
    n = len(g)
    found = _core.heap_period(np.ascontiguousarray(g), n, n, 2, 2, _t(rules), 1)
    if found is None:
        return None
    p, n0 = int(found[0]), int(found[1])
    return p, n0, guy_smith_bound(rules, n0, p)


def apparent_of(g: np.ndarray) -> tuple[int, int] | None:
    """(period, pre-period) of a period holding over the last 3/8 of g and more (not proven:
    a census's apparent_period), None when there is none."""
    n = len(g)
    found = _core.heap_period(np.ascontiguousarray(g), n, n, 1, 1, 3 * n // 8, 0) if n >= 64 \
        else None
    return None if found is None else (int(found[0]), int(found[1]))


def _prove(code: str, g: np.ndarray, n: int, rules: tuple[int, ...], engine: str,
           cap: int | None = None) -> Sequence:
    """The sequence g(0..n-1) with its proven period when the theorem proves one within it."""
    g = g[:n]
    found = proof_of(g, rules)
    if found is not None:
        p, n0, bound = found
        return Sequence(code, g[:bound], bound, p, n0, None, engine, None, rules)
    return Sequence(code, g, n, None, None, apparent_of(g), engine, cap, rules)


def advance_code(code: str, depth: int, runs: str | None = None, *,
                 extend: bool = False, rule: DepthRule | None = None) -> Sequence:
    """code's values to depth heap sizes (fewer when a period is proven sooner, or when the
    census's rule finds it dense on the way), on the engine :func:`engine_for` picks; runs:
    the directory holding the frontier runs (RUNS/<code>/).  extend: a sequence whose
    apparent period's proof needs at most EXTEND times depth goes on to it (the last level of
    a census: .354 is proven at 2^24 this way).  rule: the census's (default: the
    three-digit rule)."""
    rules, rule = _rules(code), _rule(rule)
    seq = _advance(code, rules, depth, runs, rule)
    if extend and not seq.proven and seq.apparent is not None and seq.cap is None:
        bound = guy_smith_bound(rules, seq.apparent[1], seq.apparent[0])
        if depth < bound <= EXTEND * depth:
            seq = _advance(code, rules, bound, runs, rule)
    return seq


def _advance(code: str, rules: tuple[int, ...], depth: int, runs: str | None,
             rule: DepthRule) -> Sequence:
    if engine_for(code, depth) == "memory":
        return _in_memory(code, rules, depth, rule)
    if runs is None:
        raise ValueError(f"{code} to {depth} heap sizes needs a directory for its frontier run")
    return _on_frontier(code, rules, depth, os.path.join(runs, code), rule)


def _in_memory(code: str, rules: tuple[int, ...], depth: int, rule: DepthRule) -> Sequence:
    """code to depth by the ordinary engine: to each judgement point below depth first (one
    game, so each goes on from the last), stopped at the first where it is proven or dense."""
    game = octal_game(code)
    points = _memory_points(depth, rule) if _splits(rules) else []
    for n in [p for p in points if p < depth] + [depth]:
        per = game.period(max_n=n, progress=False)
        if per.proven:
            found = per.checked_up_to
            return _prove(code, game.nim_values(found, progress=False), found, rules, "memory")
        g = game.nim_values(n, progress=False)
        cap = n if n in points and is_dense(g, rules) else None
        if cap is not None or n == depth:
            return _prove(code, g, n, rules, "memory" if cap is None else "dense", cap=cap)
    raise AssertionError("the last step is depth")


def _memory_points(depth: int, rule: DepthRule) -> list[int]:
    """Where a code taken to depth in memory is judged: the points of :func:`judged_at` and
    depth itself when it is one of them (the level judged once computed)."""
    points = judged_at(depth, rule)
    last = points[-1] * 4 if points else rule.dense_depth
    return points + [depth] * (depth == last)


def cap_for(g: np.ndarray, rules: tuple[int, ...], depth: int,
            rule: DepthRule | None = None) -> int | None:
    """The cap the census's rule (default: the three-digit rule) gives a code with values g
    (an open code's, as far as it reached) taken to depth: the first judgement that finds it
    dense, None when none does.  Judged at :func:`judged_at`'s points below depth, and, in
    memory (depth at most FRONTIER_FROM), at depth itself when it is a point too."""
    if not _splits(rules):
        return None
    rule = _rule(rule)
    points = judged_at(depth, rule) if depth > FRONTIER_FROM else _memory_points(depth, rule)
    return next((n for n in points if n <= len(g) and is_dense(g[:n], rules)), None)


def earlier_cap(g: np.ndarray, rules: tuple[int, ...]) -> int | None:
    """The cap of the rule censuses used before this one (rows at depth 2^16 capped at 2^17,
    still in tables not yet deepened): all of g(0..2^16-1) judged once, more than 1/16 of it
    rare under its best mask capping the code at 2^17.  Kept so that such a row is checked by
    the rule that made it."""
    head = g[:EARLIER_RULE[0]]
    if not _splits(rules) or len(head) < EARLIER_RULE[0]:
        return None
    dense = rare_count(head, mask_of_values(head, rules), rules) * DENSE_SHARE > len(head)
    return EARLIER_RULE[1] if dense else None


def judged_at(depth: int, rule: DepthRule | None = None) -> list[int]:
    """The heap counts at which a code taken to depth is judged dense or not before it goes
    on: the rule's dense_depth (default: the three-digit rule's, DENSE_DEPTH) and each census
    level after it (times 4) below depth.

    >>> [n.bit_length() - 1 for n in judged_at(1 << 26)]
    [20, 22, 24]
    >>> [n.bit_length() - 1 for n in judged_at(1 << 22, rule_for_digits(4))]
    [18, 20]
    """
    out, n = [], _rule(rule).dense_depth
    while n < depth:
        out.append(n)
        n *= 4
    return out


def _frontier_options() -> dict[str, Any]:
    """stop_at_proof where the frontier engine offers it (a run then ends at its proof)."""
    wanted = {"stop_at_proof": True}
    known = inspect.signature(frontier_run).parameters
    return {k: v for k, v in wanted.items() if k in known}


def _on_frontier(code: str, rules: tuple[int, ...], depth: int, folder: str,
                 rule: DepthRule) -> Sequence:
    """code to depth on the frontier engine, judged at every count of :func:`judged_at` on
    the way (from the run's own values: a deeper run's first values are the same): capped at
    the first where it is dense, its values as far as that."""
    for n in judged_at(depth, rule):
        have = _frontier_to(code, n, folder)
        g = frontier_values(folder, 0, min(n, have))
        if have < n:  # stopped at a proof
            return _prove(code, g, have, rules, "frontier")
        if is_dense(g, rules):
            return _prove(code, g, n, rules, "dense", cap=n)
    n = min(depth, _frontier_to(code, depth, folder))
    return _prove(code, frontier_values(folder, 0, n), n, rules, "frontier")


def _frontier_to(code: str, n: int, folder: str) -> int:
    """The heap sizes the run in folder holds once taken to n (fewer when a proof stopped
    it; more when an earlier level took it further)."""
    try:
        have = len(frontier_values(folder))
    except ValueError:  # no run there yet
        have = 0
    if have >= n:
        return have
    stats = frontier_run(code, n, folder, threads=1, interval=FRONTIER_INTERVAL,
                         progress=False, head=FRONTIER_HEAD, fresh=_lists_only(folder),
                         **_frontier_options())
    return int(stats.heap_sizes)


def _lists_only(folder: str) -> bool:
    """Whether folder holds a published table's lists as its rare and record files and
    nothing else (no manifest, checkpoint or values: no run ever began there), as
    tools/census_depth_work.py leaves them for a class whose run is gone.  Such a class's
    run then starts from heap 0 in their place; any other folder is the run's to go on
    with, or to refuse."""
    names = set(os.listdir(folder)) if os.path.isdir(folder) else set()
    return bool(names & {RARE, RECORDS}) and names <= {RARE, RECORDS, LOCK}


# -- the statistics, a piece at a time --

def pieces(g: np.ndarray, stop: int | None = None, start: int = 0) -> Any:
    """(first, g[first:first + 2^20] as an array) over g from start (to stop): a long
    sequence, or a memory map of one, read in bounded memory."""
    stop = len(g) if stop is None else stop
    for first in range(start, stop, _PIECE):
        yield first, np.asarray(g[first:min(stop, first + _PIECE)])


def _space(rules: tuple[int, ...]) -> SparseSpace:
    space = sparse_space(rules)
    assert space is not None, "a game that splits a heap has a sparse space"
    return space


def mask_of_values(g: np.ndarray, rules: tuple[int, ...]) -> int:
    """The mask over e = 2 g + (n mod 2) making the fewest heap sizes rare (games.heap.stats's
    conventions, counted a piece at a time)."""
    counts = np.zeros(2, dtype=np.int64)
    for start, piece in pieces(g):
        more = extended_counts(piece, start, len(counts))
        if len(more) > len(counts):
            counts = np.pad(counts, (0, len(more) - len(counts)))
        counts += more
    return best_mask(counts, _space(rules))[0]


def rare_share(g: np.ndarray, rules: tuple[int, ...]) -> tuple[int, int]:
    """(rare, of): how many of the latest half of g's heap sizes, n/2 .. n-1 (n = len(g)),
    are rare under the best mask of all of g, and how many that half holds."""
    space, emask, half = _space(rules), mask_of_values(g, rules), len(g) // 2
    rare = sum(int(np.count_nonzero(rare_mask_of(p, space, s, emask)))
               for s, p in pieces(g, start=half))
    return rare, len(g) - half


def is_dense(g: np.ndarray, rules: tuple[int, ...]) -> bool:
    """Whether g has no useful sparse space where it stands: at least DENSE_FROM values, more
    than 1/DENSE_SHARE of the latest half of them rare under the best mask (the values alone
    decide, so a code whose rare values thin out is not dense deeper on)."""
    if len(g) < DENSE_FROM:
        return False
    rare, of = rare_share(g, rules)
    return rare * DENSE_SHARE > of


def rare_count(g: np.ndarray, emask: int, rules: tuple[int, ...]) -> int:
    """The heap sizes of g that are rare under emask (heap 0 counted like the others)."""
    space = _space(rules)
    return sum(int(np.count_nonzero(rare_mask_of(p, space, s, emask))) for s, p in pieces(g))


def last_rare(g: np.ndarray, emask: int, rules: tuple[int, ...]) -> int | None:
    """The largest rare heap size of g under emask, None when none is."""
    space, last = _space(rules), None
    for start, piece in pieces(g):
        found = np.flatnonzero(rare_mask_of(piece, space, start, emask))
        if found.size:
            last = start + int(found[-1])
    return last


def p_positions(g: np.ndarray) -> tuple[int, int]:
    """How many heap sizes of g have value 0 (P-positions, heap 0 included), and the last."""
    count, last = 0, 0
    for start, piece in pieces(g):
        found = np.flatnonzero(piece == 0)
        count += len(found)
        if found.size:
            last = start + int(found[-1])
    return count, last


def digests(g: np.ndarray) -> tuple[str, dict[str, str]]:
    """The SHA-256 of g as little-endian uint32 and of its first 2^k values (k from
    CHECKPOINTS_FROM, 2^k below len(g)), in one pass."""
    sha, marks = hashlib.sha256(), {}
    k = CHECKPOINTS_FROM
    for start, piece in pieces(g):
        data = piece.astype("<u4")
        done = 0
        while (1 << k) < len(g) and (1 << k) <= start + len(data):
            cut = (1 << k) - start
            sha.update(data[done:cut].tobytes())
            done = cut
            marks[str(1 << k)] = sha.copy().hexdigest()
            k += 1
        sha.update(data[done:].tobytes())
    return sha.hexdigest(), marks


def summary(seq: Sequence) -> dict[str, Any]:
    """The row's fields of one sequence: its proof, its largest value and its sparse space
    (T. Czajka's and A. Flammenkamp's columns, in games.heap.stats's conventions), its
    digests."""
    g = seq.values
    largest, largest_at = -1, 0
    for start, piece in pieces(g):
        i = int(np.argmax(piece))
        if int(piece[i]) > largest:
            largest, largest_at = int(piece[i]), start + i
    zeros, last_zero = p_positions(g)
    full = mask_of_values(g, seq.rules) if _splits(seq.rules) else None
    sha, marks = digests(g)
    return {
        "period": seq.period, "preperiod": seq.preperiod,
        "theorem": GUY_SMITH if seq.proven else None,
        "apparent_period": None if seq.proven or seq.apparent is None else seq.apparent[0],
        "reached": seq.reached, "largest": largest, "largest_at": largest_at,
        "rare_mask": None if full is None else format(full >> 1, "x"),
        "rare_parity": bool(full & 1) if full is not None else False,
        "rare_count": None if full is None else rare_count(g, full, seq.rules),
        "last_rare": None if full is None else last_rare(g, full, seq.rules),
        "p_positions": zeros, "last_p": last_zero,
        "first_values": np.asarray(g[:FIRST_VALUES]).astype(int).tolist(),
        "engine": seq.engine,
        "cap": seq.cap,
        "certificate": {"sha256": sha, "values": seq.reached,
                        "bound": seq.reached if seq.proven else None, "checkpoints": marks},
    }
