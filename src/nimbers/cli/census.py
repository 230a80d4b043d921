"""census: a census of octal games (:mod:`nimbers.research.census`): its arguments and what
it runs.

    nimbers census --digits 3 --out DIR [--until 2^24] [--workers N | --scheduler tcp://H:P]
    nimbers census deepen DIR --until 2^26
    nimbers census verify DIR [--budget S] [--work RUNS]
    nimbers census report DIR [--plot FILE]
    nimbers census export DIR --format md|csv|tex [--columns czajka|flammenkamp] [--out FILE]
    nimbers census compare DIR TABLE
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from .options import Commands, count_type, seconds_type, write_out

__all__ = ["census_commands"]

SUMMARY = ("a census of octal games: every code with up to K digits, classes of the same "
           "game, periods proven, resumable, verifiable, on the cores here or a dask cluster")
EXAMPLE = ("nimbers census --digits 3 --until 2^24 --out census3;  nimbers census deepen "
           "census3 --until 2^26;  nimbers census verify census3;  nimbers census report "
           "census3;  nimbers census export census3 --format md")

_ACTIONS = ("run", "deepen", "verify", "report", "export", "compare", "misere")
#: the most bytes a --codes file may hold
MAX_CODES_BYTES = 1 << 20


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("action", nargs="?", default="run", choices=_ACTIONS,
                   help="run (the default): compute the table; deepen DIR: take its open rows "
                        "to --until; verify DIR: re-check every row from scratch (exit 2 "
                        "naming the first row that fails); report DIR: counts, the frontier "
                        "and open games, a PNG plot; export DIR: the table in the published "
                        "columns; compare DIR TABLE: every row that differs from a published "
                        "table (exit 1 when one does); misere DIR: the misère quotients of every "
                        "class (--max-heap, --max-order, --table)")
    p.add_argument("dir", nargs="?", metavar="DIR",
                   help="the census's directory (for run, the same as --out)")
    p.add_argument("published", nargs="?", metavar="TABLE",
                   help="compare: a published table (T. Czajka's columns, whitespace or CSV)")
    p.add_argument("--until", type=count_type(64, 2**40), metavar="N",
                   help="the depth: heap sizes every open class is taken to (default 2^24); "
                        "a larger one later continues the open rows")
    p.add_argument("--format", choices=("md", "csv", "tex"), default="md",
                   help="export: Markdown, CSV or LaTeX (default md)")
    p.add_argument("--columns", choices=("czajka", "flammenkamp"), default="czajka",
                   help="export: T. Czajka's columns (default) or A. Flammenkamp's")
    p.add_argument("--digits", type=count_type(1, 9), metavar="K",
                   help="every octal code 0.d1..dk and 4.d1..dk with k <= K (K = 3: 1023 games)")
    p.add_argument("--codes", metavar="FILE",
                   help="the codes in FILE instead (one or more a line, like .161 0.36 4.3; "
                        "'#' starts a comment); deepen: only their classes")
    p.add_argument("--promising", type=count_type(1, 4096), metavar="K",
                   help="deepen: only the K most promising open classes (the longest quiet "
                        "stretch since a rare value or record, then the fewest rare values, "
                        "on their rows at the depth every open class reached, so a stopped "
                        "run started again picks the same K; census report lists them)")
    p.add_argument("--out", metavar="DIR",
                   help="where the table goes: DIR/census.jsonl, one row per class and depth, "
                        "appended as classes finish; run again after a kill to go on (export: "
                        "the file written, default standard output)")
    p.add_argument("--budget", type=seconds_type, metavar="SECONDS",
                   help="verify: the seconds the ordinary engine may take on the open rows "
                        "(default 240; proven and capped rows are made again in full, and a "
                        "row past 2^20 heap sizes also in full by "
                        "a fresh frontier run, whatever the budget); a census itself runs by "
                        "depth (--until), not by time")
    p.add_argument("--work", metavar="RUNS",
                   help="verify: where the fresh frontier runs of the rows past 2^20 heap sizes "
                        "go (as large as the census's own runs); kept, so a verification "
                        "stopped and started again goes on from their checkpoints (default: a "
                        "temporary directory, removed at the end)")
    p.add_argument("--workers", type=count_type(1, 4096), metavar="N",
                   help="processes computing at once (default: this machine's cores)")
    p.add_argument("--scheduler", metavar="tcp://HOST:PORT",
                   help="run the games on a dask distributed cluster (dask scheduler and dask "
                        "worker started by you; needs pip install 'nimbers[cluster]')")
    p.add_argument("--max-n", type=count_type(64, 2**40), metavar="N", dest="max_n",
                   help="the same as --until (the older name)")
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
    if args.published is not None and args.action != "compare":
        raise ValueError(f"census {args.action} takes one directory, not {args.published!r} too")
    if args.budget is not None and args.action != "verify":
        raise ValueError("--budget is for census verify: a census runs by depth (--until N)")
    if args.work is not None and args.action != "verify":
        raise ValueError("--work is for census verify: a census keeps its runs in DIR/runs")
    if args.promising is not None and args.action != "deepen":
        raise ValueError("--promising is for census deepen: the K most promising open classes")
    if args.action == "misere":
        from .census_misere import run_misere
        return run_misere(args)
    return {"verify": _verify, "report": _report, "deepen": _deepen, "export": _export,
            "compare": _compare}.get(args.action, _census)(args)


def _directory(args: argparse.Namespace, *, out_ok: bool = False) -> str:
    found = args.dir or (args.out if out_ok else None)
    if args.dir and args.out and args.dir != args.out and out_ok:
        raise ValueError("give the directory once (DIR or --out)")
    if not found:
        raise ValueError(f"census {args.action} needs a directory: nimbers census "
                         f"{'--out DIR' if out_ok else args.action + ' DIR'}")
    if os.path.exists(found) and not os.path.isdir(found):
        raise ValueError(f"{found} is not a directory")
    return str(found)


def _until(args: argparse.Namespace) -> int | None:
    if args.until is not None and args.max_n is not None and args.until != args.max_n:
        raise ValueError("give --until once (--max-n is its older name)")
    found: int | None = args.until if args.until is not None else args.max_n
    return found


def _census(args: argparse.Namespace) -> str:
    from ..research.census.report import census_report
    from ..research.census.run import DEFAULT_UNTIL, census

    out = _directory(args, out_ok=True)
    if (args.digits is None) == (args.codes is None):
        raise ValueError("give --digits K or --codes FILE")
    codes = _read_codes(args.codes) if args.codes else None
    until = _until(args)
    census(args.digits, codes=codes, out=out, until=DEFAULT_UNTIL if until is None else until,
           workers=args.workers, scheduler=args.scheduler, offsets=not args.plain)
    return _summary(census_report(out, plot=None), out)


def _summary(report: Any, out: str) -> str:
    return (f"{str(report).splitlines()[0]}\ntable: {out}/census.jsonl (check it: nimbers "
            f"census verify {out}; read it: nimbers census report {out})")


def _deepen(args: argparse.Namespace) -> str:
    from ..research.census.report import census_report
    from ..research.census.run import deepen

    directory = _directory(args)
    until = _until(args)
    if until is None:
        raise ValueError("census deepen needs --until N (the new depth)")
    only = _read_codes(args.codes) if args.codes else None
    deepen(directory, until, only=only, promising=args.promising, workers=args.workers,
           scheduler=args.scheduler)
    return _summary(census_report(directory, plot=None), directory)


def _read_codes(path: str) -> list[str]:
    from ..files import read_capped

    text = read_capped(path, MAX_CODES_BYTES, "codes file")
    if "\0" in text:
        raise ValueError(f"{path}: not a text file (it holds NUL bytes)")
    codes = [word for line in text.splitlines()
             for word in line.split("#", 1)[0].replace(",", " ").split()]
    if not codes:
        raise ValueError(f"{path}: no codes in it")
    return codes


def _export(args: argparse.Namespace) -> str:
    from ..research.census.table import read_rows
    from ..research.export import export_table

    directory = _directory(args)
    rows = read_rows(directory, repair=False)
    if not rows:
        raise ValueError(f"{directory}: no census table to export")
    text = export_table(rows, args.format, args.columns)
    if args.out is None:
        return text.rstrip("\n")
    _write_file(args.out, text)
    return f"{args.out}: {len(rows)} rows ({args.format}, {args.columns}'s columns)"


def _write_file(path: str, text: str) -> None:
    """text into path atomically (a special file such as /dev/null: written directly); a
    failure is one line."""
    from ..files import write_atomically

    try:
        if os.path.exists(path) and not os.path.isfile(path):
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
                f.flush()
            return
        write_atomically(path, text)
    except OSError as exc:
        raise ValueError(f"cannot write {path}: {exc.strerror or exc}") from None


def _compare(args: argparse.Namespace) -> str:
    from ..research.census.table import read_rows
    from ..research.export import compare_table

    directory = _directory(args)
    if args.published is None:
        raise ValueError("census compare needs a table: nimbers census compare DIR TABLE")
    found = compare_table(read_rows(directory, repair=False), args.published)
    text = str(found)
    if found.differences:
        write_out(text, sys.stdout)
        raise SystemExit(1)
    return text


def _verify(args: argparse.Namespace) -> str:
    from ..research.census.verify import verify_census

    directory = _directory(args)
    return str(verify_census(directory, budget=240.0 if args.budget is None else args.budget,
                             workers=args.workers, scheduler=args.scheduler,
                             work=args.work))


def _report(args: argparse.Namespace) -> str:
    from ..research.census.report import census_report

    directory = _directory(args)
    report = census_report(directory, plot=args.plot or "")
    if args.json:
        data: dict[str, Any] = {k: getattr(report, k) for k in
                                ("codes", "classes", "solved", "trivial", "frontier", "open",
                                 "promising", "plot", "plot_note")}
        return json.dumps(data, indent=1)
    return str(report)


def census_commands(commands: Commands) -> None:
    """census [run|deepen|verify|report|export|compare]."""
    add_arguments(commands.add("census", SUMMARY, EXAMPLE, run))
