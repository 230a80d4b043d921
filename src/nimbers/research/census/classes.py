"""Octal codes as a census counts them: every code with up to K digits, the standard form of
a class, and the dead heap sizes that offset one game's Grundy sequence against another's.

Two codes are one game of the census when their Grundy sequences agree once the heap sizes
on which no move exists are dropped (T. Czajka, octal-games, GameLookup.md: "a game in which
taking a 1-element heap is not allowed is considered equivalent to the game with all heap
sizes reduced by 1"): in a game where heaps 1 .. k allow no move, a heap of n tokens plays
exactly like a heap of n - k in the game whose sequence is the rest.  With ``offsets=False``
sequences are compared from heap 0 as they are.

The standard form of a class is its shortest code as the literature writes it (".77" for
0.77, "4.3", and "4" for 4.0, the game of splitting a heap in two), then first digit 0
before 4, then the smaller digits.  That rule gives Czajka's standard forms for every code
with up to three digits.

>>> len(codes_up_to(1)), codes_up_to(1)[:3]      # in the order of standard forms
(15, ['4.0', '0.1', '0.2'])
>>> written("0.77"), written("4.0"), written("4.07")
('.77', '4', '4.07')
>>> standard_form(["0.73", "0.26", "4.02"])
'0.26'
>>> dead_heaps([0, 0, 1, 2, 3, 0, 1])        # 0.26: a heap of one token allows no move
1
"""

from __future__ import annotations

import hashlib
import itertools
from typing import Iterable, Sequence

import numpy as np

from ...games.codes import parse_take_break_code

__all__ = ["codes_up_to", "canonical", "written", "standard_key", "standard_form",
           "dead_heaps", "normalized", "sequence_digest"]

#: the first digits of the octal codes a census covers (Flammenkamp's tables: 0.??? and 4.???)
FIRST_DIGITS = (0, 4)


def canonical(code: str) -> str:
    """The census's spelling of an octal code: "d0.d1d2..." without trailing zeros, "4.0" for
    the bare split; ".77" and "4." are read too.

    >>> canonical(".770"), canonical("4."), canonical("0.07")
    ('0.77', '4.0', '0.07')

    Raises
    ------
    ValueError
        Not an octal code with first digit 0 or 4, or a code allowing no move.
    """
    text = code.strip() if isinstance(code, str) else code
    if isinstance(text, str) and text.startswith("."):
        text = "0" + text
    parsed = parse_take_break_code(text, hex_ok=False)
    if parsed.digits[0] not in FIRST_DIGITS:
        raise ValueError(f"{code!r}: a census covers codes with first digit 0 or 4")
    rest = "".join(str(d) for d in parsed.digits[1:])
    return f"{parsed.digits[0]}.{rest or '0'}"


def codes_up_to(digits: int) -> list[str]:
    """Every octal code 0.d1..dk and 4.d1..dk with k <= digits that allows a move, each once
    (a trailing 0 names the same game as the code without it): 2 * 8^digits - 1 codes."""
    if isinstance(digits, bool) or not isinstance(digits, int) or not 1 <= digits <= 6:
        raise ValueError(f"digits is an int from 1 to 6, got {digits!r}")
    found = []
    for first in FIRST_DIGITS:
        for k in range(digits + 1):
            for rest in itertools.product("01234567", repeat=k):
                if k and rest[-1] == "0":
                    continue  # the same game as the shorter code
                if first == 0 and k == 0:
                    continue  # 0.0: no move at all
                found.append(f"{first}.{''.join(rest) or '0'}")
    return sorted(found, key=standard_key)


def written(code: str) -> str:
    """The code as the literature writes it: a leading 0 dropped, "4" for 4.0."""
    first, rest = canonical(code).split(".")
    rest = rest.rstrip("0")
    return ("" if first == "0" else first) + (f".{rest}" if rest else "")


def standard_key(code: str) -> tuple[int, str, str]:
    """The order that picks a class's standard form (the least): the written length, then
    first digit 0 before 4, then the digits."""
    first, rest = canonical(code).split(".")
    return len(written(code)), first, rest


def standard_form(codes: Iterable[str]) -> str:
    """The standard form of a class of codes (see the module docstring)."""
    return canonical(min(codes, key=standard_key))


def dead_heaps(values: Sequence[int] | np.ndarray) -> int:
    """How many heap sizes 1, 2, ... allow no move: k with g(1) = ... = g(k) = 0 < g(k+1).
    (A heap whose options are all dead heaps has value 0 exactly when it has no move, so
    the leading zeros are the dead heaps.)"""
    nonzero = np.flatnonzero(np.asarray(values))
    if not nonzero.size:
        raise ValueError("too few values to see a move: compute more heap sizes")
    return int(nonzero[0]) - 1


def normalized(values: np.ndarray, offsets: bool = True) -> np.ndarray:
    """The sequence a class compares: the dead heaps dropped (offsets) or as it is, as uint32."""
    values = np.asarray(values)
    start = dead_heaps(values) if offsets else 0
    return values[start:].astype(np.uint32)


def sequence_digest(values: np.ndarray) -> str:
    """SHA-256 of values as little-endian uint32 (the same whatever dtype holds them)."""
    return hashlib.sha256(np.ascontiguousarray(values, dtype="<u4").tobytes()).hexdigest()
