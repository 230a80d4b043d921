"""Coin-turning games in two (and more) dimensions, and the Tartan theorem.

A 2-D game is played on a grid of coins (row a, column b, both from 0); a move turns a set
of coins whose bottom-right coin (largest row and column) goes from heads to tails.  The
product game A x B turns the coins R x C, for R a move of A in the rows and C a move of B in
the columns.  The Tartan theorem (Winning Ways, ch. 14): G(a, b) = G_A(a) (x) G_B(b), the
nim-product.  Higher dimensions multiply the same way.

>>> corners = turning_corners()            # Twins x Twins: G(a, b) = a (x) b
>>> corners.nim_value((5, 11))
12
>>> acrostic_twins().nim_value((5, 11))    # G(a, b) = a (+) b
14
"""

from __future__ import annotations

import warnings
from itertools import product
from typing import Any, Hashable, Iterator

import numpy as np

from ..arith import nim_add, nim_div, nim_mul
from .positions import heads_2d
from .turning import TurningGame, named_game
from .vocabulary import MisereByEngine, deprecated_alias

__all__ = ["Tartan", "tartan", "turning_corners", "rugs", "acrostic_twins", "AcrosticTwins",
           "heads_2d"]


class Tartan(MisereByEngine):
    """The product of one-dimensional coin-turning games (two or more factors), in the
    common vocabulary (:mod:`.vocabulary`).  A position is a set of heads, each a tuple of
    coordinates; one coin may be given as one tuple.

    Values come from the Tartan theorem, never from a search: the nim-product of the
    factors' values, each from its closed form when it has one, so any coordinates work.

    >>> corners = turning_corners()
    >>> corners.nim_value((5, 11)), corners.nim_value([(5, 11), (2, 2)])
    (12, 15)
    >>> corners.nim_value((10**9, 10**9))
    592324811
    """

    def __init__(self, *factors: TurningGame, name: str | None = None) -> None:
        if len(factors) < 2:
            raise ValueError("a Tartan product needs at least two games")
        for f in factors:
            if not isinstance(f, TurningGame):
                raise TypeError(f"Tartan factors are TurningGame objects, not {type(f).__name__}")
        self.factors = factors
        self.name = name or " x ".join(f.name for f in factors)
        self._misere_cache: dict[Hashable, int] = {}

    def __repr__(self) -> str:
        return f"<Tartan {self.name}>"

    def _heads(self, position: Any) -> list[tuple[int, ...]]:
        if isinstance(position, tuple) and position and all(
                isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in position):
            position = [position]  # one coin
        return heads_2d(position, len(self.factors))

    def _coin_value(self, coords: tuple[int, ...]) -> int:
        v = 1
        for f, x in zip(self.factors, coords):
            v = nim_mul(v, f._value_at(x))
        return v

    def nim_value(self, position: Any) -> int:
        """The nim-sum over the heads of the nim-product of the factors' values (the Tartan
        theorem).

        Parameters
        ----------
        position : str or iterable of tuples
            "a:b,c:d" text, heads as coordinate tuples, or one tuple for one coin.

        Returns
        -------
        int

        >>> rugs().nim_value((3, 5))        # Ruler x Ruler: 4 (x) 2
        8
        """
        total = 0
        for h in self._heads(position):
            total ^= self._coin_value(h)
        return total

    def nim_values(self, *shape: int) -> np.ndarray:
        """The array of G over a board of the given shape, by the vectorized nim-product.

        Parameters
        ----------
        *shape : int
            One size per factor.

        Returns
        -------
        numpy.ndarray

        Raises
        ------
        ValueError
            Not one size per factor.

        >>> turning_corners().nim_values(4, 4).tolist()
        [[0, 0, 0, 0], [0, 1, 2, 3], [0, 2, 3, 1], [0, 3, 1, 2]]
        """
        if len(shape) != len(self.factors):
            raise ValueError(f"{self.name} needs {len(self.factors)} sizes")
        table = self.factors[0].nim_values(shape[0])
        for f, n in zip(self.factors[1:], shape[1:]):
            table = nim_mul.outer(table, f.nim_values(n))
        return table

    def is_losing(self, position: Any, misere: bool = False) -> bool:
        """True when the player to move loses with best play (the value is 0).

        Parameters
        ----------
        position : str or iterable of tuples
            As for :meth:`nim_value`.
        misere : bool
            True: whoever turns the last coin loses (searched: small boards only).

        Returns
        -------
        bool

        >>> turning_corners().is_losing("1:1,2:3")       # 1 (+) (2 (x) 3 = 1)
        True
        """
        if misere:
            return self.misere_nim_value(position) == 0
        return self.nim_value(position) == 0

    def winning_move(self, position: Any, misere: bool = False) -> list[tuple[int, ...]] | None:
        """The coins to turn for a move to a 0 position, or None when there is none.

        Found by solving u (x) v = target with nim division, not by a search over all
        rectangles: at a head whose value drops under the target, for each move value v of the
        last factor, u = target / v must be a move value of the rest; then u and v are made
        into coin sets by the one-dimensional games.

        Parameters
        ----------
        position : str or iterable of tuples
            As for :meth:`nim_value`.
        misere : bool
            True: whoever turns the last coin loses (searched: small boards only).

        Returns
        -------
        list of tuple of int or None
            The coins to turn, sorted, or None when every move loses.

        >>> turning_corners().winning_move("3:5,2:2")
        [(0, 1), (0, 5), (3, 1), (3, 5)]
        """
        if misere:
            move: list[tuple[int, ...]] | None = self._misere_winning_move(position)
            return move
        heads = self._heads(position)
        total = self.nim_value(heads)
        if total == 0:
            return None
        for h in heads:
            g = self._coin_value(h)
            if g ^ total >= g:
                continue
            sets = self._realise(h, total)
            if sets is not None:
                return sorted(product(*sets))
        raise AssertionError("Tartan theorem: a non-zero position has a winning move")

    def move_sets(self, head: tuple[int, ...]) -> Iterator[list[tuple[int, ...]]]:
        """Every set of coins a move at head may turn (the head included): the products of
        the factors' coin sets.

        Parameters
        ----------
        head : tuple of int

        Returns
        -------
        iterator of list of tuple of int

        >>> list(turning_corners().move_sets((1, 1)))
        [[(0, 0), (0, 1), (1, 0), (1, 1)]]
        """
        per_factor = [[tuple(sorted(s)) + (x,) for s in f.move_sets(x)]
                      for f, x in zip(self.factors, head)]
        for sets in product(*per_factor):
            yield sorted(product(*sets))

    def _described_moves(self, position: Any) -> Iterator[tuple[list[tuple[int, ...]], tuple[tuple[int, ...], ...]]]:
        heads = set(self._heads(position))
        for h in sorted(heads):
            for coins in self.move_sets(h):
                yield coins, tuple(sorted(heads.symmetric_difference(coins)))

    def _canonical(self, position: Any) -> tuple[tuple[int, ...], ...]:
        return tuple(self._heads(position))

    def _misere_budget(self, position: Any) -> None:
        heads = self._heads(position)
        if not heads:
            return
        sides = [max(h[axis] for h in heads) + 1 for axis in range(len(self.factors))]
        _check_misere_board(self.name, sides)

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

    # -- the old names, for one release --
    def value(self, *coords: int) -> int:
        """Deprecated: nim_value(coords)."""
        warnings.warn("value(*coords) is deprecated: use nim_value(coords)",
                      DeprecationWarning, stacklevel=2)
        if len(coords) != len(self.factors):
            raise ValueError(f"{self.name} needs {len(self.factors)} coordinates")
        return self.nim_value(tuple(coords))

    values = deprecated_alias(nim_values, "values")
    position_value = deprecated_alias(nim_value, "position_value")


def _coins(game: TurningGame, x: int, move_value: int) -> tuple[int, ...]:
    """The coins of a move at x whose whole set has the given value."""
    others = game.realise(x, game.nim_value(x) ^ move_value)
    assert others is not None
    return tuple(sorted(others)) + (x,)


def tartan(*factors: TurningGame | str, name: str | None = None) -> Tartan:
    """The Tartan product of 1-D games (Winning Ways ch. 14): a move turns the product of a
    move of each factor; G is the nim-product of the factors' values.

    Parameters
    ----------
    *factors : TurningGame or str
        Two or more games, as objects, family names or turning codes.
    name : str, optional
        What to call the product.

    Returns
    -------
    Tartan

    Raises
    ------
    ValueError
        Fewer than two factors, or an unknown name.

    >>> tartan("ruler", "ruler").nim_value((3, 5))       # Rugs: 4 (x) 2
    8
    """
    games = [f if isinstance(f, TurningGame) else named_game(f) for f in factors]
    return Tartan(*games, name=name)


def turning_corners() -> Tartan:
    """Turning Corners: turn the four corners of a rectangle = Twins x Twins, so with rows
    and columns from 0, G(a, b) = a (x) b: the nim-multiplication table (Winning Ways
    ch. 14; ONAG ch. 6).

    Returns
    -------
    Tartan

    >>> turning_corners().nim_value((2, 3))         # 2 (x) 3
    1
    """
    return tartan("twins", "twins", name="Turning Corners")


def rugs() -> Tartan:
    """Rugs: turn any rectangle of coins = Ruler x Ruler (Winning Ways ch. 14).

    Returns
    -------
    Tartan

    >>> rugs().nim_value((1, 3))                    # 2 (x) 4
    8
    """
    return tartan("ruler", "ruler", name="Rugs")


class AcrosticTwins(MisereByEngine):
    """Acrostic Twins: turn two coins in the same row or in the same column (the rightmost
    or lowest one a head).  G(a, b) = a (+) b with rows and columns from 0.  It is not a
    Tartan product: rows and columns are games of their own.

    >>> acrostic_twins().nim_value((5, 11)), acrostic_twins().winning_move("5:11")
    (14, [(5, 5), (5, 11)])
    """

    name = "Acrostic Twins"

    def __init__(self) -> None:
        self._misere_cache: dict[Hashable, int] = {}

    def _heads(self, position: Any) -> list[tuple[int, int]]:
        if isinstance(position, tuple) and len(position) == 2 and all(
                isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in position):
            position = [position]
        return [(a, b) for a, b in heads_2d(position)]

    def nim_value(self, position: Any) -> int:
        """The nim-sum of a (+) b over the heads (a, b).

        Parameters
        ----------
        position : str or iterable of tuples
            "a:b,c:d" text, heads as (row, column) pairs, or one pair for one coin.

        Returns
        -------
        int

        >>> acrostic_twins().nim_value("1:2,3:3")
        3
        """
        total = 0
        for a, b in self._heads(position):
            total ^= a ^ b
        return total

    def nim_values(self, n: int, m: int) -> np.ndarray:
        """The n x m table of a (+) b.

        Parameters
        ----------
        n, m : int
            Rows and columns.

        Returns
        -------
        numpy.ndarray

        >>> acrostic_twins().nim_values(2, 3).tolist()
        [[0, 1, 2], [1, 0, 3]]
        """
        return nim_add.outer(np.arange(n, dtype=np.uint64), np.arange(m, dtype=np.uint64))

    def is_losing(self, position: Any, misere: bool = False) -> bool:
        """True when the player to move loses with best play (the value is 0).

        Parameters
        ----------
        position : str or iterable of tuples
            "a:b,c:d" text, heads as (row, column) pairs, or one pair for one coin.
        misere : bool
            True: whoever turns the last coin loses (searched: boards up to 4 x 4).

        Returns
        -------
        bool

        >>> acrostic_twins().is_losing("1:2,2:1")
        True
        """
        if misere:
            return self.misere_nim_value(position) == 0
        return self.nim_value(position) == 0

    def winning_move(self, position: Any, misere: bool = False) -> list[tuple[int, int]] | None:
        """Two coins in a row or a column whose turning makes the value 0.

        Parameters
        ----------
        position : str or iterable of tuples
            "a:b,c:d" text, heads as (row, column) pairs, or one pair for one coin.
        misere : bool
            True: whoever turns the last coin loses (searched: boards up to 4 x 4).

        Returns
        -------
        list of (int, int) or None
            The two coins, sorted, or None when every move loses.

        >>> acrostic_twins().winning_move("1:2")
        [(1, 1), (1, 2)]
        """
        if misere:
            move: list[tuple[int, int]] | None = self._misere_winning_move(position)
            return move
        heads = self._heads(position)
        total = self.nim_value(heads)
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

    def move_sets(self, head: tuple[int, int]) -> Iterator[list[tuple[int, int]]]:
        """The two-coin sets a move at head may turn.

        Parameters
        ----------
        head : (int, int)

        Returns
        -------
        iterator of list of (int, int)

        >>> list(acrostic_twins().move_sets((1, 1)))
        [[(0, 1), (1, 1)], [(1, 0), (1, 1)]]
        """
        a, b = head
        for x in range(a):
            yield [(x, b), (a, b)]
        for y in range(b):
            yield [(a, y), (a, b)]

    def _described_moves(self, position: Any) -> Iterator[tuple[list[tuple[int, int]], tuple[tuple[int, int], ...]]]:
        heads = set(self._heads(position))
        for h in sorted(heads):
            for coins in self.move_sets(h):
                yield coins, tuple(sorted(heads.symmetric_difference(coins)))

    def _canonical(self, position: Any) -> tuple[tuple[int, int], ...]:
        return tuple(self._heads(position))

    def _misere_budget(self, position: Any) -> None:
        heads = self._heads(position)
        if heads:
            _check_misere_board("Acrostic Twins",
                                [max(a for a, _ in heads) + 1, max(b for _, b in heads) + 1])

    # -- the old names, for one release --
    def value(self, a: int, b: int) -> int:
        """Deprecated: nim_value((a, b))."""
        warnings.warn("value(a, b) is deprecated: use nim_value((a, b))", DeprecationWarning,
                      stacklevel=2)
        return self.nim_value((a, b))

    values = deprecated_alias(nim_values, "values")
    position_value = deprecated_alias(nim_value, "position_value")


def acrostic_twins() -> AcrosticTwins:
    """Acrostic Twins (Winning Ways ch. 14): G(a, b) = a (+) b.

    Returns
    -------
    AcrosticTwins

    >>> acrostic_twins().nim_value((3, 5))
    6
    """
    return AcrosticTwins()


#: the most coins a misère search of a board covers (2^16 positions)
MISERE_BOARD_COINS = 16


def _check_misere_board(name: str, sides: list[int]) -> None:
    """Refuses a misère search of a board past MISERE_BOARD_COINS, naming the board."""
    cells = 1
    for side in sides:
        cells *= side
    if cells > MISERE_BOARD_COINS:
        board = " x ".join(map(str, sides))
        raise ValueError(f"misère play of {name} on a board of {cells} coins ({board}) would "
                         f"search 2^{cells} positions; the limit is {MISERE_BOARD_COINS} coins "
                         "(4 x 4)")
