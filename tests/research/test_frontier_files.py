"""A frontier run's files: periods proven and recorded, the statistics equal to the heap
command's, every state on disk resumable (killed at each system call of a widening), and
every edited, crafted or foreign file refused in one line."""

from __future__ import annotations

import csv
import errno
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from nimbers import files
from nimbers.games import heap_game
from nimbers.research.frontier import frontier_run, frontier_values
from nimbers.research.frontier import store

WIDE = "0." + "7" * 31  # values pass 255 at heap 444: the values file widens early
ENGINE = {"head": 256, "window": 4096, "stop_at_proof": False, "progress": False}


def sha(values: np.ndarray) -> str:
    width = 1 if int(values.max()) < 256 else 2
    return hashlib.sha256(values.astype(f"<u{width}").tobytes()).hexdigest()


def test_a_proven_period_is_recorded_and_the_run_stops_at_its_bound(tmp_path: Path) -> None:
    stats = frontier_run("0.16", 2**20, tmp_path, progress=False)
    assert (stats.period, stats.preperiod, stats.proof_bound) == (149459, 105351, 509622)
    assert stats.heap_sizes == 509622  # the least heap count that proves it
    values = heap_game("0.16").nim_values(509622)
    assert stats.proof_sha256 == sha(values)
    proof = json.loads((tmp_path / "proof.json").read_text())
    assert proof["period"] == 149459 and proof["bound"] == 509622
    again = frontier_run("0.16", 2**20, tmp_path, progress=False)  # re-proved from the values
    assert again.period == 149459 and again.heap_sizes == 509622


def test_the_last_exception_is_shown_from_the_values(tmp_path: Path) -> None:
    # OEIS A071436's comment puts 0.56's last exception at 326637; the values say 326639
    stats = frontier_run("0.56", 2**20, tmp_path, progress=False)
    assert (stats.period, stats.preperiod) == (144, 326640)
    assert stats.last_exception is not None and stats.last_exception["n"] == 326639
    g = frontier_values(tmp_path)
    assert g[326639] != g[326639 + 144]
    assert "the last exception is at n = 326639" in stats.summary()


@pytest.mark.parametrize("code, n", [("grundy", 1 << 18), ("0.127", 60000), ("0.6", 1 << 16)])
def test_the_statistics_are_the_heap_commands(tmp_path: Path, code: str, n: int) -> None:
    game = heap_game(code)
    expected = game.stats(n)
    stats = frontier_run(code, n, tmp_path, threads=1, head=8192, window=1 << 17,
                         stop_at_proof=False, progress=False)
    assert stats.mask_name == expected.mask_name
    assert (stats.rare_count, stats.last_rare) == (expected.rare_count, expected.last_rare)
    with open(tmp_path / "rare.csv") as f:
        rows = list(csv.reader(f))[1:]
    assert [int(r[0]) for r in rows] == expected.rare_positions.tolist()
    with open(tmp_path / "records.csv") as f:
        rows = list(csv.reader(f))[1:]
    assert [int(r[0]) for r in rows] == expected.record_positions.tolist()
    assert stats.records == len(expected.record_positions)


_KILLER = """
import os, sys
from nimbers.research.frontier import run as fr
k, state = int(sys.argv[2]), {"armed": False, "calls": 0}
def wrap(f):
    def call(*a, **kw):
        if state["armed"]:
            state["calls"] += 1
            if state["calls"] == k:
                os._exit(9)
        return f(*a, **kw)
    return call
for name in ("pwrite", "fsync", "replace", "unlink", "open", "ftruncate", "close"):
    setattr(os, name, wrap(getattr(os, name)))
widen = fr._Run._widen
def armed(self):
    state["armed"] = True
    widen(self)
fr._Run._widen = armed
fr.frontier_run(%r, 3000, sys.argv[1], threads=1, interval=1e9, head=%d, window=4096,
                stop_at_proof=False, progress=False)
"""


@pytest.mark.parametrize("k", [1, 2, 3, 4, 6, 8, 11, 14, 18, 24, 40])
def test_killed_at_any_system_call_of_a_widening_it_resumes(tmp_path: Path, k: int) -> None:
    """kill -9 (os._exit) at the k-th system call from the start of the widening to 2 bytes
    a value: the state on disk resumes, to the uninterrupted values."""
    frontier_run(WIDE, 400, tmp_path, threads=1, **ENGINE)  # a checkpoint before the widening
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    subprocess.run([sys.executable, "-c", _KILLER % (WIDE, 256), str(tmp_path), str(k)], env=env,
                   check=False, timeout=120)
    stats = frontier_run(WIDE, 3000, tmp_path, threads=1, **ENGINE)
    assert stats.sha256 == sha(heap_game(WIDE).nim_values(3000))
    assert sorted(p.name for p in tmp_path.glob("values*")) == ["values16.bin"]


@pytest.mark.parametrize("k", [3, 15, 27, 31, 39])  # from 27 on: after the checkpoint of no values
def test_killed_while_its_first_values_widen_it_resumes(tmp_path: Path, k: int) -> None:
    """The same when the head itself passes 255 (head 512: heap 444), so the widening's
    checkpoint holds no values yet: that run resumes too (it could not, when an empty values
    file was memory-mapped)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    subprocess.run([sys.executable, "-c", _KILLER % (WIDE, 512), str(tmp_path), str(k)], env=env,
                   check=False, timeout=120)
    stats = frontier_run(WIDE, 3000, tmp_path, threads=1, **{**ENGINE, "head": 512})
    assert stats.sha256 == sha(heap_game(WIDE).nim_values(3000))
    assert sorted(p.name for p in tmp_path.glob("values*")) == ["values16.bin"]


def _reseal(folder: Path, **changes: object) -> None:
    data = json.loads((folder / "checkpoint.json").read_text())
    data.pop("seal")
    data.update(changes)
    store.write_checkpoint(folder, {k: v for k, v in data.items() if k != "format"})


def _values_sha(folder: Path, count: int, width: int = 1) -> str:
    raw = (folder / store.values_name(width)).read_bytes()[: count * width]
    return hashlib.sha256(raw).hexdigest()


def test_edited_and_resealed_checkpoints_are_refused(tmp_path: Path) -> None:
    frontier_run("grundy", 5000, tmp_path, threads=1, **ENGINE)
    path = tmp_path / "values.bin"
    good = path.read_bytes()
    # a value flipped, the SHA-256 and the seal recomputed
    path.write_bytes(good[:3000] + bytes([good[3000] ^ 1]) + good[3001:])
    _reseal(tmp_path, sha256=_values_sha(tmp_path, 5000))
    with pytest.raises(ValueError, match=r"g\(3000\) is .* but the rules"):
        frontier_run("grundy", 6000, tmp_path, threads=1, **ENGINE)
    # zero-extended, the count raised
    path.write_bytes(good + bytes(3000))
    _reseal(tmp_path, count=8000, sha256=_values_sha(tmp_path, 8000))
    with pytest.raises(ValueError, match=r"g\(5000\) is 0 there|g\(7999\)"):
        frontier_run("grundy", 9000, tmp_path, threads=1, **ENGINE)
    # a Grundy run relabelled as Officers
    path.write_bytes(good)
    _reseal(tmp_path, count=5000, sha256=_values_sha(tmp_path, 5000), code="0.6", rules=[0, 6],
            game="0.6")
    with pytest.raises(ValueError, match="not this game's values"):
        frontier_run("0.6", 6000, tmp_path, threads=1, **ENGINE)


def test_a_crafted_all_zero_file_is_refused_at_once(tmp_path: Path) -> None:
    frontier_run("grundy", 5000, tmp_path, threads=1, **ENGINE)
    (tmp_path / "values.bin").write_bytes(bytes(1 << 22))  # 4 MiB of zeros, written
    _reseal(tmp_path, count=1 << 22, sha256=_values_sha(tmp_path, 1 << 22))
    with pytest.raises(ValueError, match=r"g\(3\) is 0 there"):
        frontier_run("grundy", 1 << 23, tmp_path, threads=1, **ENGINE)


@pytest.mark.parametrize("change, message", [
    ({"count": -1}, "count -1 is out of range"),
    ({"count": "3000"}, "'count' is not an int"),
    ({"width": 3}, "width 3 is not 1 or 2"),
    ({"sha256": "x"}, "not a SHA-256"),
    ({"rules": "grundy"}, "not a list of digits"),
])
def test_malformed_fields_are_named(tmp_path: Path, change: dict[str, object],
                                    message: str) -> None:
    frontier_run("grundy", 3000, tmp_path, threads=1, **ENGINE)
    _reseal(tmp_path, **change)
    with pytest.raises(ValueError, match=message):
        frontier_run("grundy", 4000, tmp_path, threads=1, **ENGINE)


@pytest.mark.parametrize("missing", ["count", "width", "mask", "sha256"])
def test_missing_fields_are_named(tmp_path: Path, missing: str) -> None:
    frontier_run("grundy", 3000, tmp_path, threads=1, **ENGINE)
    data = json.loads((tmp_path / "checkpoint.json").read_text())
    data.pop("seal")
    data.pop(missing)
    store.write_checkpoint(tmp_path, {k: v for k, v in data.items() if k != "format"})
    with pytest.raises(ValueError, match=f"it has no '{missing}'"):
        frontier_run("grundy", 4000, tmp_path, threads=1, **ENGINE)


def test_deeply_nested_checkpoints_are_refused_in_one_line(tmp_path: Path) -> None:
    frontier_run("grundy", 3000, tmp_path, threads=1, **ENGINE)
    (tmp_path / "checkpoint.json").write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(ValueError, match="nested deeper"):
        frontier_run("grundy", 4000, tmp_path, threads=1, **ENGINE)


def test_foreign_directories_are_refused_unless_fresh(tmp_path: Path) -> None:
    (tmp_path / "values.bin").write_bytes(os.urandom(5000))
    with pytest.raises(ValueError, match="no checkpoint.json"):
        frontier_run("grundy", 3000, tmp_path, threads=1, **ENGINE)
    assert len((tmp_path / "values.bin").read_bytes()) == 5000  # untouched
    stats = frontier_run("grundy", 3000, tmp_path, threads=1, fresh=True, **ENGINE)
    assert stats.heap_sizes == 3000
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    with pytest.raises(ValueError, match="holds 'notes.txt', which a frontier run does not"):
        frontier_run("grundy", 3000, other, threads=1, fresh=True, **ENGINE)
    assert (other / "notes.txt").read_text() == "mine"


def test_a_run_stopped_before_its_first_checkpoint_starts_again(tmp_path: Path) -> None:
    """Its manifest says the directory is a frontier run's: the values without a checkpoint
    (killed while the head was computed) are dropped, and the run starts again."""
    frontier_run("grundy", 3000, tmp_path, threads=1, **ENGINE)
    (tmp_path / "checkpoint.json").unlink()
    stats = frontier_run("grundy", 4000, tmp_path, threads=1, **ENGINE)
    assert stats.sha256 == sha(heap_game("grundy").nim_values(4000))
    (tmp_path / "manifest.json").write_text('{"tool": "census"}')
    with pytest.raises(ValueError, match="not the manifest of a frontier run"):
        frontier_run("grundy", 4000, tmp_path, threads=1, **ENGINE)


def test_a_second_process_on_the_same_run_is_refused(tmp_path: Path) -> None:
    """Two processes on one run would corrupt it (the second truncates the values the first
    is writing): the folder is locked while a run works on it."""
    frontier_run("grundy", 3000, tmp_path, threads=1, **ENGINE)
    script = ("import sys, time; from nimbers.research.rundir import RunDirectory; "
              "d = RunDirectory(sys.argv[1], 'frontier', set()); d.lock(); "
              "print('locked', flush=True); time.sleep(60)")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    holder = subprocess.Popen([sys.executable, "-c", script, str(tmp_path)], env=env,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        with pytest.raises(ValueError, match=f"in use by another process \\(pid {holder.pid}\\)"):
            frontier_run("grundy", 4000, tmp_path, threads=1, **ENGINE)
    finally:
        holder.kill()
        holder.wait()
        assert holder.stdout is not None
        holder.stdout.close()
    assert frontier_run("grundy", 4000, tmp_path, threads=1, **ENGINE).heap_sizes == 4000


def test_a_failed_write_names_the_file_and_leaves_no_temporary(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(files.os, "fsync", full)
    with pytest.raises(OSError, match="stats.json: No space left on device"):
        files.write_atomically(tmp_path / "stats.json", "{}")
    assert list(tmp_path.iterdir()) == []


def test_files_follow_the_umask(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        files.write_atomically(tmp_path / "a.json", "{}")
    finally:
        os.umask(old)
    assert (tmp_path / "a.json").stat().st_mode & 0o777 == 0o644


def test_a_run_to_a_file_writes_progress_lines(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    err = tmp_path / "err.txt"
    with open(err, "w") as f:
        subprocess.run([sys.executable, "-m", "nimbers", "heap", "grundy", "--frontier",
                        "--until", "2^21", "--checkpoint", str(tmp_path / "run"),
                        "--interval", "0.05", "--threads", "1"], env=env, stderr=f,
                       stdout=subprocess.DEVNULL, check=True, timeout=300)
    lines = err.read_text().splitlines()
    assert lines and all("heap sizes" in line for line in lines)
    assert "/s, about" in lines[0]
    log = (tmp_path / "run" / "progress.log").read_text().splitlines()
    assert any("heap sizes" in line for line in log)


@pytest.mark.parametrize("name", [*__import__("nimbers.games.catalogue", fromlist=["names"])
                                  .names("heap"), "S(1,3,4)", "0.3F", "4.07", "0.4"])
def test_every_heap_game_of_the_catalogue_runs_or_is_refused_saying_why(
        tmp_path: Path, name: str) -> None:
    from nimbers.games.catalogue import heap_game
    try:
        stats = frontier_run(name, 3000, tmp_path, threads=1, **ENGINE)
    except ValueError as exc:
        assert "sparse space" in str(exc) or "three heaps" in str(exc)
        assert any(d & 4 for d in heap_game(name).rules or (4,)) is False or \
            any(d & 8 for d in heap_game(name).rules or ())
    else:
        assert stats.sha256 == sha(heap_game(name).nim_values(3000))


def test_grundys_rare_values_are_flammenkamps(tmp_path: Path) -> None:
    """A. Flammenkamp's list of sparse values of Grundy's game (mask 0111...1), every entry
    below 232, against the frontier run's rare.csv (and the kept 2^32 run's, when there)."""
    from conftest import DATA
    published = [tuple(map(int, line.split())) for line in
                 (DATA / "flammenkamp_grundy_sparse.txt").read_text().splitlines()
                 if line and not line.startswith("#")]
    frontier_run("grundy", 1 << 16, tmp_path, threads=1, **ENGINE)
    kept = [tmp_path / "rare.csv", Path(__file__).resolve().parents[2] / "results" / "grundy"
            / "rare.csv"]
    for path in [p for p in kept if p.exists()]:
        with open(path) as f:
            rare = [(int(n), int(g)) for n, g in list(csv.reader(f))[1:]]
        assert [r for r in rare if r[0] <= 231] == published
