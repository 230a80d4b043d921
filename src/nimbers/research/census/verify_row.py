"""One census row re-checked by an engine independent of the one that made it.

- A row the **ordinary engine** made (in memory: the proven rows to 653,570 values, the dense
  rows' 2^17 or 2^20) is made again by it from a fresh game, for every claim, and a second time by
  another algorithm: the exact scan (every split looked at, no sparse space) up to
  EXACT_UP_TO values, past that a fresh **frontier run** whose head is only HEAD_OF_CHECK
  values, so that everything past it comes from the frontier engine's blocks, coverage and
  values file -- C code the ordinary engine does not share.  The two must agree on every value.
- A row the **frontier engine** made (past 2^20 heap sizes) is made again by the **ordinary
  engine**, which shares none of the frontier engine's blocks, lag parts, checkpoints or files:
  a proven row to its proof's bound; an open row to ``until`` values, or as far as its share of
  the time budget allows but at least ORDINARY_LEAST, and compared with the digest the census
  recorded of that prefix (its chain, ``certificate.checkpoints``), every claim checked as far as
  the prefix decides it (:mod:`.verify_claims`).  ``full``: the rest of its values too, by a
  fresh frontier run of verify's own (the census's own engine, so then only the ordinary
  engine's prefix is independent).

>>> from nimbers.research.census.compute import solve_class
>>> row, = solve_class(["0.77"], 4096)
>>> done = check_row(row, 10.0, True)
>>> done["error"] is None, done["against"]
(True, 'all 168 values by the ordinary engine and by the exact scan')
"""

from __future__ import annotations

import os
import tempfile
import time
from typing import Any

import numpy as np

from ...games.heap import octal_game
from ...games.heap.stats import sparse_space
from ..frontier import frontier_run, frontier_values
from .classes import canonical, dead_heaps, normalized, standard_form
from .compute import FIRST_LEVEL, first_difference
from .depth import FRONTIER_FROM, FRONTIER_HEAD, DepthRule, digests
from .schema import malformed
from .verify_claims import (LEAD, ValuesOf, _check_lists, _check_members, _check_open,
                            _check_period, _check_stats, _check_stats_prefix, _extend, _Failed,
                            _ordinary, _require, _rules)

__all__ = ["check_row", "whole", "ordinary_least", "ORDINARY_LEAST", "EXACT_UP_TO"]

#: values also computed by the exact scan (every split looked at): the second engine of a
#: row the ordinary engine made, up to here (2^14: a tenth of a second)
EXACT_UP_TO = 1 << 14
#: the first values of every row also by the exact scan
EXACT_PREFIX = 2048
#: the head of verify's own frontier runs of rows the ordinary engine made: past it, every
#: value comes from the frontier engine's blocks
HEAD_OF_CHECK = 1 << 12
#: normalized values compared across rows (two rows that agree on them are one class)
ACROSS = 4096 - 16
#: the most heap sizes a row may claim when its census.json says no depth
MOST = 1 << 32
#: a frontier row's first values recomputed by the ordinary engine whatever the budget (four
#: times the frontier engine's in-memory head: its block engine is compared too)
ORDINARY_LEAST = 4 * FRONTIER_HEAD


def check_row(row: Any, seconds: float, offsets: bool, most: int = MOST,
              runs: str | None = None, *, full: bool = False, until: int | None = None,
              lists: str | None = None, rule: DepthRule | None = None) -> dict[str, Any]:
    """One row re-checked: {"error": None or what is wrong, "prefix": its first normalized
    values as bytes, "checked": how many values were made again, "against": what they were
    checked against, in words, "frontier": whether a fresh frontier run made them all,
    "ordinary": how many the ordinary engine made, "cpu" and "wall": the CPU seconds of the
    process that checked it and the seconds it took}.

    seconds: the row's share of the time budget (an open row the frontier engine made goes as
    deep as it allows); most: the most heap sizes the census may have reached; runs: where
    verify's own frontier runs go (None: a temporary directory); full: an open frontier row's
    values all made again (a fresh frontier run past the ordinary engine's); until: at most
    this many values (a power of two in the row's chain); lists: a folder of the open classes'
    rare and record lists (results/census/lists) to compare the claims with; rule: the depth
    rule of the row's census (:func:`.table.census_rule`; default the three-digit rule),
    under which its cap and its members' depth are derived again."""
    cpu, began = time.process_time(), time.monotonic()
    done = _checked(row, began + seconds, offsets, most, runs, full, until, lists, rule)
    return {**done, "cpu": time.process_time() - cpu, "wall": time.monotonic() - began}


def _checked(row: Any, deadline: float, offsets: bool, most: int, runs: str | None,
             full: bool, until: int | None, lists: str | None,
             rule: DepthRule | None) -> dict[str, Any]:
    """check_row's result without its timing."""
    failed = {"error": None, "prefix": b"", "frontier": False, "ordinary": 0, "checked": 0,
              "against": ""}
    try:
        wrong = malformed(row)
        if wrong:
            raise _Failed(f"a malformed row: {wrong}")
        return {"error": None, **_check(row, deadline, offsets, most, runs, full, until, lists,
                                        rule)}
    except _Failed as exc:
        return {**failed, "error": str(exc)}
    except (KeyError, TypeError, ValueError, AttributeError, RecursionError) as exc:
        return {**failed, "error": f"not a well-formed row ({type(exc).__name__}: {exc})"}


def whole(row: Any) -> bool:
    """Whether the ordinary engine recomputes all of a row's values whatever the budget: a
    proven row (to its proof's bound) and a capped one judged in memory (its cap, at most
    FRONTIER_FROM = 2^20 values: a minute or two; a larger cap, judged on the frontier engine,
    goes by the budget)."""
    if not isinstance(row, dict):
        return False
    cap = row.get("cap")
    return row.get("period") is not None or (
        isinstance(cap, int) and cap <= FRONTIER_FROM and row.get("reached") == cap)


def _identity(row: dict[str, Any], offsets: bool, most: int) -> None:
    code, members = row["code"], row["members"]
    for name, codes in (("code", [code]), ("members", members)):
        try:
            spelled = [canonical(c) for c in codes]
        except ValueError as exc:       # a code of no game ('0.0' allows no move)
            raise _Failed(f"{name}: {exc}") from None
        _require(spelled == codes, f"{name}: a code not in the census's spelling")
    _require(code in members and standard_form(members) == code,
             f"code {code}: the standard form of its members {members} is "
             f"{standard_form(members)}")
    _require(len(set(members)) == len(members), "members: a member twice")
    _require(len(row["dead_heaps"]) == len(members), "dead_heaps does not match members")
    reached, cert = row["reached"], row["certificate"]
    _require(cert["values"] == reached, f"certificate values {cert['values']} is not reached "
             f"{reached}")
    _require(reached <= most, f"reached {reached} is past the census's depth (at most {most} "
             "heap sizes)")
    _require(cert["offsets"] == offsets, "certificate: offsets is not the census's")


def _check(row: dict[str, Any], deadline: float, offsets: bool, most: int, runs: str | None,
           full: bool, until: int | None, lists: str | None,
           rule: DepthRule | None) -> dict[str, Any]:
    _identity(row, offsets, most)
    code, reached = row["code"], row["reached"]
    by_frontier = row["engine"] == "frontier"
    target = reached if until is None else min(until, reached)
    if until is not None:
        values = octal_game(code).nim_values(target)
    else:
        values = _recompute(code, reached, whole(row) or (full and not by_frontier), deadline,
                            least=ordinary_least(reached) if by_frontier else 0)
    ordinary, made_again = len(values), False
    against = f"all {ordinary:,} values by the ordinary engine"
    if ordinary == reached and not by_frontier:
        against += " and by " + _second_engine(code, values, runs)
    elif by_frontier and full and ordinary < reached:
        fresh = _fresh_frontier(code, reached, _folder(runs, code), FRONTIER_HEAD)
        differ = first_difference(values, 0, fresh, 0, min(ordinary, len(fresh)))
        _require(differ == ordinary, "the ordinary engine and a fresh frontier run differ at "
                 f"heap {differ}")
        values, made_again = fresh, True
        against = (f"all {reached:,} values by a fresh frontier run, the first {ordinary:,} by "
                   "the ordinary engine too")
    elif by_frontier and ordinary < reached:
        against = (f"g(0..{ordinary - 1}) by the ordinary engine, equal to the digest the "
                   f"census recorded of them; the {reached - ordinary:,} values past them not "
                   "made again (--full makes them)")
    _require(len(values) == target or (by_frontier and until is None),
             f"only g(0..{len(values) - 1}) of its {reached} values could be recomputed within "
             "the budget: nothing is taken on trust, run verify with a larger --budget")
    if len(values) < reached:
        _check_prefix(row, values, offsets, deadline, runs, rule)
    else:
        _check_all(row, values, offsets, deadline, runs, rule)
    if lists is not None:
        _check_lists(row, values, lists)
    head = np.asarray(values[:ACROSS + LEAD])
    if row["period"] is not None and len(values) == reached:  # on by its period: compare
        head = _extend(head, int(row["preperiod"]), int(row["period"]), ACROSS + 64)
    prefix = normalized(head, offsets)[:ACROSS].astype("<u4").tobytes()
    return {"prefix": prefix, "frontier": made_again, "ordinary": ordinary,
            "checked": len(values), "against": against}


def _folder(runs: str | None, code: str) -> str:
    return os.path.join(runs, code) if runs is not None else ""


def _second_engine(code: str, values: np.ndarray, runs: str | None) -> str:
    """values made again by another algorithm (the exact scan, or a frontier run with a small
    head); what it was, in words."""
    n = len(values)
    if n <= EXACT_UP_TO:
        other = octal_game(code).nim_values(n, method="exact")
        name = "the exact scan"
    else:
        other = _frontier_values(code, n, runs)
        name = f"a fresh frontier run (its blocks past {HEAD_OF_CHECK:,})"
    differ = first_difference(values, 0, other, 0, n)
    _require(differ == n, f"the ordinary engine and {name} differ at heap {differ}")
    return name


def _check_all(row: dict[str, Any], values: np.ndarray, offsets: bool, deadline: float,
               runs: str | None, rule: DepthRule | None) -> None:
    """Every claim of the row, on all its values."""
    code, cert, reached = row["code"], row["certificate"], row["reached"]
    sha, marks = digests(values)
    _require(sha == cert["sha256"], f"certificate sha256: the SHA-256 of g(0..{reached - 1}) "
             "differs: the values are not the ones computed here")
    _require(marks == cert["checkpoints"],
             "certificate checkpoints: not the digests of the first 2^k values")
    _check_head(row, values, offsets)
    if row["period"] is not None:
        _check_period(row, code, values)
    else:
        _check_open(row, code, values, rule=rule)
    _check_stats(row, values)
    _check_members(row, values, offsets, deadline, values_of=_members_engine(row, runs),
                   rule=rule)


def _check_prefix(row: dict[str, Any], values: np.ndarray, offsets: bool,
                  deadline: float, runs: str | None, rule: DepthRule | None) -> None:
    """The claims of the row as far as g(0..n-1) decides them, its digest the chain's."""
    n, cert = len(values), row["certificate"]
    recorded = cert["checkpoints"]
    _require(str(n) in recorded, f"no digest of g(0..{n - 1}) is recorded (its checkpoints: the "
             "powers of two from 2^12 below the heap sizes it reached)")
    sha, marks = digests(values)
    _require(recorded[str(n)] == sha and all(recorded.get(k) == v for k, v in marks.items()),
             f"certificate checkpoints: not the digests of the first 2^k values (to {n:,})")
    _check_head(row, values, offsets)
    if row["period"] is None:
        _check_open(row, row["code"], values, prefix=True, rule=rule)
    _check_stats_prefix(row, values)
    _check_members(row, values, offsets, deadline, prefix=True,
                   values_of=_members_engine(row, runs), rule=rule)


def _members_engine(row: dict[str, Any], runs: str | None) -> ValuesOf:
    """How a member's values are made again: the census made them by the ordinary engine (to
    its rule's member_depth, 2^20 at most), so past EXACT_UP_TO values by a frontier run with a small
    head when the member has a sparse space (twice as fast, and the other engine)."""
    if row["engine"] != "frontier" or row["period"] is not None:
        return _ordinary

    def values_of(code: str, n: int) -> np.ndarray:
        if n <= EXACT_UP_TO or sparse_space(_rules(code)) is None:
            return _ordinary(code, n)
        return _frontier_values(code, n, runs)
    return values_of


def _frontier_values(code: str, n: int, runs: str | None) -> np.ndarray:
    """g(0..n-1) by a frontier run of verify's own with a small head (in runs/code, or a
    temporary folder)."""
    if runs is None:
        with tempfile.TemporaryDirectory(prefix="nimbers-verify-") as folder:
            return np.array(_fresh_frontier(code, n, folder, HEAD_OF_CHECK))
    return _fresh_frontier(code, n, os.path.join(runs, code), HEAD_OF_CHECK)


def _check_head(row: dict[str, Any], values: np.ndarray, offsets: bool) -> None:
    code = row["code"]
    exact = octal_game(code).nim_values(min(len(values), EXACT_PREFIX), method="exact")
    _require(np.array_equal(exact, values[:len(exact)]), "the exact scan disagrees")
    dead = dead_heaps(values[:LEAD]) if offsets else 0
    _require(row["dead_heaps"][row["members"].index(code)] == dead,
             f"dead_heaps: {code} has {dead} dead heaps")


def _fresh_frontier(code: str, reached: int, folder: str, head: int) -> np.ndarray:
    """g(0 .. reached-1) by a frontier run of verify's own in folder (going on from its
    checkpoint when one is there: a verification stopped and started again).  A run that
    cannot be made or read back fails the row saying so (not as a malformed row)."""
    try:
        frontier_run(code, reached, folder, threads=1, progress=False, head=head,
                     stop_at_proof=False)
        return frontier_values(folder, 0, reached)
    except ValueError as exc:
        raise _Failed(f"the fresh frontier run in {folder} failed: {exc}") from exc


def ordinary_least(reached: int) -> int:
    """The values of an open frontier row the ordinary engine makes again whatever the budget:
    ORDINARY_LEAST, or for a row not past it the largest power of two below its reached that
    is still past the census's frontier head (2^21 of a 2^22 row: the head's values came from
    the ordinary engine too, so only those past it compare two engines; all 2^22 would take the
    ordinary engine an hour on the formerly dense rows, .344 and 4.327), else all of them."""
    if reached > ORDINARY_LEAST:
        return ORDINARY_LEAST
    half = 1 << ((reached - 1).bit_length() - 1)
    return half if half > FRONTIER_HEAD else reached


def _recompute(code: str, reached: int, everything: bool, deadline: float,
               least: int = 0) -> np.ndarray:
    """g(0 .. reached-1) from a fresh game (everything: always all of them); else least (a
    power of two, at least 4096) or as many as fit before the deadline, four times more at a
    time (each a power of two the row's chain records, or all of them)."""
    game = octal_game(code)
    if everything:
        return game.nim_values(reached)
    level, began = min(max(FIRST_LEVEL, least), reached), time.monotonic()
    values = game.nim_values(level)
    while level < reached:
        spent = time.monotonic() - began
        nxt = min(4 * level, reached)
        if time.monotonic() + spent * ((nxt / level) ** 1.5 - 1) > deadline:
            break
        level = nxt
        values = game.nim_values(level)     # the game keeps its values: it goes on from them
    return values
