"""The census's schedule: which class runs where, for how long, and the table it writes.

1. Survey: the first 4096 heap sizes of every code not in the table yet, in batches, to group
   the codes into candidate classes (equal sequences, dead heaps dropped).
2. A small budget for every class (most are proven in milliseconds).
3. The classes still open, deeper: each gets its share of the time left when a worker takes
   it (four shares for a sequence that looks settled, half for a slow one; time a class did
   not use goes to the ones after it), those that went furthest first.  When the budget
   is spent, the rows of step 2 stand for the rest.

Rows are appended to DIR/census.jsonl as they are final, so a census stopped at any moment
and run again computes only the codes with no row.  The work runs on a process pool (this
machine's cores) or, with a scheduler address, on a dask distributed cluster (one task per
class, its result a row): the same table either way.
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import multiprocessing
import os
import time
from typing import Any, Iterator, Sequence

import numpy as np

from ..._progress import Progress, ProgressOption
from . import compute
from .classes import canonical, codes_up_to, standard_key
from .table import append_row, covered_codes, read_meta, read_rows, write_meta

__all__ = ["census", "DEFAULT_BUDGET", "DEFAULT_MAX_N", "SMALL_BUDGET", "executor"]

#: the seconds a census takes by default (every code with three digits in 13 minutes)
DEFAULT_BUDGET = 780.0
#: the most heap sizes one game is taken to by default (.354 needs 20,126,195 for its proof)
DEFAULT_MAX_N = 1 << 26
#: the first budget of every class, seconds
SMALL_BUDGET = 1.0
#: codes per survey task
_BATCH = 48


def census(digits: int | None = None, *, codes: Sequence[str] | None = None, out: str,
           budget: float = DEFAULT_BUDGET, workers: int | None = None,
           scheduler: str | None = None, max_n: int = DEFAULT_MAX_N, offsets: bool = True,
           progress: ProgressOption = None) -> list[dict[str, Any]]:
    """A census of octal games: every code with up to digits digits (first digit 0 and 4), or
    the given codes, each class proven periodic or taken as deep as the budget allows, its
    row in out/census.jsonl.  Returns every row of the table, in the order of the classes'
    standard forms.

    Classes are the codes whose Grundy sequences agree, the heap sizes that allow no move
    dropped (offsets=True, T. Czajka's convention: 174 classes for three digits) or as they
    are (offsets=False); see :mod:`.classes`.  A class is "proved" when every member is
    proven periodic (Guy-Smith) and equal to the standard form up to the larger pre-period
    plus the period, else marked "values" with the heap size it was compared to.

    Parameters
    ----------
    digits : int, optional
        Every code 0.d1..dk and 4.d1..dk with k <= digits (2 * 8^digits - 1 games).
    codes : sequence of str, optional
        These codes instead (".77", "0.161", "4.3" ...).
    out : str
        The directory of the table; a census run again there computes only what is missing.
    budget : float
        Seconds for the whole census (default 780).
    workers : int, optional
        Processes of the pool (default: this machine's cores); ignored with a scheduler.
    scheduler : str, optional
        "tcp://HOST:PORT" of a dask distributed scheduler to run the games on instead.
    max_n : int
        The most heap sizes one game is taken to (default 2^26).
    offsets : bool
        Identify games differing only by dead heap sizes (default True).
    progress : bool, optional
        A progress bar (default: on a terminal).

    The pool's processes start by importing the caller's ``__main__`` (as with
    multiprocessing's spawn): call census from a script under ``if __name__ == "__main__":``.

    Returns
    -------
    list of dict

    Raises
    ------
    ValueError
        No codes or a bad one, a bad budget, a directory holding a census under the other
        convention, an unreachable scheduler.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     rows = census(codes=[".77", ".161", ".36"], out=d, workers=1, max_n=4096,
    ...                   budget=10, progress=False)
    >>> [(r["code"], r["period"], r["preperiod"], r["reached"]) for r in rows]
    [('0.36', None, None, 4096), ('0.77', 12, 71, 168), ('0.161', None, None, 4096)]
    """
    wanted = _wanted(digits, codes)
    if isinstance(budget, bool) or not isinstance(budget, (int, float)) or not budget > 0:
        raise ValueError(f"budget is a positive number of seconds, got {budget!r}")
    if isinstance(max_n, bool) or not isinstance(max_n, int) or not 64 <= max_n < 2**32:
        raise ValueError(f"max_n is an int from 64 to 2^32 - 1, got {max_n!r}")
    os.makedirs(out, exist_ok=True)
    meta = read_meta(out)
    if meta is not None and meta.get("offsets") != offsets:
        raise ValueError(f"{out} holds a census with offsets={meta.get('offsets')}: use "
                         "another directory or the same convention")
    known = set(meta.get("codes", ())) if meta else set()
    write_meta(out, {"offsets": offsets, "codes": sorted(known | set(wanted), key=standard_key)})
    rows = read_rows(out)
    todo = [c for c in wanted if c not in covered_codes(rows)]
    if todo:
        with executor(workers, scheduler) as (pool, slots):
            _Schedule(pool, slots, out, budget, max_n, offsets, progress).run(todo)
    return sorted(read_rows(out), key=lambda r: standard_key(r["code"]))


def _wanted(digits: int | None, codes: Sequence[str] | None) -> list[str]:
    if (digits is None) == (codes is None):
        raise ValueError("give digits or codes (one of them)")
    if digits is not None:
        return codes_up_to(digits)
    assert codes is not None
    if isinstance(codes, str):
        raise TypeError("codes is a sequence of codes, not one string")
    wanted = sorted({canonical(c) for c in codes}, key=standard_key)
    if not wanted:
        raise ValueError("no codes to take a census of")
    return wanted


@contextlib.contextmanager
def executor(workers: int | None = None, scheduler: str | None = None
             ) -> Iterator[tuple[cf.Executor, int]]:
    """A concurrent.futures executor and how many tasks it runs at once: a process pool of
    workers processes (default: the cores), or the workers of a dask distributed cluster."""
    if scheduler is not None:
        from .cluster import dask_executor
        with dask_executor(scheduler) as found:
            yield found
        return
    if workers is None:
        workers = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (
            os.cpu_count() or 1)
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers is a positive int, got {workers!r}")
    # never fork: numpy's BLAS threads make fork unsafe (Python 3.12 warns); like spawn, a
    # forkserver's workers import the caller's __main__, so a script needs the usual
    # ``if __name__ == "__main__":`` guard (``nimbers`` and ``python -m nimbers`` have it)
    method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
    pool = cf.ProcessPoolExecutor(max_workers=workers,
                                  mp_context=multiprocessing.get_context(method))
    try:
        yield pool, workers
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


class _Schedule:
    """One census run: the stages of the module docstring on an executor."""

    def __init__(self, pool: cf.Executor, slots: int, out: str, budget: float, max_n: int,
                 offsets: bool, progress: ProgressOption) -> None:
        self.pool, self.slots, self.out = pool, slots, out
        self.began = time.monotonic()
        self.deadline = self.began + budget
        self.max_n, self.offsets, self.progress = max_n, offsets, progress

    def run(self, todo: list[str]) -> None:
        classes = self._survey(todo)
        with Progress(len(classes), "census", enabled=self.progress) as bar:
            self.bar = bar
            held = self._stage(classes, SMALL_BUDGET)
            held.sort(key=lambda row: -row["reached"])
            self._deep(held)

    def _survey(self, todo: list[str]) -> list[list[str]]:
        count = min(compute.SURVEY_VALUES, self.max_n)
        batches = [todo[i:i + _BATCH] for i in range(0, len(todo), _BATCH)]
        groups: dict[str, list[str]] = {}
        for found in self.pool.map(compute.survey, batches, [count] * len(batches),
                                   [self.offsets] * len(batches)):
            for code, digest, _dead in found:
                groups.setdefault(digest, []).append(code)
        return sorted(groups.values(), key=lambda g: standard_key(min(g, key=standard_key)))

    def _submit(self, members: list[str], seconds: float) -> cf.Future[list[dict[str, Any]]]:
        return self.pool.submit(compute.solve_class, members, seconds, self.max_n, self.offsets)

    def _stage(self, classes: list[list[str]], seconds: float) -> list[dict[str, Any]]:
        """Every class with a small budget; returns the rows that may go deeper (held back)."""
        held: list[dict[str, Any]] = []
        futures = [self._submit(members, seconds) for members in classes]
        try:
            for future in cf.as_completed(futures):
                for row in future.result():
                    if self._final(row):
                        self._write(row)
                    else:
                        held.append(row)
        except BaseException:
            for future in futures:
                future.cancel()
            raise
        return held

    def _final(self, row: dict[str, Any]) -> bool:
        """Proven, or at max_n with every member compared as far (nothing more to do)."""
        if row["period"] is not None:
            return True
        compared = row["equal_up_to"] is None or (
            row["equal_up_to"] >= row["reached"] - row["dead_heaps"][0])
        return row["reached"] >= self.max_n and compared

    def _write(self, row: dict[str, Any]) -> None:
        append_row(self.out, row)
        self.bar.update(1)

    def _deep(self, held: list[dict[str, Any]]) -> None:
        """The open classes again, deeper, each with its share of the time left."""
        waiting = list(held)
        typical = float(np.median([r["reached"] for r in held])) if held else 1.0
        weight = {id(r): _weight(r, typical) for r in held}
        running: dict[cf.Future[list[dict[str, Any]]], tuple[dict[str, Any], float]] = {}
        try:
            while waiting or running:
                while waiting and len(running) < self.slots:
                    weights = sum(weight[id(r)] for r in waiting)
                    row = waiting.pop(0)
                    seconds = self._share(weight[id(row)] / weights, running)
                    if seconds < 2 * SMALL_BUDGET:  # no time for more than step 2 gave it
                        self._write(row)
                        continue
                    future = self._submit(row["members"], seconds)
                    running[future] = (row, time.monotonic() + seconds)
                if not running:
                    continue
                done, _ = cf.wait(running, return_when=cf.FIRST_COMPLETED)
                for future in done:
                    earlier, _ends = running.pop(future)
                    rows = future.result()
                    better = rows if rows and rows[0]["reached"] >= earlier["reached"] else [earlier]
                    for row in better:
                        self._write(row)
        except BaseException:
            for future in running:
                future.cancel()
            raise

    def _share(self, part: float, running: dict[Any, tuple[dict[str, Any], float]]) -> float:
        """Seconds for the next class: its part of the worker time left before the deadline
        (less what the running classes were given)."""
        now = time.monotonic()
        margin = min(30.0, 0.05 * (self.deadline - self.began)) + 1.0
        left = self.deadline - margin - now
        committed = sum(max(0.0, ends - now) for _row, ends in running.values())
        return min(left, (left * self.slots - committed) * part)


def _weight(row: dict[str, Any], typical: float) -> float:
    """A class's claim on the time left.  Four shares when the sequence looks settled -- an
    apparent period, or a largest value that has not grown over the last 63/64 of the heap
    sizes (.354: 113 at heap 1152, then nothing larger for ten million heap sizes before its
    period is proven) -- since such games are the ones proven by going deeper; half a share
    when the small budget reached less than a quarter of the typical depth (every heap size
    a scan: more time buys little depth)."""
    settled = row["apparent_period"] is not None or row["largest_at"] * 64 < row["reached"]
    slow = row["reached"] * 4 < typical
    return (4.0 if settled else 1.0) * (0.5 if slow else 1.0)
