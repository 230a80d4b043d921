"""Typed game names: the key a name is looked up by, and the literature's written forms that
carry data (a subtraction set ``S(1,3,4)``, a Tartan product ``A x B``).  The catalogue
(:mod:`nimbers.games.catalogue`) says which names exist; this module only reads the text.

>>> game_key("Dawson's Chess"), game_key("mocking_turtles")
('dawsons-chess', 'mocking-turtles')
>>> read_subtraction_set("S(1, 3, 4)"), read_product("ruler x twins")
((1, 3, 4), ('ruler', 'twins'))
"""

from __future__ import annotations

import re

from .numbers import NotationError, clip, read_integer

__all__ = ["game_key", "read_subtraction_set", "read_product", "MAX_SUBTRACTION"]

#: the largest amount of a subtraction set typed by name (the engine's bound, see
#: :func:`nimbers.games.subtraction_game`)
MAX_SUBTRACTION = 10**6

_SUBTRACTION = re.compile(r"^\s*[sS]\s*\((.*)\)\s*$")
_TIMES = re.compile(r"\s(?:x|×)\s", re.IGNORECASE)


def game_key(name: str) -> str:
    """A game's name as a lookup key: lower case, no apostrophes, words joined by "-".

    >>> game_key("  Grundy's  game ")
    'grundys-game'
    """
    if not isinstance(name, str):
        raise TypeError(f"a game's name is a string, not {type(name).__name__}")
    key = name.strip().lower().replace("'", "").replace("\u2019", "")
    return "-".join(key.replace("_", " ").replace("-", " ").split())


def read_subtraction_set(name: str) -> tuple[int, ...] | None:
    """The amounts of a subtraction game written ``S(1,3,4)`` (Winning Ways ch. 4), sorted
    and distinct; None when the name is not of that form.

    >>> read_subtraction_set("kayles") is None
    True
    """
    m = _SUBTRACTION.match(name)
    if m is None:
        return None
    words = [w for w in re.split(r"[\s,]+", m.group(1).strip()) if w]
    if not words:
        raise NotationError(f"a subtraction set names its amounts, e.g. S(1,3,4); "
                            f"got {clip(name)!r}")
    try:
        amounts = {read_integer(w, least=1, most=MAX_SUBTRACTION) for w in words}
    except NotationError as exc:
        raise NotationError(f"a subtraction set is written S(1,3,4), its amounts positive "
                            f"numbers: {exc}") from None
    return tuple(sorted(amounts))


def read_product(name: str) -> tuple[str, ...] | None:
    """The factors of a Tartan product written ``A x B`` (or ``A × B``), or None."""
    if not _TIMES.search(f" {name.strip()} "):
        return None
    parts = tuple(p.strip() for p in _TIMES.split(name.strip()))
    if len(parts) < 2 or not all(parts):
        raise NotationError(f"a product of games is written 'A x B', got {clip(name)!r}")
    return parts
