"""The census's directory and its readers (#48, #53): a run directory like a frontier run's
(manifest, progress log, a lock: one process at a time; a foreign folder refused), the
classes ``deepen --promising`` chose kept for a restart, one reader that refuses malformed
rows in one line, exports that never replace the census's own files, a comparison on the
codes both tables hold and up to the depth both reached, help per action, and counts that
say the same in the progress lines and the report."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import nimbers
from nimbers.research.census import census, deepen
from nimbers.research.census import run as run_module
from nimbers.research.census.report import census_report
from nimbers.research.census.table import CHOICE, META, OWN, TABLE, read_rows, write_meta
from nimbers.research.export import compare_table, export_table
from nimbers.research.rundir import MANIFEST, PROGRESS_LOG, RunDirectory

SRC = str(Path(nimbers.__file__).resolve().parents[1])


def _cli(*args):
    env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("NIMBERS_TIME_LIMIT", None)
    return subprocess.run([sys.executable, "-m", "nimbers", "census", *args], env=env,
                          capture_output=True, text=True, timeout=300)


def _one_line_error(done):
    return (done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
            and "Traceback" not in done.stderr)


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    """.77 (proven), .6 (open) and .36 (open) to 2^12."""
    out = tmp_path_factory.mktemp("small")
    rows = census(codes=[".77", ".6", ".36"], out=str(out), workers=1, until=4096,
                  progress=False)
    return out, rows


def _copy(small, tmp_path):
    out = tmp_path / "c"
    out.mkdir()
    for name in (TABLE, META):
        (out / name).write_bytes((small[0] / name).read_bytes())
    return out


# ---- the run directory ---------------------------------------------------------------------

def test_the_census_directory_is_a_run_directory(small):
    out, _rows = small
    manifest = json.loads((out / MANIFEST).read_text())
    assert manifest["tool"] == "census" and manifest["sessions"][-1]["until"] == 4096
    assert (out / PROGRESS_LOG).read_text().splitlines()[-1].split(" census: ")[1] \
        .startswith("done:")
    assert (out / "lock").exists()


def test_two_censuses_on_one_directory_are_refused(small, tmp_path):
    """While one process holds the directory (as a census or deepen running there does),
    another deepen is refused before it computes or appends anything."""
    out = _copy(small, tmp_path)
    table = (out / TABLE).read_bytes()
    holder = RunDirectory(out, "census", OWN)
    holder.claim(fresh=False)
    try:
        with pytest.raises(ValueError, match="in use by another process"):
            deepen(str(out), 16384, workers=1, progress=False)
        with pytest.raises(ValueError, match="in use by another process"):
            census(codes=[".77"], out=str(out), workers=1, until=4096, progress=False)
        done = _cli("deepen", str(out), "--until", "2^14", "--workers", "1")
        assert _one_line_error(done) and "in use by another process" in done.stderr
    finally:
        holder.unlock()
    assert (out / TABLE).read_bytes() == table


def test_a_foreign_folder_is_refused(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(ValueError, match="notes.txt"):
        census(codes=[".77"], out=str(tmp_path), workers=1, until=4096, progress=False)
    assert not (tmp_path / META).exists() and (tmp_path / "notes.txt").read_text() == "mine"
    done = _cli("--digits", "1", "--until", "64", "--out", str(tmp_path))
    assert _one_line_error(done) and "notes.txt" in done.stderr
    # the refused folder keeps nothing of the census's, not even the lock file it tried
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]
    frontier = tmp_path / "f"
    frontier.mkdir()
    (frontier / MANIFEST).write_text(json.dumps({"tool": "frontier", "sessions": []}))
    with pytest.raises(ValueError, match="not the manifest of a census run"):
        census(codes=[".77"], out=str(frontier), workers=1, until=4096, progress=False)


def test_an_older_census_without_a_manifest_is_read_and_gets_one(small, tmp_path):
    out = _copy(small, tmp_path)         # as an older census left it: no manifest, no lock
    assert census_report(str(out), plot=None).classes == 3
    done = _cli("export", str(out), "--format", "csv")
    assert done.returncode == 0 and done.stdout.startswith("game,")
    deepen(str(out), 4096, workers=1, progress=False)
    assert json.loads((out / MANIFEST).read_text())["sessions"][0]["action"] == "deepen"


# ---- deepen --promising: the same classes after a restart ------------------------------------

def _fake_open_row(code, last_rare, seconds):
    """An open row at 2^12 whose rank among the promising is set by last_rare (the quiet
    stretch) and whose place in a level by seconds (the longest first)."""
    return {"code": code, "members": [code], "dead_heaps": [], "class": "single",
            "equal_up_to": None, "period": None, "preperiod": None, "theorem": None,
            "apparent_period": None, "reached": 4096, "largest": 9, "largest_at": 3,
            "rare_mask": "1e", "rare_parity": False, "rare_count": 5, "last_rare": last_rare,
            "p_positions": 1, "last_p": 0, "first_values": [0, 1], "engine": "memory",
            "cap": None, "depth": 4096, "seconds": seconds, "peak_bytes": 1 << 20,
            "certificate": {"sha256": "0" * 64, "values": 4096, "bound": None,
                            "checkpoints": {}, "offsets": True}}


def test_a_stopped_promising_deepening_takes_the_same_classes(tmp_path, monkeypatch):
    """.77 and .6 are the two most promising (the longest quiet stretches); .77 is proven at
    the next level.  Stopped after .77's row, the deepening started again goes on with .77
    and .6 (kept in deepen.json), not with .36, the next once .77 is no longer open."""
    out = str(tmp_path)
    write_meta(out, {"offsets": True, "codes": ["0.36", "0.6", "0.77"], "until": 4096})
    with open(tmp_path / TABLE, "w") as f:
        for row in (_fake_open_row("0.77", 3, 9.0), _fake_open_row("0.6", 7, 1.0),
                    _fake_open_row("0.36", 2000, 0.5)):
            f.write(json.dumps(row) + "\n")
    appended = []
    real = run_module.append_row

    def append_then_stop(directory, row):
        real(directory, row)
        appended.append(row["code"])
        raise KeyboardInterrupt     # stopped right after the first row, as by a kill

    monkeypatch.setattr(run_module, "append_row", append_then_stop)
    with pytest.raises(KeyboardInterrupt):
        deepen(out, 16384, promising=2, workers=1, progress=False)
    assert appended == ["0.77"]
    assert json.loads((tmp_path / CHOICE).read_text())["classes"] == ["0.77", "0.6"]
    monkeypatch.setattr(run_module, "append_row", real)
    deepen(out, 16384, promising=2, workers=1, progress=False)
    depths = {r["code"]: r["depth"] for r in read_rows(out)}
    assert depths == {"0.77": 16384, "0.6": 16384, "0.36": 4096}
    deepen(out, 16384, promising=3, workers=1, progress=False)    # another count: chosen anew
    assert {r["code"]: r["depth"] for r in read_rows(out)}["0.36"] == 16384


# ---- one reader of the table ---------------------------------------------------------------

@pytest.mark.parametrize("edit", ["class", "largest", "codes"])
def test_malformed_rows_are_one_line_everywhere(small, tmp_path, edit):
    out = _copy(small, tmp_path)
    rows = [json.loads(line) for line in (out / TABLE).read_text().splitlines()]
    if edit == "codes":
        meta = json.loads((out / META).read_text())
        del meta["codes"]
        (out / META).write_text(json.dumps(meta))
    else:
        if edit == "class":
            rows[0]["class"] = "x"
        else:
            del rows[0]["largest"]
        (out / TABLE).write_text("".join(json.dumps(r) + "\n" for r in rows))
        with pytest.raises(ValueError, match=f"line 1 .*malformed.*{edit}"):
            read_rows(str(out))
    published = tmp_path / "p.csv"
    published.write_text(export_table(small[1], "csv"))
    for args in (["report", str(out)], ["export", str(out)],
                 ["compare", str(out), str(published)],
                 ["deepen", str(out), "--until", "2^14", "--workers", "1"]):
        done = _cli(*args)
        if edit == "codes" and args[0] != "deepen":     # what they read is whole
            assert done.returncode in (0, 1) and not done.stderr, (args, done.stderr)
            continue
        assert _one_line_error(done), (args, done.stderr)
        assert (META if edit == "codes" else TABLE) in done.stderr


# ---- exports never replace the census's files ----------------------------------------------

def test_an_export_never_replaces_the_census_files(small, tmp_path):
    out = _copy(small, tmp_path)
    table = (out / TABLE).read_bytes()
    elsewhere = tmp_path / "link.jsonl"
    elsewhere.symlink_to(out / TABLE)
    for target in (out / TABLE, out / META, out / "runs" / "0.6" / "values.bin", elsewhere,
                   out / "." / MANIFEST):
        done = _cli("export", str(out), "--format", "csv", "--save", str(target))
        assert _one_line_error(done) and "a file of the census" in done.stderr, done.stderr
    done = _cli("export", str(out), "--format", "csv", "--out", str(out / TABLE))  # old name
    assert done.returncode == 2 and "a file of the census" in done.stderr
    done = _cli("report", str(out), "--plot", str(out / TABLE))
    assert _one_line_error(done)
    assert (out / TABLE).read_bytes() == table
    done = _cli("export", str(out), "--format", "csv", "--save", str(out / "czajka.csv"))
    assert done.returncode == 0 and (out / "czajka.csv").read_text().startswith("game,")


# ---- compare: the shared codes, up to the shared depth -------------------------------------

def _published(tmp_path, lines):
    path = tmp_path / "t.csv"
    path.write_text("game,prefix,period,largest idx,largest,rare mask,num rare,last rare,"
                    "computed to\n" + "".join(line + "\n" for line in lines))
    return str(path)


def test_compare_on_the_shared_codes_and_depth(tmp_path):
    """.6 (Officers) open here at 2^12; published rows deeper, shallower and solved."""
    row = dict(_fake_open_row("0.6", 1000, 1.0), largest=12, largest_at=2000, rare_count=40)
    rows = [row]
    same = compare_table(rows, _published(tmp_path, [".6,-,-,2000,12,1e,40,1000,4096",
                                                     ".123,1,2,3,4,-,-,-,4096"]))
    assert (same.compared, same.differences, same.absent) == (1, [], [".123"])
    assert "not in the census" in str(same) and "all equal" in str(same)
    deeper = [".6,-,-,9000,15,1e,55,8000,65536",      # later records and rare values: equal
              ".6,-,-,2000,12,1e,40,1000,65536",      # quiet since: equal
              ".6,-,-,9000,15,-,-,-,-"]               # open there, no depth stated
    for line in deeper:
        assert compare_table(rows, _published(tmp_path, [line])).differences == [], line
    assert compare_table(rows, _published(tmp_path, [".6,10,20,9000,15,-,-,-,-"])) \
        .differences == []                             # proven there, open here: depth only
    wrong = {".6,-,-,2000,13,1e,40,1000,65536": "largest 12 here, 13",
             ".6,-,-,9000,12,1e,55,8000,65536": "largest 12 here, 12",   # not a new record
             ".6,-,-,2000,12,1e,41,1000,65536": "num rare 40 here, 41",
             ".6,-,-,1500,12,1e,40,1000,2048": "largest idx 2000 here, 1500",
             ".6,-,-,2000,12,3f,40,1000,4096": "rare mask 1e here, 3f"}
    for line, said in wrong.items():
        found = compare_table(rows, _published(tmp_path, [line]))
        assert len(found.differences) == 1 and said in found.differences[0], (line, found)


# ---- the command line: help per action, one meaning per flag --------------------------------

def test_help_per_action_and_one_meaning_per_flag(small, tmp_path):
    out, _rows = small
    export = _cli("export", "--help")
    assert export.returncode == 0 and "--save" in export.stdout
    assert "--digits" not in export.stdout and "--budget" not in export.stdout
    verify = _cli("verify", str(out), "--help").stdout
    assert "--budget" in verify and "--format" not in verify
    assert "ACTION --help" in " ".join(_cli("--help").stdout.split())   # however it wraps
    done = _cli("report", str(out), "--format", "csv")
    assert _one_line_error(done) and "--format is for census export" in done.stderr
    done = _cli("export", str(out), "--out", str(tmp_path / "t.md"))   # the old spelling
    assert done.returncode == 0 and "now --save" in done.stderr
    assert (tmp_path / "t.md").read_text().startswith("| game |")
    done = _cli("--codes", os.devnull, "--out", str(tmp_path / "n"), "--max-n", "64")
    assert "--max-n is the old name of --until" in done.stderr


# ---- one definition of open, capped and solved ---------------------------------------------

def test_the_progress_lines_and_the_report_count_alike(small):
    out, rows = small
    done = [line for line in (out / PROGRESS_LOG).read_text().splitlines()
            if " census: done:" in line][-1]
    report = census_report(str(out), plot=None)
    first = str(report).splitlines()[0]
    assert "3 classes: 1 solved, 0 capped, 2 open" in done
    assert "1 solved" in first and "0 capped" in first and "2 open" in first
    assert report.solved + len(report.capped) + len(report.open) == report.classes
