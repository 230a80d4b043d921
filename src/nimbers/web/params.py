"""Reading and checking the parameters of an API request, before any work is done.

A request's parameters come from its query string (``?a=5&b=11``, lists as ``piles=3,5,7``)
or from a JSON object in a POST body; both arrive here as a dict.  Every reader returns a
plain Python value or raises :class:`BadRequest` with a message saying what was wrong and
what is allowed; the server answers it with 400 and that message.

>>> nimber({"a": "0x1F"}, "a")
31
>>> int_list({"piles": "3, 5,7"}, "piles", most=4, top=10)
[3, 5, 7]
>>> nimber({"a": "-3"}, "a")
Traceback (most recent call last):
...
nimbers.web.params.BadRequest: a: must be non-negative, got -3
"""

from __future__ import annotations

import re
from typing import Any

from ..notation import (NotationError, describe_bound, items, read_cells, read_integer,
                        read_row)

__all__ = ["BadRequest", "nimber", "integer", "flag", "choice", "text", "game_name", "int_list",
           "coin_row", "cells", "MAX_BITS", "MAX_DIGITS"]

#: The largest operand of the calculator, in bits (a product of two takes milliseconds).
MAX_BITS = 1 << 16
#: The longest number accepted as text (decimal digits of 2^65536 are 19,729).
MAX_DIGITS = 20_000


class BadRequest(ValueError):
    """A parameter is missing, malformed or out of range: a 400 answer with this message."""


def _get(params: dict[str, Any], name: str, default: Any = ...) -> Any:
    if name not in params or params[name] in (None, ""):
        if default is ...:
            raise BadRequest(f"{name}: missing (a required parameter)")
        return default
    return params[name]


def _shown(v: int) -> str:
    """An integer as a message shows it: its digits when short, else its size (str() of an
    int past 4300 digits raises ValueError, and such digits would bury the message)."""
    return str(v) if v.bit_length() < 256 else f"{'-' * (v < 0)}(a {v.bit_length()}-bit number)"


def _parse_int(name: str, value: Any, signed: bool = True, most: int | None = None) -> int:
    """An integer sent as JSON or typed by the notation's number rule; ``signed`` False and
    ``most`` bound it, with the notation's own messages."""
    if isinstance(value, bool):
        raise BadRequest(f"{name}: expected an integer, got {value!r}")
    if isinstance(value, int):
        if value < 0 and not signed:
            raise BadRequest(f"{name}: must be non-negative, got {_shown(value)}")
        if most is not None and value > most:
            raise BadRequest(f"{name}: at most {describe_bound(most)}, got {_shown(value)}")
        return value
    if not isinstance(value, str):
        raise BadRequest(f"{name}: expected an integer, got {type(value).__name__}")
    if len(value.strip()) > MAX_DIGITS + 2:
        raise BadRequest(f"{name}: a number of {len(value.strip())} characters is too long "
                         f"(at most {MAX_DIGITS} digits)")
    try:
        return read_integer(value, signed=signed, most=most)
    except NotationError as exc:
        raise BadRequest(f"{name}: {exc}") from None


def nimber(params: dict[str, Any], name: str, default: Any = ..., max_bits: int = MAX_BITS) -> int:
    """A non-negative integer (the notation's number rule) of at most max_bits bits."""
    v = _parse_int(name, _get(params, name, default))
    if v < 0:
        raise BadRequest(f"{name}: must be non-negative, got {_shown(v)}")
    if v.bit_length() > max_bits:
        raise BadRequest(f"{name}: {v.bit_length()} bits is too large (at most {max_bits} bits)")
    return v


def integer(params: dict[str, Any], name: str, lo: int, hi: int, default: Any = ...) -> int:
    """An integer in [lo, hi]."""
    v = _parse_int(name, _get(params, name, default))
    if not lo <= v <= hi:
        raise BadRequest(f"{name}: must be between {lo} and {hi}, got {_shown(v)}")
    return v


def flag(params: dict[str, Any], name: str) -> bool:
    """A yes/no parameter: true/false, 1/0, yes/no, on/off; absent is False."""
    v = params.get(name, False)
    if isinstance(v, bool):
        return v
    s = str(v).strip().lower()
    if s in ("1", "true", "yes", "on"):
        return True
    if s in ("", "0", "false", "no", "off"):
        return False
    raise BadRequest(f"{name}: expected true or false, got {v!r}")


def choice(params: dict[str, Any], name: str, options: tuple[str, ...], default: Any = ...) -> str:
    v = _get(params, name, default)
    if v not in options:
        raise BadRequest(f"{name}: must be one of {', '.join(options)}, got {v!r}")
    return str(v)


def text(params: dict[str, Any], name: str, longest: int = 40, default: Any = ...) -> str:
    """A short text (a game's name or code) of printable ASCII characters."""
    v = _get(params, name, default)
    if not isinstance(v, str):
        raise BadRequest(f"{name}: expected text, got {type(v).__name__}")
    if len(v) > longest:
        raise BadRequest(f"{name}: at most {longest} characters, got {len(v)}")
    if not re.fullmatch(r"[\x20-\x7e]*", v):
        raise BadRequest(f"{name}: only printable ASCII characters are allowed")
    return v


def game_name(params: dict[str, Any], name: str, default: Any = ...) -> str:
    """A game's name or code, as the catalogue reads it: at most 40 printable characters,
    the literature's typography included ("Dawson\u2019s Kayles", "ruler \u00d7 twins").

    >>> game_name({"game": "ruler \u00d7 twins"}, "game")
    'ruler × twins'
    """
    v = _get(params, name, default)
    if not isinstance(v, str):
        raise BadRequest(f"{name}: expected text, got {type(v).__name__}")
    if len(v) > 40:
        raise BadRequest(f"{name}: at most 40 characters, got {len(v)}")
    if not v.isprintable():
        raise BadRequest(f"{name}: only printable characters are allowed")
    return v


def _items(params: dict[str, Any], name: str, default: Any) -> list[Any]:
    v = _get(params, name, default)
    if isinstance(v, str):
        return items(v)
    if isinstance(v, list):
        return v
    raise BadRequest(f"{name}: expected a list or comma-separated numbers")


def int_list(params: dict[str, Any], name: str, most: int, top: int, least: int = 0,
             default: Any = ...) -> list[int]:
    """Between least and most integers, each in [0, top]."""
    values = _items(params, name, default)
    if not least <= len(values) <= most:
        raise BadRequest(f"{name}: between {least} and {most} numbers, got {len(values)}")
    return [_parse_int(name, item, signed=False, most=top) for item in values]


def coin_row(params: dict[str, Any], name: str, longest: int) -> str:
    """A row of coins: H (heads) and T (tails), coin 0 first."""
    v = text(params, name, longest=longest).strip().upper()
    try:
        read_row(v)
    except NotationError as exc:
        raise BadRequest(f"{name}: {exc}") from None
    return v


def cells(params: dict[str, Any], name: str, rows: int, cols: int,
          default: Any = ...) -> list[tuple[int, int]]:
    """Grid cells as "a:b,c:d" text or a list of [a, b] pairs, inside rows x cols; distinct."""
    v = _get(params, name, default)
    pairs: list[Any]
    if isinstance(v, str):
        try:
            pairs = list(read_cells(v))
        except NotationError as exc:
            raise BadRequest(f"{name}: {exc}") from None
    elif isinstance(v, list):
        pairs = v
    else:
        raise BadRequest(f"{name}: expected cells like '3:5,2:2' or [[3, 5], [2, 2]]")
    out = set()
    for p in pairs:
        if not isinstance(p, (list, tuple)) or len(p) != 2:
            raise BadRequest(f"{name}: a cell is row:column, got {p!r}")
        a, b = _parse_int(name, p[0], False), _parse_int(name, p[1], False)
        if not (0 <= a < rows and 0 <= b < cols):
            raise BadRequest(f"{name}: the cell {a}:{b} is outside the {rows} x {cols} grid")
        if (a, b) in out:
            raise BadRequest(f"{name}: the cell {a}:{b} is listed twice")
        out.add((a, b))
    return sorted(out)
