"""The results folder (results/, rebuilt by tools/results.py): every row readable, its lists
consistent with its statistics, the solved games equal to T. Czajka's SolvedGames.md, and the
quick proofs made again from nothing to the same SHA-256."""

from __future__ import annotations

import csv
import json
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


CENSUS = RESULTS / "census"


def test_the_census_files_match_their_sha256_sums() -> None:
    import hashlib

    lines = (CENSUS / "SHA256SUMS").read_text().splitlines()
    assert sorted(line.split()[1] for line in lines) == \
        ["czajka.csv", "czajka.md", "flammenkamp.csv", "flammenkamp.md"]
    for line in lines:
        digest, name = line.split()
        assert hashlib.sha256((CENSUS / name).read_bytes()).hexdigest() == digest, name


def test_the_census_agrees_with_czajkas_solved_games_and_counts_only_proofs() -> None:
    from nimbers.research.census.report import census_report, is_solved
    from nimbers.research.census.table import read_rows
    from nimbers.research.export import compare_table

    rows = read_rows(str(CENSUS), repair=False)
    found = compare_table(rows, str(DATA / "czajka_solved_games.txt"))
    assert not found.differences
    report = census_report(str(CENSUS), plot=None)
    assert report.classes == 174 and report.codes == 1023
    for row in rows:
        if is_solved(row):
            assert row["certificate"]["bound"] is not None and row["period"] is not None
        elif row.get("cap"):    # no useful sparse space: taken to its own depth, stated
            assert row["reached"] == row["cap"] == 2**17
        else:
            assert row["depth"] == row["reached"] == 2**24


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
