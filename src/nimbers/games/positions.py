"""Positions of coin-turning games as people write them, read into data.

A row of coins is a string of H and T (coin 0 first) or the list of its heads; a board of
coins is "row:column" text or a list of coordinate tuples.

>>> heads_of("THHT"), heads_2d("3:5,2:2")
([1, 2], [(2, 2), (3, 5)])
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["heads_of", "heads_2d"]


def heads_of(position: Any) -> list[int]:
    """The heads of a position: a string of H and T (left to right, coin 0 first), or an
    iterable of coin numbers.

    >>> heads_of("THHT"), heads_of([3, 0])
    ([1, 2], [0, 3])
    """
    if isinstance(position, str):
        s = position.strip().upper()
        if not s or set(s) - {"H", "T"}:
            raise ValueError(f"a row of coins is a string of H and T, got {position!r}")
        return [i for i, c in enumerate(s) if c == "H"]
    try:
        coins = sorted(set(position))
    except TypeError:
        raise TypeError("a position is a string of H/T or an iterable of coin numbers") from None
    for c in coins:
        if isinstance(c, bool) or not isinstance(c, (int, np.integer)) or c < 0:
            raise ValueError(f"coins are numbered 0, 1, 2, ...: got {c!r}")
    return [int(c) for c in coins]


def heads_2d(position: Any, dims: int = 2) -> list[tuple[int, ...]]:
    """Heads as coordinate tuples, from "a:b,c:d" text or an iterable of tuples.

    >>> heads_2d("3:5,2:2")
    [(2, 2), (3, 5)]
    """
    if isinstance(position, str):
        items = []
        for part in position.replace(" ", "").split(","):
            if not part:
                continue
            try:
                coords = tuple(int(v) for v in part.split(":"))
            except ValueError:
                raise ValueError(f"a head is written row:column, got {part!r}") from None
            items.append(coords)
    else:
        try:
            items = [tuple(int(v) for v in h) for h in position]
        except (TypeError, ValueError):
            raise TypeError("heads are tuples of coin numbers, or text like '3:5,2:2'") from None
    out: set[tuple[int, ...]] = set()
    for h in items:
        if len(h) != dims or any(v < 0 for v in h):
            raise ValueError(f"a head has {dims} non-negative coordinates, got {h}")
        out ^= {h}  # a coin listed twice is turned twice: back to tails
    return sorted(out)
