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

from typing import Any, Callable, Hashable, Iterable, Iterator, MutableMapping, Sequence

import numpy as np

from ._shared import Shareable, synchronized

__all__ = ["mex", "grundy", "misere_grundy", "sum_value", "winning_move_in_sum", "CycleError",
           "ImpartialGame"]


class CycleError(ValueError):
    """A position can be reached from itself: the game is loopy, not a finite impartial game.

    >>> grundy(0, lambda n: [1 - n])         # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    nimbers.games.engine.CycleError: the position 0 can be reached from itself: ...
    """


def mex(values: Iterable[int]) -> int:
    """The minimum excludant: the least non-negative integer not among the values (Winning
    Ways ch. 2).

    Parameters
    ----------
    values : iterable of int
        Non-negative integers, in any order, repeats allowed.

    Returns
    -------
    int

    Raises
    ------
    ValueError
        A value is negative or not an integer.

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


def _options(moves: Callable[[Any], Iterable[Hashable]], position: Hashable) -> list[Hashable]:
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

    The search is iterative (no recursion limit: a chain of a million positions works) and
    memoized (Sprague-Grundy theorem: Winning Ways ch. 2, ONAG ch. 11).

    Parameters
    ----------
    position : hashable
        The position.
    moves : callable
        ``moves(position)`` lists the positions one move away.
    cache : dict, optional
        Values found so far, kept between calls when you pass the same dict.

    Returns
    -------
    int
        The Grundy value G(position) = mex of the options' values.

    Raises
    ------
    CycleError
        A position can be reached from itself (a loopy game).
    TypeError
        ``moves`` returned something that is not an iterable of hashable positions.

    >>> grundy(7, lambda n: [n - k for k in (1, 2, 3) if n >= k])   # subtraction game {1,2,3}
    3
    """
    return _solve(position, moves, cache, misere=False)


def misere_grundy(position: Hashable, moves: Callable[[Any], Iterable[Hashable]],
                  cache: MutableMapping[Hashable, int] | None = None) -> int:
    """The misère Grundy value G- of a position of any finite impartial game: 1 at a position
    with no move (its mover has won: the opponent made the last move), else the mex of the
    options' values (Conway, ONAG ch. 12; CGSuite's MisereNimValue).  The player to move
    loses misère play exactly when G- = 0.  Unlike normal play, G- of a sum is not a function
    of the components' G-, so sums are searched whole.

    Parameters
    ----------
    position, moves, cache
        As for :func:`grundy` (keep separate caches for normal and misère values).

    Returns
    -------
    int
        G-(position).

    Raises
    ------
    CycleError
        A position can be reached from itself.

    >>> nim = lambda heaps: [tuple(sorted(heaps[:i] + (k,) + heaps[i + 1:]))
    ...                      for i, h in enumerate(heaps) for k in range(h)]
    >>> misere_grundy((), nim), misere_grundy((1,), nim), misere_grundy((1, 1), nim)
    (1, 0, 1)
    >>> misere_grundy((2, 3), nim)            # with a heap of 2 or more: the nim-sum
    1
    """
    return _solve(position, moves, cache, misere=True)


def _solve(position: Hashable, moves: Callable[[Any], Iterable[Hashable]],
           cache: MutableMapping[Hashable, int] | None, misere: bool) -> int:
    if cache is None:
        cache = {}
    if position in cache:
        return cache[position]
    on_path: set[Hashable] = {position}
    stack: list[tuple[Hashable, list[Hashable], int]] = [(position, _options(moves, position), 0)]
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
        if misere and not opts:
            cache[pos] = 1  # no move: the player to move has won
        else:
            cache[pos] = mex(cache[o] for o in opts)
        on_path.discard(pos)
        stack.pop()
    return cache[position]


def sum_value(components: Sequence[Hashable], moves: Callable[[Any], Iterable[Hashable]],
              cache: MutableMapping[Hashable, int] | None = None) -> int:
    """The Grundy value of a sum of games: the nim-sum of the components' values (the
    Sprague-Grundy theorem, Winning Ways ch. 2).

    Parameters
    ----------
    components : sequence of hashable
        One position per component game, all played by the same ``moves``.
    moves, cache
        As for :func:`grundy`.

    Returns
    -------
    int

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


def winning_move_in_sum(components: Sequence[Hashable], moves: Callable[[Any], Iterable[Hashable]],
                        cache: MutableMapping[Hashable, int] | None = None) -> tuple[int, Hashable] | None:
    """A move that makes the sum's value 0 (Winning Ways ch. 2).

    Parameters
    ----------
    components, moves, cache
        As for :func:`sum_value`.

    Returns
    -------
    tuple or None
        (component index, its new position), or None when the sum is already 0 (every move
        loses).

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


class ImpartialGame(Shareable):
    """Any finite impartial game given by its moves function, in the common vocabulary
    (:mod:`.vocabulary`).  Positions must be hashable; values are memoized.

    Parameters
    ----------
    moves : callable
        moves(position) lists the positions one move away.
    name : str
        What to call the game.

    >>> sub123 = ImpartialGame(lambda n: [n - k for k in (1, 2, 3) if n >= k], "{1,2,3}")
    >>> sub123.nim_value(7), sub123.winning_move(7), sub123.is_losing(8)
    (3, 4, True)
    >>> sub123.misere_nim_value(0), sub123.winning_move(6, misere=True)   # misère P: n = 1 mod 4
    (1, 5)
    """

    def __init__(self, moves: Callable[[Any], Iterable[Hashable]], name: str = "impartial game"):
        if not callable(moves):
            raise TypeError(f"moves must be a function of a position, not {type(moves).__name__}")
        self._moves = moves
        self.name = name
        self._normal: dict[Hashable, int] = {}
        self._misere: dict[Hashable, int] = {}

    def __repr__(self) -> str:
        return f"<ImpartialGame {self.name}>"

    def moves(self, position: Hashable) -> Iterator[Hashable]:
        """The positions one move away, as the moves function lists them.

        Returns
        -------
        iterator of hashable

        >>> list(ImpartialGame(lambda n: [n - k for k in (1, 2) if n >= k]).moves(5))
        [4, 3]
        """
        yield from _options(self._moves, position)

    @synchronized
    def nim_value(self, position: Hashable) -> int:
        """The Grundy value under normal play (see :func:`grundy`).

        Returns
        -------
        int

        >>> ImpartialGame(lambda n: [n - k for k in (1, 2) if n >= k]).nim_value(5)
        2
        """
        return grundy(position, self._moves, self._normal)

    @synchronized
    def misere_nim_value(self, position: Hashable) -> int:
        """The misère Grundy value G- (see :func:`misere_grundy`).

        Returns
        -------
        int

        >>> ImpartialGame(lambda n: [n - k for k in (1, 2) if n >= k]).misere_nim_value(1)
        0
        """
        return misere_grundy(position, self._moves, self._misere)

    def _value(self, position: Hashable, misere: bool) -> int:
        return self.misere_nim_value(position) if misere else self.nim_value(position)

    def is_losing(self, position: Hashable, misere: bool = False) -> bool:
        """True when the player to move loses with best play (a P-position).

        Parameters
        ----------
        position : hashable
        misere : bool
            True: whoever makes the last move loses.

        Returns
        -------
        bool

        >>> ImpartialGame(lambda n: [n - k for k in (1, 2) if n >= k]).is_losing(6)
        True
        """
        return self._value(position, misere) == 0

    @synchronized
    def winning_move(self, position: Hashable, misere: bool = False) -> Hashable | None:
        """A position one move away where the opponent loses.

        Parameters
        ----------
        position : hashable
        misere : bool
            True: whoever makes the last move loses.

        Returns
        -------
        hashable or None
            The position to move to, or None when every move loses.

        >>> ImpartialGame(lambda n: [n - k for k in (1, 2) if n >= k]).winning_move(5)
        3
        """
        if self._value(position, misere) == 0:
            return None
        for option in _options(self._moves, position):
            if self._value(option, misere) == 0:
                return option
        # Only a finished position under misère play (value 1: its player to move has won)
        # has a non-zero value and no move.
        return None
