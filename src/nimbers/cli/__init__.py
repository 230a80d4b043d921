"""The ``nimbers`` command (also ``python -m nimbers``): one module per command group, as
pip's ``_internal/commands`` holds one per command.

- :mod:`.dispatch` -- the entry point: builds the parser from the groups and runs a command;
- :mod:`.options` -- what the groups share: the parser, numbers, output, exit statuses;
- :mod:`.batch` -- standard input, one problem a line, through the array path;
- :mod:`.arith` (mul, add, div, pow, inv, sqrt), :mod:`.tables` (table, explain),
  :mod:`.linalg` (det, rank, solve), :mod:`.field` (log, order, minpoly, solve-quadratic),
  :mod:`.ordinal` (ordinal, lexicode), :mod:`.games` (nim, heap, turning, tartan),
  :mod:`.census` (census),
  :mod:`.play` (play), :mod:`.serve` (serve).

Each command parses its own arguments, options and operands in any order
(``nimbers heap 0.77 --period 20``).  Conventions shared by every command:

- numbers follow the notation's one rule (:mod:`nimbers.notation.numbers`): ASCII decimal,
  ``0x..``, ``0b..`` or ``0o..``, underscores between digits, of any size;
- piles, heaps and coins are numbered from 0, left to right, as in the Python API;
- ``-`` in place of the numbers reads them from standard input, one problem a line (numbers
  separated by spaces or commas; blank lines skipped), and prints one answer a line --
  batched through the array path, so a million lines take about a second;
- ``--json`` prints structured output as one JSON document;
- bad input prints one line on stderr and exits with status 2; nothing ends in a traceback.
"""

from __future__ import annotations

from .dispatch import build_parser, main, run
from .linalg import read_matrix
from .options import UsageError, parse_int, parse_nimber
from .ordinal import lexicode_command, ordinal_command

__all__ = ["main", "run", "build_parser", "parse_nimber", "parse_int", "read_matrix",
           "UsageError", "ordinal_command", "lexicode_command"]
