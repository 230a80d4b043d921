"""Games by name: a game and its starting position from what a person types."""

from __future__ import annotations

from typing import Any, Sequence

from ..games import catalogue
from ..games.codes import game_key
from ..games.tartan import AcrosticTwins
from ..games.turning import TurningGame
from ..notation import read_numbers, read_row
from .base import GamePlay
from .boards import AcrosticPlay, BoardPlay, coins_once
from .coins import TurningPlay
from .heaps import HeapPlay, NimPlay


# ---- games by name ----------------------------------------------------------------------------

#: the largest positions ``setup_game`` sets up: play is for people, and a move is checked
#: against every move of its heap, head or rectangle
MAX_HEAP, MAX_ROW, MAX_SIDE = 100_000, 20, 16

_DEFAULT_HEAPS = ["3", "5", "7"]
_DEFAULT_ROW = "THHTHTHH"
_DEFAULT_BOARD = ["1:2", "2:3", "3:1"]


def known_games() -> str:
    """The names ``setup_game`` knows, in one line (the catalogue's)."""
    return catalogue.described()


def setup_game(name: str, setup: Sequence[str] = (), misere: bool = False
               ) -> tuple[GamePlay, Any]:
    """A game and its starting position from what a person types: the game's name in the
    literature (or its code) and the position.

    Parameters
    ----------
    name : str
        "nim"; a heap game ("kayles", "dawson's kayles", "dawsons-chess", "grundy", ... or
        a code such as "0.77"); a coin-turning family ("ruler", "mocking-turtles", ... or a
        code such as "1-3C(5)"); a board ("turning-corners", "rugs", or "A x B" for the
        Tartan product of two coin-turning games; "acrostic-twins").  The older forms "octal CODE HEAPS..."
        and "turning GAME ROW" still work.
    setup : sequence of str
        Pile or heap sizes ("3", "5", "7": the default), a row of coins ("THHTH"; default
        THHTHTHH), or heads on a board as row:column ("1:2", "3:5"; default 1:2 2:3 3:1).
    misere : bool
        The misère rule: whoever moves last loses.

    Raises
    ------
    ValueError
        an unknown name, or a position that does not fit the game or is larger than play
        takes (heaps of 100,000 tokens, rows of 20 coins, boards of 16 x 16).

    >>> game, heaps = setup_game("dawson's chess", ["4", "6"], misere=True)
    >>> game.name, heaps, game.misere
    ("Dawson's Chess (0.137)", [4, 6], True)
    >>> setup_game("turning-corners", ["3:5"])[1]
    [(3, 5)]
    >>> setup_game("Acrostic Twins", ["1:2", "3:3"], misere=True)[0].name
    'Acrostic Twins'
    """
    key = game_key(name)
    setup = list(setup)
    if key in ("octal", "heap", "take-break"):
        if len(setup) < 2:  # the older form: a code and the heaps, both given
            raise ValueError(f"play {key} needs a code, then heap sizes, e.g. 'play {key} 0.77 "
                             "3 5' (or by name, with heaps 3 5 7 by default: 'play kayles')")
        return setup_game(setup[0], setup[1:], misere)
    if key == "turning":
        if not setup:
            raise ValueError("play turning needs a game, then a row like THHTH, e.g. ruler THHTH")
        return setup_game(setup[0], setup[1:], misere)
    kind = catalogue.family(name)
    if kind == "nim":
        return NimPlay(misere), _sizes(setup or _DEFAULT_HEAPS, "pile")
    if kind == "board":
        return _board(name, setup, misere)
    if kind == "heap":
        return HeapPlay(catalogue.heap_game(name), misere), \
            _sizes(setup or _DEFAULT_HEAPS, "heap")
    return _row(catalogue.turning_game(name), setup, misere)


def _sizes(words: Sequence[str], what: str) -> list[int]:
    return read_numbers(words, f"{what} sizes", most=MAX_HEAP)


def _row(game: TurningGame, setup: Sequence[str], misere: bool) -> tuple[GamePlay, Any]:
    row = "".join(setup) if setup else _DEFAULT_ROW
    heads = read_row(row)
    if len(row) > MAX_ROW:
        raise ValueError(f"a row here has at most {MAX_ROW} coins, got {len(row)}")
    return TurningPlay(game, len(row), misere), heads


def _board(name: str, setup: Sequence[str], misere: bool) -> tuple[GamePlay, Any]:
    game = catalogue.board_game(name)
    typed = [w for part in (setup or _DEFAULT_BOARD) for w in part.replace(",", " ").split()]
    heads = sorted(coins_once(typed, "head", "list each head once"))
    if not heads:
        raise ValueError("give at least one head, as row:column")
    shape = (max(r for r, _ in heads) + 1, max(c for _, c in heads) + 1)
    if max(shape) > MAX_SIDE:
        raise ValueError(f"a board here has at most {MAX_SIDE} rows and columns (rows and "
                         f"columns 0 to {MAX_SIDE - 1}), got {shape[0]} x {shape[1]}")
    if isinstance(game, AcrosticTwins):
        return AcrosticPlay(game, shape, misere), heads
    return BoardPlay(game, shape, misere), heads
