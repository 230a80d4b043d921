"""det, rank, solve: linear algebra over the nim field, matrices read from files."""

from __future__ import annotations

import argparse

from .options import Commands, UsageError, json_option, parse_nimber, to_json
from .batch import read_stdin


# ---- linear algebra ---------------------------------------------------------------------------


def read_matrix(path: str) -> list[list[int]]:
    """A matrix file: non-negative integers (decimal or 0x..) separated by spaces or commas,
    one row a line; '-' reads standard input.  Blank lines and lines starting with # are
    skipped, and the labelled CSV that ``nimbers table --format csv`` writes (a header row
    and a label column) is read as the table inside."""
    if path == "-":
        data = read_stdin()
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


def linalg_commands(commands: Commands) -> None:
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
    json_option(p)


def _det(args: argparse.Namespace) -> str:
    from ..linalg import det
    return str(det(read_matrix(args.file)))


def _rank(args: argparse.Namespace) -> str:
    from ..linalg import rank
    return str(rank(read_matrix(args.file)))


def _solve(args: argparse.Namespace) -> str:
    from ..linalg import solve
    if args.a_file == "-" and args.b_file == "-":
        raise UsageError("only one of the files can be standard input")
    x = solve(read_matrix(args.a_file), read_matrix(args.b_file)).tolist()
    if args.json:
        return to_json(x)
    return "\n".join(" ".join(str(v) for v in row) for row in x)
