"""TurningGame: a one-dimensional coin-turning game, by turning code or moves function; its
values come from :mod:`.engine` or a closed form (:mod:`.closed_forms`), and it answers the
common vocabulary on positions (rows of coins, lists of heads).
"""

from __future__ import annotations

import warnings
from typing import Any, Callable, Iterable, Iterator

import numpy as np

from ..codes import parse_turning_code
from ..positions import heads_of
from ..subset_sums import find_distinct, reachable_sums
from ..vocabulary import MisereByEngine, deprecated_alias, synchronized
from .closed_forms import closed_form_of, realise_by_closed_form
from .engine import TurningEngine
from .move_sets import term_sets, xor

__all__ = ["TurningGame", "MISERE_SEARCH_WORK"]

#: the most work (positions x move sets) a misère search takes on
MISERE_SEARCH_WORK = 2_000_000


class TurningGame(TurningEngine, MisereByEngine):
    """A one-dimensional coin-turning game.

    Either a turning code (see the module), or ``moves``: a function of the head x giving the
    sets of OTHER coins (all < x) that a move may turn along with x.

    Known structure comes first: a code with a closed form (Turning Turtles, Mocking
    Turtles, Motley, Twins, Triplets, Ruler, Winning Ways ch. 14; Grunt, which is Grundy's
    game) answers any coin, 10^9 or 10^100, at once; other codes are computed by the engine
    into one growing numpy array.  A game object may be shared between threads (each value
    is computed once) and pickled.

    Parameters
    ----------
    code : str, optional
        A turning code ("1-3", "1+C", "4FS", ...).
    name : str, optional
        What to call the game (default: the code).
    moves : callable, optional
        Instead of a code: ``moves(x)`` lists the sets of other coins (all < x).
    memory_limit : int or str, optional
        The most memory one computation of this game may take (bytes, or "16G"); the
        default is :func:`nimbers._limits.memory_cap` (``NIMBERS_MEMORY_LIMIT``, else a
        quarter of physical memory).  Work past it is refused at once with ValueError.
    time_limit : float, optional
        The most seconds of estimated work one computation of this game may start, where
        move sets must be listed (codes with no faster method); the default is
        :func:`nimbers._limits.time_cap` (``NIMBERS_TIME_LIMIT``, else 120 s).  Work
        estimated past it is refused at once with ValueError.

    Raises
    ------
    ValueError
        Neither or both of code and moves, or a malformed code.

    >>> twins = TurningGame(moves=lambda x: [(y,) for y in range(x)], name="Twins")
    >>> twins.nim_values(5).tolist()
    [0, 1, 2, 3, 4]
    >>> TurningGame("1+C").nim_value(10**9 - 1)             # Ruler: the power of 2 dividing 10^9
    512
    """

    def __init__(self, code: str | None = None, name: str | None = None,
                 moves: Callable[[int], Iterable[Iterable[int]]] | None = None, *,
                 memory_limit: int | str | None = None,
                 time_limit: float | None = None) -> None:
        if (code is None) == (moves is None):
            raise ValueError("give a turning code or a moves function (one of the two)")
        self.memory_limit = memory_limit
        self.time_limit = time_limit
        self.code = code
        self.terms = parse_turning_code(code) if code is not None else None
        self._moves = moves
        self.name = name or code or "custom turning game"
        self.closed_form = closed_form_of(self.terms)
        self._g = np.zeros(0, dtype=np.uint64)  # engine values G(0 .. len-1), grown as needed
        self._misere_cache: dict[Any, int] = {}

    def __getstate__(self) -> dict[str, Any]:
        state = super().__getstate__()
        state.pop("closed_form")  # holds functions: found again from the code
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        super().__setstate__(state)
        self.closed_form = closed_form_of(self.terms)

    def __repr__(self) -> str:
        return f"<TurningGame {self.name}" + (f" ({self.code})>" if self.code else ">")

    def nim_value(self, position: Any) -> int:
        """The value of a position: the nim-sum of G over its heads (Winning Ways ch. 14).

        Parameters
        ----------
        position : str, iterable of int or int
            A string of H/T, the head coins, or one coin number.

        Returns
        -------
        int

        Raises
        ------
        ValueError
            A bad position, or a coin without a closed form whose table would pass the
            memory cap or the time cap.

        >>> from nimbers.games.turning import named_game
        >>> ruler = named_game("ruler")
        >>> ruler.nim_value("HTHH"), ruler.nim_value([0, 2, 3]), ruler.nim_value(3)
        (4, 4, 4)
        """
        total = 0
        for h in _heads(position):
            total ^= self._value_at(h)
        return total

    # -- positions -----------------------------------------------------------------------------

    def _described_moves(self, position: Any) -> Iterator[tuple[list[int], tuple[int, ...]]]:
        heads = set(_heads(position))
        for x in sorted(heads):
            for others in self.move_sets(x):
                coins = sorted(others) + [x]
                yield coins, tuple(sorted(heads.symmetric_difference(coins)))

    def _canonical(self, position: Any) -> tuple[int, ...]:
        return tuple(_heads(position))

    def _misere_budget(self, position: Any) -> None:
        heads = _heads(position)
        if not heads:
            return
        top = heads[-1] + 1
        rows = 2 ** top
        work = 0
        if rows <= MISERE_SEARCH_WORK:
            for x in range(top):  # count the move sets, stopping once over the limit
                for _ in self.move_sets(x):
                    work += rows
                    if work > MISERE_SEARCH_WORK:
                        break
                if work > MISERE_SEARCH_WORK:
                    break
        if rows > MISERE_SEARCH_WORK or work > MISERE_SEARCH_WORK:
            raise ValueError(f"misère play of {self.name} up to coin {top - 1} would search "
                             f"2^{top} rows of coins, over the limit of {MISERE_SEARCH_WORK:,} "
                             "steps: keep the heads on the first coins")

    @synchronized
    def is_losing(self, position: Any, misere: bool = False) -> bool:
        """True when the player to move loses with best play (the value is 0).

        Parameters
        ----------
        position : str, iterable of int or int
            As for :meth:`nim_value`.
        misere : bool
            True: whoever turns the last coin loses (searched: small rows only).

        Returns
        -------
        bool

        >>> TurningGame("1-2").is_losing("HTHH"), TurningGame("1-2").is_losing("HHH")
        (False, True)
        >>> TurningGame("1-2").is_losing("HHH", misere=True)
        False
        """
        if misere:
            return self.misere_nim_value(position) == 0
        return self.nim_value(position) == 0

    @synchronized
    def winning_move(self, position: Any, misere: bool = False) -> list[int] | None:
        """The coins to turn for a move to a 0 position.

        Games with a closed form find the move from it at any coin index; others use one
        move of the value wanted (by reachability or linear algebra for "any coins" terms),
        never a list of every move.

        Parameters
        ----------
        position : str, iterable of int or int
            As for :meth:`nim_value`.
        misere : bool
            True: whoever turns the last coin loses (searched: small rows only).

        Returns
        -------
        list of int or None
            The coins, sorted (the head last), or None when every move loses.

        Raises
        ------
        ValueError
            As for :meth:`nim_value`.

        >>> TurningGame("1-2").winning_move("HTHH")     # heads 0, 2, 3: values 1 ^ 3 ^ 4 = 6
        [1, 3]
        """
        if misere:
            move: list[int] | None = self._misere_winning_move(position)
            return move
        heads = _heads(position)
        total = self.nim_value(heads)
        if total == 0:
            return None
        for x in heads:
            g = self._value_at(x)
            target = total ^ g
            if target < g:
                others = self.realise(x, target)
                if others is not None:
                    return sorted(others) + [x]
        raise AssertionError("Sprague-Grundy: a non-zero position has a winning move")

    @synchronized
    def realise(self, x: int, value: int) -> tuple[int, ...] | None:
        """A set of other coins for a move at x whose values nim-add to value, or None.

        A game with a closed form first tries moves built from it (any coin index, no
        table); the engine's table is the fallback, refused past the memory cap.

        Parameters
        ----------
        x : int
            The head.
        value : int
            The nim-sum of the other coins' values wanted.

        Returns
        -------
        tuple of int or None

        >>> TurningGame("1-3").realise(5, 3)     # Mocking Turtles: G(0) = 1, G(1) = 2
        (0, 1)
        """
        if self.closed_form is not None and self.terms is not None:
            found = realise_by_closed_form(self.closed_form, self.terms[0], x, value)
            if found is not None:
                return found
        g = self.engine_values(x + 1).tolist()
        if self.terms is not None:
            self._check_listing(x)
            for term in self.terms:
                if term.plain:
                    found = find_distinct(g[:x], term.lo, term.hi, value)
                    if found is not None:
                        return found
                    continue
                for others in term_sets(term, x):
                    if xor(g, others) == value:
                        return others
            return None
        for others in self.move_sets(x):
            if xor(g, others) == value:
                return others
        return None

    @synchronized
    def move_values(self, x: int) -> set[int]:
        """The option values at x, each as G(x) (+) (nim-sum of the other coins): the "u" of
        the Tartan theorem (Winning Ways ch. 14; the value of the whole set turned).

        Parameters
        ----------
        x : int
            The head.

        Returns
        -------
        set of int

        >>> sorted(TurningGame("1-2").move_values(2))   # 3, with coin 0 (1) or coin 1 (2)
        [1, 2, 3]
        """
        g = self.engine_values(x + 1).tolist()
        if self.terms is not None and len(self.terms) == 1 and self.terms[0].plain:
            opts = reachable_sums(g[:x], self.terms[0].lo, self.terms[0].hi)
        else:
            opts = self._option_values(g, x)
        return {g[x] ^ s for s in opts}

    # -- the old names, for one release --
    values = deprecated_alias(TurningEngine.nim_values, "values")

    def value(self, x: int) -> int:
        """Deprecated: nim_value(x)."""
        warnings.warn("value(x) is deprecated: use nim_value(x)", DeprecationWarning,
                      stacklevel=2)
        return self.nim_value(heads_of([x])[0])

    position_value = deprecated_alias(nim_value, "position_value")


def _heads(position: Any) -> list[int]:
    """Heads from a row, a list of coins, or one coin number."""
    if isinstance(position, (int, np.integer)) and not isinstance(position, bool):
        return heads_of([position])
    return heads_of(position)
