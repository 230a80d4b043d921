"""Typed numbers: the one rule every front door (the command line, the web API, play) reads
integers by, and the one way they are written back.

The rule
--------
A number is written in ASCII:

* decimal digits ``0-9`` (leading zeros allowed: ``007`` is 7), or a prefix ``0x``, ``0b``
  or ``0o`` (either case) and hexadecimal, binary or octal digits;
* single underscores may separate digits (``1_000_000``, ``0xff_ff``), as in Python;
* a sign may lead: ``+`` always, ``-`` only where the quantity may be negative (the exponent
  of a power); elsewhere a negative number is refused with its reason;
* a power ``B^E`` or ``B**E`` of two such numbers may stand for any number (``2^64``,
  ``10**6``), as researchers write them; it is bounded before it is computed;
* spaces around the number are ignored;
* digits of other scripts (Arabic-Indic ``٣``, full-width ``３``) are refused: the notation is
  ASCII, and a number that looks like another is not silently read as it.

Numbers may be of any size up to :data:`MAX_DIGITS` characters, read without Python's
4,300-digit limit for ``int(str)`` (see :mod:`nimbers._digits`); each door and each quantity
then has its own documented bound (``most``), and a number past it is refused with one line
that names the bound and shows only the start of the number.

>>> read_integer("1_0"), read_integer("0x0a"), read_integer("0b1010"), read_integer("+10")
(10, 10, 10, 10)
>>> read_integer("-3")
Traceback (most recent call last):
...
nimbers.notation.numbers.NotationError: must be non-negative, got -3
>>> read_integer("-3", signed=True), read_integer(" 7 ")
(-3, 7)
>>> read_integer("\u0663")
Traceback (most recent call last):
...
nimbers.notation.numbers.NotationError: not a number: '\u0663' (ASCII digits: decimal, 0x.., 0b.. or 0o..)
"""

from __future__ import annotations

import re

from .._digits import from_decimal, to_decimal

__all__ = ["NotationError", "read_integer", "read_count", "write_integer", "clip", "MAX_DIGITS",
           "NUMBER_RULE", "COUNT_RULE", "describe_bound"]

#: The longest number read, in characters: a million digits take about a second to convert
#: (the divide-and-conquer conversion of :mod:`nimbers._digits`); past that the conversion,
#: not the arithmetic, would be the work.
MAX_DIGITS = 1_000_000

#: The most bits a power may have where no bound is given: as many as the longest number
#: that could be typed (:data:`MAX_DIGITS` hexadecimal digits).
MAX_POWER_BITS = 4 * MAX_DIGITS

#: The rule in one line, for help texts and messages.
NUMBER_RULE = ("numbers are ASCII: decimal, 0x.., 0b.. or 0o.., underscores between digits "
               "allowed, of any size, or a power B^E or B**E (2^64, 10^6)")

#: The rule for counts (heap sizes to reach, workers, threads, budgets of values): the number
#: rule, powers included (one rule for every number since powers are read everywhere).
COUNT_RULE = NUMBER_RULE

_POWER = re.compile(r"\s*([^*^]+?)\s*(?:\^|\*\*)\s*([^*^]+?)\s*")
_SHAPE = re.compile(r"[+-]?(?:0[xX](?:_?[0-9a-fA-F])+|0[bB](?:_?[01])+|0[oO](?:_?[0-7])+"
                    r"|[0-9](?:_?[0-9])*)")
_HINT = "(ASCII digits: decimal, 0x.., 0b.. or 0o..)"


class NotationError(ValueError):
    """Typed text that does not follow the notation (or is past a documented bound): the
    message is one line, the same through every front door."""


def clip(text: str, keep: int = 40) -> str:
    """The start of a typed text, for a one-line message (a number may be megabytes).

    >>> clip("9" * 50)
    '9999999999999999999999999999999999999999... (50 characters)'
    """
    return text if len(text) <= keep else f"{text[:keep]}... ({len(text)} characters)"


def write_integer(n: int) -> str:
    """An integer in decimal, of any size (Python's ``str`` stops at 4,300 digits).

    >>> write_integer(10**5000) == "1" + "0" * 5000
    True
    """
    return to_decimal(n)


def describe_bound(most: int) -> str:
    """A bound as a message says it: decimal when short, else as a power of two.

    >>> describe_bound(100), describe_bound(2**64 - 1)
    ('100', '2^64 - 1')
    """
    if most < 10**9:
        return str(most)
    if (most + 1) & most == 0:
        return f"2^{most.bit_length()} - 1"
    if most & (most - 1) == 0:
        return f"2^{most.bit_length() - 1}"
    return write_integer(most) if most.bit_length() < 256 else f"about 2^{most.bit_length()}"


def _shown(value: int, text: str) -> str:
    """A number as typed, for a message: the number itself when short, else its start."""
    return write_integer(value) if value.bit_length() <= 128 else clip(text.strip())


def read_integer(text: str, *, signed: bool = False, most: int | None = None,
                 least: int | None = None) -> int:
    """The integer a typed text writes, by the rule of this module.

    Parameters
    ----------
    text : str
        What was typed: a number, or a power ``B^E`` / ``B**E`` of two numbers (a ``-``
        before the power negates it, where ``signed`` allows it).
    signed : bool
        Whether ``-`` may lead (else a negative number is refused).
    most, least : int, optional
        Bounds, inclusive; a number outside is refused naming the bound.

    Returns
    -------
    int

    Raises
    ------
    NotationError
        Not a number by the rule, negative where that is not allowed, or out of bounds.

    >>> read_integer("0X1F"), read_integer("0o17"), read_integer("1" * 5000) % 9
    (31, 15, 5)
    >>> read_integer("2^64"), read_integer("10**3"), read_integer("-2^3", signed=True)
    (18446744073709551616, 1000, -8)
    >>> read_integer("12", most=10)
    Traceback (most recent call last):
    ...
    nimbers.notation.numbers.NotationError: at most 10, got 12
    """
    if not isinstance(text, str):
        raise TypeError(f"a number is typed as text, not {type(text).__name__}")
    if "^" in text or "**" in text:
        return _read_power(text, signed, most, least)
    return _read_plain(text, signed, most, least)


def _read_power(text: str, signed: bool, most: int | None, least: int | None) -> int:
    """A power B^E by the rule: bounded (by ``most``, else :data:`MAX_POWER_BITS`) before
    ``9^99999999`` is computed, so that it is refused at once, not after minutes."""
    s = text.strip(" \t")
    negative = s.startswith("-")
    power = _POWER.fullmatch(s[1:] if negative else s)
    if len(s) > MAX_DIGITS or power is None:
        raise NotationError(f"not a number: {clip(text)!r} {_HINT}")
    base = _read_plain(power.group(1), False, None, None)
    exponent = _read_plain(power.group(2), False, 2**64, None)
    shown = f"{'-' if negative else ''}{write_integer(base)}^{write_integer(exponent)}"
    if negative and not signed and base:
        raise NotationError(f"must be non-negative, got {shown}")
    top = (1 << MAX_POWER_BITS) - 1 if most is None or negative else most
    if base > 1 and (base.bit_length() - 1) * exponent > top.bit_length():
        raise NotationError(f"at most {describe_bound(top)}, got {shown}")
    value: int = base ** exponent
    if value > top:
        raise NotationError(f"at most {describe_bound(top)}, got {shown}")
    value = -value if negative else value
    if least is not None and value < least:
        raise NotationError(f"at least {describe_bound(least)}, got {shown}")
    return value


def _read_plain(text: str, signed: bool, most: int | None, least: int | None) -> int:
    """A number by the rule, not a power."""
    s = text.strip(" \t")
    if len(s) > MAX_DIGITS:
        raise NotationError(f"a number of {len(s):,} characters is too long "
                            f"(at most {MAX_DIGITS:,})")
    if not s.isascii() or not _SHAPE.fullmatch(s):
        raise NotationError(f"not a number: {clip(text)!r} {_HINT}")
    body = s.lstrip("+-")
    if body[:2].lower() in ("0x", "0b", "0o"):
        value = int(body, 0)
    else:
        value = from_decimal(body)
    if s.startswith("-"):
        value = -value
        if not signed and value:
            raise NotationError(f"must be non-negative, got {_shown(value, text)}")
    if most is not None and value > most:
        raise NotationError(f"at most {describe_bound(most)}, got {_shown(value, text)}")
    if least is not None and value < least:
        raise NotationError(f"at least {describe_bound(least)}, got {_shown(value, text)}")
    return value


def read_count(text: str, *, most: int, least: int = 0) -> int:
    """A count: :func:`read_integer` with its bounds required (counts are never unbounded).

    >>> read_count("2^20", most=2**63), read_count("10**6", most=2**63), read_count("0x10", most=99)
    (1048576, 1000000, 16)
    >>> read_count("2^64", most=2**63 - 1)
    Traceback (most recent call last):
    ...
    nimbers.notation.numbers.NotationError: at most 2^63 - 1, got 2^64
    """
    return read_integer(text, most=most, least=least)
