#!/usr/bin/env python3
"""A census directory to deepen the classes results/census holds capped by the earlier dense
rule (issue 48: 34 classes at 2^17), made from results/census itself, and the codes file that
names them.

    python tools/census_depth_work.py WORK [--rows census.jsonl] [--codes FILE]

WORK/census gets census.json (the 1,023 codes, T. Czajka's convention) and census.jsonl (the
rows of results/census, or of --rows: the table an earlier deepening brought back), and, for
each open class of that table, WORK/census/runs/CODE/rare.csv and records.csv copied from
results/census/lists/ (the only files of a run that ``tools/results.py census --export-only``
reads, so the table can be published again without making those runs anew).  --codes FILE
(default WORK/capped.txt) gets the standard forms of the classes still capped by the earlier
rule, one a line: ``nimbers census deepen WORK/census --until 2^20 --codes FILE`` takes them
on.  An existing WORK/census is left as it is (a deepening there goes on) but for the codes
file.
"""
from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CENSUS = ROOT / "results" / "census"


def main(argv: list[str] | None = None) -> int:
    from nimbers.research.census.depth import EARLIER_RULE
    from nimbers.research.census.report import standing
    from nimbers.research.census.table import TABLE, read_rows, write_meta

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("work")
    p.add_argument("--rows", default=str(CENSUS / TABLE))
    p.add_argument("--codes", default=None)
    args = p.parse_args(argv)
    out = Path(args.work) / "census"
    if not (out / TABLE).exists():
        out.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(args.rows, out / TABLE)
        rows = read_rows(str(out), repair=False)
        codes = sorted({m for r in rows for m in r["members"]})
        write_meta(str(out), {"offsets": True, "codes": codes,
                              "until": max(int(r["depth"]) for r in rows)})
        for row in rows:
            lists = [CENSUS / "lists" / f"{row['code']}.{k}.csv" for k in ("rare", "records")]
            if standing(row) == "open" and all(f.exists() for f in lists):
                run = out / "runs" / row["code"]
                run.mkdir(parents=True, exist_ok=True)
                for kind, f in zip(("rare", "records"), lists):
                    shutil.copyfile(f, run / f"{kind}.csv")
    rows = read_rows(str(out), repair=False)
    capped = [r["code"] for r in rows if (r["depth"], r.get("cap")) == EARLIER_RULE]
    codes_file = Path(args.codes or Path(args.work) / "capped.txt")
    codes_file.write_text("".join(f"{c}\n" for c in capped), encoding="utf-8")
    print(f"{out}: {len(rows)} classes, {len(capped)} capped by the earlier rule "
          f"(listed in {codes_file})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
