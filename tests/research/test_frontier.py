"""The frontier mode (nimbers.research.frontier): its values against the ordinary engine's, the
same values for any number of threads, resuming (after a stop and after kill -9), and the
checkpoints it refuses.  Small heads and windows send the engine through every storage path
(head, window, values file) within a second or so per run."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from nimbers.research.frontier import frontier_run, frontier_stats, frontier_values
from frontier_reference import python_ctrl_c, reference

#: the engine's values, not the proofs, are under test here: runs go on past a proof
SMALL = {"head": 8192, "window": 8192, "stop_at_proof": False}
TINY = {"head": 1024, "window": 4096, "stop_at_proof": False}  # the values file read back


@pytest.mark.parametrize("code, n", [("grundy", 1 << 16), ("0.6", 1 << 16), ("0.16", 1 << 15),
                                     ("0.354", 1 << 14), ("4.07", 1 << 14), ("0.77", 5000)])
def test_values_and_checksum_equal_the_ordinary_engine(tmp_path: Path, code: str, n: int) -> None:
    values, sha = reference(code, n)
    stats = frontier_run(code, n, tmp_path, threads=1, progress=False, **SMALL)
    assert stats.heap_sizes == n and stats.sha256 == sha
    assert np.array_equal(frontier_values(tmp_path), values)
    assert stats.largest == int(values.max()) and stats.largest_at == int(np.argmax(values))
    assert stats.p_positions == int(np.count_nonzero(values == 0))
    assert frontier_stats(tmp_path) == stats
    rare = [i for i, v in enumerate(values.tolist())
            if bin(((v << 1) | (i & 1 if stats.parity else 0)) & (stats.mask << 1 | stats.parity)
                   ).count("1") % 2 == 0]
    assert stats.rare_count == len(rare) and stats.last_rare == rare[-1]


@pytest.mark.parametrize("code, n, threads", [("grundy", 1 << 18, 1), ("0.6", 1 << 18, 2),
                                              ("4.044", 1 << 17, 1), ("0.364", 1 << 17, 2)])
def test_the_block_path_equals_the_ordinary_engine(tmp_path: Path, code: str, n: int,
                                                   threads: int, closed_engines: list) -> None:
    """Past 4 * head the engine goes a block of 512 positions at a time (the coverage and the
    vector checks of frontier/block.c, on the CPU's widest path: test_frontier_paths.py runs
    each): those values too equal the ordinary engine's.  (The
    first test's runs go through the blocks with the values file read back.  Codes whose
    values stay below 64, like 0.16 and 4.07, take the narrow steps instead: test_frontier_paths.py.)"""
    stats = frontier_run(code, n, tmp_path, threads=threads, progress=False, head=8192,
                         window=1 << 17, stop_at_proof=False)
    assert stats.sha256 == reference(code, n)[1]
    assert closed_engines[-1][1][7] >= (n - 4 * 8192) // 2  # the blocks (on every CPU) made most


def test_the_threads_do_not_change_the_values(tmp_path: Path) -> None:
    one = frontier_run("grundy", 1 << 16, tmp_path / "1", threads=1, progress=False, **SMALL)
    two = frontier_run("grundy", 1 << 16, tmp_path / "2", threads=2, progress=False, **SMALL)
    three = frontier_run("0.6", 1 << 14, tmp_path / "3", threads=3, progress=False, **TINY)
    assert one.sha256 == two.sha256 == reference("grundy", 1 << 16)[1]
    assert three.sha256 == reference("0.6", 1 << 14)[1]


def test_a_run_goes_on_from_its_checkpoint(tmp_path: Path) -> None:
    first = frontier_run("0.6", 20000, tmp_path, threads=2, progress=False, **SMALL)
    assert first.heap_sizes == 20000
    with open(tmp_path / "values.bin", "ab") as f:  # values written after the checkpoint
        f.write(b"\x07" * 999)
    again = frontier_run("0.6", 1 << 15, tmp_path, threads=1, progress=False, **SMALL)
    assert again.sha256 == reference("0.6", 1 << 15)[1]
    assert frontier_run("0.6", 1000, tmp_path, progress=False, **SMALL).heap_sizes == 1 << 15


def _interrupted(folder: Path, run: str, past: int, sig: int) -> tuple[int, bytes, int]:
    """Runs `frontier_run(..., folder, ...)` (the arguments in run) in a child process and
    sends it sig once its checkpoint holds more than `past` values: its exit status, its
    standard error and the values its checkpoint holds then."""
    script = f"import sys; from nimbers.research.frontier import frontier_run; {run}"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    proc = subprocess.Popen([sys.executable, "-c", script, str(folder)], env=env,
                            stderr=subprocess.PIPE, preexec_fn=python_ctrl_c)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and proc.poll() is None:
            cp = folder / "checkpoint.json"
            if cp.exists() and json.loads(cp.read_text())["count"] > past:
                break
            time.sleep(0.005)
        proc.send_signal(sig)
    finally:
        _, err = proc.communicate(timeout=60)
    return proc.returncode, err, json.loads((folder / "checkpoint.json").read_text())["count"]


def test_kill_9_then_resume_gives_the_uninterrupted_values(tmp_path: Path) -> None:
    n = 1 << 18
    _, _, count = _interrupted(
        tmp_path, f"frontier_run('grundy', {n}, sys.argv[1], threads=2, interval=0.02, "
                  "progress=False, head=8192, window=8192)", 20000, signal.SIGKILL)
    assert 8192 <= count < n  # killed mid-run, after a checkpoint
    stats = frontier_run("grundy", n, tmp_path, threads=1, progress=False, **SMALL)
    assert stats.sha256 == reference("grundy", n)[1]


@pytest.mark.parametrize("code, n, threads, head, past", [
    ("0.6", 1 << 19, 4, 1 << 16, 300_000),   # speculating: the blocks keep their helper
    ("0.167", 1 << 21, 1, 8192, 200_000),    # narrow steps: values below 64
])
def test_ctrl_c_then_resume(tmp_path: Path, code: str, n: int, threads: int, head: int,
                            past: int) -> None:
    """Ctrl-C stops the run with what was proved in its checkpoint; resumed, the run ends with
    the ordinary engine's values.  Officers with four threads: the settling thread speculates
    and two provers prove (frontier/block.c; a head of 2^16, with which the blocks keep their
    helper).  0.167: narrow steps (frontier/narrow.c), which look for a stop every 65,536
    heap sizes."""
    status, err, count = _interrupted(
        tmp_path, f"frontier_run({code!r}, {n}, sys.argv[1], threads={threads}, interval=0.02, "
                  f"progress=False, head={head}, window=1 << 17)", past, signal.SIGINT)
    assert status != 0 and b"KeyboardInterrupt" in err
    assert past < count < n  # stopped mid-run
    stats = frontier_run(code, n, tmp_path, threads=1, progress=False, **SMALL)
    assert stats.sha256 == reference(code, n)[1]


def test_corrupted_and_foreign_checkpoints_are_refused(tmp_path: Path) -> None:
    frontier_run("grundy", 3000, tmp_path, progress=False, **SMALL)
    with pytest.raises(ValueError, match="a run of grundy, not of 0.6"):
        frontier_run("0.6", 4000, tmp_path, progress=False, **SMALL)
    values = (tmp_path / "values.bin").read_bytes()
    (tmp_path / "values.bin").write_bytes(values[:100] + bytes([values[100] ^ 1]) + values[101:])
    with pytest.raises(ValueError, match=r"g\(100\) is 3 there, but the rules of Grundy's game "
                                         "give 2"):
        frontier_run("grundy", 4000, tmp_path, progress=False, **SMALL)
    (tmp_path / "values.bin").write_bytes(values[:2000])
    with pytest.raises(ValueError, match="shorter than its checkpoint"):
        frontier_run("grundy", 4000, tmp_path, progress=False, **SMALL)
    (tmp_path / "values.bin").write_bytes(values)
    text = (tmp_path / "checkpoint.json").read_text()
    (tmp_path / "checkpoint.json").write_text(text.replace('"count": 3000', '"count": 2999'))
    with pytest.raises(ValueError, match="corrupted"):
        frontier_run("grundy", 4000, tmp_path, progress=False, **SMALL)
    (tmp_path / "checkpoint.json").write_text("{not json")
    with pytest.raises(ValueError, match="not a readable frontier checkpoint"):
        frontier_values(tmp_path)


@pytest.mark.parametrize("kwargs, message", [
    ({"game": "0.3F"}, "three heaps"),
    ({"game": "0.33"}, "no move leaves two heaps"),
    ({"until": 0}, "until must be a positive int"),
    ({"until": 2**48}, "below 2"),
    ({"threads": 0}, "threads must be a positive int"),
    ({"interval": -1}, "interval is a number of seconds above 0"),
    ({"window": 100}, "at least 4096"),
])
def test_bad_arguments_are_refused(tmp_path: Path, kwargs: dict[str, object],
                                   message: str) -> None:
    args: dict[str, object] = {"game": "grundy", "until": 100, "checkpoint": tmp_path,
                               "progress": False, **kwargs}
    with pytest.raises(ValueError, match=message):
        frontier_run(**args)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        frontier_run(3.5, 10, tmp_path)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="no frontier checkpoint"):
        frontier_values(tmp_path / "nothing")


def test_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from nimbers.cli import main
    run = str(tmp_path / "run")
    assert main(["heap", "grundy", "--frontier", "--until", "2^12", "--checkpoint", run,
                 "--threads", "1"]) == 0
    out = capsys.readouterr().out
    assert "rare mask 7e" in out and reference("grundy", 4096)[1] in out
    assert main(["heap", "officers", "--frontier", "--until", "5000", "--checkpoint", run]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "a run of grundy, not of 0.6" in err
    assert main(["heap", "grundy", "--until", "5000"]) == 2
    assert "--until comes with --frontier" in capsys.readouterr().err
    assert main(["heap", "grundy", "--frontier", "--until", "5000"]) == 2
    assert "--checkpoint DIR" in capsys.readouterr().err


def test_a_run_resumes_under_another_spelling_of_its_code(tmp_path: Path) -> None:
    """.6 and 0.60 are 0.6's rules: either resumes the run (a census's run of 0.6 from the
    command line's .6), whose files keep the spelling it began with; another game is refused."""
    frontier_run("0.6", 3000, tmp_path, progress=False, **SMALL)
    stats = frontier_run(".6", 4000, tmp_path, progress=False, **SMALL)
    assert stats.sha256 == reference("0.6", 4000)[1] and stats.heap_sizes == 4000
    assert json.loads((tmp_path / "checkpoint.json").read_text())["code"] == "0.6"
    assert frontier_run("0.60", 5000, tmp_path, progress=False, **SMALL).heap_sizes == 5000
    with pytest.raises(ValueError, match="a run of 0.6, not of 0.7"):
        frontier_run("0.7", 6000, tmp_path, progress=False, **SMALL)
