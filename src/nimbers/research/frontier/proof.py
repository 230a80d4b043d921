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

from ... import _core
from ...games.heap.periodicity import proof_rule

__all__ = ["PeriodWatch"]

GROWTH = 1.25


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

    def check(self, g: np.ndarray) -> dict[str, Any] | None:
        """Looks for the proof of a period in g (all the values so far, any integer dtype of
        1 or 2 bytes): the proof's fields, or None (and the next heap count to look at).

        The fields: period, preperiod (the least n0 with g(n + p) = g(n) for n >= n0), bound
        (the values the proof needs, g(0 .. bound-1)), theorem, sha256 (of those values at
        the width given) and last_exception (n0 - 1 with g(n0 - 1) and g(n0 - 1 + p))."""
        if self.rule is None:
            return None
        n = len(g)
        (a, b, c, floor), theorem = self.rule
        found = _core.heap_period(g, n, n, a, b, c, floor)
        if found is None:
            self.next = self._next(g)
            return None
        p, n0 = int(found[0]), int(found[1])
        bound = a * max(n0, floor) + b * p + c
        proof: dict[str, Any] = {
            "period": p, "preperiod": n0, "bound": bound, "theorem": theorem,
            "sha256": hashlib.sha256(np.ascontiguousarray(g[:bound]).tobytes()).hexdigest(),
            "last_exception": None}
        if n0 > 0:
            proof["last_exception"] = {"n": n0 - 1, "g": int(g[n0 - 1]),
                                       "g_plus_period": int(g[n0 - 1 + p])}
        return proof

    def _next(self, g: np.ndarray) -> int:
        """Where to look next: where the proof of a period repeating over the last 5/8 of the
        values would end, when that comes before a growth of 25%."""
        assert self.rule is not None
        n = len(g)
        step = int(n * GROWTH) + 1
        (a, b, c, floor), _ = self.rule
        glimpse = _core.heap_period(g, n, n, 1, 1, 3 * n // 8, 0)
        if glimpse is not None:
            target = a * max(int(glimpse[1]), floor) + b * int(glimpse[0]) + c
            if n < target <= step:
                return target
        return step
