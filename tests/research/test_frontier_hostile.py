"""Hostile run directories cost nothing outside them: links planted at a run's file names are
refused before anything is written through them, and a huge string in a JSON file is scanned
in constant memory (nimbers.files, nimbers.research.rundir)."""

from __future__ import annotations

import json
import os
import tracemalloc
from pathlib import Path

import pytest

from nimbers import files
from nimbers.research.frontier import frontier_run

ENGINE = {"head": 256, "window": 4096, "stop_at_proof": False, "progress": False}


@pytest.fixture
def victim(tmp_path: Path) -> Path:
    """A file of someone else's, outside the run."""
    path = tmp_path / "victim"
    path.write_text("precious\n")
    return path


@pytest.mark.parametrize("name", ["lock", "progress.log", "values.bin", "checkpoint.json",
                                  "manifest.json"])
def test_a_link_at_a_run_file_is_refused_and_its_target_untouched(
        tmp_path: Path, victim: Path, name: str) -> None:
    run = tmp_path / "run"
    frontier_run("grundy", 3000, run, threads=1, **ENGINE)
    (run / name).unlink()
    (run / name).symlink_to(victim)
    with pytest.raises(ValueError, match=f"{name}.* symbolic link"):
        frontier_run("grundy", 4000, run, threads=1, **ENGINE)
    assert victim.read_text() == "precious\n"


@pytest.mark.parametrize("name", ["lock", "progress.log"])
def test_a_link_in_a_new_run_is_refused_before_anything_is_written(
        tmp_path: Path, victim: Path, name: str) -> None:
    run = tmp_path / "run"
    run.mkdir()
    (run / name).symlink_to(victim)
    with pytest.raises(ValueError, match="symbolic link"):
        frontier_run("grundy", 3000, run, threads=1, fresh=True, **ENGINE)
    assert victim.read_text() == "precious\n"


def test_the_files_written_in_place_are_opened_without_following_links(
        tmp_path: Path, victim: Path) -> None:
    """open_own itself (the lock, the log and the values files are opened by it, so a link
    planted between the directory's check and the open is refused too)."""
    (tmp_path / "log").symlink_to(victim)
    with pytest.raises(ValueError, match="log: a symbolic link"):
        files.open_own(tmp_path / "log", os.O_WRONLY | os.O_APPEND | os.O_CREAT)
    os.link(victim, tmp_path / "hard")
    with pytest.raises(ValueError, match="hard: a file with 1 other hard link"):
        files.open_own(tmp_path / "hard", os.O_RDWR | os.O_TRUNC)
    os.mkfifo(tmp_path / "fifo")
    with pytest.raises(ValueError, match="fifo: not a regular file"):
        files.open_own(tmp_path / "fifo", os.O_WRONLY)
    assert victim.read_text() == "precious\n"


def test_a_link_at_the_atomic_writers_temporary_name_is_not_followed(
        tmp_path: Path, victim: Path) -> None:
    (tmp_path / f".stats.json.{os.getpid()}.tmp").symlink_to(victim)
    files.write_atomically(tmp_path / "stats.json", "{}")
    assert victim.read_text() == "precious\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["stats.json", "victim"]


def test_a_hard_linked_values_file_is_refused(tmp_path: Path, victim: Path) -> None:
    """A resumed run writes its values file in place: into a copy made by hard links (a
    snapshot) it would change the other copy too."""
    run = tmp_path / "run"
    frontier_run("grundy", 3000, run, threads=1, **ENGINE)
    os.link(run / "values.bin", victim.with_name("snapshot"))
    with pytest.raises(ValueError, match="values.bin: a file with 1 other hard link"):
        frontier_run("grundy", 4000, run, threads=1, **ENGINE)


def test_json_depth_of_a_huge_string_takes_constant_memory() -> None:
    """The old scan (one regex matching a whole string) kept about 120 bytes per character:
    2.4 GB for a 20 MB string."""
    for text in ['{"a": "' + "x" * 2_000_000 + '", "b": [[1]]}',
                 '{"a": "' + "\\n\\\\" * 500_000 + '", "b": [[1]]}']:
        tracemalloc.start()
        try:
            depth = files.json_depth(text)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert depth == 3 and peak < 500_000, (depth, peak)


@pytest.mark.parametrize("text, depth", [
    ('{"a": [[1, 2], [3]], "b": "[[[["}', 3), ('["\\\\"]', 1), ('["\\"]", [[]]]', 3),
    ('[[["x\\\\\\"[[[["]]]', 3), ('"' + "\\\\" * 3000 + '"[[]]', 2),
    ('"' + '\\"' * 3000 + '[[["', 0), ('[[[ "\\', 3), ("[]" * 10, 1)])
def test_json_depth_skips_strings_and_escapes(text: str, depth: int) -> None:
    assert files.json_depth(text) == depth


def test_a_huge_string_in_a_manifest_costs_only_its_length(tmp_path: Path) -> None:
    frontier_run("grundy", 3000, tmp_path, threads=1, **ENGINE)
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    manifest["note"] = "x" * 2_000_000
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    tracemalloc.start()
    try:
        frontier_run("grundy", 4000, tmp_path, threads=1, **ENGINE)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 40_000_000  # the text and its parsed copies, not 120 bytes a character
