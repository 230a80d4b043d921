"""How a heap game shows itself: ``repr`` and a notebook's view (``_repr_html_``), like the
library's other values (Nimber, Table, Derivation, MisereQuotient), from what is known --
neither computes anything.
"""

from __future__ import annotations

import html
from typing import Any

from .values import HeapValues

__all__ = ["HeapDisplay", "SHOWN"]

#: values a notebook's view of a game shows at most
SHOWN = 100


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
