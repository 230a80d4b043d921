"""``verify_census(DIR)``: every row of a census table re-checked from scratch, independently of
the run that wrote it -- fresh games, the values recomputed by the ordinary engine (the first
2048 also by the exact scan), the periodicity checked against the Guy-Smith condition with
numpy rather than by the engine's period search, the statistics recounted, every member of a
class recomputed and compared, and the classes checked to be different games.

A row the ordinary engine computed is recomputed by it: a proven row to its proof's bound
and a capped one to its cap, always; an open row as far as its share of the time budget
allows, and it fails when that is short of the heap size it reached (nothing is taken on
trust).

A row the frontier engine computed (past 2^20 heap sizes, to 2^30 and beyond) holds more
values than the ordinary engine makes in hours.  Its values are made twice from nothing: by
the ordinary engine as far as its share of the budget allows (at least ORDINARY_LEAST, past
the frontier engine's in-memory head, so the block engine itself is compared), and by a fresh
frontier run, in a directory of verify's own, to the heap size the row reached.  The two must
agree where both exist, and every check below is made on the fresh run's values: a pass
means every value of the row was recomputed, each of the first 2^k by two engines.

>>> from nimbers.research.census.compute import solve_class
>>> row, = solve_class(["0.77"], 4096)
>>> check_row(row, 10.0, True)["error"] is None
True
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
import tempfile
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from ... import _limits
from ..._progress import ProgressOption, watched
from ...games.codes import parse_take_break_code
from ...games.heap import octal_game
from ...games.heap.stats import rare_mask_of, sparse_space
from ..frontier import frontier_run, frontier_values
from .classes import canonical, dead_heaps, normalized, standard_form
from .compute import FIRST_LEVEL, first_difference
from .depth import (DENSE_DEPTH, EARLIER_RULE, EXTEND, FRONTIER_HEAD, apparent_of, cap_for,
                    digests, earlier_cap, engine_for, mask_of_values, member_depth, pieces,
                    proof_of)
from .pool import as_done, executor
from .run import RUNS, ProgressLog
from .schema import malformed
from .table import META, TABLE, covered_codes, numbered_rows, read_meta, replaced_rows

__all__ = ["verify_census", "CensusError", "Verified", "check_row", "guy_smith_bound"]

#: values also computed by the exact scan (every split looked at), a second path through the C
#: engine
EXACT_PREFIX = 2048
#: normalized values compared across rows (two rows that agree on them are one class)
_ACROSS = 4096 - 16
#: the most heap sizes a row may claim when its census.json says no depth
_MOST = 1 << 32
#: a frontier row's first values recomputed by the ordinary engine whatever the budget (four
#: times the frontier engine's in-memory head: its block engine is compared too)
ORDINARY_LEAST = 4 * FRONTIER_HEAD
#: leading values enough to see the dead heaps (a heap of at most 16 tokens has a move)
_LEAD = 4096


class CensusError(ValueError):
    """A census table that fails verification: the message names the first failing row."""


@dataclass(frozen=True)
class Verified:
    """What verify_census checked: rows, proven ones (each to its proof's bound), open ones
    (each to the heap size it reached), and of all of them those the frontier engine made
    again from nothing past the ordinary engine's first ordinary_least values."""

    rows: int
    proven: int
    open_full: int
    on_frontier: int = 0
    ordinary_least: int = 0

    def __str__(self) -> str:
        text = (f"{TABLE}: {self.rows} rows verified: {self.proven} proven (each to its "
                f"proof's bound), {self.open_full} open (each to the heap size it reached)")
        if self.on_frontier:
            text += (f"; {self.on_frontier} of them made again by a fresh frontier run, their "
                     f"first {self.ordinary_least:,} values or more by the ordinary engine too")
        return text


class _Failed(Exception):
    pass


def guy_smith_bound(code: str, preperiod: int, period: int) -> int:
    """How many values (heap sizes 0 .. bound-1) the Guy-Smith theorem needs to prove period p
    from pre-period n0 for this code: 2 max(n0, 1) + 2p + t, t the most tokens a move takes
    (the Guy-Smith octal periodicity theorem, Winning Ways ch. 4)."""
    digits = parse_take_break_code(code, hex_ok=False).digits
    t = max(k for k, d in enumerate(digits) if d)
    return 2 * max(preperiod, 1) + 2 * period + t


def verify_census(directory: str, *, budget: float = 240.0, workers: int | None = None,
                  scheduler: str | None = None, work: str | None = None,
                  progress: ProgressOption = None, interval: float = 300.0) -> Verified:
    """Re-checks every row of directory/census.jsonl (see the module docstring).

    Parameters
    ----------
    directory : str
    budget : float
        Seconds the open rows may take to be recomputed (proven and capped rows are always
        checked in full); a row whose values cannot be recomputed in full within its share
        fails, so a pass means everything was checked.
    workers, scheduler
        As for :func:`census` (with a scheduler, work must be a directory every worker sees).
    work : str, optional
        Where the fresh frontier runs of the rows past 2^20 heap sizes go (one directory per
        code, as large as the census's own runs).  Given, they are kept, so a verification
        stopped (Ctrl-C, ``kill -9``) and started again goes on from their checkpoints; left
        out, a temporary directory removed at the end.
    progress, interval
        A line on stderr (progress=False: none) and in RUNS/progress.log as each row is
        checked, and every interval seconds meanwhile (a deep table takes hours).

    Returns
    -------
    Verified

    Raises
    ------
    CensusError
        A row fails: the message names the first (by its line in the table) and what is wrong.
    ValueError
        No table there, or a bad budget.
    """
    _limits.parse_seconds(budget, "budget", positive=True)
    numbered = numbered_rows(directory, repair=False)
    if not numbered:
        raise ValueError(f"{directory}: no census table ({TABLE}) to verify")
    meta = read_meta(directory) or {}
    offsets = bool(meta.get("offsets", True))
    most = EXTEND * int(meta["until"]) if meta.get("until") else _MOST
    rows = [row for _line, row in numbered]
    opened = sum(1 for r in rows if not isinstance(r, dict) or not _whole(r)
                 or r.get("engine") == "frontier")
    if work is not None and _same_place(work, os.path.join(directory, RUNS)):
        raise ValueError(f"--work {work} holds the census's own frontier runs, whose values "
                         "verify would take on trust: give a directory of verify's own")
    with _runs_folder(work) as runs, executor(workers, scheduler) as (pool, slots, alive):
        share = 0.7 * budget * slots / max(1, opened)
        log = ProgressLog(runs, _echoed(progress), interval, what="census verify")
        results = _check_rows(numbered, lambda row: pool.submit(
            check_row, row, share, offsets, most, runs), alive, log)
    for (line, row), result in zip(numbered, results):
        if result["error"]:
            raise CensusError(f"row {line} ({_code(row)}): {result['error']}")
    _across(numbered, results, meta)
    _replaced(directory, numbered)
    proven = sum(1 for r in rows if r.get("period") is not None)
    deep = [r["ordinary"] for r in results if r["frontier"]]
    return Verified(len(rows), proven, len(rows) - proven, len(deep), min(deep, default=0))


def _check_rows(numbered: list[tuple[int, dict[str, Any]]], submit: Any, alive: Any,
                log: ProgressLog) -> list[dict[str, Any]]:
    """Every row's check_row result, in the table's order; the largest rows started first, the
    slowest first among rows of one size (the census's own seconds, a schedule only: so none
    is left alone at the end), a line as each is done."""
    rows = [row for _line, row in numbered]
    total = len(rows)
    order = sorted(range(total), key=lambda i: (-_size(rows[i]), -_seconds(rows[i])))
    futures = {submit(rows[i]): i for i in order}
    log.say(f"{total} rows of {TABLE} to check, the largest first")

    def tick(left: int) -> None:
        if log.due():
            log.say(f"{total - left} of {total} rows done, still working")

    results: list[dict[str, Any]] = [{}] * total
    for done, future in enumerate(as_done(futures, alive, tick), 1):
        i = futures[future]
        results[i] = result = future.result()
        verdict = result["error"] or f"checked, {_size(rows[i]):,} values" + (
            f" (a fresh frontier run; the ordinary engine {result['ordinary']:,})"
            if result["frontier"] else "")
        log.say(f"row {numbered[i][0]} ({_code(rows[i])}): {verdict}; {done} of {total} rows "
                "done")
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
    """work (made if missing) or a temporary directory removed afterwards."""
    if work is None:
        with tempfile.TemporaryDirectory(prefix="nimbers-verify-") as folder:
            yield folder
        return
    if os.path.exists(work) and not os.path.isdir(work):
        raise ValueError(f"{work} is not a directory")
    os.makedirs(work, exist_ok=True)
    yield work


def _whole(row: Any) -> bool:
    """Whether the ordinary engine recomputes all of a row's values whatever the budget: a
    proven row (to its proof's bound) and a capped one (its cap, at most DENSE_DEPTH = 2^20
    values: a minute or two; a larger cap, judged on the frontier engine, goes by the
    budget)."""
    if not isinstance(row, dict):
        return False
    cap = row.get("cap")
    return row.get("period") is not None or (
        isinstance(cap, int) and cap <= DENSE_DEPTH and row.get("reached") == cap)


def _size(row: Any) -> int:
    """The values a row holds (0 for a malformed one)."""
    reached = row.get("reached") if isinstance(row, dict) else None
    return reached if isinstance(reached, int) else 0


def _seconds(row: Any) -> float:
    """The seconds the census spent on a row's last level (0 when it says none)."""
    seconds = row.get("seconds") if isinstance(row, dict) else None
    return float(seconds) if isinstance(seconds, (int, float)) else 0.0


def _code(row: Any) -> str:
    code = row.get("code") if isinstance(row, dict) else None
    return code if isinstance(code, str) and code.isprintable() and len(code) < 40 else "?"


def _across(numbered: list[tuple[int, dict[str, Any]]], results: list[dict[str, Any]],
            meta: dict[str, Any]) -> None:
    """No code in two rows, no two rows the same game as far as both were computed, and every
    code the census was asked for has its row."""
    seen: dict[str, int] = {}
    for line, row in numbered:
        for code in row["members"]:
            if code in seen:
                raise CensusError(f"row {line} ({row['code']}): {code} is in row "
                                  f"{seen[code]} too")
            seen[code] = line
    shortest = min(len(r["prefix"]) for r in results)
    by_start: dict[bytes, int] = {}
    for i, r in enumerate(results):
        j = by_start.setdefault(r["prefix"][:shortest], i)
        if j != i:
            common = min(len(r["prefix"]), len(results[j]["prefix"]))
            if r["prefix"][:common] == results[j]["prefix"][:common]:
                (line, row), (other, first) = numbered[i], numbered[j]
                raise CensusError(f"row {line} ({row['code']}): the same sequence as row "
                                  f"{other} ({first['code']}) for {common // 4} heap sizes: "
                                  "one class")
    missing = sorted(set(meta.get("codes", ())) - covered_codes(row for _l, row in numbered))
    if missing:
        raise CensusError(f"{META}: {len(missing)} codes have no row (the census is not "
                          f"finished: run it again), the first {missing[0]}")


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


def check_row(row: Any, seconds: float, offsets: bool, most: int = _MOST,
              runs: str | None = None) -> dict[str, Any]:
    """One row re-checked: {"error": None or what is wrong, "prefix": its first normalized
    values as bytes, "frontier": whether a fresh frontier run made its values, "ordinary": how
    many the ordinary engine made}.  most: the most heap sizes the census may have reached;
    runs: the directory for fresh frontier runs (None: the ordinary engine makes every
    value)."""
    failed = {"error": None, "prefix": b"", "frontier": False, "ordinary": 0}
    try:
        wrong = malformed(row)
        if wrong:
            raise _Failed(f"a malformed row: {wrong}")
        return {"error": None, **_check(row, time.monotonic() + seconds, offsets, most, runs)}
    except _Failed as exc:
        return {**failed, "error": str(exc)}
    except (KeyError, TypeError, ValueError, AttributeError, RecursionError) as exc:
        return {**failed, "error": f"not a well-formed row ({type(exc).__name__}: {exc})"}


def _require(ok: Any, message: str) -> None:
    if not ok:
        raise _Failed(message)


def _check(row: dict[str, Any], deadline: float, offsets: bool, most: int,
           runs: str | None) -> dict[str, Any]:
    code, members = row["code"], row["members"]
    _require(code == canonical(code) and all(m == canonical(m) for m in members),
             "a code not in the census's spelling")
    _require(code in members and standard_form(members) == code,
             f"the standard form of {members} is {standard_form(members)}, not {code}")
    _require(len(set(members)) == len(members), "a member twice")
    _require(len(row["dead_heaps"]) == len(members), "dead_heaps does not match members")
    reached, cert = row["reached"], row["certificate"]
    _require(cert["values"] == reached, "certificate: values is not reached")
    _require(reached <= most, f"reached {reached} is past the census's depth (at most {most} "
             "heap sizes)")
    _require(cert["offsets"] == offsets, "certificate: offsets is not the census's")
    proven = row["period"] is not None
    on_frontier = row["engine"] == "frontier" and runs is not None
    values = _recompute(code, reached, _whole(row) and not on_frontier, deadline,
                        least=ORDINARY_LEAST if on_frontier else 0)
    ordinary = len(values)
    made_again = on_frontier and ordinary < reached     # else the ordinary engine made all
    if made_again:
        fresh = _fresh_frontier(code, reached, os.path.join(str(runs), code))
        differ = first_difference(values, 0, fresh, 0, min(ordinary, len(fresh)))
        _require(differ == ordinary, "the ordinary engine and a fresh frontier run differ at "
                 f"heap {differ}")
        values = fresh
    _require(len(values) == reached, f"only g(0..{len(values) - 1}) of its {reached} values "
             "could be recomputed within the budget: nothing is taken on trust, run verify with "
             "a larger --budget")
    sha, marks = digests(values)
    _require(sha == cert["sha256"], f"the SHA-256 of g(0..{reached - 1}) differs: the values "
             "are not the ones computed here")
    _require(marks == cert["checkpoints"],
             "the checkpoints are not the digests of the first 2^k values")
    exact = octal_game(code).nim_values(min(len(values), EXACT_PREFIX), method="exact")
    _require(np.array_equal(exact, values[:len(exact)]), "the exact scan disagrees")
    dead = dead_heaps(values[:_LEAD]) if offsets else 0
    _require(row["dead_heaps"][members.index(code)] == dead, f"{code} has {dead} dead heaps")
    if proven:
        _check_period(row, code, values)
    else:
        _check_open(row, code, values)
    _check_stats(row, values)
    _check_members(row, values, offsets, deadline)
    head = np.asarray(values[:_ACROSS + _LEAD])
    if proven:  # a proven row's values go on by its period: compare rows on as many
        head = _extend(head, int(row["preperiod"]), int(row["period"]), _ACROSS + 64)
    prefix = normalized(head, offsets)[:_ACROSS].astype("<u4").tobytes()
    return {"prefix": prefix, "frontier": made_again, "ordinary": ordinary}


def _fresh_frontier(code: str, reached: int, folder: str) -> np.ndarray:
    """g(0 .. reached-1) by a frontier run of verify's own in folder (going on from its
    checkpoint when one is there: a verification stopped and started again).  A run that
    cannot be made or read back fails the row saying so (not as a malformed row)."""
    try:
        frontier_run(code, reached, folder, threads=1, progress=False, head=FRONTIER_HEAD,
                     stop_at_proof=False)
        return frontier_values(folder, 0, reached)
    except ValueError as exc:
        raise _Failed(f"the fresh frontier run in {folder} failed: {exc}") from exc


def _rules(code: str) -> tuple[int, ...]:
    return tuple(parse_take_break_code(code, hex_ok=False).digits)


def _check_open(row: dict[str, Any], code: str, g: np.ndarray) -> None:
    """An open row: no proof within its values, its apparent period, its depth and cap."""
    _require(row["preperiod"] is None and row["theorem"] is None
             and row["certificate"]["bound"] is None,
             "a pre-period, theorem or bound without a proven period")
    _require(proof_of(g, _rules(code)) is None, "its values prove a period it does not state")
    seen = apparent_of(g)
    _require(row["apparent_period"] == (None if seen is None else seen[0]),
             f"the apparent period is {None if seen is None else seen[0]}")
    depth, reached = row["depth"], row["reached"]
    earlier = (depth, row["cap"]) == EARLIER_RULE    # a row of a census not yet deepened
    cap = earlier_cap(g, _rules(code)) if earlier else cap_for(g, _rules(code), depth)
    _require(row["cap"] == cap, f"the rule of census.depth caps it at {cap}, not {row['cap']}")
    _require(cap is None or reached == cap, f"reached {reached}, not its cap {cap}")
    if cap is not None:
        _require(row["engine"] == "dense", "a cap on another engine than 'dense'")
    else:
        _require(row["engine"] == engine_for(code, depth) or (
            row["engine"] == "memory" and engine_for(code, depth) == "frontier"
            and depth < reached), f"engine {row['engine']!r} is not the one for this depth")
        _require(reached == depth or depth < reached <= EXTEND * depth,
                 f"reached {reached} is neither its depth {depth} nor within its extension")


def _extend(g: np.ndarray, n0: int, p: int, size: int) -> np.ndarray:
    """g(0 .. size-1) from g and its (proven) period p from n0."""
    if len(g) >= size:
        return g
    n = np.arange(len(g), size)
    return np.concatenate([g, g[n0 + (n - n0) % p]])


def _recompute(code: str, reached: int, whole: bool, deadline: float,
               least: int = 0) -> np.ndarray:
    """g(0 .. reached-1) from a fresh game (whole: always all of them); else only as many (a
    power of two from 4096 on) as fit before the deadline, but at least least."""
    game = octal_game(code)
    if whole:
        return game.nim_values(reached)
    level, began = min(FIRST_LEVEL, reached), time.monotonic()
    values = game.nim_values(level)
    while level < reached:
        spent = time.monotonic() - began
        nxt = min(4 * level, reached)
        if level >= least and time.monotonic() + spent * ((nxt / level) ** 1.5 - 1) > deadline:
            break
        level = nxt
        values = game.nim_values(level)
    return values


def _check_period(row: dict[str, Any], code: str, g: np.ndarray) -> None:
    p, n0 = row["period"], row["preperiod"]
    _require(n0 is not None, "a period without a pre-period")
    bound = guy_smith_bound(code, n0, p)
    _require(row["certificate"]["bound"] == bound == len(g),
             f"the proof needs {bound} values, the row says {row['certificate']['bound']} and "
             f"reached {len(g)}")
    _require(np.array_equal(g[n0:bound - p], g[n0 + p:bound]),
             f"g(n + {p}) = g(n) fails for some {n0} <= n < {bound - p}")
    _require(n0 == 0 or g[n0 - 1] != g[n0 - 1 + p], f"the pre-period is less than {n0}")
    for d in range(1, p):
        if p % d == 0 and np.array_equal(g[n0:n0 + p], g[n0 + d:n0 + d + p]):
            raise _Failed(f"the period is {d} or less, not {p}")
    _require(row["apparent_period"] is None and row["cap"] is None,
             "an apparent period or a cap beside a proven period")
    _require(row["theorem"] == "the Guy-Smith octal periodicity theorem (Winning Ways ch. 4)",
             "not the theorem that proves it")


def _check_stats(row: dict[str, Any], g: np.ndarray) -> None:
    """The statistics recounted a piece at a time (a row may hold 2^30 values)."""
    largest, largest_at, zeros, last_zero = -1, 0, 0, 0
    for start, piece in pieces(g):
        i = int(np.argmax(piece))
        if int(piece[i]) > largest:
            largest, largest_at = int(piece[i]), start + i
        found = np.flatnonzero(piece == 0)
        zeros += len(found)
        last_zero = start + int(found[-1]) if found.size else last_zero
    _require(row["largest"] == largest and row["largest_at"] == largest_at,
             f"the largest value is {largest}, first at {largest_at}")
    _require(row["p_positions"] == zeros and row["last_p"] == last_zero,
             f"{zeros} P-positions, the last at {last_zero}")
    _require(row["first_values"] == g[:len(row["first_values"])].astype(int).tolist()
             and len(row["first_values"]) == min(32, len(g)), "first_values are not g(0..31)")
    rules = _rules(row["code"])
    if not any(d & 4 for d in rules):
        _require(row["rare_mask"] is None and row["rare_count"] is None and
                 row["last_rare"] is None and not row["rare_parity"],
                 "a sparse space for a game that never splits a heap")
        return
    _require(row["rare_mask"] is not None, "no rare mask for a game that splits heaps")
    mask = int(row["rare_mask"], 16) << 1 | int(bool(row["rare_parity"]))
    _require(mask == mask_of_values(g, rules), f"{row['rare_mask']} is not the mask making the "
             "fewest heap sizes rare")
    space = sparse_space(rules)
    assert space is not None
    count, last = 0, None
    for start, piece in pieces(g):
        rare = np.flatnonzero(rare_mask_of(piece, space, start, mask))
        count += len(rare)
        last = start + int(rare[-1]) if rare.size else last
    _require(row["rare_count"] == count, f"{count} rare values (heap 0 counted) under "
             f"mask {row['rare_mask']}, not {row['rare_count']}")
    _require(row["last_rare"] == last, f"the last rare value is at {last}")


def _check_members(row: dict[str, Any], g: np.ndarray, offsets: bool, deadline: float) -> None:
    code, members, kind = row["code"], row["members"], row["class"]
    seq = _Normalized(g, offsets)
    _require((kind == "single") == (len(members) == 1), "class 'single' with several members, "
             "or several members and class 'single'")
    if kind == "proved":
        _require(row["period"] is not None, "a class proved equal without a proven period")
    _require((row["equal_up_to"] is None) == (kind != "values"),
             "equal_up_to is stated exactly for a class of kind 'values'")
    compared = [len(seq)]
    for member, dead in zip(members, row["dead_heaps"]):
        if member == code:
            continue
        if kind == "proved":
            _check_proved_member(row, seq, member, int(dead), offsets)
            continue
        proven = row["period"] is not None
        mine = _member_values(member, member_depth(row["depth"], row["reached"], proven),
                              proven)
        _require((dead_heaps(mine) if offsets else 0) == dead, f"{member} has other dead heaps")
        other = normalized(mine, offsets)
        length = min(len(seq), len(other))
        compared.append(length)
        _require(np.array_equal(seq[:length], other[:length]),
                 f"member {member} differs from {code} within {length} heap sizes")
    if kind == "values":
        _require(row["equal_up_to"] == min(compared),
                 f"equal_up_to is {min(compared)} (the heap sizes compared), not "
                 f"{row['equal_up_to']}")


def _member_values(member: str, base: int, extend: bool) -> np.ndarray:
    """A member's values as a census takes them: to base heap sizes, to its proof's bound when
    one is within them, and (extend: the standard form is proven) to the bound of its
    apparent period when that is at most EXTEND times base."""
    rules = _rules(member)
    game = octal_game(member)
    mine = game.nim_values(base)
    found = proof_of(mine, rules)
    if found is None and extend:
        seen = apparent_of(mine)
        bound = None if seen is None else guy_smith_bound(member, seen[1], seen[0])
        if bound is not None and base < bound <= EXTEND * base:
            mine = game.nim_values(bound)
            found = proof_of(mine, rules)
    return mine if found is None else mine[:found[2]]


class _Normalized:
    """g with its dead heaps dropped (offsets), as uint32, made a prefix at a time: the whole
    of a 2^30-value row at once would take 4 GB."""

    def __init__(self, g: np.ndarray, offsets: bool) -> None:
        self.g, self.start = g, (dead_heaps(g[:_LEAD]) if offsets else 0)

    def __len__(self) -> int:
        return len(self.g) - self.start

    def __getitem__(self, part: slice) -> np.ndarray:
        return np.asarray(self.g[self.start:][part]).astype(np.uint32)


def _check_proved_member(row: dict[str, Any], seq: _Normalized, member: str, dead: int,
                         offsets: bool) -> None:
    """The member proven periodic by the theorem from its own values, with the class's
    period, and equal to the standard form up to the larger pre-period plus the period."""
    p, n0 = int(row["period"]), int(row["preperiod"])
    rep_dead = row["dead_heaps"][row["members"].index(row["code"])]
    upper = max(n0 - rep_dead, 0) + dead
    size = guy_smith_bound(member, upper, p)
    mine = octal_game(member).nim_values(size)
    _require((dead_heaps(mine) if offsets else 0) == dead, f"{member} has other dead heaps")
    differ = np.flatnonzero(mine[: size - p] != mine[p:size])
    n0m = int(differ[-1]) + 1 if differ.size else 0
    _require(guy_smith_bound(member, n0m, p) <= size,
             f"member {member} is not proven periodic with period {p}")
    other = normalized(mine, offsets)
    needed = max(n0 - rep_dead, n0m - dead, 0) + p
    _require(len(other) >= needed and len(seq) >= needed
             and np.array_equal(seq[:needed], other[:needed]),
             f"member {member} differs from {row['code']} within {needed} heap sizes")
