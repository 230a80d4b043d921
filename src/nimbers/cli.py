"""The ``nimbers`` command (also ``python -m nimbers``).

Plain argparse: one function per domain (arithmetic, tables and derivations, linear algebra,
the nim field, games) declares its subcommands, each with one function that runs it.  Each
subcommand parses its own arguments, options and operands in any order
(``nimbers heap 0.77 --period 20``).

Conventions shared by every subcommand:

- numbers are decimal, ``0x..``, ``0b..`` or ``0o..``, of any size;
- piles, heaps and coins are numbered from 0, left to right, as in the Python API;
- ``-`` in place of the numbers reads them from standard input, one problem a line (numbers
  separated by spaces or commas; blank lines skipped), and prints one answer a line --
  batched through the array path, so a million lines take about a second;
- ``--json`` prints structured output as one JSON document;
- bad input prints one line on stderr and exits with status 2; nothing ends in a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import io
import json
import os
import re
import sys
import warnings
from typing import IO, TYPE_CHECKING, Any, Callable, Iterator, NoReturn, Sequence

import numpy as np

from . import _startup
from ._digits import from_decimal, to_decimal

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

__all__ = ["main", "build_parser", "parse_nimber", "parse_int", "read_matrix", "UsageError"]

EXIT_USAGE = 2
EXIT_IO = 1
EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 128 + 13  # as a shell reports a tool stopped by SIGPIPE

NUMBERING = "Piles, heaps and coins are numbered from 0, left to right, as in Python."


class UsageError(Exception):
    """A problem with what the user typed: one line on stderr, exit status 2."""


class _StreamError(Exception):
    """Standard input or output failed (closed, full, unreadable): one line, status 1."""


# ---- parsing numbers ------------------------------------------------------------------------


def parse_nimber(text: str) -> int:
    """A non-negative integer in decimal, 0x..., 0b... or 0o... form (any size).

    >>> parse_nimber("0x1F"), parse_nimber("0b101"), parse_nimber("12")
    (31, 5, 12)
    """
    value = _integer(text, "not a number")
    if value < 0:
        raise argparse.ArgumentTypeError(f"nimbers are non-negative, got {_clip(text)}")
    return value


def parse_int(text: str) -> int:
    """Any integer (exponents may be negative)."""
    return _integer(text, "not an integer")


def _integer(text: str, problem: str) -> int:
    """An integer of any size: decimal (past Python's 4300-digit limit for int(str), which
    stays as the program set it), or with a 0x, 0b or 0o prefix."""
    s = text.strip().lower().replace("_", "")
    body = s.lstrip("+-")
    try:
        if body.startswith(("0x", "0b", "0o")):
            return int(s, 0)
        return from_decimal(s)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{problem}: {_clip(text)!r}") from None


def _clip(text: str, keep: int = 40) -> str:
    """The start of a typed text, for a one-line message (a number may be megabytes)."""
    return text if len(text) <= keep else f"{text[:keep]}... ({len(text)} characters)"


def _number(text: str, parse: Callable[[str], int] = parse_nimber) -> int:
    """parse_nimber for values read by a command itself (a UsageError, not argparse's)."""
    try:
        return parse(text)
    except argparse.ArgumentTypeError as exc:
        raise UsageError(str(exc)) from None


# ---- standard input: one problem a line, answered through the array path ---------------------


def _read_stdin() -> bytes:
    if sys.stdin is None:  # started with standard input closed (<&-)
        raise _StreamError("standard input is closed")
    try:
        return sys.stdin.buffer.read()
    except (OSError, ValueError) as exc:  # a directory, an I/O error, a closed file
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise _StreamError(f"cannot read standard input: {reason}") from None


def _tokens_per_line(data: bytes) -> np.ndarray:
    """How many whitespace-separated tokens each line of ``data`` holds."""
    lines = data.split(b"\n")
    return np.fromiter(map(len, map(bytes.split, lines)), dtype=np.int64, count=len(lines))


def _decimal_table(data: bytes) -> np.ndarray | None:
    """The fast path: lines of equally many decimal numbers below 2^64, read by numpy's C
    parser (a million lines in a fraction of a second); None for anything else (hex, signs,
    bigger numbers, ragged lines, stray text), which the general path reads and checks."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "input contained no data"
            table = np.loadtxt(io.BytesIO(data), dtype=np.uint64, ndmin=2, comments=None)
    except (ValueError, OverflowError):
        return None
    return table if table.size else None


class _Batch:
    """The problems of standard input: ``counts[i]`` numbers on problem i (blank lines
    dropped), the original line number of each problem (for error messages), and the
    numbers themselves (:meth:`values`)."""

    def __init__(self, data: bytes) -> None:
        try:
            data.decode("ascii")
        except UnicodeDecodeError:
            raise UsageError("standard input: not a text of numbers") from None
        self.data = data.replace(b",", b" ")
        self._table = _decimal_table(self.data)
        if self._table is not None:
            self.counts = np.full(self._table.shape[0], self._table.shape[1], dtype=np.int64)
            self._line_numbers: np.ndarray | None = None
        else:
            counts = _tokens_per_line(self.data)
            self._line_numbers = np.flatnonzero(counts) + 1
            self.counts = counts[counts > 0]
        if not self.counts.size:
            raise UsageError("standard input holds no numbers")

    @property
    def line_numbers(self) -> np.ndarray:
        """The input line of each problem (worked out when an error needs it)."""
        if self._line_numbers is None:
            self._line_numbers = np.flatnonzero(_tokens_per_line(self.data)) + 1
        return self._line_numbers

    def require(self, arity: int, command: str) -> None:
        bad = np.flatnonzero(self.counts != arity)
        if bad.size:
            i = int(bad[0])
            raise UsageError(f"line {self.line_numbers[i]}: {command} takes {arity} "
                             f"number{'s' if arity > 1 else ''} a line, got {self.counts[i]}")

    def where(self, token_index: int) -> int:
        """The input line of the token with this index."""
        problem = int(np.searchsorted(np.cumsum(self.counts), token_index, side="right"))
        return int(self.line_numbers[problem])

    def values(self, signed_columns: Sequence[int] = (), arity: int = 1) -> Any:
        """All numbers, in order: a uint64 array (or, with ``signed_columns``, one array a
        column, int64 in those) when they fit, else Python ints; a bad number is reported
        with its line."""
        if self._table is not None:
            if not signed_columns:
                return self._table.ravel()
            columns = [self._table[:, k] for k in range(arity)]
            if all(int(columns[k].max()) < 2**63 for k in signed_columns):
                return [c.astype(np.int64) if k in signed_columns else c
                        for k, c in enumerate(columns)]
        out = []
        for i, token in enumerate(self.data.split()):
            signed = i % arity in signed_columns
            try:
                value: int | None = int(token)  # plain decimal, the common case
            except ValueError:
                value = None  # 0x.., 0b.., or not a number
            if value is None or (value < 0 and not signed):
                try:
                    value = (parse_int if signed else parse_nimber)(token.decode())
                except argparse.ArgumentTypeError as exc:
                    raise UsageError(f"line {self.where(i)}: {exc}") from None
            out.append(value)
        if signed_columns:
            return [np.array(out[k::arity], dtype=object) for k in range(arity)]
        return out


def _as_array(values: Any) -> np.ndarray:
    if isinstance(values, np.ndarray):
        return values
    if all(v <= 0xFFFF_FFFF_FFFF_FFFF for v in values):
        return np.array(values, dtype=np.uint64)
    return np.array(values, dtype=object)


def _answers(results: Any, args: argparse.Namespace) -> str:
    values = np.asarray(results).tolist()
    form = hex if getattr(args, "hex", False) else bin if getattr(args, "bin", False) \
        else to_decimal
    return "\n".join(map(form, values))


def _batched(batch: _Batch, run: Callable[[], Any], one: Callable[[int], Any]) -> Any:
    """Runs a whole batch; when it fails, finds the first problem that fails on its own and
    reports it with its line number."""
    try:
        return run()
    except (ValueError, ZeroDivisionError) as exc:
        for i in range(len(batch.counts)):
            try:
                one(i)
            except (ValueError, ZeroDivisionError) as bad:
                raise UsageError(f"line {batch.line_numbers[i]}: {bad}") from None
        raise exc


# ---- output ----------------------------------------------------------------------------------


def _format(value: int, args: argparse.Namespace) -> str:
    if getattr(args, "hex", False):
        return hex(value)
    if getattr(args, "bin", False):
        return bin(value)
    return to_decimal(value)


def _output_options(p: argparse.ArgumentParser) -> None:
    g = p.add_mutually_exclusive_group()
    g.add_argument("--hex", action="store_true", help="print results in hexadecimal")
    g.add_argument("--bin", action="store_true", help="print results in binary")


def _json_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print the result as JSON")


def _json(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False)


def _polynomial(coeffs: Sequence[int]) -> str:
    degree = len(coeffs) - 1
    terms = []
    for i, c in enumerate(coeffs):
        if c:
            d = degree - i
            terms.append("1" if d == 0 else "x" if d == 1 else f"x^{d}")
    return " + ".join(terms)


# ---- declaring subcommands -------------------------------------------------------------------


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line: the problem and where to get help."""

    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"{self.prog}: {message} (try: {self.prog} --help)\n")
        raise SystemExit(EXIT_USAGE)

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        # argparse ignores a failed write; the help on a full or closed standard output must
        # end like any other output there (one line, status 1), not with status 0.
        if file is not None and file is not sys.stdout:  # stderr, argparse's way
            super()._print_message(message, file)
            return
        if message:
            with _output_errors():
                if file is None:
                    raise _StreamError("standard output is closed")
                file.write(message)


Runner = Callable[[argparse.Namespace], "str | None"]


class _Commands:
    """The subcommands being declared, and their examples for the top-level help."""

    def __init__(self, subparsers: argparse._SubParsersAction[_Parser]) -> None:
        self.subparsers = subparsers
        self.parsers: dict[str, argparse.ArgumentParser] = {}
        self.examples: list[str] = []

    def add(self, name: str, summary: str, example: str, run: Runner) -> argparse.ArgumentParser:
        p = self.subparsers.add_parser(name, help=summary, description=summary,
                                       epilog=f"Example:\n  {example}\n\n{NUMBERING}",
                                       formatter_class=argparse.RawDescriptionHelpFormatter)
        p.set_defaults(run=run, command=name)
        self.parsers[name] = p
        self.examples.append(example)
        return p


# ---- arithmetic -------------------------------------------------------------------------------

_STDIN_HELP = "'-' reads them from standard input, one problem a line"


def arithmetic_commands(commands: _Commands) -> None:
    """mul, add, div, pow, inv, sqrt: the field operations, on the command line or on
    standard input (one problem a line, batched through the array path)."""
    for name, summary, example in (
            ("mul", "nim-product of the numbers", "nimbers mul 5 11    ->  12"),
            ("add", "nim-sum (XOR) of the numbers", "nimbers add 3 5 7    ->  1")):
        p = commands.add(name, summary, example, _fold)
        p.add_argument("values", nargs="+", metavar="N",
                       help=f"nimbers (decimal, 0x.. or 0b..); {_STDIN_HELP}")
        _output_options(p)
    p = commands.add("div", "nim-quotient a / b", "nimbers div 1 3      ->  2", _binary)
    p.add_argument("values", nargs="+", metavar="N", help=f"a and b; {_STDIN_HELP}")
    _output_options(p)
    p = commands.add("pow", "nim-power: base nim-multiplied by itself exponent times",
                     "nimbers pow 2 10     ->  2", _binary)
    p.add_argument("values", nargs="+", metavar="N",
                   help=f"the base (a nimber) and the exponent (an ordinary integer, may be "
                        f"negative); {_STDIN_HELP}")
    _output_options(p)
    for name, summary, example in (("inv", "nim-inverse", "nimbers inv 2        ->  3"),
                                   ("sqrt", "nim square root", "nimbers sqrt 2       ->  3")):
        p = commands.add(name, summary, example, _unary)
        p.add_argument("values", nargs="+", metavar="N", help=f"a nimber; {_STDIN_HELP}")
        _output_options(p)


def _operation(name: str) -> Any:
    from . import arith
    return getattr(arith, f"nim_{name}")


def _fold(args: argparse.Namespace) -> str:
    """mul and add: the product or sum of the numbers; on standard input, of each line's."""
    op = _operation(args.command)
    if args.values != ["-"]:
        result = 1 if args.command == "mul" else 0
        for text in args.values:
            result = op(result, _number(text))
        return _format(result, args)
    batch = _Batch(_read_stdin())
    values = _as_array(batch.values())
    starts = np.concatenate(([0], np.cumsum(batch.counts)[:-1])).astype(np.intp)
    return _answers(op.reduceat(values, starts), args)


def _binary(args: argparse.Namespace) -> str:
    """div and pow: one problem on the command line, or one a line on standard input."""
    op = _operation(args.command)
    exponent = args.command == "pow"
    if args.values != ["-"]:
        if len(args.values) != 2:
            raise UsageError(f"{args.command} takes 2 numbers, got {len(args.values)}")
        first = _number(args.values[0])
        second = _number(args.values[1], parse_int if exponent else parse_nimber)
        return _format(op(first, second), args)
    batch = _Batch(_read_stdin())
    batch.require(2, args.command)
    if exponent:
        a, b = batch.values(signed_columns=(1,), arity=2)
    else:
        values = _as_array(batch.values())
        a, b = values[0::2], values[1::2]
    return _answers(_batched(batch, lambda: op(a, b), lambda i: op(int(a[i]), int(b[i]))), args)


def _unary(args: argparse.Namespace) -> str:
    op = _operation(args.command)
    if args.values != ["-"]:
        if len(args.values) != 1:
            raise UsageError(f"{args.command} takes 1 number, got {len(args.values)}")
        return _format(op(_number(args.values[0])), args)
    batch = _Batch(_read_stdin())
    batch.require(1, args.command)
    a = _as_array(batch.values())
    return _answers(_batched(batch, lambda: op(a), lambda i: op(int(a[i]))), args)


# ---- tables and derivations -------------------------------------------------------------------


def table_commands(commands: _Commands) -> None:
    """table and explain."""
    p = commands.add("table", "addition or multiplication table (text and CSV streamed row by "
                              "row)",
                     "nimbers table 16 --op mul --png t.png", _table)
    p.add_argument("size", type=parse_nimber, help="the table covers 0 .. size-1")
    p.add_argument("--op", choices=["mul", "add", "mex"], default="mul",
                   help="mul (default), add, or mex: the product table built from the mex "
                        "definition alone")
    p.add_argument("--format", choices=["text", "csv"], default="text", dest="fmt")
    p.add_argument("--png", metavar="FILE", help="also write a PNG picture of the table")

    p = commands.add("explain", "the derivation of a nim-product (or of a nim-sum with --sum)",
                     "nimbers explain 5 11", _explain)
    p.add_argument("values", nargs="+", type=parse_nimber, metavar="N")
    p.add_argument("--sum", action="store_true", help="explain the nim-sum of the numbers instead")
    _json_option(p)


def _table(args: argparse.Namespace) -> str | None:
    from . import tables
    if args.op != "mex" and not args.png:  # row blocks: bounded memory at any size
        write = tables.write_csv if args.fmt == "csv" else tables.write_text
        with _output_errors():
            if sys.stdout is None:
                raise _StreamError("standard output is closed")
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
    from .explain import explain_mul, explain_sum
    if args.sum:
        d = explain_sum(args.values)
    elif len(args.values) != 2:
        raise UsageError("explain takes two numbers (or --sum and any count)")
    else:
        d = explain_mul(*args.values)
    if args.json:
        return _json({"lines": d.lines, "value": d.value, "equations": d.equations,
                      "notes": d.notes})
    return str(d)


# ---- linear algebra ---------------------------------------------------------------------------


def read_matrix(path: str) -> list[list[int]]:
    """A matrix file: non-negative integers (decimal or 0x..) separated by spaces or commas,
    one row a line; '-' reads standard input.  Blank lines and lines starting with # are
    skipped, and the labelled CSV that ``nimbers table --format csv`` writes (a header row
    and a label column) is read as the table inside."""
    if path == "-":
        data = _read_stdin()
    else:
        with open(path, "rb") as f:
            data = f.read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise UsageError(f"{path}: not a text file") from None
    lines = [(n, line.replace(",", " ").split()) for n, line in enumerate(text.splitlines(), 1)
             if not line.lstrip().startswith("#")]
    lines = [(n, words) for n, words in lines if words]  # blank, or separators alone
    labelled = bool(lines) and lines[0][1][0].lower() in ("mul", "add", "mex")
    if labelled:
        lines = [(n, words[1:]) for n, words in lines[1:]]
    rows: list[list[int]] = []
    for lineno, words in lines:
        row = []
        for col, word in enumerate(words, 1):
            try:
                row.append(parse_nimber(word))
            except argparse.ArgumentTypeError as exc:
                raise UsageError(f"{path}: row {lineno}, column {col}: {exc}") from None
        if rows and len(row) != len(rows[0]):
            raise UsageError(f"{path}: row {lineno} has {len(row)} entries, "
                             f"the first row has {len(rows[0])}")
        rows.append(row)
    if not rows or not rows[0]:
        raise UsageError(f"{path}: empty matrix")
    return rows


def linalg_commands(commands: _Commands) -> None:
    """det, rank, solve: matrices read from files (whitespace or CSV)."""
    for name, summary, run in (
            ("det", "determinant (= permanent) of a matrix over the nim field", _det),
            ("rank", "rank of a matrix over the nim field", _rank)):
        p = commands.add(name, summary, f"nimbers {name} m.txt", run)
        p.add_argument("file", help="matrix file: integers separated by spaces or commas, one "
                                    "row a line ('-' for standard input)")
    p = commands.add("solve", "the x with A x = B over the nim field", "nimbers solve A.txt B.txt",
                     _solve)
    p.add_argument("a_file", help="coefficient matrix file ('-' for standard input)")
    p.add_argument("b_file", help="right-hand side: one column, or a matrix")
    _json_option(p)


def _det(args: argparse.Namespace) -> str:
    from .linalg import det
    return str(det(read_matrix(args.file)))


def _rank(args: argparse.Namespace) -> str:
    from .linalg import rank
    return str(rank(read_matrix(args.file)))


def _solve(args: argparse.Namespace) -> str:
    from .linalg import solve
    if args.a_file == "-" and args.b_file == "-":
        raise UsageError("only one of the files can be standard input")
    x = solve(read_matrix(args.a_file), read_matrix(args.b_file)).tolist()
    if args.json:
        return _json(x)
    return "\n".join(" ".join(str(v) for v in row) for row in x)


# ---- the nim field ------------------------------------------------------------------------------


def field_commands(commands: _Commands) -> None:
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
    p.add_argument("values", nargs="+", metavar="N", help=f"a nimber; {_STDIN_HELP}")
    p = commands.add("minpoly", "minimal polynomial over GF(2), highest degree first",
                     "nimbers minpoly 8", _minpoly)
    p.add_argument("value", type=parse_nimber, metavar="N")
    _json_option(p)
    p = commands.add("solve-quadratic", "all x with x*x + b*x = c (nim operations)",
                     "nimbers solve-quadratic 1 7", _solve_quadratic)
    p.add_argument("b", type=parse_nimber)
    p.add_argument("c", type=parse_nimber)
    p.add_argument("--bits", type=parse_nimber, help="only roots in GF(2^bits) (a power of two)")
    _json_option(p)


def _log(args: argparse.Namespace) -> str:
    from .field import nim_log
    if args.values == ["-"]:
        if args.base is not None:
            batch = _Batch(_read_stdin())
            batch.require(1, "log --base")
            return "\n".join(str(nim_log(a, args.base)) for a in batch.values())
        batch = _Batch(_read_stdin())
        batch.require(2, "log")
        values = batch.values()
        return "\n".join(str(_one(batch, i, nim_log, values[2 * i], values[2 * i + 1]))
                         for i in range(len(batch.counts)))
    numbers = [_number(v) for v in args.values]
    if args.base is not None:
        if len(numbers) != 1:
            raise UsageError(f"log --base B takes one number a, got {len(numbers)}")
        return str(nim_log(numbers[0], args.base))
    if len(numbers) != 2:
        raise UsageError(f"log takes a and then the base, got {len(numbers)} numbers")
    return str(nim_log(a=numbers[0], base=numbers[1]))


def _one(batch: _Batch, i: int, fn: Callable[..., Any], *operands: Any) -> Any:
    """One problem of a batch that runs problem by problem: errors name the line."""
    try:
        return fn(*operands)
    except (ValueError, ZeroDivisionError) as exc:
        raise UsageError(f"line {batch.line_numbers[i]}: {exc}") from None


def _order(args: argparse.Namespace) -> str:
    from .field import nim_order
    if args.values == ["-"]:
        batch = _Batch(_read_stdin())
        batch.require(1, "order")
        return "\n".join(str(_one(batch, i, nim_order, a)) for i, a in enumerate(batch.values()))
    if len(args.values) != 1:
        raise UsageError(f"order takes 1 number, got {len(args.values)}")
    return str(nim_order(_number(args.values[0])))


def _minpoly(args: argparse.Namespace) -> str:
    from .field import minimal_polynomial
    coeffs = minimal_polynomial(args.value)
    return _json(coeffs) if args.json else _polynomial(coeffs)


def _solve_quadratic(args: argparse.Namespace) -> str:
    from .field import solve_quadratic
    roots = solve_quadratic(args.b, args.c, bits=args.bits)
    if args.json:
        return _json(roots)
    return " ".join(str(r) for r in roots) if roots else "no root"


# ---- ordinal nimbers and lexicodes ---------------------------------------------------------

ORDINAL_OPS = {
    # op: (number of operands or "+" for one or more, what it does)
    "mul": ("+", "nim-product"),
    "add": ("+", "nim-sum"),
    "div": (2, "nim-quotient a / b"),
    "inv": (1, "nim-inverse"),
    "pow": (2, "a to an integer power k (may be negative)"),
    "sqrt": (1, "nim square root"),
    "degree": (1, "degree over GF(2) of the field the ordinal generates"),
    "minpoly": (1, "minimal polynomial over GF(2)"),
    "conjugates": (1, "the roots of the minimal polynomial"),
    "artin-schreier": (1, "both roots x of x^2 + x = a"),
    "explain": (2, "why a ⊗ b is what it is (Lenstra's κ's and α's)"),
    "lenstra": (1, "Lenstra's constants for a prime p: f(p), Q-set, excess, α_p"),
    "nim": ("+", "value and a winning move of a sum of Nim heaps of ordinal sizes"),
}


def _ordinal_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("op", choices=list(ORDINAL_OPS), metavar="OP",
                   help="; ".join(f"{k}: {v[1]}" for k, v in ORDINAL_OPS.items()))
    p.add_argument("values", nargs="+", metavar="X",
                   help="ordinals in Cantor normal form, e.g. 'w^(w^2+3)*5 + w + 2' or "
                        "'ω^ω·3' (quote them for the shell)")
    p.add_argument("--ascii", action="store_true", help="print w and * instead of ω and ·")


def ordinal_command(op: str, values: Sequence[str], ascii: bool = False) -> str:
    """The text printed by ``nimbers ordinal OP X...`` (a plain function of strings)."""
    from . import ordinal as o
    arity, _ = ORDINAL_OPS[op]
    if arity != "+" and len(values) != arity:
        raise UsageError(f"ordinal {op} takes {arity} argument{'s' if arity != 1 else ''}, "
                         f"got {len(values)}")

    def show(x: Any) -> str:
        return x.ascii() if ascii else str(x)

    if op == "lenstra":
        p = parse_int(values[0]) if values[0].strip().lstrip("-").isdigit() else None
        if p is None:
            raise UsageError(f"lenstra takes a prime, got {values[0]!r}")
        lines = [f"f({p}) = {o.order_of_two(p) if p > 2 else 1}",
                 f"Q({p}) = {{{', '.join(str(q) for q in o.q_set(p))}}}",
                 f"excess({p}) = {o.excess(p)}"]
        if p > 2:
            lines.append(f"α_{p} = κ_{p}^{p} = {show(o.alpha(p))}   (κ_{p} = {show(o.kappa(p))})")
        return "\n".join(lines)
    if op == "pow":
        return show(o.Ordinal(values[0]) ** parse_int(values[1]))
    xs = [o.Ordinal(v) for v in values]
    if op == "mul":
        result = xs[0]
        for x in xs[1:]:
            result = result * x
        return show(result)
    if op == "add":
        return show(o.nim_heap_value(xs))
    if op == "div":
        return show(xs[0] / xs[1])
    if op == "inv":
        return show(xs[0].inverse())
    if op == "sqrt":
        return show(xs[0].sqrt())
    if op == "degree":
        return str(xs[0].degree())
    if op == "minpoly":
        coeffs = xs[0].minimal_polynomial()
        d = len(coeffs) - 1
        terms = ["1" if d - i == 0 else "x" if d - i == 1 else f"x^{d - i}"
                 for i, c in enumerate(coeffs) if c]
        return " + ".join(terms)
    if op == "conjugates":
        return "\n".join(show(c) for c in xs[0].conjugates())
    if op == "artin-schreier":
        return "\n".join(show(r) for r in o.solve_artin_schreier(xs[0]))
    if op == "explain":
        text = o.explain_mul(xs[0], xs[1])
        return text.replace("ω", "w").replace("·", "*") if ascii else text
    # op == "nim"
    value = o.nim_heap_value(xs)
    move = o.winning_move(xs)
    if move is None:
        return f"value: {show(value)}\nP-position: every move loses"
    i, new = move
    return (f"value: {show(value)}\nwinning move: heap {i + 1} ({show(xs[i])}) down to "
            f"{show(new)}")




def _lexicode_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("n", type=parse_nimber, help="length")
    p.add_argument("d", type=parse_nimber, help="minimum distance")
    p.add_argument("--base", type=parse_nimber, default=2,
                   help="alphabet size, a power of 2 (default 2)")
    p.add_argument("--method", choices=["game", "greedy"], default="game",
                   help="Conway and Sloane's game shortcut (default) or the greedy definition")
    p.add_argument("--words", action="store_true", help="print every codeword")


def lexicode_command(n: int, d: int, base: int = 2, method: str = "game",
                     words: bool = False) -> str:
    """The text printed by ``nimbers lexicode N D`` (a plain function)."""
    from .lexicode import lexicode
    code = lexicode(n, d, base, method=method)
    lines = [f"lexicode n={n} d={d} base={base}: {code.size} words, dimension "
             f"{code.dimension}, minimum distance {code.min_distance() if code.size > 1 else '-'}"]
    sep = "" if base <= 10 else " "
    if words:
        lines += [sep.join(str(v) for v in w) for w in code.words.tolist()]
    elif base.bit_length() - 1 and ((base.bit_length() - 1) & (base.bit_length() - 2)) == 0:
        lines.append("generator matrix over the nim field GF(%d):" % base)
        lines += [sep.join(str(v) for v in row) for row in code.generator_matrix().tolist()]
    return "\n".join(lines)


def ordinal_commands(commands: _Commands) -> None:
    """ordinal and lexicode."""
    _ordinal_args(commands.add("ordinal", "nim arithmetic on ordinals below ω^ω^ω (Conway, Lenstra)",
                               "nimbers ordinal mul w w^2   ->  2", _ordinal))
    _lexicode_args(commands.add("lexicode", "lexicographic codes (Conway and Sloane): size and "
                                            "generator matrix", "nimbers lexicode 24 8", _lexicode))


def _ordinal(args: argparse.Namespace) -> str:
    return ordinal_command(args.op, args.values, ascii=args.ascii)


def _lexicode(args: argparse.Namespace) -> str:
    return lexicode_command(args.n, args.d, args.base, args.method, args.words)


# ---- games ------------------------------------------------------------------------------------


def game_commands(commands: _Commands) -> None:
    """nim, heap, turning, tartan, play."""
    p = commands.add("nim", "the nim-sum, the verdict and every winning move of a Nim position",
                     "nimbers nim 3 5 7", _nim)
    p.add_argument("piles", nargs="+", type=parse_nimber, metavar="PILE",
                   help="pile sizes (pile 0 first)")
    p.add_argument("--misere", action="store_true", help="whoever takes the last stone loses")
    _json_option(p)

    p = commands.add("heap", "Grundy values (and period, statistics, misère values) of a heap game",
                     "nimbers heap 0.77 20 --period;  nimbers heap kayles --heaps 3,4 --misere",
                     _heap)
    p.add_argument("code", help="octal or take-and-break code such as 0.77, a name (kayles, "
                                "dawsons-kayles, dawsons-chess, guiles, treblecross, officers), "
                                "or 'grundy' for Grundy's game")
    p.add_argument("count", type=parse_nimber, nargs="?", default=30,
                   help="how many Grundy values to compute, for heaps 0 .. count-1 (default 30)")
    p.add_argument("--period", action="store_true",
                   help="also find the period (proved by the octal periodicity theorem)")
    p.add_argument("--stats", action="store_true",
                   help="print statistics instead of the values: the largest value, the rare "
                        "mask and the rare heap sizes with their values")
    p.add_argument("--save", metavar="FILE.npy",
                   help="save the values (and the state to resume from, FILE.npy.json)")
    p.add_argument("--resume", metavar="FILE.npy",
                   help="start from the values saved there (by --save) instead of from 0")
    p.add_argument("--heaps", metavar="SIZES",
                   help="a position, heap sizes like 3,5: prints its value, who wins and a "
                        "winning move (e.g. nimbers heap kayles --heaps 3,4)")
    p.add_argument("--misere", action="store_true",
                   help="misère play (whoever moves last loses): the misère Grundy values "
                        "G-(0..count-1), or with --heaps the position's misère "
                        "value, outcome and winning move (e.g. nimbers heap 0.07 12 --misere)")
    p.add_argument("--genus", action="store_true",
                   help="with --misere: also the genus g^γ0γ1... of each heap (Winning Ways "
                        "ch. 13; searched, seconds beyond 20 heaps: e.g. nimbers heap kayles 12 "
                        "--misere --genus)")
    _json_option(p)

    p = commands.add("turning", "values and winning moves of a coin-turning game",
                     "nimbers turning ruler --heads 0,3,7", _turning)
    p.add_argument("game", help="a family (turning-turtles, mocking-turtles, moebius, mogul, "
                                "gold-moidores, at-most-T, motley, twins, triplets, ruler, "
                                "progression, turnips, grunt) or a turning code like 1-3C(5)")
    p.add_argument("count", type=parse_nimber, nargs="?", default=20,
                   help="how many values G(0..count-1) to print (default 20)")
    p.add_argument("--heads", metavar="COINS",
                   help="a position: head coins '0,3,7' or a row like HTHHT; prints its value "
                        "and a winning move")
    p.add_argument("--misere", action="store_true",
                   help="misère play (whoever turns the last coin loses): misère values of "
                        "one head at each coin, or with --heads the position's misère value "
                        "and winning move; searched, so small rows only "
                        "(e.g. nimbers turning mocking-turtles --heads HTHH --misere)")
    _json_option(p)

    p = commands.add("tartan", "values and winning moves of 2-D coin-turning games (Tartan theorem)",
                     "nimbers tartan twins twins --heads 3:5,2:2", _tartan)
    p.add_argument("games", nargs="+", help="two or more 1-D games (names or codes), or one "
                                            "of turning-corners, rugs, acrostic-twins")
    p.add_argument("--heads", metavar="HEADS", help="heads as row:column pairs, e.g. 3:5,2:2")
    p.add_argument("--size", type=parse_nimber, default=8, help="board side for the table")
    p.add_argument("--misere", action="store_true",
                   help="with --heads: the misère value and a misère winning move (searched: "
                        "boards of at most 16 coins, e.g. nimbers tartan rugs --heads 1:1,2:3 "
                        "--misere)")
    _json_option(p)

    p = commands.add("play", "play a game against a perfect opponent, in the literature's "
                     "words (help, hint and q while playing)",
                     "nimbers play kayles 3 5 7;  nimbers play ruler THHTH --misere", _play)
    p.description = (
        "Play a game against a perfect opponent, in the literature's words. Moves: on heaps "
        "'take 2 from heap 1' or '1:2' (add '-> 1 3' for the heaps left when a split could "
        "differ), or '0 -> 1 3'; on a row of coins the coins turned, 'turn 2 3 4'; on a board "
        "two opposite corners of the rectangle, '1:2 3:5', or in Acrostic Twins the two coins "
        "of a row or a column, '1:2 1:5'. --misere plays every game under the misère rule "
        "(searched: small positions only, e.g. boards of at most 16 coins). While playing: help (the forms, with a "
        "move legal now), hint (the value and a winning move), q (quit).")
    p.add_argument("game", metavar="GAME",
                   help="nim; a heap game: kayles, dawsons-kayles, \"dawson's chess\", guiles, "
                        "treblecross, officers, grundy, or a code like 0.77; a row of coins: "
                        "ruler, mocking-turtles, turning-turtles, twins, motley, ..., or a code "
                        "like 1-3; a board: turning-corners, rugs, 'A x B' (the Tartan "
                        "product, e.g. 'ruler x twins') or acrostic-twins")
    p.add_argument("setup", nargs="*", metavar="POSITION",
                   help="pile or heap sizes (e.g. 3 5 7, the default), a row of H and T "
                        "(e.g. THHTH) or heads on a board as row:column (e.g. 1:2 3:5)")
    p.add_argument("--misere", action="store_true",
                   help="misère play, for every game: whoever moves last loses")
    p.add_argument("--first", choices=["human", "computer"], default="human",
                   help="who moves first (default: you)")


def _nim(args: argparse.Namespace) -> str:
    from .games.nim import is_losing, nim_sum, winning_moves
    total = nim_sum(args.piles)
    losing = is_losing(args.piles, misere=args.misere)
    moves = [] if losing else winning_moves(args.piles, misere=args.misere)
    if args.json:
        return _json({"nim_sum": total, "losing": losing,
                      "winning_moves": [m._asdict() for m in moves]})
    lines = [f"nim-sum: {total}"]
    if losing:
        lines.append("P-position: the player to move loses (safe for the player who just moved)")
    else:
        lines.append("N-position: the player to move wins; winning moves (piles from 0):")
        for m in moves:
            lines.append(f"  take {m.take} from pile {m.pile} (leaving {m.new_size})")
    return "\n".join(lines)


def _heap(args: argparse.Namespace) -> str:
    from .games.heap import HeapGame, heap_game_from_code
    if args.resume:
        game = HeapGame.load(args.resume)
        if game.code != heap_game_from_code(args.code).code:
            raise UsageError(f"{args.resume} holds {game.code}, not {args.code}")
    else:
        game = heap_game_from_code(args.code)
    if args.heaps is not None:
        return _position_report(_heap_position(game, args.heaps, args.misere), args.json)
    if args.genus and not args.misere:
        raise UsageError("--genus comes with --misere: nimbers heap kayles 12 --misere --genus")
    if args.misere:
        return _misere_heap_values(game, args.count, args.genus, args.json)
    values = game.nim_values(args.count).tolist()
    stats = game.stats(args.count) if args.stats else None
    period = game.period() if args.period else None
    if args.save:
        game.save(args.save)
    if args.json:
        data: dict[str, Any] = {"game": game.name, "code": game.code}
        if stats is None:
            data["values"] = values
        else:
            data["stats"] = str(stats)
        if period is not None:
            data["period"] = {"period": period.period, "preperiod": period.preperiod,
                              "proven": period.proven, "checked_up_to": period.checked_up_to}
        return _json(data)
    lines = [str(stats) if stats is not None else " ".join(str(v) for v in values)]
    if period is not None:
        lines.append(str(period))
    return "\n".join(lines)


def _heap_position(game: Any, text: str, misere: bool) -> tuple[Any, Any]:
    from .games.play import HeapPlay
    try:
        heaps = [int(v, 0) for v in text.replace(",", " ").split()]
    except ValueError:
        raise UsageError(f"--heaps takes heap sizes like 3,5, got {text!r}") from None
    if not heaps or min(heaps) < 0:
        raise UsageError(f"--heaps takes non-negative heap sizes like 3,5, got {text!r}")
    return HeapPlay(game, misere=misere), heaps


def _position_report(played: tuple[Any, Any], as_json: bool) -> str:
    """A position's value, outcome and winning move under the game's rule (play's notation)."""
    game, position = played
    value, move = game.verdict(position)
    rule = "misère play" if game.misere else "normal play"
    label = "misère value" if game.misere else "value"
    if as_json:  # the move as data (as under normal play), and in words
        return _json({"game": game.name, "misere": game.misere, "value": value,
                      "losing": value == 0, "winning_move": move,
                      "text": None if move is None else game.describe(move, position)})
    if game.over(position):
        verdict = (f"no move is left: under {rule} the player to move "
                   + ("has won (the other made the last move)" if game.misere else "has lost"))
    elif move is None:
        verdict = f"P-position under {rule}: the player to move loses; every move loses"
    else:
        verdict = (f"N-position under {rule}: the player to move wins; a winning move: "
                   f"{game.describe(move, position)}")
    return f"{game.name}\n{label}: {value}\n{verdict}"


def _misere_heap_values(game: Any, count: int, genus: bool, as_json: bool) -> str:
    """G-(0..count-1) of single heaps, and their genera when asked (Winning Ways ch. 13)."""
    values = game.misere_nim_values(count)
    genera = [str(g) for g in game.genera(count)] if genus else None
    if as_json:
        data: dict[str, Any] = {"game": game.name, "code": game.code, "misere_values": values}
        if genera is not None:
            data["genera"] = genera
        return _json(data)
    lines = [f"misère values G-(0..{count - 1}): " + " ".join(map(str, values))]
    if genera is not None:
        lines.append("genera: " + " ".join(genera))
    return "\n".join(lines)


def _parse_heads(text: str) -> str | list[int]:
    t = text.strip()
    if t and set(t.upper()) <= {"H", "T"}:
        return t
    try:
        return [int(v) for v in t.split(",") if v.strip()]
    except ValueError:
        raise UsageError(f"heads are coin numbers like 0,3,7 or a row like HTHHT, got {text!r}") from None


def _turning(args: argparse.Namespace) -> str:
    from .games.turning import named_game
    game = named_game(args.game)
    if args.misere:
        return _misere_turning(game, args)
    if args.heads is None:
        values = game.nim_values(args.count).tolist()
        return _json(values) if args.json else " ".join(str(v) for v in values)
    heads = _parse_heads(args.heads)
    value = game.nim_value(heads)
    move = game.winning_move(heads)
    if args.json:
        return _json({"value": value, "winning_move": move})
    verdict = "no winning move: every move loses" if move is None else \
        "winning move: turn coins " + ",".join(str(c) for c in move)
    return f"value: {value}\n{verdict}"


def _misere_turning(game: Any, args: argparse.Namespace) -> str:
    from .games.play import TurningPlay
    from .games.positions import heads_of
    if args.heads is not None:
        heads = heads_of(_parse_heads(args.heads))
        length = len(args.heads.strip()) if isinstance(_parse_heads(args.heads), str) else \
            (heads[-1] + 1 if heads else 1)
        return _position_report((TurningPlay(game, length, misere=True), heads), args.json)
    values = []
    for x in range(args.count):
        try:
            values.append(game.misere_nim_value([x]))
        except ValueError:
            raise UsageError(f"misère values are searched over every row of coins: {game.name} "
                             f"reaches coin {x - 1} within the search's limits; ask for a count "
                             f"of at most {x}") from None
    if args.json:
        return _json({"game": game.name, "misere_values": values})
    return f"misère values G-(0..{args.count - 1}) of one head: " + " ".join(map(str, values))


def _tartan(args: argparse.Namespace) -> str:
    from .games.tartan import Tartan, acrostic_twins, rugs, tartan, turning_corners
    from .tables import format_table
    special = {"turning-corners": turning_corners, "rugs": rugs, "acrostic-twins": acrostic_twins}
    game: Any
    for word in args.games:
        if re.fullmatch(r"\d+:\d+", word.strip()):
            raise UsageError(f"{word!r} is a coin, not a game: --heads takes the coins "
                             "comma-separated, e.g. --heads 1:2,3:3")
    boards = [w for w in args.games if w in special]
    if boards and len(args.games) > 1:
        raise UsageError(f"{boards[0]} is a board of its own, not a factor of a product: "
                         "give it alone")
    if len(args.games) == 1:
        if args.games[0] not in special:
            raise UsageError("give two or more games, or turning-corners, rugs or acrostic-twins")
        game = special[args.games[0]]()
    else:
        game = tartan(*args.games)
    if args.heads is None:
        if args.misere:
            raise UsageError("--misere analyses a position: give --heads, e.g. --heads 1:1,2:3")
        if args.size > 64:
            raise UsageError("--size is at most 64 for a printed table")
        shape = [args.size] * (len(getattr(game, "factors", (0, 0))))
        if len(shape) != 2:
            raise UsageError("a table is printed for two games only; use --heads")
        values = game.nim_values(*shape)
        return _json(values.tolist()) if args.json else format_table(values, op="G")
    if args.misere:
        from .games.play import AcrosticPlay, BoardPlay
        from .games.positions import heads_2d
        heads = heads_2d(args.heads)
        board = (max((r for r, _ in heads), default=0) + 1,
                 max((c for _, c in heads), default=0) + 1)
        board_play = BoardPlay if isinstance(game, Tartan) else AcrosticPlay
        return _position_report((board_play(game, board, misere=True), heads), args.json)
    value = game.nim_value(args.heads)
    move = game.winning_move(args.heads)
    if args.json:
        return _json({"value": value, "winning_move": None if move is None else
                      [list(c) for c in move]})
    verdict = "no winning move: every move loses" if move is None else \
        "winning move: turn " + ",".join(":".join(str(v) for v in c) for c in move)
    return f"value: {value}\n{verdict}"


def _play(args: argparse.Namespace) -> None:
    from .games.play import play, setup_game
    game, position = setup_game(args.game, args.setup, misere=args.misere)
    play(game, position, first=args.first, read=_read_move, write=_write_line)
    return None


def _read_move(prompt: str) -> str:
    """input() for the play loop, its streams failing as every command's do (one line,
    status 1); the end of the input still quits the game (EOFError)."""
    if sys.stdin is None:
        raise _StreamError("standard input is closed")
    if sys.stdout is None:
        raise _StreamError("standard output is closed")
    with _output_errors():
        return input(prompt)


def _write_line(text: str) -> None:
    _write(text, sys.stdout)


# ---- the web playground -------------------------------------------------------------------------


def web_commands(commands: _Commands) -> None:
    """serve: the web playground."""
    p = commands.add("serve", "the web playground: calculator, tables, games, sequences and a "
                              "JSON API", "nimbers serve --open", _serve)
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000; 0: any free one)")
    p.add_argument("--open", action="store_true", help="open the playground in a browser")


def _serve(args: argparse.Namespace) -> None:
    from .web import serve
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port must be between 0 and 65535, got {args.port}")
    serve(args.host, args.port, open_browser=args.open)
    return None


# ---- the parser and the entry point ------------------------------------------------------------

#: The domains, each declaring its subcommands.
def census_commands(commands: _Commands) -> None:
    """census: declared by nimbers.games.octal_census.commands (#27)."""
    from .games.octal_census import commands as census

    census.add_arguments(commands.add("census", census.SUMMARY, census.EXAMPLE, census.run))


DOMAINS: tuple[Callable[[_Commands], None], ...] = (
    arithmetic_commands, table_commands, linalg_commands, field_commands, ordinal_commands,
    game_commands, census_commands, web_commands)


def _version() -> str:
    from ._version import __version__
    return __version__


def build_parser() -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    """The top-level parser and each subcommand's own parser, by name."""
    parser = _Parser(
        prog="nimbers",
        description="Nimber arithmetic, impartial games and linear algebra over the nim field. "
                    "Numbers may be decimal, 0x.. or 0b.., of any size.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"nimbers {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    commands = _Commands(sub)
    for declare in DOMAINS:
        declare(commands)
    parser.epilog = ("Examples:\n" + "\n".join(f"  {ex}" for ex in commands.examples)
                     + f"\n\n{NUMBERING}\n'-' in place of numbers reads standard input, one "
                       "problem a line.\nEach command has its own --help.")
    return parser, commands.parsers


def _unknown_command(name: str, known: Sequence[str]) -> str:
    close = difflib.get_close_matches(name, known, n=3, cutoff=0.6)
    hint = f"; did you mean {' or '.join(close)}?" if close else ""
    return f"nimbers: unknown command {name!r}{hint} (try: nimbers --help)\n"


def _parse(argv: Sequence[str]) -> argparse.Namespace | None:
    parser, commands = build_parser()
    if argv and not argv[0].startswith("-"):
        if argv[0] not in commands:
            sys.stderr.write(_unknown_command(argv[0], list(commands)))
            raise SystemExit(EXIT_USAGE)
        # Each subcommand parses its own arguments, options and operands intermixed.
        return commands[argv[0]].parse_intermixed_args(argv[1:])
    args = parser.parse_args(argv)
    if getattr(args, "run", None) is None:
        parser.print_help()
        return None
    return args


def _write(out: str, stream: IO[str] | None) -> None:
    with _output_errors():
        if stream is None:
            raise _StreamError("standard output is closed")
        stream.write(out + "\n")
        stream.flush()


@contextlib.contextmanager
def _output_errors() -> Iterator[None]:
    """Failures of standard output (full, closed; a broken pipe passes through as itself)
    become one line and status 1."""
    try:
        yield
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise _StreamError(f"cannot write the output: {exc.strerror or exc}") from None
    except UnicodeEncodeError as exc:  # e.g. "misère" or "ω" on an ASCII-only stream
        raise _StreamError(f"cannot write the output: its encoding ({exc.encoding}) has no "
                           f"{exc.object[exc.start:exc.end]!r} (set PYTHONIOENCODING=utf-8)"
                           ) from None


def _say(line: str) -> None:
    """One line on stderr, if there is a stderr to write to."""
    try:
        if sys.stderr is not None:
            sys.stderr.write(line + "\n")
            sys.stderr.flush()
    except (OSError, ValueError):
        pass


def _discard_output() -> None:
    """Points standard output at the null device, so that what it still buffers cannot fail
    again when the interpreter flushes it at exit (Python would print "Exception ignored")."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        return  # not a file descriptor (a StringIO in tests): nothing flushes it at exit
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, fd)
    finally:
        os.close(devnull)


def _flush_output() -> None:
    if sys.stdout is not None:
        with _output_errors():
            sys.stdout.flush()


def _run_command(argv: Sequence[str]) -> int:
    args = _parse(argv)
    if args is None:
        return EXIT_USAGE
    try:
        out = args.run(args)
        if out is not None:
            _write(out, sys.stdout)
    except (BrokenPipeError, _StreamError):
        raise
    except (UsageError, ValueError, TypeError, ZeroDivisionError, OverflowError,
            MemoryError, ImportError, OSError) as exc:
        message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        _say(f"nimbers {args.command}: {message}")
        return EXIT_USAGE
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the command line; returns the exit status.

    0 for an answer; 2 for bad input (one line on stderr); 1 when standard input or output
    fails (closed, or a full disk: one line); 141 (128 + SIGPIPE, what a shell reports for a
    tool a closed pipe stops) and no message when the reader of the output went away early,
    as in ``nimbers table 4096 --format csv | head -1``; 130 after Ctrl-C.  Never a
    traceback.
    """
    try:
        _startup.restore()  # from here on, a Ctrl-C is a KeyboardInterrupt, answered below
        try:
            return _run_command(list(sys.argv[1:] if argv is None else argv))
        finally:  # also after --help and usage errors (SystemExit): their text is buffered
            _flush_output()
    except BrokenPipeError:
        _discard_output()
        return EXIT_BROKEN_PIPE
    except _StreamError as exc:
        _discard_output()
        _say(f"nimbers: {exc}")
        return EXIT_IO
    except KeyboardInterrupt:
        _say("nimbers: interrupted")
        return EXIT_INTERRUPTED


def run() -> NoReturn:
    """Console-script entry point."""
    raise SystemExit(main())
