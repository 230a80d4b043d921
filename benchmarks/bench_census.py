"""The census of every octal code with up to three digits, end to end: the run under the
default budget, `verify`, and the report, with the published figures beside ours (T. Czajka,
octal-games: GameLookup.md's 174 standard forms, SolvedGames.md's ten frontier games).

    python benchmarks/bench_census.py                 # about 15 minutes on 2 cores
    python benchmarks/bench_census.py --digits 2 --budget 60
    python benchmarks/bench_census.py --out DIR       # keep the table (default: a temp dir)

No peer runs here: Czajka's solver has no census mode to time against; bench_heap.py times
the single games against it.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from nimbers.research import census
from nimbers.research.census.report import census_report
from nimbers.research.census.verify import verify_census

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"


def published() -> dict[str, tuple[int, int]]:
    out = {}
    for line in (DATA / "czajka_solved_games.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            game, prefix, period = line.split()[:3]
            out["0" + game] = (int(prefix), int(period))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--digits", type=int, default=3)
    ap.add_argument("--budget", type=float, default=None, help="seconds (default: the census's)")
    ap.add_argument("--out", help="the table's directory (default: a temporary one)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        out = args.out or os.path.join(scratch, "census")
        kwargs = {} if args.budget is None else {"budget": args.budget}
        began = time.monotonic()
        rows = census(args.digits, out=out, progress=True, **kwargs)
        ran = time.monotonic() - began
        began = time.monotonic()
        verified = verify_census(out)
        checked = time.monotonic() - began
        report = census_report(out, plot=None)
    print(f"cores: {len(os.sched_getaffinity(0))}; census of {args.digits}-digit codes: "
          f"{ran:.0f} s wall, {len(rows)} classes (Czajka: 174 for 3 digits)")
    print(f"verify: {checked:.0f} s wall; {verified}")
    print(str(report).splitlines()[0])
    by_code = {r["code"]: r for r in rows}
    print("frontier game: ours (pre-period, period, heap sizes) / published (pre-period, period)")
    for code, (prefix, period) in published().items():
        row = by_code.get(code)
        if row is None:
            continue
        ours = (row["preperiod"], row["period"], row["reached"])
        mark = "ok" if ours[:2] == (prefix, period) else "OPEN" if row["period"] is None else "DIFFERS"
        print(f"  {code:6} {ours} / {(prefix, period)} {mark} ({row['seconds']} s)")


if __name__ == "__main__":
    main()
