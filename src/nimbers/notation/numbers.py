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

#: The rule in one line, for help texts and messages.
NUMBER_RULE = ("numbers are ASCII: decimal, 0x.., 0b.. or 0o.., underscores between digits "
               "allowed, of any size")

#: Counts (heap sizes to reach, workers, threads, budgets of values) may also be written as a
#: power, as researchers write them: ``2^28``, ``2**28``, ``10^6``.
COUNT_RULE = NUMBER_RULE + "; a count may also be a power B^E or B**E (2^28, 10^6)"

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
        What was typed.
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
    >>> read_integer("12", most=10)
    Traceback (most recent call last):
    ...
    nimbers.notation.numbers.NotationError: at most 10, got 12
    """
    if not isinstance(text, str):
        raise TypeError(f"a number is typed as text, not {type(text).__name__}")
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
    """A count by the number rule, or a power ``B^E`` / ``B**E`` of two such numbers (the way
    heap counts are written in the literature: 2^35), between least and most inclusive.

    A power is bounded before it is computed: ``9^99999999`` is refused at once, not after
    minutes of arithmetic.

    >>> read_count("2^20", most=2**63), read_count("10**6", most=2**63), read_count("0x10", most=99)
    (1048576, 1000000, 16)
    >>> read_count("2^64", most=2**63 - 1)
    Traceback (most recent call last):
    ...
    nimbers.notation.numbers.NotationError: at most 2^63 - 1, got 2^64
    """
    if not isinstance(text, str):
        raise TypeError(f"a count is typed as text, not {type(text).__name__}")
    power = _POWER.fullmatch(text) if ("^" in text or "**" in text) else None
    if power is None:
        return read_integer(text, most=most, least=least)
    base = read_integer(power.group(1), most=most)
    exponent = read_integer(power.group(2), most=2**64)
    shown = f"{write_integer(base)}^{write_integer(exponent)}"
    if base > 1 and (base.bit_length() - 1) * exponent > most.bit_length():
        raise NotationError(f"at most {describe_bound(most)}, got {shown}")
    value: int = base ** exponent
    if value > most:
        raise NotationError(f"at most {describe_bound(most)}, got {shown}")
    if value < least:
        raise NotationError(f"at least {describe_bound(least)}, got {shown}")
    return value
