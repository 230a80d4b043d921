"""The checks every entry point of the heap games passes: counts, heap sizes, positions."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..._limits import check_bytes


def count(n: Any) -> int:
    """n as a count of values: a non-negative int."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
        raise ValueError(f"n must be a non-negative int, got {n!r}")
    return int(n)


def heap_size(h: Any) -> int:
    """h as a heap size: a non-negative int."""
    if isinstance(h, bool) or not isinstance(h, (int, np.integer)):
        raise TypeError(f"a heap size is a non-negative int, not {type(h).__name__}")
    if h < 0:
        raise ValueError(f"a heap size is non-negative, got {h}")
    return int(h)


def heaps_of(position: Any) -> list[int]:
    """A position as a list of heap sizes: one heap size, or a sequence of them."""
    if isinstance(position, (int, np.integer)) and not isinstance(position, bool):
        return [heap_size(position)]
    if isinstance(position, (str, bytes)) or not hasattr(position, "__iter__"):
        raise TypeError(f"a position is a heap size or a sequence of heap sizes, "
                        f"not {type(position).__name__}")
    return [heap_size(h) for h in position]


def check_memory(nbytes: int, what: str) -> None:
    """Refuses past the memory cap or the memory available now (:mod:`nimbers._limits`)."""
    check_bytes(nbytes, what, "set the game's memory_limit (bytes, or '16G'), or prove a "
                "period (period()) to answer any heap size from it,",
                instead="ask for fewer, or prove a period (period()) to answer any heap size "
                "from it")
