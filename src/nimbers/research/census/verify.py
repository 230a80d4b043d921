"""``verify_census(DIR)``: every row of a census table re-checked from scratch, independently of
the run that wrote it -- fresh games, the values recomputed by the ordinary engine (the first
2048 also by the exact scan), the periodicity checked against the Guy-Smith condition with
numpy rather than by the engine's period search, the statistics recounted, every member of a
class recomputed and compared, and the classes checked to be different games.

A proven row is recomputed to its proof's bound, always.  An open row is recomputed as far
as its share of the time budget allows: to the heap size it reached, or to the deepest
checkpoint (the digest of the first 2^k values) within reach.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...games.codes import parse_take_break_code
from ...games.heap import octal_game
from ...games.heap.stats import rare_mask_of, sparse_space
from .classes import canonical, dead_heaps, normalized, sequence_digest, standard_form
from .compute import FIRST_LEVEL
from .run import executor
from .table import META, TABLE, covered_codes, read_meta, read_rows

__all__ = ["verify_census", "CensusError", "Verified", "check_row", "guy_smith_bound"]

#: values also computed by the exact scan (every split looked at), a second path through the C
#: engine
EXACT_PREFIX = 2048
#: normalized values compared across rows (two rows that agree on them are one class)
_ACROSS = 4096 - 16


class CensusError(ValueError):
    """A census table that fails verification: the message names the first failing row."""


@dataclass(frozen=True)
class Verified:
    """What verify_census checked: rows, proven ones (each to its proof's bound), open ones
    recomputed to the heap size reached, and open ones checked to a checkpoint below it."""

    rows: int
    proven: int
    open_full: int
    open_partial: int

    def __str__(self) -> str:
        return (f"{TABLE}: {self.rows} rows verified: {self.proven} proven (each to its "
                f"proof's bound), {self.open_full + self.open_partial} open "
                f"({self.open_full} to the heap size reached, {self.open_partial} to a "
                "checkpoint below it)")


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
                  scheduler: str | None = None) -> Verified:
    """Re-checks every row of directory/census.jsonl (see the module docstring).

    Parameters
    ----------
    directory : str
    budget : float
        Seconds the open rows may take (proven rows are always checked in full).
    workers, scheduler
        As for :func:`census`.

    Returns
    -------
    Verified

    Raises
    ------
    CensusError
        A row fails: the message names the first (by line) and what is wrong.
    ValueError
        No table there.
    """
    rows = read_rows(directory, repair=False)
    if not rows:
        raise ValueError(f"{directory}: no census table ({TABLE}) to verify")
    meta = read_meta(directory) or {}
    offsets = bool(meta.get("offsets", True))
    opened = sum(1 for r in rows if r.get("period") is None)
    with executor(workers, scheduler) as (pool, slots):
        share = 0.7 * budget * slots / max(1, opened)
        futures = [pool.submit(check_row, row, share, offsets) for row in rows]
        results = [f.result() for f in futures]
    failures = [(i, r["error"]) for i, r in enumerate(results) if r["error"]]
    if failures:
        i, error = failures[0]
        raise CensusError(f"row {i + 1} ({_code(rows[i])}): {error}")
    _across(rows, results, meta)
    proven = sum(1 for r in rows if r.get("period") is not None)
    full = sum(1 for row, r in zip(rows, results) if row.get("period") is None and r["full"])
    return Verified(len(rows), proven, full, len(rows) - proven - full)


def _code(row: Any) -> str:
    return str(row.get("code")) if isinstance(row, dict) else "?"


def _across(rows: list[dict[str, Any]], results: list[dict[str, Any]], meta: dict[str, Any]) -> None:
    """No code in two rows, no two rows the same game as far as both were computed, and every
    code the census was asked for has its row."""
    seen: dict[str, int] = {}
    for i, row in enumerate(rows):
        for code in row["members"]:
            if code in seen:
                raise CensusError(f"row {i + 1} ({row['code']}): {code} is in row "
                                  f"{seen[code] + 1} too")
            seen[code] = i
    shortest = min(len(r["prefix"]) for r in results)
    by_start: dict[bytes, int] = {}
    for i, r in enumerate(results):
        j = by_start.setdefault(r["prefix"][:shortest], i)
        if j != i:
            common = min(len(r["prefix"]), len(results[j]["prefix"]))
            if r["prefix"][:common] == results[j]["prefix"][:common]:
                raise CensusError(f"row {i + 1} ({rows[i]['code']}): the same sequence as row "
                                  f"{j + 1} ({rows[j]['code']}) for {common // 4} heap sizes: "
                                  "one class")
    missing = sorted(set(meta.get("codes", ())) - covered_codes(rows))
    if missing:
        raise CensusError(f"{META}: {len(missing)} codes have no row (the census is not "
                          f"finished: run it again), the first {missing[0]}")


def check_row(row: Any, seconds: float, offsets: bool) -> dict[str, Any]:
    """One row re-checked: {"error": None or what is wrong, "full": whether the values were
    recomputed to the heap size reached, "prefix": its first normalized values as bytes}."""
    try:
        full, prefix = _check(row, time.monotonic() + seconds, offsets)
    except _Failed as exc:
        return {"error": str(exc), "full": False, "prefix": b""}
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        return {"error": f"not a well-formed row ({type(exc).__name__}: {exc})", "full": False,
                "prefix": b""}
    return {"error": None, "full": full, "prefix": prefix}


def _require(ok: Any, message: str) -> None:
    if not ok:
        raise _Failed(message)


def _check(row: dict[str, Any], deadline: float, offsets: bool) -> tuple[bool, bytes]:
    code, members = row["code"], row["members"]
    _require(isinstance(members, list) and members, "no members")
    _require(code == canonical(code) and all(m == canonical(m) for m in members),
             "a code not in the census's spelling")
    _require(code in members and standard_form(members) == code,
             f"the standard form of {members} is {standard_form(members)}, not {code}")
    _require(len(row["dead_heaps"]) == len(members), "dead_heaps does not match members")
    reached, cert = int(row["reached"]), row["certificate"]
    _require(reached >= 1 and cert["values"] == reached, "certificate: values is not reached")
    proven = row["period"] is not None
    values = _recompute(code, reached, proven, deadline)
    full = len(values) == reached
    if full:
        _require(sequence_digest(values) == cert["sha256"], f"the SHA-256 of g(0..{reached - 1}) "
                 "differs: the values are not the ones computed here")
    else:
        _require(cert["checkpoints"].get(str(len(values))) == sequence_digest(values),
                 f"the checkpoint at {len(values)} values differs")
    exact = octal_game(code).nim_values(min(len(values), EXACT_PREFIX), method="exact")
    _require(np.array_equal(exact, values[:len(exact)]), "the exact scan disagrees")
    dead = dead_heaps(values) if offsets else 0
    _require(row["dead_heaps"][members.index(code)] == dead, f"{code} has {dead} dead heaps")
    if proven:
        _check_period(row, code, values)
    else:
        _require(row["preperiod"] is None and row["theorem"] is None,
                 "a pre-period or theorem without a proven period")
    if full:
        _check_stats(row, values)
    _check_members(row, values, offsets, deadline)
    if proven:  # a proven row's values go on by its period: compare rows on as many
        values = _extend(values, int(row["preperiod"]), int(row["period"]), _ACROSS + 64)
    return full, normalized(values, offsets)[:_ACROSS].astype("<u4").tobytes()


def _extend(g: np.ndarray, n0: int, p: int, size: int) -> np.ndarray:
    """g(0 .. size-1) from g and its (proven) period p from n0."""
    if len(g) >= size:
        return g
    n = np.arange(len(g), size)
    return np.concatenate([g, g[n0 + (n - n0) % p]])


def _recompute(code: str, reached: int, proven: bool, deadline: float) -> np.ndarray:
    """g(0 .. reached-1) from a fresh game; for an open row, only as many (a power of two
    from 4096 on) as fit before the deadline."""
    game = octal_game(code)
    if proven:
        return game.nim_values(reached)
    level, began = min(FIRST_LEVEL, reached), time.monotonic()
    values = game.nim_values(level)
    while level < reached:
        spent = time.monotonic() - began
        nxt = min(4 * level, reached)
        if time.monotonic() + spent * ((nxt / level) ** 1.5 - 1) > deadline:
            break
        level = nxt
        values = game.nim_values(level)
    return values


def _check_period(row: dict[str, Any], code: str, g: np.ndarray) -> None:
    p, n0 = int(row["period"]), int(row["preperiod"])
    _require(p >= 1 and n0 >= 0, "a period below 1 or a negative pre-period")
    bound = guy_smith_bound(code, n0, p)
    _require(row["certificate"]["bound"] == bound and len(g) >= bound,
             f"the proof needs {bound} values, the row says {row['certificate']['bound']} and "
             f"reached {len(g)}")
    _require(np.array_equal(g[n0:bound - p], g[n0 + p:bound]),
             f"g(n + {p}) = g(n) fails for some {n0} <= n < {bound - p}")
    _require(n0 == 0 or g[n0 - 1] != g[n0 - 1 + p], f"the pre-period is less than {n0}")
    for d in range(1, p):
        if p % d == 0 and np.array_equal(g[n0:n0 + p], g[n0 + d:n0 + d + p]):
            raise _Failed(f"the period is {d} or less, not {p}")
    _require(row["apparent_period"] is None, "an apparent period beside a proven one")
    _require(isinstance(row["theorem"], str) and "Guy-Smith" in row["theorem"],
             "no theorem named for the proof")


def _check_stats(row: dict[str, Any], g: np.ndarray) -> None:
    largest_at = int(np.argmax(g))
    _require(row["largest"] == int(g[largest_at]) and row["largest_at"] == largest_at,
             f"the largest value is {int(g[largest_at])}, first at {largest_at}")
    if row["rare_mask"] is None:
        _require(row["rare_count"] is None, "a rare count without a mask")
        return
    mask = int(row["rare_mask"], 16) << 1 | int(bool(row["rare_parity"]))
    space = sparse_space(parse_take_break_code(row["code"]).digits)
    _require(space is not None, "a rare mask for a game without a sparse space")
    assert space is not None
    rare = np.flatnonzero(rare_mask_of(g, space, 0, mask))
    _require(row["rare_count"] == len(rare), f"{len(rare)} rare values (heap 0 counted) under "
             f"mask {row['rare_mask']}, not {row['rare_count']}")
    last = int(rare[-1]) if len(rare) else None
    _require(row["last_rare"] == last, f"the last rare value is at {last}")


def _check_members(row: dict[str, Any], g: np.ndarray, offsets: bool, deadline: float) -> None:
    code, members = row["code"], row["members"]
    seq = normalized(g, offsets)
    kind = row["class"]
    _require(kind in ("single", "proved", "values"), f"class {kind!r}")
    _require((kind == "single") == (len(members) == 1), "class 'single' with several members")
    if kind == "proved":
        _require(row["period"] is not None, "a class proved equal without a proven period")
    for member, dead in zip(members, row["dead_heaps"]):
        if member == code:
            continue
        if kind == "proved":
            _check_proved_member(row, seq, member, int(dead), offsets)
            continue
        upto = int(row["equal_up_to"])
        length = min(upto, len(seq))
        other = normalized(octal_game(member).nim_values(length + int(dead)), offsets)
        _require(len(other) >= length and np.array_equal(seq[:length], other[:length]),
                 f"member {member} differs from {code} within {length} heap sizes")


def _check_proved_member(row: dict[str, Any], seq: np.ndarray, member: str, dead: int,
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
