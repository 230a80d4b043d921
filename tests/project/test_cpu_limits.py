"""The CPUs a run may use, decided in one place (`_limits.available_cpus`): the affinity mask
where the system has one, the machine's count where it has none (macOS, Windows), never 0."""

import os

import pytest

from nimbers import _limits
from nimbers.research.frontier import frontier_run


def test_the_affinity_mask_where_there_is_one():
    if not hasattr(os, "sched_getaffinity"):
        pytest.skip("no affinity mask on this system")
    assert _limits.available_cpus() == len(os.sched_getaffinity(0))


def test_the_machines_count_without_an_affinity_mask(monkeypatch):
    monkeypatch.delattr(os, "sched_getaffinity", raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: 6)
    assert _limits.available_cpus() == 6
    monkeypatch.setattr(os, "cpu_count", lambda: None)   # the system cannot say
    assert _limits.available_cpus() == 1


def test_a_frontier_run_without_an_affinity_mask_takes_the_machines_count(monkeypatch, tmp_path):
    # frontier_run's default threads read os.sched_getaffinity directly before, an
    # AttributeError on macOS
    monkeypatch.delattr(os, "sched_getaffinity", raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: 3)
    stats = frontier_run("0.6", 1 << 12, tmp_path / "run", progress=False)
    assert stats.threads == 3 and stats.heap_sizes == 1 << 12
