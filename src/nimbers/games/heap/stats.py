"""Statistics of a heap game's Grundy sequence as researchers report them (Winning Ways ch. 4;
A. Flammenkamp's tables; T. Czajka's octal-games tables): the largest value and where it first
occurs, and the sparse space -- the mask under which the fewest heap sizes are rare.

>>> from nimbers.games.heap import octal_game
>>> s = heap_stats(octal_game("0.16").nim_values(2**14), (0, 1, 6))   # A. Flammenkamp: mask 1e
>>> hex(s.mask), len(s.rare_positions), s.largest
('0x1e', 52, 22)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

__all__ = ["HeapStats", "heap_stats"]

_SHOWN_RARE = 1000


@dataclass(frozen=True)
class HeapStats:
    """What a researcher reads from the first count values of a heap game (Winning Ways ch. 4;
    A. Flammenkamp's tables): the largest value and where it first occurs, and the sparse
    space -- the mask m for which the fewest heap sizes n >= 1 are rare (popcount(g(n) & m),
    plus n mod 2 when parity is True, even), with those rare sizes and their values.  mask
    is None for games without two-heap splits (no sparse space)."""

    count: int
    largest: int
    largest_at: int
    mask: int | None
    parity: bool
    rare_positions: np.ndarray
    rare_values: np.ndarray

    def __str__(self) -> str:
        lines = [f"values: g(0) .. g({self.count - 1})",
                 f"largest value: {self.largest}, first at n = {self.largest_at}"]
        if self.mask is None:
            lines.append("rare values: none (no move splits a heap in two)")
            return "\n".join(lines)
        parity = " with the heap size's parity" if self.parity else ""
        rare = len(self.rare_positions)
        last = int(self.rare_positions[-1]) if rare else None
        lines.append(f"rare mask: {self.mask:x}{parity}; {rare} rare positions"
                     + (f", the last at n = {last}" if rare else ""))
        shown = [f"{n}:{v}" for n, v in zip(self.rare_positions[:_SHOWN_RARE].tolist(),
                                             self.rare_values[:_SHOWN_RARE].tolist())]
        if shown:
            more = f" ... ({rare - _SHOWN_RARE} more)" if rare > _SHOWN_RARE else ""
            lines.append("rare n:g(n): " + " ".join(shown) + more)
        return "\n".join(lines)


def heap_stats(values: np.ndarray, rules: Sequence[int] | None, mask: Any = None) -> HeapStats:
    """The statistics of g(0 .. n-1) (values) of the ruleset rules (its digit list, None for
    Grundy's game): the best mask (a Walsh-Hadamard transform of the value counts; with the
    heap size's parity when every split removes tokens of one parity), or the given one."""
    n = len(values)
    g = values.astype(np.int64)
    largest_at = int(np.argmax(g))
    splits = [k for k, d in enumerate(rules or (4,)) if d & 4]
    empty = np.zeros(0, dtype=np.int64)
    if not splits or any(d & 8 for d in rules or ()):
        return HeapStats(n, int(g[largest_at]), largest_at, None, False, empty, empty)
    parity_ok = len({k & 1 for k in splits}) == 1
    sizes = np.arange(1, n, dtype=np.int64)
    extended = (g[1:] << 1) | (sizes & 1)
    if mask is not None:
        if isinstance(mask, bool) or not isinstance(mask, (int, np.integer)) or mask <= 0:
            raise ValueError(f"a mask is a positive int, got {mask!r}")
        full = int(mask) << 1
    else:
        full = _fewest_rare_mask(extended, parity_ok)
    rare = _popcount_parity(extended & full) == 0
    return HeapStats(n, int(g[largest_at]), largest_at, full >> 1, bool(full & 1),
                     sizes[rare], g[1:][rare])


def _fewest_rare_mask(extended: np.ndarray, parity_ok: bool) -> int:
    """The mask M (over 2 g + n mod 2) with the fewest even popcount(e & M): the transform
    W[M] = sum_e counts[e] (-1)^popcount(e & M) gives that number as (N + W[M]) / 2."""
    size = 2
    while size <= int(extended.max(initial=0)):
        size <<= 1
    w = np.bincount(extended, minlength=size).astype(np.int64)
    h = 1
    while h < size:
        w = w.reshape(-1, 2, h)
        w = np.stack((w[:, 0] + w[:, 1], w[:, 0] - w[:, 1]), axis=1).reshape(-1)
        h <<= 1
    rare = (len(extended) + w) // 2
    rare[0] = len(extended) + 1  # M = 0 makes everything rare
    if not parity_ok:
        rare[1::2] = len(extended) + 1
    return int(np.argmin(rare))


def _popcount_parity(x: np.ndarray) -> np.ndarray:
    x = x.copy()
    for shift in (32, 16, 8, 4, 2, 1):
        x ^= x >> shift
    return x & 1
