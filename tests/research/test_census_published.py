"""The classes the census's earlier dense rule capped at 2^17 (issue 48) against every figure
published for them that could be read: the OEIS entries' first values (fifteen of the 34
classes have an entry), T. Czajka's columns for .04 and .06 at 2^17; and each class still
capped has its reason stated in results/census/README.md (the rare share where it stands and
what going deeper would cost)."""

import re
from pathlib import Path
from typing import Any

import pytest

from nimbers.games.heap import octal_game
from nimbers.research.census import depth
from nimbers.research.census.classes import canonical
from nimbers.research.census.depth import EARLIER_RULE
from nimbers.research.census.table import all_rows, read_rows

DATA = Path(__file__).resolve().parents[1] / "data"
CENSUS = Path(__file__).resolve().parents[2] / "results" / "census"


def _lines(name: str) -> list[list[str]]:
    text = (DATA / name).read_text(encoding="utf-8")
    return [line.split() for line in text.splitlines() if line and not line.startswith("#")]


def _once_capped_rows() -> list[dict[str, Any]]:
    """The rows of results/census (every level's) that show a class capped by the earlier
    rule."""
    return [r for r in all_rows(str(CENSUS), repair=False)
            if (r["depth"], r.get("cap")) == EARLIER_RULE]


def _once_capped() -> set[str]:
    """The members of the classes a row of results/census shows capped by the earlier rule."""
    return {m for r in _once_capped_rows() for m in r["members"]}


def _current(code: str) -> dict[str, Any]:
    """The current row of results/census for the class whose members hold code."""
    return next(r for r in read_rows(str(CENSUS), repair=False)
                if canonical(code) in r["members"])


OEIS = _lines("oeis_capped_first_values.txt")


def test_the_oeis_file_holds_the_fifteen_entries_of_the_capped_classes() -> None:
    assert len(OEIS) == 15 and len({a for a, _c, _v in OEIS}) == 15
    assert {canonical(code) for _a, code, _v in OEIS} <= _once_capped()


@pytest.mark.parametrize("entry", OEIS, ids=lambda e: f"{e[0]}:{e[1]}")
def test_the_census_rows_begin_with_the_oeis_values(entry: list[str]) -> None:
    """a(n) = g(n) from n = 1: the ordinary engine's values for every term the entry shows,
    and the census row's first values (heap 0 .. 31; heap 0 is 0 in every octal game and
    not in the entries)."""
    _a, code, values = entry
    published = [int(v) for v in values.split(",")]
    g = octal_game(canonical(code)).nim_values(len(published) + 1, progress=False)
    assert [int(v) for v in g[1:]] == published
    row = _current(code)
    assert row["code"] == canonical(code)      # each entry names its class's standard form
    assert row["first_values"][0] == 0
    assert row["first_values"][1:] == published[:len(row["first_values"]) - 1]


@pytest.mark.parametrize("fields", _lines("czajka_unsolved_dense.txt"), ids=lambda f: f[0])
def test_the_census_rows_of_04_and_06_are_czajkas_where_he_stops(fields: list[str]) -> None:
    """T. Czajka's UnsolvedGames.md states .04 and .06 at 2^17 heap sizes (heap 0 counted
    among the rare, as the census counts it): a row of results/census at that depth has every
    column of his (the ordinary engine's values are compared in test_census_dense)."""
    game, n, largest_at, largest, mask, rare, last = fields
    rows = [r for r in all_rows(str(CENSUS), repair=False)
            if r["code"] == canonical(game) and r["reached"] == int(n)]
    assert rows, f"no row of {game} at {n} heap sizes"
    for row in rows:
        assert (row["largest_at"], row["largest"], row["rare_mask"], row["rare_count"],
                row["last_rare"]) == (int(largest_at), int(largest), mask, int(rare), int(last))


def _capped_table() -> dict[str, list[str]]:
    """The README's table of the classes the earlier rule capped: code -> its cells (code,
    members, the rare share of the latest half at 2^17, 2^18, 2^19, 2^20, where it stands)."""
    text = (CENSUS / "README.md").read_text(encoding="utf-8")
    part = text.split("<!-- capped classes -->")[1].split("<!-- end of capped classes -->")[0]
    rows = [[c.strip() for c in line.strip().strip("|").split("|")] for line in
            part.splitlines() if re.match(r"\| (\.|4\.)[0-7]", line)]
    return {canonical(cells[0]): cells for cells in rows}


def test_every_class_left_capped_has_its_reason_in_the_readme() -> None:
    """Each class whose current row in results/census is capped is in the README's table with
    its members, the rare share measured at each level and why it goes no deeper."""
    table = _capped_table()
    capped = [r for r in read_rows(str(CENSUS), repair=False) if r.get("cap") is not None]
    assert capped
    for row in capped:
        cells = table[row["code"]]
        assert int(cells[1]) == len(row["members"]), row["code"]
        assert all(re.fullmatch(r"[0-9]+\.[0-9]{2}%|-", c) for c in cells[2:6]), cells
        assert re.search(r"[0-9]", cells[6]), cells
    assert set(table) == {canonical(r["code"]) for r in _once_capped_rows()}


@pytest.mark.parametrize("code", ["0.163", "0.016"])
def test_the_readme_table_shares_are_the_census_rules(code: str) -> None:
    """The table's share at 2^17 is depth.rare_share on the ordinary engine's values: the
    rare heap sizes of the latest half under the best mask of all of them."""
    cells = _capped_table()[code]
    rules = depth._rules(code)
    rare, of = depth.rare_share(octal_game(code).nim_values(1 << 17, progress=False), rules)
    assert cells[2] == f"{100 * rare / of:.2f}%", code
