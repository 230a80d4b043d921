"""Coin-turning games in one dimension.

A row of coins, numbered from 0 on the left (Winning Ways, ch. 14, CGSuite and
the OEIS number them from 1: coin x here is heap x + 1 there).  A move turns over a set of
coins whose rightmost coin goes from heads to tails.  Each head is an independent game, so a
position's value is the nim-sum of G(x) over its heads, where
G(x) = mex over the moves at x of the nim-sum of the OTHER coins' values.

Rules are given as CGSuite turning codes, a comma-separated list of terms; a term is a count
("3"), a range ("1-3") or an open range ("1+"), then modifiers:

====  ===================================================================
C     the coins turned are consecutive
C(n)  the coins turned lie within a span of n adjacent coins
E     the coins turned are equally spaced (an arithmetic progression)
S     the coins turned are symmetrically arranged
F     the leftmost coin of the row (coin 0) is among those turned
====  ===================================================================

>>> mocking_turtles = TurningGame("1-3", "Mocking Turtles")
>>> mocking_turtles.nim_values(8).tolist()
[1, 2, 4, 7, 8, 11, 13, 14]
>>> TurningGame("1+C").nim_values(8).tolist()       # Ruler
[1, 2, 1, 4, 1, 2, 1, 8]
>>> TurningGame("1-2").winning_move("HTHH")     # heads 0, 2, 3: values 1 ^ 3 ^ 4 = 6
[1, 3]
"""

from __future__ import annotations

import itertools
import math
import re
import warnings
from typing import Any, Callable, Iterable, Iterator, Sequence

import numpy as np

from .. import _core
from .._limits import check_bytes, check_time, time_cap
from .codes import Term, parse_turning_code
from .positions import heads_of
from .subset_sums import any_coins_values, find_distinct, reachable_sums
from .vocabulary import MisereByEngine, deprecated_alias, synchronized

__all__ = ["TurningGame", "Term", "parse_code", "heads_of", "NAMED_GAMES", "named_game",
           "closed_form", "odious", "ClosedForm", "CLOSED_FORMS"]

#: the old name of the turning-code parser
parse_code = parse_turning_code


def _mex(values: Iterable[int]) -> int:
    seen = set(values)
    m = 0
    while m in seen:
        m += 1
    return m


#: how to go past the memory cap, for the messages
_RAISE = "pass memory_limit= (bytes, or '16G') to TurningGame or named_game"
_RAISE_TIME = "pass time_limit= (seconds) to TurningGame or named_game"
#: move sets listed a second (the Python loop over a listed term; measured 1.8 million on a
#: 2.4 GHz AMD EPYC): turns a count of move sets into the time estimate the time cap checks
_LISTED_PER_SECOND = 1.8e6
#: bytes per move set listed: the option values are kept in a Python set of ints
_BYTES_PER_MOVE_SET = 100
#: the most work (positions x move sets) a misère search takes on
MISERE_SEARCH_WORK = 2_000_000


class TurningGame(MisereByEngine):
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
        self.closed_form = _closed_form_of(self.terms)
        self._g = np.zeros(0, dtype=np.uint64)  # engine values G(0 .. len-1), grown as needed
        self._misere_cache: dict[Any, int] = {}

    def __getstate__(self) -> dict[str, Any]:
        state = super().__getstate__()
        state.pop("closed_form")  # holds functions: found again from the code
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        super().__setstate__(state)
        self.closed_form = _closed_form_of(self.terms)

    def __repr__(self) -> str:
        return f"<TurningGame {self.name}" + (f" ({self.code})>" if self.code else ">")

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
            yield from _term_sets(term, x)

    def _option_values(self, g: list[int], x: int) -> set[int]:
        """The nim-sums of the other coins over every move at x (for "any coins" terms, by
        reachability over values rather than by listing subsets)."""
        out: set[int] = set()
        if self.terms is None:
            sets: Iterable[tuple[int, ...]] = self.move_sets(x)
        else:
            self._check_listing(x)
            sets = itertools.chain.from_iterable(
                _term_sets(t, x) for t in self.terms if not t.plain)
            for t in self.terms:
                if t.plain:
                    out |= reachable_sums(g[:x], t.lo, t.hi)
        for others in sets:
            out.add(_xor(g, others))
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
        return sum(_term_count(t, x) for t in self.terms or () if not t.plain)

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

        >>> ruler = named_game("ruler")
        >>> ruler.nim_value("HTHH"), ruler.nim_value([0, 2, 3]), ruler.nim_value(3)
        (4, 4, 4)
        """
        total = 0
        for h in _heads(position):
            total ^= self._value_at(h)
        return total

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
                self._g = _as_array(fast(self._g, grown))
            except ValueError:
                if grown == n:
                    raise
                # growing ahead is a convenience: what was asked may still fit the caps
                self._g = _as_array(fast(self._g, n))
            return
        self._check_listing_range(start, n)
        g = self._g.tolist()
        for x in range(start, n):
            g.append(_mex(self._option_values(g, x)))
        self._g = _as_array(g)

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
                return lambda g, n: _structured(0, t, g, n)
            if t.equal:
                return lambda g, n: _structured(1, t, g, n)
            return lambda g, n: any_coins_values(t.lo, t.hi, n)
        return None

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
            found = _realise_by_closed_form(self.closed_form, self.terms[0], x, value)
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
                for others in _term_sets(term, x):
                    if _xor(g, others) == value:
                        return others
            return None
        for others in self.move_sets(x):
            if _xor(g, others) == value:
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
    values = deprecated_alias(nim_values, "values")

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


def _count(n: Any) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
        raise ValueError(f"n must be a non-negative int, got {n!r}")
    _check_table(int(n), f"a table of {int(n):,} values")
    return int(n)


def _check_table(n: int, what: str) -> None:
    """Refuses a table of n values (8 bytes each, twice while it grows) past the memory
    cap."""
    check_bytes(16 * n, what, _RAISE)


def _term_count(t: Term, x: int) -> int:
    """How many sets of other coins one term lists at head x: exact for the subset terms
    (a sum of binomials), an upper bound for the symmetric ones, at most x log x for the
    runs and progressions (cheap: counted as x + 1 per spacing)."""
    hi = x + 1 if t.hi is None else min(t.hi, x + 1)
    if t.consecutive or t.equal:
        return (x + 1) * (1 + int(math.log2(x + 1)))
    if t.symmetric:
        lefts = 1 if t.first else x + 1
        pairs = x // 2 if t.span is None else min(x, t.span) // 2
        return 2 * lefts * sum(math.comb(pairs, r) for r in range(min(pairs, hi // 2) + 1))
    if t.first:
        return sum(math.comb(max(x - 1, 0), c - 2) for c in range(max(t.lo, 2), hi + 1))
    pool = x if t.span is None else min(x, t.span - 1)
    return sum(math.comb(pool, c - 1) for c in range(max(t.lo, 1), hi + 1))


def _as_array(values: Any) -> np.ndarray:
    """uint64 when every value fits, else Python ints in an object array."""
    if isinstance(values, np.ndarray) and values.dtype == np.uint64:
        return values
    values = list(values)
    if all(v < 2**64 for v in values):
        return np.array(values, dtype=np.uint64)
    return np.array(values, dtype=object)


def _xor(g: Sequence[int], coins: Iterable[int]) -> int:
    v = 0
    for c in coins:
        v ^= g[c]
    return v


def _term_sets(t: Term, x: int) -> Iterator[tuple[int, ...]]:
    """The sets of other coins (< x) of one term's moves at x."""
    hi = x + 1 if t.hi is None else min(t.hi, x + 1)
    if t.first and x > 0:
        yield from _first_sets(t, x, hi)
        return
    if t.consecutive:
        for c in range(max(t.lo, 1), hi + 1):
            yield tuple(range(x - c + 1, x))
        return
    if t.equal:
        if t.allows(1):
            yield ()
        for d in range(1, x + 1):
            for c in range(2, hi + 1):
                if x - (c - 1) * d < 0:
                    break
                if c >= t.lo:
                    yield tuple(x - k * d for k in range(c - 1, 0, -1))
        return
    if t.symmetric:
        yield from _symmetric_sets(t, x, hi, lowest=0)
        return
    pool = range(max(0, x - t.span + 1), x) if t.span else range(x)
    for c in range(max(t.lo, 1), hi + 1):
        yield from itertools.combinations(pool, c - 1)


def _first_sets(t: Term, x: int, hi: int) -> Iterator[tuple[int, ...]]:
    """Sets that include coin 0 (and the head x > 0)."""
    if t.symmetric:
        yield from _symmetric_sets(t, x, hi, lowest=0, fixed_left=True)
        return
    if t.consecutive:
        if t.allows(x + 1):
            yield tuple(range(x))
        return
    if t.equal:
        for c in range(2, hi + 1):
            if x % (c - 1) == 0 and t.allows(c):
                d = x // (c - 1)
                yield tuple(range(0, x, d))
        return
    if t.span is not None and x >= t.span:
        return
    for c in range(max(t.lo, 2), hi + 1):
        for rest in itertools.combinations(range(1, x), c - 2):
            yield (0,) + rest


def _symmetric_sets(t: Term, x: int, hi: int, lowest: int,
                    fixed_left: bool = False) -> Iterator[tuple[int, ...]]:
    """Symmetric sets {l, ..., x} (a_i + a_(k+1-i) = l + x), other coins only."""
    if not fixed_left and t.allows(1):
        yield ()
    lefts = [0] if fixed_left else range(lowest, x)
    for left in lefts:
        if t.span is not None and x - left + 1 > t.span:
            continue
        inner = [(left + i, x - i) for i in range(1, (x - left + 1) // 2)]
        center = [(left + x) // 2] if (x - left) % 2 == 0 and left < x else []
        most_pairs = (hi - 2) // 2  # the left coin and the head, then pairs: at most hi coins
        for r in range(min(len(inner), most_pairs) + 1):
            for chosen in itertools.combinations(inner, r):
                mids: list[list[int]] = [[], center] if center else [[]]
                for mid in mids:
                    coins = [left] + [c for pair in chosen for c in pair] + mid
                    if t.allows(len(coins) + 1):
                        yield tuple(sorted(coins))


def _structured(family: int, t: Term, g: np.ndarray, n: int) -> np.ndarray:
    """Extends g to n values in C (consecutive runs: family 0; progressions: family 1)."""
    out = np.zeros(n, dtype=np.uint64)
    out[:len(g)] = g
    _core.turning_extend(family, t.lo, -1 if t.hi is None else t.hi, out, len(g), n)
    return out


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


def _realise_by_closed_form(form: ClosedForm, t: Term, x: int,
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
        for others in itertools.islice(_term_sets(t, x), _RUN_BUDGET):
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

        >>> named_game("ruler").closed_form.array(8).tolist()
        [1, 2, 1, 4, 1, 2, 1, 8]
        """
        if self._array is None:
            return _as_array([self._at(x) for x in range(n)])
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
    from .heap import grundy_game  # the heap engine; imported on first use
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


def _closed_form_of(terms: list[Term] | None) -> ClosedForm | None:
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

#: named 1-D families and their turning codes
NAMED_GAMES: dict[str, str] = {
    "turning-turtles": "1-2",
    "mocking-turtles": "1-3",
    "moebius": "1-5",
    "mogul": "1-7",
    "gold-moidores": "1-9",
    "motley": "1+",
    "twins": "2",
    "triplets": "3",
    "ruler": "1+C",
    "progression": "1+E",
    "turnips": "3E",
    "grunt": "4FS",
}


def named_game(name: str, *, memory_limit: int | str | None = None,
               time_limit: float | None = None) -> TurningGame:
    """A named family of Winning Ways ch. 14, "at-most-T" for any T, or a turning code.

    Parameters
    ----------
    name : str
        "mocking-turtles", "ruler", "grunt", ... (see :data:`NAMED_GAMES`), "at-most-T",
        or a turning code.
    memory_limit : int or str, optional
        The game's memory cap (see :class:`TurningGame`).
    time_limit : float, optional
        The game's time cap in seconds (see :class:`TurningGame`).

    Returns
    -------
    TurningGame

    Raises
    ------
    ValueError
        Neither a known name nor a turning code.

    >>> named_game("ruler").code
    '1+C'
    """
    key = name.strip().lower().replace("_", "-").replace(" ", "-")
    if key in NAMED_GAMES:
        return TurningGame(NAMED_GAMES[key], key, memory_limit=memory_limit,
                           time_limit=time_limit)
    m = re.fullmatch(r"at-most-(\d+)", key)
    if m and int(m.group(1)) >= 1:
        return TurningGame(f"1-{m.group(1)}", key, memory_limit=memory_limit,
                           time_limit=time_limit)
    try:
        return TurningGame(name, memory_limit=memory_limit, time_limit=time_limit)
    except ValueError:
        known = ", ".join(sorted(NAMED_GAMES)) + ", at-most-T"
        raise ValueError(f"unknown game {name!r}: known games are {known}, or a turning "
                         "code like '1-3'") from None


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
