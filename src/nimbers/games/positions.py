"""Positions of coin-turning games as people write them, read into data, and shown.

A row of coins is a string of H and T (coin 0 first) or the list of its heads; a board of
coins is "row:column" text or a list of coordinate tuples.  :class:`Row` and :class:`Board`
hold a position for display (text, and coins drawn in notebooks); every game takes them
where it takes a list of heads.

>>> heads_of("THHT"), heads_2d("3:5,2:2")
([1, 2], [(2, 2), (3, 5)])
>>> Row("THHT"), str(Board("1:2", shape=(2, 3))).splitlines()
(Row('THHT'), ['TTT', 'TTH'])
"""

from __future__ import annotations

from typing import Any

import html

import numpy as np

from ..notation import read_cells, read_row

__all__ = ["heads_of", "heads_2d", "Row", "Board"]


def heads_of(position: Any) -> list[int]:
    """The heads of a position, as Winning Ways ch. 14 draws a row of coins.

    Parameters
    ----------
    position : str or iterable of int
        A string of H and T (left to right, coin 0 first), or the coin numbers of the heads
        (repeats count once).

    Returns
    -------
    list of int
        The heads, sorted.

    Raises
    ------
    ValueError
        A letter other than H or T, or a coin number that is negative or not an integer.
    TypeError
        Neither a string nor an iterable.

    >>> heads_of("THHT"), heads_of([3, 0])
    ([1, 2], [0, 3])
    """
    if isinstance(position, str):
        return read_row(position)
    try:
        coins = sorted(set(position))
    except TypeError:
        raise TypeError("a position is a string of H/T or an iterable of coin numbers") from None
    for c in coins:
        if isinstance(c, bool) or not isinstance(c, (int, np.integer)) or c < 0:
            raise ValueError(f"coins are numbered 0, 1, 2, ...: got {c!r}")
    return [int(c) for c in coins]


def heads_2d(position: Any, dims: int = 2) -> list[tuple[int, ...]]:
    """Heads of a board (the Tartan games of Winning Ways ch. 14) as coordinate tuples.

    Parameters
    ----------
    position : str or iterable of tuples
        "a:b,c:d" text, or an iterable of coordinate tuples.
    dims : int
        How many coordinates each head has.

    Returns
    -------
    list of tuple of int
        The heads, sorted.

    Raises
    ------
    ValueError
        Bad text, a tuple of the wrong length, or a negative coordinate.

    >>> heads_2d("3:5,2:2")
    [(2, 2), (3, 5)]
    """
    if isinstance(position, str):
        items = read_cells(position, dims=dims)
    else:
        try:
            items = [tuple(int(v) for v in h) for h in position]
        except (TypeError, ValueError):
            raise TypeError("heads are tuples of coin numbers, or text like '3:5,2:2'") from None
    out: set[tuple[int, ...]] = set()
    for h in items:
        if len(h) != dims or any(v < 0 for v in h):
            raise ValueError(f"a coin has {dims} non-negative coordinates, got {h}")
        out ^= {h}  # a coin listed twice is turned twice: back to tails
    return sorted(out)


_HEAD, _TAIL = "&#9679;", "&#9675;"  # a filled and an empty circle


class Row:
    """A row of coins, for display: ``str`` writes it as H and T (coin 0 first), notebooks
    draw the coins with their numbers.  Iterating gives the heads, so a Row is a position
    wherever a list of heads is.

    Parameters
    ----------
    position : str or iterable of int
        "THHT", or the head coins.
    length : int, optional
        The number of coins (by default the string's length, or one past the last head).

    Examples
    --------
    >>> row = Row([1, 2], length=4)
    >>> str(row), list(row), heads_of(row)
    ('THHT', [1, 2], [1, 2])
    """

    def __init__(self, position: Any, length: int | None = None) -> None:
        self.heads = heads_of(position)
        natural = len(position.strip()) if isinstance(position, str) else \
            (self.heads[-1] + 1 if self.heads else 0)
        self.length = natural if length is None else int(length)
        if self.length < natural:
            raise ValueError(f"a row of {self.length} coins cannot have a head at {self.heads[-1]}")

    def __iter__(self) -> Any:
        return iter(self.heads)

    def __len__(self) -> int:
        return len(self.heads)

    def __str__(self) -> str:
        heads = set(self.heads)
        return "".join("H" if i in heads else "T" for i in range(self.length))

    def __repr__(self) -> str:
        return f"Row({str(self)!r})"

    def _repr_html_(self) -> str:
        heads = set(self.heads)
        coins = "".join(f"<td>{_HEAD if i in heads else _TAIL}</td>" for i in range(self.length))
        numbers = "".join(f"<td>{i}</td>" for i in range(self.length))
        return (f'<table class="nimbers-row"><tr>{coins}</tr>'
                f'<tr style="font-size:smaller">{numbers}</tr></table>')


class Board:
    """A board of coins (row, column from 0), for display: ``str`` writes rows of H and T,
    notebooks draw the coins.  Iterating gives the heads as (row, column) tuples.

    Parameters
    ----------
    position : str or iterable of tuples
        "3:5,2:2", or the head coordinates.
    shape : (int, int), optional
        Rows and columns (by default one past the largest head in each direction).

    Examples
    --------
    >>> print(Board([(0, 1), (1, 0)]))
    TH
    HT
    """

    def __init__(self, position: Any, shape: tuple[int, int] | None = None) -> None:
        self.heads = heads_2d(position)
        rows = max((h[0] for h in self.heads), default=-1) + 1
        cols = max((h[1] for h in self.heads), default=-1) + 1
        self.shape = (rows, cols) if shape is None else (int(shape[0]), int(shape[1]))
        if self.shape[0] < rows or self.shape[1] < cols:
            raise ValueError(f"a {self.shape[0]} x {self.shape[1]} board cannot hold {self.heads}")

    def __iter__(self) -> Any:
        return iter(self.heads)

    def __len__(self) -> int:
        return len(self.heads)

    def __str__(self) -> str:
        heads = set(self.heads)
        return "\n".join("".join("H" if (r, c) in heads else "T" for c in range(self.shape[1]))
                         for r in range(self.shape[0]))

    def __repr__(self) -> str:
        return f"Board({','.join(f'{r}:{c}' for r, c in self.heads)!r}, shape={self.shape})"

    def _repr_html_(self) -> str:
        heads = set(self.heads)
        head_row = "<tr><th></th>" + "".join(f"<th>{c}</th>" for c in range(self.shape[1])) + "</tr>"
        rows = [head_row]
        for r in range(self.shape[0]):
            cells = "".join(f"<td>{_HEAD if (r, c) in heads else _TAIL}</td>"
                            for c in range(self.shape[1]))
            rows.append(f"<tr><th>{html.escape(str(r))}</th>{cells}</tr>")
        return f'<table class="nimbers-board">{"".join(rows)}</table>'
