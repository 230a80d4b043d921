"""Standard input: one problem a line, read in one go and answered through the array path
(a million lines in about a second).
"""

from __future__ import annotations

import argparse
import io
import sys
import warnings
from typing import Any, Callable, Sequence

import numpy as np

from .._digits import to_decimal
from .options import StreamError, UsageError, parse_int, parse_nimber


# ---- standard input: one problem a line, answered through the array path ---------------------


def read_stdin() -> bytes:
    if sys.stdin is None:  # started with standard input closed (<&-)
        raise StreamError("standard input is closed")
    try:
        return sys.stdin.buffer.read()
    except (OSError, ValueError) as exc:  # a directory, an I/O error, a closed file
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise StreamError(f"cannot read standard input: {reason}") from None


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


class Batch:
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


def as_array(values: Any) -> np.ndarray:
    if isinstance(values, np.ndarray):
        return values
    if all(v <= 0xFFFF_FFFF_FFFF_FFFF for v in values):
        return np.array(values, dtype=np.uint64)
    return np.array(values, dtype=object)


def answers(results: Any, args: argparse.Namespace) -> str:
    values = np.asarray(results).tolist()
    form = hex if getattr(args, "hex", False) else bin if getattr(args, "bin", False) \
        else to_decimal
    return "\n".join(map(form, values))


def batched(batch: Batch, run: Callable[[], Any], one: Callable[[int], Any]) -> Any:
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


def one_problem(batch: Batch, i: int, fn: Callable[..., Any], *operands: Any) -> Any:
    """One problem of a batch that runs problem by problem: errors name the line."""
    try:
        return fn(*operands)
    except (ValueError, ZeroDivisionError) as exc:
        raise UsageError(f"line {batch.line_numbers[i]}: {exc}") from None
