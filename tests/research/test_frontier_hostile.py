"""Hostile run directories cost nothing outside them: links planted at a run's file names are
refused before anything is written through them, a huge string in a JSON file is scanned
in constant memory (nimbers.files, nimbers.research.rundir), a sparse values file is refused
before it is read, and an edited value that the statistics read is found on resume."""

from __future__ import annotations

import hashlib
import json
import os
import tracemalloc
from pathlib import Path

import numpy as np
import pytest

from nimbers import files
from nimbers.research.frontier import frontier_run, store

ENGINE = {"head": 256, "window": 4096, "stop_at_proof": False, "progress": False}
FASTER = {**ENGINE, "head": 8192, "window": 1 << 16}


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
    (tmp_path / f".stats.json.{files.temporary_suffix()}").symlink_to(victim)
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


def _reseal(folder: Path, **changes: object) -> None:
    """The checkpoint edited and sealed again, as a forger would (the chain dropped: it is
    optional, and a forger would remake it)."""
    data = json.loads((folder / "checkpoint.json").read_text())
    data.pop("seal")
    data.pop("chain", None)
    data.update(changes)
    store.write_checkpoint(folder, {k: v for k, v in data.items() if k != "format"})


def _sha(folder: Path, count: int) -> str:
    return hashlib.sha256((folder / "values.bin").read_bytes()[:count]).hexdigest()


@pytest.mark.parametrize("count", [1 << 31, 1 << 34])
def test_a_sparse_values_file_is_refused_before_any_value_is_read(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, count: int) -> None:
    """Extended by truncate to 2^31 or 2^34 values, the checkpoint resealed: refused by the
    checks that read nothing (before, after reading gigabytes of zeros)."""
    frontier_run("grundy", 5000, tmp_path, threads=1, **ENGINE)
    os.truncate(tmp_path / "values.bin", count)
    _reseal(tmp_path, count=count, sha256="0" * 64)

    def no_reading(*args: object) -> None:
        raise AssertionError("a value was read")
    monkeypatch.setattr(store.ValuesFile, "read", no_reading)
    with pytest.raises(ValueError, match="values.bin: a hole at byte [0-9,]+ "):
        frontier_run("grundy", count + 1, tmp_path, threads=1, **ENGINE)


def _edited(folder: Path, n: int, value: int) -> None:
    path = folder / "values.bin"
    data = bytearray(path.read_bytes())
    data[n] = value
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("what", ["a P-position", "a rare value", "a record"])
def test_a_single_value_edited_where_the_statistics_read_is_refused(
        tmp_path: Path, what: str) -> None:
    """One value past the re-derived head (2^16) edited, the SHA-256 and the seal remade: 12
    random samples of 2^17 values miss it; the rare heap sizes and the records, which the
    statistics (rare.csv, records.csv, largest) and the engine's searches read, are each
    re-derived on resume."""
    n = 1 << 17
    frontier_run("grundy", n, tmp_path, threads=1, **FASTER)
    stats = json.loads((tmp_path / "stats.json").read_text())
    values = np.fromfile(tmp_path / "values.bin", dtype=np.uint8)
    at = 100_001
    common = int(values[at])
    rare_value = next(v for v in range(1, 256) if bin(v & int(stats["mask"], 16)).count("1")
                      % 2 == 0 and v != common)
    new = {"a P-position": 0, "a rare value": rare_value, "a record": 255}[what]
    assert new != common and stats["largest"] < 255
    _edited(tmp_path, at, new)
    _reseal(tmp_path, sha256=_sha(tmp_path, n))
    # the edited heap size itself, or a rare one whose options reach it, is named first
    with pytest.raises(ValueError, match=r"values.bin: g\([0-9]+\) is [0-9]+ there, but its "
                                         r"options give [0-9]+"):
        frontier_run("grundy", n + 1000, tmp_path, threads=1, **FASTER)


def test_a_rare_value_edited_into_a_common_one_is_refused(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    """It leaves the rare list the values now give, but rare.csv, which the last session
    wrote, still lists it (Grundy's game: g(82860) = 108, the last rare value, A.
    Flammenkamp).  The random sample of later heap sizes, checked first, is left out here:
    it may find one whose options reach the edited value first (a suite run named
    g(94647)), and the check of the listed heap sizes is what this test is about."""
    monkeypatch.setattr(store, "SAMPLE", 0)
    n = 1 << 17
    frontier_run("grundy", n, tmp_path, threads=1, **FASTER)
    values = np.fromfile(tmp_path / "values.bin", dtype=np.uint8)
    assert int(values[82860]) == 108 and "82860,108" in (tmp_path / "rare.csv").read_text()
    _edited(tmp_path, 82860, 2)  # 2 & fe has one bit: common under the run's mask
    _reseal(tmp_path, sha256=_sha(tmp_path, n))
    with pytest.raises(ValueError, match="g\\(82860\\) is 2 there, but its options give 108"):
        frontier_run("grundy", n + 1000, tmp_path, threads=1, **FASTER)
