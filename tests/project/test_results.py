"""The results folder (results/, rebuilt by tools/results.py): every row readable, its lists
consistent with its statistics, the solved games equal to T. Czajka's SolvedGames.md, and the
quick proofs made again from nothing to the same SHA-256."""

from __future__ import annotations

import csv
import functools
import json
from typing import Any
from pathlib import Path

import pytest

from nimbers.research.frontier import FrontierStats, frontier_run

RESULTS = Path(__file__).resolve().parents[2] / "results"
DATA = Path(__file__).resolve().parents[1] / "data"
ROWS = sorted(p.parent.name for p in RESULTS.glob("*/stats.json"))


def _stats(name: str) -> FrontierStats:
    path = RESULTS / name / "stats.json"
    return FrontierStats.from_json(json.loads(path.read_text()), str(path))


def _pairs(name: str, file: str) -> list[tuple[int, int]]:
    with open(RESULTS / name / file, encoding="utf-8") as f:
        return [(int(n), int(g)) for n, g in list(csv.reader(f))[1:]]


def _czajka() -> dict[str, list[str]]:
    rows = {}
    for line in (DATA / "czajka_solved_games.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            fields = line.split()
            rows["0" + fields[0]] = fields[1:]
    return rows


def test_there_are_results() -> None:
    assert {"0.16", "0.56", "0.127"} <= set(ROWS)


@pytest.mark.parametrize("name", ROWS)
def test_each_row_is_consistent(name: str) -> None:
    s = _stats(name)
    rare, records = _pairs(name, "rare.csv"), _pairs(name, "records.csv")
    assert len(rare) == s.rare_count and (rare[-1][0] if rare else 0) == s.last_rare
    assert len(records) == s.records and records[-1] == (s.largest_at, s.largest)
    assert all(b[1] > a[1] and b[0] > a[0] for a, b in zip(records, records[1:]))
    if s.proven:
        proof = json.loads((RESULTS / name / "proof.json").read_text())
        assert (proof["period"], proof["preperiod"], proof["sha256"]) == \
            (s.period, s.preperiod, s.proof_sha256)


@pytest.mark.parametrize("name", [r for r in ROWS if r in _czajka()])
def test_solved_rows_equal_czajkas_table(name: str) -> None:
    prefix, period, largest_at, largest, mask, rare, last = _czajka()[name]
    s = _stats(name)
    assert (s.preperiod, s.period) == (int(prefix), int(period))
    assert (s.largest_at, s.largest) == (int(largest_at), int(largest))
    if mask != "-":
        assert (s.mask_name, s.rare_count, s.last_rare) == (mask, int(rare), int(last))


@pytest.mark.parametrize("name", [r for r in ("0.16", "0.56", "0.127") if r in ROWS])
def test_quick_proofs_are_made_again_from_nothing(tmp_path: Path, name: str) -> None:
    kept = _stats(name)
    again = frontier_run(kept.code, kept.heap_sizes, tmp_path, threads=1, progress=False)
    assert (again.sha256, again.proof_sha256) == (kept.sha256, kept.proof_sha256)


def _flammenkamp_periods() -> dict[str, tuple[int, int]]:
    rows = {}
    for line in (DATA / "flammenkamp_periods.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            code, _anumber, period, last = line.split()
            rows["0" + code] = (int(period), int(last))
    return rows


@pytest.mark.parametrize("name", [r for r in ROWS if r in _flammenkamp_periods()])
def test_proven_rows_equal_flammenkamps_periods(name: str) -> None:
    """The period and last exception the OEIS gives from A. Flammenkamp's tables: the row's
    proof has the same period, and its last exception is his (the pre-period one past it)."""
    period, last = _flammenkamp_periods()[name]
    s = _stats(name)
    proof = json.loads((RESULTS / name / "proof.json").read_text())
    assert (s.period, s.preperiod) == (period, last + 1)
    assert proof["last_exception"]["n"] == last


CENSUS = RESULTS / "census"


def test_the_census_files_match_their_sha256_sums() -> None:
    import hashlib

    lines = (CENSUS / "SHA256SUMS").read_text().splitlines()
    names = sorted(line.split()[1] for line in lines)
    assert [n for n in names if "/" not in n] == \
        ["czajka.csv", "czajka.md", "flammenkamp.csv", "flammenkamp.md"]
    assert {n for n in names if "/" in n} == \
        {f"lists/{p.name}" for p in (CENSUS / "lists").iterdir()}
    for line in lines:
        digest, name = line.split()
        assert hashlib.sha256((CENSUS / name).read_bytes()).hexdigest() == digest, name


def _taken_on() -> set[str]:
    """The classes the earlier dense rule capped at 2^17 (census.jsonl keeps their rows) that a
    deepening has taken on since (issue 48): they need not be at 2^26."""
    from nimbers.research.census.depth import EARLIER_RULE
    from nimbers.research.census.table import all_rows

    return {r["code"] for r in all_rows(str(CENSUS), repair=False)
            if (r["depth"], r.get("cap")) == EARLIER_RULE}


def test_the_census_agrees_with_czajkas_solved_games_and_counts_only_proofs() -> None:
    from nimbers.research.census.depth import EARLIER_RULE, cap_holds, rule_for_digits
    from nimbers.research.census.report import census_report, is_solved
    from nimbers.research.census.table import census_rule, covered_codes, read_meta, read_rows
    from nimbers.research.export import compare_table

    rows = read_rows(str(CENSUS), repair=False)
    found = compare_table(rows, str(DATA / "czajka_solved_games.txt"))
    assert not found.differences
    report = census_report(str(CENSUS), plot=None)
    assert report.classes == 174 and report.codes == 1023
    rule = census_rule(read_meta(str(CENSUS)), covered_codes(rows))
    assert rule == rule_for_digits(3)       # the rule every row here was made under
    for row in rows:
        if is_solved(row):
            assert row["certificate"]["bound"] is not None and row["period"] is not None
        elif row.get("cap"):    # no useful sparse space where it stopped, stated
            assert row["reached"] == row["cap"] and (
                (row["depth"], row["cap"]) == EARLIER_RULE or cap_holds(row, rule))
        else:   # every open row at the depth results/census/README.md states, or deeper
            least = 2**22 if row["code"] in _taken_on() else 2**26
            assert row["depth"] == row["reached"] and row["depth"] >= least


MISERE_ROWS = [RESULTS / "misere" / "misere.jsonl", RESULTS / "misere" / "each_code" / "misere.jsonl"]


@pytest.mark.parametrize("path", MISERE_ROWS, ids=lambda p: p.parent.name)
def test_the_misere_orders_obey_the_published_theorems(path: Path) -> None:
    """Two theorems on every quotient the table holds: a misère quotient other than the trivial
    one has even order (T. Plambeck and A. Siegel, "Misère quotients for impartial games", JCTA
    115 (2008)), and one whose P-portion has two elements has order 2^k + 2 or 2^k + 4 (A.
    Siegel, "The structure and classification of misère quotients", arXiv math/0703070)."""
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert len(rows) >= 100
    for row in rows:
        assert all(order == 1 or order % 2 == 0 for order in row["orders"]), row["code"]
        if row["p_size"] == 2:
            assert any(_is_power_of_two(row["order"] - d) for d in (2, 4)), row["code"]


def _is_power_of_two(n: int) -> bool:
    return n > 0 and n & (n - 1) == 0


def _oeis_periods() -> list[list[str]]:
    """tests/data/oeis_octal_periods.txt: code, A-number, OFFSET, shift, period, last
    exception as published, and optional exceptions=... or differs=... (see its header)."""
    text = (DATA / "oeis_octal_periods.txt").read_text()
    return [line.split() for line in text.splitlines() if line and not line.startswith("#")]


def _census_member(code: str) -> tuple[dict, int]:
    """The census row of the class whose members hold code, and the code's dead heaps."""
    from nimbers.research.census.classes import canonical
    from nimbers.research.census.table import read_rows

    if not _CENSUS_MEMBERS:
        for row in read_rows(str(CENSUS), repair=False):
            for member, dead in zip(row["members"], row["dead_heaps"]):
                _CENSUS_MEMBERS[member] = (row, dead)
    return _CENSUS_MEMBERS[canonical(code)]


_CENSUS_MEMBERS: dict[str, tuple[dict, int]] = {}
OEIS_PERIODS = _oeis_periods()


def test_the_oeis_table_holds_the_entries_found() -> None:
    assert len(OEIS_PERIODS) == 58
    assert len({fields[1] for fields in OEIS_PERIODS}) == 13
    assert [fields[0] for fields in OEIS_PERIODS if len(fields) > 6 and
            fields[6].startswith("differs=")] == [".56", ".561", ".562", ".563"]


@pytest.mark.parametrize("fields", OEIS_PERIODS, ids=lambda f: f"{f[1]}:{f[0]}")
def test_the_census_agrees_with_the_oeis_periods_and_last_exceptions(fields: list[str]) -> None:
    """The class holding the code is solved with the OEIS period, and its pre-period, taken to
    the code's own heap 0, is the published last exception + shift + 1 (a(n) = g(n); the last
    exception is the last n with g(n) != g(n + P)); the code's own values say the same.  The
    rows marked differs= are where the OEIS is wrong (see the data file)."""
    import numpy as np

    from nimbers.games.heap import octal_game
    from nimbers.research.census.classes import canonical
    from nimbers.research.census.report import is_solved

    code, _anumber, _offset, shift, period, last = fields[:6]
    notes = dict(field.split("=") for field in fields[6:])
    row, dead = _census_member(code)
    p = int(period)
    assert is_solved(row) and row["period"] == p
    rep_dead = row["dead_heaps"][row["members"].index(row["code"])]
    assert row["preperiod"] > rep_dead          # else the member's own values decide it
    preperiod = row["preperiod"] - rep_dead + dead   # from the code's own heap 0
    ours = preperiod - 1                              # its last exception
    values = octal_game(canonical(code)).nim_values(preperiod + 2 * p).astype(np.int64)
    assert np.flatnonzero(values[:-p] != values[p:])[-1] == ours
    published = int(last) + int(shift)
    if "differs" in notes:
        assert ours == int(notes["differs"]) != published
    else:
        assert ours == published
    if "exceptions" in notes:    # n with g(n) != the periodic value g(n + kP), n + kP past it
        eventual = values[[n + p * ((preperiod - n) // p + 1) for n in range(preperiod)]]
        exceptions = np.flatnonzero(values[:preperiod] != eventual).tolist()
        assert exceptions == [int(n) for n in notes["exceptions"].split(",")]


def test_every_open_census_class_has_its_rare_and_record_lists() -> None:
    """lists/CODE.rare.csv and CODE.records.csv agree with the class's row: as many rare
    values as it counts, the last where it says, the last record its largest value."""
    from nimbers.research.census.report import is_solved
    from nimbers.research.census.table import read_rows

    def pairs(name: str) -> list[tuple[int, int]]:
        with open(CENSUS / "lists" / name, encoding="utf-8") as f:
            return [(int(n), int(g)) for n, g in list(csv.reader(f))[1:]]

    open_rows = [r for r in read_rows(str(CENSUS), repair=False)
                 if not is_solved(r) and not r.get("cap")]
    # 44 at 2^26; .104 proven periodic at 2^30, .454 and .054 at 2^29; and the classes taken
    # on from the earlier cap
    assert len([r for r in open_rows if r["code"] not in _taken_on()]) == 41
    for row in open_rows:
        rare, records = pairs(f"{row['code']}.rare.csv"), pairs(f"{row['code']}.records.csv")
        assert len(rare) == row["rare_count"] and rare[-1][0] == row["last_rare"], row["code"]
        assert records[-1] == (row["largest_at"], row["largest"]), row["code"]
        assert all(b[0] > a[0] and b[1] > a[1] for a, b in zip(records, records[1:]))
        assert all(n < row["reached"] for n, _ in rare + records)


@functools.cache
def _tool() -> Any:
    """tools/results.py as a module (it is a script, not part of the package), loaded once."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "results_tool", Path(__file__).resolve().parents[2] / "tools" / "results.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ROGALSKI = [(code, n) for code, n in _tool()._published_tables() if n == 2**16]


@pytest.mark.parametrize("code,n", ROGALSKI)
def test_the_ordinary_engine_gives_rogalskis_frequencies(code: str, n: int) -> None:
    """His counts cover the heap sizes 1 .. N (tests/data/rogalski_frequencies.txt)."""
    import numpy as np

    from nimbers.games.heap import octal_game

    g = np.asarray(octal_game(code).nim_values(n + 1))
    counts = np.bincount(g[1:])
    theirs = _tool()._published_tables()[(code, n)]
    assert {int(v): int(counts[v]) for v in np.flatnonzero(counts)} == theirs


def test_the_census_largest_values_are_rogalskis() -> None:
    """The five codes' census rows (2^26 heap sizes, .034 2^30) against the largest value of
    his table at the same heap count (both tables' counts are compared by tools/results.py
    published, from the census's runs: results/census/README.md)."""
    from nimbers.research.census.table import read_rows

    rows = {code: row for row in read_rows(str(CENSUS), repair=False)
            for code in row["members"]}
    deep = {(code, n): t for (code, n), t in _tool()._published_tables().items()
            if n == rows[code]["reached"]}
    assert len(deep) == 5
    for (code, _n), theirs in deep.items():
        assert rows[code]["largest"] == max(theirs)


def test_published_compares_every_count(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    """The tool finds a run's frequencies equal to his, and says so when one count is not."""
    tool = _tool()
    assert tool.main(["published", "--work", str(tmp_path)]) == 2
    assert "no census runs in" in capsys.readouterr().err
    frontier_run("0.167", 2**16, tmp_path / "census" / "runs" / "0.167", threads=1,
                 progress=False)
    assert tool.main(["published", "--work", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "0.167 to 65,536: the same frequencies of all 38 values" in out
    assert "0.167 to 67,108,864: not reached" in out
    tables = tool._published_tables()
    tables[("0.167", 2**16)][0] += 1
    monkeypatch.setattr(tool, "_published_tables", lambda: tables)
    assert tool.main(["published", "--work", str(tmp_path)]) == 1
    assert "0.167 to 65,536: DIFFERENT counts of the values [0]" in capsys.readouterr().out
