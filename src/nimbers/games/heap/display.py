"""How a heap game shows itself: ``repr`` and a notebook's view (``_repr_html_``), like the
library's other values (Nimber, Table, Derivation, MisereQuotient), from what is known --
neither computes anything.
"""

from __future__ import annotations

import html
import textwrap
from typing import Any

from .values import HeapValues

__all__ = ["HeapDisplay", "SHOWN", "stats_text"]

#: values a notebook's view of a game shows at most
SHOWN = 100
#: n:g(n) pairs a statistics text lists at most for each list (the JSON form has them all)
SHOWN_PAIRS = 200
#: the width the lists of pairs are folded to
WIDTH = 96


def _known_so_far(game: Any) -> str:
    """How many values are computed, and the proven period when there is one."""
    known = game._values.known
    said = f"{known:,} value{'s' * (known != 1)} computed"
    per = game._values.proven
    if per is not None:
        said += f", period {per.period} from heap {per.preperiod} (proven)"
    return said


def _values_table(values: list[int]) -> str:
    """g(0), g(1), ... in rows of ten, each row headed by its first heap."""
    rows = []
    for start in range(0, len(values), 10):
        cells = "".join(f"<td>{v}</td>" for v in values[start:start + 10])
        rows.append(f"<tr><th>{start}</th>{cells}</tr>")
    head = "<tr><th>g(n)</th>" + "".join(f"<th>+{i}</th>" for i in range(10)) + "</tr>"
    return f'<table class="nimbers-values">{head}{"".join(rows)}</table>' if rows else ""


def _pairs(title: str, positions: Any, values: Any) -> list[str]:
    """A list of n:g(n) pairs under its title, folded to :data:`WIDTH` columns, at most
    :data:`SHOWN_PAIRS` of them (then how many more)."""
    total = len(positions)
    words = [f"{n}:{v}" for n, v in zip(positions[:SHOWN_PAIRS].tolist(),
                                         values[:SHOWN_PAIRS].tolist())]
    if total > SHOWN_PAIRS:
        words.append(f"... ({total - SHOWN_PAIRS:,} more: --json or stats().as_dict() lists "
                     "them all)")
    return [f"{title}:"] + textwrap.wrap(" ".join(words), WIDTH, initial_indent="  ",
                                         subsequent_indent="  ", break_on_hyphens=False)


def stats_text(stats: Any) -> str:
    """A :class:`~nimbers.games.heap.stats.HeapStats` as text: the summary first (what was
    looked at, the largest value, the records and the rare heap sizes counted), then the
    lists of n:g(n) pairs folded, the longest cut at :data:`SHOWN_PAIRS`.

    >>> from nimbers.games.heap import octal_game
    >>> print(octal_game("0.16").stats(2000))  # doctest: +ELLIPSIS
    values: g(0) .. g(1999)
    largest value: 16, first at n = 1513
    records: 11 new largest values, the last at n = 1513
    rare mask: 1e; 50 rare heap sizes (heap 0 counted), the last at n = 1244
    records n:g(n):
      0:0 1:1 5:2 8:4 30:5 129:6 161:8 416:9 751:14 1170:15 1513:16
    rare n:g(n):
      0:0 1:1 2:0 3:0 4:1 7:1 9:0 10:1 13:1 15:0 16:1 19:1 22:1 23:0 25:1 28:1 31:1 34:1 37:1 55:1
      68:1 91:1 129:6 224:7 ...
    """
    records = len(stats.record_positions)
    lines = [f"values: g(0) .. g({stats.count - 1})",
             f"largest value: {stats.largest}, first at n = {stats.largest_at}",
             f"records: {records} new largest value{'s' * (records != 1)}"
             + (f", the last at n = {int(stats.record_positions[-1])}" if records else "")]
    if stats.mask is None:
        lines.append("rare values: none (no move splits a heap in two)")
    else:
        rare = len(stats.rare_positions)
        lines.append(f"rare mask: {stats.mask_name}; {rare} rare heap sizes (heap 0 counted)"
                     + (f", the last at n = {stats.last_rare}" if rare else ""))
    lines += _pairs("records n:g(n)", stats.record_positions, stats.record_values)
    if stats.mask is not None and len(stats.rare_positions):
        lines += _pairs("rare n:g(n)", stats.rare_positions, stats.rare_values)
    return "\n".join(lines)


class HeapDisplay:
    """The display half of :class:`~nimbers.games.heap.HeapGame` (its name, code, kind and
    value store are the game's)."""

    name: str
    code: str
    kind: str
    _values: HeapValues

    def __repr__(self) -> str:
        """The game, and what is known of it so far (nothing is computed to show it).

        >>> from nimbers.games.heap import octal_game
        >>> kayles = octal_game("0.77", "Kayles")
        >>> kayles
        <HeapGame Kayles (0.77): 1 value computed>
        >>> _ = kayles.period(); kayles
        <HeapGame Kayles (0.77): 168 values computed, period 12 from heap 71 (proven)>
        """
        return f"<HeapGame {self.name} ({self.code}): {_known_so_far(self)}>"

    def _repr_html_(self) -> str:
        """A notebook's view: the game, what is known, and the first values computed (at most
        :data:`SHOWN` of them, ten a row); like ``repr``, it computes nothing.

        >>> from nimbers.games.heap import octal_game
        >>> kayles = octal_game("0.77", "Kayles")
        >>> _ = kayles.nim_values(12)
        >>> print(kayles._repr_html_())  # doctest: +ELLIPSIS
        <div class="nimbers-heap-game"><p><b>Kayles</b> (octal code 0.77): 12 values computed</p>...
        """
        shown = self._values.g[: min(self._values.known, SHOWN)].tolist()
        return (f'<div class="nimbers-heap-game"><p><b>{html.escape(self.name)}</b> '
                f"({html.escape(self.kind)} code {html.escape(self.code)}): "
                f"{html.escape(_known_so_far(self))}</p>{_values_table(shown)}</div>")
