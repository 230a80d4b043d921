"""nimbers' misère quotients against the figures of tests/data/published_misere_quotients.txt.

Each row there names its source: a published statement (a paper, Plambeck's or the
miseregames pages) or A. Siegel's MisereSolver, the program the papers' quotients were
computed with.  A row gives only what its source says ("-" elsewhere); each is checked on
nimbers' own quotient, computed afresh.
"""

from __future__ import annotations

import pathlib
from typing import NamedTuple

import pytest

from nimbers.games import misere_quotient, octal_game

DATA = pathlib.Path(__file__).resolve().parents[1] / "data" / "published_misere_quotients.txt"

#: the most heaps a "whole" row may need before its quotient closes (Kayles closes at 167)
WHOLE_SEARCH = 400


class Row(NamedTuple):
    code: str
    heaps: str          # "whole", or N for the quotient Q_N of the heaps up to N
    order: str
    p_size: str
    tame: str
    period: str
    preperiod: str
    last_rogue: str
    source: str


def _rows() -> tuple[list[Row], set[str]]:
    rows, sources = [], set()
    for line in DATA.read_text(encoding="utf-8").splitlines():
        if line.startswith("# ["):
            sources.add(line[2:line.index("]") + 1])
        if not line.strip() or line.startswith("#"):
            continue
        cells = [c.strip() for c in line.split("|")]
        assert len(cells) == len(Row._fields), line
        rows.append(Row(*cells))
    return rows, sources


ROWS, SOURCES = _rows()


def test_every_row_names_a_source_given_in_the_header():
    assert ROWS and {r.source for r in ROWS} <= SOURCES


@pytest.mark.parametrize("row", ROWS, ids=lambda r: f"{r.code}-{r.heaps}-{r.source}")
def test_ours_agree(row: Row):
    whole = row.heaps == "whole"
    q = misere_quotient(octal_game(row.code), WHOLE_SEARCH if whole else int(row.heaps))
    assert q.proved, q.gave_up
    w = q.whole
    if whole:
        assert w.proved, w.why
    rogue = ("recur" if w.rogues_recur else "none" if w.last_rogue is None
             else str(w.last_rogue))
    ours = {"order": str(q.order), "p_size": str(len(q.p_portion)),
            "tame": "yes" if q.evidence().tame else "no",
            "period": str(w.period), "preperiod": str(w.preperiod), "last_rogue": rogue}
    for name, value in ours.items():
        theirs = getattr(row, name)
        if theirs != "-":
            assert value == theirs, f"{row.code} {name}: nimbers {value}, {row.source} {theirs}"
