"""The running account of a frontier run's values (:mod:`.run`): what its statistics and
checkpoints say about them, kept up to date value by value without keeping the values."""

from __future__ import annotations

import hashlib

import numpy as np

from ...games.heap.stats import SparseSpace, extended_counts, rare_mask_of, records
from ..certificate import ValueHasher

__all__ = ["Account"]


class Account:
    """The running account of the values: checksum, largest, records, P-positions, the
    counts behind the mask and the rare heap sizes under the mask in use."""

    def __init__(self, space: SparseSpace) -> None:
        self.space = space
        self.sha = hashlib.sha256()
        self.chain = ValueHasher()      # the width-free digests of each 2^k values
        self.largest, self.largest_at, self.p_positions = 0, 0, 0
        self.records: list[tuple[int, int]] = []
        self.counts = np.zeros(2, dtype=np.int64)  # of 2 g + (n mod 2), heap 0 included
        self.rare_n: list[np.ndarray] = []
        self.rare_g: list[np.ndarray] = []
        self.nrare = 0

    def add(self, values: np.ndarray, start: int, width: int, emask: int) -> None:
        """Accounts for g(start .. start + len - 1), in order."""
        if not len(values):
            return
        self.sha.update(values.astype(f"<u{width}", copy=False).tobytes())
        self.chain.update(values)
        top = int(values.max())
        if top > self.largest or start == 0:
            where, value = records(values)  # the chunk's own records, then past the largest
            new = where if start == 0 else where[value > self.largest]
            self.records += [(start + int(i), int(values[i])) for i in new]
            self.largest, self.largest_at = top, start + int(np.argmax(values))
        self.p_positions += int(np.count_nonzero(values == 0))
        counts = extended_counts(values, start, len(self.counts))
        if len(counts) > len(self.counts):
            self.counts = np.pad(self.counts, (0, len(counts) - len(self.counts)))
        self.counts[: len(counts)] += counts
        if emask:
            self.add_rare(values, start, emask)

    def add_rare(self, values: np.ndarray, start: int, emask: int) -> None:
        rare = rare_mask_of(values, self.space, start, emask)
        where = np.flatnonzero(rare)
        if len(where):
            self.rare_n.append(where.astype(np.int64) + start)
            self.rare_g.append(values[where].astype(np.int64))
            self.nrare += len(where)

    def clear_rare(self) -> None:
        self.rare_n, self.rare_g, self.nrare = [], [], 0

    def last_rare(self) -> int:
        return int(self.rare_n[-1][-1]) if self.rare_n else 0
