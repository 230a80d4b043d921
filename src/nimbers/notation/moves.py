"""Moves as the literature writes them: read from what a person types, and said in words.

Heaps (Winning Ways ch. 4): ``take 2 from heap 1`` or ``1:2``, with the heaps left when a
move could leave different ones (``1:2 -> 3 4``, ``take 2 from heap 1 leaving 3 and 4``),
``0 -> 1 3`` (heap 0 becomes heaps of 1 and 3), ``split heap 0 into 3 and 4``.  Coins
(ch. 14): the coins turned, ``turn 1 4``; on a board, coins as ``row:column``.  Numbers
follow :mod:`.numbers`' rule (a ``+`` may lead, a ``-`` is refused with its reason), each at
most :data:`MOVE_MOST`: no heap, coin or count a move names is larger, and a longer number is
refused in the notation's words.  Readers return data, writers text; neither knows a game.

>>> read_heap_move("take 2 from heap 1")
HeapMove(heap=1, take=2, left=None)
>>> read_heap_move("0:1 -> 1 3"), read_heap_move("0 -> 3 4")
(HeapMove(heap=0, take=1, left=(1, 3)), HeapMove(heap=0, take=None, left=(3, 4)))
>>> say_heap_move(1, 2, (3, 2))
'take 2 from heap 1, leaving 3 and 2'
>>> read_heap_move("take +3 from heap 0")
HeapMove(heap=0, take=3, left=None)
>>> read_heap_move("take 1 from heap " + "9" * 5000)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
nimbers.notation.numbers.NotationError: heap: at most 2^63 - 1, got 99999...9... (5000 characters)
"""

from __future__ import annotations

import re
from typing import Iterable, NamedTuple, Sequence

from .numbers import NotationError, read_integer, write_integer
from .positions import read_cell

__all__ = ["HeapMove", "read_heap_move", "read_coin_move", "read_board_move",
           "say_heap_move", "say_sizes", "say_count", "say_coin_move", "say_board_move",
           "type_heap_move", "MOVE_WORDS", "MOVE_MOST"]

_N = r"([+-]?[0-9][0-9a-fA-FxXoObB_]*)"
_HEAP_WORD = r"(?:heap|pile)"
_TAKE = re.compile(rf"^take {_N} from {_HEAP_WORD} {_N}(?: (?:leaving|->) ?(.*))?$")
_COLON = re.compile(rf"^{_N} ?: ?{_N}(?: ?(?:leaving|->) ?(.*))?$")
_ARROW = re.compile(rf"^{_N} ?-> ?(.*)$")
_SPLIT = re.compile(rf"^split {_HEAP_WORD} {_N} into (.*)$")
_BARE = re.compile(rf"^{_N}(?: {_N})+$")

#: The largest number a move may name (a heap, a coin, tokens taken or left).
MOVE_MOST = 2**63 - 1

#: words a typed coin move may carry around its coins
MOVE_WORDS = ("turn", "coin", "coins", "corners", "and")


class HeapMove(NamedTuple):
    """A typed move on heaps: the heap, the tokens taken (None: not said) and the heaps
    left in its place (None: not said; sorted, empty heaps dropped)."""

    heap: int
    take: int | None
    left: tuple[int, ...] | None


def _number(word: str, what: str) -> int:
    try:
        return read_integer(word, most=MOVE_MOST)
    except NotationError as exc:
        raise NotationError(f"{what}: {exc}") from None


def _left(text: str | None) -> tuple[int, ...] | None:
    if text is None:
        return None
    words = [w for w in text.split() if w not in ("nothing", "heaps", "heap", "piles", "pile")]
    return tuple(sorted(v for v in (_number(w, "the sizes left") for w in words) if v > 0))


def read_heap_move(text: str, word: str = "heap") -> HeapMove:
    """A move on heaps from the typed forms (``word``: "heap" or "pile", for the message)."""
    t = " ".join(text.lower().replace(",", " ").replace(" and ", " ").split())
    t = " ".join(t.replace("->", " -> ").split())
    for pattern in (_TAKE, _COLON):
        m = pattern.match(t)
        if m:
            at, took = (2, 1) if pattern is _TAKE else (1, 2)
            heap, take = _number(m.group(at), word), _number(m.group(took), "tokens taken")
            return HeapMove(heap, take, _left(m.group(3)))
    for pattern in (_ARROW, _SPLIT):
        m = pattern.match(t)
        if m:
            return HeapMove(_number(m.group(1), word), None, _left(m.group(2)) or ())
    if _BARE.match(t):
        nums = [_number(w, word) for w in t.split()]
        return HeapMove(nums[0], nums[1], tuple(sorted(nums[2:])) if len(nums) > 2 else None)
    raise NotationError(f"{text!r} is not a move: write e.g. 'take 2 from {word} 0', '0:2' or "
                        f"'0 -> 1 3' (the {word}s left); type help for every form")


def read_coin_move(text: str) -> list[int]:
    """The coins a typed move on a row turns (``turn 1 4``, ``1 4``, ``1,4``), sorted.

    >>> read_coin_move("turn 4, 1")
    [1, 4]
    """
    words = [w for w in text.lower().replace(",", " ").split() if w not in MOVE_WORDS]
    if not words:
        raise NotationError("type the coins to turn, e.g. 'turn 1 4'")
    return sorted({_number(w, "a coin's number; type e.g. 'turn 1 4'") for w in words})


def read_board_move(text: str, example: str = "1:2 3:5") -> list[tuple[int, int]]:
    """The coins of a typed move on a board, ``row:column`` each, in the order typed."""
    words = [w for w in text.lower().replace(",", " ").split() if w not in MOVE_WORDS]
    if not words or any(":" not in w for w in words):
        raise NotationError(f"{text!r} is not a move: type coins as row:column, e.g. "
                            f"'{example}'")
    try:
        return [(cell[0], cell[1]) for cell in (read_cell(w, MOVE_MOST) for w in words)]
    except NotationError as exc:
        raise NotationError(f"{exc} (e.g. '{example}')") from None


# ---- writing moves ----------------------------------------------------------------------------

def say_count(n: int, one: str, many: str) -> str:
    """``1 token``, ``3 tokens``."""
    return f"{write_integer(n)} {one if n == 1 else many}"


def say_sizes(left: Sequence[int]) -> str:
    """Heaps left, in words: ``3 and 2``, or ``nothing``."""
    if not left:
        return "nothing"
    return " and ".join(write_integer(h) for h in left)


def say_heap_move(index: int, take: int, left: Sequence[int], word: str = "heap",
                  size: int | None = None, unit: tuple[str, str] = ("token", "tokens")) -> str:
    """A move on heaps (or piles) in words: what is taken from which heap, and what is left
    in its place.  The one phrasing of such moves, for every front door.

    Parameters
    ----------
    index : int
        The heap moved, numbered from 0.
    take : int
        Tokens taken; 0 for a move that only splits the heap (Grundy's game).
    left : sequence of int
        The heaps left in its place (empty: nothing).
    word : str
        What a heap is called ("heap", or "pile" in Nim).
    size : int, optional
        The heap's size before the move, said after its number when given (the web page,
        whose heaps are not numbered on screen).
    unit : (str, str)
        What the size counts, singular and plural.

    Returns
    -------
    str

    >>> say_heap_move(0, 1, (2,), word="pile", size=3, unit=("stone", "stones"))
    'take 1 from pile 0 (3 stones), leaving 2'
    >>> say_heap_move(0, 0, (3, 4), size=7)
    'split heap 0 (7 tokens) into 3 and 4'
    """
    heap = f"{word} {index}" + ("" if size is None else f" ({say_count(size, *unit)})")
    if take == 0:
        return f"split {heap} into {say_sizes(left)}"
    return f"take {write_integer(take)} from {heap}, leaving {say_sizes(left)}"


def type_heap_move(index: int, take: int, left: Sequence[int], say_left: bool) -> str:
    """How a move on heaps is typed: ``1:2``, ``1:2 -> 3 4`` when what is left must be said,
    ``0 -> 3 4`` for a split.

    >>> type_heap_move(1, 2, (3, 4), True), type_heap_move(0, 0, (3, 4), False)
    ('1:2 -> 3 4', '0 -> 3 4')
    """
    sizes = " ".join(map(write_integer, left))
    if take == 0:
        return f"{index} -> {sizes}"
    typed = f"{index}:{write_integer(take)}"
    return typed + (" -> " + (sizes or "0") if say_left else "")


def say_coin_move(coins: Iterable[int]) -> str:
    """A move on a row of coins, as it is typed: ``turn 1 4``."""
    return "turn " + " ".join(write_integer(c) for c in sorted(coins))


def say_board_move(coins: Iterable[Sequence[int]]) -> str:
    """A move on a board, as it is typed: ``turn 1:2 1:5``."""
    return "turn " + " ".join(f"{r}:{c}" for r, c in sorted(tuple(c) for c in coins))
