"""What a row of a census table may say, field by field: :func:`malformed` names the first field
of a row that is missing, unknown or of the wrong type (a period of 12.5 or "12", a code holding
a newline), before anything is recomputed.  Every field a row states is either re-checked by
:mod:`.verify` or, for the two measurements (``seconds``, ``peak_bytes``), only type-checked.

>>> malformed({"code": "0.77"})
'no field "members"'
"""

from __future__ import annotations

import re
from typing import Any, Callable

__all__ = ["malformed", "FIELDS", "ENGINES", "MEASURED"]

#: the engines a row may name (see :mod:`.depth`)
ENGINES = ("memory", "frontier", "dense")
#: the fields that are measurements, not claims about the game (never compared or re-checked)
MEASURED = ("seconds", "peak_bytes")

_CODE = re.compile(r"[04]\.[0-7]*\Z")
_HEX = re.compile(r"[0-9a-f]+\Z")
_SHA = re.compile(r"[0-9a-f]{64}\Z")


def _int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def _opt(check: Callable[[Any], bool]) -> Callable[[Any], bool]:
    return lambda v: v is None or check(v)


def _code(v: Any) -> bool:
    return isinstance(v, str) and bool(_CODE.match(v))


def _codes(v: Any) -> bool:
    return isinstance(v, list) and bool(v) and all(_code(c) for c in v)


def _ints(v: Any) -> bool:
    return isinstance(v, list) and all(_int(x) for x in v)


def _checkpoints(v: Any) -> bool:
    return isinstance(v, dict) and all(isinstance(k, str) and k.isdigit() and isinstance(d, str)
                                       and bool(_SHA.match(d)) for k, d in v.items())


_CERTIFICATE: dict[str, Callable[[Any], bool]] = {
    "sha256": lambda v: isinstance(v, str) and bool(_SHA.match(v)),
    "values": _int,
    "bound": _opt(_int),
    "checkpoints": _checkpoints,
    "offsets": lambda v: isinstance(v, bool),
}

#: every field of a row and what its value must be
FIELDS: dict[str, Callable[[Any], bool]] = {
    "code": _code,
    "members": _codes,
    "dead_heaps": _ints,
    "class": lambda v: v in ("single", "proved", "values"),
    "equal_up_to": _opt(_int),
    "period": _opt(lambda v: _int(v) and v >= 1),
    "preperiod": _opt(_int),
    "theorem": _opt(lambda v: isinstance(v, str)),
    "apparent_period": _opt(lambda v: _int(v) and v >= 1),
    "reached": lambda v: _int(v) and v >= 1,
    "largest": _int,
    "largest_at": _int,
    "rare_mask": _opt(lambda v: isinstance(v, str) and bool(_HEX.match(v))),
    "rare_parity": lambda v: isinstance(v, bool),
    "rare_count": _opt(_int),
    "last_rare": _opt(_int),
    "p_positions": lambda v: _int(v) and v >= 1,
    "last_p": _int,
    "first_values": lambda v: _ints(v) and 1 <= len(v) <= 64,
    "engine": lambda v: v in ENGINES,
    "cap": _opt(_int),
    "depth": lambda v: _int(v) and v >= 1,
    "seconds": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool) and v >= 0,
    "peak_bytes": _int,
    "certificate": lambda v: isinstance(v, dict),
}


def malformed(row: Any) -> str | None:
    """What is wrong with row's shape (None when every field is there, known and well typed)."""
    if not isinstance(row, dict):
        return "not a JSON object"
    for name, ok in FIELDS.items():
        if name not in row:
            return f'no field "{name}"'
        if not ok(row[name]):
            return f'"{name}" is not what a row holds there: {_shown(row[name])}'
    extra = sorted(set(row) - set(FIELDS))
    if extra:
        return f'an unknown field "{_shown(extra[0])}"'
    cert = row["certificate"]
    for name, ok in _CERTIFICATE.items():
        if name not in cert or not ok(cert[name]):
            return f'certificate: "{name}" is missing or not what a certificate holds'
    extra = sorted(set(cert) - set(_CERTIFICATE))
    if extra:
        return f'certificate: an unknown field "{_shown(extra[0])}"'
    return None


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
