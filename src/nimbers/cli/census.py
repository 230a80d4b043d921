"""census: a census of octal games (:mod:`nimbers.research.census`): its arguments and what
it runs.

    nimbers census --digits 3 --out DIR [--budget S] [--workers N | --scheduler tcp://H:P]
    nimbers census verify DIR
    nimbers census report DIR [--plot FILE]
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from .options import Commands, count_type, seconds_type

__all__ = ["census_commands"]

SUMMARY = ("a census of octal games: every code with up to K digits, classes of the same "
           "game, periods proven, resumable, verifiable, on the cores here or a dask cluster")
EXAMPLE = ("nimbers census --digits 3 --out census3;  nimbers census verify census3;  "
           "nimbers census report census3")

_ACTIONS = ("run", "verify", "report", "misere")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("action", nargs="?", default="run", choices=_ACTIONS,
                   help="run (the default): compute the table; verify DIR: re-check every row "
                        "from scratch (exit 2 naming the first row that fails); report DIR: "
                        "counts, the frontier and open games, a PNG plot; misere DIR: the misère "
                        "quotients of every class (--max-heap, --max-order, --table)")
    p.add_argument("dir", nargs="?", metavar="DIR",
                   help="the census's directory (for run, the same as --out)")
    p.add_argument("--digits", type=count_type(1, 9), metavar="K",
                   help="every octal code 0.d1..dk and 4.d1..dk with k <= K (K = 3: 1023 games)")
    p.add_argument("--codes", metavar="FILE",
                   help="the codes in FILE instead (one or more a line, like .161 0.36 4.3; "
                        "'#' starts a comment)")
    p.add_argument("--out", metavar="DIR",
                   help="where the table goes: DIR/census.jsonl, one row per class, appended as "
                        "classes finish; run again after a kill to compute only what is missing")
    p.add_argument("--budget", type=seconds_type, metavar="SECONDS",
                   help="the whole census's time (default 780; verify: 240 for the open rows): "
                        "every class first gets a second, then the open ones share the rest")
    p.add_argument("--workers", type=count_type(1, 4096), metavar="N",
                   help="processes computing at once (default: this machine's cores)")
    p.add_argument("--scheduler", metavar="tcp://HOST:PORT",
                   help="run the games on a dask distributed cluster (dask scheduler and dask "
                        "worker started by you; needs pip install 'nimbers[cluster]')")
    p.add_argument("--max-n", type=count_type(1, 2**48 - 1), metavar="N",
                   help="the most heap sizes one game is taken to (default 2^26)")
    p.add_argument("--plain", action="store_true",
                   help="classes of equal sequences as they are, heap 0 on (default: heap sizes "
                        "that allow no move dropped first, T. Czajka's convention: 174 classes "
                        "for K = 3; plain gives 205)")
    p.add_argument("--plot", metavar="FILE.png",
                   help="report: where the plot goes (default DIR/census.png; needs matplotlib)")
    p.add_argument("--json", action="store_true", help="report: the counts and rows as JSON")
    from .census_misere import add_misere_arguments   # misere DIR: the misère quotients
    add_misere_arguments(p)


def run(args: argparse.Namespace) -> str:
    if args.action == "verify":
        return _verify(args)
    if args.action == "report":
        return _report(args)
    if args.action == "misere":
        from .census_misere import run_misere
        return run_misere(args)
    return _census(args)


def _directory(args: argparse.Namespace, *, out_ok: bool = False) -> str:
    found = args.dir or (args.out if out_ok else None)
    if args.dir and args.out and args.dir != args.out:
        raise ValueError("give the directory once (DIR or --out)")
    if not found:
        raise ValueError(f"census {args.action} needs a directory: nimbers census "
                         f"{'--out DIR' if out_ok else args.action + ' DIR'}")
    return str(found)


def _census(args: argparse.Namespace) -> str:
    from ..research.census.run import DEFAULT_BUDGET, DEFAULT_MAX_N, census
    from ..research.census.report import census_report

    out = _directory(args, out_ok=True)
    if (args.digits is None) == (args.codes is None):
        raise ValueError("give --digits K or --codes FILE")
    codes = _read_codes(args.codes) if args.codes else None
    census(args.digits, codes=codes, out=out,
           budget=DEFAULT_BUDGET if args.budget is None else args.budget,
           workers=args.workers, scheduler=args.scheduler,
           max_n=DEFAULT_MAX_N if args.max_n is None else args.max_n, offsets=not args.plain)
    summary = census_report(out, plot=None)
    return (f"{str(summary).splitlines()[0]}\ntable: {out}/census.jsonl (check it: nimbers "
            f"census verify {out}; read it: nimbers census report {out})")


def _read_codes(path: str) -> list[str]:
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except UnicodeDecodeError:
        raise ValueError(f"{path}: not a text file") from None
    codes = [word for line in text.splitlines()
             for word in line.split("#", 1)[0].replace(",", " ").split()]
    if not codes:
        raise ValueError(f"{path}: no codes in it")
    return codes


def _verify(args: argparse.Namespace) -> str:
    from ..research.census.verify import verify_census

    directory = _directory(args)
    return str(verify_census(directory, budget=240.0 if args.budget is None else args.budget,
                             workers=args.workers, scheduler=args.scheduler))


def _report(args: argparse.Namespace) -> str:
    from ..research.census.report import census_report

    directory = _directory(args)
    report = census_report(directory, plot=args.plot or "")
    if args.json:
        data: dict[str, Any] = {k: getattr(report, k) for k in
                                ("codes", "classes", "solved", "trivial", "frontier", "open",
                                 "plot", "plot_note")}
        return json.dumps(data, indent=1)
    return str(report)


def census_commands(commands: Commands) -> None:
    """census [run|verify|report]."""
    add_arguments(commands.add("census", SUMMARY, EXAMPLE, run))
