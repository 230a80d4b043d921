"""results/census4 (issue 49): the first level of the four-digit census holds what it claims --
its files are the ones SHA256SUMS names, its classes are the 8,191 codes each once, its solved
classes agree with every published four-digit period whose code it holds, and the independent
checker (tools/check_certificate.py, no nimbers) accepts every certificate."""
from __future__ import annotations

import contextlib
import importlib.util
import io
import json
from pathlib import Path
from typing import Any

from nimbers.games.heap import octal_game
from nimbers.research.census.classes import codes_up_to

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "results" / "census4"
DATA = ROOT / "tests" / "data" / "published_periods4.txt"
SUITE_VALUES = 1 << 22  #: certificates made again in the suite: at most this many values


def _classes() -> dict[str, dict[str, Any]]:
    """Each class's last row (the table is appended level by level)."""
    rows: dict[str, dict[str, Any]] = {}
    for line in (FOLDER / "census.jsonl").read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        rows[row["code"]] = row
    return rows


def _tool(name: str, path: Path) -> Any:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_files_are_the_ones_sha256sums_names() -> None:
    """tools/results.py's own reading of a folder's SHA256SUMS: every file listed and equal."""
    assert _tool("results_tool", ROOT / "tools" / "results.py")._sums_problem(FOLDER) is None


def test_the_classes_hold_every_code_of_up_to_four_digits_once() -> None:
    """Each code in one class (780 at 2^12; a class only splits deeper), each open class at
    its level or stopped at its cap, none shallower than the first table's 2^16."""
    classes = _classes()
    members = [m for row in classes.values() for m in row["members"]]
    assert len(classes) >= 780 and len(members) == len(set(members)) == 8191
    assert set(members) == set(codes_up_to(4))
    for row in classes.values():
        if row["period"] is None:
            assert row["reached"] == (row["cap"] or row["depth"]) >= 2**16, row["code"]


def test_the_solved_classes_agree_with_the_published_periods() -> None:
    """A published code in a solved class: the class's period is the published one."""
    of_code = {m: row for row in _classes().values() for m in row["members"]}
    compared = 0
    for line in DATA.read_text(encoding="utf-8").splitlines():
        if not line or line.startswith("#"):
            continue
        code, _anumber, _kind, _shift, period = line.split()[:5]
        row = of_code.get("0" + code if code.startswith(".") else code)
        if row is not None and row["period"] is not None:
            assert row["period"] == int(period), (code, row["code"])
            compared += 1
    assert compared >= 5      # .1377, .0177, .1137, .1241 and .1777 (class .454, deepened)


def test_the_independent_checker_accepts_every_certificate(tmp_path: Path) -> None:
    """Each certificate against values written by the ordinary engine; those of at most 256
    values against the checker's own mex recursion as well; a planted wrong period refused.
    The certificates of more than SUITE_VALUES values (.454's and .054's, some 4 * 10^8: the
    frontier engine's values, checked once by hand as results/census4/README.md says) are
    held to their rows here, not made again."""
    checker = _tool("check_certificate", ROOT / "tools" / "check_certificate.py")
    lines = (FOLDER / "certificates.jsonl").read_text().splitlines()
    solved = {r["code"]: r for r in _classes().values() if r["period"] is not None}
    assert len(lines) == len(solved)
    for line in lines:
        cert = json.loads(line)
        row = solved[cert["game"]]
        assert (cert["period"], cert["preperiod"]) == (row["period"], row["preperiod"])
        if cert["bound"] > SUITE_VALUES:
            assert cert["sha256"] == row["certificate"]["sha256"], cert["game"]
            continue
        path, values = tmp_path / "cert.json", tmp_path / "values.u32"
        path.write_text(json.dumps(cert))
        octal_game(cert["game"]).nim_values(cert["bound"]).astype("<u4").tofile(values)
        args = [str(path), "--values", str(values)] if cert["bound"] > 256 else [str(path)]
        with contextlib.redirect_stdout(io.StringIO()):
            assert checker.main(args) == 0, cert["game"]
        checked = cert
    wrong = dict(checked, period=checked["period"] + 1)  # the values file is still checked's
    (tmp_path / "wrong.json").write_text(json.dumps(wrong))
    with contextlib.redirect_stdout(io.StringIO()):
        assert checker.main([str(tmp_path / "wrong.json"), "--values", str(values)]) != 0


def test_no_results_folder_holds_a_run_directorys_lock() -> None:
    """A lock file is a live run's (and the sdist leaves it out, so a SHA256SUMS naming one
    fails there): results/ holds finished, copied tables only."""
    assert not sorted((ROOT / "results").rglob("lock"))


def test_every_sparse_open_class_has_its_rare_and_record_lists() -> None:
    """lists/CODE.rare.csv and CODE.records.csv (tools/results.py lists) for each open class
    made in memory whose rare heap sizes are at most 1/16 of those it reached, and for no
    other: as many rare values as its row counts, the last where it says, the last record its
    largest value, records rising."""
    import csv

    from nimbers.research.census.depth import DENSE_SHARE
    from nimbers.research.census.report import standing

    def pairs(name: str) -> list[tuple[int, int]]:
        with open(FOLDER / "lists" / name, encoding="utf-8") as f:
            return [(int(n), int(g)) for n, g in list(csv.reader(f))[1:]]

    classes = _classes()
    listed = {p.name.split(".csv")[0].rsplit(".", 1)[0] for p in (FOLDER / "lists").iterdir()}
    sparse = {code for code, row in classes.items() if standing(row) == "open" and
              row["rare_count"] * DENSE_SHARE <= row["reached"]}
    assert listed == sparse and len(sparse) > 200
    for code in sorted(sparse):
        row = classes[code]
        rare, records = pairs(f"{code}.rare.csv"), pairs(f"{code}.records.csv")
        assert len(rare) == row["rare_count"] and rare[-1][0] == row["last_rare"], code
        assert records[-1] == (row["largest_at"], row["largest"]), code
        assert records[0][0] == 0 and all(b[0] > a[0] and b[1] > a[1]
                                         for a, b in zip(records, records[1:])), code
