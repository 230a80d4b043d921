"""The work of a census, one task at a time: what a process of the pool or a dask worker runs.

Every function here takes and returns small plain data (codes, numbers, rows as dicts), so a
task pickles to any worker and its result is a row of the table.  Nothing here knows about
the schedule or the file: :mod:`.run` decides what to compute and how deep.

Two kinds of task:

* :func:`survey`: the first heap sizes of many codes, to group them into candidate classes
  (the digest of each code's sequence, its dead heaps dropped);
* :func:`solve_class`: one class to one depth (:mod:`.depth`): its standard form and every
  member taken there (members of an open class at most to the census's rule's member_depth,
  of a capped class to its dense_member_depth: :class:`.depth.DepthRule`), each
  member proven equal to the standard form (both proven periodic by the Guy-Smith theorem with
  one period, and equal up to the larger pre-period plus the period), or compared as far as
  both were computed, or split off into classes of their own; returns the rows.

>>> rows = solve_class(["0.77", "4.4"], 4096)       # Kayles and 4.4: one game, proven
>>> [(r["code"], r["class"], r["period"], r["preperiod"]) for r in rows]
[('0.77', 'proved', 12, 71)]
"""

from __future__ import annotations

import resource
import time
from dataclasses import dataclass
from typing import Any, Iterator

import numpy as np

from ...games.heap import octal_game
from .classes import dead_heaps, normalized, sequence_digest, standard_form
from .depth import DepthRule, Sequence, advance_code, member_depth, summary

__all__ = ["SURVEY_VALUES", "FIRST_LEVEL", "survey", "solve_class", "CLASS_KINDS"]

#: heap sizes computed for every code before classes are formed
SURVEY_VALUES = 1 << 12
#: the first depth a class is taken to; each level multiplies it by 4
FIRST_LEVEL = 1 << 12
#: heap sizes left out of the survey's comparison, room for the dead heaps of any member
_DEAD_ROOM = 16
#: values compared at once when two long sequences are compared
_PIECE = 1 << 20

#: what a row's "class" says about its members
CLASS_KINDS = {
    "single": "a class of one code",
    "proved": "every member proven the same game as the standard form (each proven periodic "
              "by the Guy-Smith theorem with the same period, and equal to it up to the larger "
              "pre-period plus the period, dead heaps dropped)",
    "values": "members equal to the standard form as far as compared (equal_up_to heap sizes, "
              "dead heaps dropped), not proven the same game",
}


def survey(codes: list[str], count: int, offsets: bool) -> list[tuple[str, str, int]]:
    """(code, digest, dead heaps) for each code: the digest of its first count values (its
    dead heaps dropped when offsets), compared over the same length for every code."""
    out = []
    compared = count - _DEAD_ROOM
    for code in codes:
        values = octal_game(code).nim_values(count)
        seq = normalized(values, offsets)[:compared]
        out.append((code, sequence_digest(seq), dead_heaps(values) if offsets else 0))
    return out


@dataclass
class _Member:
    code: str
    dead: int
    proved: bool
    compared: int  # normalized heap sizes found equal to the standard form's


def solve_class(members: list[str], depth: int, runs: str | None = None, offsets: bool = True,
                extend: bool = False, rule: DepthRule | None = None,
                earlier: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """The rows of the classes these codes form at this depth: normally one row; more when a
    member differs from the standard form deeper than before.  runs: the directory of the
    frontier runs (needed past :data:`.depth.FRONTIER_FROM`); extend: the census's last level
    (a sequence whose apparent period's proof is within reach goes to it); rule: the
    census's depth rule (default: the three-digit rule; three ints, so a task stays small
    plain data for any worker); earlier: the class's row at its last level, whose members'
    comparison this level takes over when it cannot have changed (:func:`reused_comparison`)
    instead of computing every member again."""
    return list(_solve(sorted(set(members)), depth, runs, offsets, extend, rule, earlier))


def _solve(members: list[str], depth: int, runs: str | None, offsets: bool,
           extend: bool, rule: DepthRule | None,
           earlier: dict[str, Any] | None = None) -> Iterator[dict[str, Any]]:
    code = standard_form(members)
    others = [m for m in members if m != code]
    began = time.monotonic()
    rep = advance_code(code, depth, runs, extend=extend, rule=rule)
    dead = _dead(rep, offsets)
    checked = reused_comparison(rep, dead, others, depth, earlier, rule)
    apart: list[str] = []
    if checked is None:
        checked, apart = _check_members(rep, dead, others, depth, runs, offsets, rule)
    own = _Member(rep.code, dead, rep.proven, rep.reached - dead)
    row = _row(rep, [own, *checked], depth, time.monotonic() - began, offsets)
    yield row
    if apart:
        yield from _solve(apart, depth, runs, offsets, extend, rule)


def _dead(seq: Sequence, offsets: bool) -> int:
    return dead_heaps(np.asarray(seq.values[:4096])) if offsets else 0


def first_difference(a: np.ndarray, da: int, b: np.ndarray, db: int, length: int) -> int:
    """The first i < length with a[da + i] != b[db + i] (length when none), a piece at a
    time."""
    for start in range(0, length, _PIECE):
        stop = min(length, start + _PIECE)
        x = np.asarray(a[da + start:da + stop]).astype(np.uint32)
        y = np.asarray(b[db + start:db + stop]).astype(np.uint32)
        differ = np.flatnonzero(x != y)
        if differ.size:
            return start + int(differ[0])
    return length


def reused_comparison(rep: Sequence, dead: int, others: list[str], depth: int,
                      earlier: dict[str, Any] | None,
                      rule: DepthRule | None) -> list[_Member] | None:
    """The comparison of the members other than the standard form (of dead dead heaps) that
    the earlier row holds, when making it again at this depth would give it unchanged; None
    when it must be made.

    While the standard form is unproven, each member is computed to the member depth
    (:func:`.depth.member_depth`), the same at every level from the rule's member_depth on,
    and compared with the standard form over its own length when the standard form reaches
    that far.  So when both levels take the members to the same depth, and the standard form
    reached it already at the earlier one, each member's values and compared stretch are the
    earlier ones; equal_up_to, the least compared length, is the earlier row's.  It is taken
    over only when it is what members computed to that depth give (the member depth less a
    member's dead heaps), so a row made under another rule, or with a member proven short,
    is compared again.  For .764, whose three members take some 900 s to 2^20, this is most
    of a level's cost besides its frontier run.
    """
    if earlier is None or rep.proven or earlier.get("class") != "values":
        return None
    marks = earlier.get("dead_heaps")
    if earlier.get("members") != [rep.code, *others] or not isinstance(marks, list) \
            or len(marks) != len(others) + 1 or marks[0] != dead:
        return None
    then, reached = earlier.get("depth"), earlier.get("reached")
    if not isinstance(then, int) or not isinstance(reached, int):
        return None
    far = member_depth(depth, rep.reached, False, rep.cap is not None, rule)
    if far != member_depth(then, reached, False, earlier.get("cap") is not None, rule) \
            or reached - dead < far or rep.reached < reached:
        return None
    if earlier.get("equal_up_to") != min(far - k for k in marks[1:]):
        return None
    return [_Member(code, k, False, far - k) for code, k in zip(others, marks[1:])]


def _check_members(rep: Sequence, dead: int, others: list[str], depth: int,
                   runs: str | None, offsets: bool, rule: DepthRule | None
                   ) -> tuple[list[_Member], list[str]]:
    """Each member other than the standard form (of dead dead heaps) against it: proved
    equal, equal as far as compared, or apart (a class of its own, solved after this one)."""
    checked: list[_Member] = []
    apart = []
    for code in others:
        far = member_depth(depth, rep.reached, rep.proven, rep.cap is not None, rule)
        mine = advance_code(code, far, runs, extend=rep.proven, rule=rule)
        k = _dead(mine, offsets)
        length = min(rep.reached - dead, mine.reached - k)
        if rep.proven and mine.proven and mine.period == rep.period:
            assert rep.preperiod is not None and mine.preperiod is not None
            needed = max(rep.preperiod - dead, mine.preperiod - k, 0) + int(rep.period or 0)
            if needed <= length and first_difference(rep.values, dead, mine.values, k,
                                                     needed) == needed:
                checked.append(_Member(code, k, True, needed))
                continue
        if first_difference(rep.values, dead, mine.values, k, length) < length or (
                rep.proven and mine.proven):
            apart.append(code)
        else:
            checked.append(_Member(code, k, False, length))
    return checked, apart


def _row(rep: Sequence, members: list[_Member], depth: int, seconds: float,
         offsets: bool) -> dict[str, Any]:
    proved = rep.proven and all(m.proved for m in members)
    kind = "single" if len(members) == 1 else "proved" if proved else "values"
    facts = summary(rep)
    return {
        "code": rep.code,
        "members": [m.code for m in members],
        "dead_heaps": [m.dead for m in members],
        "class": kind,
        "equal_up_to": None if kind != "values" else min(m.compared for m in members),
        **{k: facts[k] for k in ("period", "preperiod", "theorem", "apparent_period",
                                 "reached", "largest", "largest_at", "rare_mask",
                                 "rare_parity", "rare_count", "last_rare", "p_positions",
                                 "last_p", "first_values", "engine", "cap")},
        "depth": depth,
        "seconds": round(seconds, 3),
        "peak_bytes": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
        "certificate": {**facts["certificate"], "offsets": offsets},
    }
