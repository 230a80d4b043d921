"""A board of coins in play: Tartan products and Acrostic Twins (Winning Ways ch. 14)."""

from __future__ import annotations

from itertools import product
from typing import Any, Sequence

from ..games.tartan import Tartan
from ..notation import NotationError, read_board_move, read_cell
from .base import GamePlay
from .coins import turning_title


# ---- a board of coins: Tartan products and Acrostic Twins -------------------------------------

_BOARD_ORIENTATION = "row:column, both from 0; row 0 at the top, column 0 on the left"


class _Board(GamePlay):
    """A game on a board of coins: shown as a grid of H and T, moves typed as the coins
    row:column; a subclass reads which coins a typed move turns (``parse``)."""

    stuck = "no head can be turned"
    #: a move, typed, for the messages
    example = "1:2 3:5"

    def __init__(self, game: Any, shape: tuple[int, int], misere: bool = False) -> None:
        super().__init__(game, game.name, misere)
        self.game = game
        self.shape = (int(shape[0]), int(shape[1]))

    def show(self, heads: Sequence[tuple[int, ...]]) -> str:
        hs = set(heads)
        width = len(str(self.shape[1] - 1))
        top = "    " + " ".join(f"{c:>{width}}" for c in range(self.shape[1]))
        lines = [top] + [f"{r:>3} " + " ".join(f"{'H' if (r, c) in hs else 'T':>{width}}"
                                               for c in range(self.shape[1]))
                         for r in range(self.shape[0])]
        return "\n".join(lines)

    def _typed_coins(self, text: str) -> list[tuple[int, int]]:
        """The coins typed, each once, on the board (ValueError with the reason)."""
        typed = read_board_move(text, self.example)
        if len(set(typed)) < len(typed):
            twice = next(c for c in typed if typed.count(c) > 1)
            raise NotationError(f"coin {twice[0]}:{twice[1]} is typed twice: a move turns "
                                "each coin once")
        coins = typed
        rows, cols = self.shape
        for r, c in coins:
            if r >= rows or c >= cols:
                raise ValueError(f"there is no coin {r}:{c}: rows 0 to {rows - 1}, columns 0 to "
                                 f"{cols - 1}")
        return coins

    def _check_head(self, head: tuple[int, int], which: str,
                    heads: Sequence[tuple[int, ...]]) -> None:
        if head not in heads:
            raise ValueError(f"coin {head[0]}:{head[1]}, the {which} of the move, is a tail; "
                             "heads: " + (", ".join(f"{r}:{c}" for r, c in heads) or "none"))

    def _apply(self, move: Any, heads: Sequence[tuple[int, ...]]) -> list[tuple[int, ...]]:
        return sorted(set(heads) ^ {tuple(c) for c in move})

    def _any_move(self, heads: Sequence[tuple[int, ...]]) -> list[tuple[int, ...]]:
        for h in reversed(sorted(heads)):
            for coins in self.game.move_sets(h):
                return list(coins)
        raise ValueError("no move is left")


class BoardPlay(_Board):
    """A Tartan product on a board (:class:`.Tartan`: Turning Corners, Rugs, A x B): a move
    turns the coins R x C of a row move R and a column move C, the bottom-right one a head.
    It is typed as those coins, or as two opposite corners of their rectangle when that
    says which move is meant (always for Turning Corners and Rugs).

    >>> from nimbers.games.catalogue import board_game
    >>> BoardPlay(board_game("turning-corners"), (4, 6)).parse("1:2 3:5", [(3, 5)])
    [(1, 2), (1, 5), (3, 2)]
    """

    forms = (f"Moves ({_BOARD_ORIENTATION}):\n"
             "  1:2 3:5              two opposite corners of the rectangle; the bottom-right "
             "one is a head\n"
             "  1:2 1:5 3:2 3:5      or every coin turned (rows x columns of the factors' moves)")

    def __init__(self, game: Tartan, shape: tuple[int, int], misere: bool = False) -> None:
        if len(game.factors) != 2:
            raise ValueError("play on a board needs a product of two games")
        super().__init__(game, shape, misere)
        rows, cols = (turning_title(f) for f in game.factors)
        self.how = (f"A move turns the coins of a rectangle: rows as {rows} turns coins, "
                    f"columns as {cols}; its bottom-right coin goes from heads to tails.")

    def _axis_sets(self, axis: int, x: int) -> list[tuple[int, ...]]:
        out = []
        for others in self.game.factors[axis].move_sets(x):
            s = tuple(sorted(others)) + (x,)
            if s not in out:
                out.append(s)
        return out

    def _resolve(self, coins: Sequence[tuple[int, ...]]) -> list[tuple[int, ...]]:
        """The move meant by the typed coins: a product R x C typed whole, or its corners."""
        rows = sorted({r for r, _ in coins})
        cols = sorted({c for _, c in coins})
        whole = sorted(product(rows, cols))
        bottom, right = rows[-1], cols[-1]
        corners = {(rows[0], cols[0]), (bottom, right)}, {(rows[0], right), (bottom, cols[0])}
        typed = set(coins)
        if typed != set(whole) and not any(typed == c for c in corners):
            raise ValueError("type every coin of a rectangle's rows x columns, or two opposite "
                             "corners of it, e.g. '1:2 3:5'")
        row_sets = self._axis_choices(0, rows)
        col_sets = self._axis_choices(1, cols)
        for axis, sets, typed_axis in ((0, row_sets, rows), (1, col_sets, cols)):
            if not sets:
                raise ValueError(self._not_a_move(axis, typed_axis))
        if len(row_sets) * len(col_sets) > 1:
            options = [" ".join(f"{r}:{c}" for r, c in product(rs, cs))
                       for rs in row_sets for cs in col_sets][:3]
            raise ValueError("those corners fit several moves: type every coin, e.g. "
                             + " or ".join(repr(o) for o in options))
        return sorted(product(row_sets[0], col_sets[0]))

    def _axis_choices(self, axis: int, typed: list[int]) -> list[tuple[int, ...]]:
        """The factor's move sets ending at the largest typed coordinate: the typed set
        itself when it is one, else (one or two coordinates: corners) those spanning from
        the smallest to the largest."""
        legal = self._axis_sets(axis, typed[-1])
        if tuple(typed) in legal:
            return [tuple(typed)]
        if len(typed) > 2:
            return []
        return [s for s in legal if s[0] == typed[0]]

    def _not_a_move(self, axis: int, typed: list[int]) -> str:
        factor = self.game.factors[axis]
        what = ("row", "column")[axis] + ("s" if len(typed) > 1 else "")
        verb = "are" if len(typed) > 1 else "is"
        legal = self._axis_sets(axis, typed[-1])
        shown = "; ".join(" ".join(map(str, s)) for s in legal[:6]) or "nothing"
        more = f" (and {len(legal) - 6} more)" if len(legal) > 6 else ""
        return (f"the {what} {' '.join(map(str, typed))} {verb} not a move of "
                f"{turning_title(factor)}: ending at {typed[-1]} it may turn {shown}{more}")

    def parse(self, text: str, heads: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
        coins = self._typed_coins(text)
        self._check_head((max(r for r, _ in coins), max(c for _, c in coins)), "bottom-right",
                         heads)
        return self._apply(self._resolve(coins), heads)

    def describe(self, move: Any, heads: Sequence[tuple[int, ...]]) -> str:
        coins = sorted(tuple(c) for c in move)
        rows = sorted({r for r, _ in coins})
        cols = sorted({c for _, c in coins})
        if len(coins) == 1:
            return f"turn {coins[0][0]}:{coins[0][1]} (one coin)"
        typed = f"{rows[0]}:{cols[0]} {rows[-1]}:{cols[-1]}"
        try:
            short = self._resolve([(rows[0], cols[0]), (rows[-1], cols[-1])]) == coins
        except ValueError:
            short = False
        if not short:
            typed = " ".join(f"{r}:{c}" for r, c in coins)
        return (f"turn rows {' '.join(map(str, rows))} x columns {' '.join(map(str, cols))} "
                f"({typed})")


class AcrosticPlay(_Board):
    """Acrostic Twins on a board (:class:`.AcrosticTwins`, Winning Ways ch. 14): a move
    turns two coins in one row or one column, the right (or lower) one a head.  It is typed
    as the two coins.

    >>> from nimbers.games.tartan import acrostic_twins
    >>> game = AcrosticPlay(acrostic_twins(), (4, 6))
    >>> game.parse("1:2 1:5", [(1, 5), (3, 3)])
    [(1, 2), (3, 3)]
    >>> game.describe([(1, 2), (1, 5)], [(1, 5), (3, 3)])
    'turn 1:2 and 1:5, in row 1 (1:2 1:5)'
    """

    example = "1:2 1:5"
    how = ("A move turns two coins in one row or one column; the right (or lower) one goes "
           "from heads to tails.")
    forms = (f"Moves ({_BOARD_ORIENTATION}):\n"
             "  1:2 1:5      two coins in one row: the right one is a head\n"
             "  0:4 3:4      or two coins in one column: the lower one is a head")

    def parse(self, text: str, heads: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
        return self.turn(self._typed_coins(text), heads)

    def turn(self, coins: Sequence[tuple[int, ...]], heads: list[tuple[int, ...]]
             ) -> list[tuple[int, ...]]:
        """The heads after turning these two coins (as data: the web page sends them), or
        ValueError saying why that is not a legal move here."""
        coins = sorted(tuple(c) for c in coins)
        if len(coins) != 2:
            raise ValueError(f"a move of {self.name} turns two coins, in one row or one column "
                             f"(e.g. '{self.example}'); got {len(coins)}")
        (r0, c0), (r1, c1) = coins
        if r0 != r1 and c0 != c1:
            raise ValueError(f"coins {r0}:{c0} and {r1}:{c1} are in neither one row nor one "
                             f"column: a move of {self.name} turns two coins of one row or of "
                             "one column")
        head = (r1, c1)  # of two coins in a line, the later is the right or the lower one
        self._check_head(head, "right one" if r0 == r1 else "lower one", heads)
        if coins not in (sorted(m) for m in self.game.move_sets(head)):
            raise ValueError(f"{self.name} does not allow turning {r0}:{c0} and {r1}:{c1}")
        return self._apply(coins, heads)

    def describe(self, move: Any, heads: Sequence[tuple[int, ...]]) -> str:
        (r0, c0), (r1, c1) = sorted(tuple(c) for c in move)
        line = f"row {r0}" if r0 == r1 else f"column {c0}"
        return f"turn {r0}:{c0} and {r1}:{c1}, in {line} ({r0}:{c0} {r1}:{c1})"


def coins_once(words: Sequence[str], noun: str, why: str,
                example: str | None = None) -> list[tuple[int, int]]:
    """The coins typed, one "row:column" a word, each at most once: heads_2d alone would
    cancel a coin listed twice (the turning convention: turned twice), which a person typing
    a move or a board never means.  A malformed word's error shows ``example`` when given."""
    coins: list[tuple[int, int]] = []
    for w in words:
        try:
            r, c = read_cell(w)
        except NotationError as exc:
            if example is None:
                raise
            raise NotationError(f"{exc} (e.g. '{example}')") from None
        if (r, c) in coins:
            raise ValueError(f"{noun} {r}:{c} is typed twice: {why}")
        coins.append((r, c))
    return coins
