"""The work of a census, one task at a time: what a process of the pool or a dask worker runs.

Every function here takes and returns small plain data (codes, numbers, rows as dicts), so a
task pickles to any worker and its result is a row of the table.  Nothing here knows about
the schedule or the file: :mod:`.run` decides what to compute and for how long.

Two kinds of task:

* :func:`survey`: the first heap sizes of many codes, to group them into candidate classes
  (the digest of each code's sequence, its dead heaps dropped);
* :func:`solve_class`: one class within a time budget: its standard form deepened until the
  Guy-Smith theorem proves a period or the time is spent, then every member checked against
  it (proved equal, equal up to the heap size compared, or split off into classes of their
  own); returns the rows.
"""

from __future__ import annotations

import signal
import threading
import time
import tracemalloc
from dataclasses import dataclass
from typing import Any, Iterator

import numpy as np

from ...games.heap import HeapGame, Periodicity, octal_game
from .classes import dead_heaps, normalized, sequence_digest, standard_form

__all__ = ["SURVEY_VALUES", "FIRST_LEVEL", "survey", "solve_class", "checkpoints", "Deadline"]

#: heap sizes computed for every code before classes are formed
SURVEY_VALUES = 1 << 12
#: the first depth a class is taken to; each deeper step multiplies it by up to 4
FIRST_LEVEL = 1 << 12
#: heap sizes left out of the survey's comparison, room for the dead heaps of any member
_DEAD_ROOM = 16
#: checkpoints: the digest of the first 2^k values, for k from here on (verify's partial checks)
CHECKPOINTS_FROM = 12


class TimeUp(Exception):
    """A task's time is spent (raised by :class:`Deadline`'s alarm between calls of the C
    engine; the values computed so far stay)."""


class Deadline:
    """When a task must stop: a point on the monotonic clock, enforced by SIGALRM where the
    task runs on a process's main thread (the pool), and by the deepening's estimates alone
    elsewhere (a dask worker's threads)."""

    def __init__(self, seconds: float) -> None:
        self.at = time.monotonic() + max(0.0, seconds)

    def left(self) -> float:
        return self.at - time.monotonic()

    def share(self, fraction: float) -> Deadline:
        """A deadline at this fraction of the time left."""
        return Deadline(self.left() * fraction)

    def alarm(self, grace: float) -> _Alarm:
        return _Alarm(self.left() + grace)


class _Alarm:
    def __init__(self, seconds: float) -> None:
        self.seconds = max(seconds, 0.05)
        self.armed = False
        self.previous: Any = None

    def __enter__(self) -> _Alarm:
        if threading.current_thread() is threading.main_thread() and hasattr(signal, "SIGALRM"):
            self.previous = signal.signal(signal.SIGALRM, _time_up)
            signal.setitimer(signal.ITIMER_REAL, self.seconds)
            self.armed = True
        return self

    def __exit__(self, *exc: object) -> None:
        if self.armed:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self.previous)


def _time_up(signum: int, frame: Any) -> None:
    raise TimeUp()


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
class _Deepened:
    game: HeapGame
    period: Periodicity
    reached: int
    seconds: float


def deepen(game: HeapGame, max_n: int, deadline: Deadline, start: int = FIRST_LEVEL) -> _Deepened:
    """Takes game's period search deeper, step by step, until a period is proven, max_n heap
    sizes are computed or the next step would not end before the deadline (its time
    estimated from the steps so far as c n^a).  This is the one place where a deeper stage
    would hand a game to a bounded-memory frontier engine (#26) instead of the in-memory one.
    """
    began = time.monotonic()
    level = min(start, max_n)
    # the first step (milliseconds) always finishes: a row needs some values
    per = game.period(max_n=level, progress=False)
    reached = per.checked_up_to
    done = [(level, time.monotonic() - began)]  # (heap sizes, seconds since began)
    try:
        with deadline.alarm(grace=max(1.0, 0.25 * deadline.left())):
            while not per.proven and level < max_n:
                level = _next_level(level, max_n, done, deadline.left())
                if level <= reached:
                    break
                per = game.period(max_n=level, progress=False)
                reached = per.checked_up_to
                done.append((level, time.monotonic() - began))
    except TimeUp:
        pass  # the values up to the last finished step stand
    return _Deepened(game, per, reached, time.monotonic() - began)


def _next_level(level: int, max_n: int, done: list[tuple[int, float]], left: float) -> int:
    """The next depth: up to 4 times this one, as far as the time left allows by the cost
    model c n^a fitted to the last two steps (a between 1 and 2.2)."""
    n1, t1 = done[-1]
    a = 1.3
    if len(done) >= 2:
        n0, t0 = done[-2]
        if t0 > 0.01 and t1 > t0 and n1 > n0:
            a = min(2.2, max(1.0, float(np.log(t1 / t0) / np.log(n1 / n0))))
    t1 = max(t1, 1e-3)
    fits = n1 * ((t1 + max(left, 0.0)) / t1) ** (1.0 / a)
    target = int(min(4 * level, max_n, fits))
    return target if target >= level + level // 4 else level


@dataclass
class _Member:
    code: str
    dead: int
    proved: bool
    compared: int  # normalized heap sizes found equal to the standard form's


def solve_class(members: list[str], seconds: float, max_n: int, offsets: bool,
                start: int = FIRST_LEVEL) -> list[dict[str, Any]]:
    """The rows of the classes these codes form, computed within seconds: normally one row;
    more when a member turns out to differ from the standard form deeper than the survey
    looked."""
    deadline = Deadline(seconds)
    return list(_solve(sorted(set(members)), deadline, max_n, offsets, start))


def _solve(members: list[str], deadline: Deadline, max_n: int, offsets: bool,
           start: int) -> Iterator[dict[str, Any]]:
    code = standard_form(members)
    others = [m for m in members if m != code]
    with _Traced() as traced:
        began = time.monotonic()
        rep = deepen(octal_game(code), max_n, deadline.share(0.5 if others else 1.0), start)
        values = rep.game.nim_values(rep.reached)
        checked, apart = _check_members(values, rep, others, deadline, max_n, offsets, start)
        row = _row(code, values, rep, checked, offsets, time.monotonic() - began)
    row["peak_bytes"] = traced.peak
    yield row
    if apart:
        yield from _solve(apart, deadline, max_n, offsets, start)


def _check_members(values: np.ndarray, rep: _Deepened, others: list[str], deadline: Deadline,
                   max_n: int, offsets: bool, start: int) -> tuple[list[_Member], list[str]]:
    """Each member against the standard form: proved equal (both periods proven, equal up to
    the larger pre-period plus the period, dead heaps dropped), equal as far as compared, or
    apart (a class of its own, solved after this one)."""
    seq = normalized(values, offsets)
    dead = dead_heaps(values) if offsets else 0
    checked = [_Member(rep.game.code, dead, rep.period.proven, len(seq))]
    apart = []
    for i, code in enumerate(others):
        share = deadline.share(1.0 / (len(others) - i))
        if rep.period.proven:
            mine = deepen(octal_game(code), max_n, share, start)
        else:  # as deep as the standard form went, if time allows
            mine = deepen(octal_game(code), rep.reached + _DEAD_ROOM, share, start)
        theirs = mine.game.nim_values(mine.reached)
        other = normalized(theirs, offsets)
        k = dead_heaps(theirs) if offsets else 0
        both = rep.period.proven and mine.period.proven and mine.period.period == rep.period.period
        if both:
            assert rep.period.preperiod is not None and mine.period.preperiod is not None
            p = rep.period.period
            assert p is not None
            needed = max(rep.period.preperiod - dead, mine.period.preperiod - k, 0) + p
            length = min(needed, len(seq), len(other))
            if length == needed and np.array_equal(seq[:length], other[:length]):
                checked.append(_Member(code, k, True, needed))
                continue
        length = min(len(seq), len(other))
        if not np.array_equal(seq[:length], other[:length]) or (
                rep.period.proven and mine.period.proven):
            apart.append(code)
        else:
            checked.append(_Member(code, k, False, length))
    return checked, apart


def checkpoints(values: np.ndarray) -> dict[str, str]:
    """The digests of the first 2^k values, for every 2^k from 2^12 below len(values)."""
    out = {}
    k = CHECKPOINTS_FROM
    while (1 << k) < len(values):
        out[str(1 << k)] = sequence_digest(values[: 1 << k])
        k += 1
    return out


def _row(code: str, values: np.ndarray, rep: _Deepened, members: list[_Member],
         offsets: bool, seconds: float) -> dict[str, Any]:
    per = rep.period
    stats = rep.game.stats(rep.reached)
    proved = per.proven and all(m.proved for m in members)
    rare_count = stats.rare_count
    return {
        "code": code,
        "members": [m.code for m in members],
        "dead_heaps": [m.dead for m in members],
        "class": "single" if len(members) == 1 else "proved" if proved else "values",
        "equal_up_to": None if proved or len(members) == 1 else min(m.compared for m in members),
        "period": per.period if per.proven else None,
        "preperiod": per.preperiod if per.proven else None,
        "theorem": per.theorem if per.proven else None,
        "apparent_period": None if per.proven else per.period,
        "reached": rep.reached,
        "largest": stats.largest,
        "largest_at": stats.largest_at,
        "rare_mask": None if stats.mask is None else format(stats.mask, "x"),
        "rare_parity": stats.parity,
        "rare_count": rare_count,
        "last_rare": int(stats.rare_positions[-1]) if len(stats.rare_positions) else None,
        "seconds": round(seconds, 3),
        "peak_bytes": 0,
        "certificate": {
            "sha256": sequence_digest(values),
            "values": len(values),
            "bound": per.checked_up_to if per.proven else None,
            "checkpoints": checkpoints(values),
            "offsets": offsets,
        },
    }


class _Traced:
    """The peak of memory traced by tracemalloc (numpy's arrays included) while in the block;
    started here when nobody traces yet.  In a threaded dask worker, work beside it counts
    too."""

    def __init__(self) -> None:
        self.peak = 0
        self.started = False

    def __enter__(self) -> _Traced:
        if not tracemalloc.is_tracing():
            tracemalloc.start()
            self.started = True
        tracemalloc.reset_peak()
        return self

    def __exit__(self, *exc: object) -> None:
        self.peak = tracemalloc.get_traced_memory()[1]
        if self.started:
            tracemalloc.stop()
