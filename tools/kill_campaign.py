#!/usr/bin/env python3
"""kill -9 a frontier run at many instants and check that it always resumes to the
uninterrupted SHA-256 (docs/reliability.md records the figures).

    python tools/kill_campaign.py [--around N] [--elsewhere N]

--around: the run is stopped (os._exit, as kill -9) at each of the first N system calls
(pwrite, fsync, rename, unlink, open, ftruncate, close) from the start of the widening of its
values to 2 bytes; --elsewhere: SIGKILL at N random instants of a run of Grundy's game.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from nimbers.games import heap_game
from nimbers.research.frontier import frontier_run

WIDE = "0." + "7" * 31
KILLER = Path(__file__).resolve().parents[1] / "tests" / "research" / "test_frontier_files.py"


def _sha(code: str, n: int) -> str:
    v = heap_game(code).nim_values(n)
    width = 1 if int(v.max()) < 256 else 2
    return hashlib.sha256(v.astype(f"<u{width}").tobytes()).hexdigest()


def around(count: int) -> int:
    sys.path.insert(0, str(KILLER.parent))
    from test_frontier_files import _KILLER  # the same stopping script as the test
    expected, failures = _sha(WIDE, 3000), 0
    opts = dict(threads=1, head=256, window=4096, stop_at_proof=False, progress=False)
    for k in range(1, count + 1):
        with tempfile.TemporaryDirectory() as d:
            frontier_run(WIDE, 400, d, **opts)
            subprocess.run([sys.executable, "-c", _KILLER % WIDE, d, str(k)], check=False)
            ok = frontier_run(WIDE, 3000, d, **opts).sha256 == expected
            failures += not ok
            print(f"around the widening, system call {k}: {'resumed' if ok else 'FAILED'}")
    return failures


def elsewhere(count: int) -> int:
    n, failures = 1 << 21, 0
    expected = _sha("grundy", n)
    script = ("import sys; from nimbers.research.frontier import frontier_run; "
              f"frontier_run('grundy', {n}, sys.argv[1], threads=2, interval=0.05, "
              "progress=False, head=1 << 16, window=1 << 17)")
    for i in range(count):
        with tempfile.TemporaryDirectory() as d:
            proc = subprocess.Popen([sys.executable, "-c", script, d])
            time.sleep(random.uniform(0.3, 3.0))
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            stats = frontier_run("grundy", n, d, threads=1, progress=False, head=1 << 16,
                                 window=1 << 17)
            ok = stats.sha256 == expected
            failures += not ok
            print(f"random instant {i + 1}: {'resumed' if ok else 'FAILED'}")
    return failures


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--around", type=int, default=50)
    p.add_argument("--elsewhere", type=int, default=50)
    args = p.parse_args()
    failures = around(args.around) + elsewhere(args.elsewhere)
    print(f"{args.around + args.elsewhere - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONPATH", os.pathsep.join(sys.path))
    sys.exit(main())
