"""Impartial games, one module per concept:

* :mod:`.codes` -- the literature's codes (take-and-break digits, turning-code terms) as data;
* :mod:`.vocabulary` -- the one vocabulary every ruleset answers (a typing.Protocol);
* :mod:`.engine` -- the Sprague-Grundy engine for any finite impartial game (mex, sums,
  misère values, :class:`ImpartialGame`);
* :mod:`.misere` -- the genus, tame games and their Nim-like rule;
* :mod:`.quotient` -- misère quotients of heap games (Plambeck and Siegel);
* :mod:`.nim` -- Nim: the nim-sum rule, misère Nim, dynamic-programming solvers;
* :mod:`.heap` -- heap games (subtraction, octal, take-and-break, Grundy's game), periodicity;
* :mod:`.subset_sums` -- which nim-sums j distinct values reach (for "any coins" rules);
* :mod:`.positions` -- rows and boards of coins as people write them;
* :mod:`.turning` -- coin-turning games by turning code, the named families;
* :mod:`.tartan` -- their products (Turning Corners, Rugs, ...) and Acrostic Twins;
* :mod:`.theorems` -- the Mock Turtle and Tartan theorems, checked with evidence;
* :mod:`.play` -- playing against the computer in a terminal.

(:mod:`.grundy` is the old home of the engine and heap games, kept for old imports.)

>>> from nimbers.games import octal_game, named_game, turning_corners
>>> octal_game("0.77").nim_value([1, 2]), named_game("ruler").nim_value(7)
(3, 8)
>>> turning_corners().nim_value((2, 3))
1
"""

import sys
import types
from typing import Any

from .codes import TakeBreakCode, Term, parse_take_break_code, parse_turning_code
from .engine import (CycleError, ImpartialGame, grundy, mex, misere_grundy, sum_value,
                     winning_move_in_sum)
from .heap import (HeapGame, HeapStats, Periodicity, grundy_game, octal_game, subtraction_game,
                   take_break_game)
from .catalogue import heap_game
from .catalogue import heap_game_from_code  # noqa: F401  (deprecated: heap_game, for old code)
from .misere import Genus, genus_of, is_tame_genus, tame_sum
from .nim import Move, Nim, NimSolution, nim_sum, solve_bottom_up, solve_memo, winning_moves
from .positions import heads_2d, heads_of
from .quotient import MisereQuotient, misere_quotient
from .tartan import AcrosticTwins, Tartan, acrostic_twins, rugs, tartan, turning_corners
from .theorems import Evidence, mock_turtle_theorem, tartan_theorem
from .turning import CLOSED_FORMS, NAMED_GAMES, TurningGame, closed_form, named_game, odious
from .vocabulary import ComponentRuleset, Ruleset

__all__ = ["TakeBreakCode", "Term", "parse_take_break_code", "parse_turning_code",
           "CycleError", "ImpartialGame", "grundy", "mex", "misere_grundy", "sum_value",
           "winning_move_in_sum", "Genus", "genus_of", "is_tame_genus", "tame_sum",
           "HeapGame", "HeapStats", "Periodicity", "grundy_game", "heap_game", "octal_game",
           "subtraction_game", "take_break_game",
           "Move", "Nim", "NimSolution", "nim_sum", "solve_bottom_up", "solve_memo", "winning_moves",
           "heads_2d", "heads_of", "MisereQuotient", "misere_quotient",
           "AcrosticTwins", "Tartan", "acrostic_twins", "rugs", "tartan", "turning_corners",
           "CLOSED_FORMS", "NAMED_GAMES", "TurningGame", "closed_form", "named_game", "odious",
           "Evidence", "mock_turtle_theorem", "tartan_theorem", "Ruleset", "ComponentRuleset"]


class _GamesPackage(types.ModuleType):
    """``nimbers.games``, whose name ``grundy`` stays the engine's function.  Python binds a
    submodule to its package's attribute when it is first imported, so importing the old
    submodule ``nimbers.games.grundy`` (kept for old imports) would otherwise turn
    ``nimbers.games.grundy`` into that module for everyone."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "grundy" and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _GamesPackage
