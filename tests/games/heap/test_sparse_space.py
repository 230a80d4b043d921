"""The sparse space's one home (csrc/core/sparse.h, through nimbers._core): its best mask
against the definition, mask by mask, on small random value lists; its switching rule as the
engines use it (Winning Ways ch. 4; A. Flammenkamp's tables: the mask making the fewest heap
sizes rare, the smallest among equals)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nimbers import _core
from nimbers.games.heap.stats import SparseSpace, best_mask, extended_counts, rare_mask_of


def _rare_by_definition(values: np.ndarray, space: SparseSpace, emask: int) -> int:
    """Heap sizes n whose popcount(e(n) & emask) has the rare class's parity, one by one."""
    phase = int(emask & 1 and space.odd)
    return sum(bin(((int(g) << 1) | (n & 1)) & emask).count("1") % 2 == phase
               for n, g in enumerate(values))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 11), min_size=1, max_size=80), st.booleans(), st.booleans())
def test_best_mask_is_the_least_rare_by_definition(values, parity_ok, odd):
    g = np.array(values, dtype=np.int64)
    space = SparseSpace(parity_ok, odd and parity_ok)
    counts = extended_counts(g)
    mask, rare = best_mask(counts, space)
    allowed = [m for m in range(1, len(counts)) if parity_ok or not m & 1]
    if not allowed:  # every value 0 and no parity: no mask, more rare than counted
        assert (mask, rare) == (0, len(g) + 1)
        return
    by_mask = {m: _rare_by_definition(g, space, m) for m in allowed}
    least = min(by_mask.values())
    assert rare == least
    assert mask == min(m for m, r in by_mask.items() if r == least)
    assert int(np.count_nonzero(rare_mask_of(g, space, 0, mask))) == rare


@settings(max_examples=80, deadline=None)
@given(st.lists(st.integers(0, 2**24 - 1), max_size=60), st.integers(0, 2**40),
       st.integers(0, 2**25), st.booleans(),
       st.sampled_from([np.uint8, np.uint16, np.uint32, np.int64]))
def test_classes_by_definition(values, start, emask, odd, dtype):
    """rare_mask_of (the core's class test) heap size by heap size, any start and width."""
    g = np.array(values, dtype=np.int64) & int(np.iinfo(dtype).max)
    space = SparseSpace(True, odd)
    phase = int(emask & 1 and odd)
    expected = [bin(((int(v) << 1) | ((start + j) & 1)) & emask).count("1") % 2 == phase
                for j, v in enumerate(g)]
    assert rare_mask_of(g.astype(dtype), space, start, emask).tolist() == expected


def test_no_mask_allowed():
    """Counts of one entry pair with no parity: no mask but 0, and more rare than counted."""
    assert best_mask(np.array([4, 2]), SparseSpace(False, False)) == (0, 7)


@pytest.mark.parametrize("counts", [np.array([1, 2, 3]), np.array([1.0, 2.0]),
                                    np.array([-1, 2])])
def test_bad_counts_are_refused(counts):
    with pytest.raises(ValueError):
        _core.sparse_best_mask(counts, True, False)


@pytest.mark.parametrize("values, out", [
    (np.zeros(4, np.float32), np.zeros(4, bool)),    # not unsigned integers
    (np.zeros(4, np.uint64), np.zeros(4, bool)),     # 8 bytes
    (np.zeros(4, np.uint16), np.zeros(3, bool)),     # out too short
    (np.zeros(4, np.uint16), np.zeros(4, np.uint16)),  # out not bytes
])
def test_bad_class_buffers_are_refused(values, out):
    with pytest.raises(ValueError):
        _core.sparse_rare_flags(values, 0, 3, False, out)


@given(st.integers(0, 10**9), st.integers(0, 10**9))
def test_the_switching_rule(rare, best):
    """A switch needs a gain of max(8, rare / 8), or of 1 when eager; the next look comes after
    max(8, rare / 16) more rare heap sizes."""
    assert _core.sparse_mask_better(rare, best, False) == (best + max(8, rare // 8) <= rare)
    assert _core.sparse_mask_better(rare, best, True) == (best < rare)
    assert _core.sparse_next_check(rare) == rare + max(8, rare // 16)
