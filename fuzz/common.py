"""Shared pieces of the fuzz harnesses: the tests' independent oracle, and the rule that an
exception is acceptable only when it is one of the documented, clear ones."""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "tests"))

from oracle import brute_permanent, fermat_mul  # noqa: E402,F401

CLEAR_ERRORS = (ValueError, TypeError, ZeroDivisionError, OverflowError)


def small(x) -> bool:
    return isinstance(x, int) and 0 <= x < 2**130
