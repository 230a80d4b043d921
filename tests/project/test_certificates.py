"""The certificates of results/ (docs/certificates.md) and their independent checker,
tools/check_certificate.py: every proof small enough for the suite is accepted, from values the
ordinary engine writes or that the checker makes by its own mex recursion, and planted wrong
certificates (a wrong period, pre-period, bound, hash, code, or edited values) are refused."""

from __future__ import annotations

import ast
import contextlib
import importlib.util
import io
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from nimbers.games.codes import parse_take_break_code
from nimbers.games.heap import octal_game
from nimbers.research.certificate import certificate, chain_of, values_sha256

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "results"
TOOL = ROOT / "tools" / "check_certificate.py"
#: the largest proof the suite re-checks (0.56: 653,570 values, about a second)
SUITE_MOST = 1 << 20


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("check_certificate", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _certificates() -> list[tuple[str, dict[str, Any]]]:
    found = [(f"{p.parent.name}", json.loads(p.read_text()))
             for p in sorted(RESULTS.glob("*/certificate.json"))]
    lines = (RESULTS / "census" / "certificates.jsonl").read_text().splitlines()
    return found + [(f"census {json.loads(line)['game']}", json.loads(line)) for line in lines]


def _values_file(folder: Path, code: str, n: int) -> Path:
    path = folder / f"{code}.u32"
    octal_game(code).nim_values(n).astype("<u4").tofile(path)
    return path


def _check(cert: dict[str, Any], folder: Path, values: Path | None = None,
           regenerate: int = 0) -> tuple[int, str]:
    path = folder / "cert.json"
    path.write_text(json.dumps(cert))
    args = [str(path), "--regenerate", str(regenerate)]
    args += ["--values", str(values)] if values else []
    tool = _tool()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = tool.main(args)
    return rc, out.getvalue()


def test_the_checker_imports_nothing_of_nimbers() -> None:
    tree = ast.parse(TOOL.read_text())
    imported = {a.name.split(".")[0] for node in ast.walk(tree)
                if isinstance(node, ast.Import) for a in node.names}
    imported |= {node.module.split(".")[0] for node in ast.walk(tree)
                 if isinstance(node, ast.ImportFrom) and node.module}
    assert imported <= {"argparse", "hashlib", "json", "sys"}


def test_every_proof_in_results_has_a_certificate() -> None:
    certs = {name: c for name, c in _certificates()}
    for proof in RESULTS.glob("*/proof.json"):
        claimed = json.loads(proof.read_text())
        cert = certs[proof.parent.name]
        assert (cert["period"], cert["preperiod"], cert["bound"]) == \
            (claimed["period"], claimed["preperiod"], claimed["bound"])
    for line in (RESULTS / "census" / "census.jsonl").read_text().splitlines():
        row = json.loads(line)
        if row["period"] is not None:
            cert = certs[f"census {row['code']}"]
            assert (cert["period"], cert["preperiod"], cert["sha256"]) == \
                (row["period"], row["preperiod"], row["certificate"]["sha256"])


@pytest.mark.parametrize("name,cert", [c for c in _certificates()
                                       if c[1]["bound"] <= SUITE_MOST], ids=lambda x: str(x)[:12])
def test_the_checker_accepts_every_small_proof(tmp_path: Path, name: str,
                                               cert: dict[str, Any]) -> None:
    if cert["bound"] <= 600:    # the checker's own values: nothing of nimbers at all
        rc, out = _check(cert, tmp_path, regenerate=600)
    else:
        rc, out = _check(cert, tmp_path, _values_file(tmp_path, cert["game"], cert["bound"]))
    assert rc == 0 and "holds" in out, out


def _planted(tmp_path: Path) -> tuple[dict[str, Any], Path]:
    g = octal_game("0.137").nim_values(200)       # Dawson's chess: period 34 from 52
    cert = certificate("0.137", 34, 52, g)
    path = tmp_path / "g.u32"
    g.astype("<u4").tofile(path)
    return cert, path


@pytest.mark.parametrize("edit,says", [
    ({"period": 17}, "bound"), ({"preperiod": 53}, "bound"), ({"bound": 1000}, "bound"),
    ({"sha256": "0" * 64}, "SHA-256"), ({"game": "0.136"}, "code"),
    ({"digits": [0, 1, 3, 8]}, "digits"), ({"format": "x"}, "certificate"),
])
def test_a_planted_wrong_certificate_is_refused(tmp_path: Path, edit: dict[str, Any],
                                                says: str) -> None:
    cert, values = _planted(tmp_path)
    assert _check(cert, tmp_path, values)[0] == 0
    rc, out = _check({**cert, **edit}, tmp_path, values)
    assert rc == 1 and "REFUSED" in out and says in out, out


def test_a_wrong_claim_with_its_own_hash_is_refused(tmp_path: Path) -> None:
    """Claims consistent in bound and hash, false about the game: refused by the values."""
    g = octal_game("0.137").nim_values(400)
    path = tmp_path / "g.u32"
    g.astype("<u4").tofile(path)
    for period, preperiod in ((68, 52), (34, 60), (33, 52), (34, 40)):
        bound = 2 * preperiod + 2 * period + 3
        lie = {**certificate("0.137", 34, 52, g), "period": period, "preperiod": preperiod,
               "bound": bound, "sha256": values_sha256(g[:bound])}
        rc, out = _check(lie, tmp_path, path)
        assert rc == 1 and "REFUSED" in out, out
    edited = g.copy()
    edited[120] ^= 1                 # one value changed past the pre-period, hash redone
    edited.astype("<u4").tofile(path)
    lie = {**certificate("0.137", 34, 52, g), "sha256": values_sha256(edited[:175])}
    assert _check(lie, tmp_path, path)[0] == 1


def test_the_checker_regenerates_the_engines_values() -> None:
    tool = _tool()
    for code in ("0.137", "4.7", "0.16", "0.07", "0.6", "4.044"):
        digits = list(parse_take_break_code(code, hex_ok=False).digits)
        mine = np.frombuffer(tool.regenerate(digits, 300), dtype="<u4")
        assert np.array_equal(mine, octal_game(code).nim_values(300)), code


def test_a_certificate_of_a_false_claim_is_never_written() -> None:
    g = octal_game("0.137").nim_values(400)
    for period, preperiod in ((33, 52), (34, 60), (68, 52)):
        with pytest.raises(ValueError):
            certificate("0.137", period, preperiod, g)


def test_the_chain_is_the_hash_of_each_power_of_two() -> None:
    g = octal_game("0.6").nim_values(20000)
    chain = chain_of(g)
    assert sorted(map(int, chain)) == [4096, 8192, 16384]
    assert all(chain[k] == values_sha256(g[:int(k)]) for k in chain)


def test_a_frontier_run_keeps_its_chain_across_a_resume(tmp_path: Path) -> None:
    from nimbers.research.frontier import frontier_run, frontier_values

    first = frontier_run("0.6", 10000, tmp_path / "a", progress=False, head=4096)
    again = frontier_run("0.6", 40000, tmp_path / "a", progress=False, head=4096)
    fresh = frontier_run("0.6", 40000, tmp_path / "b", progress=False, head=4096)
    assert first.chain is not None and again.chain is not None
    assert set(first.chain) == {"4096", "8192"} and set(first.chain) < set(again.chain)
    assert again.chain == fresh.chain == chain_of(frontier_values(tmp_path / "a"))


def test_a_checkpoint_with_an_edited_chain_is_refused(tmp_path: Path) -> None:
    from nimbers.research.frontier import frontier_run
    from nimbers.research.frontier import store

    frontier_run("0.6", 10000, tmp_path, progress=False, head=4096)
    data = json.loads((tmp_path / "checkpoint.json").read_text())
    del data["seal"]
    data["chain"]["4096"] = data["chain"]["8192"]
    store.write_checkpoint(tmp_path, {k: v for k, v in data.items() if k != "format"})
    with pytest.raises(ValueError, match="chain"):
        frontier_run("0.6", 20000, tmp_path, progress=False, head=4096)


def test_a_run_manifest_names_the_commit(tmp_path: Path) -> None:
    from nimbers.research.frontier import frontier_run
    from nimbers.research.rundir import source_commit

    frontier_run("0.6", 1000, tmp_path, progress=False)
    session = json.loads((tmp_path / "manifest.json").read_text())["sessions"][-1]
    assert session["commit"] == source_commit()
    assert session["commit"] == "unknown" or len(session["commit"]) == 40
