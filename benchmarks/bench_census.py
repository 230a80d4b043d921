"""The census of every octal code with up to three digits, end to end, by depth: the run to
``--until`` (its wall time, the peak memory of the census and its pool together, the load
average), the SHA-256 of the exported CSV (the same on every machine for the same depth), the
report, and the published figures beside ours (T. Czajka, octal-games: GameLookup.md's 174
standard forms, SolvedGames.md's ten frontier games with their periods, pre-periods, largest
values and sparse spaces).

    python benchmarks/bench_census.py --until 2^20            # minutes on 2 cores
    python benchmarks/bench_census.py --until 2^24            # .376 and .354 proven
    python benchmarks/bench_census.py --digits 2 --until 2^22 --out DIR --verify

No peer runs here: Czajka's solver has no census mode to time against; bench_heap.py times
the single games against it.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import tempfile
import threading
import time
from pathlib import Path

from nimbers.notation import read_count
from nimbers.research import census
from nimbers.research.census.report import census_report, is_solved
from nimbers.research.census.table import read_rows
from nimbers.research.census.verify import verify_census
from nimbers.research.export import compare_table, export_table

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"


def _tree(root: int) -> dict[int, tuple[int, float]]:
    """{pid: (resident bytes, CPU seconds)} of root and every process below it (/proc)."""
    children: dict[int, list[int]] = {}
    usage: dict[int, tuple[int, float]] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid = int(entry)
        children.setdefault(int(stat[1]), []).append(pid)
        usage[pid] = (int(stat[21]) * os.sysconf("SC_PAGE_SIZE"),
                      (int(stat[11]) + int(stat[12])) / tick)
    found, todo = {}, [root]
    while todo:
        pid = todo.pop()
        if pid in usage:
            found[pid] = usage[pid]
        todo += children.get(pid, [])
    return found


class TreeUsage:
    """The peak resident memory of this process and its children together, and the CPU
    seconds they used (sampled every 0.2 s: the load of other work does not count)."""

    def __init__(self) -> None:
        self.peak = 0
        self.cpu: dict[int, float] = {}
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        while not self.done.wait(0.2):
            tree = _tree(os.getpid())
            self.peak = max(self.peak, sum(rss for rss, _cpu in tree.values()))
            for pid, (_rss, cpu) in tree.items():
                self.cpu[pid] = max(self.cpu.get(pid, 0.0), cpu)

    @property
    def cpu_seconds(self) -> float:
        return sum(self.cpu.values())

    def __enter__(self) -> TreeUsage:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.done.set()
        self.thread.join()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--digits", type=int, default=3)
    ap.add_argument("--until", default="2^20", help="the depth (default 2^20)")
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--out", help="the table's directory (default: a temporary one)")
    ap.add_argument("--verify", action="store_true", help="verify the table too (slow when deep)")
    args = ap.parse_args()
    until = read_count(args.until, most=2**40, least=64)
    with tempfile.TemporaryDirectory() as scratch:
        out = args.out or os.path.join(scratch, "census")
        load = os.getloadavg()
        began = time.monotonic()
        with TreeUsage() as usage:
            rows = census(args.digits, out=out, until=until, workers=args.workers,
                          progress=True)
        ran = time.monotonic() - began
        print(f"cores: {len(os.sched_getaffinity(0))}; load average before {load[0]:.1f}, "
              f"after {os.getloadavg()[0]:.1f}; census of {args.digits}-digit codes to "
              f"{args.until}: {ran:.0f} s wall, {len(rows)} classes (Czajka: 174 for 3 digits), "
              f"{usage.cpu_seconds:.0f} CPU s; peak memory of the census and its pool "
              f"{usage.peak / 2**20:.0f} MiB")
        csv = export_table(read_rows(out), "csv").encode()
        print(f"SHA-256 of the CSV export: {hashlib.sha256(csv).hexdigest()}")
        if args.verify:
            began = time.monotonic()
            print(f"verify: {verify_census(out, budget=1e6)} ({time.monotonic() - began:.0f} s)")
        print(str(census_report(out, plot=None)).splitlines()[0])
        engines: dict[str, int] = {}
        for row in rows:
            engines[row["engine"]] = engines.get(row["engine"], 0) + 1
        print("rows by engine:", engines, "; solved:", sum(is_solved(r) for r in rows))
        print(compare_table(rows, str(DATA / "czajka_solved_games.txt")))


if __name__ == "__main__":
    main()
