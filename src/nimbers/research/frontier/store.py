"""What a frontier run keeps on disk, and the checks that nothing there is believed unchecked.

- the values file: g(0), g(1), ... at ``width`` bytes each, little endian, named by its width
  (``values.bin`` for 1 byte, ``values16.bin`` for 2), so that widening writes a new file
  and switches the checkpoint to it: at every instant the checkpoint names a file holding
  its values;
- ``checkpoint.json``: the game (code and digits), how many values are final, their width
  and file, the mask and the SHA-256 of those values, the chain (the SHA-256 of the first 2^k
  values as little-endian uint32, width-free: a re-check may stop at any power of two;
  checked again on resume), sealed by a SHA-256 of its own, every
  field checked for its type and range when read (a hand-edited or crafted one is refused
  in one line, never continued);
- on resume, before reading any value, the file's size and that it has no holes; then the
  head of the values is re-derived from the rules by the ordinary engine and a sample of
  later heap sizes by the mex of their options (as ``--resume`` of saved heaps does); after
  the pass that checks the SHA-256, every rare heap size and every record, within a work
  cap: a file whose values were edited and resealed is refused when an edit touches what
  the statistics and proofs read (or a sampled value).
"""

from __future__ import annotations

import hashlib
import json
import os
import random
from pathlib import Path
from typing import Any, Iterator, Sequence

import numpy as np

from ...files import read_capped, write_atomically
from ...games.heap import HeapGame
from ...games.heap.stats import mask_name, read_mask_name
from ..rundir import read_json
from .account import Account

__all__ = ["FORMAT", "CHECKPOINT", "STATS", "PROOF", "VALUES", "values_name", "seal",
           "read_checkpoint", "write_checkpoint", "check_file", "check_values", "check_read_values",
           "ValuesFile"]

FORMAT = "nimbers-frontier/3"
CHECKPOINT, STATS, PROOF = "checkpoint.json", "stats.json", "proof.json"
VALUES = {1: "values.bin", 2: "values16.bin"}
RARE, RECORDS = "rare.csv", "records.csv"
MAX_COUNT = 2**48
#: heap sizes re-derived on resume: the first HEAD by the ordinary engine, then SAMPLE
#: heap sizes by the mex of their options, within WORK element operations
HEAD, SAMPLE, WORK = 1 << 16, 12, 1 << 27


def values_name(width: int) -> str:
    """The values file of a width (1 or 2 bytes a value)."""
    return VALUES[width]


_LIST_CAP = 4 << 20  # bytes of rare.csv or records.csv read on resume (longer: not read)

#: values a piece when a values file is read through
PIECE = 1 << 18


class ValuesFile:
    """g(0 .. count-1) of an open values file, read a piece at a time by ``os.pread``: no
    memory map, so a pass over billions of values keeps no more than a piece in memory (a
    map's pages, once read, count as the process's memory until it is unmapped: a pass over
    a 2^28 run's file took 300 MB).  Indexing by an int or a slice (step 1) gives what a
    numpy array would.

    >>> import tempfile
    >>> with tempfile.TemporaryFile() as f:
    ...     _ = f.write(np.arange(10, dtype="<u2").tobytes()); f.flush()
    ...     g = ValuesFile(f.fileno(), 2, 10)
    ...     g[3], g[7:].tolist(), len(g), [(a, len(v)) for a, v in g.pieces(2, 9, 4)]
    (3, [7, 8, 9], 10, [(2, 4), (6, 3)])
    """

    def __init__(self, fd: int, width: int, count: int) -> None:
        self.fd, self.width, self.count = fd, width, count
        self.dtype = np.dtype(f"<u{width}")

    def __len__(self) -> int:
        return self.count

    def read(self, start: int, stop: int) -> np.ndarray:
        """g(start .. stop-1), clipped to the values held."""
        start, stop = max(0, start), min(stop, self.count)
        if stop <= start:
            return np.zeros(0, dtype=self.dtype)
        size = (stop - start) * self.width
        data = os.pread(self.fd, size, start * self.width)
        while len(data) < size:  # (a short read: the rest, or the file was cut)
            more = os.pread(self.fd, size - len(data), start * self.width + len(data))
            if not more:
                raise ValueError(f"the values file holds fewer than {stop} values")
            data += more
        return np.frombuffer(data, dtype=self.dtype)

    def __getitem__(self, key: int | slice) -> Any:
        if isinstance(key, slice):
            start, stop, step = key.indices(self.count)
            if step != 1:
                raise ValueError("a values file is read in slices of step 1")
            return self.read(start, stop)
        n = key + self.count if key < 0 else key
        if not 0 <= n < self.count:
            raise IndexError(f"g({key}) is not in g(0..{self.count - 1})")
        return int(self.read(n, n + 1)[0])

    def pieces(self, start: int = 0, stop: int | None = None, size: int = PIECE
               ) -> Iterator[tuple[int, np.ndarray]]:
        """(a, g(a .. a + size - 1)) from start to stop, in order."""
        stop = self.count if stop is None else min(stop, self.count)
        for a in range(start, stop, size):
            yield a, self.read(a, min(stop, a + size))


def seal(fields: dict[str, Any]) -> str:
    """The SHA-256 that seals a checkpoint's fields (it finds damage, not a forger: the
    re-derivation on resume does that)."""
    return hashlib.sha256(json.dumps(fields, sort_keys=True).encode()).hexdigest()


_TYPES: dict[str, Any] = {"format": str, "game": str, "code": str, "count": int, "width": int,
                          "mask": str, "sha256": str, "seconds": (int, float)}


def _field_problem(data: dict[str, Any]) -> str | None:
    """What is wrong with a checkpoint's fields, or None."""
    for key, kind in _TYPES.items():
        if key not in data:
            return f"it has no {key!r}"
        value = data[key]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            return f"its {key!r} is not a{'n int' if kind is int else ' ' + str(kind)}"
    rules = data.get("rules")
    if rules is not None and not (isinstance(rules, list) and len(rules) <= 64 and
                                  all(type(d) is int and 0 <= d < 16 for d in rules)):
        return "its 'rules' are not a list of digits"
    if not 0 <= data["count"] < MAX_COUNT:
        return f"its count {data['count']} is out of range"
    if data["width"] not in VALUES:
        return f"its width {data['width']} is not 1 or 2"
    try:
        emask = read_mask_name(data["mask"])
    except ValueError as exc:
        return f"its mask: {exc}"
    if emask >= 1 << 17:
        return f"its mask {data['mask']} is out of range"
    if len(data["sha256"]) != 64 or any(c not in "0123456789abcdef" for c in data["sha256"]):
        return "its sha256 is not a SHA-256"
    if not 0 <= data["seconds"] < 1e12:
        return "its seconds are out of range"
    chain = data.get("chain", {})
    if not (isinstance(chain, dict) and len(chain) <= 64 and all(
            k in _POWERS and isinstance(v, str) and len(v) == 64 for k, v in chain.items())):
        return "its 'chain' is not the digests of 2^k values"
    return None


#: the chain's keys: the powers of two (research.certificate.ValueHasher)
_POWERS = {str(1 << k) for k in range(64)}


def _upgraded(data: dict[str, Any]) -> dict[str, Any]:
    """A checkpoint of an earlier format in this one's fields: the mask as the tables and
    stats.json write it ("1fe", "1+pos"), where format 1 kept the mask over e as one number and
    format 2 the value mask and the parity as two."""
    mask, parity = data.get("mask"), data.get("parity")
    if data.get("format") == "nimbers-frontier/1" and type(mask) is int and mask >= 0:
        data = {**data, "format": FORMAT, "mask": mask_name(mask)}
    elif data.get("format") == "nimbers-frontier/2" and type(mask) is int and mask >= 0 \
            and isinstance(parity, bool):
        data = {k: v for k, v in data.items() if k != "parity"}
        data.update(format=FORMAT, mask=mask_name(mask << 1 | parity))
    return data


def read_checkpoint(folder: Path) -> dict[str, Any] | None:
    """The checkpoint of the run in folder, checked field by field; None when there is none.

    Raises
    ------
    ValueError
        Unreadable, of another format, corrupted (the seal), or a field of the wrong type or
        out of range: one line naming the file and the field.
    """
    path = folder / CHECKPOINT
    if not path.exists():
        return None
    data = read_json(path, "frontier checkpoint")
    if not isinstance(data, dict) or "seal" not in data:
        raise ValueError(f"{path}: not a readable frontier checkpoint")
    given = data.pop("seal")
    if data.get("format") not in (FORMAT, "nimbers-frontier/1", "nimbers-frontier/2"):
        raise ValueError(f"{path}: not a {FORMAT} checkpoint")
    if given != seal(data):
        raise ValueError(f"{path}: the checkpoint is corrupted (its seal does not match)")
    data = _upgraded(data)
    problem = _field_problem(data)
    if problem is not None:
        raise ValueError(f"{path}: not a valid frontier checkpoint: {problem}")
    return data


def write_checkpoint(folder: Path, fields: dict[str, Any]) -> None:
    """Writes the checkpoint atomically, sealed."""
    fields = {"format": FORMAT, **fields}
    write_atomically(folder / CHECKPOINT, json.dumps({**fields, "seal": seal(fields)},
                                                     indent=1))


# ---- re-deriving values from the rules ------------------------------------------------------

#: splits looked at a slice at a time: the check's memory stays bounded whatever n
_SPLITS_AT_ONCE = 1 << 22


def value_from_options(g: Any, n: int, rules: Sequence[int] | None) -> int:
    """g(n) by the mex of its options, from the values g(0..n-1) (rules: the digit list of a
    take-and-break code, None for Grundy's game).  O(n) array work a slice of splits at a
    time, so g may be a :class:`ValuesFile` of billions of values: the independent check of
    a stored value.

    >>> g = np.array([0, 0, 0, 1, 0, 2, 1, 0, 2, 1])            # Grundy's game
    >>> value_from_options(g, 9, None), value_from_options(g, 5, None)
    (1, 2)
    """
    seen = np.zeros((1 << 16) + 1, dtype=bool)  # values are stored in at most 16 bits

    def splits(total: int, end: int) -> None:
        """Marks g(a) ^ g(total - a) for 1 <= a < end."""
        for a0 in range(1, end, _SPLITS_AT_ONCE):
            a1 = min(end, a0 + _SPLITS_AT_ONCE)
            small = np.asarray(g[a0:a1])  # (in the values' own width: no wider copies)
            large = np.asarray(g[total - a1 + 1:total - a0 + 1])[::-1]
            seen[small ^ large] = True

    if rules is None:
        splits(n, (n + 1) // 2)
    else:
        for k, d in enumerate(rules):
            if d & 1 and n == k >= 1:
                seen[0] = True
            if d & 2 and n > k >= 1:
                seen[int(g[n - k])] = True
            if d & 4 and n - k >= 2:
                splits(n - k, (n - k) // 2 + 1)
    return int(np.argmin(seen))


def check_file(fd: int, size: int, path: Path) -> None:
    """The checks of a values file that read none of it: it holds at least size bytes (the
    checkpoint's values), with no hole among them (a run writes every byte; a file extended
    by truncate(1), or a crafted sparse one, would otherwise cost a pass over gigabytes of
    zeros before its refusal).

    Raises
    ------
    ValueError
        Shorter than size, or a hole before it.
    """
    if os.fstat(fd).st_size < size:
        raise ValueError(f"{path}: shorter than its checkpoint's values ({size:,} bytes)")
    try:
        hole = os.lseek(fd, 0, os.SEEK_HOLE)  # (the size where holes are not reported)
    except (AttributeError, OSError):
        return
    if hole < size:
        raise ValueError(f"{path}: a hole at byte {hole:,} (a file extended, never written: "
                         "no run leaves one)")


def check_read_values(game: HeapGame, values: ValuesFile, account: Account, path: Path) -> None:
    """Re-derives by the mex of their options the values that the run's statistics and
    proofs rest on: every rare heap size and every record, those the values now give
    (account: the run's :class:`.account.Account`, the rare heap sizes listed) and those
    the last session listed in ``rare.csv`` and ``records.csv`` (a rare value or a record
    edited into a common value leaves the first lists, not the second), the smallest first,
    within max(WORK, 4 count) element operations (about four passes over the values, beside
    the pass that checks their SHA-256).

    Raises
    ------
    ValueError
        A value that the rules do not give, naming the heap size.
    """
    rare = [int(n) for part in account.rare_n for n in part.tolist()]
    listed = _listed(path.parent / RARE) | _listed(path.parent / RECORDS)
    wanted = sorted({n for n in [*rare, *(n for n, _ in account.records), *listed]
                     if HEAD <= n < len(values)})
    budget = max(WORK, 4 * len(values))
    for n in wanted:
        if n > budget:
            return
        budget -= n
        expected = value_from_options(values, n, game.rules)
        if expected != values[n]:
            raise ValueError(f"{path}: g({n}) is {values[n]} there, but its options give "
                             f"{expected}: the values were changed")


def _listed(path: Path) -> set[int]:
    """The heap sizes (first column) of a CSV list the run wrote; none when it is missing
    or unreadable (a list is the run's output: its values are what is checked)."""
    try:
        lines = read_capped(path, _LIST_CAP, "list").splitlines()[1:]
        return {int(line.split(",", 1)[0]) for line in lines}
    except (OSError, ValueError):
        return set()


def check_values(game: HeapGame, values: Any, path: Path) -> None:
    """Re-derives the head of values (the ordinary engine) and a random sample of later heap
    sizes (the mex of their options, always the last one within the work cap): a file whose
    values were edited, resealed, zero-extended or relabelled is refused.

    Raises
    ------
    ValueError
        A value that the rules do not give, naming the heap size.
    """
    count = len(values)
    head = min(count, HEAD)
    fresh = HeapGame(game.name, game.rules, game.kind, game.code).nim_values(head, progress=False)
    wrong = np.flatnonzero(fresh != values[:head])
    if len(wrong):
        n = int(wrong[0])
        raise ValueError(f"{path}: g({n}) is {int(values[n])} there, but the rules of "
                         f"{game.name} give {int(fresh[n])}: not this game's values")
    sample = [count - 1] if count > head else []
    rng = random.Random(os.urandom(16))
    sample += [rng.randrange(head, count) for _ in range(SAMPLE) if count > head]
    budget = WORK
    for n in sample:
        if n > budget:
            continue
        budget -= n
        expected = value_from_options(values, n, game.rules)
        if expected != int(values[n]):
            raise ValueError(f"{path}: g({n}) is {int(values[n])} there, but its options give "
                             f"{expected}: the values were changed")
