"""Subset reachability: which nim-sums can j distinct values of a sequence make?

The engine behind every coin-turning rule "turn between lo and hi coins, any coins left of
the head" (Turning Turtles, Mocking Turtles, Moebius, Mogul, Motley, ...): G(x) is the mex of
the nim-sums of j distinct earlier values, j + 1 in [lo, hi].  Listing the subsets would cost
C(x, j); tracking the reachable nim-sums as bit rows costs O(x * j * width) instead.  With no
upper limit the nim-sums of subsets form a GF(2) span, kept as a reduced basis.

Counts here are numbers of coins turned, the head included (as in the turning code); "other
coins" are one fewer.

>>> any_coins_values(1, 3, 8)        # Mocking Turtles
[1, 2, 4, 7, 8, 11, 13, 14]
>>> sorted(reachable_sums([1, 2, 4], 1, 2))     # the head alone, or with one other coin
[0, 1, 2, 4]
>>> find_distinct([1, 2, 4, 7], 1, 3, 6)        # two coins of values 2 and 4
(1, 2)
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

__all__ = ["any_coins_values", "reachable_sums", "find_distinct"]


def any_coins_values(lo: int, hi: int | None, n: int) -> list[int]:
    """G(0), ..., G(n-1) for "turn between lo and hi of any coins" (hi None: no limit).

    With no upper limit and lo <= 2 the nim-sums form a GF(2) span (Motley: G(x) = 2^x).
    """
    if hi is None:
        return _span_values(lo, n)
    g: list[int] = []
    top = max(0, min(hi - 1, n - 1))  # most other coins: never more than the coins there are
    size = 2
    reach = [np.zeros(size, dtype=bool) for _ in range(top + 1)]  # reach[j]: j distinct coins
    reach[0][0] = True
    for x in range(n):
        allowed = np.zeros(size, dtype=bool)
        for j in range(max(lo - 1, 0), top + 1):
            allowed |= reach[j]
        m = int(np.argmin(allowed)) if not allowed.all() else size
        g.append(m)
        while m >= size // 2:  # XORs stay below the next power of two: grow ahead of it
            size *= 2
            reach = [np.concatenate([r, np.zeros(size - r.size, dtype=bool)]) for r in reach]
        idx = np.arange(size) ^ m
        for j in range(top, 0, -1):
            reach[j] |= reach[j - 1][idx]
    return g


def _others_range(lo: int, hi: int | None, available: int) -> tuple[int, int]:
    """How many other coins a move turns: (fewest, most)."""
    top = available if hi is None else min(hi - 1, available)
    return max(lo - 1, 0), top


def _prefix_reach(g: Sequence[int], top: int, width: int) -> list[np.ndarray]:
    """reach[m][j]: the nim-sums of j distinct values among g[:m], as packed bit rows of
    width bits (a power of two above every value)."""
    cur = np.zeros((top + 1, width), dtype=bool)
    cur[0, 0] = True
    rows = [np.packbits(cur, axis=1)]
    idx = np.arange(width)
    for v in g:
        new = cur.copy()
        for j in range(1, top + 1):
            new[j] |= cur[j - 1][idx ^ v]
        cur = new
        rows.append(np.packbits(cur, axis=1))
    return rows


def _has(packed: np.ndarray, j: int, value: int) -> bool:
    return bool(packed[j, value >> 3] >> (7 - (value & 7)) & 1)


def _width(g: Sequence[int], value: int = 0) -> int:
    top = max([value, *g], default=0)
    width = 8
    while width <= top:
        width *= 2
    return width


def reachable_sums(g: Sequence[int], lo: int, hi: int | None) -> set[int]:
    """The nim-sums of j distinct values of g, for j + 1 coins allowed (lo <= j + 1 <= hi)."""
    low, top = _others_range(lo, hi, len(g))
    if top < low:
        return set()
    width = _width(g)
    final = np.unpackbits(_prefix_reach(g, top, width)[-1], axis=1)[:, :width].astype(bool)
    out: set[int] = set()
    for j in range(low, top + 1):
        out |= set(np.nonzero(final[j])[0].tolist())
    return out


def find_distinct(g: Sequence[int], lo: int, hi: int | None, value: int) -> tuple[int, ...] | None:
    """Distinct indices into g (j of them, lo <= j + 1 <= hi) whose values nim-add to value,
    or None when there are none."""
    low, top = _others_range(lo, hi, len(g))
    if top < low:
        return None
    reach = _prefix_reach(g, top, _width(g, value))
    m = len(g)
    for j in range(low, top + 1):
        if not _has(reach[m], j, value):
            continue
        coins, want = [], value
        while j:
            if _has(reach[m - 1], j, want):  # reachable without coin m-1: skip it
                m -= 1
                continue
            coins.append(m - 1)
            want ^= g[m - 1]
            j -= 1
            m -= 1
        return tuple(sorted(coins))
    return None


def _span_values(lo: int, n: int) -> list[int]:
    if lo > 2:
        raise ValueError("open ranges from 3 coins up ('3+') are only supported with a modifier")
    g: list[int] = []
    basis: list[int] = []  # reduced: distinct leading bits
    dependent = False
    for x in range(n):
        # options: nim-sums of subsets of earlier values (any subset for '1+', non-empty for '2+')
        zero_ok = lo == 1 or dependent
        m = _span_mex(basis, zero_ok)
        g.append(m)
        v = m
        for b in basis:
            v = min(v, v ^ b)
        if v:
            basis.append(v)
            basis.sort(reverse=True)
        else:
            dependent = True
    return g


def _span_mex(basis: list[int], zero_ok: bool) -> int:
    """The least non-negative int not in the span (without 0 when zero_ok is False)."""
    if not zero_ok:
        return 0
    leading = {b.bit_length() - 1 for b in basis}
    k = 0
    while k in leading:
        k += 1
    return 1 << k
