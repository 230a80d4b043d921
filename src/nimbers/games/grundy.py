"""The old home of the Sprague-Grundy engine and the heap games, kept for one release so that
old imports keep working: the engine now lives in :mod:`.engine`, heap games in :mod:`.heap`,
and :mod:`nimbers.games` has them all.  Each old name warns (DeprecationWarning) when it is
used, not when this module is imported, so that importing it (a doctest collection does)
changes nothing.
"""

from __future__ import annotations

import warnings
from typing import Any

#: the names that moved, by their new module (no ``__all__``: a star import must not warn
#: for every name)
_ENGINE = ("mex", "grundy", "sum_value", "winning_move_in_sum", "CycleError")
_HEAP = ("HeapGame", "Periodicity", "subtraction_game", "octal_game", "take_break_game",
         "grundy_game")


def __getattr__(name: str) -> Any:
    if name not in _ENGINE and name not in _HEAP:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    warnings.warn("nimbers.games.grundy is deprecated: import from nimbers.games "
                  "(the engine is nimbers.games.engine, heap games nimbers.games.heap)",
                  DeprecationWarning, stacklevel=2)
    from . import engine, heap
    return getattr(engine if name in _ENGINE else heap, name)
