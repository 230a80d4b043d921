"""Frontier runs of heap games: billions of values in bounded memory, checkpointed, checksummed.

The sparse space (Winning Ways ch. 4; Gangolli & Plambeck 1989; A. Flammenkamp's tables of
octal games and of Grundy's game): under a mask, only a few heap sizes have "rare" values, so
a value needs the rare heap sizes and the recent values, not the whole sequence.  The C engine
(``csrc/core/frontier.c``) keeps in memory the rare heap sizes, the first ones (the head) and a
window of recent values, on several threads; every value goes to an append-only file, read
back for the rare long searches.  A directory holds one run:

- ``values.bin``: g(0), g(1), ... at ``width`` bytes each, little endian (1 while every value
  is below 256, else 2);
- ``checkpoint.json``: the game, how many values are final, their width, the mask and the
  SHA-256 of those values, sealed by a SHA-256 of its own; written atomically (temporary file,
  fsync, rename, fsync of the directory) every ``interval`` seconds and at the end;
- ``stats.json``: the statistics of the last checkpoint (:class:`FrontierStats`).

Started again on the same directory, a run checks the checkpoint and the values against it,
drops values written after it, and goes on: after Ctrl-C, ``kill -9`` or a reboot it ends
with exactly the values of an uninterrupted run, for any number of threads.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as run:
...     stats = frontier_run("grundy", 5000, run, threads=1, progress=False)
...     values = frontier_values(run)
>>> stats.heap_sizes, stats.largest, stats.mask, values[:10].tolist()
(5000, 65, 126, [0, 0, 0, 1, 0, 2, 1, 0, 2, 1])
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import time
from pathlib import Path
from typing import Any

import numpy as np

from ... import _core
from ..._progress import Progress, ProgressOption
from ...games.catalogue import heap_game
from ...games.heap import HeapGame

__all__ = ["FrontierStats", "frontier_run", "frontier_stats", "frontier_values"]

FORMAT = "nimbers-frontier/1"
VALUES, CHECKPOINT, STATS = "values.bin", "checkpoint.json", "stats.json"
_READ = 1 << 22  # values per piece when a file is read back


@dataclasses.dataclass(frozen=True)
class FrontierStats:
    """What a frontier run found, in the terms of T. Czajka's and A. Flammenkamp's tables.

    heap_sizes: values known, g(0..heap_sizes-1); mask: the sparse space's value mask (a
    value v is rare when popcount(v & mask) is even; with ``parity``, the heap size's parity
    counts as one more bit); rare: the rare heap sizes, heap 0 included; last_rare: the
    largest of them; largest and largest_at: the largest value and the first heap size having
    it; p_positions: heap sizes of value 0; sha256: of the values file's first heap_sizes
    values (width bytes each), so two runs compare by one line.
    """

    game: str
    code: str
    heap_sizes: int
    width: int
    mask: int
    parity: bool
    rare: int
    last_rare: int
    largest: int
    largest_at: int
    p_positions: int
    sha256: str
    seconds: float
    values_per_second: float
    threads: int

    def summary(self) -> str:
        """The statistics as lines of text (what ``nimbers heap --frontier`` prints).

        Returns
        -------
        str

        >>> import tempfile
        >>> with tempfile.TemporaryDirectory() as run:
        ...     print(frontier_run("0.6", 3000, run, progress=False).summary().splitlines()[2])
        rare mask 6e: 600 rare heap sizes (heap 0 included), the last at 2995
        """
        mask = f"{self.mask:x}" + (" and the heap's parity" if self.parity else "")
        return "\n".join([
            f"{self.game}: g(0..{self.heap_sizes - 1}) (2^{np.log2(self.heap_sizes):.2f} heap sizes)",
            f"largest value {self.largest}, first at {self.largest_at}",
            f"rare mask {mask}: {self.rare} rare heap sizes (heap 0 included), the last at "
            f"{self.last_rare}",
            f"P-positions (value 0): {self.p_positions}",
            f"{self.values_per_second:,.0f} values/s over {self.seconds:.1f} s on "
            f"{self.threads} thread{'s' if self.threads != 1 else ''}",
            f"SHA-256 of the values ({self.width} byte{'s' if self.width > 1 else ''} each, "
            f"little endian): {self.sha256}",
        ])


def _game(game: HeapGame | str) -> HeapGame:
    if isinstance(game, str):
        game = heap_game(game)
    if not isinstance(game, HeapGame):
        raise TypeError(f"a heap game or its code is needed, not {type(game).__name__}")
    rules = game.rules
    if rules is not None:
        if any(d & 8 for d in rules):
            raise ValueError(f"{game.name}: moves leaving three heaps are outside the sparse "
                             "space; use nim_values")
        if not any(d & 4 for d in rules):
            raise ValueError(f"{game.name}: no move leaves two heaps, so the values are "
                             "periodic early; use nim_values and period()")
        if len(rules) > 32:
            raise ValueError(f"{game.name}: codes of more than 31 digits are not supported")
    return game


def _seal(fields: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(fields, sort_keys=True).encode()).hexdigest()


def _write_atomically(path: Path, text: str) -> None:
    """Temporary file, fsync, rename over path, fsync of the directory: path holds the old
    text or the new one, whatever happens when."""
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _read_checkpoint(folder: Path) -> dict[str, Any] | None:
    path = folder / CHECKPOINT
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        seal = data.pop("seal")
    except (ValueError, KeyError, TypeError, AttributeError, UnicodeDecodeError):
        raise ValueError(f"{path}: not a readable frontier checkpoint") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"{path}: not a {FORMAT} checkpoint")
    if seal != _seal(data):
        raise ValueError(f"{path}: the checkpoint is corrupted (its seal does not match)")
    return data


def _best_mask(counts: np.ndarray, parity_ok: bool) -> tuple[int, int]:
    """The mask over 2 g + parity making the fewest heap sizes rare, and their number: by the
    Walsh-Hadamard transform W of the counts, the rare count of M is (N + W[M]) / 2."""
    w = counts.astype(np.int64)
    h = 1
    while h < len(w):
        w = w.reshape(-1, 2, h)
        w = np.stack([w[:, 0] + w[:, 1], w[:, 0] - w[:, 1]], axis=1).reshape(-1)
        h *= 2
    rare = (int(counts.sum()) + w) // 2
    rare[0] = np.iinfo(np.int64).max  # the empty mask makes everything rare
    if not parity_ok:
        rare[1::2] = np.iinfo(np.int64).max
    best = int(np.argmin(rare))
    return best, int(rare[best])


class _Run:
    """One directory's run: the engine, the values file, the running checksum and statistics."""

    def __init__(self, game: HeapGame, folder: Path, threads: int, head: int,
                 window: int) -> None:
        self.game, self.folder, self.threads = game, folder, threads
        self.head = head
        ks = [0] if game.rules is None else [k for k, d in enumerate(game.rules) if d & 4]
        self.parity_ok = len({k & 1 for k in ks}) == 1
        self.engine = _core.frontier_new(game.rules, threads, head, window)
        self.window = window
        self.count, self.width, self.emask = 0, 1, 0
        self.sha = hashlib.sha256()
        self.largest, self.largest_at, self.p_positions = 0, 0, 0
        self.counts = np.zeros(2, dtype=np.int64)  # of 2 g + (i mod 2), heaps 1..count-1
        self.next_check = 0
        self.seconds = 0.0
        self.fd = -1

    # -- the values file --
    def open(self) -> None:
        data = _read_checkpoint(self.folder)
        path = self.folder / VALUES
        self.fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        if data is None:
            os.ftruncate(self.fd, 0)
            return
        if data.get("code") != self.game.code:
            raise ValueError(f"{self.folder / CHECKPOINT}: a run of {data.get('code')}, not of "
                             f"{self.game.code}")
        count, width = data["count"], data["width"]
        if os.fstat(self.fd).st_size < count * width:
            raise ValueError(f"{path}: shorter than its checkpoint's {count} values")
        os.ftruncate(self.fd, count * width)  # drop what came after the checkpoint
        self.width, self.seconds = width, float(data.get("seconds", 0.0))
        _core.frontier_set_file(self.engine, self.fd, width)
        dtype = np.dtype(f"<u{width}")
        for start in range(0, count, _READ):
            n = min(_READ, count - start)
            raw = os.pread(self.fd, n * width, start * width)
            values = np.frombuffer(raw, dtype=dtype)
            self._account(values, start)
            _core.frontier_feed(self.engine, values.astype(np.uint16))
        self.count = count
        if self.sha.hexdigest() != data["sha256"]:
            raise ValueError(f"{path}: the values do not match the checkpoint's SHA-256")
        self._set_mask(int(data["mask"]))

    def _account(self, values: np.ndarray, start: int) -> None:
        """The checksum and the statistics of values g(start..): running, in order."""
        self.sha.update(values.astype(f"<u{self.width}", copy=False).tobytes())
        top = int(values.max()) if len(values) else 0
        if top > self.largest or start == 0:
            self.largest, self.largest_at = top, start + int(np.argmax(values))
        self.p_positions += int(np.count_nonzero(values == 0))
        size = 2 << max(1, int(values.max(initial=0)).bit_length())
        if size > len(self.counts):
            self.counts = np.pad(self.counts, (0, size - len(self.counts)))
        # counts[2 g + (i mod 2)], heap 0 left out: the even and the odd positions apart
        # (no temporary wider than the values themselves)
        skip = 1 if start == 0 else 0
        for parity in (0, 1):
            first = skip + ((parity - start - skip) & 1)
            self.counts[parity::2] += np.bincount(values[first::2],
                                                  minlength=len(self.counts) // 2)

    def _append(self, values: np.ndarray) -> None:
        if self.width == 1 and len(values) and int(values.max()) > 255:
            self._widen()
        data = values.astype(f"<u{self.width}").tobytes()
        written = 0
        while written < len(data):
            written += os.pwrite(self.fd, data[written:], self.count * self.width + written)
        self._account(values, self.count)
        self.count += len(values)

    def _widen(self) -> None:
        """A value past 255: the file goes to 2 bytes a value (rewritten, checksum again)."""
        tmp = self.folder / (VALUES + ".wide")
        fd = os.open(tmp, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o644)
        self.sha = hashlib.sha256()
        for start in range(0, self.count, _READ):
            n = min(_READ, self.count - start)
            wide = np.frombuffer(os.pread(self.fd, n, start), dtype=np.uint8).astype("<u2")
            os.pwrite(fd, wide.tobytes(), 2 * start)
            self.sha.update(wide.tobytes())
        os.fsync(fd)
        os.replace(tmp, self.folder / VALUES)
        os.close(self.fd)
        self.fd, self.width = fd, 2
        _core.frontier_set_file(self.engine, self.fd, 2)

    # -- the engine --
    def start(self, until: int) -> None:
        """A new run: the head by the ordinary engine, then the mask."""
        first = min(until, self.head)
        began = time.monotonic()
        values = HeapGame(self.game.name, self.game.rules, self.game.kind,
                          self.game.code).nim_values(first, progress=False)
        if len(values) and int(values.max()) > 65535:
            raise ValueError(f"{self.game.name}: values past 65535 are beyond the frontier mode")
        values = values.astype(np.uint16)
        self._append(values)
        _core.frontier_set_file(self.engine, self.fd, self.width)
        _core.frontier_feed(self.engine, values)
        self._set_mask(_best_mask(self.counts, self.parity_ok)[0])
        self.seconds += time.monotonic() - began

    def _set_mask(self, emask: int) -> None:
        _core.frontier_set_mask(self.engine, emask)
        self.emask = emask
        rare = _core.frontier_info(self.engine)[1]
        self.next_check = rare + max(8, rare // 16)

    def _maybe_new_mask(self) -> None:
        rare = _core.frontier_info(self.engine)[1]
        if rare < self.next_check:
            return
        best, best_rare = _best_mask(self.counts, self.parity_ok)
        if best != self.emask and best_rare + max(8, rare // 8) <= rare:
            os.fsync(self.fd)
            self._set_mask(best)
        else:
            self.next_check = rare + max(8, rare // 16)

    def extend(self, until: int, interval: float, progress: ProgressOption) -> None:
        out = np.empty(self.window, dtype=np.uint16)
        step = 1 << 12
        last_save = time.monotonic()
        with Progress(until - self.count, f"{self.game.name} frontier", enabled=progress,
                      min_total=1 << 20) as bar:
            while self.count < until:
                began = time.monotonic()
                made, stopped = _core.frontier_step(self.engine, out, min(step, until - self.count))
                self._append(out[:made])
                took = time.monotonic() - began
                self.seconds += took
                bar.update(made)
                if stopped:
                    self.checkpoint()
                    raise KeyboardInterrupt
                self._maybe_new_mask()
                step = max(1 << 10, min(self.window, int(step * 2 if took < 0.25 else
                                                         step // 2 if took > 1 else step)))
                if time.monotonic() - last_save >= interval:
                    self.checkpoint()
                    last_save = time.monotonic()
        self.checkpoint()

    # -- checkpoints and statistics --
    def stats(self) -> FrontierStats:
        info = _core.frontier_info(self.engine)
        return FrontierStats(
            game=self.game.name, code=self.game.code, heap_sizes=self.count, width=self.width,
            mask=self.emask >> 1, parity=bool(self.emask & 1), rare=int(info[1]) + 1,
            last_rare=int(info[2]), largest=self.largest, largest_at=self.largest_at,
            p_positions=self.p_positions, sha256=self.sha.hexdigest(),
            seconds=round(self.seconds, 3),
            values_per_second=round(self.count / self.seconds, 1) if self.seconds else 0.0,
            threads=self.threads)

    def checkpoint(self) -> None:
        os.fsync(self.fd)
        stats = self.stats()
        fields = {"format": FORMAT, "game": self.game.name, "code": self.game.code,
                  "rules": None if self.game.rules is None else list(self.game.rules),
                  "count": self.count, "width": self.width, "mask": self.emask,
                  "sha256": stats.sha256, "seconds": self.seconds}
        _write_atomically(self.folder / STATS, json.dumps(dataclasses.asdict(stats), indent=1))
        _write_atomically(self.folder / CHECKPOINT, json.dumps({**fields, "seal": _seal(fields)},
                                                               indent=1))

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


def _positive(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise ValueError(f"{what} must be a positive int, got {value!r}")
    return int(value)


def frontier_run(game: HeapGame | str, until: int, checkpoint: str | os.PathLike[str],
                 threads: int | None = None, interval: float = 60.0,
                 progress: ProgressOption = None, *, head: int = 1 << 20,
                 window: int = 1 << 22) -> FrontierStats:
    """Computes g(0..until-1) of a heap game into the directory checkpoint, or goes on with the
    run already there (see the module's docstring for its files).

    Parameters
    ----------
    game : HeapGame or str
        Grundy's game or a take-and-break game whose moves leave at most two heaps, some two
        ("grundy", "0.6", "4.07", ...).
    until : int
        Heap sizes to reach (below 2^48).
    checkpoint : path
        The run's directory (created when missing).
    threads : int, optional
        Threads for the engine (default: the CPUs this process may use); the values do not
        depend on it.
    interval : float
        Seconds between checkpoints (and one at the end).
    progress : bool, optional
        A progress bar with the rate and the time left (default: on a terminal).
    head, window : int
        Heap sizes computed first by the ordinary engine and kept in memory, and recent values
        kept in memory (the memory used is about 2 (head + 2 window) bytes plus the rare heap
        sizes, whatever until is).

    Returns
    -------
    FrontierStats

    Raises
    ------
    ValueError
        Bad arguments, a game outside the sparse space, a checkpoint of another game, or one
        that is corrupted or whose values file does not match it (never continued silently).
    KeyboardInterrupt
        Ctrl-C, after a checkpoint of what was computed.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as run:
    ...     first = frontier_run("grundy", 3000, run, progress=False)
    ...     again = frontier_run("grundy", 6000, run, progress=False)   # goes on from 3000
    ...     whole = frontier_run("grundy", 6000, run + "/b", progress=False)
    >>> again.sha256 == whole.sha256, again.heap_sizes
    (True, 6000)
    """
    game = _game(game)
    until = _positive(until, "until")
    if until >= 2**48:
        raise ValueError(f"until must be below 2^48, got {until}")
    threads = _positive(threads if threads is not None else len(os.sched_getaffinity(0)),
                        "threads")
    if threads > 64:
        raise ValueError(f"at most 64 threads, got {threads}")
    head, window = _positive(head, "head"), _positive(window, "window")
    if not window >= 1 << 12 or head < 256:
        raise ValueError("the window holds at least 4096 values and the head 256")
    if isinstance(interval, bool) or not isinstance(interval, (int, float)) or not interval > 0:
        raise ValueError(f"interval must be a positive number of seconds, got {interval!r}")
    folder = Path(checkpoint)
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"{folder} is not a directory")
    folder.mkdir(parents=True, exist_ok=True)
    run = _Run(game, folder, threads, head, window)
    try:
        run.open()
        if run.count == 0:
            run.start(until)
        run.extend(until, float(interval), progress)
        return run.stats()
    finally:
        run.close()


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
    path = Path(checkpoint) / STATS
    try:
        return FrontierStats(**json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, TypeError) as exc:
        raise ValueError(f"{path}: no readable frontier statistics ({exc})") from None


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
    data = _read_checkpoint(folder)
    if data is None:
        raise ValueError(f"{folder}: no frontier checkpoint")
    count = int(data["count"])
    stop = count if stop is None else stop
    if not 0 <= start <= stop <= count:
        raise ValueError(f"the run holds g(0..{count - 1}); asked for {start}..{stop}")
    if stop == start:
        return np.zeros(0, dtype=f"<u{data['width']}")
    return np.memmap(folder / VALUES, dtype=f"<u{data['width']}", mode="r", offset=0,
                     shape=(count,))[start:stop]
