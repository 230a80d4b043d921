"""The claims of one census row checked against its values (:mod:`.verify_row` makes them):
the proof of its period, its statistics, its members -- on all its values, or on a prefix
g(0..n-1) of them (a row of the frontier engine checked to a power of two of its chain).

On a prefix, a claim about the whole row is checked as far as the prefix decides it: a count
whose last heap size is below n (the rare values, the P-positions) must be the prefix's count
exactly, one whose last is past it must exceed it; the largest value first seen below n is the
prefix's, one first seen past it exceeds the prefix's; and the census's lists of the open
classes' rare values and records (``lists/``), when the directory has them, must agree with the
row (count, last, largest) and with the prefix below n.
"""

from __future__ import annotations

import csv
import os
from typing import Any, Callable

import numpy as np

from ...games.codes import parse_take_break_code
from ...games.heap import octal_game
from ...games.heap.stats import rare_mask_of, sparse_space
from ..certificate import check_period, guy_smith_bound
from .classes import dead_heaps, normalized
from .compute import FIRST_LEVEL
from .depth import (EARLIER_RULE, EXTEND, DepthRule, apparent_of, cap_for, earlier_cap,
                    engine_for, judged_at, mask_of_values, member_depth, pieces, proof_of)

#: g(0..n-1) of a code, by some engine
ValuesOf = Callable[[str, int], np.ndarray]
#: leading values enough to see the dead heaps (a heap of at most 16 tokens has a move)
LEAD = 4096


def _ordinary(code: str, n: int) -> np.ndarray:
    """g(0..n-1) of code by the ordinary engine."""
    return octal_game(code).nim_values(n)


class _Failed(Exception):
    pass


def _require(ok: Any, message: str) -> None:
    if not ok:
        raise _Failed(message)


def _rules(code: str) -> tuple[int, ...]:
    return tuple(parse_take_break_code(code, hex_ok=False).digits)


def _check_open(row: dict[str, Any], code: str, g: np.ndarray, prefix: bool = False,
                rule: DepthRule | None = None) -> None:
    """An open row: no proof within its values, its apparent period (not on a prefix: it is
    seen in the last values), its depth and its cap (by its census's rule, judged at the
    points within g)."""
    _check_open_claims(row, code)
    _require(proof_of(g, _rules(code)) is None,
             "period null: its values prove a period it does not state")
    if not prefix:
        seen = apparent_of(g)
        _require(row["apparent_period"] == (None if seen is None else seen[0]),
                 f"apparent_period {row['apparent_period']}: the apparent period is "
                 f"{None if seen is None else seen[0]}")
    depth, reached = row["depth"], row["reached"]
    earlier = (depth, row["cap"]) == EARLIER_RULE    # a row of a census not yet deepened
    cap = earlier_cap(g, _rules(code)) if earlier else cap_for(g, _rules(code), depth, rule)
    _require(row["cap"] == cap, f"the census's depth rule caps it at {cap}, not {row['cap']}")
    _require(cap is None or reached == cap, f"reached {reached}, not its cap {cap}")
    if cap is not None:
        _require(row["engine"] == "dense", f"engine {row['engine']!r}: a cap on another engine "
                 "than 'dense'")


def _check_open_claims(row: dict[str, Any], code: str) -> None:
    """What an open row claims that needs no values: no proof, its engine for its depth."""
    _require(row["preperiod"] is None and row["theorem"] is None
             and row["certificate"]["bound"] is None,
             "preperiod, theorem or certificate bound without a proven period")
    depth, reached = row["depth"], row["reached"]
    if row["cap"] is None:
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


def _check_period(row: dict[str, Any], code: str, g: np.ndarray) -> None:
    p, n0 = row["period"], row["preperiod"]
    _require(n0 is not None, "a period without a pre-period")
    bound = guy_smith_bound(code, n0, p)
    _require(bound == len(g), f"period {p} from preperiod {n0}: the Guy-Smith proof needs "
             f"{bound} values, not the {len(g)} reached")
    _require(row["certificate"]["bound"] == bound, f"certificate bound "
             f"{row['certificate']['bound']}: the proof needs {bound} values")
    try:                # the same checks a certificate is written after
        check_period(code, g, n0, p)
    except ValueError as failed:
        raise _Failed(f"period {p} from preperiod {n0}: "
                      + str(failed).removeprefix(f"{code}: ")) from None
    _require(row["apparent_period"] is None and row["cap"] is None,
             f"apparent_period {row['apparent_period']} or cap {row['cap']} beside a proven "
             "period")
    _require(row["theorem"] == "the Guy-Smith octal periodicity theorem (Winning Ways ch. 4)",
             f"theorem {row['theorem']!r} is not the theorem that proves it")
    depth = row["depth"]
    _require(depth & (depth - 1) == 0 and depth >= FIRST_LEVEL and len(g) <= EXTEND * depth,
             f"depth {depth} is not a level of the census (a power of two from "
             f"{FIRST_LEVEL}) within which its {len(g)} values were reached")
    _require(row["engine"] == engine_for(code, depth),
             f"engine {row['engine']!r} is not the one for depth {depth}")


def _check_stats(row: dict[str, Any], g: np.ndarray) -> None:
    """The statistics recounted a piece at a time (a row may hold 2^30 values)."""
    largest, largest_at, zeros, last_zero = _extremes(g)
    _require(row["largest"] == largest and row["largest_at"] == largest_at,
             f"largest {row['largest']} at largest_at {row['largest_at']}: the largest value "
             f"is {largest}, first at {largest_at}")
    _require(row["p_positions"] == zeros and row["last_p"] == last_zero,
             f"p_positions {row['p_positions']}, last_p {row['last_p']}: {zeros} P-positions, "
             f"the last at {last_zero}")
    _require(row["first_values"] == g[:len(row["first_values"])].astype(int).tolist()
             and len(row["first_values"]) == min(32, len(g)), "first_values are not g(0..31)")
    if _no_sparse_space(row):
        return
    mask = int(row["rare_mask"], 16) << 1 | int(bool(row["rare_parity"]))
    _require(mask == mask_of_values(g, _rules(row["code"])),
             f"rare_mask {row['rare_mask']} with rare_parity {row['rare_parity']} is not the "
             "mask making the fewest heap sizes rare")
    rare = _rare_of(row, g)
    count, last = len(rare), (int(rare[-1]) if len(rare) else None)
    _require(row["rare_count"] == count, f"rare_count {row['rare_count']}: {count} rare values "
             f"(heap 0 counted) under mask {row['rare_mask']}")
    _require(row["last_rare"] == last, f"last_rare {row['last_rare']}: the last rare value is "
             f"at {last}")


def _counted(row: dict[str, Any], fields: tuple[str, str], prefix: tuple[int, int | None],
             n: int, what: str) -> None:
    """A count and its last heap size claimed for a whole row (the row's two fields), against
    the prefix g(0..n-1): the prefix's exactly when the last is below n, more than it when
    past."""
    count, last = row[fields[0]], row[fields[1]]
    claimed = f"{fields[0]} {count}, {fields[1]} {last}"
    if last < n:
        _require((count, last) == prefix, f"{claimed}: {prefix[0]} {what}, the last at "
                 f"{prefix[1]}, below {n:,}")
    else:
        _require(count > prefix[0], f"{claimed}: {prefix[0]} {what} below {n:,} already")


def _check_stats_prefix(row: dict[str, Any], g: np.ndarray) -> None:
    """The statistics of a row as far as g(0..n-1), a prefix of its values, decides them."""
    n = len(g)
    largest, largest_at, zeros, last_zero = _extremes(g)
    claimed = f"largest {row['largest']} at largest_at {row['largest_at']}"
    if row["largest_at"] < n:
        _require((row["largest"], row["largest_at"]) == (largest, largest_at),
                 f"{claimed}: the largest value below {n:,} is {largest}, first at "
                 f"{largest_at}")
    else:
        _require(row["largest"] > largest, f"{claimed}: the largest value is {largest} below "
                 f"{n:,}, first at {largest_at}")
    _counted(row, ("p_positions", "last_p"), (zeros, last_zero), n, "P-positions")
    _require(row["first_values"] == g[:len(row["first_values"])].astype(int).tolist()
             and len(row["first_values"]) == min(32, row["reached"]),
             "first_values are not g(0..31)")
    if _no_sparse_space(row):
        return
    rare = _rare_of(row, g)
    _counted(row, ("rare_count", "last_rare"),
             (len(rare), int(rare[-1]) if len(rare) else None), n,
             f"rare values (heap 0 counted) under mask {row['rare_mask']}")


def _extremes(g: np.ndarray) -> tuple[int, int, int, int]:
    """The largest value and where first, the P-positions and the last, a piece at a time."""
    largest, largest_at, zeros, last_zero = -1, 0, 0, 0
    for start, piece in pieces(g):
        i = int(np.argmax(piece))
        if int(piece[i]) > largest:
            largest, largest_at = int(piece[i]), start + i
        found = np.flatnonzero(piece == 0)
        zeros += len(found)
        last_zero = start + int(found[-1]) if found.size else last_zero
    return largest, largest_at, zeros, last_zero


def _no_sparse_space(row: dict[str, Any]) -> bool:
    """Whether the row's game never splits a heap (then it claims no sparse space)."""
    if any(d & 4 for d in _rules(row["code"])):
        _require(row["rare_mask"] is not None, "rare_mask: none for a game that splits heaps")
        return False
    _require(row["rare_mask"] is None and row["rare_count"] is None and
             row["last_rare"] is None and not row["rare_parity"],
             "rare_mask, rare_parity, rare_count, last_rare: a sparse space for a game that "
             "never splits a heap")
    return True


def _rare_of(row: dict[str, Any], g: np.ndarray) -> np.ndarray:
    """The heap sizes of g that are rare under the row's mask."""
    mask = int(row["rare_mask"], 16) << 1 | int(bool(row["rare_parity"]))
    space = sparse_space(_rules(row["code"]))
    assert space is not None
    found = [start + np.flatnonzero(rare_mask_of(piece, space, start, mask))
             for start, piece in pieces(g)]
    return np.concatenate(found) if found else np.zeros(0, dtype=np.int64)


def _read_pairs(path: str) -> list[tuple[int, int]]:
    with open(path, encoding="utf-8") as f:
        return [(int(n), int(v)) for n, v in list(csv.reader(f))[1:]]


def _check_lists(row: dict[str, Any], g: np.ndarray, lists: str) -> None:
    """The row against the census's lists of its rare values and records (an open class's;
    none for the others): the count, the last, the largest; and the lists below n against
    g(0..n-1)."""
    code, n = row["code"], len(g)
    rare_path = os.path.join(lists, f"{code}.rare.csv")
    if not os.path.exists(rare_path) or _no_sparse_space(row):
        return
    rare, records = _read_pairs(rare_path), _read_pairs(os.path.join(lists, f"{code}.records.csv"))
    _require(len(rare) == row["rare_count"] and (rare[-1][0] if rare else None) ==
             row["last_rare"], f"lists/{code}.rare.csv has {len(rare)} rare values, the last "
             f"at {rare[-1][0] if rare else None}")
    _require(bool(records) and records[-1] == (row["largest_at"], row["largest"]),
             f"lists/{code}.records.csv ends at {records[-1] if records else None}")
    mine = [(int(k), int(g[k])) for k in _rare_of(row, g)]
    _require([p for p in rare if p[0] < n] == mine,
             f"lists/{code}.rare.csv differs from the rare values below {n:,}")
    _require([p for p in records if p[0] < n] == _records_of(g),
             f"lists/{code}.records.csv differs from the records below {n:,}")


def _records_of(g: np.ndarray) -> list[tuple[int, int]]:
    """(heap size, value) for each value larger than every one before it (heap 0 first)."""
    top, found = -1, []
    for start, piece in pieces(g):
        p = piece.astype(np.int64)
        before = np.maximum.accumulate(np.concatenate([[top], p]))[:-1]
        found += [(start + int(i), int(p[i])) for i in np.flatnonzero(p > before)]
        top = max(top, int(p.max()))
    return found


def _check_members(row: dict[str, Any], g: np.ndarray, offsets: bool, deadline: float,
                   prefix: bool = False, values_of: ValuesOf = _ordinary,
                   rule: DepthRule | None = None) -> None:
    """Every member of the class the same game as the row's code as far as the class says
    (values_of makes a member's values: an engine other than the one the census used)."""
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
        far = member_depth(row["depth"], row["reached"], proven, row["cap"] is not None, rule)
        mine = _member_values(member, far, proven, values_of, rule)
        _require((dead_heaps(mine) if offsets else 0) == dead, f"dead_heaps: {member} has other dead heaps")
        other = normalized(mine, offsets)
        length = min(len(seq), len(other))
        compared.append(length)
        _require(np.array_equal(seq[:length], other[:length]),
                 f"member {member} differs from {code} within {length} heap sizes")
    if kind == "values" and prefix and min(compared) == len(seq):   # the prefix limits it
        _require(row["equal_up_to"] >= len(seq), f"equal_up_to is less than {len(seq)}")
    elif kind == "values":
        _require(row["equal_up_to"] == min(compared),
                 f"equal_up_to is {min(compared)} (the heap sizes compared), not "
                 f"{row['equal_up_to']}")


def _member_values(member: str, base: int, extend: bool,
                   values_of: ValuesOf = _ordinary, rule: DepthRule | None = None
                   ) -> np.ndarray:
    """A member's values as a census takes them: to base heap sizes, or to the first point
    where the census's rule finds it dense (:func:`.depth.cap_for`), to its proof's bound when
    one is within them, and (extend: the standard form is proven; not for a capped member) to
    the bound of its apparent period when that is at most EXTEND times base."""
    rules = _rules(member)
    mine = values_of(member, base)
    # judged at base itself only matters to extend (a cap at base cuts nothing off)
    cap = cap_for(mine, rules, base, rule) if extend or judged_at(base, rule) else None
    if cap is not None:
        mine = mine[:cap]
    found = proof_of(mine, rules)
    if found is None and extend and cap is None:
        seen = apparent_of(mine)
        bound = None if seen is None else guy_smith_bound(member, seen[1], seen[0])
        if bound is not None and base < bound <= EXTEND * base:
            mine = values_of(member, bound)
            found = proof_of(mine, rules)
    return mine if found is None else mine[:found[2]]


class _Normalized:
    """g with its dead heaps dropped (offsets), as uint32, made a prefix at a time: the whole
    of a 2^30-value row at once would take 4 GB."""

    def __init__(self, g: np.ndarray, offsets: bool) -> None:
        self.g, self.start = g, (dead_heaps(g[:LEAD]) if offsets else 0)

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
    _require((dead_heaps(mine) if offsets else 0) == dead, f"dead_heaps: {member} has other dead heaps")
    differ = np.flatnonzero(mine[: size - p] != mine[p:size])
    n0m = int(differ[-1]) + 1 if differ.size else 0
    _require(guy_smith_bound(member, n0m, p) <= size,
             f"member {member} is not proven periodic with period {p}")
    other = normalized(mine, offsets)
    needed = max(n0 - rep_dead, n0m - dead, 0) + p
    _require(len(other) >= needed and len(seq) >= needed
             and np.array_equal(seq[:needed], other[:needed]),
             f"member {member} differs from {row['code']} within {needed} heap sizes")
