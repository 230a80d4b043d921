"""Statistics of a heap game's Grundy sequence as researchers report them (Winning Ways ch. 4;
A. Flammenkamp's tables; T. Czajka's octal-games tables): the largest value and where it first
occurs, the record values, and the sparse space -- the mask under which the fewest heap sizes
are rare.  The one home of these conventions: ``nimbers heap --stats``, the frontier runs and
the census all count with the functions here.

The conventions, as the published tables use them:

- a heap size n is *rare* under a mask m when popcount(g(n) & m) is even (the class closed
  under the nim-sum of two parts, so rare + rare parts give rare values);
- with the heap size's parity (A. Flammenkamp's position-parity type, T. Czajka's "m+pos"),
  the extended value e(n) = 2 g(n) + (n mod 2) is masked by M = 2 m + 1.  When every split
  removes an even number of tokens the rare class is popcount(e & M) even; when every split
  removes an odd number (a + b and n then differ in parity) it is the odd class: under 0.127's
  "1+pos", n is rare when g(n) + n is odd (T. Czajka, SolvedGames.md);
- heap 0 is counted like every heap size (it is rare except in an odd class);
- the mask is the one making the fewest heap sizes rare, over all the bits of the values (a
  value past the bits a mask was chosen on is classed by the widened mask, never counted rare
  only because the mask was narrow); ties go to the smallest mask;
- the records are the heap sizes where a new largest value appears, with that value.

>>> from nimbers.games.heap import octal_game
>>> s = heap_stats(octal_game("0.16").nim_values(2**14), (0, 1, 6))   # A. Flammenkamp: mask 1e
>>> s.mask_name, s.rare_count, s.largest
('1e', 53, 22)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from ... import _core

__all__ = ["HeapStats", "heap_stats", "SparseSpace", "sparse_space", "best_mask",
           "mask_name", "read_mask_name", "rare_mask_of", "records"]


@dataclass(frozen=True)
class SparseSpace:
    """Which masks a ruleset's sparse space may use: parity_ok when every split removes a
    number of tokens of one parity (the position-parity type applies), odd when that number
    is odd (the rare class of a parity mask is then the odd one)."""

    parity_ok: bool
    odd: bool

    def phase(self, emask: int) -> int:
        """The popcount parity of popcount(e & emask) that makes a heap size rare."""
        return int(emask & 1 and self.odd)


def sparse_space(rules: Sequence[int] | None) -> SparseSpace | None:
    """The sparse space of a ruleset (its digit list; None for Grundy's game), or None when
    no move leaves two heaps or some move leaves three (no sparse space).

    >>> sparse_space((0, 1, 2, 7)), sparse_space(None)
    (SparseSpace(parity_ok=True, odd=True), SparseSpace(parity_ok=True, odd=False))
    """
    splits = [k for k, d in enumerate(rules or (4,)) if d & 4]
    if not splits or any(d & 8 for d in rules or ()):
        return None
    parities = {k & 1 for k in splits}
    return SparseSpace(len(parities) == 1, parities == {1})


def mask_name(emask: int) -> str:
    """A mask over e = 2 g + parity as the tables write it: hex, "+pos" for the parity.

    >>> mask_name(0x3c), mask_name(0x3)
    ('1e', '1+pos')
    """
    return f"{emask >> 1:x}" + ("+pos" if emask & 1 else "")


def read_mask_name(name: str) -> int:
    """The mask over e that mask_name writes as name ("1e", "1+pos"): the one reader of the
    tables' spelling, for every file that keeps a mask.

    >>> read_mask_name("1e"), read_mask_name("1+pos")
    (60, 3)

    Raises
    ------
    ValueError
        Anything but lower-case hex digits (at most 8), with "+pos" or not.
    """
    digits, plus, rest = name.partition("+")
    if (plus and rest != "pos") or not digits or len(digits) > 8 or \
            any(c not in "0123456789abcdef" for c in digits):
        raise ValueError(f"not a mask: {name[:20]!r}")
    return int(digits, 16) << 1 | bool(plus)


def best_mask(counts: np.ndarray, space: SparseSpace) -> tuple[int, int]:
    """The mask over e making the fewest heap sizes rare (the smallest among equals), and
    their number: by the Walsh-Hadamard transform W of counts (counts[e]: heap sizes with that
    extended value), (N + W[M]) / 2 rare in the even class, (N - W[M]) / 2 in the odd one.
    counts has a power-of-two length covering every e.  The C core's search
    (csrc/core/sparse.h), the one both heap engines use.

    >>> best_mask(np.array([3, 0, 0, 5]), SparseSpace(True, False))   # e = 0 thrice, 3 five times
    (1, 3)
    """
    counts = np.ascontiguousarray(counts, dtype=np.int64)
    return _core.sparse_best_mask(counts, space.parity_ok, space.odd)


def extended_counts(values: np.ndarray, start: int = 0, size: int = 2) -> np.ndarray:
    """counts[e] of e = 2 g(n) + (n mod 2) over the values g(start ..), padded to a power of
    two at least size (no temporary wider than the values themselves)."""
    top = int(values.max(initial=0))
    while size <= 2 * top + 1:
        size <<= 1
    counts = np.zeros(size, dtype=np.int64)
    for parity in (0, 1):
        first = (parity - start) & 1
        counts[parity::2] += np.bincount(values[first::2], minlength=size // 2)[: size // 2]
    return counts


def rare_mask_of(values: np.ndarray, space: SparseSpace, start: int = 0,
                 emask: int | None = None) -> np.ndarray:
    """Which of the heap sizes start, start + 1, ... (values g(start ..)) are rare under
    emask (a mask over e): the C core's class test (csrc/core/sparse.h), the one both heap
    engines use.

    >>> rare_mask_of(np.array([0, 1, 2, 2]), SparseSpace(True, False), 0, 0x4).tolist()
    [True, True, False, False]
    """
    rare = np.empty(len(values), dtype=bool)
    if not len(values):
        return rare
    g = np.ascontiguousarray(values)
    if g.dtype not in (np.uint8, np.uint16, np.uint32):
        g = g.astype(np.uint32)  # Grundy values of the heap engines lie below 2^24
    _core.sparse_rare_flags(g, start, int(emask or 0), space.odd, rare)
    return rare


def records(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The heap sizes where a new largest value first appears, and those values.

    >>> [x.tolist() for x in records(np.array([0, 0, 1, 0, 2, 1, 3]))]
    [[0, 2, 4, 6], [0, 1, 2, 3]]
    """
    if not len(values):
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty
    running = np.maximum.accumulate(values)  # (the values' own width: no int64 copy)
    new = np.ones(len(values), dtype=bool)
    new[1:] = running[1:] > running[:-1]
    where = np.nonzero(new)[0]
    return where.astype(np.int64), values[where].astype(np.int64)


@dataclass(frozen=True)
class HeapStats:
    """What a researcher reads from the first count values of a heap game (Winning Ways ch. 4;
    A. Flammenkamp's tables; T. Czajka's octal-games tables), in the conventions of this
    module: the largest value and where it first occurs, the records, and the sparse space --
    the mask for which the fewest heap sizes n >= 0 are rare, with those heap sizes and their
    values.  mask is None for games without two-heap splits (no sparse space)."""

    count: int
    largest: int
    largest_at: int
    mask: int | None
    parity: bool
    rare_positions: np.ndarray
    rare_values: np.ndarray
    record_positions: np.ndarray
    record_values: np.ndarray

    @property
    def rare_count(self) -> int | None:
        """How many heap sizes are rare (heap 0 counted like the others)."""
        return None if self.mask is None else len(self.rare_positions)

    @property
    def last_rare(self) -> int | None:
        """The largest rare heap size."""
        return int(self.rare_positions[-1]) if len(self.rare_positions) else None

    @property
    def mask_name(self) -> str | None:
        """The mask as the tables write it ("fe", "1+pos")."""
        return None if self.mask is None else mask_name(self.mask << 1 | self.parity)

    def as_dict(self) -> dict[str, Any]:
        """The statistics as JSON fields, the names every command's ``--json`` uses (the
        guide's "JSON output"): the mask written as the tables write it ("1e", "1+pos"), null
        without a sparse space, as are rare_count and last_rare.

        >>> from nimbers.games.heap import octal_game
        >>> fields = octal_game("0.127").stats(60000).as_dict()
        >>> fields["mask"], fields["rare_count"], fields["last_rare"]
        ('1+pos', 693, 27106)
        """
        return {"count": self.count, "largest": self.largest, "largest_at": self.largest_at,
                "mask": self.mask_name, "rare_count": self.rare_count,
                "last_rare": self.last_rare, "rare_positions": self.rare_positions.tolist(),
                "rare_values": self.rare_values.tolist(),
                "record_positions": self.record_positions.tolist(),
                "record_values": self.record_values.tolist()}

    def __str__(self) -> str:
        from .display import stats_text  # (the text lives with the game's other displays)
        return stats_text(self)


def heap_stats(values: np.ndarray, rules: Sequence[int] | None, mask: Any = None) -> HeapStats:
    """The statistics of g(0 .. n-1) (values) of the ruleset rules (its digit list, None for
    Grundy's game): the best mask over every bit of the values (with the heap size's parity
    where the space allows it), or the given value mask (without the parity)."""
    n = len(values)
    g = values.astype(np.int64)
    largest_at = int(np.argmax(g)) if n else 0
    largest = int(g[largest_at]) if n else 0
    rec = records(g)
    space = sparse_space(rules)
    empty = np.zeros(0, dtype=np.int64)
    if space is None:
        return HeapStats(n, largest, largest_at, None, False, empty, empty, *rec)
    if mask is not None:
        if isinstance(mask, bool) or not isinstance(mask, (int, np.integer)) or mask <= 0:
            raise ValueError(f"a mask is a positive int, got {mask!r}")
        emask = int(mask) << 1
    else:
        emask = best_mask(extended_counts(g), space)[0]
    rare = rare_mask_of(g, space, 0, emask)
    sizes = np.nonzero(rare)[0].astype(np.int64)
    return HeapStats(n, largest, largest_at, emask >> 1, bool(emask & 1), sizes, g[rare], *rec)
