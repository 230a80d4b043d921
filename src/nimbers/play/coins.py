"""A row of coins in play: the coin-turning games of Winning Ways ch. 14."""

from __future__ import annotations

from typing import Any, Sequence

from ..games.turning import NAMED_GAMES, TurningGame
from ..notation import read_coin_move, say_coin_move
from .base import GamePlay


# ---- a row of coins ---------------------------------------------------------------------------


def turning_title(game: TurningGame) -> str:
    if game.name in NAMED_GAMES or game.name.startswith("at-most-"):
        return game.name.replace("-", " ").title() + f" ({game.code})"
    return game.name if game.code is None or game.name != game.code else \
        f"the turning game {game.code}"


class TurningPlay(GamePlay):
    """A coin-turning game on a row of coins (:class:`.TurningGame`): a move lists the coins
    turned, the rightmost of them a head (coins numbered from 0, left to right).

    >>> from nimbers.games.turning import named_game
    >>> TurningPlay(named_game("ruler"), 5).parse("turn 2 3 4", [0, 4])
    [0, 2, 3]
    """

    stuck = "no head can be turned"
    how = "A move turns over coins, the rightmost of them from heads to tails."
    forms = ("Moves (coins are numbered from 0, left to right): the coins to turn, the "
             "rightmost a head:\n  turn 1 4    or  1 4    or  1,4\n"
             "The game's rule says which sets of coins may be turned together.")

    def __init__(self, game: TurningGame, length: int, misere: bool = False) -> None:
        super().__init__(game, turning_title(game), misere)
        self.game = game
        self.length = int(length)

    def show(self, heads: Sequence[int]) -> str:
        hs = set(heads)
        row = "".join("H" if i in hs else "T" for i in range(self.length))
        return f"coins: {row}   (coins 0 to {self.length - 1} from the left)"

    def _sets_at(self, x: int, most: int | None = None) -> list[tuple[int, ...]]:
        out: list[tuple[int, ...]] = []
        for others in self.game.move_sets(x):
            coins = tuple(sorted(others)) + (x,)
            if coins not in out:
                out.append(coins)
            if most is not None and len(out) >= most:
                break
        return out

    def parse(self, text: str, heads: list[int]) -> list[int]:
        return self.turn(read_coin_move(text), heads)

    def turn(self, coins: list[int], heads: list[int]) -> list[int]:
        """The heads after turning these coins (sorted, distinct), or ValueError saying why
        that is not a legal move here."""
        if coins[-1] >= self.length:
            raise ValueError(f"there is no coin {coins[-1]}: coins are numbered 0 to "
                             f"{self.length - 1}")
        x = coins[-1]
        if x not in heads:
            raise ValueError(f"coin {x} is a tail: the rightmost coin turned must be a head "
                             f"(heads: {', '.join(map(str, heads)) or 'none'})")
        legal = self._sets_at(x)
        if not legal:
            raise ValueError(f"{self.name} allows no move at coin {x}")
        if tuple(coins) not in legal:
            shown = "; ".join(" ".join(map(str, s)) for s in legal[:6])
            more = f" (and {len(legal) - 6} more)" if len(legal) > 6 else ""
            raise ValueError(f"{self.name} does not allow turning coins "
                             f"{' '.join(map(str, coins))}: at head {x} it may turn {shown}{more}")
        return sorted(set(heads) ^ set(coins))

    def describe(self, move: Any, heads: Sequence[int]) -> str:
        return say_coin_move(move)

    def _apply(self, move: Any, heads: Sequence[int]) -> list[int]:
        return sorted(set(heads) ^ set(move))

    def _any_move(self, heads: Sequence[int]) -> list[int]:
        for x in reversed(sorted(heads)):
            sets = self._sets_at(x, most=1)
            if sets:
                return list(sets[0])
        raise ValueError("no move is left")
