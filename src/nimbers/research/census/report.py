"""``census_report(DIR)``: a census table as the published ones read (T. Czajka's
TrivialGames.md, SolvedGames.md and UnsolvedGames.md; A. Flammenkamp's tables): how many
classes are solved, how many trivially (a proof within 1000 heap sizes), the frontier games
with their pre-periods, periods and sparse spaces, the open games with the heap size reached;
and a plot of the periods and pre-periods against the heap size reached (PNG, matplotlib).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from ..pictures import pyplot, save
from .classes import standard_key, written
from .compute import CLASS_KINDS
from .table import TABLE, read_rows

__all__ = ["CensusReport", "census_report", "plot_census", "TRIVIAL_BOUND", "is_solved",
           "standing", "STANDINGS", "promising", "quiet_doublings"]

#: a game is trivially solved when the values up to this heap size prove its period
#: (Czajka's TrivialGames.md: "periods found by considering nimbers for heaps smaller than 1000")
TRIVIAL_BOUND = 1000


def is_solved(row: dict[str, Any]) -> bool:
    """A class is solved when its period is proven and every member proven the same game (a
    class of kind "values" with a proven standard form is not: a member may differ)."""
    return row["period"] is not None and row["class"] in ("single", "proved")


#: what a class is, in every line that counts them (the report, the census's progress lines)
STANDINGS = {"solved": "its period proven, with every member",
             "capped": "no useful sparse space: taken to its cap (the row's cap) and no further",
             "open": "no proof of the class yet, at the heap size reached"}


def standing(row: dict[str, Any]) -> str:
    """"solved", "capped" or "open" (:data:`STANDINGS`): the one definition the report and
    the census's progress lines count by."""
    if is_solved(row):
        return "solved"
    return "capped" if row.get("cap") is not None else "open"


def quiet_doublings(row: dict[str, Any]) -> int:
    """How many times the heap sizes reached have doubled since the row's last event -- its
    last rare value or its last new largest value, whichever came later: log2 of reached over
    that heap size, rounded down (a run that saw its last event at 20,627 and reached 2^28
    has been quiet for 13 doublings)."""
    last = max(int(row["last_rare"] or 0), int(row["largest_at"] or 0), 1)
    return max(int(row["reached"]) // last, 1).bit_length() - 1


def promising(rows: list[dict[str, Any]], count: int = 10) -> list[dict[str, Any]]:
    """The open classes with a sparse space most likely to become periodic, best first: the
    longest quiet stretch (:func:`quiet_doublings`: a sequence whose rare values have died out
    and whose largest value has stopped growing is periodic, A. Flammenkamp's and T.
    Czajka's reason for taking such games deeper), then the fewest rare values, then the
    standard form.  Classes capped for want of a sparse space are not ranked."""
    ranked = [r for r in rows if standing(r) == "open" and r["rare_mask"] is not None]
    ranked.sort(key=lambda r: (-quiet_doublings(r), r["rare_count"], standard_key(r["code"])))
    return ranked[:count]


def _legend(rows: list[dict[str, Any]]) -> list[str]:
    """What every class kind and cap printed means."""
    lines = ["", "class kinds:"] + [f"  {k}: {CLASS_KINDS[k]}" for k in sorted(
        {r["class"] for r in rows})]
    if any(r.get("cap") for r in rows):
        lines.append("  cap: a class without a useful sparse space where it stands (more than "
                     "1/16 of the latest half of its heap sizes rare), taken to that many heap "
                     "sizes and no further")
    return lines


@dataclass
class CensusReport:
    """The counts of a census table and its frontier (solved beyond TRIVIAL_BOUND), open and
    capped rows (:func:`standing`), in the order of their standard forms."""

    codes: int
    classes: int
    solved: int
    trivial: int
    frontier: list[dict[str, Any]] = field(default_factory=list)
    open: list[dict[str, Any]] = field(default_factory=list)
    promising: list[dict[str, Any]] = field(default_factory=list)
    capped: list[dict[str, Any]] = field(default_factory=list)
    plot: str | None = None
    plot_note: str | None = None
    legend: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        lines = [f"{self.codes} codes in {self.classes} classes: {self.solved} solved "
                 f"({self.trivial} trivially, within {TRIVIAL_BOUND} heap sizes; "
                 f"{len(self.frontier)} beyond), {len(self.capped)} capped (no useful sparse "
                 f"space), {len(self.open)} open (no proof of the class)"]
        if self.frontier:
            lines += ["", "solved beyond the trivial (pre-period and period from heap 0):",
                      _table(["game", "pre-period", "period", "largest at", "largest",
                              "rare mask", "rare", "last rare", "members"],
                             [[written(r["code"]), r["preperiod"], r["period"], r["largest_at"],
                               r["largest"], _mask(r), r["rare_count"], r["last_rare"],
                               len(r["members"])] for r in self.frontier])]
        for title, rows in (("open (no period proven up to the heap size reached, or members "
                             "not proven the same game):", self.open),
                            ("capped (no useful sparse space: taken to the cap and no further):",
                             self.capped)):
            if rows:
                lines += ["", title, _table(
                    ["game", "reached", "largest at", "largest", "rare mask", "rare",
                     "last rare", "members", "class", "cap"],
                    [[written(r["code"]), r["reached"], r["largest_at"], r["largest"], _mask(r),
                      r["rare_count"], r["last_rare"], len(r["members"]), r["class"],
                      r.get("cap")] for r in rows])]
        if self.promising:
            lines += ["", "most promising open classes (the longest quiet stretch since the last "
                      "rare value or record, then the fewest rare values):",
                      _table(["rank", "game", "reached", "quiet doublings", "rare", "last rare",
                              "largest at"],
                             [[i, written(r["code"]), r["reached"], quiet_doublings(r),
                               r["rare_count"], r["last_rare"], r["largest_at"]]
                              for i, r in enumerate(self.promising, 1)])]
        lines += self.legend
        if self.plot:
            lines += ["", f"plot: {self.plot}"]
        elif self.plot_note:
            lines += ["", self.plot_note]
        return "\n".join(lines)


def _mask(row: dict[str, Any]) -> str:
    if row["rare_mask"] is None:
        return "-"
    return str(row["rare_mask"]) + ("+parity" if row["rare_parity"] else "")


def _table(head: list[str], body: list[list[Any]]) -> str:
    cells = [head] + [["-" if v is None else str(v) for v in row] for row in body]
    widths = [max(len(r[i]) for r in cells) for i in range(len(head))]
    return "\n".join("  ".join(c.rjust(w) if i else c.ljust(w)
                               for i, (c, w) in enumerate(zip(r, widths))) for r in cells)


def census_report(directory: str, plot: str | None = "") -> CensusReport:
    """The report of directory/census.jsonl; plot: where to write the PNG ("" for
    directory/census.png, None for none).  Without matplotlib the report says so in
    plot_note, unless a plot path was asked for: then ImportError.

    >>> import tempfile
    >>> from nimbers.research.census import census
    >>> with tempfile.TemporaryDirectory() as d:
    ...     _ = census(codes=["0.77", "0.6"], out=d, workers=1, until=4096, progress=False)
    ...     report = census_report(d, plot=None)
    >>> report.classes, report.solved, [r["code"] for r in report.open]
    (2, 1, ['0.6'])
    """
    rows = sorted(read_rows(directory, repair=False), key=lambda r: standard_key(r["code"]))
    if not rows:
        raise ValueError(f"{directory}: no census table ({TABLE})")
    solved = [r for r in rows if is_solved(r)]
    trivial = [r for r in solved if r["certificate"]["bound"] <= TRIVIAL_BOUND]
    report = CensusReport(sum(len(r["members"]) for r in rows), len(rows), len(solved),
                          len(trivial), [r for r in solved if r not in trivial],
                          [r for r in rows if standing(r) == "open"], promising(rows),
                          [r for r in rows if standing(r) == "capped"], legend=_legend(rows))
    if plot is not None:
        path = plot or os.path.join(directory, "census.png")
        try:
            plot_census(rows, path)
            report.plot = path
        except ImportError as exc:
            if plot:
                raise
            report.plot_note = f"no plot: {exc}"
    return report


def plot_census(rows: list[dict[str, Any]], path: str) -> None:
    """A PNG at path: each solved class's period and pre-period against the heap size its
    proof reached, and the open classes' heap sizes reached (log scales).

    Raises
    ------
    ImportError
        matplotlib is not installed.
    """
    plt = pyplot()
    solved = [r for r in rows if is_solved(r)]
    still = [r for r in rows if not is_solved(r)]
    fig, ax = plt.subplots(figsize=(8, 5.5), dpi=110)
    ax.scatter([r["reached"] for r in solved], [r["period"] for r in solved], s=18,
               marker="o", label="period")
    ax.scatter([r["reached"] for r in solved], [max(r["preperiod"], 0.8) for r in solved],
               s=22, marker="x", label="pre-period")
    if still:
        ax.scatter([r["reached"] for r in still], [0.6] * len(still), s=30, marker="|",
                   color="grey", label="open: heap size reached")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("heap sizes computed (the proof's bound, or reached)")
    ax.set_ylabel("period, pre-period")
    ax.set_title(f"octal games: {len(solved)} of {len(rows)} classes solved")
    save(fig, ax, path, labels=[(r["reached"], max(r["preperiod"], 1), written(r["code"]))
                                for r in solved if r["certificate"]["bound"] > TRIVIAL_BOUND])
