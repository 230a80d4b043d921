"""The census by depth (#34 items 5, 6; #38): the same table whatever the load, deepened in
place, the frontier engine's deep stage, the exported tables (T. Czajka's and A. Flammenkamp's
columns) and the comparison with a published one, processes that end with the census, a
verify that re-checks or refuses everything a row states, input read within caps."""

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import dask_cluster, edited_table

import nimbers
from nimbers.research import census
from nimbers.research.census import depth as depth_module
from nimbers.research.census import verify_row as verify_module
from nimbers.research.census.compute import solve_class
from nimbers.research.census.report import census_report
from nimbers.research.census.run import PROGRESS_LOG, deepen, levels
from nimbers.research.census.table import TABLE, read_rows
from nimbers.research.census.verify import CensusError, check_row, verify_census
from nimbers.research.export import compare_table, export_table

DATA = Path(__file__).resolve().parents[1] / "data"
SRC = str(Path(nimbers.__file__).resolve().parents[1])
#: a dense class (0.04: judged at 2^20, not here), Officers' class (open), proven ones, two
#: games that part at 519
CODES = [".04", ".6", ".61", ".77", ".16", ".161", ".36", "4.4"]
MEASURED = ("seconds", "peak_bytes")


def _env(**extra):
    env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("NIMBERS_TIME_LIMIT", None)
    env.update(extra)
    return env


def _cli(*args, timeout=300, **extra):
    return subprocess.run([sys.executable, "-m", "nimbers", "census", *args], env=_env(**extra),
                          capture_output=True, text=True, timeout=timeout)


def _one_line_error(done):
    return done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1


def _comparable(rows):
    return sorted(json.dumps({k: v for k, v in r.items() if k not in MEASURED}, sort_keys=True)
                  for r in rows)


@pytest.fixture(scope="module")
def deep(tmp_path_factory):
    """CODES to 2^16 (0.04, dense there, is judged only at DENSE_DEPTH: an open row)."""
    out = str(tmp_path_factory.mktemp("deep"))
    return out, census(codes=CODES, out=out, workers=2, until=1 << 16, progress=False)


def test_levels_and_the_dense_class(deep):
    assert levels(1 << 16) == [1 << 12, 1 << 14, 1 << 16]
    _, rows = deep
    by = {r["code"]: r for r in rows}
    assert by["0.04"]["cap"] is None and by["0.04"]["engine"] == "memory"
    assert by["0.04"]["reached"] == 1 << 16                   # test_census_dense: the rule
    assert by["0.77"]["class"] == "proved" and by["0.77"]["period"] == 12
    assert by["0.6"]["class"] == "values" and by["0.6"]["reached"] == 1 << 16
    assert {by["0.161"]["code"], by["0.36"]["code"]} == {"0.161", "0.36"}     # apart at 519
    # verify makes a proven row's values whatever the budget, an open row's as it allows
    assert check_row(by["0.77"], 0.001, True)["error"] is None
    assert check_row(by["0.6"], 0.001, True)["error"].startswith("only g(0..")


def test_same_csv_digest_under_load(deep, tmp_path):
    """The same census again while a busy process competes for the cores: the same table,
    byte for byte once exported (no clock decides anything)."""
    out, rows = deep
    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        again = census(codes=CODES, out=str(tmp_path), workers=2, until=1 << 16, progress=False)
    finally:
        busy.kill()
        busy.wait()
    assert _comparable(again) == _comparable(rows)
    first, second = (hashlib.sha256(export_table(read_rows(d), "csv").encode()).hexdigest()
                     for d in (out, str(tmp_path)))
    assert first == second


def test_deepen_continues_only_open_rows(deep, tmp_path):
    out, rows = deep
    shallow = str(tmp_path / "shallow")
    census(codes=CODES, out=shallow, workers=2, until=1 << 14, progress=False)
    before = (Path(shallow) / TABLE).read_text().splitlines()
    proven = [line for line in before if json.loads(line)["class"] == "proved"]
    deepened = deepen(shallow, 1 << 16, workers=2, progress=False)
    assert _comparable(deepened) == _comparable(rows)
    after = (Path(shallow) / TABLE).read_text().splitlines()
    assert after[:len(before)] == before                      # appended, never rewritten
    added = [json.loads(line)["code"] for line in after[len(before):]]
    assert not set(added) & {json.loads(p)["code"] for p in proven}
    done = _cli("deepen", shallow, "--until", "2^16", "--workers", "2")
    assert done.returncode == 0, done.stderr                  # nothing left to do
    assert (Path(shallow) / TABLE).read_text().splitlines() == after


def test_frontier_deep_stage_gives_the_same_rows(tmp_path, monkeypatch):
    """The frontier engine (run directory, checkpoint, values file) and the ordinary engine
    give the same rows but for the engine's name."""
    memory = {r["code"]: r for c in ("0.45", "0.36") for r in solve_class([c], 1 << 14)}
    monkeypatch.setattr(depth_module, "FRONTIER_FROM", 1 << 12)
    for code in ("0.45", "0.36"):
        row, = solve_class([code], 1 << 14, str(tmp_path))
        assert row["engine"] == "frontier" and (tmp_path / code / "checkpoint.json").exists()
        mine = {k: v for k, v in row.items() if k not in MEASURED + ("engine",)}
        theirs = {k: v for k, v in memory[code].items() if k not in MEASURED + ("engine",)}
        assert mine == theirs


def test_verify_makes_a_frontier_row_again_on_a_fresh_run(tmp_path, monkeypatch):
    """A frontier row: its first values by the ordinary engine, all of them by a fresh
    frontier run in verify's own directory (kept, resumed); a changed checkpoint fails, and
    a broken fresh run fails the row saying so, not as a malformed row."""
    monkeypatch.setattr(depth_module, "FRONTIER_FROM", 1 << 12)
    monkeypatch.setattr(verify_module, "ORDINARY_LEAST", 1 << 12)
    row, = solve_class(["0.6"], 1 << 16, str(tmp_path / "census"))
    assert row["engine"] == "frontier"
    runs = str(tmp_path / "verify")
    done = check_row(row, 0.001, True, runs=runs, full=True)
    assert done["error"] is None and done["frontier"] and done["ordinary"] == 1 << 12
    assert (tmp_path / "verify" / "0.6" / "checkpoint.json").exists()
    done = check_row(row, 0.001, True)          # not full: the prefix the budget allows
    assert done["error"] is None and done["checked"] == 1 << 12 and not done["frontier"]
    assert "g(0..4095) by the ordinary engine, equal to the digest" in done["against"]
    table = tmp_path / "table"
    table.mkdir()
    (table / TABLE).write_text(json.dumps(row) + "\n")
    with pytest.raises(ValueError, match="not a directory"):
        verify_census(str(table), work=str(table / TABLE))
    with pytest.raises(ValueError, match="the census's own frontier runs"):
        verify_census(str(table), work=str(table / "runs" / ".." / "runs"))
    done = _cli("report", str(table), "--work", runs)
    assert _one_line_error(done) and "--work is for census verify" in done.stderr
    row["certificate"]["checkpoints"]["32768"] = "0" * 64
    assert "checkpoints" in check_row(row, 0.001, True, runs=runs, full=True)["error"]
    assert check_row(row, 0.001, True)["error"] is None     # past the prefix checked
    assert "checkpoints" in check_row(row, 0.001, True, until=1 << 15)["error"]
    (tmp_path / "verify" / "0.6" / "checkpoint.json").write_text("{")   # verify's own run
    error = check_row(row, 0.001, True, runs=runs, full=True)["error"]
    assert error.startswith("the fresh frontier run in ") and "checkpoint" in error


def test_members_of_an_open_class_are_compared_to_member_depth(monkeypatch):
    """Past MEMBER_DEPTH only an open class's standard form goes deeper; equal_up_to says how
    far its members were compared, and verify's check of the row agrees."""
    monkeypatch.setattr(depth_module, "MEMBER_DEPTH", 1 << 12)
    row, = solve_class(["0.6", "0.61"], 1 << 14)
    assert (row["class"], row["reached"], row["equal_up_to"]) == ("values", 1 << 14, 4095)
    assert check_row(row, 60.0, True)["error"] is None
    row["equal_up_to"] = 1 << 14
    assert "equal_up_to is 4095" in check_row(row, 60.0, True)["error"]   # 0.61: a dead heap


def test_376_proven_at_its_published_numbers(tmp_path):
    """.376 (T. Czajka's SolvedGames.md: period 4 from heap 2268248, largest 176 at 341612,
    mask fe, 510 rare values, the last at 1140540): the last level 2^22 goes on to the proof's
    bound 4,536,507 on the frontier engine."""
    row, = census(codes=[".376"], out=str(tmp_path), workers=1, until=1 << 22, progress=False)
    got = (row["preperiod"], row["period"], row["largest_at"], row["largest"], row["rare_mask"],
           row["rare_count"], row["last_rare"], row["engine"])
    assert got == (2268248, 4, 341612, 176, "fe", 510, 1140540, "frontier")
    assert (tmp_path / "runs" / "0.376" / "checkpoint.json").exists()


def test_export_formats(deep, tmp_path):
    out, rows = deep
    md = export_table(rows, "md")
    assert md.splitlines()[0].startswith("| game | prefix | period |")
    assert "| .77 | 71 | 12 |" in md and "| .6 | - | - |" in md
    tex = export_table(rows, "tex", "flammenkamp")
    assert tex.startswith(r"\begin{tabular}") and "sgv" in tex and ".77 & 0123" in tex
    done = _cli("export", out, "--format", "csv", "--save", str(tmp_path / "t.csv"))
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "t.csv").read_text() == export_table(rows, "csv")
    assert _one_line_error(_cli("export", out, "--format", "csv", "--save", "/dev/full"))
    with pytest.raises(ValueError, match="format"):
        export_table(rows, "xls")


def test_compare_names_every_differing_row(tmp_path):
    """The solved games of T. Czajka's SolvedGames.md that are quick: equal; .16 and .56 are
    open at 2^16 and equal up to it (their rare values and records below 2^16 are his);
    .127, .165, .376 and .354 are not in this census: named, not counted as differences."""
    codes = [".45", ".156", ".356", ".644", ".16", ".56"]
    rows = census(codes=codes, out=str(tmp_path), workers=2, until=1 << 16, progress=False)
    found = compare_table(rows, str(DATA / "czajka_solved_games.txt"))
    assert (found.compared, found.differences) == (6, [])
    assert sorted(found.absent) == [".127", ".165", ".354", ".376"]
    done = _cli("compare", str(tmp_path), str(DATA / "czajka_solved_games.txt"))
    assert done.returncode == 0 and "4 not in the census" in done.stdout
    wrong = tmp_path / "wrong.txt"
    wrong.write_text(".16 105351 149459 229790 23 1e 54 13935\n")   # one rare value more
    done = _cli("compare", str(tmp_path), str(wrong))
    assert done.returncode == 1 and ".16: num rare 53 here, 54 in the table" in done.stdout
    mine = tmp_path / "mine.csv"
    mine.write_text(export_table([r for r in rows if r["period"] is not None], "csv"))
    assert compare_table(rows, str(mine)).differences == []


def test_progress_log(deep):
    out, _ = deep
    lines = (Path(out) / PROGRESS_LOG).read_text().splitlines()
    assert any("level 2^16 done" in line and "classes" in line for line in lines)
    assert lines[-1].split(" census: ")[1].startswith("done:")


def test_progress_lines_weigh_the_tasks_by_their_last_level(tmp_path):
    """A level's progress line says the share of its work done, each class weighed by its
    seconds at the level before (the count of tasks misleads when they differ a
    hundredfold); a level with nothing to go by says the count alone."""
    from nimbers.research.census.run import _share_done

    class Done:
        def __init__(self, done: bool) -> None:
            self._done = done

        def done(self) -> bool:
            return self._done

    big, small = Done(True), Done(False)
    assert _share_done([big, small], {big: 90.0, small: 10.0}) == \
        ", about 90% of the work by the seconds at the level before"
    assert _share_done([big, small], {big: 0.0, small: 0.0}) == ""
    assert _share_done([big, small], None) == ""
    out = tmp_path / "c"
    census(codes=[".6", ".36", "4.4"], out=str(out), workers=1, until=1 << 16,
           progress=False, interval=0.001)
    lines = (out / PROGRESS_LOG).read_text().splitlines()
    assert any("level 2^16:" in line and "% of the work by the seconds at the level before"
               in line for line in lines)


def test_report_counts_only_proofs(deep, tmp_path):
    out, rows = deep
    copy = tmp_path / "copy"
    shutil.copytree(out, copy)
    lines = (copy / TABLE).read_text().splitlines()
    for i, line in enumerate(lines):
        row = json.loads(line)
        if row["code"] == "0.77" and row["class"] == "proved":
            row["class"], row["equal_up_to"] = "values", 100   # members not proven
            lines[i] = json.dumps(row)
    (copy / TABLE).write_text("\n".join(lines) + "\n")
    before, after = census_report(out, plot=None), census_report(str(copy), plot=None)
    assert after.solved == before.solved - 1
    assert "values: members equal to the standard form as far as compared" in str(after)


def _session_processes(sid):
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            fields = stat.rsplit(")", 1)[1].split()
            if int(fields[3]) == sid and fields[0] != "Z":
                found.append(int(entry))
    return found


def test_kill_9_leaves_no_process(tmp_path):
    """kill -9 of the census alone (not its group): the forkserver, the workers and the
    resource tracker end too, within 5 s."""
    out = tmp_path / "killed"
    proc = subprocess.Popen([sys.executable, "-m", "nimbers", "census", "--digits", "2",
                             "--until", "2^20", "--workers", "2", "--out", str(out)],
                            env=_env(), start_new_session=True, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and len(_session_processes(proc.pid)) < 3:
        time.sleep(0.1)
    assert len(_session_processes(proc.pid)) >= 3          # the census and its pool
    time.sleep(1)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and _session_processes(proc.pid):
        time.sleep(0.1)
    left = _session_processes(proc.pid)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left


def _edited(good, tmp_path, name, change):
    return str(edited_table(good, tmp_path, name, change, TABLE)[0])


def _open_row(field, value):
    def change(row):
        if row["code"] == "0.6":
            row[field] = value(row[field])
            return True
        return False
    return change


def _proven_row(field, value):
    def change(row):
        if row["code"] == "0.77":
            row[field] = value
            return True
        return False
    return change


def _first_row(row):
    """A replaced row of 0.6 given a member the later rows lack."""
    if row["code"] == "0.6" and row["depth"] == 1 << 12:
        row["members"].append("0.64")
        row["dead_heaps"].append(0)
        return True
    return False


def _far(row):
    if row["code"] == "0.36":
        row["reached"] = row["certificate"]["values"] = 10**9
        return True
    return False


EDITS = {
    "largest": (_open_row("largest", lambda v: 9999), r"\(0.6\): largest 9999 .*: the largest value"),
    "rare_count": (_open_row("rare_count", lambda v: v + 1), r"\(0.6\): rare_count \d+: \d+ rare values"),
    "apparent_period": (_open_row("apparent_period", lambda v: 7),
                        r"\(0.6\): apparent_period 7: the apparent period"),
    "equal_up_to": (_open_row("equal_up_to", lambda v: v - 1), r"\(0.6\): equal_up_to is"),
    "reached": (_far, r"\(0.36\): reached 1000000000 is past"),
    "period_float": (_proven_row("period", 12.5), r"\(0.77\): a malformed row: \"period\""),
    "period_text": (_proven_row("period", "12"), r"\(0.77\): a malformed row: \"period\""),
    "member": (_open_row("members", lambda v: v + ["0.64"]), r"\(0.6\): dead_heaps"),
    "superseded": (_first_row, r"\(0.6, replaced\): the rows after it lack 0.64"),
}


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    out = str(tmp_path_factory.mktemp("small"))
    census(codes=[".6", ".61", ".77", ".36", "4.4"], out=out, workers=2, until=1 << 14,
           progress=False)
    return out


def test_verify_refuses_every_edit(small, tmp_path):
    """Each edit fails verify --budget 10 for its own reason (the row and the field named);
    the good table passes, a line per row in the work directory's progress log."""
    verify_census(small, workers=2, budget=10, work=str(tmp_path / "work"), progress=False)
    lines = (tmp_path / "work" / PROGRESS_LOG).read_text().splitlines()
    rows = len(read_rows(small))
    assert sum(": checked, " in line for line in lines) == rows
    assert f"{rows} of {rows} rows done" in lines[-1]
    for name, (change, message) in EDITS.items():
        with pytest.raises(CensusError, match=message):
            verify_census(_edited(small, tmp_path, name, change), workers=2, budget=10)
    done = _cli("verify", _edited(small, tmp_path, "cli", EDITS["period_text"][0]), "--budget",
                "10")
    assert _one_line_error(done) and "(0.77)" in done.stderr


def test_unclear_input_is_one_line(tmp_path):
    nested = tmp_path / "nested"
    nested.mkdir()
    (nested / TABLE).write_text("[" * 100_000 + "\n")
    done = _cli("verify", str(nested))
    assert _one_line_error(done) and "RecursionError" not in done.stderr
    done = _cli("--codes", "/dev/zero", "--out", str(tmp_path / "z"))
    assert _one_line_error(done) and "refused" in done.stderr
    assert _one_line_error(_cli("verify", str(nested), "--budget", "inf"))
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "census.json").write_text(json.dumps({"format": "nimbers octal census", "codes": 5}))
    done = _cli("--digits", "1", "--out", str(bad))
    assert _one_line_error(done) and "codes" in done.stderr
    assert _one_line_error(_cli("--digits", "1", "--out", "/dev/full"))
    with pytest.raises(ValueError):
        census(codes=["0.7\n7"], out=str(tmp_path / "n"), progress=False)
    with pytest.raises(ValueError, match="until"):
        census(1, out=str(tmp_path / "u"), until=float("inf"), progress=False)
    with pytest.raises(ValueError, match="budget"):
        verify_census(str(nested), budget=float("inf"))


def test_dask_without_workers_stops_with_a_message(tmp_path):
    pytest.importorskip("distributed", reason="dask distributed is not installed")
    with dask_cluster(_env(), workers=1, nanny=False) as (address, (worker,)):
        run = subprocess.Popen([sys.executable, "-m", "nimbers", "census", "--digits", "2",
                                "--until", "2^22", "--scheduler", address, "--out",
                                str(tmp_path)], env=_env(NIMBERS_CENSUS_WORKERLESS="5"),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not (tmp_path / TABLE).exists():
            time.sleep(0.1)
        worker.kill()
        _, err = run.communicate(timeout=120)
        assert run.returncode == 2 and "no worker" in err


def test_a_class_with_only_its_published_lists_starts_its_run_afresh(tmp_path, monkeypatch):
    """A census directory made again from a published table (tools/census_depth_work.py)
    holds an open class's lists as its run's rare and record files, and no run: deepening
    the class starts its run from heap 0 there (it was refused before, as a folder of
    frontier files without a checkpoint), and gives the row a fresh census gives."""
    monkeypatch.setattr(depth_module, "FRONTIER_FROM", 1 << 12)
    fresh, = solve_class(["0.6"], 1 << 14, str(tmp_path / "fresh"))
    stub = tmp_path / "rebuilt" / "0.6"
    stub.mkdir(parents=True)
    for name in ("rare.csv", "records.csv"):
        (stub / name).write_text((tmp_path / "fresh" / "0.6" / name).read_text())
    row, = solve_class(["0.6"], 1 << 14, str(tmp_path / "rebuilt"))
    assert (stub / "checkpoint.json").exists() and (stub / "manifest.json").exists()
    assert {k: v for k, v in row.items() if k not in MEASURED} == \
        {k: v for k, v in fresh.items() if k not in MEASURED}
    other = tmp_path / "other" / "0.6"     # lists beside a values file: a run's, not deleted
    other.mkdir(parents=True)
    for name in ("rare.csv", "records.csv", "values16.bin"):
        (other / name).write_bytes((stub / name).read_bytes())
    with pytest.raises(ValueError, match="no checkpoint.json"):
        solve_class(["0.6"], 1 << 14, str(tmp_path / "other"))
    assert (other / "values16.bin").stat().st_size == (stub / "values16.bin").stat().st_size
