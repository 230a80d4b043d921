"""tools/results.py check: a results folder with any claimed figure edited is refused, whether
or not its SHA256SUMS was made again to match (issue 53: an edited stats.json, proof.json,
rare.csv or records.csv passed as "the same SHA-256"), and a prefix is re-checked against the
chain of digests."""

from __future__ import annotations

import importlib.util
import json
import shutil
from pathlib import Path
from types import ModuleType
from typing import Any, Callable

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def results(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """tools/results.py with its RESULTS a copy of results/0.16."""
    spec = importlib.util.spec_from_file_location("results_tool", ROOT / "tools" / "results.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    shutil.copytree(ROOT / "results" / "0.16", tmp_path / "0.16")
    monkeypatch.setattr(module, "RESULTS", tmp_path)
    return module


def _run(results: ModuleType, *args: str) -> int:
    return int(results.main(["check", "--only", "0.16", "--threads", "1", *args]))


def _json_edit(file: str, key: str, change: Callable[[Any], Any]) -> Callable[[Path], None]:
    def edit(folder: Path) -> None:
        data = json.loads((folder / file).read_text())
        data[key] = change(data[key])
        (folder / file).write_text(json.dumps(data, indent=1) + "\n")
    return edit


def _csv_edit(file: str) -> Callable[[Path], None]:
    def edit(folder: Path) -> None:
        lines = (folder / file).read_text().splitlines()
        n, g = lines[-1].split(",")
        lines[-1] = f"{n},{int(g) + 1}"
        (folder / file).write_text("\n".join(lines) + "\n")
    return edit


EDITS = {
    "stats period": _json_edit("stats.json", "period", lambda v: v + 1),
    "stats preperiod": _json_edit("stats.json", "preperiod", lambda v: v - 1),
    "stats largest": _json_edit("stats.json", "largest", lambda v: v + 1),
    "stats largest_at": _json_edit("stats.json", "largest_at", lambda v: v - 1),
    "stats rare count": _json_edit("stats.json", "rare_count", lambda v: v + 1),
    "stats last rare": _json_edit("stats.json", "last_rare", lambda v: v + 2),
    "stats heap sizes": _json_edit("stats.json", "heap_sizes", lambda v: v - 1),
    "stats p-positions": _json_edit("stats.json", "p_positions", lambda v: v + 1),
    "proof period": _json_edit("proof.json", "period", lambda v: v + 1),
    "certificate period": _json_edit("certificate.json", "period", lambda v: v * 2),
    "rare.csv": _csv_edit("rare.csv"),
    "records.csv": _csv_edit("records.csv"),
}


def test_the_folder_as_published_passes(results: ModuleType, capsys: Any) -> None:
    assert _run(results) == 0
    assert "the same: every claim" in capsys.readouterr().out


@pytest.mark.parametrize("name", sorted(EDITS))
def test_an_edited_claim_is_refused(results: ModuleType, tmp_path: Path, name: str,
                                    capsys: Any) -> None:
    EDITS[name](tmp_path / "0.16")
    assert _run(results) == 1
    assert "not the file SHA256SUMS names" in capsys.readouterr().out
    results._write_sums(tmp_path / "0.16")        # the edit made consistent with the sums
    assert _run(results) == 1
    assert "DIFFERENT" in capsys.readouterr().out


def test_a_prefix_is_checked_against_the_chain(results: ModuleType, tmp_path: Path,
                                               capsys: Any) -> None:
    folder = tmp_path / "0.16"
    assert _run(results, "--until", "2^16") == 2                  # no chain recorded yet
    data = json.loads((folder / "stats.json").read_text())
    from nimbers.games.heap import octal_game
    from nimbers.research.certificate import chain_of
    data["chain"] = chain_of(octal_game("0.16").nim_values(1 << 18))
    (folder / "stats.json").write_text(json.dumps(data, indent=1))
    results._write_sums(folder)
    assert _run(results, "--until", "2^16") == 0
    assert "the same: the chain" in capsys.readouterr().out
    data["chain"]["65536"] = data["chain"]["32768"]
    (folder / "stats.json").write_text(json.dumps(data, indent=1))
    results._write_sums(folder)
    assert _run(results, "--until", "2^16") == 1
    assert "chain" in capsys.readouterr().out
