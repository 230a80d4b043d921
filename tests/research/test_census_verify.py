"""census verify, round five (issues 51 and 53): an open row of the frontier engine made again
by the ordinary engine to a prefix and compared with the census's digests, every claimed field
refused when edited as far as the prefix decides it and against the lists; the rows' codes are
the census's codes; --only and --until; the files SHA256SUMS names; verify's own temporary
folders removed by the next verify after a kill -9."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

import nimbers
from nimbers.research.census import census
from nimbers.research.census import depth as depth_module
from nimbers.research.census import verify as verify_module
from nimbers.research.census import verify_row as row_module
from nimbers.research.census.compute import solve_class
from nimbers.research.census.verify import CensusError, check_row, verify_census

SRC = str(Path(nimbers.__file__).resolve().parents[1])


@pytest.fixture(autouse=True)
def _frontier_from_4096(monkeypatch: pytest.MonkeyPatch) -> None:
    """The rows made below with the frontier engine from 2^12 on are checked so too."""
    monkeypatch.setattr(depth_module, "FRONTIER_FROM", 1 << 12)


@pytest.fixture(scope="module")
def frontier_row(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], Path]:
    """Officers (0.6) to 2^16 by the frontier engine, and a lists folder as results/census
    has: its rare values and records."""
    folder = tmp_path_factory.mktemp("frontier")
    patch = pytest.MonkeyPatch()
    patch.setattr(depth_module, "FRONTIER_FROM", 1 << 12)
    try:
        row, = solve_class(["0.6"], 1 << 16, str(folder / "runs"))
    finally:
        patch.undo()
    assert row["engine"] == "frontier"
    lists = folder / "lists"
    lists.mkdir()
    for kind in ("rare", "records"):
        shutil.copyfile(folder / "runs" / "0.6" / f"{kind}.csv", lists / f"0.6.{kind}.csv")
    return row, lists


def _prefix_check(row: dict[str, Any], lists: Path | None, until: int = 1 << 15) -> Any:
    return check_row(row, 0.001, True, until=until,
                     lists=None if lists is None else str(lists))["error"]


def test_a_prefix_of_a_frontier_row_is_checked_against_its_digests(
        frontier_row: tuple[dict[str, Any], Path]) -> None:
    row, lists = frontier_row
    done = check_row(row, 0.001, True, until=1 << 14, lists=str(lists))
    assert done["error"] is None and done["checked"] == 1 << 14
    assert "equal to the digest the census recorded" in done["against"]
    assert "not made again" in done["against"]
    assert "no digest of g(0..9999)" in check_row(row, 0.001, True, until=10000)["error"]


EDITS = {    # field, change: each claim of an open 2^16 row, edited, refused on a 2^15 prefix
    "largest": lambda v: v + 1, "largest_at": lambda v: v + 1, "p_positions": lambda v: v + 1,
    "last_p": lambda v: v + 1, "rare_count": lambda v: v + 1, "last_rare": lambda v: v + 1,
    "first_values": lambda v: v[:5] + [v[5] + 1] + v[6:], "equal_up_to": lambda v: 10,
    "depth": lambda v: v * 4, "dead_heaps": lambda v: [d + 1 for d in v],
}


@pytest.mark.parametrize("field", sorted(EDITS))
def test_an_edited_field_is_refused_on_a_prefix(frontier_row: tuple[dict[str, Any], Path],
                                                field: str) -> None:
    row, lists = frontier_row
    edited = json.loads(json.dumps(row))
    edited[field] = EDITS[field](edited[field])
    assert _prefix_check(edited, lists) is not None


def test_a_claim_past_the_prefix_is_held_to_the_lists(
        frontier_row: tuple[dict[str, Any], Path], tmp_path: Path) -> None:
    """A rare count or largest value past the prefix: only the lists can refuse it, and do;
    edited lists are refused against the prefix."""
    row, lists = frontier_row
    edited = {**row, "rare_count": row["rare_count"] + 1}
    assert row["last_rare"] < 1 << 15       # so the rare count is decided by the prefix
    assert _prefix_check(edited, lists) is not None
    moved = {**row, "largest_at": (1 << 16) - 1, "largest": row["largest"] + 1}
    assert _prefix_check(moved, None) is None          # nothing below 2^15 says otherwise
    assert "records.csv ends at" in _prefix_check(moved, lists)
    bad = tmp_path / "lists"
    shutil.copytree(lists, bad)
    lines = (bad / "0.6.rare.csv").read_text().splitlines()
    lines[3] = lines[3].split(",")[0] + ",99"
    (bad / "0.6.rare.csv").write_text("\n".join(lines) + "\n")
    assert "rare.csv differs" in _prefix_check(row, bad)


def test_a_chain_edited_past_the_prefix_is_found_at_a_deeper_until(
        frontier_row: tuple[dict[str, Any], Path]) -> None:
    row, _ = frontier_row
    edited = json.loads(json.dumps(row))
    edited["certificate"]["checkpoints"]["32768"] = "0" * 64
    assert _prefix_check(edited, None, 1 << 14) is None
    assert "checkpoints" in _prefix_check(edited, None, 1 << 15)


def test_a_row_of_the_ordinary_engine_is_made_again_by_another(monkeypatch: Any) -> None:
    """Past EXACT_UP_TO values, a frontier run with a small head is the second engine."""
    monkeypatch.setattr(row_module, "EXACT_UP_TO", 64)
    row, = solve_class(["0.16"], 4096)      # Officers' cousin, proven... or open to 4096
    done = check_row(row, 60.0, True)
    assert done["error"] is None and "a fresh frontier run" in done["against"]


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> str:
    out = str(tmp_path_factory.mktemp("small"))
    census(codes=[".6", ".61", ".77", ".36"], out=out, workers=1, until=1 << 12, progress=False)
    return out


def _copy(small: str, tmp_path: Path) -> Path:
    copy = tmp_path / "copy"
    shutil.copytree(small, copy, ignore=shutil.ignore_patterns("lock"))
    return copy


def test_rows_must_hold_exactly_the_census_codes(small: str, tmp_path: Path) -> None:
    """A code removed from census.json's codes (then deepen would never deepen it) fails."""
    copy = _copy(small, tmp_path)
    meta = json.loads((copy / "census.json").read_text())
    meta["codes"] = [c for c in meta["codes"] if c != "0.61"]
    (copy / "census.json").write_text(json.dumps(meta))
    with pytest.raises(CensusError, match="0.61 is not a code of the census"):
        verify_census(str(copy), workers=1, progress=False)


def test_only_checks_the_rows_of_those_codes(small: str) -> None:
    done = verify_census(small, workers=1, progress=False, only=["0.61"])
    assert done.rows == 1
    with pytest.raises(ValueError, match="no row of the census holds 0.7"):
        verify_census(small, workers=1, progress=False, only=["0.7"])


def test_the_files_sha256sums_names_are_checked(small: str, tmp_path: Path) -> None:
    copy = _copy(small, tmp_path)
    (copy / "lists").mkdir()
    (copy / "lists" / "0.6.rare.csv").write_text("n,g\n0,0\n")
    digest = hashlib.sha256(b"n,g\n0,0\n").hexdigest()
    (copy / "SHA256SUMS").write_text(f"{digest}  lists/0.6.rare.csv\n")
    verify_census(str(copy), workers=1, progress=False, only=["0.77"])
    (copy / "lists" / "0.6.rare.csv").write_text("n,g\n0,1\n")
    with pytest.raises(CensusError, match="SHA256SUMS: lists/0.6.rare.csv is not the file"):
        verify_census(str(copy), workers=1, progress=False, only=["0.77"])


def test_the_next_verify_removes_what_a_killed_one_left(small: str) -> None:
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    parent = tempfile.gettempdir()
    left = Path(parent) / f"{verify_module.PREFIX}{dead.pid}-abc123"
    alive = Path(parent) / f"{verify_module.PREFIX}{os.getpid()}-keep01"
    for folder in (left, alive):
        folder.mkdir(exist_ok=True)
        (folder / "values.bin").write_bytes(b"\0" * 1000)
    try:
        verify_census(small, workers=1, progress=False, only=["0.77"])
        assert not left.exists() and alive.exists()
    finally:
        shutil.rmtree(alive, ignore_errors=True)
        shutil.rmtree(left, ignore_errors=True)


def test_the_command_says_how_far_each_row_was_checked(small: str, tmp_path: Path) -> None:
    log = tmp_path / "err"
    env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
    with open(log, "w") as err:
        done = subprocess.run([sys.executable, "-m", "nimbers", "census", "verify", small,
                               "--only", "0.6", "0.77", "--until", "2^12", "--workers", "1"],
                              stdout=subprocess.PIPE, stderr=err, text=True, env=env,
                              timeout=300)
    assert done.returncode == 0, log.read_text()
    assert "2 rows verified" in done.stdout
    assert "by the ordinary engine and by the exact scan" in log.read_text()
