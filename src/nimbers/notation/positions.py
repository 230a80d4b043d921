"""Typed positions: heaps and piles (``3,5``), rows of coins (``THHTH`` or the heads
``0,3,7``) and boards (``1:2,3:5``), read by one set of functions for every front door.

Numbers in a position follow :mod:`.numbers`' rule; items are separated by commas, spaces
or both.  A reader returns plain data (lists of ints, of coordinate tuples) and builds no
game.

>>> read_heaps("3, 5 7"), read_row("THHT"), read_cells("1:2,3:5")
([3, 5, 7], [1, 2], [(1, 2), (3, 5)])
>>> read_heads("0,3,7"), read_heads("THHTH")
(CoinRow(heads=[0, 3, 7], length=None), CoinRow(heads=[1, 2, 4], length=5))
"""

from __future__ import annotations

import re
from typing import Iterable, NamedTuple

from .numbers import NotationError, clip, read_integer

__all__ = ["items", "read_numbers", "read_heaps", "read_row", "read_heads", "read_cell",
           "read_cells", "CoinRow"]

_SEPARATORS = re.compile(r"[\s,]+")


def items(text: str | Iterable[str]) -> list[str]:
    """The words of a typed list: separated by commas and spaces; a list of words (a
    command line's arguments) is split the same way, word by word.

    >>> items("3, 5,7"), items(["3,5", "7"])
    (['3', '5', '7'], ['3', '5', '7'])
    """
    words = [text] if isinstance(text, str) else list(text)
    return [w for word in words for w in _SEPARATORS.split(word.strip()) if w]


def read_numbers(text: str | Iterable[str], what: str, most: int | None = None) -> list[int]:
    """Non-negative numbers of a typed list, each at most ``most``; at least one.

    >>> read_numbers("0x3 5", "heap sizes")
    [3, 5]
    >>> read_numbers("3 x", "heap sizes")
    Traceback (most recent call last):
    ...
    nimbers.notation.numbers.NotationError: heap sizes: not a number: 'x' (ASCII digits: decimal, 0x.., 0b.. or 0o..)
    """
    words = items(text)
    if not words:
        raise NotationError(f"{what}: give at least one number, e.g. 3,5")
    out = []
    for word in words:
        try:
            out.append(read_integer(word, most=most))
        except NotationError as exc:
            raise NotationError(f"{what}: {exc}") from None
    return out


def read_heaps(text: str | Iterable[str], most: int | None = None) -> list[int]:
    """Heap (or pile) sizes, heap 0 first: ``3,5`` or ``3 5``."""
    return read_numbers(text, "heap sizes", most)


def read_row(text: str) -> list[int]:
    """The heads of a row of coins written with H and T, coin 0 first (Winning Ways ch. 14).

    >>> read_row("thht")
    [1, 2]
    """
    s = text.strip().upper()
    if not s or set(s) - {"H", "T"}:
        raise NotationError(f"a row of coins is a string of H and T, coin 0 first, "
                            f"got {clip(text)!r}")
    return [i for i, c in enumerate(s) if c == "H"]


class CoinRow(NamedTuple):
    """A typed row of coins: its heads, and its length when it was written as H and T."""

    heads: list[int]
    length: int | None


def read_heads(text: str, most: int | None = None) -> CoinRow:
    """A row of coins, typed as H and T (``THHTH``) or as the head coins (``0,3,7``; a
    coin typed twice is one head, as :func:`nimbers.games.heads_of` reads a list)."""
    t = text.strip()
    if t and set(t.upper()) <= {"H", "T"}:
        return CoinRow(read_row(t), len(t))
    try:
        coins = read_numbers(t, "coins", most)
    except NotationError as exc:
        raise NotationError(f"{exc} (heads are coin numbers like 0,3,7 or a row like "
                            "HTHHT)") from None
    return CoinRow(sorted(set(coins)), None)


def read_cell(text: str, most: int | None = None, dims: int = 2) -> tuple[int, ...]:
    """One coin of a board: ``row:column``, both from 0 (``a:b:c`` on a board of ``dims``
    dimensions, a Tartan product of three games).

    >>> read_cell("3:5"), read_cell("1:2:3", dims=3)
    ((3, 5), (1, 2, 3))
    """
    form = "row:column" if dims == 2 else ":".join("abcdefgh"[:dims])
    parts = text.strip().split(":")
    if len(parts) != dims:
        raise NotationError(f"a coin is written {form}, got {clip(text)!r}")
    try:
        return tuple(read_integer(p, most=most) for p in parts)
    except NotationError as exc:
        raise NotationError(f"the coin {clip(text, 20)!r} (written {form}): {exc}") from None


def read_cells(text: str | Iterable[str], most: int | None = None,
               dims: int = 2) -> list[tuple[int, ...]]:
    """Coins of a board, ``1:2,3:5`` (also ``;`` between them), in the order typed; a
    coin typed twice is listed twice (a caller decides what that means)."""
    words = [text.replace(";", ",")] if isinstance(text, str) else \
        [w.replace(";", ",") for w in text]
    return [read_cell(w, most, dims) for w in items(words)]
