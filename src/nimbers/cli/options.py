"""What every command shares: the parser that prints one line for a usage error, the
declaration of a command group, the number options, output and its errors, exit statuses.

Numbers follow the notation's rule (:mod:`nimbers.notation.numbers`), powers such as 2^64
included, wherever a number is read.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from typing import IO, TYPE_CHECKING, Any, Callable, Iterator, NoReturn, Sequence

import numpy as np

from .. import _limits
from .._digits import no_digit_limit, to_decimal
from ..notation import NotationError, read_count, read_integer

if TYPE_CHECKING:
    from _typeshed import SupportsWrite


EXIT_USAGE = 2
EXIT_IO = 1
EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 128 + 13  # as a shell reports a tool stopped by SIGPIPE

NUMBERING = "Piles, heaps and coins are numbered from 0, left to right, as in Python."


class UsageError(Exception):
    """A problem with what the user typed: one line on stderr, exit status 2."""


class StreamError(Exception):
    """Standard input or output failed (closed, full, unreadable): one line, status 1."""


# ---- parsing numbers ------------------------------------------------------------------------


def parse_nimber(text: str) -> int:
    """A non-negative integer by the notation's number rule (:mod:`nimbers.notation.numbers`:
    decimal, 0x..., 0b... or 0o..., underscores between digits, any size, or a power B^E).

    >>> parse_nimber("0x1F"), parse_nimber("0b101"), parse_nimber("12"), parse_nimber("2^8")
    (31, 5, 12, 256)
    """
    return _integer(text, signed=False)


#: The largest count a command takes (values to compute, a table's side, a code's length):
#: nothing past it could be stored, so it is refused before any work, in the notation's words.
MAX_COUNT = 2**63 - 1
#: The largest heap, coin or board coordinate a position may name.
MAX_POSITION = 2**64 - 1


def parse_count(text: str) -> int:
    """A count: a non-negative integer of at most :data:`MAX_COUNT`, or a power of one
    (the notation's :data:`~nimbers.notation.COUNT_RULE`).

    >>> parse_count("1_000"), parse_count("2^20")
    (1000, 1048576)
    """
    try:
        return read_count(text, most=MAX_COUNT)
    except NotationError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def count_type(least: int = 0, most: int = MAX_COUNT) -> Callable[[str], int]:
    """An argparse type reading a count between least and most (powers allowed: 2^24).

    >>> count_type(1, 64)("0x2"), count_type(1)("2^10")
    (2, 1024)
    """
    def parse(text: str) -> int:
        try:
            return read_count(text, most=most, least=least)
        except NotationError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    parse.__name__ = "count"
    return parse


def seconds_type(text: str) -> float:
    """An argparse type for a positive, finite number of seconds (e.g. 60, 2.5, 1e4), read
    by the one reader of seconds (:func:`nimbers._limits.parse_seconds`).

    >>> seconds_type("2.5")
    2.5
    """
    try:
        return _limits.parse_seconds(text, "", positive=True)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def parse_int(text: str) -> int:
    """Any integer (exponents may be negative)."""
    return _integer(text, signed=True)


def _integer(text: str, signed: bool) -> int:
    try:
        return read_integer(text, signed=signed)
    except NotationError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def read_number(text: str, parse: Callable[[str], int] = parse_nimber) -> int:
    """parse_nimber for values read by a command itself (a UsageError, not argparse's)."""
    try:
        return parse(text)
    except argparse.ArgumentTypeError as exc:
        raise UsageError(str(exc)) from None


# ---- output ----------------------------------------------------------------------------------


def format_number(value: int, args: argparse.Namespace) -> str:
    if getattr(args, "hex", False):
        return hex(value)
    if getattr(args, "bin", False):
        return bin(value)
    return to_decimal(value)


def output_options(p: argparse.ArgumentParser) -> None:
    g = p.add_mutually_exclusive_group()
    g.add_argument("--hex", action="store_true", help="print results in hexadecimal")
    g.add_argument("--bin", action="store_true", help="print results in binary")


def json_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print the result as JSON")


def to_json(data: Any) -> str:
    with no_digit_limit():  # numbers of any size (their input was bounded by the reader)
        return json.dumps(data, ensure_ascii=False)


def polynomial(coeffs: Sequence[int]) -> str:
    degree = len(coeffs) - 1
    terms = []
    for i, c in enumerate(coeffs):
        if c:
            d = degree - i
            terms.append("1" if d == 0 else "x" if d == 1 else f"x^{d}")
    return " + ".join(terms)


# ---- declaring subcommands -------------------------------------------------------------------


class Parser(argparse.ArgumentParser):
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
            with output_errors():
                if file is None:
                    raise StreamError("standard output is closed")
                file.write(message)


Runner = Callable[[argparse.Namespace], "str | None"]


class Commands:
    """The subcommands being declared, and their examples for the top-level help."""

    def __init__(self, subparsers: argparse._SubParsersAction[Parser]) -> None:
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


STDIN_HELP = "'-' reads them from standard input, one problem a line"


def write_out(out: str, stream: IO[str] | None) -> None:
    with output_errors():
        if stream is None:
            raise StreamError("standard output is closed")
        stream.write(out + "\n")
        stream.flush()


#: values written at a time by :func:`write_values` (its memory: a block's text)
VALUE_BLOCK = 1 << 16


def write_values(values: Any, head: str, separator: str, tail: str) -> None:
    """Writes a long sequence of small numbers to standard output a block at a time (50
    million Grundy values as one string and one list of ints would take gigabytes), with a
    head and a tail around them, then a newline.

    >>> import numpy as np
    >>> write_values(np.arange(5), "[", ", ", "]")
    [0, 1, 2, 3, 4]
    """
    values = np.asarray(values)
    top = int(values.max()) if values.size else 0
    # small values (Grundy values are): their texts looked up, 5x faster than str() each
    texts = np.array([str(v) for v in range(top + 1)], dtype=object) if top < 1 << 16 \
        else None
    with output_errors():
        if sys.stdout is None:
            raise StreamError("standard output is closed")
        sys.stdout.write(head)
        for start in range(0, len(values), VALUE_BLOCK):
            block = values[start:start + VALUE_BLOCK]
            words = texts[block].tolist() if texts is not None else map(str, block.tolist())
            sys.stdout.write((separator if start else "") + separator.join(words))
        sys.stdout.write(tail + "\n")


@contextlib.contextmanager
def output_errors() -> Iterator[None]:
    """Failures of standard output (full, closed; a broken pipe passes through as itself)
    become one line and status 1."""
    try:
        yield
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise StreamError(f"cannot write the output: {exc.strerror or exc}") from None
    except UnicodeEncodeError as exc:  # e.g. "misère" or "ω" on an ASCII-only stream
        raise StreamError(f"cannot write the output: its encoding ({exc.encoding}) has no "
                           f"{exc.object[exc.start:exc.end]!r} (set PYTHONIOENCODING=utf-8)"
                           ) from None


def say(line: str) -> None:
    """One line on stderr, if there is a stderr to write to."""
    try:
        if sys.stderr is not None:
            sys.stderr.write(line + "\n")
            sys.stderr.flush()
    except (OSError, ValueError):
        pass


#: the most bytes a --codes file may hold
MAX_CODES_BYTES = 1 << 20


def read_codes_file(path: str) -> list[str]:
    """The codes of a --codes file, the one reader of them for ``census`` and ``census misere``:
    words separated by blanks, commas or lines, ``#`` starting a comment; a file past
    MAX_CODES_BYTES is refused, never cut short."""
    from ..files import read_capped

    text = read_capped(path, MAX_CODES_BYTES, "codes file")
    if "\0" in text:
        raise ValueError(f"{path}: not a text file (it holds NUL bytes)")
    codes = [word for line in text.splitlines()
             for word in line.split("#", 1)[0].replace(",", " ").split()]
    if not codes:
        raise ValueError(f"{path}: no codes in it")
    return codes
