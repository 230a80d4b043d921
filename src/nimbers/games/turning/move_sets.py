"""The move sets of coin-turning games: which other coins a move at head x turns, term by
term of the turning code (CGSuite; Winning Ways ch. 14), listed in bounded memory, counted
before listing (for the time cap), and the structured families extended in C.

>>> from nimbers.games.codes import parse_turning_code
>>> [sorted(term_sets(t, 3)) for t in parse_turning_code("1-2")]
[[(), (0,), (1,), (2,)]]
"""

from __future__ import annotations

import itertools
import math
from typing import Any, Iterable, Iterator, Sequence

import numpy as np

from ... import _core
from ..codes import Term

__all__ = ["term_sets", "term_count", "structured", "as_array", "xor"]



def term_count(t: Term, x: int) -> int:
    """How many sets of other coins one term lists at head x: exact for the subset terms
    (a sum of binomials), an upper bound for the symmetric ones, at most x log x for the
    runs and progressions (cheap: counted as x + 1 per spacing)."""
    hi = x + 1 if t.hi is None else min(t.hi, x + 1)
    if t.consecutive or t.equal:
        return (x + 1) * (1 + int(math.log2(x + 1)))
    if t.symmetric:
        lefts = 1 if t.first else x + 1
        pairs = x // 2 if t.span is None else min(x, t.span) // 2
        return 2 * lefts * sum(math.comb(pairs, r) for r in range(min(pairs, hi // 2) + 1))
    if t.first:
        return sum(math.comb(max(x - 1, 0), c - 2) for c in range(max(t.lo, 2), hi + 1))
    pool = x if t.span is None else min(x, t.span - 1)
    return sum(math.comb(pool, c - 1) for c in range(max(t.lo, 1), hi + 1))


def as_array(values: Any) -> np.ndarray:
    """uint64 when every value fits, else Python ints in an object array."""
    if isinstance(values, np.ndarray) and values.dtype == np.uint64:
        return values
    values = list(values)
    if all(v < 2**64 for v in values):
        return np.array(values, dtype=np.uint64)
    return np.array(values, dtype=object)


def xor(g: Sequence[int], coins: Iterable[int]) -> int:
    v = 0
    for c in coins:
        v ^= g[c]
    return v


def term_sets(t: Term, x: int) -> Iterator[tuple[int, ...]]:
    """The sets of other coins (< x) of one term's moves at x."""
    hi = x + 1 if t.hi is None else min(t.hi, x + 1)
    if t.first and x > 0:
        yield from _first_sets(t, x, hi)
        return
    if t.consecutive:
        for c in range(max(t.lo, 1), hi + 1):
            yield tuple(range(x - c + 1, x))
        return
    if t.equal:
        if t.allows(1):
            yield ()
        for d in range(1, x + 1):
            for c in range(2, hi + 1):
                if x - (c - 1) * d < 0:
                    break
                if c >= t.lo:
                    yield tuple(x - k * d for k in range(c - 1, 0, -1))
        return
    if t.symmetric:
        yield from _symmetric_sets(t, x, hi, lowest=0)
        return
    pool = range(max(0, x - t.span + 1), x) if t.span else range(x)
    for c in range(max(t.lo, 1), hi + 1):
        yield from itertools.combinations(pool, c - 1)


def _first_sets(t: Term, x: int, hi: int) -> Iterator[tuple[int, ...]]:
    """Sets that include coin 0 (and the head x > 0)."""
    if t.symmetric:
        yield from _symmetric_sets(t, x, hi, lowest=0, fixed_left=True)
        return
    if t.consecutive:
        if t.allows(x + 1):
            yield tuple(range(x))
        return
    if t.equal:
        for c in range(2, hi + 1):
            if x % (c - 1) == 0 and t.allows(c):
                d = x // (c - 1)
                yield tuple(range(0, x, d))
        return
    if t.span is not None and x >= t.span:
        return
    for c in range(max(t.lo, 2), hi + 1):
        for rest in itertools.combinations(range(1, x), c - 2):
            yield (0,) + rest


def _symmetric_sets(t: Term, x: int, hi: int, lowest: int,
                    fixed_left: bool = False) -> Iterator[tuple[int, ...]]:
    """Symmetric sets {l, ..., x} (a_i + a_(k+1-i) = l + x), other coins only."""
    if not fixed_left and t.allows(1):
        yield ()
    lefts = [0] if fixed_left else range(lowest, x)
    for left in lefts:
        if t.span is not None and x - left + 1 > t.span:
            continue
        inner = [(left + i, x - i) for i in range(1, (x - left + 1) // 2)]
        center = [(left + x) // 2] if (x - left) % 2 == 0 and left < x else []
        most_pairs = (hi - 2) // 2  # the left coin and the head, then pairs: at most hi coins
        for r in range(min(len(inner), most_pairs) + 1):
            for chosen in itertools.combinations(inner, r):
                mids: list[list[int]] = [[], center] if center else [[]]
                for mid in mids:
                    coins = [left] + [c for pair in chosen for c in pair] + mid
                    if t.allows(len(coins) + 1):
                        yield tuple(sorted(coins))


def structured(family: int, t: Term, g: np.ndarray, n: int) -> np.ndarray:
    """Extends g to n values in C (consecutive runs: family 0; progressions: family 1)."""
    out = np.zeros(n, dtype=np.uint64)
    out[:len(g)] = g
    _core.turning_extend(family, t.lo, -1 if t.hi is None else t.hi, out, len(g), n)
    return out
