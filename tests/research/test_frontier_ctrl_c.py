"""Ctrl-C ends a frontier run with a checkpoint at every instant (nimbers.research.frontier.stop):
a run interrupted at many moments -- computing its head, between the engine's steps, in a
step, writing a checkpoint, checking one on resume -- says where it checkpointed, holds that
checkpoint, says where it resumes, and ends with the ordinary engine's values."""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from frontier_reference import python_ctrl_c, reference

ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
SCRIPT = ("import sys\nfrom nimbers.research.frontier import frontier_run\n"
          "try:\n    frontier_run({code!r}, {n}, sys.argv[1], threads={threads}, interval=60, "
          "head={head}, window=1 << 16, stop_at_proof=False)\n"
          "except KeyboardInterrupt:\n    sys.exit(130)\n")


def _started(proc: subprocess.Popen[bytes], folder: Path) -> None:
    """Waits until the child holds the run (its PID in DIR/lock: the run has begun)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            if (folder / "lock").read_text().strip() == str(proc.pid):
                return
        except FileNotFoundError:
            pass
        time.sleep(0.002)


def _count(folder: Path) -> int | None:
    path = folder / "checkpoint.json"
    return json.loads(path.read_text())["count"] if path.exists() else None


@pytest.mark.parametrize("code, n, threads, head, attempts", [
    ("grundy", 1 << 19, 2, 1 << 15, 10),   # the blocks, a helper thread; the head by heap.c
    ("0.167", 1 << 21, 1, 8192, 5),        # narrow steps
])
def test_ctrl_c_at_many_moments_always_checkpoints(tmp_path: Path, code: str, n: int,
                                                   threads: int, head: int,
                                                   attempts: int) -> None:
    folder = tmp_path / "run"
    script = SCRIPT.format(code=code, n=n, threads=threads, head=head)
    rng = random.Random(53)
    saved: int | None = None
    for attempt in range(attempts):
        proc = subprocess.Popen([sys.executable, "-c", script, str(folder)], env=ENV,
                                stderr=subprocess.PIPE, preexec_fn=python_ctrl_c)
        try:
            _started(proc, folder)
            time.sleep(rng.choice([0, 0.001, 0.01, 0.03]) + rng.random() * 0.2)
            proc.send_signal(signal.SIGINT)
        finally:
            _, raw = proc.communicate(timeout=120)
        err = raw.decode()
        assert "Traceback" not in err, err
        if saved is not None and "resuming" in err:  # (not when stopped before it read the
            # checkpoint): where it goes on from, said before anything else
            assert err.split(": ", 1)[1].startswith(f"resuming from {saved:,} heap sizes\n"), err
        if proc.returncode == 0 or _count(folder) == n:  # done (the signal came too late)
            break
        assert proc.returncode == 130, err
        said = re.search(r"checkpointed at ([\d,]+) heap sizes; run the same command to go on",
                         err)
        assert said is not None, (attempt, err)
        count = _count(folder)
        assert count == int(said.group(1).replace(",", "")), (attempt, err)
        assert count >= (saved or 0)
        saved = count
    subprocess.run([sys.executable, "-c", script, str(folder)], env=ENV,
                   stderr=subprocess.PIPE, timeout=300, check=True)
    stats = json.loads((folder / "stats.json").read_text())
    assert stats["heap_sizes"] == n and stats["sha256"] == reference(code, n)[1]
    assert saved is not None and 0 < saved < n  # interrupted mid-run at least once


def test_the_command_says_where_it_checkpointed_and_where_it_goes_on(tmp_path: Path) -> None:
    """The issue's case: nimbers heap grundy --frontier, Ctrl-C past its head."""
    folder = tmp_path / "run"
    argv = [sys.executable, "-m", "nimbers", "heap", "grundy", "--frontier", "--until", "2^26",
            "--checkpoint", str(folder), "--threads", "1"]
    said = []
    for _ in range(2):
        proc = subprocess.Popen(argv, env=ENV, stderr=subprocess.PIPE,
                                stdout=subprocess.DEVNULL, preexec_fn=python_ctrl_c)
        try:
            _started(proc, folder)
            time.sleep(1.0)
            proc.send_signal(signal.SIGINT)
        finally:
            _, raw = proc.communicate(timeout=120)
        err = raw.decode().splitlines()
        assert proc.returncode == 130 and err[-1] == "nimbers: interrupted", err
        found = re.fullmatch(r"Grundy's game: checkpointed at ([\d,]+) heap sizes; run the same "
                             r"command to go on", err[-2])
        assert found is not None, err
        assert int(found.group(1).replace(",", "")) == _count(folder)
        said.append((err, found.group(1)))
    assert said[1][0][0] == f"Grundy's game: resuming from {said[0][1]} heap sizes"


def test_a_run_killed_before_its_first_checkpoint_says_it_starts_over(tmp_path: Path) -> None:
    from nimbers.research.frontier import frontier_run
    folder = tmp_path / "run"
    frontier_run("grundy", 3000, folder, threads=1, progress=False)
    (folder / "checkpoint.json").unlink()  # as a kill -9 during its head leaves it
    done = subprocess.run([sys.executable, "-m", "nimbers", "heap", "grundy", "--frontier",
                           "--until", "4000", "--checkpoint", str(folder)], env=ENV,
                          capture_output=True, text=True, timeout=120, check=True)
    assert done.stderr == "Grundy's game: no checkpoint: starting over\n"
    assert "no checkpoint: starting over" in (folder / "progress.log").read_text()


class Recorder:
    """A tqdm-like progress class that keeps what it was told."""
    made: list[Recorder] = []

    def __init__(self, total: int, desc: str) -> None:
        self.total, self.updates = total, list[int]()
        Recorder.made.append(self)

    def update(self, n: int = 1) -> None:
        self.updates.append(n)

    def close(self) -> None:
        pass


def test_progress_shows_from_the_first_heap_size(tmp_path: Path) -> None:
    """The head (2^20 heap sizes by default, made by the ordinary engine) advances the same
    bar as the frontier's steps: before, the bar began at 2^20."""
    from nimbers.research.frontier import frontier_run
    Recorder.made.clear()
    frontier_run("grundy", 1 << 20, tmp_path, threads=1, progress=Recorder)
    (bar,) = Recorder.made
    assert bar.total == 1 << 20 and sum(bar.updates) == 1 << 20
    assert len(bar.updates) > 4 and bar.updates[0] < 1 << 18


def test_progress_lines_to_a_file_come_every_ten_seconds_at_most(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With output to a file (nohup ... 2> log) a plain line every interval, but at most ten
    seconds apart whatever the interval (before: a minute)."""
    from nimbers.research.frontier import frontier_run, run
    seen = []

    class Watching(run.Progress):  # type: ignore[misc]
        def __init__(self, *args: object, **kwargs: object) -> None:
            seen.append(kwargs["log_every"])
            super().__init__(*args, **kwargs)
    monkeypatch.setattr(run, "Progress", Watching)
    frontier_run("grundy", 5000, tmp_path, threads=1, progress=False)
    frontier_run("grundy", 6000, tmp_path, threads=1, progress=False, interval=3)
    assert seen == [10.0, 3.0]
