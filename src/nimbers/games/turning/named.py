"""The named one-dimensional coin-turning families of Winning Ways ch. 14 and their
turning codes.

>>> named_game("mocking-turtles").code, named_game("at-most-4").code
('1-3', '1-4')
"""

from __future__ import annotations

import re

from .game import TurningGame

__all__ = ["NAMED_GAMES", "named_game"]

#: named 1-D families and their turning codes
NAMED_GAMES: dict[str, str] = {
    "turning-turtles": "1-2",
    "mocking-turtles": "1-3",
    "moebius": "1-5",
    "mogul": "1-7",
    "gold-moidores": "1-9",
    "motley": "1+",
    "twins": "2",
    "triplets": "3",
    "ruler": "1+C",
    "progression": "1+E",
    "turnips": "3E",
    "grunt": "4FS",
}




def named_game(name: str, *, memory_limit: int | str | None = None,
               time_limit: float | None = None) -> TurningGame:
    """A named family of Winning Ways ch. 14, "at-most-T" for any T, or a turning code.

    Parameters
    ----------
    name : str
        "mocking-turtles", "ruler", "grunt", ... (see :data:`NAMED_GAMES`), "at-most-T",
        or a turning code.
    memory_limit : int or str, optional
        The game's memory cap (see :class:`TurningGame`).
    time_limit : float, optional
        The game's time cap in seconds (see :class:`TurningGame`).

    Returns
    -------
    TurningGame

    Raises
    ------
    ValueError
        Neither a known name nor a turning code.

    >>> named_game("ruler").code
    '1+C'
    """
    key = name.strip().lower().replace("_", "-").replace(" ", "-")
    if key in NAMED_GAMES:
        return TurningGame(NAMED_GAMES[key], key, memory_limit=memory_limit,
                           time_limit=time_limit)
    m = re.fullmatch(r"at-most-(\d+)", key)
    if m and int(m.group(1)) >= 1:
        return TurningGame(f"1-{m.group(1)}", key, memory_limit=memory_limit,
                           time_limit=time_limit)
    try:
        return TurningGame(name, memory_limit=memory_limit, time_limit=time_limit)
    except ValueError:
        known = ", ".join(sorted(NAMED_GAMES)) + ", at-most-T"
        raise ValueError(f"unknown game {name!r}: known games are {known}, or a turning "
                         "code like '1-3'") from None
