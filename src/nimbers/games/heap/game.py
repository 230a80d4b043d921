"""HeapGame: a ruleset played on heaps of tokens, where a move changes one heap.

The class answers the common vocabulary (:mod:`nimbers.games.vocabulary`) from its parts: the
ruleset (its take-and-break digit list, or Grundy's game) gives the moves; the values and the
period come from the store that drives the C engine (:mod:`.values`); misère play from
:mod:`.misere_play`; statistics from :mod:`.stats`; saving from :mod:`.storage`; its display from :mod:`.display`.
"""

from __future__ import annotations

import os
import warnings
from typing import Any, Iterator, Sequence

import numpy as np

from ..vocabulary import MisereByEngine, deprecated_alias, synchronized
from ._args import count, heap_size, heaps_of
from .display import HeapDisplay
from .misere_play import HeapMisere
from .periodicity import Periodicity
from .rules import HeapRules
from .stats import HeapStats, heap_stats
from .storage import load_values, save_values
from .values import HeapValues

__all__ = ["HeapGame"]

Move = tuple[int, int, tuple[int, ...]]

class HeapGame(HeapRules, HeapMisere, HeapDisplay):
    """A game played on heaps of tokens; a move changes one heap.

    The ruleset (its code, as in CGSuite) is separate from positions: a position is a
    heap size or a sequence of heap sizes.  It answers the common vocabulary
    (:mod:`nimbers.games.vocabulary`); normal-play values are the nim-sum of the heaps' Grundy
    values, misère play goes by the genus (tame positions, Winning Ways ch. 13) or by a search.

    Values are computed in C (the sparse-space method of Winning Ways ch. 4 where it pays,
    the plain scan elsewhere), kept in the smallest unsigned dtype that holds them, and once
    period() has proven a period, any heap size is answered from it at once.  last_run says
    what the engine used in its last call: the value mask and parity term of the sparse
    space, the number of rare heap sizes, and how many heap sizes each method settled.

    >>> from nimbers.games.heap import octal_game
    >>> kayles = octal_game("0.77", "Kayles")
    >>> kayles.nim_value([3, 4]), kayles.winning_move([3, 4])
    (2, (0, 2, (1,)))
    >>> kayles.misere_nim_value([3, 4]), kayles.winning_move([3, 4], misere=True)
    (2, (0, 1, (1, 1)))
    >>> str(kayles.genus(5))        # normal value 4; misère value 1, then 4, 6 with *2s
    '4^146'
    """

    def __init__(self, name: str, rules: Sequence[int] | None, kind: str, code: str) -> None:
        HeapRules.__init__(self, name, rules, kind, code)
        HeapMisere.__init__(self)
        self._values = HeapValues(name, self.rules, kind)
        #: the memory cap of this game's tables (bytes, or "16G"); None: the default of
        #: :func:`nimbers._limits.memory_cap`
        self.memory_limit: int | str | None = None

    @property
    def last_run(self) -> dict[str, int]:
        """What the engine used in its last call (see the class)."""
        return self._values.last_run

    @property
    def _known(self) -> int:
        return self._values.known  # how many values are computed (tests read it)

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

        >>> from nimbers.games.heap import octal_game, subtraction_game
        >>> subtraction_game({1, 2, 3}).nim_values(9).tolist()
        [0, 1, 2, 3, 0, 1, 2, 3, 0]
        >>> octal_game("0.16").nim_values(10**5, mask=0x1e)[-3:].tolist()
        [5, 2, 3]
        """
        return self._values.values(n, progress, method, mask)

    @synchronized
    def nim_value(self, position: int | Sequence[int]) -> int:
        """The Grundy value of a heap or of a position (the nim-sum over its heaps); any heap
        size once a period is proven (a heap beyond the engine's 2^32 first looks for that
        proof).

        Parameters
        ----------
        position : int or sequence of int
            A heap size, or the heap sizes of a position.

        Returns
        -------
        int

        >>> from nimbers.games.heap import octal_game
        >>> octal_game("0.77").nim_value(5), octal_game("0.77").nim_value([3, 5])
        (4, 7)
        >>> game = octal_game("0.07")
        >>> game.nim_value(10**18), game.period().proven
        (3, True)
        """
        heaps = heaps_of(position)
        store = self._values
        if heaps and store.proven is None and max(heaps) < 2**32:
            store.compute(max(heaps) + 1, None, prove=True)  # one run for all the heaps
        total = 0
        for h in heaps:
            total ^= store.value(h)
        return total

    # -- moves (heap_moves: the ruleset's, see .rules) --
    def _described_moves(self, position: Any) -> Iterator[tuple[Move, list[int]]]:
        heaps = heaps_of(position)
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

        >>> from nimbers.games.heap import octal_game
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

        >>> from nimbers.games.heap import octal_game
        >>> dawson = octal_game("0.07")
        >>> dawson.is_losing([5]), dawson.is_losing([5], misere=True)
        (True, False)
        """
        if misere:
            q = self._outcome_quotient(position)    # a misère quotient, kept or computed
            if q is not None:
                return bool(q.is_losing(heaps_of(position)))
            return self.misere_nim_value(position) == 0
        return self.nim_value(position) == 0

    @synchronized
    def winning_move(self, position: int | Sequence[int], misere: bool = False) -> Move | None:
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

        >>> from nimbers.games.heap import octal_game
        >>> octal_game("0.77").winning_move([3, 4])    # Kayles: g = 3 and 1
        (0, 2, (1,))
        """
        if misere:
            q = self._outcome_quotient(position)    # a misère quotient, kept or computed
            if q is not None:
                found: Move | None = q.winning_move(heaps_of(position), self.heap_moves)
                return found
            move: Move | None = self._misere_winning_move(position)
            return move
        heaps = heaps_of(position)
        total = self.nim_value(heaps)
        if total == 0:
            return None
        value = self._values.value
        for i, h in enumerate(heaps):
            target = total ^ value(h)
            for k, left in self._candidate_moves(h):
                v = 0
                for x in left:
                    v ^= value(x)
                if v == target:
                    return i, k, left
        raise AssertionError("Sprague-Grundy: a non-zero position has a winning move")

    def _candidate_moves(self, heap: int) -> Iterator[tuple[int, tuple[int, ...]]]:
        """The moves from heap, or, beyond the computed values under a proven period, enough
        of them to reach every option value: a split a + b with both parts above
        preperiod + period has the values of (a - period, b + period)."""
        per = self._values.proven
        if heap < self._values.known or per is None or self.rules is None:
            yield from self.heap_moves(heap)
            return
        assert per.period is not None and per.preperiod is not None
        yield from self._rule_moves(heap, per.preperiod + per.period)

    # -- periodicity --
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

        >>> from nimbers.games.heap import octal_game
        >>> octal_game("4.3").period()       # first digit 4: proven as well
        Periodicity(period=2, preperiod=2, proven=True, checked_up_to=...)
        >>> p = octal_game("0.16").period()   # 2 * 105351 + 2 * 149459 + 2 values prove it
        >>> p.period, p.preperiod, p.checked_up_to
        (149459, 105351, 509622)
        >>> p.theorem
        'the Guy-Smith octal periodicity theorem (Winning Ways ch. 4)'
        """
        return self._values.find_period(max_n, progress)

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
        ValueError
            An empty name, or one of an existing directory or device.
        OSError
            The files cannot be written (each is written whole or not at all).

        >>> import tempfile, os
        >>> from nimbers.games.heap import octal_game
        >>> game = octal_game("0.77")
        >>> _ = game.nim_values(100)
        >>> with tempfile.TemporaryDirectory() as d:
        ...     game.save(os.path.join(d, "kayles.npy"))
        ...     again = HeapGame.load(os.path.join(d, "kayles.npy"))
        >>> again.nim_values(100).tolist() == game.nim_values(100).tolist()
        True
        """
        save_values(os.fspath(path), self._values, self.code)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> HeapGame:
        """The game saved by save(path), its values restored: computing more resumes where
        the saved run stopped.  What is read is checked first (see :mod:`.storage`): a file
        that is not a save of nimbers, or whose values or period break the rules, raises
        ValueError."""
        store, code = load_values(os.fspath(path))
        game = cls(store.name, store.rules, store.kind, code)
        game._values = store
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

        >>> from nimbers.games.heap import octal_game
        >>> s = octal_game("0.16").stats(2**14)
        >>> s.mask_name, s.rare_count, s.last_rare, s.largest
        ('1e', 53, 13935, 22)
        """
        n = self._values.known if n is None else count(n)
        if n == 0:
            raise ValueError("statistics need at least one value")
        return heap_stats(self.nim_values(n), self.rules, mask)

    # -- the old names, for one release --
    grundy_values = deprecated_alias(nim_values, "grundy_values")

    def grundy(self, heap: int) -> int:
        """Deprecated: nim_value(heap)."""
        warnings.warn("grundy(heap) is deprecated: use nim_value(heap)", DeprecationWarning,
                      stacklevel=2)
        return self.nim_value(heap_size(heap))

    def value(self, heaps: Sequence[int]) -> int:
        """Deprecated: nim_value(heaps)."""
        warnings.warn("value(heaps) is deprecated: use nim_value(heaps)", DeprecationWarning,
                      stacklevel=2)
        return self.nim_value(list(heaps))
