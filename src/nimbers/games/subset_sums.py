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

import math
from typing import Literal, Sequence

import numpy as np

from .._gf2 import XorBasis
from .._limits import check_bytes

__all__ = ["any_coins_values", "reachable_sums", "find_distinct"]

#: find_distinct tries every representation of a value when the values' dependencies span at
#: most this many dimensions (2^d representations), before falling back to bit rows
KERNEL_SEARCH_DIMENSIONS = 16
#: how to go past the memory cap, for the messages
_RAISE = "pass memory_limit= to the game"


def words_within(n: int, t: int, base: int = 2) -> int:
    """The words of length n over ``base`` letters within Hamming distance t of one word:
    the sum of C(n, i) (base - 1)^i over i <= t (the sphere of Hamming's bound).

    >>> words_within(23, 3)      # the Golay code's spheres fill all 2^23 words: 2^12 of 2^11
    2048
    """
    return sum(math.comb(n, i) * (base - 1) ** i for i in range(t + 1))


def any_coins_values(lo: int, hi: int | None, n: int, how_to_raise: str = _RAISE,
                     unit: str = "coin") -> list[int]:
    """G(0), ..., G(n-1) for "turn between lo and hi of any coins" (hi None: no limit).

    Parameters
    ----------
    lo, hi : int
        The fewest and the most coins a move turns, the head included (hi None: any).
    n : int
        How many values.

    Returns
    -------
    list of int

    >>> any_coins_values(1, 2, 6)        # Turning Turtles (Winning Ways ch. 14): x + 1
    [1, 2, 3, 4, 5, 6]

    With no upper limit and lo <= 2 the nim-sums form a GF(2) span (Motley: G(x) = 2^x).
    With lo <= 1 the first hi coins are Motley's too: at x < hi every subset of the x
    earlier coins may be turned, and by induction their values 1, 2, ..., 2^(x-1) span
    [0, 2^x), so G(x) = 2^x.  Past them the values are at least 2^(hi-1) and the bit rows
    need hi * 2^hi bytes: the memory cap is checked before each growth.

    With lo <= 1 the P-positions of n coins are a binary code of minimum distance hi + 1
    (of two P-positions differing in at most hi coins, the one with a head at the rightmost
    difference could move to the other), Conway and Sloane's lexicode.  By Hamming's bound
    the values then span at least log2 V dimensions, V = :func:`words_within` (n, hi // 2),
    so one value reaches half the power of two at or above V: that size is checked before
    any work (``nimbers turning at-most-19 64`` is refused at once, not after 13 s).

    Raises
    ------
    ValueError
        When the bit rows would pass the memory cap (see :mod:`nimbers._limits`); the
        message names ``unit`` (what is counted: "coin") and ends with ``how_to_raise``.
    """
    if hi is None:
        return _span_values(lo, n)
    if lo <= 1 and n <= hi:
        return [1 << x for x in range(n)]
    top = max(0, min(hi - 1, n - 1))  # most other coins: never more than the coins there are
    if lo <= 1:  # refuse before the work what the values must reach (above)
        least = max(2 ** hi, _power_of_two_at_least(words_within(n, hi // 2)))
        check_bytes(_bit_row_bytes(top, least), f"the reachable nim-sums of {n:,} {unit}s "
                    f"(values reach 2^{least.bit_length() - 2} or more, by Hamming's bound)",
                    how_to_raise)
    g: list[int] = []
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
            check_bytes(_bit_row_bytes(top, size), f"the reachable nim-sums after {unit} {x} "
                        f"(values up to {m:,})", how_to_raise)
            reach = [np.concatenate([r, np.zeros(size - r.size, dtype=bool)]) for r in reach]
        idx = np.arange(size)
        idx ^= m  # in place: one index array, not two
        for j in range(top, 0, -1):
            reach[j] |= reach[j - 1][idx]
    return g


def _bit_row_bytes(top: int, size: int) -> int:
    """Peak bytes of any_coins_values' rows of ``size`` bits: top + 1 rows, twice while they
    grow, an int64 index row and one gathered row."""
    return (2 * (top + 1) + 9) * size


def _power_of_two_at_least(v: int) -> int:
    return 1 << max(v - 1, 0).bit_length()


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
    """Bits a packed row needs: a power of two above every value (whole bytes: 8 or more)."""
    return max(8, _power_of_two_at_least(max([value, *g], default=0) + 1))


def reachable_sums(g: Sequence[int], lo: int, hi: int | None) -> set[int]:
    """The nim-sums of j distinct values of g, for j + 1 coins allowed (lo <= j + 1 <= hi).

    Parameters
    ----------
    g : sequence of int
        The values of the coins left of the head.
    lo, hi : int
        The fewest and the most coins turned, the head included (hi None: any).

    Returns
    -------
    set of int

    Raises
    ------
    ValueError
        When the bit rows would pass the memory cap (see :mod:`nimbers._limits`).

    >>> sorted(reachable_sums([1, 2, 3], 3, 3))     # exactly two of the three
    [1, 2, 3]
    """
    low, top = _others_range(lo, hi, len(g))
    if top < low:
        return set()
    width = _width(g)
    # bool rows (two copies) and packed ones, then a Python set of up to width ints
    check_bytes(width * (3 * (top + 1) + 80), f"the nim-sums of up to {top} of "
                f"{len(g):,} values below {width:,}", _RAISE)
    final = np.unpackbits(_prefix_reach(g, top, width)[-1], axis=1)[:, :width].astype(bool)
    out: set[int] = set()
    for j in range(low, top + 1):
        out |= set(np.nonzero(final[j])[0].tolist())
    return out


def find_distinct(g: Sequence[int], lo: int, hi: int | None, value: int) -> tuple[int, ...] | None:
    """Distinct indices into g (j of them, lo <= j + 1 <= hi) whose values nim-add to value.

    First by linear algebra: a representation of value as a nim-sum of the g's, and every
    other one obtained by adding dependencies among the g's; when the g's are independent
    (Motley's powers of two) it is unique.  Only when there are more than 2^16
    representations does it fall back to bit rows, whose memory is checked first.

    Parameters
    ----------
    g : sequence of int
        The values of the coins left of the head.
    lo, hi : int
        The fewest and the most coins turned, the head included (hi None: any).
    value : int
        The nim-sum wanted.

    Returns
    -------
    tuple of int or None
        The indices, sorted, or None when no allowed number of them gives value.

    Raises
    ------
    ValueError
        When the fallback would pass the memory cap (see :mod:`nimbers._limits`).

    >>> find_distinct([2**k for k in range(100)], 1, 100, 2**5 + 2**50)   # Motley's bits
    (5, 50)
    """
    low, top = _others_range(lo, hi, len(g))
    if top < low:
        return None
    found = _by_representations(g, low, top, value)
    if found is not False:
        return found
    width = _width(g, value)
    check_bytes((len(g) + 3) * (top + 1) * width // 4, f"the reachable nim-sums of up to {top} "
                f"of {len(g):,} values below {width:,}", _RAISE)
    reach = _prefix_reach(g, top, width)
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


def _by_representations(g: Sequence[int], low: int, top: int,
                        value: int) -> tuple[int, ...] | None | Literal[False]:
    """Distinct indices (low to top of them) whose g's nim-add to value, by trying every
    representation; None when none fits, False when there are too many to try."""
    basis = XorBasis()
    kernel: list[int] = []  # dependencies: sets of indices (as bits) whose g's nim-add to 0
    for i, v in enumerate(g):
        rest, tag = basis.insert(int(v), 1 << i)
        if not rest:
            kernel.append(tag)
    if len(kernel) > KERNEL_SEARCH_DIMENSIONS:
        return False
    rest, first = basis.reduce(value, 0)
    if rest:
        return None  # not in the span at all
    reps = [first]
    for k in kernel:
        reps += [r ^ k for r in reps]
    for rep in sorted(reps, key=int.bit_count):
        if low <= rep.bit_count() <= top:
            return tuple(i for i in range(len(g)) if rep >> i & 1)
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
