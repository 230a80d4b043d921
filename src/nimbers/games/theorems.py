"""The theorems of coin-turning games, checked on demand: each function computes both sides
from the definitions and returns the evidence, never just a yes.

* The Mock Turtle theorem (Winning Ways ch. 14): every value of "turn 1 to 2m+1 coins" is
  odious, and with coins from 0 the values of "turn 1 to 2m coins" are those of "turn 1 to
  2m+1 coins" at the next coin, halved: G_2m(x) = floor(G_2m+1(x + 1) / 2).  (The
  blog "On nim multiplication and some related games" states it with the same index, which is false; see its errata.)
* The Tartan theorem (Winning Ways ch. 14; ONAG ch. 14): the value of a coin of the product
  game A x B is the nim-product G_A(a) (x) G_B(b).

>>> evidence = mock_turtle_theorem(2, 200)      # Moebius (1-5) and 1-4
>>> evidence.holds, evidence.checked
(True, 'coins 0 .. 199')
>>> bool(tartan_theorem("ruler", "mocking-turtles", 6, 6))
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .engine import mex
from .tartan import Tartan, tartan
from .turning import TurningGame, odious

__all__ = ["Evidence", "mock_turtle_theorem", "tartan_theorem"]


@dataclass(frozen=True)
class Evidence:
    """What was checked and what was found: holds is False exactly when counterexample
    names a case where the statement fails."""

    theorem: str
    holds: bool
    checked: str
    counterexample: Any = None

    def __bool__(self) -> bool:
        return self.holds


def mock_turtle_theorem(m: int, n: int) -> Evidence:
    """Checks the Mock Turtle theorem for "turn 1 to 2m+1 coins" on coins 0 .. n-1, both
    games computed by the engine (never by a closed form).

    Parameters
    ----------
    m : int
        m >= 1: the games 1-2m and 1-(2m+1) (m = 1: Turning Turtles and Mocking Turtles;
        m = 2: Moebius; m = 3: Mogul; m = 4: Gold Moidores).
    n : int
        How many coins.

    Returns
    -------
    Evidence
        counterexample: (coin, the value found, the value the theorem says).

    Raises
    ------
    ValueError
        m < 1 or n < 1.

    >>> mock_turtle_theorem(1, 50)
    Evidence(theorem='Mock Turtle (m = 1)', holds=True, checked='coins 0 .. 49', counterexample=None)
    """
    for label, v, least in (("m", m, 1), ("n", n, 1)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < least:
            raise ValueError(f"{label} must be an int >= {least}, got {v!r}")
    odd = TurningGame(f"1-{2 * m + 1}").engine_values(n + 1).tolist()
    even = TurningGame(f"1-{2 * m}").engine_values(n).tolist()
    name = f"Mock Turtle (m = {m})"
    for x in range(n):
        if not odious(odd[x]):
            return Evidence(name, False, f"coins 0 .. {x}", (x, odd[x], "an odious value"))
        if even[x] != odd[x + 1] // 2:
            return Evidence(name, False, f"coins 0 .. {x}", (x, even[x], odd[x + 1] // 2))
    return Evidence(name, True, f"coins 0 .. {n - 1}")


def tartan_theorem(a: TurningGame | str, b: TurningGame | str, rows: int, cols: int) -> Evidence:
    """Checks the Tartan theorem for A x B on a rows x cols board: the product game's values
    from the definition (mex over its moves) against the nim-products of the factors'.

    Parameters
    ----------
    a, b : TurningGame or str
        The factors (games, family names or turning codes).
    rows, cols : int
        The board; the definition's cost grows with the product of the factors' move counts,
        so keep it small (8 x 8 takes a moment for the any-coins families).

    Returns
    -------
    Evidence
        counterexample: ((row, column), the value from the definition, the nim-product).

    >>> tartan_theorem("twins", "twins", 8, 8).holds          # Turning Corners
    True
    """
    for label, v in (("rows", rows), ("cols", cols)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not 1 <= v <= 64:
            raise ValueError(f"{label} must be an int from 1 to 64, got {v!r}")
    game: Tartan = tartan(a, b)
    by_theorem = game.nim_values(rows, cols)
    g = [[0] * cols for _ in range(rows)]
    name = f"Tartan ({game.name})"
    for r in range(rows):
        for c in range(cols):
            options = set()
            for coins in game.move_sets((r, c)):
                v = 0
                for (y, x) in coins:
                    if (y, x) != (r, c):
                        v ^= g[y][x]
                options.add(v)
            g[r][c] = mex(options)
            if g[r][c] != int(by_theorem[r, c]):
                return Evidence(name, False, f"{rows} x {cols} board",
                                ((r, c), g[r][c], int(by_theorem[r, c])))
    return Evidence(name, True, f"{rows} x {cols} board")
