"""Misère columns for the census: the misère quotients Q_1, Q_2, ... of each class's standard
form (Plambeck and Siegel, "Misère quotients for impartial games", JCTA 115 (2008)), as far
as the class's bounds allow, on this machine's cores or a dask cluster (the census's
executor, :mod:`.pool`), resumable.

Each class gets the same two bounds, written in its row so that the table never depends on
the machine's load: a heap bound (Q_n for n up to max_heap) and an order cap (no quotient of
more than max_order elements is kept; candidates may grow to twice that on the way).  A row
says how far the search went (reached), the orders |Q_1| .. |Q_reached|, for the last its
order, the size of its P-portion and whether it is tame (misère Nim's quotients), and,
where it stopped before the heap bound, why: the order of Q_n past the cap (proved, or
certified by exact outcomes), a candidate past the working order (twice the cap) or a
recalibration the search could not find within it (both with the order exact outcomes
certify), or (a safety net only, never expected: TASK_SECONDS) the time.  Proved:
Q_reached; and "whole": whether Q_reached is the quotient of the whole game by the
periodicity theorem of Plambeck and Siegel (:mod:`nimbers.games.quotient.whole`: then the
search stopped at the heap where it closed, and the row gives the period and pre-period of
the pretending function), or why not.

The classes are the census's (:mod:`.classes`: codes whose normal-play Grundy sequences agree
once the dead heap sizes are dropped, named by their standard form).  Misère play can tell
members of one class apart; the quotient here is the standard form's.

Rows go to DIR/misere.jsonl, one line each, written by one ``write`` and ``fsync``, so a run
killed at any moment leaves whole rows (a torn last line is dropped on the next run), and a
run again computes only the classes with no row for these bounds.  The pool's processes die
with the census (:mod:`.pool`).

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as d:
...     rows = misere_census(codes=["0.75", ".07"], out=d, max_heap=10, workers=1)
>>> [(r["code"], r["reached"], r["order"], r["p_size"], r["tame"]) for r in rows]
[('0.07', 10, 12, 3, False), ('0.75', 10, 8, 2, False)]
"""

from __future__ import annotations

import concurrent.futures as cf
import os
import time
from typing import Any, Callable, Sequence

from ...files import append_jsonl, read_jsonl
from ...games.heap import octal_game
from ...games.quotient import misere_quotient
from .classes import canonical, codes_up_to, dead_heaps, normalized, sequence_digest, \
    standard_form, standard_key
from .pool import as_done, executor

__all__ = ["misere_census", "read_misere_rows", "solve_misere", "check_rows", "recheck",
           "MISERE_TABLE",
           "DEFAULT_MAX_HEAP", "DEFAULT_MAX_ORDER", "TASK_SECONDS"]

MISERE_TABLE = "misere.jsonl"
#: the heap bound of every class unless told otherwise
DEFAULT_MAX_HEAP = 30
#: the order cap of every class unless told otherwise
DEFAULT_MAX_ORDER = 2048
#: a class's time, a safety net only: rows it cut are marked "time" and computed again
TASK_SECONDS = 1800.0
#: heap sizes of the normal-play survey that forms the classes
SURVEY_VALUES = 1024
_DEAD_ROOM = 16


def misere_census(digits: int | None = None, *, codes: Sequence[str] | None = None,
                  out: str, max_heap: int = DEFAULT_MAX_HEAP,
                  max_order: int = DEFAULT_MAX_ORDER, workers: int | None = None,
                  classes: Sequence[Sequence[str]] | None = None,
                  each: bool = False, scheduler: str | None = None) -> list[dict[str, Any]]:
    """The misère quotients of every class of the census (codes with up to digits digits,
    or the given codes, or the given classes; with each=True every code is a class of its
    own), each to max_heap within max_order; rows appended to out/misere.jsonl.  Returns
    the row of every class asked for, in the order of the standard forms.  workers: the
    processes of the local pool (default: the cores); scheduler: tcp://HOST:PORT of a dask
    cluster instead (``pip install 'nimbers[cluster]'``).

    Raises
    ------
    ValueError
        no codes or a bad one, bad bounds, a damaged table.
    """
    _check_bound("max_heap", max_heap, 1, 100_000)
    _check_bound("max_order", max_order, 2, 1 << 20)
    os.makedirs(out, exist_ok=True)
    done = {r["code"]: r for r in read_misere_rows(out) if _covers(r, max_heap, max_order)}
    wanted = None if classes is not None else _wanted(digits, codes)
    if wanted is not None and each:
        classes, wanted = [[c] for c in wanted], None
    if workers is not None:
        _check_bound("workers", workers, 1, 4096)
    with executor(workers, scheduler) as (ex, _slots, alive):
        groups = [list(g) for g in classes or ()] if wanted is None else _classes(wanted, ex)
        todo = [g for g in groups if standard_form(g) not in done]
        futures = [ex.submit(solve_misere, g, max_heap, max_order) for g in todo]
        for future in as_done(futures, alive):
            row = future.result()
            _append(out, row)
            done[row["code"]] = row
    return sorted((done[standard_form(g)] for g in groups),
                  key=lambda r: standard_key(r["code"]))


def _check_bound(name: str, v: Any, least: int, most: int) -> None:
    if isinstance(v, bool) or not isinstance(v, int) or not least <= v <= most:
        raise ValueError(f"{name} is an int from {least} to {most}, got {v!r}")


def _covers(row: dict[str, Any], max_heap: int, max_order: int) -> bool:
    """A row answers these bounds: the same order cap, a heap bound at least as large, not
    cut by the time, and made with the whole-game column (older rows are made again)."""
    return (row.get("max_order") == max_order and row.get("max_heap", 0) >= max_heap
            and row.get("stopped") != "time" and "whole" in row)


def _wanted(digits: int | None, codes: Sequence[str] | None) -> list[str]:
    if (digits is None) == (codes is None):
        raise ValueError("give digits or codes (one of them)")
    if digits is not None:
        return codes_up_to(digits)
    if isinstance(codes, str):
        raise TypeError("codes is a sequence of codes, not one string")
    assert codes is not None
    wanted = sorted({canonical(c) for c in codes}, key=standard_key)
    if not wanted:
        raise ValueError("no codes to take a census of")
    return wanted


def survey(codes: list[str]) -> list[tuple[str, str]]:
    """(code, digest of its normal-play Grundy sequence, dead heaps dropped) for each code:
    what groups the codes into the census's classes."""
    out = []
    for code in codes:
        values = octal_game(code).nim_values(SURVEY_VALUES)
        seq = normalized(values)[:SURVEY_VALUES - _DEAD_ROOM]
        out.append((code, sequence_digest(seq)))
    return out


def _classes(codes: list[str], ex: cf.Executor) -> list[list[str]]:
    batches = [codes[i:i + 64] for i in range(0, len(codes), 64)]
    groups: dict[str, list[str]] = {}
    for found in ex.map(survey, batches):
        for code, digest in found:
            groups.setdefault(digest, []).append(code)
    return sorted(groups.values(), key=lambda g: standard_key(standard_form(g)))


def solve_misere(members: Sequence[str], max_heap: int, max_order: int,
                 seconds: float = TASK_SECONDS) -> dict[str, Any]:
    """One class's row: the quotients of its standard form to max_heap within max_order."""
    code = standard_form(members)
    game = octal_game(code)
    began = time.monotonic()
    q = misere_quotient(game, max_heap, max_order=max_order, time_limit=seconds)
    ev = q.evidence()
    return {"code": code, "members": sorted(members, key=standard_key),
            "dead_heaps": dead_heaps(game.nim_values(64)),
            "max_heap": max_heap, "max_order": max_order, "reached": q.max_heap,
            "orders": list(q.orders), "order": q.order, "p_size": len(q.p_portion),
            "generators": len(q.generators), "tame": ev.tame,
            "unchanged_from": ev.unchanged_from, "period": list(ev.period) if ev.period else None,
            "stopped": _stopped(q.gave_up), "why": q.gave_up, "whole": q.whole.to_json(),
            "seconds": round(time.monotonic() - began, 3)}


#: the kinds of stop a row may give (None: it reached the heap bound, or closed)
STOPS = (None, "time", "order past the cap", "order cap", "recalibration", "other")


def _stopped(gave_up: str | None) -> str | None:
    """The kind of stop: "order past the cap" (|Q_n| > max_order, proved or certified: a
    true reason), "order cap" (a candidate outgrew the working order, |Q_n| undecided),
    "recalibration" (none found within it), or "time" (the safety net)."""
    if gave_up is None:
        return None
    if "time cap" in gave_up:
        return "time"
    if "exceeds max_order" in gave_up:
        return "order past the cap"
    if "recalibration" in gave_up:      # none found, or none proved after the most allowed
        return "recalibration"
    if "working order" in gave_up:
        return "order cap"
    return "other"


# ---- the table -------------------------------------------------------------------------

def read_misere_rows(directory: str) -> list[dict[str, Any]]:
    """The rows of DIR/misere.jsonl in file order (the last of a class counts); a torn last
    line (a kill during its write) is dropped and cut from the file; any other bad line, or
    a row missing a field or holding one of the wrong kind (:func:`row_problem`), is an
    error naming it."""
    path = os.path.join(directory, MISERE_TABLE)
    rows = read_jsonl(path, "row of the misère census", 1 << 30)
    for number, row in enumerate(rows, 1):
        problem = row_problem(row)
        if problem:
            raise ValueError(f"{path}, line {number}: not a row of the misère census "
                             f"({problem})")
    return rows


def _ints(v: Any) -> bool:
    return isinstance(v, list) and all(_int(x) for x in v)


def _int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def _text(v: Any) -> bool:
    return v is None or isinstance(v, str)


#: every field of a row and what it must hold ("whole" may be missing in rows made before
#: it: they are made again by a run, and refused by a check)
ROW_FIELDS: dict[str, Callable[[Any], bool]] = {
    "code": lambda v: isinstance(v, str), "members": lambda v: isinstance(v, list) and bool(v)
    and all(isinstance(c, str) for c in v), "dead_heaps": _int, "max_heap": _int,
    "max_order": _int, "reached": _int, "orders": _ints, "order": _int, "p_size": _int,
    "generators": _int, "tame": lambda v: isinstance(v, bool), "unchanged_from": _int,
    "period": lambda v: v is None or (_ints(v) and len(v) == 2), "stopped": _text,
    "why": _text, "seconds": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool)}
_WHOLE_FIELDS: dict[str, Callable[[Any], bool]] = {
    "proved": lambda v: isinstance(v, bool), "why": lambda v: isinstance(v, str),
    "period": lambda v: v is None or _int(v), "preperiod": lambda v: v is None or _int(v),
    "closed_at": lambda v: v is None or _int(v)}


def row_problem(row: Any) -> str | None:
    """What is wrong with a row's shape (a missing field, one of the wrong kind, figures
    that disagree with each other), or None."""
    if not isinstance(row, dict):
        return "not an object"
    for name, ok in ROW_FIELDS.items():
        if name not in row:
            return f"no {name!r}"
        if not ok(row[name]):
            return f"{name!r} is {row[name]!r:.60}"
    if "whole" in row:
        w = row["whole"]
        if not isinstance(w, dict) or set(w) != set(_WHOLE_FIELDS) or not all(
                ok(w[k]) for k, ok in _WHOLE_FIELDS.items()):
            return "'whole' is not an object of proved, why, period, preperiod, closed_at"
    if row["stopped"] not in STOPS:
        return f"'stopped' is {row['stopped']!r:.60}, not one of {sorted(map(str, STOPS))}"
    if len(row["orders"]) != row["reached"] or row["reached"] > row["max_heap"]:
        return "its orders are not one per heap up to reached, within the heap bound"
    if row["orders"] and row["orders"][-1] != row["order"]:
        return "its order is not the last of its orders"
    if row["code"] not in row["members"]:
        return "its code is not among its members"
    return None


def check_rows(rows: Sequence[dict[str, Any]]) -> None:
    """ValueError unless the rows' members are the census's classes: each member of a row
    has its code's normal-play sequence (dead heaps dropped) and no two rows share one
    sequence, unless every row is a single code (``--each-code``)."""
    if all(r["members"] == [r["code"]] for r in rows):
        return
    seen: dict[str, str] = {}
    for r in rows:
        digests = dict(survey(list(r["members"])))
        for member, digest in digests.items():
            if digest != digests[r["code"]]:
                raise ValueError(f"the class {r['code']}: its member {member} has another "
                                 "normal-play sequence")
            if seen.setdefault(digest, r["code"]) != r["code"]:
                raise ValueError(f"the classes {seen[digest]} and {r['code']} have one "
                                 "normal-play sequence: they are one class")
        if standard_form(r["members"]) != r["code"]:
            raise ValueError(f"the class {r['code']}: its standard form is "
                             f"{standard_form(r['members'])}")


def recheck(row: dict[str, Any]) -> list[str]:
    """The fields of a row that differ when it is computed again with its own bounds (a row
    cut by the time is computed again to the heap it reached: all it claims is checked);
    [] when none."""
    timed = row["stopped"] == "time"
    again = solve_misere(row["members"], row["reached"] if timed else row["max_heap"],
                         row["max_order"])
    if "whole" not in row:
        return ["whole (the row was made before that column)"]
    skip = {"seconds"} | ({"max_heap", "stopped", "why"} if timed else set())
    bad = [k for k in again if k not in skip and k != "whole" and row.get(k) != again[k]]
    keep = ("proved",) if timed else tuple(again["whole"])
    if any(row["whole"].get(k) != again["whole"][k] for k in keep):
        bad.append("whole")
    return bad


def _append(directory: str, row: dict[str, Any]) -> None:
    append_jsonl(os.path.join(directory, MISERE_TABLE), row)
