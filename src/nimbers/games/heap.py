"""Heap games: a move changes one heap of tokens (subtraction games, octal and take-and-break
games, Grundy's game), their Grundy sequences and their periodicity.

The Python side of the C heap engine (csrc/heap.c): the ruleset is the digit list of its
take-and-break code (Winning Ways ch. 4), values are computed in C in chunks and kept, and the
period is proven by the octal periodicity theorem of Guy and Smith where it applies.

>>> kayles = octal_game("0.77")
>>> kayles.grundy_values(12).tolist()
[0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]
>>> kayles.period()
Periodicity(period=12, preperiod=71, proven=True, checked_up_to=...)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Iterator, Sequence

import numpy as np

from .. import _core
from .._progress import Progress
from .codes import TakeBreakCode, parse_take_break_code

__all__ = ["HeapGame", "Periodicity", "subtraction_game", "octal_game", "take_break_game",
           "grundy_game", "heap_game_from_code"]


@dataclass(frozen=True)
class Periodicity:
    """The Grundy sequence's period from some point on: g(n + period) = g(n) for every
    n >= preperiod (the smallest such pre-period for the smallest period).

    proven: established by a theorem (the octal periodicity theorem of Guy and Smith, or the
    window argument for subtraction games) from values computed up to checked_up_to; when
    False, the values up to checked_up_to are consistent with it and nothing more."""

    period: int | None
    preperiod: int | None
    proven: bool
    checked_up_to: int

    def __repr__(self) -> str:
        return (f"Periodicity(period={self.period}, preperiod={self.preperiod}, "
                f"proven={self.proven}, checked_up_to=...)")

    def __str__(self) -> str:
        if self.period is None:
            return f"no period found up to n = {self.checked_up_to}"
        state = "proven" if self.proven else f"not proven up to n = {self.checked_up_to}"
        return f"period {self.period}, pre-period {self.preperiod} ({state})"


_CHUNK = 2048


class HeapGame:
    """A game played on heaps of tokens; a move changes one heap.

    The ruleset (its code, as in CGSuite) is separate from positions: a position is a
    sequence of heap sizes, and its value is the nim-sum of the heaps' Grundy values.
    """

    def __init__(self, name: str, rules: Sequence[int] | None, kind: str, code: str) -> None:
        self.name = name
        self.code = code
        self.kind = kind  # "octal", "take-break", "subtraction" or "grundy"
        self.rules = tuple(rules) if rules is not None else None
        self._g = np.zeros(1, dtype=np.uint32)  # g(0) = 0
        self._known = 1

    def __repr__(self) -> str:
        return f"<HeapGame {self.name} ({self.code})>"

    # -- values --
    def grundy_values(self, n: int, progress: bool | None = None) -> np.ndarray:
        """g(0), ..., g(n-1), computed in C (kept for later calls); a progress bar on a
        terminal for long runs.

        >>> subtraction_game({1, 2, 3}).grundy_values(9).tolist()
        [0, 1, 2, 3, 0, 1, 2, 3, 0]
        """
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
            raise ValueError(f"n must be a non-negative int, got {n!r}")
        n = int(n)
        if n > 50_000_000:
            raise ValueError(f"{n} values would not fit in reasonable time and memory")
        if n > self._known:
            g = np.zeros(n, dtype=np.uint32)
            g[: self._known] = self._g[: self._known]
            with Progress(n - self._known, f"{self.name} Grundy values", enabled=progress,
                          min_total=20000) as bar:
                start = self._known
                while start < n:
                    stop = min(n, start + _CHUNK)
                    _core.heap_extend(self.rules, g, start, stop)
                    bar.update(stop - start)
                    start = stop
            self._g, self._known = g, n
        return self._g[:n].copy()

    def grundy(self, heap: int) -> int:
        """The Grundy value of one heap."""
        heap = _heap_size(heap)
        return int(self.grundy_values(heap + 1)[heap])

    def moves(self, heap: int) -> Iterator[tuple[int, tuple[int, ...]]]:
        """Every move from one heap: (tokens removed, the heaps left)."""
        heap = _heap_size(heap)
        if self.rules is None:  # Grundy's game: two unequal heaps
            for a in range(1, (heap + 1) // 2):
                if a != heap - a:
                    yield 0, (a, heap - a)
            return
        for k, bits in enumerate(self.rules):
            r = heap - k
            if r < 0:
                break
            if bits & 1 and r == 0:
                yield k, ()
            if bits & 2 and r >= 1 and k > 0:
                yield k, (r,)
            if bits & 4:
                for a in range(1, r // 2 + 1):
                    yield k, (a, r - a)
            if bits & 8:
                for a in range(1, r // 3 + 1):
                    for b in range(a, (r - a) // 2 + 1):
                        yield k, (a, b, r - a - b)

    def value(self, heaps: Sequence[int]) -> int:
        """The Grundy value of a position (the nim-sum over its heaps)."""
        heaps = [_heap_size(h) for h in heaps]
        g = self.grundy_values(max(heaps, default=0) + 1)
        total = 0
        for h in heaps:
            total ^= int(g[h])
        return total

    def is_losing(self, heaps: Sequence[int]) -> bool:
        """True when the player to move loses with best play (a P-position)."""
        return self.value(heaps) == 0

    def winning_move(self, heaps: Sequence[int]) -> tuple[int, int, tuple[int, ...]] | None:
        """A move to a P-position: (heap index, tokens removed, the heaps it leaves), or
        None when every move loses.

        >>> octal_game("0.77").winning_move([3, 4])    # Kayles: g = 3 and 1
        (0, 2, (1,))
        """
        total = self.value(heaps)
        if total == 0:
            return None
        g = self._g
        for i, h in enumerate(heaps):
            target = total ^ int(g[h])
            for k, left in self.moves(h):
                v = 0
                for x in left:
                    v ^= int(g[x])
                if v == target:
                    return i, k, left
        raise AssertionError("Sprague-Grundy: a non-zero position has a winning move")

    # -- periodicity --
    def _max_removal(self) -> int | None:
        if self.rules is None:
            return None
        return max((k for k, bits in enumerate(self.rules) if bits), default=0)

    def period(self, max_n: int = 1 << 16, progress: bool | None = None) -> Periodicity:
        """The smallest period and its pre-period of the Grundy sequence.

        For octal games (digits 0-7, first digit 0) the octal periodicity theorem of Guy and
        Smith proves it: if g(n + p) = g(n) for n0 <= n < 2 n0 + p + t (t the largest number
        of tokens a move may remove), then for all n >= n0.  For subtraction games a window
        of t equal values proves it.  Values are computed up to max_n (doubling from 1024);
        when no period is proven by then, the apparent one comes with proven=False.
        """
        t = self._max_removal()
        n = 1024
        while True:
            n = min(n, max_n)
            g = self.grundy_values(n, progress=progress).astype(np.int64)
            found = _smallest_period(g, t, self.kind)
            if found is not None and found.proven:
                return found
            if n >= max_n:
                return found if found is not None else Periodicity(None, None, False, n)
            n *= 2


def _smallest_period(g: np.ndarray, t: int | None, kind: str) -> Periodicity | None:
    """The smallest p (and its smallest pre-period) for which the tail of g repeats, and
    whether the data prove it."""
    n = len(g)
    apparent = None
    for p in range(1, n // 3 + 1):
        if not np.array_equal(g[n - 3 * p:n - p], g[n - 2 * p:]):
            continue  # the last 2p values do not repeat with period p: no need to look further
        diff = np.nonzero(g[p:] != g[:-p])[0]
        n0 = int(diff[-1]) + 1 if diff.size else 0
        if n - p - n0 < 2 * p:  # the tail must show the period at least twice
            continue
        if kind == "octal" and t is not None:
            proven = n >= 2 * n0 + 2 * p + t
        elif kind == "subtraction" and t is not None:
            proven = n >= n0 + p + t
        else:
            proven = False
        result = Periodicity(p, n0, proven, n)
        if proven:
            return result
        if apparent is None:
            apparent = result
    return apparent


def _heap_size(h: Any) -> int:
    if isinstance(h, bool) or not isinstance(h, (int, np.integer)):
        raise TypeError(f"a heap size is a non-negative int, not {type(h).__name__}")
    if h < 0:
        raise ValueError(f"a heap size is non-negative, got {h}")
    return int(h)


def take_break_game(code: str, name: str | None = None) -> HeapGame:
    """A take-and-break game in CGSuite's notation "d0.d1d2...": digit dk (hex) says what a
    move removing k tokens may leave, as a sum of bits: 1 = nothing (the whole heap is
    taken), 2 = one heap, 4 = two heaps, 8 = three heaps.  d0 (before the point) may only
    hold 4 or 8: splitting a heap without taking tokens.

    >>> take_break_game("0.3F").grundy_values(10).tolist()
    [0, 1, 2, 0, 1, 2, 3, 4, 5, 3]
    """
    return _from_code(parse_take_break_code(code, hex_ok=True), name)


def octal_game(code: str, name: str | None = None) -> HeapGame:
    """An octal game, "0.77" (Kayles), "0.07" (Dawson's Kayles), "0.137" (Dawson's Chess),
    "4.07", ...: digits 0-7 (see take_break_game for their meaning).

    >>> octal_game("0.07").grundy_values(10).tolist()      # Dawson's Kayles
    [0, 0, 1, 1, 2, 0, 3, 1, 1, 0]
    """
    return _from_code(parse_take_break_code(code, hex_ok=False), name)


def _from_code(parsed: TakeBreakCode, name: str | None) -> HeapGame:
    return HeapGame(name or parsed.code, parsed.digits, parsed.kind, parsed.code)


def subtraction_game(subtraction_set: Iterable[int], name: str | None = None) -> HeapGame:
    """A subtraction game: remove s tokens from a heap, s in a finite set of positive ints.

    >>> subtraction_game({1, 3, 4}).grundy_values(8).tolist()
    [0, 1, 0, 1, 2, 3, 2, 0]
    """
    try:
        values = sorted(set(subtraction_set))
    except TypeError:
        raise TypeError("a subtraction set is a finite set of positive ints") from None
    if not values:
        raise ValueError("the subtraction set is empty: no move is ever possible")
    for s in values:
        if isinstance(s, bool) or not isinstance(s, (int, np.integer)) or s <= 0:
            raise ValueError(f"subtraction amounts are positive ints, got {s!r}")
    if values[-1] > 1_000_000:
        raise ValueError("subtraction amounts above 10^6 are not supported")
    rules = [0] * (values[-1] + 1)
    for s in values:
        rules[s] = 3  # take s: the heap may vanish or remain
    label = name or "subtraction{" + ",".join(str(s) for s in values) + "}"
    code = "0." + "".join(str(d) for d in rules[1:]) if values[-1] < 40 else label
    return HeapGame(label, rules, "subtraction", code)


def grundy_game() -> HeapGame:
    """Grundy's game: split one heap into two non-empty heaps of different sizes.  Its
    periodicity is an open problem, so period() never claims a proof.

    >>> grundy_game().grundy_values(10).tolist()
    [0, 0, 0, 1, 0, 2, 1, 0, 2, 1]
    """
    return HeapGame("Grundy's game", None, "grundy", "grundy")


def heap_game_from_code(code: str) -> HeapGame:
    """A heap game from its code: a take-and-break code ("0.77", "4.07", "0.3F") or "grundy"
    for Grundy's game.

    >>> heap_game_from_code("grundy").name, heap_game_from_code("0.77").code
    ("Grundy's game", '0.77')
    """
    if isinstance(code, str) and code.strip().lower() in ("grundy", "grundys-game"):
        return grundy_game()
    return take_break_game(code)
