"""The heap games by name and code: take-and-break and octal codes (Winning Ways ch. 4, in
CGSuite's notation), subtraction games, Grundy's game, and the literature's names for them.
"""

from __future__ import annotations

from typing import Iterable

import numpy as np

from ..codes import TakeBreakCode, parse_take_break_code
from .game import HeapGame

__all__ = ["take_break_game", "octal_game", "subtraction_game", "grundy_game"]


def take_break_game(code: str, name: str | None = None) -> HeapGame:
    """A take-and-break game in CGSuite's notation "d0.d1d2...": digit dk (hex) says what a
    move removing k tokens may leave, as a sum of bits: 1 = nothing (the whole heap is
    taken), 2 = one heap, 4 = two heaps, 8 = three heaps.  d0 (before the point) may only
    hold 4 or 8: splitting a heap without taking tokens (Winning Ways ch. 4).

    Parameters
    ----------
    code : str
        The code, hexadecimal digits allowed.
    name : str, optional
        What to call the game (default: the code).

    Returns
    -------
    HeapGame

    Raises
    ------
    TypeError
        code is not a string.
    ValueError
        Not a take-and-break code (see :func:`nimbers.games.codes.parse_take_break_code`).

    >>> take_break_game("0.3F").nim_values(10).tolist()
    [0, 1, 2, 0, 1, 2, 3, 4, 5, 3]
    """
    return _from_code(parse_take_break_code(code, hex_ok=True), name)


def octal_game(code: str, name: str | None = None) -> HeapGame:
    """An octal game, "0.77" (Kayles), "0.07" (Dawson's Kayles), "0.137" (Dawson's Chess),
    "4.07", ...: digits 0-7 (see take_break_game for their meaning).  The octal periodicity
    theorem of Guy and Smith (Winning Ways ch. 4) lets period() prove a period.

    Parameters
    ----------
    code : str
        The code, octal digits only.
    name : str, optional
        What to call the game (default: the code).

    Returns
    -------
    HeapGame

    Raises
    ------
    TypeError
        code is not a string.
    ValueError
        Not an octal code.

    >>> octal_game("0.07").nim_values(10).tolist()      # Dawson's Kayles
    [0, 0, 1, 1, 2, 0, 3, 1, 1, 0]
    """
    return _from_code(parse_take_break_code(code, hex_ok=False), name)


def _from_code(parsed: TakeBreakCode, name: str | None) -> HeapGame:
    return HeapGame(name or parsed.code, parsed.digits, parsed.kind, parsed.code)


def subtraction_game(subtraction_set: Iterable[int], name: str | None = None) -> HeapGame:
    """A subtraction game: remove s tokens from a heap, s in a finite set of positive ints
    (Winning Ways ch. 4; its values are ultimately periodic).

    Parameters
    ----------
    subtraction_set : iterable of int
        The amounts a move may remove.
    name : str, optional
        What to call the game.

    Returns
    -------
    HeapGame

    Raises
    ------
    TypeError
        Not an iterable.
    ValueError
        An empty set, or an amount that is not a positive int.

    >>> subtraction_game({1, 3, 4}).nim_values(8).tolist()
    [0, 1, 0, 1, 2, 3, 2, 0]
    """
    try:
        values = sorted(set(subtraction_set))
    except TypeError:
        raise TypeError("a subtraction set is a finite set of positive ints") from None
    if not values:
        raise ValueError("the subtraction set is empty: no move is ever possible")
    for s in values:
        if isinstance(s, bool) or not isinstance(s, (int, np.integer)) or s <= 0:
            raise ValueError(f"subtraction amounts are positive ints, got {s!r}")
    if values[-1] > 1_000_000:
        raise ValueError("subtraction amounts above 10^6 are not supported")
    rules = [0] * (values[-1] + 1)
    for s in values:
        rules[s] = 3  # take s: the heap may vanish or remain
    label = name or "subtraction{" + ",".join(str(s) for s in values) + "}"
    code = "0." + "".join(str(d) for d in rules[1:]) if values[-1] < 40 else label
    return HeapGame(label, rules, "subtraction", code)


def grundy_game() -> HeapGame:
    """Grundy's game: split one heap into two non-empty heaps of different sizes (Winning
    Ways ch. 4).  Its periodicity is an open problem, so period() never claims a proof.

    Returns
    -------
    HeapGame

    >>> grundy_game().nim_values(10).tolist()
    [0, 0, 0, 1, 0, 2, 1, 0, 2, 1]
    """
    return HeapGame("Grundy's game", None, "grundy", "grundy")
