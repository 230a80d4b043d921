"""The catalogue of named games: every game nimbers knows by a name of the literature, with
where the name and the rules come from, and the written forms that name whole families
(a take-and-break code, a subtraction set ``S(1,3,4)``, a turning code, ``at-most-T``, a
Tartan product ``A x B``).  Every front door (``nimbers heap``/``turning``/``tartan``/
``play``, the web playground) looks names up here, so that a name works in every door its
family allows.

Families, and the doors they answer in:

* ``nim`` -- Nim itself: ``nimbers nim``, ``nimbers play``, the web's Nim page;
* ``heap`` -- heap games (octal and take-and-break codes, subtraction games, Grundy's game):
  ``nimbers heap``, ``nimbers play``, the web's heap pages;
* ``turning`` -- coin-turning games on a row: ``nimbers turning``, ``nimbers play``, the web's
  coin pages, and as factors of a board;
* ``board`` -- games on a board of coins (Tartan products, Acrostic Twins): ``nimbers
  tartan``, ``nimbers play``, the web's board page (Tartan products).

Lookups return game objects (:class:`.HeapGame`, :class:`.TurningGame`, :class:`.Tartan`,
:class:`.AcrosticTwins`, :class:`.Nim`); the text is read by :mod:`nimbers.notation.names`.

>>> heap_game("S(1,3,4)").nim_values(8).tolist()
[0, 1, 0, 1, 2, 3, 2, 0]
>>> turning_game("mock-turtles").code, family("Dawson's Kayles"), family("ruler x twins")
('1-3', 'heap', 'board')
>>> entry("kayles").source
'Winning Ways ch. 4 (Taking and Breaking)'
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass
from typing import Any, Callable

from ..notation.names import game_key, read_product, read_subtraction_set
from .codes import GRUNDY_NAMES, HEAP_GAMES
from .heap import HeapGame, grundy_game, subtraction_game, take_break_game
from .nim import Nim
from .tartan import AcrosticTwins, Tartan, acrostic_twins, rugs, tartan, turning_corners
from .turning import NAMED_GAMES, TurningGame

__all__ = ["Entry", "FAMILIES", "entries", "names", "entry", "family", "game", "heap_game",
           "turning_game", "board_game", "FORMS", "described"]

#: the families, in the order the catalogue lists them
FAMILIES = ("nim", "heap", "turning", "board")

_WW4 = "Winning Ways ch. 4 (Taking and Breaking)"
_WW14 = "Winning Ways ch. 14 (Turn and Turn About)"


@dataclass(frozen=True)
class Entry:
    """A game the literature names: its name, the key it is looked up by, its family (which
    says the doors it answers in), its code where it has one, the source of the name and the
    rules, and the names it also answers to."""

    name: str
    key: str
    family: str
    code: str | None
    source: str
    aliases: tuple[str, ...] = ()


def _entries() -> tuple[Entry, ...]:
    out = [Entry("Nim", "nim", "nim", None, "C. L. Bouton, Nim, a game with a complete "
                 "mathematical theory (Annals of Mathematics, 1901); Winning Ways ch. 2")]
    out += [Entry(n.name, key, "heap", n.code, n.source) for key, n in HEAP_GAMES.items()]
    out.append(Entry("Grundy's game", GRUNDY_NAMES[0], "heap", None, _WW4, GRUNDY_NAMES[1:]))
    aliases = {"mocking-turtles": ("mock-turtles",), "turning-turtles": ("turtles",)}
    out += [Entry(key.replace("-", " ").title(), key, "turning", code, _WW14,
                  aliases.get(key, ())) for key, code in NAMED_GAMES.items()]
    out += [Entry("Turning Corners", "turning-corners", "board", "twins x twins",
                  _WW14 + "; Conway, On Numbers and Games ch. 6"),
            Entry("Rugs", "rugs", "board", "ruler x ruler", _WW14),
            Entry("Acrostic Twins", "acrostic-twins", "board", None, _WW14)]
    return tuple(out)


_ENTRIES = _entries()
_BY_KEY = {k: e for e in _ENTRIES for k in (e.key,) + e.aliases}

#: the written forms that name whole families, with an example each (for help texts and
#: the web playground's menus)
FORMS = {
    "heap": ("a take-and-break code like 0.77, 0.137 or 4.07 (Winning Ways ch. 4); "
             "a subtraction game S(1,3,4)", ("S(1,2,3)", "S(1,3,4)", "0.137", "4.07")),
    "turning": ("a turning code like 1-3 or 1-3C(5) (CGSuite's notation); at-most-T",
                ("at-most-4", "1-3C(5)")),
    "board": ("a Tartan product 'A x B' of two coin-turning games", ("ruler x mocking-turtles",)),
}

_TAKE_BREAK = re.compile(r"^\s*[0-9a-fA-F]?\.[0-9a-fA-F]*\s*$")
_AT_MOST = re.compile(r"^at-most-([0-9]+)$")


def entries(family: str | None = None) -> tuple[Entry, ...]:
    """The named games, in the catalogue's order, of one family or all."""
    if family is not None and family not in FAMILIES:
        raise ValueError(f"unknown family {family!r}: families are {', '.join(FAMILIES)}")
    return tuple(e for e in _ENTRIES if family is None or e.family == family)


def names(family: str | None = None) -> list[str]:
    """The keys of the named games (what a person types), of one family or all.

    >>> names("board")
    ['turning-corners', 'rugs', 'acrostic-twins']
    """
    return [e.key for e in entries(family)]


def entry(name: str) -> Entry:
    """The named game a name (or one of its aliases) stands for; KeyError when none."""
    return _BY_KEY[game_key(name)]


def described(family: str | None = None) -> str:
    """The names and forms a door accepts, in one line, for its messages and help.

    >>> described("board")
    "turning-corners, rugs, acrostic-twins; or a Tartan product 'A x B' of two coin-turning games"
    """
    if family is None:
        return "; ".join(f"{f}: {described(f)}" for f in FAMILIES)
    forms = FORMS.get(family)
    listed = ", ".join(names(family))
    return f"{listed}; or {forms[0]}" if forms else listed


def family(name: str) -> str:
    """The family of a name or a written form: "nim", "heap", "turning" or "board".

    Raises
    ------
    ValueError
        Neither a named game nor a form of the catalogue.
    """
    key = game_key(name)
    if key in _BY_KEY:
        return _BY_KEY[key].family
    if read_product(name) is not None:
        return "board"
    if read_subtraction_set(name) is not None or _TAKE_BREAK.match(name):
        return "heap"
    if _AT_MOST.match(key) or _turning_code(name) is not None:
        return "turning"
    raise ValueError(f"unknown game {name!r}: known games are {described()}")


def _turning_code(name: str) -> TurningGame | None:
    try:
        return TurningGame(name)
    except ValueError:
        return None


def game(name: str) -> Any:
    """The game a name or a written form stands for, whatever its family."""
    makers: dict[str, Callable[[str], Any]] = {
        "nim": lambda _: Nim(), "heap": heap_game, "turning": turning_game,
        "board": board_game}
    return makers[family(name)](name)


_WORDS = {"nim": "Nim", "heap": "heap", "turning": "coin-turning", "board": "board"}


def _wrong_family(name: str, wanted: str) -> ValueError:
    got = family(name)
    return ValueError(f"{name!r} is a {_WORDS[got]} game, not a {_WORDS[wanted]} game "
                      f"({_WORDS[wanted]} games: {described(wanted)})")


def _unknown(name: str, family: str) -> ValueError:
    return ValueError(f"unknown game {name!r}: known {_WORDS[family]} games are "
                      f"{described(family)}")


def heap_game(name: str) -> HeapGame:
    """A heap game by name, take-and-break code or subtraction set ``S(...)``.

    >>> heap_game("grundy").name, heap_game("dawsons-chess").code, heap_game("0.6").code
    ("Grundy's game", '0.137', '0.6')
    """
    if not isinstance(name, str):
        raise TypeError(f"a game's name is a string, not {type(name).__name__}")
    key = game_key(name)
    named = _BY_KEY.get(key)
    if named is not None and named.family == "heap":
        return grundy_game() if named.code is None else take_break_game(named.code, named.name)
    amounts = read_subtraction_set(name)
    if amounts is not None:
        return subtraction_game(amounts, name="S(" + ",".join(map(str, amounts)) + ")")
    if _TAKE_BREAK.match(name) or ("." in name and named is None):
        return take_break_game(name.strip())  # its message says what is wrong with a code
    if named is not None or _AT_MOST.match(key) or read_product(name) is not None \
            or _turning_code(name) is not None:
        raise _wrong_family(name, "heap")
    raise _unknown(name, "heap")


def heap_game_from_code(code: str) -> HeapGame:
    """Deprecated: :func:`heap_game`, the one resolver of heap game names and codes, takes
    the same names and codes (and ``S(1,3,4)``); this calls it, with a DeprecationWarning."""
    warnings.warn("heap_game_from_code is deprecated: use nimbers.games.heap_game, the one "
                  "resolver of heap game names and codes", DeprecationWarning, stacklevel=2)
    return heap_game(code)


def turning_game(name: str, **limits: Any) -> TurningGame:
    """A coin-turning game on a row by name (Winning Ways' or an alias), ``at-most-T`` or
    turning code; ``limits`` (``memory_limit``, ``time_limit``) go to the game.

    >>> turning_game("Mock Turtles").name, turning_game("at-most-4").code
    ('mocking-turtles', '1-4')
    """
    if not isinstance(name, str):
        raise TypeError(f"a game's name is a string, not {type(name).__name__}")
    key = game_key(name)
    named = _BY_KEY.get(key)
    if named is not None and named.family == "turning":
        return TurningGame(named.code, named.key, **limits)
    m = _AT_MOST.match(key)
    if m and int(m.group(1)) >= 1:
        return TurningGame(f"1-{int(m.group(1))}", key, **limits)
    if named is None and read_product(name) is None and read_subtraction_set(name) is None \
            and not _TAKE_BREAK.match(name):
        try:
            return TurningGame(name, **limits)
        except ValueError:
            raise _unknown(name, "turning") from None
    raise _wrong_family(name, "turning")


def board_game(*names: str) -> Tartan | AcrosticTwins:
    """A game on a board: a named one (turning-corners, rugs, acrostic-twins), a product
    written ``A x B``, or the Tartan product of two or more coin-turning games named apart.

    >>> board_game("rugs").name, board_game("ruler", "mock-turtles").nim_value([(1, 1)])
    ('Rugs', 3)
    """
    if len(names) == 1:
        key = game_key(names[0])
        named = _BY_KEY.get(key)
        if named is not None and named.family == "board":
            makers: dict[str, Callable[[], Tartan | AcrosticTwins]] = {
                "turning-corners": turning_corners, "rugs": rugs,
                "acrostic-twins": acrostic_twins}
            return makers[named.key]()
        factors = read_product(names[0])
        if factors is None:
            raise _wrong_family(names[0], "board") if _known(names[0]) else \
                _unknown(names[0], "board")
        names = factors
    for n in names:
        if game_key(n) in _BY_KEY and _BY_KEY[game_key(n)].family == "board":
            raise ValueError(f"{n} is a board of its own, not a factor of a product: give it "
                             "alone")
    return tartan(*(turning_game(n) for n in names))


def _known(name: str) -> bool:
    try:
        family(name)
    except ValueError:
        return False
    return True
