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
from .depth import (DENSE_DEPTH, EXTEND, apparent_of, best_mask, digests, engine_for, is_dense,
                    member_depth, proof_of)
from .pool import executor
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
        Seconds the open rows may take to be recomputed (proven rows are always checked in
        full); a row whose values cannot be recomputed in full within its share fails, so a
        pass means everything was checked.
    workers, scheduler
        As for :func:`census`.

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
    if isinstance(budget, bool) or not isinstance(budget, (int, float)) or not (
            0 < budget <= 1e9):
        raise ValueError(f"budget is a number of seconds above 0 and at most 10^9, got {budget!r}")
    numbered = numbered_rows(directory, repair=False)
    if not numbered:
        raise ValueError(f"{directory}: no census table ({TABLE}) to verify")
    meta = read_meta(directory) or {}
    offsets = bool(meta.get("offsets", True))
    most = EXTEND * int(meta["until"]) if meta.get("until") else _MOST
    rows = [row for _line, row in numbered]
    opened = sum(1 for r in rows if not isinstance(r, dict) or r.get("period") is None)
    with executor(workers, scheduler) as (pool, slots, _alive):
        share = 0.7 * budget * slots / max(1, opened)
        futures = [pool.submit(check_row, row, share, offsets, most) for row in rows]
        results = [f.result() for f in futures]
    for (line, row), result in zip(numbered, results):
        if result["error"]:
            raise CensusError(f"row {line} ({_code(row)}): {result['error']}")
    _across(numbered, results, meta)
    _replaced(directory, numbered)
    proven = sum(1 for r in rows if r.get("period") is not None)
    return Verified(len(rows), proven, len(rows) - proven, 0)


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


def check_row(row: Any, seconds: float, offsets: bool, most: int = _MOST) -> dict[str, Any]:
    """One row re-checked: {"error": None or what is wrong, "full": True, "prefix": its first
    normalized values as bytes}.  most: the most heap sizes the census may have reached."""
    try:
        wrong = malformed(row)
        if wrong:
            raise _Failed(f"a malformed row: {wrong}")
        prefix = _check(row, time.monotonic() + seconds, offsets, most)
    except _Failed as exc:
        return {"error": str(exc), "full": False, "prefix": b""}
    except (KeyError, TypeError, ValueError, AttributeError, RecursionError) as exc:
        return {"error": f"not a well-formed row ({type(exc).__name__}: {exc})", "full": False,
                "prefix": b""}
    return {"error": None, "full": True, "prefix": prefix}


def _require(ok: Any, message: str) -> None:
    if not ok:
        raise _Failed(message)


def _check(row: dict[str, Any], deadline: float, offsets: bool, most: int) -> bytes:
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
    values = _recompute(code, reached, proven, deadline)
    _require(len(values) == reached, f"only g(0..{len(values) - 1}) of its {reached} values "
             "could be recomputed within the budget: nothing is taken on trust, run verify with "
             "a larger --budget")
    _require(sequence_digest(values) == cert["sha256"], f"the SHA-256 of g(0..{reached - 1}) "
             "differs: the values are not the ones computed here")
    _require(digests(values) == (cert["sha256"], cert["checkpoints"]),
             "the checkpoints are not the digests of the first 2^k values")
    exact = octal_game(code).nim_values(min(len(values), EXACT_PREFIX), method="exact")
    _require(np.array_equal(exact, values[:len(exact)]), "the exact scan disagrees")
    dead = dead_heaps(values) if offsets else 0
    _require(row["dead_heaps"][members.index(code)] == dead, f"{code} has {dead} dead heaps")
    if proven:
        _check_period(row, code, values)
    else:
        _check_open(row, code, values)
    _check_stats(row, values)
    _check_members(row, values, offsets, deadline)
    if proven:  # a proven row's values go on by its period: compare rows on as many
        values = _extend(values, int(row["preperiod"]), int(row["period"]), _ACROSS + 64)
    return normalized(values, offsets)[:_ACROSS].astype("<u4").tobytes()


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
    if row["cap"] is not None:
        _require(row["engine"] == "dense" and is_dense(g, _rules(code))
                 and reached == row["cap"] == max(depth, DENSE_DEPTH),
                 "a cap without a dense sequence (see census.depth) or at another depth")
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
    largest_at = int(np.argmax(g))
    _require(row["largest"] == int(g[largest_at]) and row["largest_at"] == largest_at,
             f"the largest value is {int(g[largest_at])}, first at {largest_at}")
    zeros = np.flatnonzero(g == 0)
    _require(row["p_positions"] == len(zeros) and row["last_p"] == int(zeros[-1]),
             f"{len(zeros)} P-positions, the last at {int(zeros[-1])}")
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
    _require(mask == best_mask(g, rules), f"{row['rare_mask']} is not the mask making the "
             "fewest heap sizes rare")
    space = sparse_space(rules)
    assert space is not None
    rare = np.flatnonzero(rare_mask_of(g, space, 0, mask))
    _require(row["rare_count"] == len(rare), f"{len(rare)} rare values (heap 0 counted) under "
             f"mask {row['rare_mask']}, not {row['rare_count']}")
    last = int(rare[-1]) if len(rare) else None
    _require(row["last_rare"] == last, f"the last rare value is at {last}")


def _check_members(row: dict[str, Any], g: np.ndarray, offsets: bool, deadline: float) -> None:
    code, members, kind = row["code"], row["members"], row["class"]
    seq = normalized(g, offsets)
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
