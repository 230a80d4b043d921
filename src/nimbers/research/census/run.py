"""The census's schedule: every open class taken level by level, and the table it writes.

1. Survey: the first 4096 heap sizes of every code not in the table yet, in batches, to group
   the codes into candidate classes (equal sequences, dead heaps dropped).
2. Levels: 2^12, 2^14, 2^16, ... (times 4) up to ``until``: every class still open is taken
   to each in turn (:func:`.compute.solve_class`), and its row appended; a proven class
   (every member proven too) or a capped one (no useful sparse space: :mod:`.depth`) stops.
   A class goes on to its next level as soon as its own is done, so no worker waits at a
   level's end while a class could go deeper.
   At the last level a class whose apparent period's proof needs at most twice ``until`` goes
   to it (.354: 20,126,195 heap sizes at ``until`` 2^24).

What a class becomes depends on the depth alone, never on the time or the load, so two runs
on different machines give the same table; a census run again with a larger ``until`` (or
:func:`deepen`) continues only the open rows, the frontier runs going on from their files in
``DIR/runs/``.  Rows are appended to DIR/census.jsonl as they are computed (a later row of a
class replaces its earlier one), so a census stopped at any moment and run again goes on.
The work runs on a process pool (this machine's cores) or, with a scheduler address, on a
dask distributed cluster (one task per class and level, its result rows): the same table
either way.  A line of progress goes to DIR/progress.log (and to stderr) every ``interval``
seconds and at each level's end.
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import json
import os
import sys
import time
from dataclasses import replace
from typing import Any, Iterator, NamedTuple, Sequence

from ... import _limits
from ..._progress import ProgressOption
from ...files import write_atomically
from ..rundir import PROGRESS_LOG, RunDirectory, read_json
from . import compute
from .classes import canonical, codes_up_to, standard_key
from .depth import DepthRule, cap_holds, rule_for_digits
from .pool import as_done, executor
from .report import standing
from .table import (CHOICE, META, OWN, RUNS, all_rows, append_row, census_rule, covered_codes,
                    read_meta, read_rows, write_meta)

__all__ = ["census", "deepen", "levels", "rule_of", "DEFAULT_UNTIL", "PROGRESS_LOG", "ProgressLog", "executor",
           "RUNS"]

#: the heap sizes a census takes a game to by default (.376 and .354 proven there)
DEFAULT_UNTIL = 1 << 24
#: the most heap sizes a census may be asked for
MOST_UNTIL = 1 << 40
CHOICE_FORMAT = "nimbers census deepen choice"
#: codes per survey task
_BATCH = 48


def levels(until: int) -> list[int]:
    """The depths of a census to until: 2^12 times powers of 4 below until, then until.

    >>> levels(2**20), levels(5000)
    ([4096, 16384, 65536, 262144, 1048576], [4096, 5000])
    """
    out = []
    level = compute.FIRST_LEVEL
    while level < until:
        out.append(level)
        level *= 4
    return out + [until]


def census(digits: int | None = None, *, codes: Sequence[str] | None = None, out: str,
           until: int = DEFAULT_UNTIL, workers: int | None = None,
           scheduler: str | None = None, offsets: bool = True,
           progress: ProgressOption = None, interval: float = 60.0,
           rule: DepthRule | None = None) -> list[dict[str, Any]]:
    """A census of octal games: every code with up to digits digits (first digit 0 and 4), or
    the given codes, each class taken level by level to until heap sizes or proven, its row in
    out/census.jsonl.  Returns the table's rows, in the order of the classes' standard forms.

    Classes are the codes whose Grundy sequences agree, the heap sizes that allow no move
    dropped (offsets=True, T. Czajka's convention in his octal-games tables: 174 classes for
    three digits) or as they are (offsets=False); see :mod:`.classes` and, for what a row
    says, :data:`.compute.CLASS_KINDS`.

    out is a run directory (:mod:`nimbers.research.rundir`, as a frontier run's): its
    ``manifest.json`` names every session, ``progress.log`` has the progress lines, and
    ``lock`` holds it for one process at a time.  A directory of an older census without a
    manifest gets one on its first session.

    Parameters
    ----------
    digits : int, optional
        Every code 0.d1..dk and 4.d1..dk with k <= digits (2 * 8^digits - 1 games).
    codes : sequence of str, optional
        These codes instead (".77", "0.161", "4.3" ...).
    out : str
        The directory of the table; a census run again there goes on (deeper when until is
        larger).  New, empty, or a census's own (a folder holding other files is refused).
    until : int
        The depth: heap sizes every open class is taken to (default 2^24).
    workers : int, optional
        Processes of the pool (default: this machine's cores); ignored with a scheduler.
    scheduler : str, optional
        "tcp://HOST:PORT" of a dask distributed scheduler to run the games on instead (out
        on a file system the workers share).
    offsets : bool
        Identify games differing only by dead heap sizes (default True).
    progress : bool, optional
        The progress lines on stderr too (default: yes; out/progress.log always).
    interval : float
        Seconds between progress lines.
    rule : DepthRule, optional
        The census's depth rule (:class:`.depth.DepthRule`: where codes are judged dense,
        how far members are compared), recorded in out/census.json.  Default: the rule out's
        census already has, else the default for digits (:func:`.depth.rule_for_digits`:
        four digits judge from 2^18; given codes take the three-digit rule).  A census keeps
        its rule: another one for a census that has rows is refused.

    The pool's processes start by importing the caller's ``__main__`` (as with
    multiprocessing's spawn): call census from a script under ``if __name__ == "__main__":``
    (a script without the guard is refused with RuntimeError before any worker starts).

    Raises
    ------
    ValueError
        No codes or a bad one, a bad depth, a directory holding another kind of census or
        files a census does not write, a directory another process works on, an unreachable
        scheduler, a rule other than the one the census in out has.
    RuntimeError
        Called from a script outside ``if __name__ == "__main__":`` (see above).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     rows = census(codes=[".77", ".161", ".36"], out=d, workers=1, until=4096,
    ...                   progress=False)
    >>> [(r["code"], r["period"], r["preperiod"], r["reached"]) for r in rows]
    [('0.36', None, None, 4096), ('0.77', 12, 71, 168), ('0.161', None, None, 4096)]
    """
    wanted = _wanted(digits, codes)
    until = _until(until)
    _interval(interval)
    if rule is not None and not isinstance(rule, DepthRule):
        raise TypeError(f"rule is a DepthRule, got {type(rule).__name__}")
    with _held(out) as run:
        rule = _kept_rule(out, rule, digits)
        run.record_session({"action": "census", "codes": len(wanted), "until": until,
                            "offsets": offsets, "workers": workers, "scheduler": scheduler,
                            "rule": rule.as_json()})
        return _census(out, wanted, until, offsets,
                       _Workers(workers, scheduler, progress, interval), rule)


def _kept_rule(out: str, asked: DepthRule | None, digits: int | None) -> DepthRule:
    """The rule of the census in out (the one its census.json records, or its digits'
    default: :func:`.table.census_rule`), or for a new census asked or the default for
    digits.  A rule other than an existing census's is refused: its rows were made under
    its own (a cap at 2^20 is no cap at 2^18), and a table under two rules would not verify."""
    meta = read_meta(out)
    if meta is None or not read_rows(out):
        if asked is not None:
            return asked
        return census_rule(meta) if meta and "rule" in meta else rule_for_digits(digits)
    kept = census_rule(meta)
    if asked is not None and asked != kept:
        raise ValueError(f"{out}: its census has the depth rule {kept}, not {asked}: a census "
                         "keeps its rule (use another directory for another rule)")
    return kept


def rule_of(out: str, digits: int | None = None, **changes: int) -> DepthRule:
    """The rule of the census in out (its census.json's, or its digits' default), or for a
    census not begun the default for digits, with some fields changed: what a command
    line's --dense-depth asks for.  ValueError when the fields make no rule."""
    meta = read_meta(out)
    return replace(census_rule(meta) if meta is not None else rule_for_digits(digits),
                   **changes)


def deepen(out: str, until: int, *, only: Sequence[str] | None = None,
           promising: int | None = None, workers: int | None = None,
           scheduler: str | None = None, progress: ProgressOption = None,
           interval: float = 60.0) -> list[dict[str, Any]]:
    """The census in out taken on to until heap sizes: only its open rows are computed --
    every one, or the classes of the codes in only, or the promising most promising open
    classes (:func:`.report.promising`: the longest quiet stretch, then the fewest rare
    values).  Each row states its depth, so a table deepened in part says which rows went
    further.

    The promising classes chosen are kept in out/deepen.json (written atomically before any
    is deepened): the same deepening stopped and started again takes the same classes, even
    when one of them was proven meanwhile; another until or count chooses again.

    Raises
    ------
    ValueError
        No census in out, a code of only not in it, both only and promising, a directory
        another process works on.
    """
    if not os.path.isfile(os.path.join(out, META)):
        raise ValueError(f"{out}: no census to deepen (census.json is missing)")
    until = _until(until)
    _interval(interval)
    if only is not None and promising is not None:
        raise ValueError("deepen the classes of some codes or the most promising, not both")
    with _held(out) as run:
        meta = read_meta(out)
        if meta is None:
            raise ValueError(f"{out}: no census to deepen (census.json is missing)")
        codes = list(meta["codes"])
        if promising is not None:
            codes = _promised(out, promising, until)
        elif only is not None:
            codes = _chosen(out, codes, only)
        rule = census_rule(meta)
        run.record_session({"action": "deepen", "codes": len(codes), "until": until,
                            "promising": promising, "workers": workers,
                            "scheduler": scheduler, "rule": rule.as_json()})
        return _census(out, codes, until, bool(meta["offsets"]),
                       _Workers(workers, scheduler, progress, interval), rule)


@contextlib.contextmanager
def _held(out: str) -> Iterator[RunDirectory]:
    """out as this process's census directory (claimed: refused when it holds files a
    census does not write, or another process holds it), let go at the end."""
    run = RunDirectory(out, "census", OWN)
    run.claim(fresh=False)
    try:
        yield run
    finally:
        run.unlock()


class _Workers(NamedTuple):
    """Where the classes are computed (a pool of processes here, or a dask cluster) and how
    often progress is said."""

    workers: int | None
    scheduler: str | None
    progress: ProgressOption
    interval: float


def _census(out: str, wanted: list[str], until: int, offsets: bool, pool: _Workers,
            rule: DepthRule) -> list[dict[str, Any]]:
    """The census of wanted in out (held by this process) under rule (its census's)."""
    meta = read_meta(out)
    if meta is not None and meta["offsets"] != offsets:
        raise ValueError(f"{out} holds a census with offsets={meta['offsets']}: use "
                         "another directory or the same convention")
    known = set(meta["codes"]) if meta else set()
    write_meta(out, {"offsets": offsets, "codes": sorted(known | set(wanted), key=standard_key),
                     "until": max(until, int(meta["until"]) if meta else 0),
                     "rule": rule.as_json()})
    rows = read_rows(out)
    log = ProgressLog(out, pool.progress, pool.interval)
    with executor(pool.workers, pool.scheduler) as (workers, _slots, alive):
        _Schedule(workers, alive, out, until, offsets, log, rule).run(wanted, rows)
    mine = set(wanted)
    return sorted((r for r in read_rows(out) if mine & set(r["members"])),
                  key=lambda r: standard_key(r["code"]))


def _interval(interval: object) -> None:
    _limits.parse_seconds(interval, "interval", positive=True)  # type: ignore[arg-type]


def _promised(out: str, promising: int, until: int) -> list[str]:
    """The members of the promising most promising open classes: those kept in
    out/deepen.json for this until and count, else chosen now and kept there."""
    from .report import promising as most_promising

    if isinstance(promising, bool) or not isinstance(promising, int) or promising < 1:
        raise ValueError(f"promising is a count of classes (1 or more), got {promising!r}")
    kept = _kept_choice(out)
    if kept is not None and kept["until"] == until and kept["promising"] == promising:
        return list(kept["members"])
    picked = most_promising(_at_common_depth(out, read_rows(out)), promising)
    if not picked:
        raise ValueError(f"{out}: no open class with a sparse space to deepen")
    members = sorted({m for r in picked for m in r["members"]}, key=standard_key)
    write_atomically(os.path.join(out, CHOICE), json.dumps(
        {"format": CHOICE_FORMAT, "until": until, "promising": promising,
         "classes": [r["code"] for r in picked], "members": members}, indent=1) + "\n")
    return members


def _kept_choice(out: str) -> dict[str, Any] | None:
    """out/deepen.json, checked (None when there is none)."""
    path = os.path.join(out, CHOICE)
    if not os.path.exists(path):
        return None
    data = read_json(path, "choice of classes to deepen")
    counts = [data.get(k) if isinstance(data, dict) else None for k in ("until", "promising")]
    members = data.get("members") if isinstance(data, dict) else None
    if not (isinstance(data, dict) and data.get("format") == CHOICE_FORMAT
            and all(isinstance(c, int) and not isinstance(c, bool) for c in counts)
            and isinstance(members, list) and members
            and all(isinstance(m, str) and m.isprintable() for m in members)):
        raise ValueError(f"{path}: not a choice of classes to deepen (remove it to choose "
                         "again)")
    return data


def _chosen(out: str, codes: list[str], only: Sequence[str]) -> list[str]:
    """The members of the classes of the codes in only."""
    rows = read_rows(out)
    wanted = set(_wanted(None, only))
    missing = wanted - set(codes)
    if missing:
        raise ValueError(f"{out}: no census row holds {sorted(missing, key=standard_key)}")
    picked = [r for r in rows if wanted & set(r["members"])]
    if not picked:
        raise ValueError(f"{out}: no open class with a sparse space to deepen")
    return sorted({m for r in picked for m in r["members"]}, key=standard_key)


def _at_common_depth(out: str, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The open classes' rows at the depth they all reached (the shallowest of their current
    depths), each class's current row where it has no row there: so the ten most promising
    at 2^26 stay those ten when a deepening to 2^30 is stopped with some of them at 2^28 and
    started again (ranked on their deeper rows, the ones ahead would stay ahead, and the
    choice would depend on where the run was stopped)."""
    open_codes = {r["code"] for r in rows if standing(r) == "open"}
    if not open_codes:
        return rows
    common = min(int(r["depth"]) for r in rows if r["code"] in open_codes)
    at = {r["code"]: r for r in all_rows(out, repair=False)
          if r["code"] in open_codes and int(r["depth"]) == common}
    return [at.get(r["code"], r) for r in rows]


def _until(until: object) -> int:
    if isinstance(until, bool) or not isinstance(until, int) or not 64 <= until <= MOST_UNTIL:
        raise ValueError(f"until is an int from 64 to 2^40, got {until!r}")
    return until


def _wanted(digits: int | None, codes: Sequence[str] | None) -> list[str]:
    if (digits is None) == (codes is None):
        raise ValueError("give digits or codes (one of them)")
    if digits is not None:
        return codes_up_to(digits)
    assert codes is not None
    if isinstance(codes, str):
        raise TypeError("codes is a sequence of codes, not one string")
    for code in codes:
        if not isinstance(code, str):
            raise TypeError(f"a code is a str, got {type(code).__name__}")
    wanted = sorted({canonical(c) for c in codes}, key=standard_key)
    if not wanted:
        raise ValueError("no codes to take a census of")
    return wanted


def is_final(row: dict[str, Any], until: int, rule: DepthRule | None = None) -> bool:
    """Whether a class is done at this until: solved, capped by the census's rule (default:
    the three-digit rule; an earlier rule's cap is deepened: :func:`.depth.cap_holds`), or
    open at the depth asked.  A capped class is never computed again, deeper or not."""
    state = standing(row)
    return state == "solved" or (state == "capped" and cap_holds(row, rule)) or \
        int(row["depth"]) >= until


class ProgressLog:
    """The progress lines: DIR/progress.log always (appended by the run directory's
    :meth:`~nimbers.research.rundir.RunDirectory.log`), stderr unless progress is False; each
    line names what (a census, its verification)."""

    def __init__(self, out: str, progress: ProgressOption, interval: float,
                 what: str = "census") -> None:
        self.folder = RunDirectory(out, what.split()[0], ())
        self.echo = progress is not False
        self.interval = interval
        self.what = what
        self.last = time.monotonic()
        self.began = self.last

    def due(self) -> bool:
        return time.monotonic() - self.last >= self.interval

    def say(self, text: str) -> None:
        self.last = time.monotonic()
        line = f"{self.what}: {text} ({self.last - self.began:.0f} s)"
        self.folder.log(line)
        if self.echo:
            stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
            sys.stderr.write(f"{stamp} {line}\n")
            sys.stderr.flush()


#: a class as the schedule holds it: its members, its depth, its latest row (None before any)
_Item = tuple[list[str], int, dict[str, Any] | None]


class _Schedule:
    """One census run: the survey, then the levels of the module docstring."""

    def __init__(self, pool: cf.Executor, alive: Any, out: str, until: int, offsets: bool,
                 log: ProgressLog, rule: DepthRule) -> None:
        self.pool, self.alive, self.out = pool, alive, out
        self.until, self.offsets, self.log, self.rule = until, offsets, log, rule
        self.runs = os.path.join(out, RUNS)

    def run(self, wanted: list[str], rows: list[dict[str, Any]]) -> None:
        mine = set(wanted)
        todo = [c for c in wanted if c not in covered_codes(rows)]
        state: list[_Item] = [
            (r["members"], int(r.get("depth", r.get("reached", 0))), r) for r in rows
            if mine & set(r["members"])]
        state += [(members, 0, None) for members in self._survey(todo)]
        state = self._levels(state)
        self._report("done", state, self.until)

    def _survey(self, todo: list[str]) -> list[list[str]]:
        if not todo:
            return []
        count = min(compute.SURVEY_VALUES, self.until)
        batches = [todo[i:i + _BATCH] for i in range(0, len(todo), _BATCH)]
        futures = [self.pool.submit(compute.survey, b, count, self.offsets) for b in batches]
        groups: dict[str, list[str]] = {}
        for future in self._as_done(futures, "survey", []):
            for code, digest, _dead in future.result():
                groups.setdefault(digest, []).append(code)
        return sorted(groups.values(), key=lambda g: standard_key(min(g, key=standard_key)))

    def _next_level(self, item: _Item) -> int | None:
        """The level an item goes to next: the first above its depth, None when it is final."""
        members, depth, row = item
        if row is not None and is_final(row, self.until, self.rule):
            return None
        return next((level for level in levels(self.until) if level > depth), None)

    def _levels(self, state: list[_Item]) -> list[_Item]:
        """Every open class taken level by level to until; returns the new state.

        A class goes on to its next level as soon as its own is done, rather than when every
        class has done the level: the classes on the frontier engine differ a hundredfold in
        cost, and the slowest alone at a level's end left the other workers idle for half an
        hour at a time (the three-digit census's levels 2^22 and 2^24 on two cores).  The tasks
        ready together are handed out lowest level first, the costliest first within a level
        (:func:`_expected_cost`); a level is reported done when no class can still come to it.
        """
        state = list(state)
        tasks = _LevelTasks()
        self._start(state, tasks)
        for future in as_done(tasks.waiting, self.alive, lambda _left: self._tick(tasks, state)):
            item, level = tasks.finish(future)
            made = [(row["members"], level, row) for row in future.result()]
            for _members, _level, row in made:
                append_row(self.out, row)
            state = [old for old in state if old is not item] + made
            self._start(made, tasks)
            for done in tasks.levels_done():
                self._report(f"level {_power(done)} done", state, done)
        return state

    def _start(self, items: list[_Item], tasks: _LevelTasks) -> None:
        """The next level of each item not final, lowest level and costliest first."""
        ready = [(level, _expected_cost(item)[0], item) for item in items
                 if (level := self._next_level(item)) is not None]
        for level, cost, item in sorted(ready, key=lambda task: (task[0], -task[1])):
            future = self.pool.submit(compute.solve_class, item[0], level, self.runs,
                                      self.offsets, level == self.until, self.rule, item[2])
            tasks.add(future, item, level, cost)

    def _tick(self, tasks: _LevelTasks, state: list[_Item]) -> None:
        """A progress line, when one is due: each level with tasks under way."""
        if self.log.due():
            self.log.say(f"{tasks.describe()}; {self._counts(state)}")

    def _as_done(self, futures: list[Any], stage: str, state: list[Any]) -> Any:
        """The futures as they finish, with a progress line every interval meanwhile."""
        began = time.monotonic()

        def tick(_left: int) -> None:
            if self.log.due():
                self.log.say(f"{stage}: {_tasks_done(futures, began)}; before it, "
                             f"{self._counts(state)}")

        return as_done(futures, self.alive, tick)

    def _counts(self, state: list[Any]) -> str:
        """The classes by :func:`.report.standing` (the report's words), and how many open
        ones are still below the depth asked."""
        kinds = [standing(row) if row is not None else "open" for _m, _d, row in state]
        below = sum(1 for _m, _d, row in state
                    if row is None or not is_final(row, self.until, self.rule))
        deepest = max((d for _m, d, _r in state), default=0)
        return (f"{len(state)} classes: {kinds.count('solved')} solved, "
                f"{kinds.count('capped')} capped, {kinds.count('open')} open ({below} of them "
                f"below {_power(self.until)}); deepest {_power(deepest)}")

    def _report(self, stage: str, state: list[Any], level: int) -> None:
        self.log.say(f"{stage}: {self._counts(state)}")


class _LevelTasks:
    """The census's tasks under way: the set awaited (:func:`.pool.as_done` waits on it as it
    grows), what each task is, and each level's tasks for its progress line."""

    def __init__(self) -> None:
        self.waiting: set[cf.Future[Any]] = set()
        self.running: dict[cf.Future[Any], tuple[_Item, int]] = {}
        #: level -> (when its first task was handed out, its tasks with their weights)
        self.by_level: dict[int, tuple[float, dict[cf.Future[Any], float]]] = {}
        self.reported: set[int] = set()

    def add(self, future: cf.Future[Any], item: _Item, level: int, weight: float) -> None:
        self.waiting.add(future)
        self.running[future] = (item, level)
        self.by_level.setdefault(level, (time.monotonic(), {}))[1][future] = weight

    def finish(self, future: cf.Future[Any]) -> tuple[_Item, int]:
        """The item and level of a task done."""
        return self.running.pop(future)

    def levels_done(self) -> list[int]:
        """The levels no class can come to any more (no task under way at or below them; a
        class goes only deeper), each once, lowest first."""
        lowest = min((level for _item, level in self.running.values()), default=None)
        done = sorted(level for level in self.by_level
                      if level not in self.reported and (lowest is None or level < lowest))
        self.reported.update(done)
        return done

    def describe(self) -> str:
        """"level 2^22: 3 of 4 tasks done (0.5 a minute, about 80% of the work by the seconds
        at the level before); level 2^24: 0 of 2 tasks done (...)": each level not done."""
        parts = []
        for level in sorted(set(self.by_level) - self.reported):
            began, weights = self.by_level[level]
            parts.append(f"level {_power(level)}: {_tasks_done(list(weights), began, weights)}")
        return "; ".join(parts)


def _tasks_done(futures: list[Any], began: float, weights: dict[Any, float] | None = None
                ) -> str:
    """"3 of 4 tasks done (0.5 a minute, about 80% of the work by the seconds at the level
    before)": the futures done, at what rate since began, and their share by weights
    (:func:`_share_done`)."""
    done = sum(1 for future in futures if future.done())
    rate = 60 * done / max(time.monotonic() - began, 1e-9)
    return (f"{done} of {len(futures)} tasks done ({rate:.1f} a minute"
            f"{_share_done(futures, weights)})")


def _expected_cost(item: _Item) -> tuple[float, int]:
    """What a class is expected to cost at the next level, to start the longest first (the
    classes on the frontier engine cost in proportion to their last level: the slowest of
    them started last would leave one worker alone with it at the end): its last level's
    seconds, then its number of members (each is proven)."""
    members, _depth, row = item
    return (float(row["seconds"]) if row is not None else 0.0, len(members))


def _share_done(futures: list[Any], weights: dict[Any, float] | None) -> str:
    """", about P% of the work by the seconds at the level before": the tasks done, weighted
    by what their classes took at their last level (a guess at their shares of this one:
    each class costs some multiple of it, 4 for a frontier run, up to 16 for a dense scan);
    nothing when no class has a last level to go by."""
    if not weights or not any(weights.values()):
        return ""
    total = sum(weights.values())
    done = sum(weights[f] for f in futures if f.done())
    return f", about {100 * done / total:.0f}% of the work by the seconds at the level before"


def _power(n: int) -> str:
    return f"2^{n.bit_length() - 1}" if n and n & (n - 1) == 0 else str(n)
