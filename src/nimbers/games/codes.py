"""The literature's codes for impartial rulesets, parsed into data.

Two notations name most rulesets in Winning Ways (ch. 4 and 14) and in CGSuite:

* take-and-break codes "d0.d1d2..." for heap games (octal games such as "0.77" for Kayles,
  hexadecimal digits for games that may leave three heaps);
* turning codes "1-3", "1+C", "3E", "1-3C(5)", "4FS", ... for coin-turning games.

The parsers only read the text: they return plain data (:class:`TakeBreakCode`, a list of
:class:`Term`) and build no game.

>>> parse_take_break_code("0.77")
TakeBreakCode(code='0.77', digits=(0, 7, 7), kind='octal')
>>> parse_turning_code("1-3")
[Term(lo=1, hi=3, consecutive=False, span=None, equal=False, symmetric=False, first=False)]
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..notation.names import game_key

__all__ = ["TakeBreakCode", "parse_take_break_code", "Term", "parse_turning_code",
           "NamedCode", "HEAP_GAMES", "GRUNDY_NAMES", "game_key", "heap_game_code",
           "heap_game_name"]


# ---- take-and-break codes ---------------------------------------------------------------------

@dataclass(frozen=True)
class TakeBreakCode:
    """A parsed take-and-break code.

    digits[k] says, as a sum of bits, what a move removing k tokens from one heap may leave:
    1 = nothing (the whole heap is taken), 2 = one heap, 4 = two heaps, 8 = three heaps.
    Trailing zero digits are dropped.  kind is "octal" when the octal periodicity theorem
    (Guy and Smith) applies, i.e. digits 0-7 and d0 = 0, else "take-break".
    """

    code: str
    digits: tuple[int, ...]
    kind: str


_TAKE_BREAK = re.compile(r"^([0-9A-Fa-f]?)\.([0-9A-Fa-f]*)$")


def parse_take_break_code(code: str, hex_ok: bool = True) -> TakeBreakCode:
    """The digits of a take-and-break code in CGSuite's notation "d0.d1d2...".

    Parameters
    ----------
    code : str
        "0.77", "4.07", "0.3F", ...; d0 (before the point) may hold only 4 or 8: splitting a
        heap without taking tokens.
    hex_ok : bool
        False: only octal digits 0-7 are accepted.

    Returns
    -------
    TakeBreakCode

    Raises
    ------
    TypeError
        code is not a string.
    ValueError
        not a code, a hex digit where octal was asked for, a d0 with bits 1 or 2, or a code
        allowing no move.

    >>> parse_take_break_code("4.07").kind, parse_take_break_code("0.3F").digits
    ('take-break', (0, 3, 15))
    """
    if not isinstance(code, str):
        raise TypeError(f"a game code is a string like '0.77', not {type(code).__name__}")
    m = _TAKE_BREAK.match(code.strip())
    if not m:
        raise ValueError(f"not a take-and-break code: {code!r} (expected digits like '0.77')")
    first, rest = m.group(1) or "0", m.group(2)
    digits = [int(d, 16) for d in first + rest]
    if not hex_ok and any(d > 7 for d in digits):
        bad = next(c for c in first + rest if int(c, 16) > 7)
        raise ValueError(f"{code!r}: octal digits are 0-7, got {bad!r} (use take_break_game "
                         "for hex codes)")
    if digits[0] & 3:
        raise ValueError(f"{code!r}: the digit before the point may only allow splitting "
                         "(4 or 8): taking nothing and leaving the heap is no move")
    while len(digits) > 1 and digits[-1] == 0:
        digits.pop()
    if not any(digits):
        raise ValueError(f"{code!r} allows no move at all")
    kind = "octal" if all(d <= 7 for d in digits) and digits[0] == 0 else "take-break"
    return TakeBreakCode(code.strip(), tuple(digits), kind)


# ---- heap games by their names in the literature ----------------------------------------------

@dataclass(frozen=True)
class NamedCode:
    """A ruleset as the literature names it: its name, its code, and where the code is given."""

    name: str
    code: str
    source: str


_WW4 = "Winning Ways ch. 4 (Taking and Breaking)"

#: Heap games by name (keys as :func:`game_key` writes them): the octal codes of Winning Ways,
#: which CGSuite uses too.  Grundy's game has no take-and-break code (it splits a heap into
#: two unequal heaps): see :data:`GRUNDY_NAMES`.
HEAP_GAMES: dict[str, NamedCode] = {
    "kayles": NamedCode("Kayles", "0.77", _WW4),
    "dawsons-kayles": NamedCode("Dawson's Kayles", "0.07", _WW4),
    "dawsons-chess": NamedCode("Dawson's Chess", "0.137", _WW4),
    "guiles": NamedCode("Guiles", "0.15", _WW4),
    "treblecross": NamedCode("Treblecross", "0.007", _WW4),
    "officers": NamedCode("Officers", "0.6", _WW4),
}

#: the names Grundy's game answers to (Winning Ways ch. 4)
GRUNDY_NAMES = ("grundy", "grundys-game")


def heap_game_code(name: str) -> NamedCode | None:
    """The named heap game (see :data:`HEAP_GAMES`), or None when the name is not one.

    >>> heap_game_code("Kayles")
    NamedCode(name='Kayles', code='0.77', source='Winning Ways ch. 4 (Taking and Breaking)')
    """
    return HEAP_GAMES.get(game_key(name))


def heap_game_name(code: str) -> str | None:
    """The literature's name of a take-and-break code, or None.

    >>> heap_game_name("0.07")
    "Dawson's Kayles"
    """
    for named in HEAP_GAMES.values():
        if named.code == code:
            return named.name
    return None


# ---- turning codes ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Term:
    """One term of a turning code: turn between lo and hi coins (hi None: no limit), with the
    modifiers consecutive, span (C(n)), equally spaced, symmetric and first (coin 0)."""

    lo: int
    hi: int | None
    consecutive: bool = False
    span: int | None = None
    equal: bool = False
    symmetric: bool = False
    first: bool = False

    def allows(self, count: int) -> bool:
        """Whether a move of this term may turn count coins (the head included)."""
        return count >= self.lo and (self.hi is None or count <= self.hi)

    @property
    def plain(self) -> bool:
        """No modifier: any coins left of the head."""
        return not (self.consecutive or self.span or self.equal or self.symmetric or self.first)


_TERM = re.compile(r"^(\d+)(?:(-)(\d+)|(\+))?((?:C\(\d+\)|[CESF])*)$")


def parse_turning_code(code: str) -> list[Term]:
    """The terms of a CGSuite turning code, a comma-separated list of terms.

    A term is a count ("3"), a range ("1-3") or an open range ("1+") of coins turned, the
    head included, then modifiers: C consecutive, C(n) within a span of n adjacent coins,
    E equally spaced, S symmetric, F the leftmost coin of the row among those turned.

    Parameters
    ----------
    code : str
        "1-3", "1+C", "3E", "1-3C(5)", "4FS", "2-3,6C", ...

    Returns
    -------
    list of Term

    Raises
    ------
    TypeError
        code is not a string.
    ValueError
        a term that is not in the grammar, an empty range, a zero span or a repeated modifier.

    >>> parse_turning_code("1-3C(5)")
    [Term(lo=1, hi=3, consecutive=False, span=5, equal=False, symmetric=False, first=False)]
    """
    if not isinstance(code, str):
        raise TypeError(f"a turning code is a string like '1-3', not {type(code).__name__}")
    terms = []
    for part in code.replace(" ", "").split(","):
        m = _TERM.match(part.upper())
        if not m:
            raise ValueError(f"not a turning code: {part!r} in {code!r} (expected e.g. '1-3', "
                             "'1+C', '3E', '1-3C(5)', '4FS')")
        lo = int(m.group(1))
        hi = int(m.group(3)) if m.group(2) else (None if m.group(4) else lo)
        if lo < 1 or (hi is not None and hi < lo):
            raise ValueError(f"{part!r}: the number of coins must be a range of positive ints")
        mods = m.group(5)
        span = re.search(r"C\((\d+)\)", mods)
        plain = re.sub(r"C\(\d+\)", "", mods)
        if span and int(span.group(1)) < 1:
            raise ValueError(f"{part!r}: a span must be at least 1 coin")
        if any(plain.count(c) > 1 for c in "CESF"):
            raise ValueError(f"{part!r}: a modifier is repeated")
        terms.append(Term(lo, hi, "C" in plain, int(span.group(1)) if span else None,
                          "E" in plain, "S" in plain, "F" in plain))
    return terms
