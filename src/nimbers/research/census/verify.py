"""``verify_census(DIR)``: every row of a census table re-checked from scratch by an engine
independent of the one that made it (:mod:`.verify_row` says which, and why they share no
code), the periodicity checked against the Guy-Smith condition with numpy rather than by the
engine's period search, the statistics recounted, every member of a class recomputed and
compared, the classes checked to be different games, the rows' codes checked to be the
census's codes, and the files DIR/SHA256SUMS names (the tables, the lists) checked.

Proven, capped and in-memory rows are made again in full, whatever the budget.  An open row the
frontier engine made (2^22 to 2^30 heap sizes: hours of the census's own time) is made again
by the ordinary engine as deep as its share of the budget allows (at least
``verify_row.ordinary_least`` values, or exactly ``until``) and compared with the digest the
census recorded of that prefix, every claim checked as far as the prefix decides it and
against the census's lists of its rare values and records; the output says how far each row
was made again and against what, and its CPU seconds and seconds.  ``full`` makes the rest of
an open frontier row too, by a fresh frontier run (the old whole check: hours).

Verify's own frontier runs go to ``work`` (kept: a verification stopped and started again goes
on) or to a temporary folder named with the process's id, removed at the end -- and by the
next verify if a ``kill -9`` left it.

>>> from nimbers.research.census.compute import solve_class
>>> row, = solve_class(["0.77"], 4096)
>>> check_row(row, 10.0, True)["error"] is None
True
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shutil
import stat
import sys
import tempfile
from dataclasses import dataclass
from typing import Any, Sequence

from ... import _limits
from ..._progress import ProgressOption, watched
from ..certificate import guy_smith_bound
from .depth import EXTEND
from .pool import as_done, executor
from .run import ProgressLog
from .schema import malformed
from .table import (META, TABLE, census_rule, covered_codes, numbered_rows, read_meta,
                    replaced_rows)
from .verify_row import MOST, check_row, ordinary_least, whole

__all__ = ["verify_census", "CensusError", "Verified", "check_row", "guy_smith_bound"]

#: verify's own temporary folders: PREFIX + the process id + a random part
PREFIX = "nimbers-verify-"
SUMS = "SHA256SUMS"
#: what a value costs the ordinary engine however few heap sizes are rare, in rare heap sizes
#: (results/census, 2026-11-28: .104's 419 million values with 20 rare took longer than the
#: 2^22 values of the open rows with a thousand or two, and started last at 16, alone)
RARE_FLOOR = 64


class CensusError(ValueError):
    """A census table that fails verification: the message names the first failing row."""


@dataclass(frozen=True)
class Verified:
    """What verify_census checked: rows, proven ones (each to its proof's bound), open ones;
    of these, those a fresh frontier run made again in full past the ordinary engine's first
    ordinary_least values (full), and those made again to a prefix only (partial, the least
    partial_least values)."""

    rows: int
    proven: int
    open_full: int
    on_frontier: int = 0
    ordinary_least: int = 0
    partial: int = 0
    partial_least: int = 0
    cpu: float = 0.0
    longest: str = ""

    def __str__(self) -> str:
        whole_rows = self.rows - self.partial
        text = (f"{TABLE}: {self.rows} rows verified: {self.proven} proven (each to its "
                f"proof's bound), {self.open_full} open; {whole_rows} of them made again in "
                "full")
        if self.on_frontier:
            text += (f" ({self.on_frontier} by a fresh frontier run, their first "
                     f"{self.ordinary_least:,} values or more by the ordinary engine too)")
        if self.partial:
            text += (f"; {self.partial} open rows of the frontier engine made again by the "
                     f"ordinary engine to a prefix of at least {self.partial_least:,} values, "
                     "equal to the digests the census recorded (nimbers census verify --full "
                     "makes the rest)")
        if self.longest:
            text += (f"; {self.cpu:,.0f} CPU seconds in all, the longest row {self.longest}")
        return text


def verify_census(directory: str, *, budget: float = 240.0, workers: int | None = None,
                  scheduler: str | None = None, work: str | None = None,
                  progress: ProgressOption = None, interval: float = 300.0,
                  only: Sequence[str] | None = None, until: int | None = None,
                  full: bool = False) -> Verified:
    """Re-checks the rows of directory/census.jsonl (see the module docstring).

    Parameters
    ----------
    directory : str
    budget : float
        Seconds the open rows may take to be recomputed (proven and capped rows are always
        checked in full; an open row of the frontier engine goes at least to
        ``verify_row.ordinary_least``);
        an open in-memory row that cannot be recomputed in full within its share fails.
    workers, scheduler
        As for :func:`census` (with a scheduler, work must be a directory every worker sees).
    work : str, optional
        Where verify's own frontier runs go (one directory per code).  Given, they are kept,
        so a verification stopped and started again goes on from their checkpoints; left out,
        a temporary folder removed at the end (or by the next verify, after a kill).
    progress, interval
        A line on stderr (progress=False: none) and in the work folder's progress.log as each
        row is checked, and every interval seconds meanwhile.
    only : codes, optional
        Only the rows holding these codes (the checks across rows are left out).
    until : int, optional
        Make each row again to at most this many values (a power of two from 2^12 its digests
        record), whatever the budget.
    full : bool
        The open rows of the frontier engine made again in full (a fresh frontier run).

    Returns
    -------
    Verified

    Raises
    ------
    CensusError
        A row fails: the message names the first (by its line in the table) and what is wrong.
    ValueError
        No table there, a bad budget, or a code in only that no row holds.
    """
    _limits.parse_seconds(budget, "budget", positive=True)
    numbered = numbered_rows(directory, repair=False)
    if not numbered:
        raise ValueError(f"{directory}: no census table ({TABLE}) to verify")
    meta = read_meta(directory) or {}
    offsets = bool(meta.get("offsets", True))
    rule = census_rule(meta or None, covered_codes(r for _line, r in numbered
                                                   if isinstance(r, dict)))
    most = EXTEND * int(meta["until"]) if meta.get("until") else MOST
    _check_sums(directory)
    chosen = _chosen(numbered, only)
    rows = [row for _line, row in chosen]
    opened = sum(1 for r in rows if not whole(r) or r.get("engine") == "frontier")
    if work is not None and _same_place(work, os.path.join(directory, "runs")):
        raise ValueError(f"--work {work} holds the census's own frontier runs, whose values "
                         "verify would take on trust: give a directory of verify's own")
    lists = os.path.join(directory, "lists")
    lists_or_none = lists if os.path.isdir(lists) else None
    with _runs_folder(work) as runs, executor(workers, scheduler) as (pool, slots, alive):
        share = 0.7 * budget * slots / max(1, opened)
        log = ProgressLog(runs, _echoed(progress), interval, what="census verify")
        results = _check_rows(chosen, lambda row: pool.submit(
            check_row, row, share, offsets, most, runs, full=full, until=until,
            lists=lists_or_none, rule=rule), alive, log)
    for (line, row), result in zip(chosen, results):
        if result["error"]:
            raise CensusError(f"row {line} ({_code(row)}): {result['error']}")
    _across(numbered, chosen, results, meta)
    if only is None:
        _replaced(directory, numbered)
    proven = sum(1 for r in rows if r.get("period") is not None)
    deep = [r["ordinary"] for r in results if r["frontier"]]
    part = [r["checked"] for r, row in zip(results, rows) if r["checked"] < row["reached"]]
    slowest = max(range(len(rows)), key=lambda i: results[i]["wall"])
    longest = (f"{_code(rows[slowest])} ({results[slowest]['wall']:.0f} s, "
               f"{results[slowest]['cpu']:.0f} CPU s)")
    return Verified(len(rows), proven, len(rows) - proven, len(deep), min(deep, default=0),
                    len(part), min(part, default=0), sum(r["cpu"] for r in results), longest)


def _chosen(numbered: list[tuple[int, dict[str, Any]]], only: Sequence[str] | None
            ) -> list[tuple[int, dict[str, Any]]]:
    """The rows holding a code of only (all of them for None)."""
    if only is None:
        return numbered
    from .classes import canonical
    wanted = {canonical(code) for code in only}
    held = covered_codes(row for _line, row in numbered if isinstance(row, dict))
    missing = sorted(wanted - held)
    if missing:
        raise ValueError(f"no row of the census holds {', '.join(missing)}")
    return [(line, row) for line, row in numbered if wanted & set(row.get("members", ()))]


def _check_sums(directory: str) -> None:
    """Every file DIR/SHA256SUMS names (the tables and lists of a published census) is the
    file it names."""
    path = os.path.join(directory, SUMS)
    if not os.path.exists(path):
        return
    with open(path, encoding="utf-8") as f:
        for line in f:
            digest, _, name = line.rstrip("\n").partition("  ")
            file = os.path.join(directory, name)
            if ".." in name.split("/") or not os.path.isfile(file):
                raise CensusError(f"{SUMS}: {name!r} is not a file of the census")
            with open(file, "rb") as g:
                if hashlib.sha256(g.read()).hexdigest() != digest:
                    raise CensusError(f"{SUMS}: {name} is not the file it names (edited?)")


def _check_rows(numbered: list[tuple[int, dict[str, Any]]], submit: Any, alive: Any,
                log: ProgressLog) -> list[dict[str, Any]]:
    """Every row's check_row result, in the table's order; the costliest rows started first (by
    :func:`_cost`, a schedule only: so none is left alone at the end), a line as each is done
    saying what it was checked against and its CPU seconds and seconds."""
    rows = [row for _line, row in numbered]
    total = len(rows)
    order = sorted(range(total), key=lambda i: (-_cost(rows[i]), -_seconds(rows[i])))
    futures = {submit(rows[i]): i for i in order}
    log.say(f"{total} rows of {TABLE} to check, the costliest first")

    def tick(left: int) -> None:
        if log.due():
            log.say(f"{total - left} of {total} rows done, still working")

    results: list[dict[str, Any]] = [{}] * total
    for done, future in enumerate(as_done(futures, alive, tick), 1):
        i = futures[future]
        results[i] = result = future.result()
        verdict = result["error"] or f"checked, {result['against']}"
        log.say(f"row {numbered[i][0]} ({_code(rows[i])}): {verdict}; {result['cpu']:.1f} CPU "
                f"s, {result['wall']:.1f} s; {done} of {total} rows done")
    return results


def _same_place(a: str, b: str) -> bool:
    """Whether the paths a and b name one directory (b need not exist)."""
    return os.path.realpath(a) == os.path.realpath(b)


def _echoed(progress: ProgressOption) -> bool:
    """Whether the lines go to stderr too: when asked, or by default when someone watches it
    (a terminal, a notebook) or it is a file (a long run's log); not into a pipe, where a
    failing verify's one line of error is read."""
    if progress is None:
        try:
            regular = stat.S_ISREG(os.fstat(sys.stderr.fileno()).st_mode)
        except (AttributeError, OSError, ValueError):
            regular = False
        return regular or watched(sys.stderr)
    return progress is not False


@contextlib.contextmanager
def _runs_folder(work: str | None) -> Any:
    """work (made if missing), or a temporary folder named with this process's id and
    removed afterwards; the folders of verifies that died first (a kill -9) are removed."""
    if work is None:
        _remove_orphans(tempfile.gettempdir())
        with tempfile.TemporaryDirectory(prefix=f"{PREFIX}{os.getpid()}-") as folder:
            yield folder
        return
    if os.path.exists(work) and not os.path.isdir(work):
        raise ValueError(f"{work} is not a directory")
    os.makedirs(work, exist_ok=True)
    yield work


def _remove_orphans(parent: str) -> None:
    """Removes PARENT/nimbers-verify-PID-* folders whose process is gone."""
    for name in os.listdir(parent):
        found = re.fullmatch(re.escape(PREFIX) + r"(\d+)-\w+", name)
        if found is None:
            continue
        path = os.path.join(parent, name)
        try:        # another verify may remove its own folder meanwhile
            mode = os.lstat(path).st_mode
        except FileNotFoundError:
            continue
        if not stat.S_ISDIR(mode) or _alive(int(found[1])):
            continue
        shutil.rmtree(path, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    return True


def _size(row: Any) -> int:
    """The values a row holds (0 for a malformed one)."""
    reached = row.get("reached") if isinstance(row, dict) else None
    return reached if isinstance(reached, int) else 0


def _cost(row: Any) -> float:
    """A guess at what checking a row costs, to start the costliest first: the values the
    ordinary engine makes again (an open frontier row: ordinary_least of them) times its rare
    heap sizes plus RARE_FLOOR (the sparse space's work per value, and the work of a value
    however few are rare), and a share per member."""
    size = _size(row)
    if not size:
        return 0.0
    if row.get("engine") == "frontier" and row.get("period") is None:
        size = ordinary_least(size)
    rare = row.get("rare_count")
    members = row.get("members")
    return size * float((rare if isinstance(rare, int) else 0) + RARE_FLOOR) * (
        1 + 0.2 * (len(members) if isinstance(members, list) else 0))


def _seconds(row: Any) -> float:
    """The seconds the census spent on a row's last level (0 when it says none)."""
    seconds = row.get("seconds") if isinstance(row, dict) else None
    return float(seconds) if isinstance(seconds, (int, float)) else 0.0


def _code(row: Any) -> str:
    code = row.get("code") if isinstance(row, dict) else None
    return code if isinstance(code, str) and code.isprintable() and len(code) < 40 else "?"


def _across(numbered: list[tuple[int, dict[str, Any]]],
            chosen: list[tuple[int, dict[str, Any]]], results: list[dict[str, Any]],
            meta: dict[str, Any]) -> None:
    """No code in two rows, the rows' codes exactly the census's (census.json), and no two
    rows checked the same game as far as both were computed."""
    seen: dict[str, int] = {}
    for line, row in numbered:
        for code in row["members"]:
            if code in seen:
                raise CensusError(f"row {line} ({row['code']}): {code} is in row "
                                  f"{seen[code]} too")
            seen[code] = line
    if "codes" in meta:
        asked = set(meta["codes"])
        missing, extra = sorted(asked - set(seen)), sorted(set(seen) - asked)
        if missing:
            raise CensusError(f"{META}: {len(missing)} codes have no row (the census is not "
                              f"finished: run it again), the first {missing[0]}")
        if extra:
            raise CensusError(f"row {seen[extra[0]]}: {extra[0]} is not a code of the census "
                              f"({META}'s codes lack {len(extra)} codes of the rows)")
    shortest = min(len(r["prefix"]) for r in results)
    by_start: dict[bytes, int] = {}
    for i, r in enumerate(results):
        j = by_start.setdefault(r["prefix"][:shortest], i)
        if j != i:
            common = min(len(r["prefix"]), len(results[j]["prefix"]))
            if r["prefix"][:common] == results[j]["prefix"][:common]:
                (line, row), (other, first) = chosen[i], chosen[j]
                raise CensusError(f"row {line} ({row['code']}): the same sequence as row "
                                  f"{other} ({first['code']}) for {common // 4} heap sizes: "
                                  "one class")


def _replaced(directory: str, numbered: list[tuple[int, dict[str, Any]]]) -> None:
    """Every row a later one replaced (a class deepened or split) is well formed and hands
    each of its codes on: a class is never deepened into losing a code."""
    for line, row in replaced_rows(directory):
        wrong = malformed(row)
        if wrong:
            raise CensusError(f"row {line} ({_code(row)}, replaced): a malformed row: {wrong}")
        later = covered_codes(r for other, r in numbered if other > line)
        lost = sorted(set(row["members"]) - later)
        if lost:
            raise CensusError(f"row {line} ({row['code']}, replaced): the rows after it lack "
                              f"{', '.join(lost)}")
