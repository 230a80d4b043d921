"""mul, add, div, pow, inv, sqrt: the field operations."""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np

from .options import (Commands, STDIN_HELP, UsageError, format_number, output_options, parse_int,
                      parse_nimber, read_number)
from .batch import Batch, answers, as_array, batched, read_stdin


# ---- arithmetic -------------------------------------------------------------------------------


def arithmetic_commands(commands: Commands) -> None:
    """mul, add, div, pow, inv, sqrt: the field operations, on the command line or on
    standard input (one problem a line, batched through the array path)."""
    for name, summary, example in (
            ("mul", "nim-product of the numbers", "nimbers mul 5 11    ->  12"),
            ("add", "nim-sum (XOR) of the numbers", "nimbers add 3 5 7    ->  1")):
        p = commands.add(name, summary, example, _fold)
        p.add_argument("values", nargs="+", metavar="N",
                       help=f"nimbers (decimal, 0x.., 0b.. or 0o..); {STDIN_HELP}")
        output_options(p)
    p = commands.add("div", "nim-quotient a / b", "nimbers div 1 3      ->  2", _binary)
    p.add_argument("values", nargs="+", metavar="N", help=f"a and b; {STDIN_HELP}")
    output_options(p)
    p = commands.add("pow", "nim-power: base nim-multiplied by itself exponent times",
                     "nimbers pow 2 10     ->  2", _binary)
    p.add_argument("values", nargs="+", metavar="N",
                   help=f"the base (a nimber) and the exponent (an ordinary integer, may be "
                        f"negative); {STDIN_HELP}")
    output_options(p)
    for name, summary, example in (("inv", "nim-inverse", "nimbers inv 2        ->  3"),
                                   ("sqrt", "nim square root", "nimbers sqrt 2       ->  3")):
        p = commands.add(name, summary, example, _unary)
        p.add_argument("values", nargs="+", metavar="N", help=f"a nimber; {STDIN_HELP}")
        output_options(p)


def _operation(name: str) -> Any:
    from .. import arith
    return getattr(arith, f"nim_{name}")


def _fold(args: argparse.Namespace) -> str:
    """mul and add: the product or sum of the numbers; on standard input, of each line's."""
    op = _operation(args.command)
    if args.values != ["-"]:
        result = 1 if args.command == "mul" else 0
        for text in args.values:
            result = op(result, read_number(text))
        return format_number(result, args)
    batch = Batch(read_stdin())
    values = as_array(batch.values())
    starts = np.concatenate(([0], np.cumsum(batch.counts)[:-1])).astype(np.intp)
    return answers(op.reduceat(values, starts), args)


def _binary(args: argparse.Namespace) -> str:
    """div and pow: one problem on the command line, or one a line on standard input."""
    op = _operation(args.command)
    exponent = args.command == "pow"
    if args.values != ["-"]:
        if len(args.values) != 2:
            raise UsageError(f"{args.command} takes 2 numbers, got {len(args.values)}")
        first = read_number(args.values[0])
        second = read_number(args.values[1], parse_int if exponent else parse_nimber)
        return format_number(op(first, second), args)
    batch = Batch(read_stdin())
    batch.require(2, args.command)
    if exponent:
        a, b = batch.values(signed_columns=(1,), arity=2)
    else:
        values = as_array(batch.values())
        a, b = values[0::2], values[1::2]
    return answers(batched(batch, lambda: op(a, b), lambda i: op(int(a[i]), int(b[i]))), args)


def _unary(args: argparse.Namespace) -> str:
    op = _operation(args.command)
    if args.values != ["-"]:
        if len(args.values) != 1:
            raise UsageError(f"{args.command} takes 1 number, got {len(args.values)}")
        return format_number(op(read_number(args.values[0])), args)
    batch = Batch(read_stdin())
    batch.require(1, args.command)
    a = as_array(batch.values())
    return answers(batched(batch, lambda: op(a), lambda i: op(int(a[i]))), args)
