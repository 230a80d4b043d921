"""The ruleset of a heap game: what a move from one heap may leave, read from its
take-and-break digit list (Winning Ways ch. 4; CGSuite's TBCode), or Grundy's game (split a heap
into two unequal heaps).  Positions are separate: a position is a list of heap sizes.
"""

from __future__ import annotations

from typing import Iterator, Sequence

from ._args import heap_size

__all__ = ["HeapRules"]


class HeapRules:
    """A heap game's ruleset: its name, its code, its kind ("octal", "take-break",
    "subtraction" or "grundy") and its digit list (None for Grundy's game).

    >>> rules = HeapRules("Kayles", (0, 7, 7), "octal", "0.77")
    >>> list(rules.heap_moves(3))
    [(1, (2,)), (1, (1, 1)), (2, (1,))]
    """

    def __init__(self, name: str, rules: Sequence[int] | None, kind: str, code: str) -> None:
        self.name = name
        self.code = code
        self.kind = kind
        self.rules = tuple(rules) if rules is not None else None

    def heap_moves(self, heap: int) -> Iterator[tuple[int, tuple[int, ...]]]:
        """Every move from one heap: (tokens removed, the heaps left).

        Parameters
        ----------
        heap : int

        Returns
        -------
        iterator of (int, tuple of int)

        >>> from nimbers.games.heap import octal_game
        >>> list(octal_game("0.77").heap_moves(3))
        [(1, (2,)), (1, (1, 1)), (2, (1,))]
        """
        return self._rule_moves(heap_size(heap), None)

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
            if heap - k < 0:
                break
            yield from _taking(k, bits, heap - k, smallest_part_up_to)

    def heap_moves_taking(self, heap: int, take: int) -> Iterator[tuple[int, ...]]:
        """The heaps a move taking ``take`` tokens from one heap may leave, without going
        through the moves that take fewer (a heap of 10^11 tokens has about 10^11 moves).

        >>> from nimbers.games.heap import octal_game
        >>> list(octal_game("0.77").heap_moves_taking(4, 1))
        [(3,), (1, 2)]
        """
        heap = heap_size(heap)
        if self.rules is None:  # Grundy's game takes nothing
            return (left for k, left in self._rule_moves(heap, None) if k == take)
        if not 0 <= take < len(self.rules) or take > heap:
            return iter(())
        return (left for _, left in _taking(take, self.rules[take], heap - take, None))


def _taking(k: int, bits: int, r: int, smallest_part_up_to: int | None
            ) -> Iterator[tuple[int, tuple[int, ...]]]:
    """The moves taking k tokens that a digit allows, r tokens being left to place."""
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
