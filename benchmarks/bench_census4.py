"""The four-digit census's cost per class, measured on a random sample of its classes (issue 49).

    nimbers census --digits 4 --until 4096 --out DIR          # the survey and level 2^12
    python benchmarks/bench_census4.py DIR --depths 2^14,2^16 --sample 24 --seed 1

Each sampled class still open in DIR is taken level by level through the depths, in this
process (one core), exactly as the census takes it (:func:`nimbers.research.census.compute.
solve_class`, the frontier runs in a temporary directory): one JSON line per class and level
with its CPU seconds (``time.process_time``: this process and its threads, so a shared
machine's load does not count), how it stands after the level and the engine; then per depth
the mean, median and largest CPU seconds of the classes it took there, and the census's total
at that level extrapolated from the sample (its CPU seconds there over the classes drawn,
times the classes open in DIR: a class proven or capped earlier costs nothing deeper).  The
classes are taken under DIR's depth rule (its census.json's, or its digits' default: for
``--digits 4`` judged dense from 2^18, a capped class's members compared to 2^16), or with
``--rule-digits K`` under the default rule of a K-digit census (3: 2^20 throughout, the rule
before 2026-11-28).

    python benchmarks/bench_census4.py results/census4 --depths 2^18 --rare 4000:16000 --sample 6

With ``--rare LO:HI``: only the open classes whose row in DIR counts LO to HI-1 rare values
(a stratum: the classes between the sparse and the dense, whose cost varies most), the
extrapolation then to the classes of that stratum.  The sample is
drawn by ``random.Random(seed)`` from the open classes in the order of their standard forms,
so the same DIR and seed give the same classes on any machine.

    python benchmarks/bench_census4.py DIR --judge 2^16 --sample 60 --seed 1

With ``--judge N``: codes instead of classes, drawn from the members of the open classes; each
code's first N values (the ordinary engine, CPU seconds timed) judged dense or not by the
census's rule (:func:`nimbers.research.census.depth.is_dense`), the share of dense codes
printed: what a level deeper than N costs depends on it (a dense code to 2^20 is the plain
scan's n^2/2 options).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from nimbers.games.heap import octal_game  # noqa: E402
from nimbers.research.census import compute  # noqa: E402
from nimbers.research.census.depth import DepthRule, is_dense, rule_for_digits  # noqa: E402
from nimbers.research.census.classes import standard_key  # noqa: E402
from nimbers.research.census.report import standing  # noqa: E402
from nimbers.research.census.table import census_rule, read_meta, read_rows  # noqa: E402


def _count(text: str) -> int:
    base, _, power = text.partition("^")
    return int(base) ** int(power) if power else int(text)


def _sample(directory: str, size: int, seed: int, rare: tuple[int, int] | None = None
            ) -> tuple[list[dict[str, Any]], int]:
    rows = sorted(read_rows(directory, repair=False), key=lambda r: standard_key(r["code"]))
    open_rows = [r for r in rows if standing(r) == "open" and (
        rare is None or rare[0] <= (r["rare_count"] or 0) < rare[1])]
    picked = random.Random(seed).sample(open_rows, min(size, len(open_rows)))
    return sorted(picked, key=lambda r: standard_key(r["code"])), len(open_rows)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("census", help="a census's directory (at 2^12 or deeper)")
    p.add_argument("--depths", default="2^14,2^16", help="the levels, in order (2^14,2^16)")
    p.add_argument("--sample", type=int, default=24, help="classes drawn (default 24)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--judge", help="judge a sample of codes for density at this depth")
    p.add_argument("--rare", help="LO:HI, only the open classes with LO to HI-1 rare values")
    p.add_argument("--rule-digits", type=int, help="the default depth rule of a census of "
                   "this many digits instead of DIR's own (3: the rule before 2026-11-28)")
    args = p.parse_args(argv)
    if args.judge:
        return _judge(args.census, _count(args.judge), args.sample, args.seed)
    depths = [_count(d) for d in args.depths.split(",")]
    rule: DepthRule = rule_for_digits(args.rule_digits) if args.rule_digits else \
        census_rule(read_meta(args.census))
    print(json.dumps({"rule": rule.as_json()}), flush=True)
    rare = None
    if args.rare:
        low, high = args.rare.split(":")
        rare = (_count(low), _count(high))
    picked, open_count = _sample(args.census, args.sample, args.seed, rare)
    seconds: dict[int, list[float]] = {d: [] for d in depths}
    with tempfile.TemporaryDirectory() as runs:
        for row in picked:
            members = list(row["members"])
            for depth in depths:
                began = time.process_time()
                out = compute.solve_class(members, depth, runs, True, False, rule)
                spent = time.process_time() - began
                seconds[depth].append(spent)
                print(json.dumps({"code": row["code"], "members": len(members), "depth": depth,
                                  "cpu_s": round(spent, 3), "rows": len(out),
                                  "standing": standing(out[0]), "engine": out[0]["engine"],
                                  "cap": out[0]["cap"]}),
                      flush=True)
                if all(standing(r) != "open" for r in out):
                    break       # solved or capped: the census takes it no deeper
    for depth in depths:
        got = seconds[depth]
        if got:
            mean = statistics.fmean(got)
            print(json.dumps({"depth": depth, "classes_timed": len(got), "open_at_start":
                              open_count, "mean_cpu_s": round(mean, 3),
                              "median_cpu_s": round(statistics.median(got), 3),
                              "max_cpu_s": round(max(got), 3),
                              "extrapolated_cpu_s": round(sum(got) / len(picked) * open_count)}))
    return 0


def _judge(directory: str, depth: int, size: int, seed: int) -> int:
    rows = sorted(read_rows(directory, repair=False), key=lambda r: standard_key(r["code"]))
    codes = sorted({m for r in rows if standing(r) == "open" for m in r["members"]},
                   key=standard_key)
    picked = sorted(random.Random(seed).sample(codes, min(size, len(codes))), key=standard_key)
    dense = 0
    for code in picked:
        game = octal_game(code)
        began = time.process_time()
        values = game.nim_values(depth, progress=False)
        spent = time.process_time() - began
        verdict = is_dense(values, tuple(game.rules or ()))
        dense += verdict
        print(json.dumps({"code": code, "depth": depth, "cpu_s": round(spent, 3),
                          "dense": verdict}), flush=True)
    print(json.dumps({"depth": depth, "codes_in_open_classes": len(codes),
                      "codes_judged": len(picked), "dense": dense}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
