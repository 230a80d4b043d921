"""Heap games: a move changes one heap of tokens (subtraction games, octal and take-and-break
games, Grundy's game), their Grundy sequences and their periodicity.

The Python side of the C heap engine (csrc/core/heap.c), one module per concern:

- :mod:`.rules`: the ruleset (the digit list of its take-and-break code, Winning Ways ch. 4);
- :mod:`.values`: the values, computed in C (the sparse-space method of Winning Ways ch. 4 and
  Gangolli & Plambeck 1989 where it pays) and kept, and the search for a proven period;
- :mod:`.periodicity`: what a proof is (the octal periodicity theorem of Guy and Smith, the
  window argument of subtraction games) and the result as a value;
- :mod:`.misere_play`: misère values and genera; :mod:`.stats`: the sparse space's statistics;
  :mod:`.storage`: saving and resuming;
- :mod:`.game`: :class:`HeapGame`, which answers the common vocabulary from those parts;
- :mod:`.rulesets`: the games by code and by name.

>>> kayles = octal_game("0.77")
>>> kayles.nim_values(12).tolist()
[0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]
>>> kayles.period()
Periodicity(period=12, preperiod=71, proven=True, checked_up_to=...)
"""

from .game import HeapGame
from .misere_play import MISERE_SEARCH_TOKENS
from .periodicity import GUY_SMITH, WINDOW, Periodicity
from .rulesets import grundy_game, octal_game, subtraction_game, take_break_game
from .stats import HeapStats

__all__ = ["HeapGame", "HeapStats", "Periodicity", "subtraction_game", "octal_game",
           "take_break_game", "grundy_game", "MISERE_SEARCH_TOKENS",
           "GUY_SMITH", "WINDOW"]
