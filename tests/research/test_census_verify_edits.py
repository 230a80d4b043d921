"""census verify refuses a row with any claimed field edited (issue 51), naming the field.

The fields come from the rows themselves (every key of a row and of its certificate but the two
measurements, schema.MEASURED), not from a list kept here, and each is edited by its type into
another value the schema accepts, so the refusal comes from a check of the claim, not from the
row's shape.  The rows: a few proven rows copied from results/census (a class proven equal, a
single game, one deep enough to have a chain of digests) and the rows of a small census of our
own (open rows of the ordinary and the frontier engine, a class equal by its values)."""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import json
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from nimbers.research.census import depth as depth_module
from nimbers.research.census import verify as verify_module
from nimbers.research.census.compute import solve_class
from nimbers.research.census.schema import FIELDS, MEASURED
from nimbers.research.census.table import FORMAT
from nimbers.research.census.verify import CensusError, verify_census

RESULTS = Path(__file__).resolve().parents[2] / "results" / "census"


def _results_rows() -> list[dict[str, Any]]:
    """The latest row of each class of results/census."""
    latest: dict[str, dict[str, Any]] = {}
    with open(RESULTS / "census.jsonl", encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            latest[row["code"]] = row
    return list(latest.values())


def _cheapest(rows: list[dict[str, Any]], wanted: Callable[[dict[str, Any]], bool]
              ) -> dict[str, Any]:
    return min((r for r in rows if wanted(r)), key=lambda r: r["reached"] * len(r["members"]))


def _chosen() -> list[dict[str, Any]]:
    rows = _results_rows()
    return [
        _cheapest(rows, lambda r: r["class"] == "proved" and len(r["members"]) > 1),
        _cheapest(rows, lambda r: r["class"] == "single" and r["rare_mask"] is not None),
        _cheapest(rows, lambda r: r["period"] is not None and bool(r["certificate"]["checkpoints"])),
    ]


CHOSEN = _chosen()


# -- the edits: by the value's type, the first candidate the schema accepts --

def _candidates(value: Any) -> list[Any]:
    """Other values of value's type (for None: an int, then a string)."""
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, int):
        return [value + 1, value - 1]
    if value is None:
        return [1, "1"]
    if isinstance(value, str):
        flipped = value[:-1] + ("0" if value[-1] != "0" else "1")
        return [flipped, value + "7", "single", "values", "proved", "memory", "dense",
                "frontier"]
    if isinstance(value, list):
        changed = [_candidates(value[0])[0]] + value[1:] if value else [0]
        return [value[:-1], value + value[:1], changed]
    raise AssertionError(f"no edit for {value!r}")


def _edits(row: dict[str, Any]) -> Iterator[tuple[str, Callable[[dict[str, Any]], None]]]:
    """(the field's name, an edit of a copy of row) for every claim row makes."""
    for field, value in row.items():
        if field in MEASURED:
            continue
        if field == "certificate":
            for name, claim in value.items():
                yield f"certificate {name}", _certificate_edit(name, claim)
            continue
        new = next((c for c in _candidates(value) if c != value and FIELDS[field](c)), None)
        assert new is not None, f"{field}: no edit the schema accepts"
        yield field, _set(field, new)


def _set(field: str, new: Any) -> Callable[[dict[str, Any]], None]:
    def edit(row: dict[str, Any]) -> None:
        row[field] = new
    return edit


def _certificate_edit(name: str, claim: Any) -> Callable[[dict[str, Any]], None]:
    if isinstance(claim, dict):     # the chain: a digest changed, or one added
        key = next(iter(claim), "4096")
        new = {**claim, key: ("0" if claim.get(key, "1")[0] != "0" else "1") * 64}
    else:
        new = _candidates(claim)[0]

    def edit(row: dict[str, Any]) -> None:
        row["certificate"][name] = new
    return edit


@contextlib.contextmanager
def _in_process(workers: Any = None, scheduler: Any = None) -> Iterator[Any]:
    """verify's executor, run in this process: the checks are the same, without a pool's
    start for every edit."""
    with cf.ThreadPoolExecutor(1) as pool:
        yield pool, 1, lambda: None


def _folder(rows: list[dict[str, Any]], into: Path, meta: dict[str, Any] | None) -> Path:
    """A census folder of rows (and census.json, when meta is not None: as made, with the
    codes of the unedited rows)."""
    into.mkdir(exist_ok=True)
    (into / "census.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    if meta is not None:
        (into / "census.json").write_text(json.dumps(meta))
    return into


def _refusals(rows: list[dict[str, Any]], folder: Path, meta: dict[str, Any] | None,
              only: int = 0) -> dict[str, str | None]:
    """The row rows[only] with its every claim edited in turn, verify run on all the rows:
    what it says each time (None: it passed)."""
    verify_census(str(_folder(rows, folder, meta)), progress=False)    # the rows as made pass
    said: dict[str, str | None] = {}
    for i, row in [(only, rows[only])]:
        for field, edit in _edits(row):
            edited = json.loads(json.dumps(rows))
            edit(edited[i])
            try:
                verify_census(str(_folder(edited, folder, meta)), progress=False)
                said[f"{row['code']} {field}"] = None
            except CensusError as refused:
                said[f"{row['code']} {field}"] = str(refused)
    return said


def _unnamed(said: dict[str, str | None]) -> dict[str, str | None]:
    """The edits not refused, or refused without the field's name in the message."""
    return {what: message for what, message in said.items()
            if message is None or what.split()[-1] not in message}


@pytest.fixture(autouse=True)
def _one_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(verify_module, "executor", _in_process)


@pytest.mark.parametrize("row", CHOSEN, ids=[r["code"] for r in CHOSEN])
def test_every_claim_of_a_published_row_edited_is_refused(row: dict[str, Any],
                                                          tmp_path: Path) -> None:
    # results/census keeps no census.json
    assert _unnamed(_refusals([row], tmp_path / "census", None)) == {}


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    """Rows of our own to 2^13, the frontier engine from 2^12 (made here, where the patch
    holds): open rows of the frontier engine (a class equal by its values, a single game)
    and a proven row."""
    runs = str(tmp_path_factory.mktemp("small"))
    patch = pytest.MonkeyPatch()
    patch.setattr(depth_module, "FRONTIER_FROM", 1 << 12)
    try:
        return [row for codes in (["0.6", "0.61"], ["0.36"], ["0.77"])
                for row in solve_class(codes, 1 << 13, runs)]
    finally:
        patch.undo()


KINDS: dict[str, Callable[[dict[str, Any]], bool]] = {
    "open class": lambda r: r["period"] is None and r["class"] == "values",
    "open single": lambda r: r["period"] is None and r["class"] == "single",
    "proven": lambda r: r["period"] is not None,
}


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_claim_of_a_row_of_our_own_edited_is_refused(
        small: list[dict[str, Any]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        kind: str) -> None:
    monkeypatch.setattr(depth_module, "FRONTIER_FROM", 1 << 12)
    rows = small
    meta = {"format": FORMAT, "codes": sorted(c for r in rows for c in r["members"]),
            "offsets": True, "until": 1 << 13}
    row = next(r for r in rows if KINDS[kind](r))
    assert row["engine"] == "frontier"
    said = _refusals(rows, tmp_path / "census", meta, only=rows.index(row))
    assert _unnamed(said) == {}
