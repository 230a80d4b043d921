"""Heap games: a move changes one heap of tokens (subtraction games, octal and take-and-break
games, Grundy's game), their Grundy sequences and their periodicity.

The Python side of the C heap engine (csrc/core/heap.c): the ruleset is the digit list of its
take-and-break code (Winning Ways ch. 4), values are computed in C (the sparse-space method of
Winning Ways ch. 4 and Gangolli & Plambeck 1989 where it pays) and kept, the period is proven by
the octal periodicity theorem of Guy and Smith where it applies, and then any heap size is
answered from it.

>>> kayles = octal_game("0.77")
>>> kayles.nim_values(12).tolist()
[0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]
>>> kayles.period()
Periodicity(period=12, preperiod=71, proven=True, checked_up_to=...)
"""

from __future__ import annotations

import contextlib
import json
import os
import time
import warnings
from dataclasses import dataclass
from typing import Any, Hashable, Iterable, Iterator, Sequence

import numpy as np

from .. import _core
from .._limits import check_bytes
from .._progress import Progress
from .codes import GRUNDY_NAMES, TakeBreakCode, game_key, heap_game_code, parse_take_break_code
from .misere import ZERO_GENUS, Genus, genus_of, is_tame_genus, tame_sum
from ._shared import synchronized
from .vocabulary import MisereByEngine, deprecated_alias

#: the most tokens (in heaps that allow a move) a misère search takes on
MISERE_SEARCH_TOKENS = 40

__all__ = ["HeapGame", "HeapStats", "Periodicity", "subtraction_game", "octal_game",
           "take_break_game", "grundy_game", "heap_game_from_code"]


GUY_SMITH = "the Guy-Smith octal periodicity theorem (Winning Ways ch. 4)"
WINDOW = "the window argument for subtraction games"


@dataclass(frozen=True)
class Periodicity:
    """The Grundy sequence's period from some point on: g(n + period) = g(n) for every
    n >= preperiod (the smallest such pre-period for the smallest period).

    proven: established by the theorem named in theorem (the octal periodicity theorem of Guy
    and Smith, or the window argument for subtraction games) from the values up to
    checked_up_to; when False, those values are consistent with it and nothing more.
    saltus: non-zero for an arithmetic period, g(n + period) = g(n) + saltus (games with
    three-heap splits; reported as CGSuite's CheckPeriodicity does, never proven here)."""

    period: int | None
    preperiod: int | None
    proven: bool
    checked_up_to: int
    theorem: str | None = None
    saltus: int = 0

    def __repr__(self) -> str:
        saltus = f", saltus={self.saltus}" if self.saltus else ""
        return (f"Periodicity(period={self.period}, preperiod={self.preperiod}{saltus}, "
                f"proven={self.proven}, checked_up_to=...)")

    def __str__(self) -> str:
        if self.period is None:
            return f"no period found up to n = {self.checked_up_to}"
        if self.saltus:
            return (f"arithmetic period {self.period} with saltus {self.saltus} "
                    f"(g(n + {self.period}) = g(n) + {self.saltus}), pre-period "
                    f"{self.preperiod} (not proven up to n = {self.checked_up_to})")
        if self.proven:
            return (f"period {self.period}, pre-period {self.preperiod} (proven) by "
                    f"{self.theorem}, from {self.checked_up_to} values")
        return (f"period {self.period}, pre-period {self.preperiod} "
                f"(not proven up to n = {self.checked_up_to})")


@dataclass(frozen=True)
class HeapStats:
    """What a researcher reads from the first count values of a heap game (Winning Ways ch. 4;
    A. Flammenkamp's tables): the largest value and where it first occurs, and the sparse
    space -- the mask m for which the fewest heap sizes n >= 1 are rare (popcount(g(n) & m),
    plus n mod 2 when parity is True, even), with those rare sizes and their values.  mask
    is None for games without two-heap splits (no sparse space)."""

    count: int
    largest: int
    largest_at: int
    mask: int | None
    parity: bool
    rare_positions: np.ndarray
    rare_values: np.ndarray

    def __str__(self) -> str:
        lines = [f"values: g(0) .. g({self.count - 1})",
                 f"largest value: {self.largest}, first at n = {self.largest_at}"]
        if self.mask is None:
            lines.append("rare values: none (no move splits a heap in two)")
            return "\n".join(lines)
        parity = " with the heap size's parity" if self.parity else ""
        rare = len(self.rare_positions)
        last = int(self.rare_positions[-1]) if rare else None
        lines.append(f"rare mask: {self.mask:x}{parity}; {rare} rare positions"
                     + (f", the last at n = {last}" if rare else ""))
        shown = [f"{n}:{v}" for n, v in zip(self.rare_positions[:_SHOWN_RARE].tolist(),
                                             self.rare_values[:_SHOWN_RARE].tolist())]
        if shown:
            more = f" ... ({rare - _SHOWN_RARE} more)" if rare > _SHOWN_RARE else ""
            lines.append("rare n:g(n): " + " ".join(shown) + more)
        return "\n".join(lines)


_SHOWN_RARE = 1000
_METHODS = {"auto": 0, "exact": 1, "sparse": 2}
_SAVE_FORMAT = "nimbers heap values"


class HeapGame(MisereByEngine):
    """A game played on heaps of tokens; a move changes one heap.

    The ruleset (its code, as in CGSuite) is separate from positions: a position is a
    heap size or a sequence of heap sizes.  It answers the common vocabulary
    (:mod:`.vocabulary`); normal-play values are the nim-sum of the heaps' Grundy values,
    misère play goes by the genus (tame positions, Winning Ways ch. 13) or by a search.

    Values are computed in C (the sparse-space method of Winning Ways ch. 4 where it pays,
    the plain scan elsewhere), kept in the smallest unsigned dtype that holds them, and once
    period() has proven a period, any heap size is answered from it at once.  last_run says
    what the engine used in its last call: the value mask and parity term of the sparse
    space, the number of rare heap sizes, and how many heap sizes each method settled.

    >>> kayles = octal_game("0.77", "Kayles")
    >>> kayles.nim_value([3, 4]), kayles.winning_move([3, 4])
    (2, (0, 2, (1,)))
    >>> kayles.misere_nim_value([3, 4]), kayles.winning_move([3, 4], misere=True)
    (2, (0, 1, (1, 1)))
    >>> str(kayles.genus(5))        # normal value 4; misère value 1, then 4, 6 with *2s
    '4^146'
    """

    def __init__(self, name: str, rules: Sequence[int] | None, kind: str, code: str) -> None:
        self.name = name
        self.code = code
        self.kind = kind  # "octal", "take-break", "subtraction" or "grundy"
        self.rules = tuple(rules) if rules is not None else None
        self._g = np.zeros(1, dtype=np.uint8)  # g(0) = 0; capacity may exceed _known
        self._known = 1
        self._proven: Periodicity | None = None
        self._chunk = 1 << 14  # heap sizes per call of the engine, adapted to take ~1 s
        self.last_run: dict[str, int] = {}
        self._misere_cache: dict[Hashable, int] = {}
        self._genus_cache: dict[Any, Any] = {}
        self._genera: list[Genus] = []
        #: the memory cap of this game's tables (bytes, or "16G"); None: the default of
        #: :func:`nimbers._limits.memory_cap`
        self.memory_limit: int | str | None = None

    def __repr__(self) -> str:
        return f"<HeapGame {self.name} ({self.code})>"

    # -- values --
    @synchronized
    def nim_values(self, n: int, progress: bool | None = None, *, method: str = "auto",
                      mask: int | None = None) -> np.ndarray:
        """g(0), ..., g(n-1), in the smallest unsigned dtype that holds them.

        Computed in C and kept for later calls (a progress bar on a terminal for long runs,
        Ctrl-C stops them with KeyboardInterrupt, the values so far kept).  Once a period is
        proven (by period(), or on the way: long runs check for a proof between calls of the
        engine), the rest is filled in from it.  method: "auto" (the cheaper of the two per
        heap size), "exact" (every split scanned) or "sparse" (the rare-values method); mask:
        the sparse space's value mask (rare when popcount(g & mask) is even), chosen
        automatically when None.  Every method gives the same, exact values.

        Parameters
        ----------
        n : int
            How many values.
        progress : bool, optional
            A progress bar (default: on a terminal, for long runs).
        method : {"auto", "exact", "sparse"}
        mask : int, optional

        Returns
        -------
        numpy.ndarray

        Raises
        ------
        ValueError
            A bad n, method or mask; 2^32 heap sizes or more without a proven period; a
            table past the memory cap.

        >>> subtraction_game({1, 2, 3}).nim_values(9).tolist()
        [0, 1, 2, 3, 0, 1, 2, 3, 0]
        >>> octal_game("0.16").nim_values(10**5, mask=0x1e)[-3:].tolist()
        [5, 2, 3]
        """
        n = _count(n)
        if n > self._known and self._proven is None:
            self._compute(n, progress, method, mask, prove=True)
        if n > self._known and self._proven is not None:
            return self._by_period(n)
        return self._g[:n].copy()

    @synchronized
    def _compute(self, n: int, progress: bool | None, method: str = "auto",
                 mask: int | None = None, prove: bool = False,
                 bar: Progress | None = None) -> None:
        """Computes the values up to n; with prove, stops early once the values so far
        prove a period (checked between calls of the engine).  bar: a progress bar to
        advance instead of a new one."""
        if n <= self._known:
            return
        rule = self._proof_rule() if prove else None
        if method not in _METHODS:
            raise ValueError(f"method is 'auto', 'exact' or 'sparse', not {method!r}")
        if mask is not None and (isinstance(mask, bool) or not isinstance(mask, (int, np.integer))
                                 or not 0 < mask < 2**31):
            raise ValueError(f"a mask is an int in 1 .. 2^31 - 1, got {mask!r}")
        if n >= 2**32:
            way = ("prove a period (period()) to answer larger heaps from it"
                   if self._proof_rule() is not None else
                   "and no theorem proves a period of this game to answer them from")
            raise ValueError(f"{n} values exceed the engine's 2^32 heap sizes: {way}")
        self._reserve(n)
        engine_mask = -1 if mask is None else int(mask) << 1
        own = bar is None
        if bar is None:
            bar = Progress(n - self._known, f"{self.name} Grundy values", enabled=progress,
                           min_total=20000)
        with bar if own else contextlib.nullcontext(bar):
            # each call of the engine starts by reading the values so far (a few ns each):
            # calls of about a second, and never much shorter than that reading
            chunk = max(self._chunk, self._known // 16)
            while self._known < n:
                stop = min(n, self._known + chunk)
                began = time.monotonic()
                reached, used, rare, sparse, exact = _core.heap_extend(
                    self.rules, self._g, self._known, stop, engine_mask, _METHODS[method])
                bar.update(reached - self._known)
                self._known = reached
                self.last_run = {"mask": used >> 1, "parity": used & 1, "rare": rare,
                                 "sparse_positions": sparse, "exact_positions": exact}
                if reached < stop:  # the next value needs a wider dtype
                    self._widen()
                    continue
                if rule is not None and self._known < n:
                    found = _core.heap_period(self._g, self._known, self._known, *rule[0])
                    if found is not None:
                        self._proven = _proof(found, rule)
                        return
                elapsed = time.monotonic() - began
                if elapsed < 0.5:
                    chunk *= 2
                elif elapsed > 2 and chunk > 1 << 14:
                    chunk //= 2
                self._chunk = chunk

    def _reserve(self, n: int) -> None:
        """Room for n values, growing by half again at least (extending step by step stays
        linear); refused before allocating when it cannot fit in memory."""
        if n <= len(self._g):
            return
        size = max(n, len(self._g) + len(self._g) // 2)
        itemsize = self._g.dtype.itemsize
        _check_memory(size * itemsize + self._known * itemsize, f"{size:,} values of "
                      f"{self.name} ({itemsize} byte{'s' if itemsize > 1 else ''} each)")
        g = np.zeros(size, dtype=self._g.dtype)
        g[: self._known] = self._g[: self._known]
        self._g = g

    def _widen(self) -> None:
        wider = {np.dtype(np.uint8): np.uint16, np.dtype(np.uint16): np.uint32}
        if self._g.dtype not in wider:
            raise ValueError(f"{self.name}: a Grundy value above 2^32 - 1")
        itemsize = np.dtype(wider[self._g.dtype]).itemsize
        _check_memory(len(self._g) * itemsize, f"{len(self._g):,} values of {self.name} "
                      f"({itemsize} bytes each)")
        self._g = self._g.astype(wider[self._g.dtype])

    def _by_period(self, n: int) -> np.ndarray:
        """g(0..n-1) from the proven period."""
        per = self._proven
        assert per is not None and per.period is not None and per.preperiod is not None
        _check_memory(n * self._g.itemsize, f"{n:,} values of {self.name}")
        out = np.empty(n, dtype=self._g.dtype)
        out[: self._known] = self._g[: self._known]
        rest = np.arange(self._known, n, dtype=np.int64)
        out[self._known:] = self._g[per.preperiod + (rest - per.preperiod) % per.period]
        return out

    def _heap_value(self, heap: int) -> int:
        """The Grundy value of one heap: any size once a period is proven (a heap beyond the
        engine's 2^32 first looks for that proof).

        >>> game = octal_game("0.07")
        >>> game.nim_value(10**18), game.period().proven
        (3, True)
        """
        heap = _heap_size(heap)
        if heap >= self._known and self._proven is None:
            if heap >= 2**32 and self._proof_rule() is not None:
                self.period()  # beyond the engine: only a proven period can answer
            if self._proven is None:
                self._compute(heap + 1, None, prove=True)
        if heap >= self._known:
            per = self._proven
            assert per is not None and per.period is not None and per.preperiod is not None
            return int(self._g[per.preperiod + (heap - per.preperiod) % per.period])
        return int(self._g[heap])

    @synchronized
    def nim_value(self, position: int | Sequence[int]) -> int:
        """The Grundy value of a heap or of a position (the nim-sum over its heaps).

        Parameters
        ----------
        position : int or sequence of int
            A heap size, or the heap sizes of a position.

        Returns
        -------
        int

        >>> octal_game("0.77").nim_value(5), octal_game("0.77").nim_value([3, 5])
        (4, 7)
        """
        heaps = _heaps(position)
        if heaps and self._proven is None and max(heaps) < 2**32:
            self._compute(max(heaps) + 1, None, prove=True)  # one run for all the heaps
        total = 0
        for h in heaps:
            total ^= self._heap_value(h)
        return total

    def heap_moves(self, heap: int) -> Iterator[tuple[int, tuple[int, ...]]]:
        """Every move from one heap: (tokens removed, the heaps left).

        Parameters
        ----------
        heap : int

        Returns
        -------
        iterator of (int, tuple of int)

        >>> list(octal_game("0.77").heap_moves(3))
        [(1, (2,)), (1, (1, 1)), (2, (1,))]
        """
        return self._rule_moves(_heap_size(heap), None)

    def _rule_moves(self, heap: int, smallest_part_up_to: int | None
                    ) -> Iterator[tuple[int, tuple[int, ...]]]:
        """The moves from heap by the rules; with a bound, two-heap splits only while the
        smaller part stays within it (see _candidate_moves)."""
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
                top = r // 2 if smallest_part_up_to is None else min(r // 2, smallest_part_up_to)
                for a in range(1, top + 1):
                    yield k, (a, r - a)
            if bits & 8 and smallest_part_up_to is None:
                for a in range(1, r // 3 + 1):
                    for b in range(a, (r - a) // 2 + 1):
                        yield k, (a, b, r - a - b)

    def _described_moves(self, position: Any
                         ) -> Iterator[tuple[tuple[int, int, tuple[int, ...]], list[int]]]:
        heaps = _heaps(position)
        for i, h in enumerate(heaps):
            for k, left in self.heap_moves(h):
                yield (i, k, left), heaps[:i] + list(left) + heaps[i + 1:]

    def moves(self, position: Any) -> Iterator[Any]:
        """The positions one move away, as lists of heaps.

        Parameters
        ----------
        position : sequence of int
            The heap sizes (one int is the deprecated form of :meth:`heap_moves`).

        Returns
        -------
        iterator of list of int

        >>> list(octal_game("0.07").moves([4]))
        [[2], [1, 1]]
        """
        if isinstance(position, (int, np.integer)) and not isinstance(position, bool):
            warnings.warn("moves(heap) with one heap size is deprecated: use heap_moves(heap) "
                          "for (tokens removed, heaps left), moves(position) for positions",
                          DeprecationWarning, stacklevel=2)
            return self.heap_moves(int(position))
        return MisereByEngine.moves(self, position)

    def is_losing(self, position: int | Sequence[int], misere: bool = False) -> bool:
        """True when the player to move loses with best play (a P-position); misere=True:
        under the misère rule (whoever moves last loses).

        Parameters
        ----------
        position : int or sequence of int
            A heap size, or the heap sizes of a position.
        misere : bool

        Returns
        -------
        bool

        >>> dawson = octal_game("0.07")
        >>> dawson.is_losing([5]), dawson.is_losing([5], misere=True)
        (True, False)
        """
        if misere:
            return self.misere_nim_value(position) == 0
        return self.nim_value(position) == 0

    @synchronized
    def winning_move(self, position: int | Sequence[int],
                     misere: bool = False) -> tuple[int, int, tuple[int, ...]] | None:
        """A move to a P-position.

        Parameters
        ----------
        position : int or sequence of int
            A heap size, or the heap sizes of a position.
        misere : bool
            True: whoever moves last loses.

        Returns
        -------
        tuple or None
            (heap index, tokens removed, the heaps it leaves), or None when every move
            loses.

        >>> octal_game("0.77").winning_move([3, 4])    # Kayles: g = 3 and 1
        (0, 2, (1,))
        """
        if misere:
            move: tuple[int, int, tuple[int, ...]] | None = self._misere_winning_move(position)
            return move
        heaps = _heaps(position)
        total = self.nim_value(heaps)
        if total == 0:
            return None
        for i, h in enumerate(heaps):
            target = total ^ self._heap_value(h)
            for k, left in self._candidate_moves(h):
                v = 0
                for x in left:
                    v ^= self._heap_value(x)
                if v == target:
                    return i, k, left
        raise AssertionError("Sprague-Grundy: a non-zero position has a winning move")

    def _candidate_moves(self, heap: int) -> Iterator[tuple[int, tuple[int, ...]]]:
        """The moves from heap, or, beyond the computed values under a proven period, enough
        of them to reach every option value: a split a + b with both parts above
        preperiod + period has the values of (a - period, b + period)."""
        per = self._proven
        if heap < self._known or per is None or self.rules is None:
            yield from self.heap_moves(heap)
            return
        assert per.period is not None and per.preperiod is not None
        yield from self._rule_moves(heap, per.preperiod + per.period)

    # -- misère play --
    def _canonical(self, position: Any) -> tuple[int, ...]:
        """Heaps in order, without those that allow no move (they change nothing)."""
        return tuple(sorted(h for h in _heaps(position) if self._has_move(h)))

    def _has_move(self, heap: int) -> bool:
        return next(self.heap_moves(heap), None) is not None

    def _misere_budget(self, position: Any) -> None:
        tokens = sum(self._canonical(position))
        if tokens > MISERE_SEARCH_TOKENS:
            raise ValueError(
                f"misère play of {self.name} on {tokens} tokens would search every position "
                f"below it (more than {_partitions_below(tokens):,}); the limit is "
                f"{MISERE_SEARCH_TOKENS} tokens unless every heap is tame (see tame_up_to)")

    @synchronized
    def misere_nim_value(self, position: int | Sequence[int]) -> int:
        """The misère Grundy value G- (CGSuite's MisereNimValue): 1 for a position with no
        move, else the mex of the options' values; 0 exactly when the mover loses misère
        play.  Tame positions (Winning Ways ch. 13) are answered from the genera of their
        heaps; others are searched (at most 40 tokens in heaps that have a move).

        Parameters
        ----------
        position : int or sequence of int
            A heap size, or the heap sizes of a position.

        Returns
        -------
        int

        Raises
        ------
        ValueError
            A position too large to search.

        >>> kayles = octal_game("0.77")
        >>> [kayles.misere_nim_value(n) for n in range(8)]
        [1, 0, 2, 3, 0, 1, 3, 2]
        """
        tame = self._tame_genus(position)
        if tame is not None:
            return tame.misere_value
        return MisereByEngine.misere_nim_value(self, position)

    @synchronized
    def misere_nim_values(self, n: int) -> list[int]:
        """G-(0), ..., G-(n-1): the misère Grundy values of single heaps.

        Parameters
        ----------
        n : int

        Returns
        -------
        list of int

        >>> octal_game("0.07").misere_nim_values(10)      # Dawson's Kayles
        [1, 1, 0, 0, 2, 1, 3, 0, 0, 1]
        """
        return [self.misere_nim_value([h]) for h in range(_count(n))]

    @synchronized
    def genus(self, position: int | Sequence[int]) -> Genus:
        """The genus g^(γ0 γ1 ...) of a position (see :mod:`.misere`): normal value g, γn the
        misère value with n copies of ``*2`` added; tame sums by the Nim rule.

        Parameters
        ----------
        position : int or sequence of int
            A heap size, or the heap sizes of a position.

        Returns
        -------
        Genus

        >>> print(octal_game("0.77").genus([1, 2]))
        3^31
        """
        tame = self._tame_genus(position)
        if tame is not None:
            return tame
        key = self._canonical(position)
        self._misere_budget(key)
        return genus_of(key, self._misere_moves, self._genus_cache)

    @synchronized
    def genera(self, n: int) -> list[Genus]:
        """The genera of single heaps 0 .. n-1 (kept for later calls).

        Parameters
        ----------
        n : int

        Returns
        -------
        list of Genus

        >>> [str(g) for g in octal_game("0.77").genera(6)]
        ['0^120', '1^031', '2^20', '3^31', '1^031', '4^146']
        """
        n = _count(n)
        while len(self._genera) < n:
            h = len(self._genera)
            self._misere_budget([h])
            self._genera.append(genus_of(self._canonical([h]), self._misere_moves,
                                         self._genus_cache))
        return self._genera[:n]

    @synchronized
    def tame_up_to(self, n: int) -> bool:
        """True when heaps 0 .. n-1 all have tame genera: then every position of such heaps
        is tame and plays misère like Nim (Winning Ways ch. 13).

        Parameters
        ----------
        n : int

        Returns
        -------
        bool

        >>> subtraction_game({1, 2}).tame_up_to(20), octal_game("0.07").tame_up_to(20)
        (True, False)
        """
        return all(is_tame_genus(g) for g in self.genera(n))

    def _tame_genus(self, position: Any) -> Genus | None:
        """The genus by the tame rule, when every heap up to the largest is known tame."""
        heaps = self._canonical(position)
        if not heaps:
            return ZERO_GENUS
        top = heaps[-1] + 1
        if len(self._genera) < top:
            return None  # not known yet: the search decides (and is exact)
        if not all(is_tame_genus(g) for g in self._genera[:top]):
            return None
        return tame_sum(self._genera[h] for h in heaps)

    # -- the old names, for one release --
    grundy_values = deprecated_alias(nim_values, "grundy_values")

    def grundy(self, heap: int) -> int:
        """Deprecated: nim_value(heap)."""
        warnings.warn("grundy(heap) is deprecated: use nim_value(heap)", DeprecationWarning,
                      stacklevel=2)
        return self.nim_value(_heap_size(heap))

    def value(self, heaps: Sequence[int]) -> int:
        """Deprecated: nim_value(heaps)."""
        warnings.warn("value(heaps) is deprecated: use nim_value(heaps)", DeprecationWarning,
                      stacklevel=2)
        return self.nim_value(list(heaps))

    # -- periodicity --
    def _max_removal(self) -> int | None:
        if self.rules is None:
            return None
        return max((k for k, bits in enumerate(self.rules) if bits), default=0)

    def _proof_rule(self) -> tuple[tuple[int, int, int, int], str] | None:
        """(a, b, c, floor) with a * max(n0, floor) + b * p + c <= n values proving period p
        from pre-period n0, and the theorem's name; None when no theorem applies.

        Guy-Smith: every move leaves at most two heaps (first digit 0 or 4), t the most tokens
        a move removes; values up to index 2 n0 + 2p + t - 1 (n0 at least 1: heap 0 is part
        of no split).  Subtraction games: the window n0 .. n0 + t - 1 repeated."""
        t = self._max_removal()
        if t is None:
            return None  # Grundy's game: unequal splits, no theorem
        if self.kind == "subtraction":
            return (1, 1, t, 0), WINDOW
        if all(d < 8 for d in self.rules or ()):
            return (2, 2, t, 1), GUY_SMITH
        return None

    @synchronized
    def period(self, max_n: int | None = None, progress: bool | None = None) -> Periodicity:
        """The smallest period and its pre-period of the Grundy sequence.

        For codes whose moves leave at most two heaps (first digit 0 or 4, digits 0-7) the
        octal periodicity theorem of Guy and Smith proves it: if g(n + p) = g(n) for
        n0 <= n < 2 n0 + p + t (t the largest number of tokens a move may remove), then for
        all n >= n0.  For subtraction games a window of t repeated values proves it.  Values
        are computed (in place, growing) exactly as far as the proof of the apparent period
        needs, at most to max_n (default 2^20; 2^11 with three-heap splits); when no period
        is proven by then, the apparent one comes with proven=False.  Codes with three-heap
        splits and Grundy's game are never proven here; for the former an arithmetic period
        (a saltus, as CGSuite's CheckPeriodicity reports) is looked for as well.
        Once proven, nim_value, nim_values, is_losing and winning_move answer any heap
        size from the period.

        Parameters
        ----------
        max_n : int, optional
            The most heap sizes to compute while looking for a proof.
        progress : bool, optional
            A progress bar.

        Returns
        -------
        Periodicity

        >>> octal_game("4.3").period()       # first digit 4: proven as well
        Periodicity(period=2, preperiod=2, proven=True, checked_up_to=...)
        >>> p = octal_game("0.16").period()   # 2 * 105351 + 2 * 149459 + 2 values prove it
        >>> p.period, p.preperiod, p.checked_up_to
        (149459, 105351, 509622)
        >>> p.theorem
        'the Guy-Smith octal periodicity theorem (Winning Ways ch. 4)'
        """
        if max_n is None:  # a three-heap split costs n^2 per heap size
            max_n = 1 << 11 if any(d & 8 for d in self.rules or ()) else 1 << 20
        max_n = _count(max_n)
        if self._proven is not None:
            return self._proven
        rule = self._proof_rule()
        n = min(max_n, max(self._known, 64))
        with Progress(max_n, f"{self.name}: period search up to n = {max_n}", enabled=progress,
                      min_total=1 << 20) as bar:
            bar.update(self._known)
            found = self._period_search(n, max_n, rule, bar)
            bar.update(bar.total - bar.done)  # the search is over, proven or not
            return found

    def _period_search(self, n: int, max_n: int,
                       rule: tuple[tuple[int, int, int, int], str] | None,
                       bar: Progress) -> Periodicity:
        while True:
            self._compute(n, None, bar=bar)
            g = self._g
            if rule is not None:
                found = _core.heap_period(g, n, n, *rule[0])
                if found is not None:
                    self._proven = _proof(found, rule)
                    return self._proven
            seen = _core.heap_period(g, n, n, 1, 3, 0, 0)  # the tail shows it twice
            if n >= max_n:
                if seen is not None:
                    return Periodicity(seen[0], seen[1], False, n)
                if any(d & 8 for d in self.rules or ()):
                    arithmetic = _arithmetic_period(g[:n])
                    if arithmetic is not None:
                        return Periodicity(arithmetic[0], arithmetic[1], False, n,
                                           saltus=arithmetic[2])
                return Periodicity(None, None, False, n)
            step = int(n * 1.25) + 1
            target = None
            if rule is not None:
                # a period whose proof needs at most step values repeats on 3/8 of them
                glimpse = _core.heap_period(g, n, n, 1, 1, 3 * n // 8, 0)
                if glimpse is not None:
                    a, b, c, floor = rule[0]
                    target = a * max(glimpse[1], floor) + b * glimpse[0] + c
            n = min(max_n, target if target is not None and n < target <= step else step)

    # -- saving and resuming --
    @synchronized
    def save(self, path: str | os.PathLike[str]) -> None:
        """Saves the computed values to path (a .npy file, numpy.load reads it) and the state
        needed to go on to path + ".json" (the game, the count, a proven period).

        Parameters
        ----------
        path : str or os.PathLike

        Raises
        ------
        OSError
            The files cannot be written.

        >>> import tempfile, os
        >>> game = octal_game("0.77")
        >>> _ = game.nim_values(100)
        >>> with tempfile.TemporaryDirectory() as d:
        ...     game.save(os.path.join(d, "kayles.npy"))
        ...     again = HeapGame.load(os.path.join(d, "kayles.npy"))
        >>> again.nim_values(100).tolist() == game.nim_values(100).tolist()
        True
        """
        path = os.fspath(path)
        np.save(path, self._g[: self._known], allow_pickle=False)
        per = self._proven
        state = {"format": _SAVE_FORMAT, "version": 1, "name": self.name, "code": self.code,
                 "kind": self.kind, "rules": list(self.rules) if self.rules is not None else None,
                 "count": self._known,
                 "period": None if per is None else
                 {"period": per.period, "preperiod": per.preperiod,
                  "checked_up_to": per.checked_up_to, "theorem": per.theorem}}
        with open(_state_path(path), "w", encoding="utf-8") as f:
            json.dump(state, f, indent=1)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> HeapGame:
        """The game saved by save(path), its values restored: computing more resumes where
        the saved run stopped."""
        path = os.fspath(path)
        try:
            with open(_state_path(path), encoding="utf-8") as f:
                state = json.load(f)
        except FileNotFoundError:
            raise ValueError(f"{path}: no saved state beside it ({_state_path(path)})") from None
        if not isinstance(state, dict) or state.get("format") != _SAVE_FORMAT:
            raise ValueError(f"{_state_path(path)} is not a saved heap game")
        values = np.load(path, allow_pickle=False)
        try:
            if values.ndim != 1 or values.dtype not in (np.uint8, np.uint16, np.uint32) or \
                    len(values) != state["count"] or not len(values) or values[0] != 0:
                raise ValueError(f"{path}: the values do not match the saved state")
            rules = state["rules"]
            if rules is not None and not all(isinstance(d, int) and 0 <= d < 16 for d in rules):
                raise ValueError(f"{_state_path(path)}: bad rules {rules!r}")
            game = cls(str(state["name"]), rules, str(state["kind"]), str(state["code"]))
            per = state.get("period")
            if per is not None:
                game._proven = Periodicity(int(per["period"]), int(per["preperiod"]), True,
                                           int(per["checked_up_to"]), str(per["theorem"]))
        except (KeyError, TypeError) as exc:
            raise ValueError(f"{_state_path(path)}: not a saved heap game ({exc!r})") from None
        game._g, game._known = values.copy(), len(values)
        return game

    # -- statistics --
    @synchronized
    def stats(self, n: int | None = None, mask: int | None = None) -> HeapStats:
        """Statistics of g(0..n-1) (n: the values computed so far when None): the largest
        value and its first heap size, and the sparse space -- the mask making the fewest heap
        sizes rare (a Walsh-Hadamard transform of the value counts; with the heap size's
        parity when every split removes tokens of one parity), or the given value mask --
        with the rare heap sizes and their values.

        Parameters
        ----------
        n : int, optional
        mask : int, optional
            The sparse space's mask to report on (default: the best one).

        Returns
        -------
        HeapStats

        >>> s = octal_game("0.16").stats(2**14)
        >>> hex(s.mask), s.parity, len(s.rare_positions), s.largest
        ('0x1e', False, 52, 22)
        """
        n = self._known if n is None else _count(n)
        if n == 0:
            raise ValueError("statistics need at least one value")
        g = self.nim_values(n).astype(np.int64)
        largest_at = int(np.argmax(g))
        splits = [k for k, d in enumerate(self.rules or (4,)) if d & 4]
        empty = np.zeros(0, dtype=np.int64)
        if not splits or any(d & 8 for d in self.rules or ()):
            return HeapStats(n, int(g[largest_at]), largest_at, None, False, empty, empty)
        parity_ok = len({k & 1 for k in splits}) == 1
        sizes = np.arange(1, n, dtype=np.int64)
        extended = (g[1:] << 1) | (sizes & 1)
        if mask is not None:
            if isinstance(mask, bool) or not isinstance(mask, (int, np.integer)) or mask <= 0:
                raise ValueError(f"a mask is a positive int, got {mask!r}")
            full = int(mask) << 1
        else:
            full = _fewest_rare_mask(extended, parity_ok)
        rare = _popcount_parity(extended & full) == 0
        return HeapStats(n, int(g[largest_at]), largest_at, full >> 1, bool(full & 1),
                         sizes[rare], g[1:][rare])


def _proof(found: tuple[int, int], rule: tuple[tuple[int, int, int, int], str]) -> Periodicity:
    """The proven period (p, n0), with the number of values its proof needs."""
    p, n0 = found
    (a, b, c, floor), theorem = rule
    return Periodicity(p, n0, True, a * max(n0, floor) + b * p + c, theorem)


def _arithmetic_period(g: np.ndarray) -> tuple[int, int, int] | None:
    """The least p (with its pre-period n0 and saltus s != 0) for which g(n + p) = g(n) + s
    holds from n0 to the end, on a stretch of at least 2p and a quarter of the values."""
    g = g.astype(np.int64)
    n = len(g)
    for p in range(1, n // 3 + 1):
        d = g[p:] - g[:-p]
        s = int(d[-1])
        if s == 0 or d[-2] != s:
            continue
        bad = np.nonzero(d != s)[0]
        n0 = int(bad[-1]) + 1 if bad.size else 0
        if n - p - n0 >= max(2 * p, n // 4):
            return p, n0, s
    return None


def _fewest_rare_mask(extended: np.ndarray, parity_ok: bool) -> int:
    """The mask M (over 2 g + n mod 2) with the fewest even popcount(e & M): the transform
    W[M] = sum_e counts[e] (-1)^popcount(e & M) gives that number as (N + W[M]) / 2."""
    size = 2
    while size <= int(extended.max(initial=0)):
        size <<= 1
    w = np.bincount(extended, minlength=size).astype(np.int64)
    h = 1
    while h < size:
        w = w.reshape(-1, 2, h)
        w = np.stack((w[:, 0] + w[:, 1], w[:, 0] - w[:, 1]), axis=1).reshape(-1)
        h <<= 1
    rare = (len(extended) + w) // 2
    rare[0] = len(extended) + 1  # M = 0 makes everything rare
    if not parity_ok:
        rare[1::2] = len(extended) + 1
    return int(np.argmin(rare))


def _popcount_parity(x: np.ndarray) -> np.ndarray:
    x = x.copy()
    for shift in (32, 16, 8, 4, 2, 1):
        x ^= x >> shift
    return x & 1


def _state_path(path: str) -> str:
    return path + ".json"


def _count(n: Any) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
        raise ValueError(f"n must be a non-negative int, got {n!r}")
    return int(n)


def _check_memory(nbytes: int, what: str) -> None:
    """Refuses past the memory cap or the memory available now (:mod:`nimbers._limits`)."""
    check_bytes(nbytes, what, "set the game's memory_limit (bytes, or '16G'), or prove a "
                "period (period()) to answer any heap size from it,",
                instead="ask for fewer, or prove a period (period()) to answer any heap size "
                "from it")


def _heaps(position: Any) -> list[int]:
    """A position as a list of heap sizes: one heap size, or a sequence of them."""
    if isinstance(position, (int, np.integer)) and not isinstance(position, bool):
        return [_heap_size(position)]
    if isinstance(position, (str, bytes)) or not hasattr(position, "__iter__"):
        raise TypeError(f"a position is a heap size or a sequence of heap sizes, "
                        f"not {type(position).__name__}")
    return [_heap_size(h) for h in position]


def _partitions_below(tokens: int) -> int:
    """How many multisets of heap sizes hold at most this many tokens."""
    p = [1] + [0] * tokens
    for part in range(1, tokens + 1):
        for total in range(part, tokens + 1):
            p[total] += p[total - part]
    return sum(p)


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
    hold 4 or 8: splitting a heap without taking tokens (Winning Ways ch. 4).

    Parameters
    ----------
    code : str
        The code, hexadecimal digits allowed.
    name : str, optional
        What to call the game (default: the code).

    Returns
    -------
    HeapGame

    Raises
    ------
    TypeError
        code is not a string.
    ValueError
        Not a take-and-break code (see :func:`nimbers.games.codes.parse_take_break_code`).

    >>> take_break_game("0.3F").nim_values(10).tolist()
    [0, 1, 2, 0, 1, 2, 3, 4, 5, 3]
    """
    return _from_code(parse_take_break_code(code, hex_ok=True), name)


def octal_game(code: str, name: str | None = None) -> HeapGame:
    """An octal game, "0.77" (Kayles), "0.07" (Dawson's Kayles), "0.137" (Dawson's Chess),
    "4.07", ...: digits 0-7 (see take_break_game for their meaning).  The octal periodicity
    theorem of Guy and Smith (Winning Ways ch. 4) lets period() prove a period.

    Parameters
    ----------
    code : str
        The code, octal digits only.
    name : str, optional
        What to call the game (default: the code).

    Returns
    -------
    HeapGame

    Raises
    ------
    TypeError
        code is not a string.
    ValueError
        Not an octal code.

    >>> octal_game("0.07").nim_values(10).tolist()      # Dawson's Kayles
    [0, 0, 1, 1, 2, 0, 3, 1, 1, 0]
    """
    return _from_code(parse_take_break_code(code, hex_ok=False), name)


def _from_code(parsed: TakeBreakCode, name: str | None) -> HeapGame:
    return HeapGame(name or parsed.code, parsed.digits, parsed.kind, parsed.code)


def subtraction_game(subtraction_set: Iterable[int], name: str | None = None) -> HeapGame:
    """A subtraction game: remove s tokens from a heap, s in a finite set of positive ints
    (Winning Ways ch. 4; its values are ultimately periodic).

    Parameters
    ----------
    subtraction_set : iterable of int
        The amounts a move may remove.
    name : str, optional
        What to call the game.

    Returns
    -------
    HeapGame

    Raises
    ------
    TypeError
        Not an iterable.
    ValueError
        An empty set, or an amount that is not a positive int.

    >>> subtraction_game({1, 3, 4}).nim_values(8).tolist()
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
    """Grundy's game: split one heap into two non-empty heaps of different sizes (Winning
    Ways ch. 4).  Its periodicity is an open problem, so period() never claims a proof.

    Returns
    -------
    HeapGame

    >>> grundy_game().nim_values(10).tolist()
    [0, 0, 0, 1, 0, 2, 1, 0, 2, 1]
    """
    return HeapGame("Grundy's game", None, "grundy", "grundy")


def heap_game_from_code(code: str) -> HeapGame:
    """A heap game from its code or its name: a take-and-break code ("0.77", "4.07", "0.3F"),
    a name of :data:`.codes.HEAP_GAMES` ("kayles", "Dawson's Chess", ...) or "grundy" for
    Grundy's game.

    >>> heap_game_from_code("grundy").name, heap_game_from_code("0.77").code
    ("Grundy's game", '0.77')
    >>> heap_game_from_code("dawson's kayles").code
    '0.07'
    """
    if isinstance(code, str) and game_key(code) in GRUNDY_NAMES:
        return grundy_game()
    named = heap_game_code(code) if isinstance(code, str) else None
    if named is not None:
        return take_break_game(named.code, named.name)
    return take_break_game(code)
