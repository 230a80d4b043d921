"""Frontier runs of heap games: billions of values in bounded memory, checkpointed,
checksummed, their periods proven as they go.

The sparse space (Winning Ways ch. 4; Gangolli & Plambeck 1989; A. Flammenkamp's tables of
octal games and of Grundy's game): under a mask, only a few heap sizes have "rare" values, so
a value needs the rare heap sizes and the recent values, not the whole sequence.  The C engine
(``csrc/core/frontier.c``) keeps in memory the rare heap sizes, the first ones (the head) and a
window of recent values, on several threads; every value goes to an append-only file, read
back for the rare long searches.  A run directory (:mod:`nimbers.research.rundir`) holds:

- the values file and ``checkpoint.json`` (:mod:`.store`: written atomically every
  ``interval`` seconds, at a widening of the values and at the end);
- ``stats.json`` (:class:`FrontierStats`), ``rare.csv`` (every rare heap size and its value,
  under the mask of the statistics), ``records.csv`` (each new largest value and where);
- ``proof.json`` once a period is proven (:mod:`.proof`: the run then stops unless told to
  go on), ``manifest.json`` and ``progress.log``.

Started again on the same directory, a run checks the checkpoint and the values file (see
:mod:`.store`: the cheap checks first, then the values the statistics read, re-derived from
the rules), drops values written after the checkpoint, and goes on: after Ctrl-C (which
checkpoints at every instant, :mod:`.stop`), ``kill -9`` or a reboot it ends with exactly the
values of an uninterrupted run, for any number of threads.  Its memory does not grow with
the heap count: every pass over the values on disk reads them a piece at a time.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as run:
...     stats = frontier_run("grundy", 5000, run, threads=1, progress=False)
...     values = frontier_values(run)
>>> stats.heap_sizes, stats.largest, stats.mask_name, values[:10].tolist()
(5000, 65, '7e', [0, 0, 0, 1, 0, 2, 1, 0, 2, 1])
"""

from __future__ import annotations

import hashlib
import os
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from ... import _core
from ... import _limits
from ..._limits import check_bytes
from ...files import open_own
from ..._progress import Progress, ProgressOption
from ...games.catalogue import heap_game
from ...games.heap import HeapGame
from ...games.heap.values import HeapValues
from ...games.heap.stats import best_mask, mask_name, read_mask_name, sparse_space
from ..rundir import RunDirectory, read_json
from . import store
from .account import Account
from .proof import PeriodWatch
from .stop import Interrupts
from .summary import FrontierStats

__all__ = ["FrontierStats", "frontier_run", "frontier_stats", "frontier_values"]

#: values per piece when a file is read back, and per step of the engine at most (a step's
#: temporaries take some bytes a value)
_READ = store.PIECE
#: seconds between progress lines at most, when output goes to a file (nohup ... 2> log)
LOG_EVERY = 10.0
#: heap sizes a new run makes first by the ordinary engine and keeps in memory.  The block
#: engine makes values far faster than the ordinary engine's scan, so the head is kept short;
#: but its witnesses are heap sizes below 2^16 (FR_CAMAX), and a head under that made 0.146
#: to 2^22 take 133 CPU s instead of 71.  2^18 against the earlier 2^20, one thread, runs
#: from nothing (benchmarks/README.md, "The head"): Grundy's game to 2^22 2.05 against 3.24
#: CPU s, 0.146 71 against 89, to 2^24 about 1.2 s less for Grundy's game and Officers; the
#: same values (the head never changes them).
HEAD = 1 << 18
_OWN = {*store.VALUES.values(), store.CHECKPOINT, store.STATS, store.PROOF, store.RARE,
        store.RECORDS, "values.bin.wide"}


def _game(game: HeapGame | str) -> HeapGame:
    if isinstance(game, str):
        game = heap_game(game)
    if not isinstance(game, HeapGame):
        raise TypeError(f"a heap game or its name is needed, not {type(game).__name__}")
    rules = game.rules
    if rules is not None:
        if any(d & 8 for d in rules):
            raise ValueError(f"{game.name}: moves leaving three heaps are outside the sparse "
                             "space; use nim_values")
        if not any(d & 4 for d in rules):
            raise ValueError(f"{game.name}: no move leaves two heaps, so there is no sparse "
                             "space and the values become periodic early: compute them "
                             "without the frontier mode (nimbers heap CODE N, or nim_values "
                             "and period())")
        if len(rules) > 32:
            raise ValueError(f"{game.name}: codes of more than 31 digits are not supported")
    return game


class _Run:
    """One directory's run: the engine, the values file, the account and the proof."""

    def __init__(self, game: HeapGame, directory: RunDirectory, threads: int, head: int,
                 window: int) -> None:
        self.game, self.dir, self.folder = game, directory, directory.folder
        self.threads, self.head, self.window = threads, head, window
        space = sparse_space(game.rules)
        assert space is not None  # _game refused the rest
        self.space = space
        self.engine = _core.frontier_new(game.rules, threads, head, window)
        self.count, self.width, self.emask = 0, 1, 0
        self.account = Account(self.space)
        self.watch = PeriodWatch(game.rules, game.kind)
        self.proof: dict[str, Any] | None = None
        self.next_mask_check = 0
        self.seconds = 0.0
        self.fd = -1
        self.stop = Interrupts()
        #: the checkpoint resumed from
        self.resumed: dict[str, Any] | None = None

    # -- the values file --
    def open(self) -> str | None:
        """Opens the values file (and the checkpoint, whose values :meth:`load` checks).  Returns
        what a person should hear: "resuming from N heap sizes", "no checkpoint: starting
        over" (values without a checkpoint, in a directory whose manifest says it is a run
        of this tool: killed before its first checkpoint), or None for a new run."""
        data = store.read_checkpoint(self.folder)
        keep = None if data is None else store.values_name(data["width"])
        dropped = False
        for name in store.VALUES.values():  # a widening interrupted before its checkpoint
            if name != keep and (self.folder / name).exists():
                dropped = dropped or (self.folder / name).stat().st_size > 0
                (self.folder / name).unlink()
        if data is None:
            self.fd = open_own(self.folder / store.values_name(1),
                               os.O_RDWR | os.O_CREAT | os.O_TRUNC)
            return "no checkpoint: starting over" if dropped else None
        self.resumed = data
        self.game = self._same_game(data)
        self.width, self.seconds = data["width"], float(data["seconds"])
        self.fd = open_own(self.folder / store.values_name(self.width), os.O_RDWR)
        return f"resuming from {data['count']:,} heap sizes"

    def load(self) -> None:
        """Checks the values of the checkpoint opened (see :mod:`.store`) and takes them in."""
        data = self.resumed
        assert data is not None
        path = self.folder / store.values_name(self.width)
        count = data["count"]
        store.check_file(self.fd, count * self.width, path)  # before reading anything
        os.ftruncate(self.fd, count * self.width)  # drop what came after the checkpoint
        values = store.ValuesFile(self.fd, self.width, count)
        store.check_values(self.game, values, path)
        _core.frontier_set_file(self.engine, self.fd, self.width)
        for start, piece in values.pieces(size=_READ):
            self.account.add(piece, start, self.width, 0)
            _core.frontier_feed(self.engine, piece.astype(np.uint16))
            self._check_memory()
        self.count = count
        if self.account.sha.hexdigest() != data["sha256"]:
            raise ValueError(f"{path}: the values do not match the checkpoint's SHA-256")
        if any(self.account.chain.chain.get(k) != v for k, v in data.get("chain", {}).items()):
            raise ValueError(f"{path}: the values do not match the checkpoint's chain")
        self._set_mask(read_mask_name(data["mask"]))
        store.check_read_values(self.game, values, self.account, path)
        if self.watch.applies:
            self._check_period()

    def _same_game(self, data: dict[str, Any]) -> HeapGame:
        """This game as the checkpoint spells it, which the run keeps in its files; a
        ValueError when the checkpoint's game is another: the same rules make the same game
        (an octal code however spelled: .764 resumes the census's run of 0.764), the same
        name a game without a code (Grundy's game)."""
        rules = None if self.game.rules is None else list(self.game.rules)
        same = data.get("rules") == rules and (rules is not None or data["code"] == self.game.code)
        if not same:
            raise ValueError(f"{self.folder / store.CHECKPOINT}: a run of {data['code']}, not "
                             f"of {self.game.code}")
        return self.game if data["code"] == self.game.code else _game(data["code"])

    def _check_memory(self) -> None:
        """The rare heap sizes kept (by the engine and the account) stay within the cap,
        whatever a file says."""
        kept = int(_core.frontier_info(self.engine)[1]) + self.account.nrare
        check_bytes(32 * kept, f"the {kept:,} rare heap sizes of this run",
                    "pass a smaller until", "use a game with fewer rare values")

    def _append(self, values: np.ndarray) -> None:
        if self.width == 1 and len(values) and int(values.max()) > 255:
            self._widen()
        data = values.astype(f"<u{self.width}").tobytes()
        written = 0
        while written < len(data):
            written += os.pwrite(self.fd, data[written:], self.count * self.width + written)
        self.account.add(values, self.count, self.width, self.emask)
        self.count += len(values)

    def _widen(self) -> None:
        """A value past 255: the values go to a 2-byte file, written whole and flushed, then
        a checkpoint names it, then the 1-byte file goes (each state on disk resumes)."""
        wide_path = self.folder / store.values_name(2)
        fd = open_own(wide_path, os.O_RDWR | os.O_CREAT | os.O_TRUNC)
        sha = hashlib.sha256()
        for start in range(0, self.count, _READ):
            n = min(_READ, self.count - start)
            wide = np.frombuffer(os.pread(self.fd, n, start), dtype=np.uint8).astype("<u2")
            os.pwrite(fd, wide.tobytes(), 2 * start)
            sha.update(wide.tobytes())
        os.fsync(fd)
        os.close(self.fd)
        self.fd, self.width, self.account.sha = fd, 2, sha
        _core.frontier_set_file(self.engine, self.fd, 2)
        self.checkpoint()
        (self.folder / store.values_name(1)).unlink()

    def _values(self) -> store.ValuesFile:
        """g(0 .. count-1), read from the values file a piece at a time (a pass over them
        keeps no more than a piece in memory, where a memory map kept every page read)."""
        return store.ValuesFile(self.fd, self.width, self.count)

    # -- the engine --
    def start(self, until: int, stop_at_proof: bool, bar: Progress) -> None:
        """A new run: the head by the ordinary engine (in steps where a period may be proven
        on the way, so a run stops at the least heap count that proves it), then the mask
        and a checkpoint (after Ctrl-C too, of the values made so far)."""
        began = time.monotonic()
        values, interrupted = self._head(min(until, self.head), stop_at_proof, bar)
        if len(values) and int(values.max()) > 65535:
            raise ValueError(f"{self.game.name}: values past 65535 are beyond the frontier mode")
        values = values.astype(np.uint16)
        self._append(values)
        _core.frontier_set_file(self.engine, self.fd, self.width)
        _core.frontier_feed(self.engine, values)
        self._set_mask(best_mask(self.account.counts, self.space)[0])
        self.seconds += time.monotonic() - began
        if self.watch.applies and not interrupted:
            self._check_period()
        self.checkpoint()
        if interrupted:
            raise KeyboardInterrupt

    def _head(self, first: int, stop_at_proof: bool, bar: Progress) -> tuple[np.ndarray, bool]:
        """The first values, and whether Ctrl-C stopped them short (the values made so far
        are kept)."""
        store_ = HeapValues(self.game.name, self.game.rules, self.game.kind)
        stepping = self.watch.applies and stop_at_proof
        n = min(first, 1 << 12) if stepping else first
        bar.update(store_.known)  # g(0), which the store starts with
        try:
            while True:
                with self.stop.engine():
                    store_.compute(n, None, bar=bar)
                values = store_.g[:store_.known]
                if n >= first or not stepping or self.watch.check(values) is not None:
                    return values, False
                n = min(first, max(self.watch.next, n + 1))
        except KeyboardInterrupt:
            return store_.g[:store_.known], True

    def _set_mask(self, emask: int) -> None:
        """Uses emask from now on: the engine's rare list and the account's rebuilt."""
        if emask & 1 and not self.space.parity_ok:
            raise ValueError(f"{self.folder / store.CHECKPOINT}: a mask with the parity, which "
                             f"{self.game.name} cannot use")
        _core.frontier_set_mask(self.engine, emask)
        self.emask = emask
        self.account.clear_rare()
        for start, piece in self._values().pieces(size=_READ):
            self.account.add_rare(piece, start, emask)
        self.next_mask_check = _core.sparse_next_check(self.account.nrare)

    def _maybe_new_mask(self, at_checkpoint: bool) -> None:
        """A better mask in use once it is clearly better (a rebuild costs a pass over the
        values), and at a checkpoint as soon as it is better at all: the statistics always
        use the mask with the fewest rare heap sizes.  The rule is the C engines' own
        (csrc/core/sparse.h: sparse_mask_better, sparse_next_check)."""
        rare = self.account.nrare
        if rare < self.next_mask_check and not at_checkpoint:
            return
        best, best_rare = best_mask(self.account.counts, self.space)
        if best != self.emask and _core.sparse_mask_better(rare, best_rare, at_checkpoint):
            os.fsync(self.fd)
            self._set_mask(best)
        else:
            self.next_mask_check = _core.sparse_next_check(rare)

    def _check_period(self) -> None:
        if self.proof is None:
            self.proof = self.watch.check(self._values())
            if self.proof is not None:
                self.dir.write_json(store.PROOF, {"code": self.game.code, **self.proof})
                self.dir.log(self._proof_line())

    def _proof_line(self) -> str:
        assert self.proof is not None
        return (f"{self.game.name}: period {self.proof['period']} from heap "
                f"{self.proof['preperiod']}, proven from g(0..{self.proof['bound'] - 1})")

    def extend(self, until: int, interval: float, bar: Progress, stop_at_proof: bool) -> None:
        """Steps of the engine to until (or to a proof); a checkpoint every interval seconds,
        at the end, and at Ctrl-C before KeyboardInterrupt (:mod:`.stop`)."""
        out = np.empty(self.window, dtype=np.uint16)
        step = 1 << 12
        last_save = time.monotonic()
        while self.count < until and not (self.proof is not None and stop_at_proof):
            limit = min(until, self.watch.stop_at(self.count) or until)
            began = time.monotonic()
            try:
                with self.stop.engine():
                    made, stopped = _core.frontier_step(self.engine, out,
                                                        min(step, limit - self.count))
            except KeyboardInterrupt:  # just before or after the step: its values are dropped
                made, stopped = 0, True
            self._append(out[:made])
            took = time.monotonic() - began
            self.seconds += took
            bar.update(made)
            if stopped or self.stop.asked:
                self.stop.asked = True
                break
            self._check_memory()
            self._maybe_new_mask(False)
            if self.watch.due(self.count):
                self._check_period()
            step = max(1 << 10, min(self.window, _READ, int(step * 2 if took < 0.25 else
                                                            step // 2 if took > 1 else step)))
            if time.monotonic() - last_save >= interval:
                self.checkpoint()
                self.dir.log(f"{self.game.name}: {bar.status()}")
                last_save = time.monotonic()
        self.checkpoint()
        if self.stop.asked:
            raise KeyboardInterrupt

    # -- checkpoints and statistics --
    def stats(self) -> FrontierStats:
        a, proof = self.account, self.proof or {}
        return FrontierStats(
            game=self.game.name, code=self.game.code, heap_sizes=self.count, width=self.width,
            mask=self.emask >> 1, parity=bool(self.emask & 1), rare_count=a.nrare,
            last_rare=a.last_rare(), largest=a.largest, largest_at=a.largest_at,
            records=len(a.records), p_positions=a.p_positions, sha256=a.sha.hexdigest(),
            seconds=round(self.seconds, 3),
            values_per_second=round(self.count / self.seconds, 1) if self.seconds else 0.0,
            threads=self.threads, period=proof.get("period"), preperiod=proof.get("preperiod"),
            proof_bound=proof.get("bound"), proof_sha256=proof.get("sha256"),
            theorem=proof.get("theorem"), last_exception=proof.get("last_exception"),
            chain=dict(a.chain.chain))

    def checkpoint(self) -> None:
        os.fsync(self.fd)
        self._maybe_new_mask(True)
        stats = self.stats()
        self.dir.write_json(store.STATS, stats.as_json())
        rare = zip(np.concatenate(self.account.rare_n or [np.zeros(0, np.int64)]).tolist(),
                   np.concatenate(self.account.rare_g or [np.zeros(0, np.int64)]).tolist())
        self.dir.write_csv(store.RARE, ("n", "g"), rare)
        self.dir.write_csv(store.RECORDS, ("n", "g"), self.account.records)
        store.write_checkpoint(self.folder, {
            "game": self.game.name, "code": self.game.code,
            "rules": None if self.game.rules is None else list(self.game.rules),
            "count": self.count, "width": self.width, "mask": mask_name(self.emask),
            "sha256": stats.sha256, "seconds": self.seconds,
            "chain": stats.chain})

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


def _positive(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise ValueError(f"{what} must be a positive int, got {value!r}")
    return int(value)


def _checked(until: Any, threads: Any, interval: Any, head: Any, window: Any
             ) -> tuple[int, int, float, int, int]:
    until = _positive(until, "until")
    if until >= 2**48:
        raise ValueError(f"until must be below 2^48, got {until}")
    threads = _positive(threads if threads is not None else _limits.available_cpus(),
                        "threads")
    if threads > 64:
        raise ValueError(f"at most 64 threads, got {threads}")
    head, window = _positive(head, "head"), _positive(window, "window")
    if not window >= 1 << 12 or head < 256:
        raise ValueError("the window holds at least 4096 values and the head 256")
    _limits.parse_seconds(interval, "interval", positive=True)
    return until, threads, float(interval), head, window


def frontier_run(game: HeapGame | str, until: int, checkpoint: str | os.PathLike[str],
                 threads: int | None = None, interval: float = 60.0,
                 progress: ProgressOption = None, *, head: int = HEAD,
                 window: int = 1 << 22, stop_at_proof: bool = True,
                 fresh: bool = False) -> FrontierStats:
    """Computes g(0..until-1) of a heap game into the directory checkpoint, or goes on with the
    run already there (see the module's docstring for its files), proving the period of an
    octal game as soon as the values prove it.

    Parameters
    ----------
    game : HeapGame or str
        Grundy's game or a take-and-break game whose moves leave at most two heaps, some two
        ("grundy", "0.6", "officers", "4.07", ...: any name the catalogue knows).
    until : int
        Heap sizes to reach (below 2^48).
    checkpoint : path
        The run's directory (created when missing; one holding files a run does not write
        is refused).
    threads : int, optional
        Threads for the engine (default: the CPUs this process may use); the values do not
        depend on it.  Two: a helper prepares the blocks ahead.  Three or four: the settling
        thread speculates and one or two others prove its values (taken back where a proof
        fails).  The block engine, which makes nearly every value of a long run, starts no
        more than four: past that none was faster.  A game whose values all stay below 64
        (0.167, 0.16, ...) goes by narrow steps, one thread whatever this says.
    interval : float
        Seconds between checkpoints and progress lines (and a checkpoint at the end).
    progress : bool, optional
        A progress bar with the heap size, rate and time left (default: on a terminal; with
        output to a file, a plain line every interval, at most a minute).
    head, window : int
        Heap sizes computed first by the ordinary engine and kept in memory (default
        :data:`HEAD`), and recent values kept in memory (the memory used is about 2 (head + 2
        window) bytes plus the rare heap sizes, whatever until is).
    stop_at_proof : bool
        Stop once a period is proven (default), or go on to until.
    fresh : bool
        Delete the run in the directory (its own files only) and start afresh.

    Returns
    -------
    FrontierStats

    Raises
    ------
    ValueError
        Bad arguments, a game outside the sparse space, a directory of something else, a
        checkpoint of another game, or one that is corrupted or whose values the rules do not
        give (never continued silently).
    KeyboardInterrupt
        Ctrl-C, after a checkpoint of what was computed.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as run:
    ...     first = frontier_run("grundy", 3000, run, progress=False)
    ...     again = frontier_run("grundy", 6000, run, progress=False)   # goes on from 3000
    ...     whole = frontier_run("grundy", 6000, run + "/b", progress=False)
    ...     proof = frontier_run("0.16", 2**20, run + "/c", progress=False)
    >>> again.sha256 == whole.sha256, again.heap_sizes, proof.period, proof.preperiod
    (True, 6000, 149459, 105351)
    """
    game = _game(game)
    until, threads, interval, head, window = _checked(until, threads, interval, head, window)
    directory = RunDirectory(checkpoint, "frontier", _OWN)
    claimed = False
    try:
        directory.claim(fresh, state=store.CHECKPOINT)  # held by this process until the end
        claimed = True
        try:
            directory.record_session({"game": game.name, "code": game.code, "until": until,
                                      "threads": threads, "head": head, "window": window,
                                      "stop_at_proof": stop_at_proof})
            return _run(_Run(game, directory, threads, head, window), until, interval,
                        progress, stop_at_proof)
        finally:
            directory.unlock()
    except KeyboardInterrupt:
        _say(game, progress, _where_it_stopped(directory.folder),
             directory if claimed else None)
        raise


def _run(run: _Run, until: int, interval: float, progress: ProgressOption,
         stop_at_proof: bool) -> FrontierStats:
    try:
        with run.stop:
            with run.stop.engine():  # the checks: Ctrl-C stops them, the checkpoint as it was
                news = run.open()
                if news is not None:
                    _say(run.game, progress, news, run.dir)
                if run.resumed is not None:
                    run.load()
            with Progress(until, f"{run.game.name} frontier", enabled=progress,
                          min_total=1 << 20, log_every=min(interval, LOG_EVERY),
                          unit="heap sizes", start=run.count) as bar:
                if run.count == 0:
                    run.start(until, stop_at_proof, bar)
                run.extend(until, interval, bar, stop_at_proof)
    finally:
        run.close()
    stats = run.stats()
    run.dir.log(f"{run.game.name}: done, {stats.heap_sizes:,} heap sizes"
                + ("" if stats.period is None else "; " + run._proof_line()))
    return stats


def _where_it_stopped(folder: Path) -> str:
    """What a run stopped by Ctrl-C leaves, as its checkpoint on disk says."""
    try:
        data = store.read_checkpoint(folder)
    except ValueError:
        data = None
    if data is None:
        return "stopped before its first checkpoint; the same command starts over"
    return f"checkpointed at {data['count']:,} heap sizes; run the same command to go on"


def _say(game: HeapGame, progress: ProgressOption, line: str,
         directory: RunDirectory | None) -> None:
    """A line for the person running: on standard error (unless progress is False) and in
    the run's progress.log (when the run holds its directory)."""
    if progress is not False:
        sys.stderr.write(f"{game.name}: {line}\n")
        sys.stderr.flush()
    if directory is not None:
        directory.log(f"{game.name}: {line}")


def frontier_stats(checkpoint: str | os.PathLike[str]) -> FrontierStats:
    """The statistics of the last checkpoint of the run in the directory checkpoint.

    Parameters
    ----------
    checkpoint : path
        A run's directory.

    Returns
    -------
    FrontierStats

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as run:
    ...     _ = frontier_run("grundy", 2000, run, progress=False)
    ...     frontier_stats(run).largest_at
    1882
    """
    path = Path(checkpoint) / store.STATS
    return FrontierStats.from_json(read_json(path, "frontier statistics"), str(path))


def frontier_values(checkpoint: str | os.PathLike[str], start: int = 0,
                    stop: int | None = None) -> np.ndarray:
    """g(start..stop-1) of the run in the directory checkpoint, as far as its last checkpoint
    (a read-only memory map: any length costs no memory).

    Parameters
    ----------
    checkpoint : path
        A run's directory.
    start, stop : int
        The heap sizes (default: all that the last checkpoint holds).

    Returns
    -------
    numpy.ndarray

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as run:
    ...     _ = frontier_run("0.6", 2000, run, progress=False)
    ...     frontier_values(run, 10, 15).tolist()
    [3, 4, 0, 3, 4]
    """
    folder = Path(checkpoint)
    data = store.read_checkpoint(folder)
    if data is None:
        raise ValueError(f"{folder}: no frontier checkpoint")
    count, width = data["count"], data["width"]
    stop = count if stop is None else stop
    if not 0 <= start <= stop <= count:
        raise ValueError(f"the run holds g(0..{count - 1}); asked for {start}..{stop}")
    if stop == start:
        return np.zeros(0, dtype=f"<u{width}")
    return np.memmap(folder / store.values_name(width), dtype=f"<u{width}", mode="r",
                     offset=0, shape=(count,))[start:stop]
