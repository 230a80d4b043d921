"""Playing a game against the computer in a terminal, in the literature's words.

The loop shows the position, reads a move typed as the literature writes it ("take 2 from
heap 3", "3:2", the coins turned, the corners of a rectangle, two coins of a row), rejects
an illegal or malformed one with a one-line reason saying what is legal, answers with a
perfect move and, at the end, says who won and why.  ``help`` prints the move forms with an example from the
position on the board, ``hint`` the position's value and a winning move, ``q`` (or the end
of input, or Ctrl-C) quits.  Every game is played under the normal rule (whoever moves last
wins) or the misère rule (whoever moves last loses; Winning Ways ch. 13).

The rules come from the ruleset alone, through the common vocabulary (:class:`.Ruleset`:
``nim_value``, ``misere_nim_value``, ``is_losing``, ``winning_move``, ``moves``); the
classes here add only the notation: how a position is shown, how a typed move is read, and
how the ruleset's ``winning_move`` is said.

>>> game, position = setup_game("kayles", ["3", "4"])
>>> game.name
'Kayles (0.77)'
>>> game.hint(position)
'value 2 (an N-position): a winning move is take 2 from heap 0, leaving 1 (0:2)'
>>> game.parse("take 1 from heap 1 leaving 1 and 2", position)
[3, 1, 2]
"""

from __future__ import annotations

from ..notation import say_heap_move
from .base import GamePlay
from .boards import AcrosticPlay, BoardPlay
from .coins import TurningPlay
from .heaps import HeapPlay, NimPlay
from .loop import play
from .setup import MAX_HEAP, MAX_ROW, MAX_SIDE, known_games, setup_game

__all__ = ["play", "setup_game", "known_games", "say_heap_move", "GamePlay", "NimPlay",
           "HeapPlay", "TurningPlay", "BoardPlay", "AcrosticPlay", "MAX_HEAP", "MAX_ROW",
           "MAX_SIDE"]
