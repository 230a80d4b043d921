"""Transfinite Nim: heaps of ordinal sizes, whose value is the nim-sum of the sizes.

>>> print(nim_heap_value(["ω", "ω"]), winning_move(["ω", 3]))
0 (0, Ordinal('3'))
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

from .ordinals import Ordinal


def nim_heap_value(heaps: Iterable[Any]) -> Ordinal:
    """The Sprague-Grundy value of a sum of Nim heaps of ordinal sizes: their nim-sum
    (a heap of size α is the game whose options are the smaller heaps, so its value is α).

    >>> print(nim_heap_value(["ω + 3", "ω·2 + 1", 5]))
    ω·3 + 7
    """
    total = Ordinal(0)
    for h in heaps:
        total = total + Ordinal(h)
    return total


def winning_move(heaps: Sequence[Any]) -> tuple[int, Ordinal] | None:
    """A winning move (heap index, new size) from a sum of ordinal Nim heaps, or None when
    the nim-sum is 0 (every move loses).  As for finite Nim: with s the nim-sum, some heap
    h has h ⊕ s < h (the one whose coefficient at s's leading exponent has s's top bit).

    >>> winning_move(["ω + 3", "ω·2 + 1", 5])
    (1, Ordinal('ω + 6'))
    """
    hs = [Ordinal(h) for h in heaps]
    s = nim_heap_value(hs)
    if not s:
        return None
    for i, h in enumerate(hs):
        if h + s < h:
            return i, h + s
    raise AssertionError("a non-zero nim-sum always has a winning move")
