"""The values of a one-dimensional coin-turning game: G(x) = mex over the moves at head x
of the nim-sum of the other coins turned (Winning Ways ch. 14), computed into one growing
array -- by reachability over values for "any coins" terms (:mod:`..subset_sums`), in C for
consecutive runs and progressions, by listing move sets otherwise, each listing counted
first against the memory and time caps (:mod:`nimbers._limits`).
"""

from __future__ import annotations

import itertools
from typing import Any, Callable, Iterable, Iterator

import numpy as np

from ..._limits import check_bytes, check_time, time_cap
from ..codes import Term
from ..engine import mex
from ..subset_sums import any_coins_values, reachable_sums
from ..vocabulary import synchronized
from .closed_forms import ClosedForm
from .move_sets import as_array, structured, term_count, term_sets, xor

__all__ = ["TurningEngine"]

#: how to go past the memory cap, for the messages
_RAISE = "pass memory_limit= (bytes, or '16G') to TurningGame or named_game"
_RAISE_TIME = "pass time_limit= (seconds) to TurningGame or named_game"
#: move sets listed a second (the Python loop over a listed term; measured 1.8 million on a
#: 2.4 GHz AMD EPYC): turns a count of move sets into the time estimate the time cap checks
_LISTED_PER_SECOND = 1.8e6
#: bytes per move set listed: the option values are kept in a Python set of ints
_BYTES_PER_MOVE_SET = 100


class TurningEngine:
    """The engine half of :class:`~nimbers.games.turning.TurningGame`: its move sets and
    values (the game supplies terms or a moves function, its name and closed form)."""

    name: str
    terms: list[Term] | None
    closed_form: ClosedForm | None
    _moves: Callable[[int], Iterable[Iterable[int]]] | None
    _g: np.ndarray

    # -- the moves at a head ---------------------------------------------------------------

    def move_sets(self, x: int) -> Iterator[tuple[int, ...]]:
        """Every set of other coins a move at head x may turn (may repeat a set).

        A generator: it lists the sets one by one, in bounded memory.

        Parameters
        ----------
        x : int
            The head.

        Returns
        -------
        iterator of tuple of int

        Raises
        ------
        ValueError
            A moves function gave coins that are not distinct coins left of x.

        >>> from nimbers.games.turning import TurningGame
        >>> sorted(TurningGame("1-2").move_sets(3))      # the head alone, or with one coin
        [(), (0,), (1,), (2,)]
        """
        if self._moves is not None:
            for others in self._moves(x):
                others = tuple(sorted(others))
                if any((not isinstance(y, (int, np.integer))) or y < 0 or y >= x for y in others) \
                        or len(set(others)) != len(others):
                    raise ValueError(f"moves({x}) gave {others!r}: the other coins must be "
                                     f"distinct coins left of {x}")
                yield others
            return
        for term in self.terms or ():
            yield from term_sets(term, x)

    def _option_values(self, g: list[int], x: int) -> set[int]:
        """The nim-sums of the other coins over every move at x (for "any coins" terms, by
        reachability over values rather than by listing subsets)."""
        out: set[int] = set()
        if self.terms is None:
            sets: Iterable[tuple[int, ...]] = self.move_sets(x)
        else:
            self._check_listing(x)
            sets = itertools.chain.from_iterable(
                term_sets(t, x) for t in self.terms if not t.plain)
            for t in self.terms:
                if t.plain:
                    out |= reachable_sums(g[:x], t.lo, t.hi)
        for others in sets:
            out.add(xor(g, others))
        return out

    def _check_listing(self, x: int) -> None:
        """Refuses before listing the move sets at x of the terms that must be listed (the
        plain "any coins" terms go by reachability) when there are too many to hold or to
        list in the time cap."""
        count = self._listed_count(x)
        what = f"listing the {count:,} move sets of {self.name} at coin {x}"
        check_bytes(count * _BYTES_PER_MOVE_SET, what, _RAISE)
        check_time(count, _LISTED_PER_SECOND, what, _RAISE_TIME)

    def _listed_count(self, x: int) -> int:
        return sum(term_count(t, x) for t in self.terms or () if not t.plain)

    def _check_listing_range(self, start: int, n: int) -> None:
        """Refuses before listing the move sets of coins start .. n-1 when the whole would
        pass the time cap (each coin's memory is checked as it comes)."""
        if self.terms is None or all(t.plain for t in self.terms):
            return
        enough = time_cap() * _LISTED_PER_SECOND
        total = 0
        for x in range(start, n):
            count = self._listed_count(x)
            total += count
            if total > enough:  # stop counting: the coins left list at least as many each
                total += count * (n - 1 - x)
                break
        check_time(total, _LISTED_PER_SECOND, f"the values of {self.name} at coins {start:,} "
                   f"to {n - 1:,}, listing {total:,} move sets or more,", _RAISE_TIME)

    # -- values ------------------------------------------------------------------------------

    @synchronized
    def nim_values(self, n: int) -> np.ndarray:
        """G(0), ..., G(n-1): uint64 when they fit, else an object array of Python ints.

        A closed form is evaluated on the whole array at once.  Otherwise families with
        structure avoid enumerating subsets: "at most t coins" (any coins) is a reachability
        computation over values; consecutive runs and arithmetic progressions run in C.

        Parameters
        ----------
        n : int
            How many values.

        Returns
        -------
        numpy.ndarray

        Raises
        ------
        ValueError
            n is not a non-negative int, or the table (or the work behind it) would pass the
            memory cap, or the move sets to list would pass the time cap.

        >>> from nimbers.games.turning import TurningGame, named_game
        >>> named_game("mocking-turtles").nim_values(8).tolist()
        [1, 2, 4, 7, 8, 11, 13, 14]
        """
        n = _count(n)
        if self.closed_form is not None:
            return self.closed_form.array(n)
        return self.engine_values(n)

    def engine_values(self, n: int) -> np.ndarray:
        """G(0), ..., G(n-1) computed by the engine from the rules, never by a closed form
        (to check the closed forms, and to time them against it).

        Parameters
        ----------
        n : int
            How many values.

        Returns
        -------
        numpy.ndarray

        Raises
        ------
        ValueError
            As for :meth:`nim_values`.

        >>> from nimbers.games.turning import TurningGame
        >>> TurningGame("1-2").engine_values(5).tolist()      # Turning Turtles: x + 1
        [1, 2, 3, 4, 5]
        """
        n = _count(n)
        if n > len(self._g):
            self._extend(n)
        return self._g[:n].copy()

    def _value_at(self, x: int) -> int:
        if self.closed_form is not None:
            return self.closed_form.at(x)
        if x >= len(self._g):
            self._extend(x + 1)
        return int(self._g[x])

    @synchronized
    def _extend(self, n: int) -> None:
        if n <= len(self._g):
            return  # another thread extended the table meanwhile
        _check_table(n, f"{n:,} values of {self.name}")
        start = len(self._g)
        fast = self._fast_path()
        if fast is not None:
            grown = max(n, 2 * start)  # grow geometrically: small asks stay cheap
            if n <= self._motley_prefix() < grown:
                grown = self._motley_prefix()  # past it the values need far more work
            try:
                _check_table(grown, "")
                self._g = as_array(fast(self._g, grown))
            except ValueError:
                if grown == n:
                    raise
                # growing ahead is a convenience: what was asked may still fit the caps
                self._g = as_array(fast(self._g, n))
            return
        self._check_listing_range(start, n)
        g = self._g.tolist()
        for x in range(start, n):
            g.append(mex(self._option_values(g, x)))
        self._g = as_array(g)

    def _motley_prefix(self) -> int:
        """How many first coins are Motley's, G(x) = 2^x (see any_coins_values): hi for
        a single "lo-hi" term with lo <= 1, else 0."""
        if self.terms is not None and len(self.terms) == 1:
            t = self.terms[0]
            if t.plain and t.lo <= 1 and t.hi is not None:
                return t.hi
        return 0

    def _fast_path(self) -> Callable[[np.ndarray, int], Any] | None:
        if self.terms is None or len(self.terms) != 1:
            return None
        t = self.terms[0]
        if t.span is None and not t.symmetric and not t.first:
            if t.consecutive:
                return lambda g, n: structured(0, t, g, n)
            if t.equal:
                return lambda g, n: structured(1, t, g, n)
            return lambda g, n: any_coins_values(t.lo, t.hi, n)
        return None


def _count(n: Any) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
        raise ValueError(f"n must be a non-negative int, got {n!r}")
    _check_table(int(n), f"a table of {int(n):,} values")
    return int(n)


def _check_table(n: int, what: str) -> None:
    """Refuses a table of n values (8 bytes each, twice while it grows) past the memory
    cap."""
    check_bytes(16 * n, what, _RAISE)


