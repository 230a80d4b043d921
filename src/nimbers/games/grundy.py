"""The old home of the Sprague-Grundy engine and the heap games, kept for one release so that
old imports keep working (with a DeprecationWarning): the engine now lives in
:mod:`.engine`, heap games in :mod:`.heap`, and :mod:`nimbers.games` has them all.

>>> octal_game("0.77").nim_values(6).tolist()
[0, 1, 2, 3, 1, 4]
"""

import warnings

from .engine import CycleError, grundy, mex, sum_value, winning_move_in_sum
from .heap import HeapGame, Periodicity, grundy_game, octal_game, subtraction_game, take_break_game

__all__ = ["mex", "grundy", "sum_value", "winning_move_in_sum", "HeapGame", "Periodicity",
           "subtraction_game", "octal_game", "take_break_game", "grundy_game", "CycleError"]

warnings.warn("nimbers.games.grundy is deprecated: import from nimbers.games "
              "(the engine is nimbers.games.engine, heap games nimbers.games.heap)",
              DeprecationWarning, stacklevel=2)
