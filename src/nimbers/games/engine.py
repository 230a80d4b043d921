"""The Sprague-Grundy engine for any finite impartial game: mex, Grundy values, sums of games.

Sprague-Grundy theorem (Winning Ways ch. 2; ONAG ch. 11): every finite impartial game is
equivalent to a Nim heap of size G(position) = mex{ G(option) }, and the value of a sum of
games is the nim-sum of the values.  The player to move loses exactly when the value is 0.

A ruleset is given to the engine as a function ``moves(position)`` listing the positions one
move away; positions are any hashable values.

>>> grundy(7, lambda n: [n - k for k in (1, 2, 3) if n >= k])   # subtraction game {1,2,3}
3
"""

from __future__ import annotations

from typing import Any, Callable, Hashable, Iterable, MutableMapping, Sequence

import numpy as np

__all__ = ["mex", "grundy", "sum_value", "winning_move_in_sum", "CycleError"]


class CycleError(ValueError):
    """A position can be reached from itself: the game is loopy, not a finite impartial game."""


def mex(values: Iterable[int]) -> int:
    """The minimum excludant: the least non-negative integer not among the values.

    >>> mex([0, 1, 3]), mex([]), mex([1, 2])
    (2, 0, 0)
    """
    seen = set()
    for v in values:
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 0:
            raise ValueError(f"mex takes non-negative integers, got {v!r}")
        seen.add(int(v))
    m = 0
    while m in seen:
        m += 1
    return m


def _options(moves: Callable[[Any], Iterable[Hashable]], position: Hashable) -> list:
    opts = moves(position)
    try:
        opts = list(opts)
    except TypeError:
        raise TypeError(f"moves({position!r}) must return an iterable of positions, "
                        f"got {type(opts).__name__}") from None
    for o in opts:
        try:
            hash(o)
        except TypeError:
            raise TypeError(f"moves({position!r}) returned an unhashable position {o!r}: "
                            "positions must be hashable (use tuples, not lists)") from None
    return opts


def grundy(position: Hashable, moves: Callable[[Any], Iterable[Hashable]],
           cache: MutableMapping[Hashable, int] | None = None) -> int:
    """The Grundy value of a position of any finite impartial game.

    moves(position) lists the positions one move away.  The search is iterative (no recursion
    limit: a chain of a million positions works) and memoized in cache, a dict you may keep
    between calls.  A position reachable from itself raises CycleError.

    >>> grundy(7, lambda n: [n - k for k in (1, 2, 3) if n >= k])   # subtraction game {1,2,3}
    3
    """
    if cache is None:
        cache = {}
    if position in cache:
        return cache[position]
    on_path: set = {position}
    stack: list[tuple[Hashable, list, int]] = [(position, _options(moves, position), 0)]
    while stack:
        pos, opts, i = stack[-1]
        while i < len(opts) and opts[i] in cache:
            i += 1
        if i < len(opts):
            child = opts[i]
            if child in on_path:
                raise CycleError(f"the position {child!r} can be reached from itself: "
                                 "the game is loopy, not a finite impartial game")
            stack[-1] = (pos, opts, i)
            on_path.add(child)
            stack.append((child, _options(moves, child), 0))
            continue
        cache[pos] = mex(cache[o] for o in opts)
        on_path.discard(pos)
        stack.pop()
    return cache[position]


def sum_value(components: Sequence[Hashable], moves: Callable, cache: MutableMapping | None = None) -> int:
    """The Grundy value of a sum of games: the nim-sum of the components' values.

    >>> sub = lambda n: [n - k for k in (1, 2) if n >= k]
    >>> sum_value([4, 5], sub)     # 1 (+) 2
    3
    """
    if cache is None:
        cache = {}
    total = 0
    for c in components:
        total ^= grundy(c, moves, cache)
    return total


def winning_move_in_sum(components: Sequence[Hashable], moves: Callable,
                        cache: MutableMapping | None = None) -> tuple[int, Hashable] | None:
    """A move that makes the sum's value 0: (component index, its new position), or None
    when the sum is already 0 (every move loses).

    >>> sub = lambda n: [n - k for k in (1, 2) if n >= k]
    >>> winning_move_in_sum([4, 5], sub)     # values 1 and 2: move 4 -> 2 (value 2)
    (0, 2)
    """
    if cache is None:
        cache = {}
    total = sum_value(components, moves, cache)
    if total == 0:
        return None
    for i, c in enumerate(components):
        target = total ^ cache[c]
        for option in _options(moves, c):
            if grundy(option, moves, cache) == target:
                return i, option
    raise AssertionError("Sprague-Grundy: a non-zero sum always has a winning move")
