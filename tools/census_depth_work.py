#!/usr/bin/env python3
"""A census directory to deepen the classes results/census holds capped by the earlier dense
rule (issue 48: 34 classes at 2^17), made from results/census itself, and the codes file that
names them.

    python tools/census_depth_work.py WORK [--rows census.jsonl] [--runs DIR] [--codes FILE]

WORK/census gets census.json (the 1,023 codes, T. Czajka's convention) and census.jsonl (the
rows of results/census, or of --rows: the table an earlier deepening brought back), and, for
each open class of that table, WORK/census/runs/CODE/rare.csv and records.csv copied from
results/census/lists/ (the only files of a run that ``tools/results.py census --export-only``
reads, so the table can be published again without making those runs anew; a deepening of
such a class starts its run from heap 0 in their place).  --runs DIR: the
runs' files an earlier deepening brought back (DIR/CODE/rare.csv, records.csv, stats.json),
copied in too.  A class whose last row is open with no frontier run behind it (a level done in
memory, the next not yet) keeps its rows up to its last one that has (its earlier state), so
the table can always be published.  --codes FILE
(default WORK/capped.txt) gets the standard forms of the classes the earlier rule capped that
are still to be taken on (:func:`still_to_deepen`: read from every row of the table, so a
second session resumes the first one's classes), one a line:
``nimbers census deepen WORK/census --until 2^20 --codes FILE`` takes them on.  An existing
WORK/census is left as it is (a deepening there goes on) but for the codes file.
"""
from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CENSUS = ROOT / "results" / "census"


def main(argv: list[str] | None = None) -> int:
    from nimbers.research.census.report import standing
    from nimbers.research.census.table import TABLE, read_rows, write_meta

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("work")
    p.add_argument("--rows", default=str(CENSUS / TABLE))
    p.add_argument("--runs", default=None)
    p.add_argument("--codes", default=None)
    args = p.parse_args(argv)
    out = Path(args.work) / "census"
    if not (out / TABLE).exists():
        out.mkdir(parents=True, exist_ok=True)
        if args.runs:
            shutil.copytree(args.runs, out / "runs", dirs_exist_ok=True)
        lines = Path(args.rows).read_text(encoding="utf-8").splitlines()
        for row in map(json.loads, lines):
            lists = [CENSUS / "lists" / f"{row['code']}.{k}.csv" for k in ("rare", "records")]
            run = out / "runs" / row["code"]
            if standing(row) == "open" and all(f.exists() for f in lists) and not (
                    run / "rare.csv").exists():
                run.mkdir(parents=True, exist_ok=True)
                for kind, f in zip(("rare", "records"), lists):
                    shutil.copyfile(f, run / f"{kind}.csv")
        (out / TABLE).write_text("".join(f"{line}\n" for line in _publishable(lines, out)),
                                 encoding="utf-8")
        rows = read_rows(str(out), repair=False)
        codes = sorted({m for r in rows for m in r["members"]})
        write_meta(str(out), {"offsets": True, "codes": codes,
                              "until": max(int(r["depth"]) for r in rows)})
    rows = read_rows(str(out), repair=False)
    capped = still_to_deepen(out)
    codes_file = Path(args.codes or Path(args.work) / "capped.txt")
    codes_file.write_text("".join(f"{c}\n" for c in capped), encoding="utf-8")
    print(f"{out}: {len(rows)} classes, {len(capped)} capped by the earlier rule and still "
          f"to deepen (listed in {codes_file})")
    return 0


def still_to_deepen(out: Path) -> list[str]:
    """The standard forms of the classes the earlier rule capped that are still to be taken
    on: a row of theirs anywhere in out's census.jsonl (the table keeps every level's row)
    stood at the earlier rule's (depth, cap), and their current row is neither solved nor
    capped by this rule.  Read from the whole history, not from the current rows alone, so a
    second session goes on with the classes the first one took past 2^17 but not to the end
    (the first version listed only the current rows still at 2^17, and a resumed run
    dropped every class already deepened one level)."""
    from nimbers.research.census.depth import EARLIER_RULE, cap_holds
    from nimbers.research.census.report import standing
    from nimbers.research.census.table import (TABLE, census_rule, covered_codes, read_meta,
                                               read_rows)

    lines = (out / TABLE).read_text(encoding="utf-8").splitlines()
    once = {m for r in map(json.loads, filter(None, lines))
            if (r.get("depth"), r.get("cap")) == EARLIER_RULE for m in r["members"]}
    rows = read_rows(str(out), repair=False)
    rule = census_rule(read_meta(str(out)), covered_codes(rows))     # the census's own
    return [r["code"] for r in rows
            if once & set(r["members"]) and standing(r) != "solved" and not cap_holds(r, rule)]


def _publishable(lines: list[str], out: Path) -> list[str]:
    """lines without the last rows of classes that are open with no frontier run behind them
    (made in memory, or the run's lists missing from out/runs): each such class's earlier row
    is its state again."""
    from nimbers.research.census.report import standing

    rows = [json.loads(line) for line in lines]
    while True:
        last = {r["code"]: i for i, r in enumerate(rows)}
        bare = [i for i in last.values() if standing(rows[i]) == "open" and (
            rows[i]["engine"] != "frontier"
            or not (out / "runs" / rows[i]["code"] / "rare.csv").exists())]
        if not bare:
            return [line for line, r in zip(lines, rows) if r is not None]
        for i in bare:
            rows[i] = {"code": None}
        keep = [(line, r) for line, r in zip(lines, rows) if r.get("code") is not None]
        lines, rows = [k[0] for k in keep], [k[1] for k in keep]


if __name__ == "__main__":
    sys.exit(main())
