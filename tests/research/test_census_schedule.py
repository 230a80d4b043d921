"""The census's schedule (research/census/run.py): a class goes on to its next level as soon as
its own is done, without waiting for the slowest class of the level, and each level is
reported done once, when no class can still come to it.

The executor is a stand-in whose tasks finish when the test says, so the order is exact: the
slow class's first level is held until the fast class has gone all the way down."""

from __future__ import annotations

import concurrent.futures as cf
import json
from pathlib import Path
from typing import Any

from nimbers.research.census import compute
from nimbers.research.census.run import ProgressLog, _Schedule, levels
from nimbers.research.census.depth import rule_for_digits
from nimbers.research.census.table import TABLE
from nimbers.research.rundir import PROGRESS_LOG

UNTIL = 1 << 18   # levels 2^14, 2^16, 2^18 after the rows at 2^12


def _row(code: str, level: int) -> dict[str, Any]:
    """An open row of one member at level (what solve_class returns for a class not proven)."""
    return {"code": code, "members": [code], "class": "single", "period": None,
            "cap": None, "depth": level, "reached": level, "seconds": 1.0}


class _HeldPool:
    """Runs a task at once, except the slow class's while release() has not been called."""

    def __init__(self) -> None:
        self.order: list[tuple[str, int]] = []
        self.held: list[tuple[cf.Future[Any], str, int]] = []
        self.released = False
        self.looks = 0

    def submit(self, fn: Any, members: list[str], level: int, *args: Any) -> cf.Future[Any]:
        assert fn is compute.solve_class
        code = members[0]
        self.order.append((code, level))
        future: cf.Future[Any] = cf.Future()
        if code == "0.slow" and not self.released:
            self.held.append((future, code, level))
        else:
            future.set_result([_row(code, level)])
        return future

    def release(self) -> None:
        """The executor's alive check: once the fast class is at the bottom, the slow goes (or
        after a few looks, so that a schedule which waits for it fails rather than hangs)."""
        self.looks += 1
        if (("0.fast", UNTIL) in self.order or self.looks > 3) and not self.released:
            self.released = True
            for future, code, level in self.held:
                future.set_result([_row(code, level)])


def test_a_class_goes_deeper_while_another_is_still_at_its_level(tmp_path: Path) -> None:
    pool = _HeldPool()
    log = ProgressLog(str(tmp_path), False, 0.0)
    schedule = _Schedule(pool, pool.release, str(tmp_path), UNTIL, False, log,  # type: ignore[arg-type]
                         rule_for_digits(3))
    schedule.run(["0.slow", "0.fast"], [_row("0.slow", 1 << 12), _row("0.fast", 1 << 12)])
    assert levels(UNTIL)[1:] == [1 << 14, 1 << 16, 1 << 18]
    # the fast class went down all three levels before the slow one finished its first
    assert pool.order[:4] == [("0.slow", 1 << 14), ("0.fast", 1 << 14),
                              ("0.fast", 1 << 16), ("0.fast", 1 << 18)]
    assert pool.order[4:] == [("0.slow", 1 << 16), ("0.slow", 1 << 18)]
    rows = [json.loads(line) for line in (tmp_path / TABLE).read_text().splitlines()]
    made = [(r["code"], r["depth"]) for r in rows]   # appended as each class finished a level
    assert made[:2] == [("0.fast", 1 << 14), ("0.fast", 1 << 16)]
    assert sorted(made) == sorted(pool.order)
    done = [line.split(" census: ")[1].split(":")[0]
            for line in (tmp_path / PROGRESS_LOG).read_text().splitlines()
            if " done:" in line]
    # a level is done only when the slow class has left it, each once, in order
    assert done == ["level 2^14 done", "level 2^16 done", "level 2^18 done", "done"]
