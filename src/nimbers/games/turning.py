"""Coin-turning games in one dimension.

A row of coins, numbered from 0 on the left (as in the turning-games reference; CGSuite and
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
>>> mocking_turtles.values(8).tolist()
[1, 2, 4, 7, 8, 11, 13, 14]
>>> TurningGame("1+C").values(8).tolist()       # Ruler
[1, 2, 1, 4, 1, 2, 1, 8]
>>> TurningGame("1-2").winning_move("HTHH")     # heads 0, 2, 3: values 1 ^ 3 ^ 4 = 6
[1, 3]
"""

from __future__ import annotations

import itertools
import re
from typing import Any, Callable, Iterable, Iterator, Sequence

import numpy as np

from .. import _core
from .codes import Term, parse_turning_code
from .positions import heads_of
from .subset_sums import any_coins_values, find_distinct, reachable_sums

__all__ = ["TurningGame", "Term", "parse_code", "heads_of", "NAMED_GAMES", "named_game",
           "closed_form", "odious"]

#: the old name of the turning-code parser
parse_code = parse_turning_code


def _mex(values: Iterable[int]) -> int:
    seen = set(values)
    m = 0
    while m in seen:
        m += 1
    return m


class TurningGame:
    """A one-dimensional coin-turning game.

    Either a turning code (see the module), or ``moves``: a function of the head x giving the
    sets of OTHER coins (all < x) that a move may turn along with x.

    >>> twins = TurningGame(moves=lambda x: [(y,) for y in range(x)], name="Twins")
    >>> twins.values(5).tolist()
    [0, 1, 2, 3, 4]
    """

    def __init__(self, code: str | None = None, name: str | None = None,
                 moves: Callable[[int], Iterable[Iterable[int]]] | None = None) -> None:
        if (code is None) == (moves is None):
            raise ValueError("give a turning code or a moves function (one of the two)")
        self.code = code
        self.terms = parse_turning_code(code) if code is not None else None
        self._moves = moves
        self.name = name or code or "custom turning game"
        self._g: list[int] = []

    def __repr__(self) -> str:
        return f"<TurningGame {self.name}" + (f" ({self.code})>" if self.code else ">")

    # -- the moves at a head ---------------------------------------------------------------

    def move_sets(self, x: int) -> Iterator[tuple[int, ...]]:
        """Every set of other coins a move at head x may turn (may repeat a set)."""
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

    def _option_values(self, x: int) -> set[int]:
        """The nim-sums of the other coins over every move at x (for "any coins" terms, by
        reachability over values rather than by listing subsets)."""
        g = self._g
        out: set[int] = set()
        if self.terms is None:
            sets: Iterable[tuple[int, ...]] = self.move_sets(x)
        else:
            sets = itertools.chain.from_iterable(
                _term_sets(t, x) for t in self.terms if not _plain(t))
            for t in self.terms:
                if _plain(t):
                    out |= reachable_sums(g[:x], t.lo, t.hi)
        for others in sets:
            out.add(_xor(g, others))
        return out

    # -- values ------------------------------------------------------------------------------

    def values(self, n: int) -> np.ndarray:
        """G(0), ..., G(n-1): uint64 when they fit, else an object array of Python ints.

        Families with structure avoid enumerating subsets: "at most t coins" (any coins) is a
        reachability computation over values; consecutive runs and arithmetic progressions
        run in C.
        """
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
            raise ValueError(f"n must be a non-negative int, got {n!r}")
        n = int(n)
        if n > len(self._g):
            self._extend(n)
        vals = self._g[:n]
        if all(v < 2**64 for v in vals):
            return np.array(vals, dtype=np.uint64)
        return np.array(vals, dtype=object)

    def value(self, x: int) -> int:
        """G(x) for one coin."""
        x = heads_of([x])[0]
        self.values(x + 1)
        return self._g[x]

    def _extend(self, n: int) -> None:
        fast = self._fast_path()
        if fast is not None:
            self._g = fast(n)
            return
        for x in range(len(self._g), n):
            self._g.append(_mex(self._option_values(x)))

    def _fast_path(self) -> Callable[[int], list[int]] | None:
        if self.terms is None or len(self.terms) != 1:
            return None
        t = self.terms[0]
        if t.span is None and not t.symmetric and not t.first:
            if t.consecutive:
                return lambda n: _structured(0, t, n)
            if t.equal:
                return lambda n: _structured(1, t, n)
            return lambda n: any_coins_values(t.lo, t.hi, n)
        return None

    # -- positions -----------------------------------------------------------------------------

    def position_value(self, position: Any) -> int:
        """The nim-sum of G over the heads (a string of H/T or the head coins).

        >>> TurningGame("1-2").position_value("HTHH")     # 1 ^ 3 ^ 4
        6
        """
        heads = heads_of(position)
        if heads:
            self.values(heads[-1] + 1)
        total = 0
        for h in heads:
            total ^= self._g[h]
        return total

    def is_losing(self, position: Any) -> bool:
        """True when the player to move loses with best play (the value is 0).

        >>> TurningGame("1-2").is_losing("HTHH"), TurningGame("1-2").is_losing("HHH")
        (False, True)
        """
        return self.position_value(position) == 0

    def winning_move(self, position: Any) -> list[int] | None:
        """The coins to turn (sorted, the head last) for a move to a 0 position, or None
        when the position's value is 0 (every move loses)."""
        heads = heads_of(position)
        total = self.position_value(heads)
        if total == 0:
            return None
        for x in heads:
            target = total ^ self._g[x]
            if target < self._g[x]:
                others = self.realise(x, target)
                if others is not None:
                    return sorted(others) + [x]
        raise AssertionError("Sprague-Grundy: a non-zero position has a winning move")

    def realise(self, x: int, value: int) -> tuple[int, ...] | None:
        """A set of other coins for a move at x whose values nim-add to value, or None."""
        self.values(x + 1)
        if self.terms is not None:
            for term in self.terms:
                if _plain(term):
                    found = find_distinct(self._g[:x], term.lo, term.hi, value)
                    if found is not None:
                        return found
                    continue
                for others in _term_sets(term, x):
                    if _xor(self._g, others) == value:
                        return others
            return None
        for others in self.move_sets(x):
            if _xor(self._g, others) == value:
                return others
        return None

    def move_values(self, x: int) -> set[int]:
        """The option values at x, each as G(x) (+) (nim-sum of the other coins): the "u" of
        the Tartan theorem (the value of the whole set turned)."""
        self.values(x + 1)
        if self.terms is not None and len(self.terms) == 1 and _plain(self.terms[0]):
            opts = reachable_sums(self._g[:x], self.terms[0].lo, self.terms[0].hi)
        else:
            opts = self._option_values(x)
        return {self._g[x] ^ s for s in opts}


def _xor(g: Sequence[int], coins: Iterable[int]) -> int:
    v = 0
    for c in coins:
        v ^= g[c]
    return v


def _plain(t: Term) -> bool:
    return t.plain


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


def _symmetric_sets(t: Term, x: int, hi: int, lowest: int, fixed_left: bool = False):
    """Symmetric sets {l, ..., x} (a_i + a_(k+1-i) = l + x), other coins only."""
    if not fixed_left and t.allows(1):
        yield ()
    lefts = [0] if fixed_left else range(lowest, x)
    for left in lefts:
        if t.span is not None and x - left + 1 > t.span:
            continue
        inner = [(left + i, x - i) for i in range(1, (x - left + 1) // 2)]
        center = [(left + x) // 2] if (x - left) % 2 == 0 and left < x else []
        for r in range(len(inner) + 1):
            for chosen in itertools.combinations(inner, r):
                mids: list[list[int]] = [[], center] if center else [[]]
                for mid in mids:
                    coins = [left] + [c for pair in chosen for c in pair] + mid
                    if t.allows(len(coins) + 1):
                        yield tuple(sorted(coins))


def _structured(family: int, t: Term, n: int) -> list[int]:
    g = np.zeros(n, dtype=np.uint64)
    _core.turning_extend(family, t.lo, -1 if t.hi is None else t.hi, g, 0, n)
    return [int(v) for v in g]


def odious(n: int) -> bool:
    """An odd number of 1 bits."""
    return bin(n).count("1") % 2 == 1


def _ruler(x: int) -> int:
    return (x + 1) & -(x + 1)


#: closed forms G(x) (coins from 0) of the named families, checked against the engine.
CLOSED_FORMS: dict[str, Callable[[int], int]] = {
    "turning-turtles": lambda x: x + 1,
    "mocking-turtles": lambda x: 2 * x + (0 if odious(x) else 1),
    "motley": lambda x: 1 << x,
    "twins": lambda x: x,
    "triplets": lambda x: 0 if x < 2 else 2 * (x - 2) + (0 if odious(x - 2) else 1),
    "ruler": _ruler,
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


def named_game(name: str) -> TurningGame:
    """A named family ("mocking-turtles", "ruler", ...) or "at-most-T" for any t, or a
    turning code.

    >>> named_game("ruler").code
    '1+C'
    """
    key = name.strip().lower().replace("_", "-").replace(" ", "-")
    if key in NAMED_GAMES:
        return TurningGame(NAMED_GAMES[key], key)
    m = re.fullmatch(r"at-most-(\d+)", key)
    if m and int(m.group(1)) >= 1:
        return TurningGame(f"1-{m.group(1)}", key)
    try:
        return TurningGame(name)
    except ValueError:
        known = ", ".join(sorted(NAMED_GAMES)) + ", at-most-T"
        raise ValueError(f"unknown game {name!r}: known games are {known}, or a turning "
                         "code like '1-3'") from None


def closed_form(name: str, x: int) -> int:
    """The closed form of a named family at coin x (coins from 0)."""
    return CLOSED_FORMS[name](x)
