"""Coin-turning games in two (and more) dimensions, and the Tartan theorem.

A 2-D game is played on a grid of coins (row a, column b, both from 0); a move turns a set
of coins whose bottom-right coin (largest row and column) goes from heads to tails.  The
product game A x B turns the coins R x C, for R a move of A in the rows and C a move of B in
the columns.  The Tartan theorem (turning-games reference): G(a, b) = G_A(a) (x) G_B(b), the
nim-product.  Higher dimensions multiply the same way.

>>> corners = turning_corners()            # Twins x Twins: G(a, b) = a (x) b
>>> corners.value(5, 11)
12
>>> acrostic_twins().value(5, 11)          # G(a, b) = a (+) b
14
"""

from __future__ import annotations

from itertools import product
from typing import Any

import numpy as np

from ..arith import nim_add, nim_div, nim_mul
from .positions import heads_2d
from .turning import TurningGame, named_game

__all__ = ["Tartan", "tartan", "turning_corners", "rugs", "acrostic_twins", "AcrosticTwins",
           "heads_2d"]


class Tartan:
    """The product of one-dimensional coin-turning games (two or more factors)."""

    def __init__(self, *factors: TurningGame, name: str | None = None) -> None:
        if len(factors) < 2:
            raise ValueError("a Tartan product needs at least two games")
        for f in factors:
            if not isinstance(f, TurningGame):
                raise TypeError(f"Tartan factors are TurningGame objects, not {type(f).__name__}")
        self.factors = factors
        self.name = name or " x ".join(f.name for f in factors)

    def __repr__(self) -> str:
        return f"<Tartan {self.name}>"

    def value(self, *coords: int) -> int:
        """G at one coin: the nim-product of the factors' values (the Tartan theorem)."""
        if len(coords) != len(self.factors):
            raise ValueError(f"{self.name} needs {len(self.factors)} coordinates")
        v = 1
        for f, x in zip(self.factors, coords):
            v = nim_mul(v, f.value(x))
        return v

    def values(self, *shape: int) -> np.ndarray:
        """The array of G over a board of the given shape, by the vectorized nim-product.

        >>> turning_corners().values(4, 4).tolist()
        [[0, 0, 0, 0], [0, 1, 2, 3], [0, 2, 3, 1], [0, 3, 1, 2]]
        """
        if len(shape) != len(self.factors):
            raise ValueError(f"{self.name} needs {len(self.factors)} sizes")
        table = self.factors[0].values(shape[0])
        for f, n in zip(self.factors[1:], shape[1:]):
            table = nim_mul.outer(table, f.values(n))
        return table

    def position_value(self, position: Any) -> int:
        """The nim-sum of G over the heads."""
        total = 0
        for h in heads_2d(position, len(self.factors)):
            total ^= self.value(*h)
        return total

    def is_losing(self, position: Any) -> bool:
        """True when the player to move loses with best play (the value is 0)."""
        return self.position_value(position) == 0

    def winning_move(self, position: Any) -> list[tuple[int, ...]] | None:
        """The coins to turn for a move to a 0 position, or None when there is none.

        Found by solving u (x) v = target with nim division, not by a search over all
        rectangles: at a head whose value drops under the target, for each move value v of the
        last factor, u = target / v must be a move value of the rest; then u and v are made
        into coin sets by the one-dimensional games."""
        heads = heads_2d(position, len(self.factors))
        total = 0
        for h in heads:
            total ^= self.value(*h)
        if total == 0:
            return None
        for h in heads:
            g = self.value(*h)
            if g ^ total >= g:
                continue
            sets = self._realise(h, total)
            if sets is not None:
                return sorted(product(*sets))
        raise AssertionError("Tartan theorem: a non-zero position has a winning move")

    def _realise(self, head: tuple[int, ...], target: int) -> list[tuple[int, ...]] | None:
        """Coin sets S_i (each ending at head[i]) whose product's value is target."""
        *rest, last = self.factors
        *rest_coords, x = head
        for v in sorted(last.move_values(x)):
            u = nim_div(target, v)
            sets_rest: list[tuple[int, ...]] | None
            if len(rest) == 1:
                if u not in rest[0].move_values(rest_coords[0]):
                    continue
                sets_rest = [_coins(rest[0], rest_coords[0], u)]
            else:
                sets_rest = Tartan(*rest)._realise(tuple(rest_coords), u)
                if sets_rest is None:
                    continue
            return sets_rest + [_coins(last, x, v)]
        return None


def _coins(game: TurningGame, x: int, move_value: int) -> tuple[int, ...]:
    """The coins of a move at x whose whole set has the given value."""
    others = game.realise(x, game.value(x) ^ move_value)
    assert others is not None
    return tuple(sorted(others)) + (x,)


def tartan(*factors: TurningGame | str, name: str | None = None) -> Tartan:
    """The Tartan product of 1-D games (TurningGame objects, family names or codes).

    >>> tartan("ruler", "ruler").value(3, 5)       # Rugs: 4 (x) 2
    8
    """
    games = [f if isinstance(f, TurningGame) else named_game(f) for f in factors]
    return Tartan(*games, name=name)


def turning_corners() -> Tartan:
    """Turning Corners: turn the four corners of a rectangle = Twins x Twins, so with rows
    and columns from 0, G(a, b) = a (x) b: the nim-multiplication table."""
    return tartan("twins", "twins", name="Turning Corners")


def rugs() -> Tartan:
    """Rugs: turn any rectangle of coins = Ruler x Ruler."""
    return tartan("ruler", "ruler", name="Rugs")


class AcrosticTwins:
    """Acrostic Twins: turn two coins in the same row or in the same column (the rightmost
    or lowest one a head).  G(a, b) = a (+) b with rows and columns from 0.  It is not a
    Tartan product: rows and columns are games of their own."""

    name = "Acrostic Twins"

    def value(self, a: int, b: int) -> int:
        return nim_add(a, b)

    def values(self, n: int, m: int) -> np.ndarray:
        return nim_add.outer(np.arange(n, dtype=np.uint64), np.arange(m, dtype=np.uint64))

    def position_value(self, position: Any) -> int:
        total = 0
        for a, b in heads_2d(position):
            total ^= a ^ b
        return total

    def is_losing(self, position: Any) -> bool:
        """True when the player to move loses with best play (the value is 0)."""
        return self.position_value(position) == 0

    def winning_move(self, position: Any) -> list[tuple[int, int]] | None:
        """Two coins in a row or a column whose turning makes the value 0, or None."""
        heads = heads_2d(position)
        total = self.position_value(heads)
        if total == 0:
            return None
        for a, b in heads:
            g = a ^ b
            want = g ^ total  # the other coin's value must be this, and below g
            if want >= g:
                continue
            if (want ^ b) < a:  # same column b, an earlier row
                return sorted([(want ^ b, b), (a, b)])
            if (want ^ a) < b:  # same row a, an earlier column
                return sorted([(a, want ^ a), (a, b)])
        raise AssertionError("a non-zero position has a winning move")


def acrostic_twins() -> AcrosticTwins:
    return AcrosticTwins()
