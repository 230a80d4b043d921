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

import html
import os
from typing import IO, TYPE_CHECKING, Any, Iterator

import numpy as np

from . import _limits
from ._progress import Progress, ProgressOption
from .arith import nim_add, nim_mul

if TYPE_CHECKING:
    from PIL.Image import Image

__all__ = ["Table", "add_table", "mul_table", "mex_table", "format_table", "to_csv",
           "write_csv", "write_text", "table_image", "check_image", "MAX_TABLE", "MAX_CSV_TABLE"]

#: The largest table side built in memory (an n x n uint64 table takes 8 n^2 bytes).
MAX_TABLE = 1 << 15

#: The largest table side written as CSV by :func:`write_csv` (row blocks, bounded memory;
#: the output itself is about 6 n^2 bytes at this size).
MAX_CSV_TABLE = 1 << 16

#: Notebook displays show at most this many rows and columns (then an ellipsis).
DISPLAY_LIMIT = 32

_SIGNS = {"mul": "⊗", "add": "⊕", "mex": "⊗"}
_LATEX_SIGNS = {"⊗": r"\otimes", "⊕": r"\oplus"}


class Table(np.ndarray):
    """A table of nimbers: a numpy array (``uint64``) that remembers its operation, so that
    notebooks show it as a labelled table and ``str`` gives :func:`format_table`'s text.

    Everything else is the array: indexing, ``tolist()``, comparisons (which give plain
    arrays).

    Attributes
    ----------
    op : str
        The operation's sign in the corner: ``"⊗"`` (products) or ``"⊕"`` (sums).

    Examples
    --------
    >>> t = mul_table(4)
    >>> t.op, t[2, 3], isinstance(t, np.ndarray)
    ('⊗', np.uint64(1), True)
    >>> print(t)
    +-+-------+
    |⊗|0 1 2 3|
    +-+-------+
    |0|0 0 0 0|
    |1|0 1 2 3|
    |2|0 2 3 1|
    |3|0 3 1 2|
    +-+-------+
    """

    op: str

    def __new__(cls, values: Any, op: str = "⊗") -> Table:
        table = np.asarray(values).view(cls)
        table.op = op
        return table

    def __array_finalize__(self, obj: Any) -> None:
        self.op = getattr(obj, "op", "⊗")

    def __array_wrap__(self, arr: Any, context: Any = None, return_scalar: bool = False) -> Any:
        # Results of arithmetic and comparisons are plain arrays (or scalars), not tables.
        plain = np.asarray(arr)
        return plain[()] if return_scalar else plain

    def __str__(self) -> str:
        if self.ndim != 2:
            return str(np.asarray(self))
        return format_table(self, op=self.op)

    def __reduce__(self) -> Any:  # pickles as a plain array plus its sign
        return (Table, (np.asarray(self), self.op))

    def _repr_html_(self) -> str | None:
        if self.ndim != 2:
            return None
        return _html_table(np.asarray(self), self.op)

    def _repr_latex_(self) -> str | None:
        if self.ndim != 2 or max(self.shape) > DISPLAY_LIMIT:
            return None
        return _latex_table(np.asarray(self), self.op)


def _shown(n: int) -> tuple[list[int], bool]:
    """The indices a display shows, and whether it cuts some out."""
    if n <= DISPLAY_LIMIT:
        return list(range(n)), False
    return list(range(DISPLAY_LIMIT - 1)) + [n - 1], True


def _html_table(t: np.ndarray, op: str) -> str:
    rows, cut_rows = _shown(t.shape[0])
    cols, cut_cols = _shown(t.shape[1])
    head = "".join(f"<th>{c}</th>" for c in cols[:-1]) + \
        ("<th>&hellip;</th>" if cut_cols else "") + f"<th>{cols[-1]}</th>" if cols else ""
    out = ['<table class="nimbers-table">',
           f"<thead><tr><th>{html.escape(op)}</th>{head}</tr></thead><tbody>"]
    for i, r in enumerate(rows):
        if cut_rows and i == len(rows) - 1:
            out.append(f"<tr><th>&vellip;</th>{'<td></td>' * (len(cols) + cut_cols)}</tr>")
        cells = [f"<td>{t[r, c]}</td>" for c in cols]
        if cut_cols:
            cells.insert(len(cells) - 1, "<td>&hellip;</td>")
        out.append(f"<tr><th>{r}</th>{''.join(cells)}</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def _latex_table(t: np.ndarray, op: str) -> str:
    sign = _LATEX_SIGNS.get(op, op)
    cols = t.shape[1]
    lines = [r"$\begin{array}{c|" + "c" * cols + "}",
             sign + " & " + " & ".join(str(c) for c in range(cols)) + r" \\ \hline"]
    for a, row in enumerate(t.tolist()):
        lines.append(f"{a} & " + " & ".join(str(v) for v in row) + r" \\")
    lines.append(r"\end{array}$")
    return "\n".join(lines)


def _check_size(n: Any, limit: int = MAX_TABLE) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise TypeError(f"the table size must be an int, not {type(n).__name__}")
    size = int(n)
    if size < 0:
        raise ValueError(f"the table size must be non-negative, got {size}")
    if size > limit:
        raise ValueError(f"a {size} x {size} table is too large (at most {limit} x {limit})")
    return size


_ROW_BLOCK = 512
_CSV_BLOCK_CELLS = 1 << 16  # a CSV block of rows holds about this many cells (~0.5 MB text)


def _row_blocks(op: Any, n: int, rows: int) -> Iterator[tuple[int, np.ndarray]]:
    """The table of op over 0..n-1, ``rows`` rows at a time: (first row, block)."""
    r = np.arange(n, dtype=np.uint64)
    for lo in range(0, n, rows):
        hi = min(n, lo + rows)
        yield lo, op.outer(r[lo:hi], r)


_HOW_TO_RAISE = "pass memory_limit= (e.g. memory_limit='16G')"


def _outer_table(op: Any, n: int, name: str, progress: ProgressOption, sign: str,
                 limit: int | str | None) -> Table:
    """op.outer over 0..n-1, a block of rows at a time (a progress bar for big tables)."""
    n = _check_size(n)
    with _limits.memory_limit(limit):
        _limits.check_bytes(8 * n * n, f"a {n} x {n} {name}", _HOW_TO_RAISE)
    r = np.arange(n, dtype=np.uint64)
    table = np.empty((n, n), dtype=np.uint64)
    with Progress(n, name, enabled=progress, min_total=8192) as bar:
        for lo in range(0, n, _ROW_BLOCK):
            hi = min(n, lo + _ROW_BLOCK)
            op.outer(r[lo:hi], r, out=table[lo:hi])
            bar.update(hi - lo)
    return Table(table, sign)


def add_table(n: int, progress: ProgressOption = None,
              memory_limit: int | str | None = None) -> Table:
    """The n x n table of nim-sums a (+) b for a, b < n.

    Parameters
    ----------
    n : int
        The side, at most :data:`MAX_TABLE`.
    progress : bool, None or a tqdm-like class, optional
        A progress bar: by default one shows when someone watches (a terminal or a Jupyter
        notebook) and the table is big; a class such as ``tqdm.tqdm`` draws it instead.
    memory_limit : int or str, optional
        The most bytes the table may take (``8 n^2``), e.g. ``"16G"``; by default the
        memory cap of :mod:`nimbers._limits` (``NIMBERS_MEMORY_LIMIT``, else a quarter of
        physical memory).

    Returns
    -------
    Table
        A uint64 array (displayed as a labelled table).

    Raises
    ------
    ValueError
        For a negative or too large n, or a table over the memory cap (the message names
        the limit and how to go past it), before anything is allocated.

    Examples
    --------

    >>> add_table(4)[3].tolist()
    [3, 2, 1, 0]
    """
    return _outer_table(nim_add, n, "addition table", progress, "⊕", memory_limit)


def mul_table(n: int, progress: ProgressOption = None,
              memory_limit: int | str | None = None) -> Table:
    """The n x n table of nim-products a (x) b for a, b < n (Winning Ways, ch. 14 prints
    the 16 x 16 one; n = 4096 takes a fraction of a second).

    Parameters
    ----------
    n : int
        The side, at most :data:`MAX_TABLE`.
    progress : bool, None or a tqdm-like class, optional
        A progress bar: by default one shows when someone watches (a terminal or a Jupyter
        notebook) and the table is big; a class such as ``tqdm.tqdm`` draws it instead.
    memory_limit : int or str, optional
        The most bytes the table may take (``8 n^2``), e.g. ``"16G"``; by default the
        memory cap of :mod:`nimbers._limits` (``NIMBERS_MEMORY_LIMIT``, else a quarter of
        physical memory).

    Returns
    -------
    Table
        A uint64 array (displayed as a labelled table).

    Raises
    ------
    ValueError
        For a negative or too large n, or a table over the memory cap (the message names
        the limit and how to go past it), before anything is allocated.

    Examples
    --------

    >>> mul_table(16)[8, 8], mul_table(16)[5, 11]
    (np.uint64(13), np.uint64(12))
    """
    return _outer_table(nim_mul, n, "multiplication table", progress, "⊗", memory_limit)


def mex_table(n: int, progress: ProgressOption = None) -> Table:
    """The multiplication table built from its definition alone, never calling the product:
    T[a][b] = mex{ T[a'][b] ^ T[a][b'] ^ T[a'][b'] : a' < a, b' < b } (ONAG, ch. 6), the
    Sprague-Grundy values of Turning Corners (Winning Ways, ch. 14) and the Maple and J
    construction of McDonnell's J article.  Each cell is one vectorized numpy step, so
    n = 64 takes well under a second.

    Parameters
    ----------
    n : int
        The side, at most 512.
    progress : bool, None or a tqdm-like class, optional
        A progress bar (see :func:`mul_table`).

    Returns
    -------
    Table
        The multiplication table, equal to ``mul_table(n)``.

    Examples
    --------
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
    return Table(t.astype(np.uint64), "⊗")


def format_table(t: Any, op: str = "⊗", labels: Any = None) -> str:
    """The labelled text table as McDonnell's J article prints it: row and column headers,
    right-aligned columns, the operation's sign in the corner.

    Parameters
    ----------
    t : 2-D array_like
        The table.
    op : str, default "⊗"
        The sign in the corner.
    labels : sequence, optional
        The row and column labels; 0 .. n-1 by default.

    Returns
    -------
    str
        The text, lines joined by newlines.

    Raises
    ------
    ValueError
        For a table that is not 2-D.

    Examples
    --------
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
    per a, starting with a.  For big tables, :func:`write_csv` streams instead.

    Parameters
    ----------
    t : 2-D array_like
        The table.
    op : str, default "mul"
        The header's first cell.

    Returns
    -------
    str
        The CSV text, without a final newline.

    Examples
    --------
    >>> print(to_csv(mul_table(3)))
    mul,0,1,2
    0,0,0,0
    1,0,1,2
    2,0,2,3
    """
    t = np.asarray(t)
    if t.ndim != 2:
        raise ValueError("to_csv needs a 2-D table")
    lines = [_csv_header(op, t.shape[1])]
    lines += _csv_rows(0, t)
    return "\n".join(lines)


def _csv_header(op: str, cols: int) -> str:
    return ",".join([op] + [str(c) for c in range(cols)])


def _csv_rows(first: int, block: np.ndarray) -> list[str]:
    return [f"{first + i}," + ",".join(map(str, row.tolist())) for i, row in enumerate(block)]


def write_csv(file: IO[str], n: int, op: str = "mul", progress: ProgressOption = None) -> None:
    r"""Writes the n x n table of ``op`` (``"add"`` or ``"mul"``) as CSV to an open text
    file, in the form of :func:`to_csv`, computing and writing a block of rows at a time:
    memory stays bounded (a few megabytes) however large the table.

    Parameters
    ----------
    file : text file
        Where to write (``sys.stdout``, an open file, ``io.StringIO``).
    n : int
        The table covers 0 .. n-1, at most :data:`MAX_CSV_TABLE`.
    op : {"mul", "add"}
        The operation.
    progress : bool, None or a tqdm-like class
        A progress bar (see :mod:`nimbers._progress`); by default for n >= 8192 when
        someone is watching.

    Examples
    --------
    >>> import io
    >>> out = io.StringIO(); write_csv(out, 3)
    >>> out.getvalue() == to_csv(mul_table(3)) + "\n"
    True
    """
    operations = {"mul": nim_mul, "add": nim_add}
    if op not in operations:
        raise ValueError(f"op is 'mul' or 'add', not {op!r}")
    n = _check_size(n, limit=MAX_CSV_TABLE)
    file.write(_csv_header(op, n) + "\n")
    rows = max(1, _CSV_BLOCK_CELLS // max(n, 1))
    with Progress(n, f"{op} table", enabled=progress, min_total=8192) as bar:
        for first, block in _row_blocks(operations[op], n, rows):
            file.write("\n".join(_csv_rows(first, block)) + "\n")
            bar.update(len(block))


#: Tables up to this side are formatted in memory by :func:`format_table`; bigger ones stream.
_TEXT_IN_MEMORY = 256


def write_text(file: IO[str], n: int, op: str = "mul", progress: ProgressOption = None) -> None:
    r"""Writes the n x n table of ``op`` (``"add"`` or ``"mul"``) as :func:`format_table`'s
    text to an open text file, a block of rows at a time: memory stays bounded however large
    the table (a first pass over the blocks finds the widest value, so the columns line up
    exactly as :func:`format_table` aligns them).

    Parameters
    ----------
    file : text file
        Where to write.
    n : int
        The table covers 0 .. n-1, at most :data:`MAX_CSV_TABLE`.
    op : {"mul", "add"}
        The operation.
    progress : bool, None or a tqdm-like class
        A progress bar (see :mod:`nimbers._progress`).

    Examples
    --------
    >>> import io
    >>> out = io.StringIO(); write_text(out, 300, op="add")
    >>> out.getvalue() == format_table(add_table(300), op="⊕") + "\n"
    True
    """
    operations = {"mul": nim_mul, "add": nim_add}
    if op not in operations:
        raise ValueError(f"op is 'mul' or 'add', not {op!r}")
    n = _check_size(n, limit=MAX_CSV_TABLE)
    sign = _SIGNS[op]
    if n <= _TEXT_IN_MEMORY:
        file.write(format_table(_outer_table(operations[op], n, "", False, sign, None), sign)
                   + "\n")
        return
    rows = max(1, _CSV_BLOCK_CELLS // n)
    top = max(int(block.max()) for _, block in _row_blocks(operations[op], n, rows))
    width = max(len(str(n - 1)), len(str(top)))
    head = max(len(str(n - 1)), len(sign))
    body = " ".join(str(c).rjust(width) for c in range(n))
    rule = "+" + "-" * head + "+" + "-" * len(body) + "+"
    file.write(f"{rule}\n|{sign.ljust(head)}|{body}|\n{rule}\n")
    with Progress(n, f"{op} table", enabled=progress, min_total=8192) as bar:
        for first, block in _row_blocks(operations[op], n, rows):
            file.write("".join(
                f"|{str(first + i).rjust(head)}|" + " ".join(str(v).rjust(width) for v in row)
                + "|\n" for i, row in enumerate(block.tolist())))
            bar.update(len(block))
    file.write(rule + "\n")


_COLOUR_STOPS = np.array([[0.05, 0.05, 0.25], [0.1, 0.35, 0.75], [0.1, 0.7, 0.5],
                          [0.95, 0.85, 0.2], [0.85, 0.15, 0.1]])
#: bytes of float arithmetic per cell while colouring a block of rows (about a dozen float64)
_COLOUR_WORK = 100


def _colours(t: np.ndarray) -> np.ndarray:
    """An RGB image of the table (of any shape: a palette too): each value's place in
    0..max as a hue on a smooth blue-green-yellow-red scale (so equal values share a
    colour).  Coloured a block of cells at a time, so the float arithmetic never holds more
    than a block."""
    t = np.asarray(t)
    top = float(t.max()) if t.size and t.max() > 0 else 1.0
    cells = t.reshape(-1)
    colours = np.empty((cells.size, 3), dtype=np.uint8)
    for lo in range(0, cells.size, _CSV_BLOCK_CELLS):
        block = cells[lo:lo + _CSV_BLOCK_CELLS]
        pos = np.asarray(block, dtype=np.float64) / top * (len(_COLOUR_STOPS) - 1)
        low = np.floor(pos).astype(np.intp).clip(0, len(_COLOUR_STOPS) - 2)
        frac = (pos - low)[:, None]
        rgb = _COLOUR_STOPS[low] * (1 - frac) + _COLOUR_STOPS[low + 1] * frac
        colours[lo:lo + len(block)] = (rgb * 255).round()
    return colours.reshape(t.shape + (3,))


def _image_bytes(rows: int, cols: int, scale: int) -> int:
    """What a picture costs: our RGB pixels (3 bytes each, and the rows repeated before the
    columns when scaling), Pillow's copy (4 bytes a pixel), and one block of colouring."""
    cells = rows * cols
    return 3 * cells * (scale + scale * scale) + 4 * cells * scale * scale + \
        _COLOUR_WORK * _CSV_BLOCK_CELLS


def check_image(rows: int, cols: int, scale: int = 1, table_bytes: int = 0,
                memory_limit: int | str | None = None) -> None:
    """Refuses, before anything is allocated, a picture (plus ``table_bytes`` for a table
    still to be built) over the memory cap.

    Parameters
    ----------
    rows, cols : int
        The table's shape.
    scale : int, default 1
        Pixels a cell takes in each direction.
    table_bytes : int, default 0
        Bytes of a table that will be built before the picture (``8 n^2`` for a uint64 one).
    memory_limit : int or str, optional
        The cap for this check (see :func:`table_image`).

    Raises
    ------
    ValueError
        One line naming the picture's size, the cap and how to go past it.

    Examples
    --------
    >>> check_image(16, 16, scale=4)  # a small picture: nothing to say
    """
    with _limits.memory_limit(memory_limit):
        _limits.check_bytes(table_bytes + _image_bytes(rows, cols, scale),
                            f"a {cols * scale} x {rows * scale} picture of a {rows} x {cols} "
                            "table", _HOW_TO_RAISE)


def table_image(t: Any, path: str | os.PathLike[str] | None = None, scale: int = 1,
                memory_limit: int | str | None = None) -> Image:
    """A picture of a table, each value a colour: the nim-multiplication table's
    self-similar pattern.  Needs Pillow (``pip install 'nimbers[plot]'``).

    Parameters
    ----------
    t : 2-D array
        The table.
    path : str or path, optional
        Also save the picture there, as PNG.
    scale : int, default 1
        Repeat each cell scale x scale times (for small tables).
    memory_limit : int or str, optional
        The most bytes the picture may take (about 10 bytes a pixel), e.g. ``"16G"``; by
        default the memory cap of :mod:`nimbers._limits` (``NIMBERS_MEMORY_LIMIT``, else a
        quarter of physical memory).

    Returns
    -------
    PIL.Image.Image
        The picture (notebooks display it).

    Raises
    ------
    ValueError
        For an empty or not 2-D table, a scale that is not a positive int, or a picture over
        the memory cap (refused before anything is allocated).
    ImportError
        Without Pillow.

    Examples
    --------
    >>> table_image(mul_table(16), scale=4).size  # doctest: +SKIP
    (64, 64)
    """
    t = np.asarray(t)
    if t.ndim != 2 or t.size == 0:
        raise ValueError("table_image needs a non-empty 2-D table")
    if isinstance(scale, bool) or not isinstance(scale, int) or scale < 1:
        raise ValueError(f"scale must be a positive int, got {scale!r}")
    check_image(t.shape[0], t.shape[1], scale, memory_limit=memory_limit)
    try:
        from PIL import Image
    except ImportError:
        raise ImportError("table_image needs Pillow: pip install 'nimbers[plot]' "
                          "(or pip install pillow)") from None
    rgb = _colours(t)
    if scale > 1:
        rgb = rgb.repeat(scale, axis=0).repeat(scale, axis=1)
    image = Image.fromarray(rgb, mode="RGB")
    if path is not None:
        image.save(os.fspath(path), format="PNG")
    return image
