"""Deprecated: terminal play moved to :mod:`nimbers.play`, on the front floor beside the
command line and the web playground (it reads what people type, which no game needs).

The old names still work for now, each with a DeprecationWarning; the import of the front
floor happens only when an old name is used, so nothing in :mod:`nimbers.games` imports
upwards when it loads.
"""

from __future__ import annotations

import warnings
from typing import Any

#: the names that moved (no ``__all__``: a star import must not trigger every warning)
MOVED = ("play", "setup_game", "say_heap_move", "GamePlay", "NimPlay", "HeapPlay",
         "TurningPlay", "BoardPlay", "AcrosticPlay", "known_games", "MAX_HEAP", "MAX_ROW",
         "MAX_SIDE")


def __getattr__(name: str) -> Any:
    if name not in MOVED:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    warnings.warn(f"nimbers.games.play is deprecated: use nimbers.play.{name}",
                  DeprecationWarning, stacklevel=2)
    from .. import play  # the deprecated alias's one upward reference (see the tests' floors)
    return getattr(play, name)

