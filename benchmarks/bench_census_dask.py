"""The census on a real dask cluster against the same census on this machine's process pool
(issue 49): the same table, the wall and CPU seconds of each, and what a cluster of N machines
would take, projected from the rows' own seconds.

    python benchmarks/bench_census_dask.py --digits 4 --until 2^12 --workers 2
    python benchmarks/bench_census_dask.py --digits 3 --until 2^16 --workers 2 --machines 1,4,16

The cluster is dask's own ``LocalCluster`` on 127.0.0.1 (a scheduler and ``--workers``
worker processes of one thread each; the tests start ``dask scheduler`` and ``dask worker``
from the command line instead), stopped at the end.  Both runs
start from nothing in temporary directories; the SHA-256 of their CSV exports must agree (the
table does not depend on where it was made).  The projection: the classes of a level are
independent tasks, so a level on M machines of C cores takes about max(the level's task
seconds / (M C), its longest task), summed over the levels -- a model from the seconds this
run's rows record, printed as a projection, not a measurement.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import os
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_census import TreeUsage  # noqa: E402

from nimbers.notation import read_count  # noqa: E402
from nimbers.research import census  # noqa: E402
from nimbers.research.census.table import read_rows  # noqa: E402
from nimbers.research.export import export_table  # noqa: E402


@contextlib.contextmanager
def dask_cluster(workers: int) -> Iterator[str]:
    """dask's own LocalCluster: a scheduler on 127.0.0.1 and `workers` worker processes of one
    thread each (nannied, as `dask worker` starts them); yields the scheduler's address."""
    from distributed import LocalCluster

    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                      host="127.0.0.1", dashboard_address=None) as cluster:
        yield cluster.scheduler_address


def _run(label: str, out: str, **where: object) -> tuple[str, float, float, list[dict]]:
    """One census from nothing: (SHA-256 of its CSV export, wall s, CPU s, its rows)."""
    began = time.monotonic()
    with TreeUsage() as usage:
        census(ARGS.digits, out=out, until=ARGS.until, progress=False, **where)
    wall = time.monotonic() - began
    rows = read_rows(out)
    sha = hashlib.sha256(export_table(rows, "csv").encode()).hexdigest()
    print(f"{label:>28}: {wall:8.1f} s wall, {usage.cpu_seconds:8.1f} CPU s "
          f"(this process and its children), CSV SHA-256 {sha[:16]}...")
    return sha, wall, usage.cpu_seconds, rows


def _projection(rows: list[dict], machines: list[int], cores: int) -> None:
    """Per level the sum and the largest of the rows' seconds, and the wall time on M
    machines of `cores` cores the independent-task model gives."""
    levels: dict[int, list[float]] = {}
    for row in rows:
        levels.setdefault(int(row["depth"]), []).append(float(row["seconds"]))
    print("\nlevels (the rows' own seconds): "
          + "; ".join(f"2^{d.bit_length() - 1}: {len(s)} tasks, {sum(s):.1f} s, longest "
                      f"{max(s):.2f} s" for d, s in sorted(levels.items())))
    print(f"projection (not a measurement), machines of {cores} cores:")
    for m in machines:
        wall = sum(max(sum(s) / (m * cores), max(s)) for s in levels.values())
        print(f"  {m:4d} machine(s): about {wall:8.1f} s")


def main() -> None:
    global ARGS
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--digits", type=int, default=4)
    ap.add_argument("--until", default="2^12")
    ap.add_argument("--workers", type=int, default=2, help="pool processes and dask workers")
    ap.add_argument("--machines", default="1,4,16,64", help="the projection's cluster sizes")
    ap.add_argument("--cores", type=int, default=16, help="cores of each projected machine")
    ARGS = ap.parse_args()
    ARGS.until = read_count(ARGS.until, most=2**40, least=64)
    print(f"cores here: {len(os.sched_getaffinity(0))}; load average {os.getloadavg()[0]:.1f}; "
          f"census of {ARGS.digits}-digit codes to {ARGS.until:,} heap sizes, "
          f"{ARGS.workers} workers each way")
    with tempfile.TemporaryDirectory() as scratch:
        local = _run(f"process pool, {ARGS.workers} workers", f"{scratch}/local",
                     workers=ARGS.workers)
        with dask_cluster(ARGS.workers) as address:
            dask = _run(f"dask cluster, {ARGS.workers} workers", f"{scratch}/dask",
                        scheduler=address)
    print("the same table both ways" if local[0] == dask[0] else
          "THE TABLES DIFFER: a defect (the table must not depend on where it was made)")
    print(f"dask against the pool: {local[1] / dask[1]:.2f}x the speed (wall)")
    _projection(dask[3], [int(m) for m in ARGS.machines.split(",")], ARGS.cores)


ARGS: argparse.Namespace


if __name__ == "__main__":
    main()
