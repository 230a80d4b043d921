"""Certificates of proven periods, checkable without nimbers, and the chain of digests that lets a
long run be re-checked a prefix at a time (docs/certificates.md describes both for a referee).

A certificate says what a third party needs to check a period with any solver: the game (its
octal code and digits), the period p, the pre-period n0, the heap sizes the octal periodicity
theorem of Guy and Smith (Winning Ways ch. 4) needs, bound = 2 max(n0, 1) + 2p + t (t the most
tokens a move removes; first digit 4 included), and the SHA-256 of g(0 .. bound-1) written as
little-endian unsigned 32-bit integers, one a value from heap 0 (the census's convention for its
rows' digests: one byte format whatever width a run stored).  ``tools/check_certificate.py``
checks one in plain Python.

The chain: the SHA-256 of g(0 .. 2^k - 1) in the same bytes for every k from CHAIN_FROM with
2^k at most the values held, so a re-check may stop at any power of two and compare.

>>> import numpy as np
>>> g = np.array([0, 1, 1, 0, 2, 2] * 4, dtype=np.uint8)[:20]     # Dawson's Kayles-like toy
>>> values_sha256(g) == hashlib.sha256(g.astype("<u4").tobytes()).hexdigest()
True
>>> h = ValueHasher(chain_from=2)
>>> h.update(g)
>>> sorted(h.chain, key=int)
['4', '8', '16']
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Iterable

import numpy as np

from .._tower import _prime_factors
from ..games.codes import parse_take_break_code
from ..games.heap.periodicity import GUY_SMITH, proof_rule

__all__ = ["FORMAT", "VALUE_BYTES", "CHAIN_FROM", "ValueHasher", "values_sha256", "chain_of",
           "certificate", "check_period", "guy_smith_bound", "read_certificates",
           "certificate_lines"]

FORMAT = "nimbers-certificate/1"
#: the bytes hashed: each value as a little-endian unsigned 32-bit integer, from heap 0
VALUE_BYTES = "<u4"
#: the chain starts at 2^CHAIN_FROM values (the census rows' checkpoints start there too)
CHAIN_FROM = 12
#: values hashed at a time (bounded memory over a memory map of billions of values)
_PIECE = 1 << 22
RULES = ("octal digits d0.d1d2...: digit dk (k tokens removed) is a sum of 1 (the heap may be "
         "taken whole when it has exactly k tokens), 2 (may leave one non-empty heap), 4 (may "
         "leave two non-empty heaps); g(n) is the mex of the values of the positions a move "
         "leaves (the nim-sum of the two heaps' values for two)")
BOUND_RULE = "bound = 2 * max(preperiod, 1) + 2 * period + t, t the largest k with dk != 0"


class ValueHasher:
    """The SHA-256 of values fed in order, in VALUE_BYTES, with the chain of the digests of the
    first 2^k values (k >= chain_from) taken on the way."""

    def __init__(self, chain_from: int = CHAIN_FROM) -> None:
        self.sha = hashlib.sha256()
        self.count = 0
        self.chain: dict[str, str] = {}
        self._next = 1 << chain_from

    def update(self, values: np.ndarray) -> None:
        """Hashes the next values (any integer dtype), a piece at a time."""
        for start in range(0, len(values), _PIECE):
            data = np.asarray(values[start:start + _PIECE]).astype(VALUE_BYTES)
            done = 0
            while self.count + len(data) - done >= self._next:
                cut = done + self._next - self.count
                self.sha.update(data[done:cut].tobytes())
                self.count += cut - done
                done = cut
                self.chain[str(self._next)] = self.sha.hexdigest()
                self._next <<= 1
            self.sha.update(data[done:].tobytes())
            self.count += len(data) - done

    def hexdigest(self) -> str:
        return self.sha.hexdigest()


def values_sha256(g: np.ndarray) -> str:
    """The SHA-256 of g in the certificates' bytes (VALUE_BYTES)."""
    hasher = ValueHasher()
    hasher.update(g)
    return hasher.hexdigest()


def chain_of(g: np.ndarray) -> dict[str, str]:
    """The chain of g: {"2^k as a number": SHA-256 of g(0 .. 2^k - 1)} for 2^CHAIN_FROM <= 2^k
    <= len(g)."""
    hasher = ValueHasher()
    hasher.update(g)
    return hasher.chain


def _digits(code: str) -> list[int]:
    return list(parse_take_break_code(code, hex_ok=False).digits)


def guy_smith_bound(code: str, preperiod: int, period: int) -> int:
    """The heap sizes (0 .. bound-1) the Guy-Smith theorem needs to prove period p from
    pre-period n0 for this octal code (:func:`nimbers.games.heap.periodicity.proof_rule`).

    >>> guy_smith_bound("0.16", 105351, 149459)
    509622
    """
    rule = proof_rule(_digits(code), "octal")
    if rule is None:
        raise ValueError(f"{code}: no octal periodicity theorem covers it (a digit past 7)")
    (a, b, c, floor), _ = rule
    return a * max(preperiod, floor) + b * period + c


def check_period(code: str, g: np.ndarray, preperiod: int, period: int) -> int:
    """The Guy-Smith proof of period p from pre-period n0 checked on g: the bound it needs
    (returned), g(n + p) = g(n) from n0 up to it, and n0 and p the least such.

    Raises
    ------
    ValueError
        Too few values, or they do not show the period from that pre-period, or they show a
        smaller pre-period or period.
    """
    bound = guy_smith_bound(code, preperiod, period)
    if len(g) < bound:
        raise ValueError(f"{code}: the proof needs g(0..{bound - 1}), given {len(g)} values")
    head = g[:bound]
    for a in range(preperiod, bound - period, _PIECE):   # a piece at a time: no 2^30 copies
        b = min(a + _PIECE, bound - period)
        if not np.array_equal(head[a:b], head[a + period:b + period]):
            raise ValueError(f"{code}: g(n + {period}) = g(n) fails for some n >= {preperiod}")
    if preperiod and head[preperiod - 1] == head[preperiod - 1 + period]:
        raise ValueError(f"{code}: the pre-period is less than {preperiod}")
    for q in _prime_factors(period):      # the least period divides every period (Fine and Wilf)
        if np.array_equal(head[preperiod:preperiod + period],
                          head[preperiod + period // q:preperiod + period + period // q]):
            raise ValueError(f"{code}: the period is {period // q} or less, not {period}")
    return bound


def certificate(code: str, period: int, preperiod: int, g: np.ndarray,
                source: str = "") -> dict[str, Any]:
    """The certificate of period p from pre-period n0 of an octal game, from its values g (at
    least the bound's; checked here, so no certificate of a false claim is ever written).

    Raises
    ------
    ValueError
        Too few values, or they do not show the period from that pre-period, or they show a
        smaller pre-period or period.
    """
    bound = check_period(code, g, preperiod, period)
    head = g[:bound]
    digits = _digits(code)
    return {"format": FORMAT, "game": code, "digits": digits, "rules": RULES,
            "period": int(period), "preperiod": int(preperiod),
            "t": max(k for k, d in enumerate(digits) if d), "bound": bound,
            "bound_rule": BOUND_RULE, "theorem": GUY_SMITH,
            "values": "g(0) .. g(bound-1), each a little-endian unsigned 32-bit integer",
            "sha256": values_sha256(head), "source": source}


def certificate_lines(certificates: Iterable[dict[str, Any]]) -> str:
    """Certificates as JSON lines (one a line, keys in a fixed order)."""
    return "".join(json.dumps(c) + "\n" for c in certificates)


def read_certificates(text: str) -> list[dict[str, Any]]:
    """The certificates of a file: one JSON object, or JSON lines."""
    text = text.strip()
    if text.startswith("{") and "\n{" not in text:
        return [json.loads(text)]
    return [json.loads(line) for line in text.splitlines() if line.strip()]

