"""Decimal text of integers of any size, within Python's int/str digit limit.

Since Python 3.11, ``int(text)`` and ``str(n)`` refuse decimal numbers of more than
``sys.get_int_max_str_digits()`` digits (4300 by default), a guard against quadratic-time
conversions of untrusted text.  Our numbers may be far longer (the C core takes operands of
millions of bits), and a library must not lift that guard for the whole program.  So both
directions split the number into halves, recursively, until each piece is below the limit:
a number of d digits is ``high * 10^k + low`` with ``k`` about ``d/2`` (divide and conquer,
as in Knuth, *The Art of Computer Programming*, vol. 2, section 4.4, for radix conversion).

>>> from_decimal("9" * 5000) == 10**5000 - 1
True
>>> to_decimal(10**5000 - 1) == "9" * 5000
True
"""

from __future__ import annotations

import contextlib
import sys
from typing import Iterator

__all__ = ["to_decimal", "from_decimal", "DECIMAL_PIECE", "no_digit_limit"]

#: Digits converted by one call of ``int``/``str``: below the smallest limit Python allows
#: (640), so any setting of ``sys.set_int_max_str_digits`` leaves our conversions working.
DECIMAL_PIECE = 600

#: bits per decimal digit, rounded up (log2 10 = 3.3219...), to bound a number's digits
_BITS_PER_DIGIT = 3.3219280948873626


def _limit() -> int:
    """The digits Python converts in one go now (0 means unlimited)."""
    get = getattr(sys, "get_int_max_str_digits", None)
    return 0 if get is None else int(get())


@contextlib.contextmanager
def no_digit_limit() -> Iterator[None]:
    """Python's int/str digit limit lifted for the block, and set back after it: for code we
    do not own that converts numbers with ``int``/``str``/``json`` (an ordinal's parser,
    ``json.dumps``), around numbers whose size the caller has already bounded (the limit is
    a guard against quadratic time; a bound keeps that time small).  Not for threads that
    convert other numbers meanwhile: the setting is the interpreter's.

    >>> with no_digit_limit():
    ...     len(str(10**5000))
    5001
    """
    get = getattr(sys, "get_int_max_str_digits", None)
    if get is None:  # before Python 3.11: no limit to lift
        yield
        return
    old = get()
    sys.set_int_max_str_digits(0)
    try:
        yield
    finally:
        sys.set_int_max_str_digits(old)


def from_decimal(text: str) -> int:
    """The int written by a string of decimal digits (an optional sign first), of any length.

    Parameters
    ----------
    text : str
        Digits, possibly with a leading ``+`` or ``-`` and surrounding whitespace;
        underscores between digits as ``int`` allows them.

    Returns
    -------
    int

    Raises
    ------
    ValueError
        When the text is not a decimal integer (the message is ``int``'s).

    Examples
    --------
    >>> from_decimal("-12"), from_decimal("1" * 700) == int("1" * 700)
    (-12, True)
    """
    s = text.strip()
    if _limit() == 0 or len(s) <= DECIMAL_PIECE:
        return int(s, 10)
    sign = -1 if s[:1] == "-" else 1
    digits = s[1:] if s[:1] in "+-" else s
    if not digits.replace("_", "").isdigit() or not digits.isascii() \
            or digits.startswith("_") or digits.endswith("_") or "__" in digits:
        raise ValueError(f"invalid literal for int() with base 10: {text[:40]!r}")
    return sign * _join(digits.replace("_", ""))


def _join(digits: str) -> int:
    if len(digits) <= DECIMAL_PIECE:
        return int(digits, 10)
    low_length = len(digits) // 2
    high, low = digits[:-low_length], digits[-low_length:]
    scale: int = 10**low_length
    return _join(high) * scale + _join(low)


def to_decimal(n: int) -> str:
    """``str(n)`` for an int of any size.

    Parameters
    ----------
    n : int

    Returns
    -------
    str
        The decimal digits, with a ``-`` for a negative number.

    Examples
    --------
    >>> to_decimal(-12), to_decimal(10**700) == "1" + "0" * 700
    ('-12', True)
    """
    n = int(n)
    if _limit() == 0 or n.bit_length() <= DECIMAL_PIECE * _BITS_PER_DIGIT * 0.99:
        return str(n)
    if n < 0:
        return "-" + _split(-n, None)
    return _split(n, None)


def _split(n: int, width: int | None) -> str:
    """The digits of n >= 0, zero-padded to ``width`` when one is given."""
    if n.bit_length() <= DECIMAL_PIECE * 3:  # fewer than DECIMAL_PIECE digits
        text = str(n)
        return text if width is None else text.zfill(width)
    digits = int(n.bit_length() / _BITS_PER_DIGIT) + 1  # at least the number's digits
    low_length = digits // 2
    high, low = divmod(n, 10**low_length)
    high_text = _split(high, None if width is None else width - low_length)
    return high_text + _split(low, low_length)
