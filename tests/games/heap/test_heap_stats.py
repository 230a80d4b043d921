"""The sparse space's bookkeeping (nimbers.games.heap.stats): which heap sizes are rare under
a mask, against its definition written out heap size by heap size."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from nimbers.games.heap.stats import SparseSpace, rare_mask_of


def rare_by_definition(values: list[int], space: SparseSpace, start: int,
                       emask: int) -> list[bool]:
    """Heap size n with value g is rare when popcount((2 g + n mod 2) & emask) has the
    space's phase (Winning Ways ch. 4; the odd class for a parity mask of an odd space)."""
    return [bin(((g << 1) | ((start + i) & 1)) & emask).count("1") % 2 == space.phase(emask)
            for i, g in enumerate(values)]


@settings(max_examples=200, deadline=None)
@given(values=st.lists(st.integers(0, 2**20), max_size=300),
       start=st.integers(0, 2**40), emask=st.integers(0, 2**22 - 1),
       odd=st.booleans(), dtype=st.sampled_from(["u1", "u2", "i8"]))
def test_rare_mask_of_is_the_definition(values: list[int], start: int, emask: int, odd: bool,
                                        dtype: str) -> None:
    if dtype == "u1":
        values = [v & 255 for v in values]
    elif dtype == "u2":
        values = [v & 65535 for v in values]
    space = SparseSpace(parity_ok=True, odd=odd)
    got = rare_mask_of(np.array(values, dtype=dtype), space, start, emask)
    assert got.dtype == bool and got.tolist() == rare_by_definition(values, space, start, emask)


def test_no_mask_and_no_values() -> None:
    space = SparseSpace(parity_ok=True, odd=True)
    assert rare_mask_of(np.arange(5, dtype=np.uint16), space, 0, None).all()
    assert rare_mask_of(np.zeros(0, dtype=np.uint16), space, 7, 0x3c).shape == (0,)
