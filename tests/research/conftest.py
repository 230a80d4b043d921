"""Fixtures of the frontier tests."""

from __future__ import annotations

from typing import Any

import pytest

from nimbers import _core
from nimbers.research.frontier import run as frontier


@pytest.fixture
def closed_engines(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, tuple[int, ...]]]:
    """(path, frontier_info) of each frontier engine as its run closes, in order: what the
    engine did (its vector path, the values made by the blocks, the speculations taken
    back) once the run is over."""
    seen: list[tuple[str, tuple[int, ...]]] = []
    close = frontier._Run.close

    def close_and_look(run: Any) -> None:
        seen.append((_core.frontier_path(run.engine), _core.frontier_info(run.engine)))
        close(run)

    monkeypatch.setattr(frontier._Run, "close", close_and_look)
    return seen
