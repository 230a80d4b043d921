"""Closed forms of the coin-turning families (Winning Ways ch. 14): G(x) at any coin and on
whole arrays, their inverses, and moves found from them at any coin index.  Grunt is
Grundy's game in coin form, answered by the heap engine.

>>> closed_form("mocking-turtles", 5), odious(7)
(11, True)
"""

from __future__ import annotations

import itertools
from typing import Any, Callable, Iterable

import numpy as np

from ..codes import Term
from .move_sets import as_array, term_sets

__all__ = ["ClosedForm", "CLOSED_FORMS", "closed_form", "closed_form_of", "odious",
           "realise_by_closed_form"]


def odious(n: int) -> bool:
    """An odd number of 1 bits (Winning Ways ch. 14: the values of Mocking Turtles).

    Parameters
    ----------
    n : int

    Returns
    -------
    bool

    >>> odious(7), odious(5)
    (True, False)
    """
    return bin(n).count("1") % 2 == 1


#: runs (Ruler) or move sets (Grunt) tried by a closed-form move before the table is used
_RUN_BUDGET = 1 << 16
#: the first coins a closed-form move combines with one solved coin
_SMALL_COINS = 64


def realise_by_closed_form(form: ClosedForm, t: Term, x: int,
                            value: int) -> tuple[int, ...] | None:
    """Other coins at x nim-adding to value, from the closed form alone (every candidate
    checked by it); None when this quick search finds none (then the table decides)."""
    low = max(t.lo - 1, 0)
    top = x if t.hi is None else min(t.hi - 1, x)
    if low == 0 and value == 0:
        return ()
    if t.consecutive:  # Ruler: runs of other coins ending at x - 1, grown one coin at a time
        acc = 0
        for c in range(1, min(top, _RUN_BUDGET) + 1):
            acc ^= form.at(x - c)
            if acc == value and c >= low:
                return tuple(range(x - c, x))
        return None
    if not t.plain:  # Grunt: the sets in the order listed (the fewest coins first)
        for others in itertools.islice(term_sets(t, x), _RUN_BUDGET):
            if _xor_at(form, others) == value:
                return others
        return None
    if t.hi is None:  # Motley: the coins are the bits of the value
        coins = tuple(i for i in range(value.bit_length()) if value >> i & 1)
        ok = all(form.at(c) == 1 << c for c in coins) and low <= len(coins) <= top
        return coins if ok and (not coins or coins[-1] < x) else None
    if form.inverse is None:
        return None
    for k in range(max(low, 1), min(top, 2) + 1):  # one solved coin, perhaps one small coin
        for small in itertools.combinations(range(min(x, _SMALL_COINS)), k - 1):
            rest = value ^ _xor_at(form, small)
            y = form.inverse(rest)
            if y is not None and 0 <= y < x and y not in small and form.at(y) == rest:
                return tuple(sorted(small + (y,)))
    return None


def _xor_at(form: ClosedForm, coins: Iterable[int]) -> int:
    v = 0
    for c in coins:
        v ^= form.at(c)
    return v


class ClosedForm:
    """G(x) of a family as a formula: at(x) for any coin (Python ints, no limit) and
    array(n) for G(0 .. n-1) computed on a whole numpy array at once."""

    def __init__(self, name: str, at: Callable[[int], int],
                 array: Callable[[np.ndarray], np.ndarray] | None,
                 inverse: Callable[[int], int | None] | None = None) -> None:
        self.name = name
        self._at = at
        self._array = array
        #: a coin whose value is v (checked by the caller), or None
        self.inverse = inverse

    def __repr__(self) -> str:
        return f"<ClosedForm {self.name}>"

    def at(self, x: int) -> int:
        """G(x) for any coin x.

        Parameters
        ----------
        x : int

        Returns
        -------
        int

        >>> from nimbers.games.turning import named_game
        >>> named_game("motley").closed_form.at(70)
        1180591620717411303424
        """
        return self._at(int(x))

    def array(self, n: int) -> np.ndarray:
        """G(0), ..., G(n-1) on a whole array at once.

        Parameters
        ----------
        n : int

        Returns
        -------
        numpy.ndarray
            uint64, or Python ints in an object array where they do not fit.

        >>> from nimbers.games.turning import named_game
        >>> named_game("ruler").closed_form.array(8).tolist()
        [1, 2, 1, 4, 1, 2, 1, 8]
        """
        if self._array is None:
            return as_array([self._at(x) for x in range(n)])
        return self._array(np.arange(n, dtype=np.uint64))


def _ruler(x: int) -> int:
    return (x + 1) & -(x + 1)


def _mocking(x: int) -> int:
    return 2 * x + (0 if odious(x) else 1)


def _mocking_inverse(v: int) -> int | None:
    """The coin of Mocking Turtles' value v: the values are the odious numbers, G(v >> 1)."""
    return v >> 1 if odious(v) else None


def _triplets_inverse(v: int) -> int | None:
    if v == 0:
        return 0
    y = _mocking_inverse(v)
    return None if y is None else y + 2


def _parity(x: np.ndarray) -> np.ndarray:
    parity: np.ndarray = (np.bitwise_count(x) & np.uint64(1)).astype(np.uint64)
    return parity


def _mocking_array(x: np.ndarray) -> np.ndarray:
    return 2 * x + (np.uint64(1) - _parity(x))


def _triplets_array(x: np.ndarray) -> np.ndarray:
    out = np.zeros_like(x)
    out[2:] = _mocking_array(x[2:] - np.uint64(2))
    return out


def _motley_array(x: np.ndarray) -> np.ndarray:
    if len(x) <= 64:
        powers: np.ndarray = np.left_shift(np.uint64(1), x)
        return powers
    return np.array([1 << int(v) for v in x], dtype=object)


#: closed forms by the terms of the code (coins from 0), each checked against the engine by
#: the tests; the Mock Turtle theorem (Winning Ways, ch. 14) relates them
_CLOSED: dict[tuple[Term, ...], ClosedForm] = {
    (Term(1, 1),): ClosedForm("G(x) = 1", lambda x: 1,
                              lambda x: np.ones_like(x)),
    (Term(1, 2),): ClosedForm("Turning Turtles: G(x) = x + 1", lambda x: x + 1,
                              lambda x: x + np.uint64(1), lambda v: v - 1),
    (Term(1, 3),): ClosedForm("Mocking Turtles: G(x) = 2x, +1 when x is evil", _mocking,
                              _mocking_array, _mocking_inverse),
    (Term(1, None),): ClosedForm("Motley: G(x) = 2^x", lambda x: 1 << x, _motley_array),
    (Term(2, 2),): ClosedForm("Twins: G(x) = x", lambda x: x, lambda x: x.copy(),
                              lambda v: v),
    (Term(3, 3),): ClosedForm("Triplets: G(x) = Mocking Turtles at x - 2",
                              lambda x: 0 if x < 2 else _mocking(x - 2), _triplets_array,
                              _triplets_inverse),
    (Term(1, None, consecutive=True),): ClosedForm(
        "Ruler: G(x) = the largest power of 2 dividing x + 1", _ruler,
        lambda x: (x + np.uint64(1)) & ~x),
}


def _grundy_game() -> Any:
    from ..heap import grundy_game  # the heap engine; imported on first use
    global _GRUNDY_GAME
    if _GRUNDY_GAME is None:
        _GRUNDY_GAME = grundy_game()
    return _GRUNDY_GAME


_GRUNDY_GAME: Any = None


def _grunt_at(x: int) -> int:
    return int(_grundy_game().nim_value(x))


def _grunt_array(x: np.ndarray) -> np.ndarray:
    return np.asarray(_grundy_game().nim_values(len(x)), dtype=np.uint64)


#: Grunt ("4FS") is Grundy's game in coin form (Winning Ways, ch. 14): a move at x turns
#: coins 0, a, x - a, x with 0 < a < x - a, and G(0) = 0 (no move), so G(x) is the mex of
#: G(a) (+) G(x - a) over the splittings of a heap of x into two unequal heaps -- the
#: definition of Grundy's game, whose values the C heap engine computes.
_CLOSED[(Term(4, 4, symmetric=True, first=True),)] = ClosedForm(
    "Grunt: G(x) = Grundy's game at a heap of x", _grunt_at, _grunt_array)


def closed_form_of(terms: list[Term] | None) -> ClosedForm | None:
    if terms is None:
        return None
    return _CLOSED.get(tuple(terms))


#: closed forms G(x) (coins from 0) of the named families, checked against the engine.
CLOSED_FORMS: dict[str, Callable[[int], int]] = {
    "turning-turtles": lambda x: x + 1,
    "mocking-turtles": _mocking,
    "motley": lambda x: 1 << x,
    "twins": lambda x: x,
    "triplets": lambda x: 0 if x < 2 else _mocking(x - 2),
    "ruler": _ruler,
    "grunt": _grunt_at,
}


def closed_form(name: str, x: int) -> int:
    """The closed form of a named family at coin x (coins from 0).

    Parameters
    ----------
    name : str
        A key of :data:`CLOSED_FORMS`.
    x : int
        The coin.

    Returns
    -------
    int

    >>> closed_form("ruler", 10**18 - 1)       # the power of 2 dividing 10^18
    262144
    """
    return CLOSED_FORMS[name](x)
