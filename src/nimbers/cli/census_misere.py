"""``nimbers census misere DIR --digits K [--max-heap N] [--max-order M]``: the misère
quotients of every class of the census (:mod:`nimbers.research.census.misere`), resumable,
on this machine's cores (--workers) or a dask cluster (--scheduler), with Markdown and CSV
tables (--table DIR) and a re-check of a finished table (--check)."""

from __future__ import annotations

import argparse
import time
from typing import Any

from .options import count_type

__all__ = ["add_misere_arguments", "run_misere"]


def add_misere_arguments(p: argparse.ArgumentParser) -> None:
    """The census command's options for its misère action."""
    p.add_argument("--max-heap", type=count_type(1, 100_000), metavar="N", default=None,
                   help="misere: every class's heap bound, Q_n for n up to N (default 30)")
    p.add_argument("--max-order", type=count_type(2, 1 << 20), metavar="M", default=None,
                   help="misere: every class's order cap (default 2048)")
    p.add_argument("--table", metavar="DIR",
                   help="misere: also write DIR/misere_quotients.md and .csv")
    p.add_argument("--each-code", action="store_true",
                   help="misere: every code a class of its own (not grouped by its normal-play "
                        "sequence)")
    p.add_argument("--check", action="store_true",
                   help="misere: compute every row of DIR/misere.jsonl again and compare")


def run_misere(args: argparse.Namespace) -> str:
    from ..research.census import misere
    from ..research.census.misere_table import summary, write_tables

    directory = args.dir or args.out
    if not directory:
        raise ValueError("census misere needs a directory: nimbers census misere DIR --digits K")
    if args.check:
        return _check(directory, args.workers, args.scheduler)
    if (args.digits is None) == (args.codes is None):
        raise ValueError("give --digits K or --codes FILE")
    codes = _codes_in(args.codes) if args.codes else None
    began = time.monotonic()
    rows = misere.misere_census(
        args.digits, codes=codes, out=directory, workers=args.workers, each=args.each_code,
        scheduler=args.scheduler,
        max_heap=misere.DEFAULT_MAX_HEAP if args.max_heap is None else args.max_heap,
        max_order=misere.DEFAULT_MAX_ORDER if args.max_order is None else args.max_order)
    lines = [summary(rows), f"wall time of this run: {time.monotonic() - began:.0f} s; "
             f"table: {directory}/{misere.MISERE_TABLE}"]
    if args.table:
        lines.append("written: " + ", ".join(write_tables(rows, args.table)))
    return "\n".join(lines)


def _codes_in(path: str) -> list[str]:
    """The codes of a --codes file: the census's one reader (cli.options), so that both
    commands take the same files and refuse the same ones (a file past its size cap is
    refused, never cut short)."""
    from .options import read_codes_file
    return read_codes_file(path)


def _check(directory: str, workers: Any, scheduler: str | None) -> str:
    """Every field of every row checked: its shape (read_misere_rows), its members against
    the classes (check_rows), then every row computed again with its own bounds (a row cut
    by the time to the heap it reached); the first difference is an error."""
    from ..research.census import misere
    from ..research.census.pool import as_done, executor
    rows = misere.read_misere_rows(directory)
    if not rows:
        raise ValueError(f"{directory}: no misère census rows to check")
    last = {r["code"]: r for r in rows}
    misere.check_rows(list(last.values()))
    with executor(workers, scheduler) as (ex, _slots, alive):
        futures = {ex.submit(misere.recheck, r): r for r in last.values()}
        for future in as_done(futures, alive):
            row, bad = futures[future], future.result()
            if bad:
                raise ValueError(f"{directory}: the row of {row['code']} differs when computed "
                                 f"again ({', '.join(bad)})")
    return f"{len(last)} rows of {directory}/{misere.MISERE_TABLE} computed again: all equal"
