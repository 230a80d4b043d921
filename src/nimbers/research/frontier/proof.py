"""Periods proven during a frontier run, by the octal periodicity theorem of Guy and Smith
(Winning Ways ch. 4): when every move leaves at most two heaps and t is the most tokens a
move removes, g(n + p) = g(n) for n0 <= n < 2 n0 + p + t proves g(n + p) = g(n) for every
n >= n0 (:mod:`nimbers.games.heap.periodicity` holds the rule).

The run checks the values on disk now and then: at the end of the head, then every 25% more
heap sizes, or exactly where the proof of a period already glimpsed in the last 5/8 of the
values would end -- so a period is proven at the least heap count that proves it (0.16: period
149459 from heap 105351, proven by g(0..509621)), and the check costs one pass over the values
per growth of a quarter.

>>> g = np.array([0, 1, 2] + [0, 1] * 20, dtype=np.uint8)
>>> watch = PeriodWatch((0, 3), "octal")
>>> proof = watch.check(g)
>>> proof["period"], proof["preperiod"], proof["bound"]
(2, 3, 11)
"""

from __future__ import annotations

import hashlib
from typing import Any, Sequence

import numpy as np

from ...games.heap.periodicity import proof_rule
from .store import PIECE  # values a piece: the search's memory, whatever the run's length

__all__ = ["PeriodWatch", "first_period"]

GROWTH = 1.25
Values = Any  # an array, or a store.ValuesFile: g[a:b] gives g(a..b-1), len(g) how many
#: values of the stretch every candidate period must repeat, compared for all at once
_FIRST = 16


class PeriodWatch:
    """When to look for a proof of a period, and the proof found (None for games no theorem
    covers: Grundy's game, three-heap splits)."""

    def __init__(self, rules: Sequence[int] | None, kind: str) -> None:
        self.rule = proof_rule(rules, kind) if rules is not None else None
        self.next = 0

    @property
    def applies(self) -> bool:
        """Whether a theorem can prove a period of this game."""
        return self.rule is not None

    def due(self, count: int) -> bool:
        """Whether the values up to count should be checked now."""
        return self.rule is not None and count >= self.next

    def stop_at(self, count: int) -> int | None:
        """The next heap count to check at (a run steps no further before checking)."""
        return self.next if self.rule is not None and self.next > count else None

    def check(self, g: Values) -> dict[str, Any] | None:
        """Looks for the proof of a period in g (all the values so far: an array of any
        integer dtype of 1 or 2 bytes, or a :class:`.store.ValuesFile`): the proof's fields,
        or None (and the next heap count to look at).

        The fields: period, preperiod (the least n0 with g(n + p) = g(n) for n >= n0), bound
        (the values the proof needs, g(0 .. bound-1)), theorem, sha256 (of those values at
        the width given) and last_exception (n0 - 1 with g(n0 - 1) and g(n0 - 1 + p))."""
        if self.rule is None:
            return None
        n = len(g)
        rule, theorem = self.rule
        a, b, c, floor = rule
        found = first_period(g, n, rule)
        if found is None:
            self.next = self._next(g)
            return None
        p, n0 = int(found[0]), int(found[1])
        bound = a * max(n0, floor) + b * p + c
        proof: dict[str, Any] = {
            "period": p, "preperiod": n0, "bound": bound, "theorem": theorem,
            "sha256": _sha256(g, bound),
            "last_exception": None}
        if n0 > 0:
            proof["last_exception"] = {"n": n0 - 1, "g": int(g[n0 - 1]),
                                       "g_plus_period": int(g[n0 - 1 + p])}
        return proof

    def _next(self, g: Values) -> int:
        """Where to look next: where the proof of a period repeating over the last 5/8 of the
        values would end, when that comes before a growth of 25%."""
        assert self.rule is not None
        n = len(g)
        step = int(n * GROWTH) + 1
        (a, b, c, floor), _ = self.rule
        glimpse = first_period(g, n, (1, 1, 3 * n // 8, 0))
        if glimpse is not None:
            target = a * max(int(glimpse[1]), floor) + b * int(glimpse[0]) + c
            if n < target <= step:
                return target
        return step


def first_period(g: Values, n: int, rule: tuple[int, int, int, int]) -> tuple[int, int] | None:
    """The least period p that g(0..n-1) prove by rule (a, b, c, floor), a == b, with its
    pre-period n0: g(j) = g(j + p) for limit = (n - b p - c) // a <= j < n - p, limit at
    least floor, n0 the least such limit -- the answer of hp_first_period
    (csrc/core/period.c), found reading g a piece at a time.  With a == b every candidate
    compares the same stretch T = g(M .. n-1), M = (n - c) // a, against g(M - p ..): the
    first values of T are compared for the candidates of a whole piece at once, and only
    those that pass are followed further.  (The C search reads g at M - p for every p: over
    a memory map of a long run, most of the file's pages.)

    >>> from nimbers import _core
    >>> g = np.array([0, 1, 2] + [0, 1] * 20, dtype=np.uint8)
    >>> first_period(g, len(g), (2, 2, 1, 1)), _core.heap_period(g, len(g), len(g), 2, 2, 1, 1)
    ((2, 3), (2, 3))
    """
    a, b, c, floor = rule
    if a != b:
        raise ValueError(f"a period search by pieces needs a == b, not {rule}")
    if c > n:
        return None
    top = (n - c) // a          # M: limit(p) = M - p
    length = n - top            # T's length
    most = min(n - 1, (n - c) // b, top - floor)
    if length <= 0 or most < 1:
        return None
    k = min(length, _FIRST)
    first = np.asarray(g[top:top + k])
    for hi in range(top, top - most, -PIECE):  # candidates i = M - p in [lo, hi), p rising
        lo = max(top - most, hi - PIECE)
        piece = np.asarray(g[lo:hi + k - 1])
        ok = piece[:hi - lo] == first[0]
        for j in range(1, k):
            ok &= piece[j:j + hi - lo] == first[j]
        for i in (lo + int(x) for x in np.flatnonzero(ok)[::-1]):
            if _repeats(g, i, top, length):
                return top - i, _preperiod(g, i, top - i)
    return None


def _repeats(g: Values, i: int, top: int, length: int) -> bool:
    """g(i .. i + length - 1) == g(top .. top + length - 1), in pieces growing from 256."""
    done, size = 0, 256
    while done < length:
        m = min(size, length - done)
        if not np.array_equal(np.asarray(g[i + done:i + done + m]),
                              np.asarray(g[top + done:top + done + m])):
            return False
        done, size = done + m, min(2 * size, PIECE)
    return True


def _preperiod(g: Values, limit: int, p: int) -> int:
    """The least n0 <= limit with g(j) = g(j + p) for n0 <= j < limit."""
    size = 256
    while limit > 0:
        m = min(size, limit)
        low = np.asarray(g[limit - m:limit])
        differ = np.flatnonzero(low != np.asarray(g[limit - m + p:limit + p]))
        if len(differ):
            return limit - m + int(differ[-1]) + 1
        limit, size = limit - m, min(2 * size, PIECE)
    return 0


def _sha256(g: Values, bound: int) -> str:
    """The SHA-256 of g(0..bound-1) in its own width, a piece at a time."""
    sha = hashlib.sha256()
    for a in range(0, bound, PIECE):
        sha.update(np.ascontiguousarray(g[a:min(bound, a + PIECE)]).tobytes())
    return sha.hexdigest()
