"""The block engine's vector paths (csrc/core/frontier/simd.c): AVX-512, AVX2 and portable C
give the same values as the ordinary engine, each path forced by NIMBERS_FRONTIER_PATH (read
when an engine is made), and a path this CPU lacks, or no path at all, is refused.  Every path
this CPU runs is tested here; a small head makes the blocks start at 2^15.  The narrow steps
(csrc/core/frontier/narrow.c: every value below 64) are tested the same way."""

from __future__ import annotations

from pathlib import Path

import pytest

from nimbers import _core
from nimbers.research.frontier import frontier_run

from frontier_reference import reference

PATHS = _core.frontier_paths()
RUNS = [("grundy", 300_000, 1), ("0.6", 300_000, 2), ("0.354", 200_000, 1), ("4.044", 200_000, 2)]


def test_every_cpu_runs_the_portable_path() -> None:
    assert PATHS[0] == "portable" and set(PATHS) <= {"portable", "avx2", "avx512"}
    assert _core.frontier_vectors() == (len(PATHS) > 1)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("code, n, threads", RUNS)
def test_each_path_gives_the_ordinary_engines_values(tmp_path: Path, path: str, code: str,
                                                     n: int, threads: int,
                                                     monkeypatch: pytest.MonkeyPatch,
                                                     closed_engines: list) -> None:
    monkeypatch.setenv("NIMBERS_FRONTIER_PATH", path)
    stats = frontier_run(code, n, tmp_path, threads=threads, progress=False, head=8192,
                         window=1 << 17, stop_at_proof=False)
    assert stats.sha256 == reference(code, n)[1]
    assert closed_engines[-1][0] == path
    assert closed_engines[-1][1][7] >= n // 2  # most values came from the blocks


def test_the_default_is_the_widest_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NIMBERS_FRONTIER_PATH", raising=False)
    assert _core.frontier_path(_core.frontier_new(None, 1, 8192, 4096)) == PATHS[-1]
    monkeypatch.setenv("NIMBERS_FRONTIER_PATH", "auto")
    assert _core.frontier_path(_core.frontier_new(None, 1, 8192, 4096)) == PATHS[-1]


@pytest.mark.parametrize("name", ["avx512", "avx2", "sse9", "AVX2", "portable "])
def test_a_path_this_cpu_lacks_is_refused(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    if name in PATHS:
        pytest.skip(f"this CPU runs {name}")
    monkeypatch.setenv("NIMBERS_FRONTIER_PATH", name)
    with pytest.raises(ValueError, match="NIMBERS_FRONTIER_PATH"):
        _core.frontier_new(None, 1, 8192, 4096)


@pytest.mark.parametrize("code, n, threads", [("0.6", 600_000, 3), ("0.6", 600_000, 8),
                                              ("grundy", 600_000, 4), ("0.034", 600_000, 5)])
def test_every_thread_count_gives_the_same_values(tmp_path: Path, code: str, n: int,
                                                  threads: int, closed_engines: list) -> None:
    """With two threads and more a helper prepares blocks ahead and covers the next block's
    values of rare class while it waits, and from three threads on the calling thread
    speculates while the others prove its values (frontier/block.c): the values stay the same
    (one and two threads: the runs above).  A head of 2^16, as in a real run: with a shorter
    one more positions go past their candidates, and the blocks go alone (the next test)."""
    stats = frontier_run(code, n, tmp_path, threads=threads, progress=False, head=1 << 16,
                         window=1 << 17, stop_at_proof=False)
    assert stats.sha256 == reference(code, n)[1]
    info = closed_engines[-1][1]
    assert info[10] == 0 and info[7] >= n // 3  # the blocks (from 2^18), with their helper


@pytest.mark.parametrize("threads", [2, 3])
def test_candidates_made_without_the_lag_parts_give_the_ordinary_engines_values(
        tmp_path: Path, threads: int, closed_engines: list) -> None:
    """With two threads a helper prepares each block while the one before is settled, so the
    coverage's witnesses start 1280 heap sizes back.  0.364 has many rare parts in between:
    most positions went past their eight candidates, so each sub-block's candidates are made
    again without the values those parts reach (frontier/block_prepare.c, lag_candidates), and that
    is enough: the blocks keep their helper.  With three threads, while speculating too."""
    stats = frontier_run("0.364", 600_000, tmp_path, threads=threads, progress=False,
                         head=8192, window=1 << 17, stop_at_proof=False)
    assert stats.sha256 == reference("0.364", 600_000)[1]
    info = closed_engines[-1][1]
    assert info[11] > 0 and info[10] == 0 and info[7] >= 400_000  # made again, never alone


def test_blocks_that_go_alone_give_the_ordinary_engines_values(tmp_path: Path,
                                                              closed_engines: list) -> None:
    """Where the candidates made again without the lag parts' values still leave a quarter of
    the positions past them (0.064 near 75,000 with a head of 8192), the blocks go alone for a
    while, the coverage made again from 512 (frontier/block.c, answer_lag)."""
    stats = frontier_run("0.064", 300_000, tmp_path, threads=2, progress=False, head=8192,
                         window=1 << 17, stop_at_proof=False)
    assert stats.sha256 == reference("0.064", 300_000)[1]
    info = closed_engines[-1][1]
    assert info[11] > 0 and info[10] > 0 and info[7] >= 200_000  # made again, then alone


def test_a_speculation_taken_back_gives_the_ordinary_engines_values(
        tmp_path: Path, closed_engines: list) -> None:
    """0.034 still gains rare heap sizes past 2^18: with three threads a block settled on
    speculation is proved wrong there, taken back to that position, which gets its value of
    rare class, and the run goes on from it."""
    stats = frontier_run("0.034", 600_000, tmp_path, threads=3, progress=False, head=1 << 16,
                         window=1 << 17, stop_at_proof=False)
    assert stats.sha256 == reference("0.034", 600_000)[1]
    info = closed_engines[-1][1]
    assert info[8] >= 1  # taken back at least once
    assert info[7] >= 250_000  # and most values still came from the blocks


#: codes whose values stay below 64 (0.167; 4.07, whose splits remove no token), and two whose
#: values pass 64 after the narrow steps began at 2^14 (0.336 at 54,117, 0.14 at 89,799): the
#: blocks go on; with a window of 4096 the partners of 0.336's rare parts up to 53,899 are
#: read back
NARROW_RUNS = [("0.167", 300_000, 1, False, 1 << 17), ("4.07", 200_000, 2, False, 1 << 17),
               ("0.336", 150_000, 1, True, 1 << 12), ("0.14", 150_000, 2, True, 1 << 17)]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("code, n, threads, widens, window", NARROW_RUNS)
def test_narrow_steps_give_the_ordinary_engines_values(tmp_path: Path, path: str, code: str,
                                                       n: int, threads: int, widens: bool,
                                                       window: int,
                                                       monkeypatch: pytest.MonkeyPatch,
                                                       closed_engines: list) -> None:
    """While every value is below 64 a position's marks are one word (narrow steps); a value
    of 64 or more hands the run to the blocks, whose coverage is made again then."""
    monkeypatch.setenv("NIMBERS_FRONTIER_PATH", path)
    stats = frontier_run(code, n, tmp_path, threads=threads, progress=False, head=8192,
                         window=window, stop_at_proof=False)
    assert stats.sha256 == reference(code, n)[1]
    info = closed_engines[-1][1]
    if widens:  # a value of 7 bits, after narrow steps and before the blocks
        assert info[3] == 7 and 20_000 <= info[9] < n // 2 and info[7] >= n // 4
    else:  # narrow from 2^14 on
        assert info[3] <= 6 and info[9] >= n - (1 << 15)
