"""table and explain: the tables of nim arithmetic and the derivation of a product."""

from __future__ import annotations

import argparse
import sys

from .options import (Commands, StreamError, UsageError, json_option, output_errors, parse_count,
                      parse_nimber, to_json)


# ---- tables and derivations -------------------------------------------------------------------


def table_commands(commands: Commands) -> None:
    """table and explain."""
    p = commands.add("table", "addition or multiplication table (text and CSV streamed row by "
                              "row)",
                     "nimbers table 16 --op mul --png t.png", _table)
    p.add_argument("size", type=parse_count, help="the table covers 0 .. size-1")
    p.add_argument("--op", choices=["mul", "add", "mex"], default="mul",
                   help="mul (default), add, or mex: the product table built from the mex "
                        "definition alone")
    p.add_argument("--format", choices=["text", "csv"], default="text", dest="fmt")
    p.add_argument("--png", metavar="FILE", help="also write a PNG picture of the table")

    p = commands.add("explain", "the derivation of a nim-product (or of a nim-sum with --sum)",
                     "nimbers explain 5 11", _explain)
    p.add_argument("values", nargs="+", type=parse_nimber, metavar="N")
    p.add_argument("--sum", action="store_true", help="explain the nim-sum of the numbers instead")
    json_option(p)


def _table(args: argparse.Namespace) -> str | None:
    from .. import tables
    if args.op != "mex" and not args.png:  # row blocks: bounded memory at any size
        write = tables.write_csv if args.fmt == "csv" else tables.write_text
        with output_errors():
            if sys.stdout is None:
                raise StreamError("standard output is closed")
            write(sys.stdout, args.size, op=args.op)
        return None
    scale = max(1, 512 // max(args.size, 1))
    if args.png:  # the picture needs its pixels: refuse at once past the memory cap
        tables.check_image(args.size, args.size, scale, table_bytes=8 * args.size**2)
    builders = {"mul": tables.mul_table, "add": tables.add_table,
                "mex": lambda n: tables.mex_table(n, progress=None)}
    t = builders[args.op](args.size)
    if args.png:
        tables.table_image(t, args.png, scale=scale)
    if args.fmt == "csv":
        return tables.to_csv(t, op=args.op)
    if args.png and args.size > 64:
        return f"wrote {args.png}"
    sign = {"mul": "⊗", "add": "⊕", "mex": "⊗"}[args.op]
    return tables.format_table(t, op=sign)


def _explain(args: argparse.Namespace) -> str:
    from ..explain import explain_mul, explain_sum
    if args.sum:
        d = explain_sum(args.values)
    elif len(args.values) != 2:
        raise UsageError("explain takes two numbers (or --sum and any count)")
    else:
        d = explain_mul(*args.values)
    if args.json:
        return to_json({"lines": d.lines, "value": d.value, "equations": d.equations,
                      "notes": d.notes})
    return str(d)
