"""An open class's rare and record values, as a results folder lists them
(``lists/CODE.rare.csv`` and ``CODE.records.csv``): a frontier run writes its own
(``rare.csv``, ``records.csv``); a row made in memory has none, and :func:`row_lists` makes
them from the class's values, under the row's own mask, in the same convention (heap 0
counted among the rare, as the published tables count it; a record is each new largest
value and where, heap 0's first).

>>> from nimbers.games.heap import octal_game
>>> from nimbers.research.census.depth import advance_code, summary
>>> seq = advance_code("0.16", 1 << 12)
>>> row = {"code": "0.16", "reached": seq.reached, **summary(seq)}
>>> rare, records = row_lists(row, octal_game("0.16").nim_values(row["reached"]))
>>> len(rare) == row["rare_count"], rare[-1][0] == row["last_rare"]
(True, True)
>>> records[-1] == (row["largest_at"], row["largest"])
True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...games.heap import octal_game
from ...games.heap.stats import rare_mask_of, records, sparse_space

__all__ = ["row_lists", "Pairs"]

#: (heap size, value) pairs, as the lists' rows
Pairs = list[tuple[int, int]]


def row_lists(row: dict[str, Any], g: np.ndarray) -> tuple[Pairs, Pairs]:
    """(rare, records) of the class of row, from g = its standard form's values g(0 ..
    row["reached"] - 1): the heap sizes rare under the row's mask (``rare_mask``, with
    ``rare_parity``) and the record values.

    Raises
    ------
    ValueError
        g is not as long as the row reached, or the row has no sparse space (no mask).
    """
    if len(g) != int(row["reached"]):
        raise ValueError(f"{row['code']}: {len(g)} values, the row reached {row['reached']}")
    rules = octal_game(row["code"]).rules
    space = sparse_space(tuple(rules)) if rules is not None else None
    if space is None or row.get("rare_mask") is None:
        raise ValueError(f"{row['code']}: the row has no mask (no sparse space) to list by")
    emask = (int(row["rare_mask"], 16) << 1) | int(bool(row["rare_parity"]))
    at = np.flatnonzero(rare_mask_of(g, space, 0, emask))
    rare = [(int(n), int(g[n])) for n in at]
    where, largest = records(g)
    return rare, [(int(n), int(v)) for n, v in zip(where, largest)]
