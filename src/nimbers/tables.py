"""Addition and multiplication tables of nimbers, the mex construction of the
multiplication table, and their formatting as text, CSV and pictures.

>>> mul_table(4).tolist()
[[0, 0, 0, 0], [0, 1, 2, 3], [0, 2, 3, 1], [0, 3, 1, 2]]
>>> print(format_table(mul_table(4)))
+-+-------+
|⊗|0 1 2 3|
+-+-------+
|0|0 0 0 0|
|1|0 1 2 3|
|2|0 2 3 1|
|3|0 3 1 2|
+-+-------+
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from ._progress import Progress
from .arith import nim_add, nim_mul

__all__ = ["add_table", "mul_table", "mex_table", "format_table", "to_csv", "table_image",
           "MAX_TABLE"]

#: The largest table side built in memory (an n x n uint64 table takes 8 n^2 bytes).
MAX_TABLE = 1 << 15


def _check_size(n: Any, limit: int = MAX_TABLE) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise TypeError(f"the table size must be an int, not {type(n).__name__}")
    n = int(n)
    if n < 0:
        raise ValueError(f"the table size must be non-negative, got {n}")
    if n > limit:
        raise ValueError(f"a {n} x {n} table is too large (at most {limit} x {limit})")
    return n


def _outer_table(op: Any, n: int, name: str, progress: bool | None) -> np.ndarray:
    """op.outer over 0..n-1, a block of rows at a time (a progress bar for big tables)."""
    r = np.arange(_check_size(n), dtype=np.uint64)
    table = np.empty((n, n), dtype=np.uint64)
    step = 512
    with Progress(n, name, enabled=progress, min_total=8192) as bar:
        for lo in range(0, n, step):
            hi = min(n, lo + step)
            op.outer(r[lo:hi], r, out=table[lo:hi])
            bar.update(hi - lo)
    return table


def add_table(n: int, progress: bool | None = None) -> np.ndarray:
    """The n x n table of nim-sums a (+) b for a, b < n, as uint64.

    >>> add_table(4)[3].tolist()
    [3, 2, 1, 0]
    """
    return _outer_table(nim_add, n, "addition table", progress)


def mul_table(n: int, progress: bool | None = None) -> np.ndarray:
    """The n x n table of nim-products a (x) b for a, b < n, as uint64 (n = 4096 takes a
    fraction of a second; a progress bar shows on a terminal from n = 8192).

    >>> mul_table(16)[8, 8], mul_table(16)[5, 11]
    (np.uint64(13), np.uint64(12))
    """
    return _outer_table(nim_mul, n, "multiplication table", progress)


def mex_table(n: int, progress: bool | None = None) -> np.ndarray:
    """The multiplication table built from its definition alone, never calling the product:
    T[a][b] = mex{ T[a'][b] ^ T[a][b'] ^ T[a'][b'] : a' < a, b' < b },
    the Sprague-Grundy values of Turning Corners (and the Maple/J construction of the J
    reference).  Each cell is one vectorized numpy step, so n = 64 takes well under a second.

    >>> mex_table(4).tolist() == mul_table(4).tolist()
    True
    """
    n = _check_size(n, limit=512)
    t = np.zeros((n, n), dtype=np.int64)
    with Progress(n, "mex table", enabled=progress, min_total=128) as bar:
        for a in range(1, n):
            for b in range(1, n):
                options = t[:a, b][:, None] ^ t[a, :b][None, :] ^ t[:a, :b]
                seen = np.zeros(options.size + 1, dtype=bool)
                small = options[options <= options.size]
                seen[small] = True
                t[a, b] = int(np.argmin(seen))  # the first value not seen: the mex
            bar.update()
    return t.astype(np.uint64)


def format_table(t: Any, op: str = "⊗", labels: Any = None) -> str:
    """The labelled text table of the J reference: row and column headers, right-aligned
    columns, the operation's sign in the corner.  labels defaults to 0..n-1.

    >>> print(format_table(add_table(2), op="⊕"))
    +-+---+
    |⊕|0 1|
    +-+---+
    |0|0 1|
    |1|1 0|
    +-+---+
    """
    t = np.asarray(t)
    if t.ndim != 2:
        raise ValueError("format_table needs a 2-D table")
    rows, cols = t.shape
    row_labels = list(range(rows)) if labels is None else list(labels)
    col_labels = list(range(cols)) if labels is None else list(labels)
    cells = [[str(v) for v in row] for row in t.tolist()]
    width = max([len(str(c)) for c in col_labels] + [len(c) for row in cells for c in row] + [1])
    head = max([len(str(r)) for r in row_labels] + [len(op)])
    line_body = " ".join(str(c).rjust(width) for c in col_labels)
    rule = "+" + "-" * head + "+" + "-" * len(line_body) + "+"
    out = [rule, "|" + op.ljust(head) + "|" + line_body + "|", rule]
    for label, row in zip(row_labels, cells):
        out.append("|" + str(label).rjust(head) + "|" + " ".join(c.rjust(width) for c in row) + "|")
    out.append(rule)
    return "\n".join(out)


def to_csv(t: Any, op: str = "mul") -> str:
    """The table as CSV: a header row (the operation, then the column labels), then one row
    per a, starting with a.

    >>> print(to_csv(mul_table(3)))
    mul,0,1,2
    0,0,0,0
    1,0,1,2
    2,0,2,3
    """
    t = np.asarray(t)
    if t.ndim != 2:
        raise ValueError("to_csv needs a 2-D table")
    lines = [",".join([op] + [str(c) for c in range(t.shape[1])])]
    for a, row in enumerate(t.tolist()):
        lines.append(",".join([str(a)] + [str(v) for v in row]))
    return "\n".join(lines)


def _colours(t: np.ndarray) -> np.ndarray:
    """An RGB image of the table: each value's place in 0..max as a hue on a smooth
    blue-green-yellow-red scale (so equal values share a colour)."""
    t = np.asarray(t, dtype=np.float64)
    top = t.max() if t.size and t.max() > 0 else 1.0
    x = t / top
    stops = np.array([[0.05, 0.05, 0.25], [0.1, 0.35, 0.75], [0.1, 0.7, 0.5],
                      [0.95, 0.85, 0.2], [0.85, 0.15, 0.1]])
    pos = x * (len(stops) - 1)
    lo = np.floor(pos).astype(int).clip(0, len(stops) - 2)
    frac = (pos - lo)[..., None]
    rgb = stops[lo] * (1 - frac) + stops[lo + 1] * frac
    return (rgb * 255).round().astype(np.uint8)


def table_image(t: Any, path: str | os.PathLike, scale: int = 1) -> None:
    """Writes a PNG picture of a table, each value a colour: the nim-multiplication table's
    self-similar pattern.  Needs Pillow (``pip install nimbers[plot]``).

    scale repeats each cell scale x scale times (for small tables).
    """
    t = np.asarray(t)
    if t.ndim != 2 or t.size == 0:
        raise ValueError("table_image needs a non-empty 2-D table")
    if isinstance(scale, bool) or not isinstance(scale, int) or scale < 1:
        raise ValueError(f"scale must be a positive int, got {scale!r}")
    try:
        from PIL import Image
    except ImportError:
        raise ImportError("table_image needs Pillow: pip install 'nimbers[plot]' "
                          "(or pip install pillow)") from None
    rgb = _colours(t)
    if scale > 1:
        rgb = rgb.repeat(scale, axis=0).repeat(scale, axis=1)
    Image.fromarray(rgb, mode="RGB").save(os.fspath(path), format="PNG")
