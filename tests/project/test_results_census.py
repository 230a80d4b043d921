"""tools/results.py census (#53): the results folder written as a whole or not at all, from one
snapshot of the census's table (a deepening appending meanwhile changes nothing in it), and
a missing matplotlib said before anything is computed or written."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from nimbers.research.census import census
from nimbers.research.census.table import TABLE, read_rows
from nimbers.research.export import export_table

TOOL = Path(__file__).resolve().parents[2] / "tools" / "results.py"


def _tool(results: Path) -> Any:
    """tools/results.py as a module, its results folder moved to results."""
    spec = importlib.util.spec_from_file_location("results_tool_census", TOOL)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.RESULTS, module.CENSUS = results, results / "census"
    module.CENSUS_BUILD, module.CENSUS_OLD = results / ".census.build", results / ".census.old"
    return module


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A census of three solved classes (no open class: no frontier lists to copy)."""
    pytest.importorskip("matplotlib")
    work = tmp_path_factory.mktemp("work")
    census(codes=[".77", ".45", ".51"], out=str(work / "census"), workers=1, until=4096,
           progress=False)
    return work


def _published(tmp_path: Path) -> Path:
    results = tmp_path / "results"
    (results / "census").mkdir(parents=True)
    (results / "census" / "README.md").write_text("the census (kept)\n")
    (results / "census" / "czajka.csv").write_text("old\n")
    return results


def test_export_only_is_one_snapshot(work: Path, tmp_path: Path,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A row appended to the work table while the folder is built (as by a deepening) is in
    neither the copied table nor its exports: both are made from the same snapshot."""
    results = _published(tmp_path)
    tool = _tool(results)
    table = work / "census" / TABLE
    before = table.read_bytes()
    row = json.loads(before.splitlines()[0])
    row["largest"] += 1000              # a row a deepening could append: another largest
    nimbers = tool._nimbers

    def appended_meanwhile(*args: str) -> None:
        with open(table, "a", encoding="utf-8") as f:
            f.write(json.dumps(row) + "\n")
        nimbers(*args)

    monkeypatch.setattr(tool, "_nimbers", appended_meanwhile)
    try:
        assert tool.main(["census", "--export-only", "--work", str(work)]) == 0
    finally:
        table.write_bytes(before)
    rows = read_rows(str(results / "census"), repair=False)
    assert (results / "census" / TABLE).read_bytes() == before
    assert (results / "census" / "czajka.csv").read_text() == export_table(rows, "csv")
    assert (results / "census" / "README.md").read_text() == "the census (kept)\n"
    assert (results / "census" / "census.png").exists()
    assert not (results / ".census.build").exists() and not (results / ".census.old").exists()


def test_a_failure_changes_nothing(work: Path, tmp_path: Path,
                                   monkeypatch: pytest.MonkeyPatch,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    results = _published(tmp_path)
    tool = _tool(results)
    calls = []
    nimbers = tool._nimbers

    def second_fails(*args: str) -> None:
        calls.append(args)
        if len(calls) == 2:
            raise subprocess.CalledProcessError(2, ["nimbers", *args])
        nimbers(*args)

    monkeypatch.setattr(tool, "_nimbers", second_fails)
    assert tool.main(["census", "--export-only", "--work", str(work)]) == 1
    assert "is unchanged" in capsys.readouterr().err
    assert sorted(p.name for p in (results / "census").iterdir()) == ["README.md", "czajka.csv"]
    assert (results / "census" / "czajka.csv").read_text() == "old\n"
    assert sorted(p.name for p in results.iterdir()) == ["census"]


def test_without_matplotlib_nothing_is_written(work: Path, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    results = _published(tmp_path)
    tool = _tool(results)
    monkeypatch.setitem(sys.modules, "matplotlib", None)     # import matplotlib fails
    assert tool.main(["census", "--export-only", "--work", str(work)]) == 2
    err = capsys.readouterr().err
    assert "needs matplotlib" in err and "Traceback" not in err
    assert (results / "census" / "czajka.csv").read_text() == "old\n"


def test_a_stop_between_the_renames_is_put_right(tmp_path: Path) -> None:
    results = tmp_path / "results"
    (results / ".census.old").mkdir(parents=True)
    (results / ".census.old" / "README.md").write_text("old")
    tool = _tool(results)
    tool._recover_census()
    assert (results / "census" / "README.md").read_text() == "old"


def test_a_census_in_use_is_refused_and_changes_nothing(work: Path, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    """While another process deepens WORK/census (it holds the lock), the tool's deepening
    is refused in one line and the results folder stays as it was."""
    from nimbers.research.census.table import OWN
    from nimbers.research.rundir import RunDirectory

    results = _published(tmp_path)
    tool = _tool(results)
    holder = RunDirectory(work / "census", "census", OWN)
    holder.claim(fresh=False)
    try:
        assert tool.main(["census", "--work", str(work), "--until", "8192"]) == 1
    finally:
        holder.unlock()
    assert "is unchanged" in capsys.readouterr().err
    assert (results / "census" / "czajka.csv").read_text() == "old\n"
