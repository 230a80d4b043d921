"""log, order, minpoly, solve-quadratic: the nim field's structure."""

from __future__ import annotations

import argparse

from .._digits import to_decimal
from .options import (Commands, STDIN_HELP, UsageError, json_option, parse_count, parse_nimber,
                      polynomial, read_number, to_json)
from .batch import Batch, one_problem, read_stdin


# ---- the nim field ------------------------------------------------------------------------------


def field_commands(commands: Commands) -> None:
    """log, order, minpoly, solve-quadratic."""
    p = commands.add("log", "discrete logarithm: the least x with base^x = a. Mind the order: "
                            "A FIRST, THEN THE BASE (as math.log(a, base))",
                     "nimbers log 3 2     ->  2   (2^2 = 3)", _log)
    p.add_argument("values", nargs="+", metavar="N",
                   help="a, then the base (or --base B and a); '-' reads 'a base' pairs from "
                        "standard input")
    p.add_argument("--base", type=parse_nimber,
                   help="the base, given by name (then only a is positional)")
    p = commands.add("order", "multiplicative order of a nimber", "nimbers order 256   ->  21845",
                     _order)
    p.add_argument("values", nargs="+", metavar="N", help=f"a nimber; {STDIN_HELP}")
    p = commands.add("minpoly", "minimal polynomial over GF(2), highest degree first",
                     "nimbers minpoly 8", _minpoly)
    p.add_argument("value", type=parse_nimber, metavar="N")
    json_option(p)
    p = commands.add("solve-quadratic", "all x with x*x + b*x = c (nim operations)",
                     "nimbers solve-quadratic 1 7", _solve_quadratic)
    p.add_argument("b", type=parse_nimber)
    p.add_argument("c", type=parse_nimber)
    p.add_argument("--bits", type=parse_count, help="only roots in GF(2^bits) (a power of two)")
    json_option(p)


def _log(args: argparse.Namespace) -> str:
    from ..field import nim_log
    if args.values == ["-"]:
        if args.base is not None:
            batch = Batch(read_stdin())
            batch.require(1, "log --base")
            return "\n".join(str(nim_log(a, args.base)) for a in batch.values())
        batch = Batch(read_stdin())
        batch.require(2, "log")
        values = batch.values()
        return "\n".join(str(one_problem(batch, i, nim_log, values[2 * i], values[2 * i + 1]))
                         for i in range(len(batch.counts)))
    numbers = [read_number(v) for v in args.values]
    if args.base is not None:
        if len(numbers) != 1:
            raise UsageError(f"log --base B takes one number a, got {len(numbers)}")
        return str(nim_log(numbers[0], args.base))
    if len(numbers) != 2:
        raise UsageError(f"log takes a and then the base, got {len(numbers)} numbers")
    return str(nim_log(a=numbers[0], base=numbers[1]))


def _order(args: argparse.Namespace) -> str:
    from ..field import nim_order
    if args.values == ["-"]:
        batch = Batch(read_stdin())
        batch.require(1, "order")
        return "\n".join(str(one_problem(batch, i, nim_order, a)) for i, a in enumerate(batch.values()))
    if len(args.values) != 1:
        raise UsageError(f"order takes 1 number, got {len(args.values)}")
    return str(nim_order(read_number(args.values[0])))


def _minpoly(args: argparse.Namespace) -> str:
    from ..field import minimal_polynomial
    coeffs = minimal_polynomial(args.value)
    return to_json(coeffs) if args.json else polynomial(coeffs)


def _solve_quadratic(args: argparse.Namespace) -> str:
    from ..field import solve_quadratic
    roots = solve_quadratic(args.b, args.c, bits=args.bits)
    if args.json:
        return to_json(roots)
    return " ".join(map(to_decimal, roots)) if roots else "no root"
