"""A team of threads settles each sub-block of the block engine on speculation
(csrc/core/frontier/block_team.c): from eight threads on, the threads past the helper and the two
provers (four at least) settle a sub-block's positions at once against guesses of the values before them, and
the calling thread keeps them in order while each guess held; with a team, its idle threads
also make the coverage's words of the next block with the preparing helper (fr_team_words: every
team run below from its third block on).  Every thread count gives the
ordinary engine's values (their SHA-256), the team or not; frontier_info's thirteenth field
counts the values a team settled."""

from __future__ import annotations

from pathlib import Path

import pytest

from nimbers.research.frontier import frontier_run

from frontier_reference import reference

#: (code, heap sizes, head): a census code, 0.354 (131 rare heap sizes, the last at 3,227;
#: fast), then Grundy's game, Officers (0.6) and 4.044 (its blocks go alone from about 2^17: the
#: team stops with the helper); a window of 4096 so that the steps are short and speculation
#: (16,384 heap sizes past the last rare one) starts early in the run
CENSUS = ("0.354", 200_000, 8192)
GAMES = [("grundy", 300_000, 1 << 16), ("0.6", 200_000, 8192), ("4.044", 200_000, 8192)]
THREADS = [1, 2, 3, 4, 7, 8, 16]


def run_and_check(tmp_path: Path, code: str, n: int, head: int, threads: int,
                  closed_engines: list) -> None:
    stats = frontier_run(code, n, tmp_path, threads=threads, progress=False, head=head,
                         window=1 << 12, stop_at_proof=False)
    assert stats.sha256 == reference(code, n)[1]
    teamed = closed_engines[-1][1][12]
    assert (teamed > 0) == (threads >= 8)  # a team past the helper and the two provers


@pytest.mark.parametrize("threads", THREADS)
def test_every_thread_count_on_a_census_code(tmp_path: Path, threads: int,
                                             closed_engines: list) -> None:
    run_and_check(tmp_path, *CENSUS, threads, closed_engines)


@pytest.mark.parametrize("threads", THREADS)
@pytest.mark.parametrize("code, n, head", GAMES)
def test_every_thread_count_on_each_game(tmp_path: Path, code: str, n: int, head: int,
                                         threads: int, closed_engines: list) -> None:
    run_and_check(tmp_path, code, n, head, threads, closed_engines)


def test_a_team_run_resumed_gives_the_same_values(tmp_path: Path, closed_engines: list) -> None:
    """A run stopped at a checkpoint and resumed, both halves with a team."""
    frontier_run("0.354", 100_000, tmp_path, threads=8, progress=False, head=8192,
                 window=1 << 12, stop_at_proof=False)
    stats = frontier_run("0.354", 200_000, tmp_path, threads=8, progress=False, head=8192,
                         window=1 << 12, stop_at_proof=False)
    assert stats.sha256 == reference("0.354", 200_000)[1]
    assert closed_engines[0][1][12] > 0 and closed_engines[-1][1][12] > 0


@pytest.mark.parametrize("code", ["0.034", "0.364"])
def test_a_team_taken_back_or_with_remade_candidates_gives_the_same_values(
        tmp_path: Path, code: str, closed_engines: list) -> None:
    """0.034 gains rare heap sizes past 2^18: a block the team settled is proved wrong and
    taken back; 0.364's candidates are made again without the lag parts' values."""
    stats = frontier_run(code, 600_000, tmp_path, threads=8, progress=False, head=1 << 16,
                         window=1 << 17, stop_at_proof=False)
    assert stats.sha256 == reference(code, 600_000)[1]
    info = closed_engines[-1][1]
    assert info[12] > 0
    if code == "0.034":
        assert info[8] >= 1  # taken back at least once
