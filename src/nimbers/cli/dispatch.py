"""The entry point: the top-level parser, built from the command groups, and ``main``, which
finds the command, runs it and turns every failure into one line and an exit status.

A command group is a module of this package with a function that declares its commands
(:class:`.options.Commands`); adding a group is adding its module and one line to
:data:`GROUPS`.
"""

from __future__ import annotations

import argparse
import difflib
import os
import sys
from typing import Callable, NoReturn, Sequence

from .. import _startup
from ..notation import NUMBER_RULE
from . import arith, census, field, games, linalg, ordinal, play, serve, tables
from .options import (Commands, EXIT_BROKEN_PIPE, EXIT_INTERRUPTED, EXIT_IO, EXIT_USAGE, NUMBERING,
                      Parser, StreamError, UsageError, output_errors, say, write_out)


# ---- the parser and the entry point ------------------------------------------------------------

#: The command groups, each declaring its commands, in the order the help lists them.
GROUPS: tuple[Callable[[Commands], None], ...] = (
    arith.arithmetic_commands, tables.table_commands, linalg.linalg_commands,
    field.field_commands, ordinal.ordinal_commands, games.game_commands,
    census.census_commands, play.play_commands, serve.web_commands)


def _version() -> str:
    from .._version import __version__
    return __version__


def build_parser() -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    """The top-level parser and each subcommand's own parser, by name."""
    parser = Parser(
        prog="nimbers",
        description="Nimber arithmetic, impartial games and linear algebra over the nim field.\n"
                    f"{NUMBER_RULE[0].upper()}{NUMBER_RULE[1:]}.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"nimbers {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    commands = Commands(sub)
    for declare in GROUPS:
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
    if getattr(args, "run", None) is None:  # no command: the short usage, as argparse does
        # for a missing argument (the overview is nimbers --help, on standard output)
        say(parser.format_usage().rstrip("\n"))
        say("nimbers: give a command, e.g. nimbers mul 5 11 (try: nimbers --help)")
        return None
    return args


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
        with output_errors():
            sys.stdout.flush()


def _run_command(argv: Sequence[str]) -> int:
    args = _parse(argv)
    if args is None:
        return EXIT_USAGE
    try:
        out = args.run(args)
        if out is not None:
            write_out(out, sys.stdout)
    except (BrokenPipeError, StreamError):
        raise
    except (UsageError, ValueError, TypeError, ZeroDivisionError, OverflowError,
            MemoryError, ImportError, OSError) as exc:
        say(f"nimbers {args.command}: {_message(exc)}")
        return EXIT_USAGE
    return 0


def _message(exc: BaseException) -> str:
    """The one line a failure is said in: its own message, or for memory that ran out
    (numpy's "Unable to allocate ...", a bare MemoryError) the memory cap's words."""
    if isinstance(exc, MemoryError):
        from .._limits import ENV, describe_bytes, memory_cap
        return (f"out of memory: this needs more than the process may allocate (the memory "
                f"cap is {describe_bytes(memory_cap())}; set {ENV} to what the machine "
                "allows, and ask for less)")
    text = str(exc)
    return text.splitlines()[0] if text else type(exc).__name__


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
    except StreamError as exc:
        _discard_output()
        say(f"nimbers: {exc}")
        return EXIT_IO
    except KeyboardInterrupt:
        say("nimbers: interrupted")
        return EXIT_INTERRUPTED


def run() -> NoReturn:
    """Console-script entry point."""
    raise SystemExit(main())
