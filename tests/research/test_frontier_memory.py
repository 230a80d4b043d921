"""A frontier run's memory does not grow with the heap count past its window and pieces
(issue 53: Officers to 2^28 peaked at 358 MiB, the pages of the values file mapped by the
period checks, the mask's rebuilds and the resume's passes counting as the run's memory)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from nimbers.research.frontier import frontier_run

#: a run to n/2 and its resume to n (a pass over the values first), the high-water mark of
#: the resident memory reset after the imports (/proc/self/clear_refs): the run's own peak
PEAK = """
import sys, tempfile
from nimbers.research.frontier import frontier_run
n = int(sys.argv[1])
kw = dict(threads=1, progress=False, head=1 << 14, window=1 << 16, stop_at_proof=False)
with tempfile.TemporaryDirectory() as d:
    frontier_run("0.6", 1 << 15, d + "/w", **kw)  # the engine's first allocations
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")
    frontier_run("0.6", n // 2, d + "/r", **kw)
    frontier_run("0.6", n, d + "/r", **kw)
print([line.split()[1] for line in open("/proc/self/status") if line.startswith("VmHWM")][0])
"""


def _peak(n: int) -> int:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run([sys.executable, "-c", PEAK, str(n)], env=env, capture_output=True,
                          text=True, timeout=300, check=True)
    return int(done.stdout)


@pytest.mark.skipif(not os.path.exists("/proc/self/clear_refs"), reason="Linux's /proc only")
@pytest.mark.skipif(bool(os.environ.get("NIMBERS_UNDER_SANITIZER")),
                    reason="AddressSanitizer keeps freed memory in quarantine: no peak gauge")
def test_the_peak_memory_does_not_grow_with_the_heap_count() -> None:
    """Officers to 2^19 and to 2^21 heap sizes (values files of 1 and 4 MB), each stopped
    halfway and resumed: the peak grew by 2.2 MB before (the pages of the file, mapped by
    the resume's pass and the period checks), by less than 0.3 MB now, within the noise
    of runs of the same length (0.2 MB)."""
    small, large = _peak(1 << 19), _peak(1 << 21)
    assert large - small < 1024, (small, large)  # kB


def test_a_run_maps_no_values_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The passes over the values (the period checks, a new mask, a resume's checks) read
    them a piece at a time: a memory map keeps every page read as the process's memory."""
    def refused(*args: object, **kwargs: object) -> None:
        raise AssertionError("a values file mapped")
    frontier_run("0.6", 1 << 15, tmp_path, threads=1, progress=False, head=1 << 12,
                 window=1 << 16)
    monkeypatch.setattr(np, "memmap", refused)
    stats = frontier_run("0.6", 1 << 17, tmp_path, threads=1, progress=False, head=1 << 12,
                         window=1 << 16)
    assert stats.heap_sizes == 1 << 17
