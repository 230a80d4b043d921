"""The one file format of a misère quotient: what ``MisereQuotient.save`` writes, what
``nimbers heap CODE --quotient N --json`` prints and what ``nimbers play ... --quotient FILE``
reads, checked as hostile input.

A saved quotient is a JSON object: format, version, game, code, max_heap, requested,
gave_up, orders, table, p_portion, pretending (the data), optionally "whole" (whether Q_n is
the whole game's quotient, and why: it follows from the data and the code by the periodicity
theorem, :mod:`.whole`, so a file whose "whole" says otherwise is refused; files written
before it are read without it) and optionally "readable" (the presentation, P-portion and
heap words as words, the evidence: written for people, ignored when read back, since every
word follows from the data).

Reading is bounded before anything costly: the file's size (MAX_FILE_BYTES), the nesting of
its brackets (MAX_DEPTH, counted before the JSON parser sees it, so 100,000 nested brackets
are a one-line refusal, not a RecursionError), then shapes, ranges, the identity and
commutativity (each O(order^2)).  Associativity (Light's test on the heaps' generators, O(k
order^2)) is checked by :func:`check_associative` under the project's time cap; the proof
against a game (:func:`nimbers.games.quotient.proves`) comes last.

>>> depth_of('{"a": [[1, 2], [3]], "b": "[[[["}')
3
"""

from __future__ import annotations

import json
import os
from typing import Any

import numpy as np

from ... import _limits, files
from .whole import whole_of

__all__ = ["json_text", "FORMAT", "MAX_LOADED_ORDER", "MAX_FILE_BYTES", "MAX_DEPTH", "read_json",
           "depth_of", "checked_fields", "check_associative"]

FORMAT = "nimbers misère quotient"
#: the largest order a saved quotient may have
MAX_LOADED_ORDER = 4096
#: the largest file read (an order-4096 table in JSON is about 80 MB)
MAX_FILE_BYTES = 128 * 1024**2
#: the deepest nesting of brackets a saved quotient has (the table: 2; "readable": 3)
MAX_DEPTH = 8
#: the largest max_heap a saved quotient may have (as misere_quotient's)
MAX_HEAP = 100_000
#: table lookups a second in Light's associativity test (numpy, measured on this machine's
#: 2 cores, an order-2048 table: about 1.5e8; a cautious figure)
ASSOCIATIVITY_RATE = 5e7

_DATA_KEYS = ("format", "version", "game", "code", "max_heap", "requested", "gave_up",
              "orders", "table", "p_portion", "pretending")


def json_text(data: Any) -> str:
    """The text of a saved quotient (what MisereQuotient.save writes)."""
    return json.dumps(data, ensure_ascii=False)


def _bad(what: str) -> ValueError:
    return ValueError(f"not a valid saved misère quotient: {what}")


def read_json(path: str | os.PathLike[str]) -> Any:
    """The JSON data of a file, read within MAX_FILE_BYTES and MAX_DEPTH (ValueError in
    one line otherwise, naming the file): :func:`nimbers.files.read_json`."""
    return files.read_json(path, "saved misère quotient", MAX_FILE_BYTES, MAX_DEPTH)


depth_of = files.json_depth


def _is_int(v: Any, below: int) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v < below


def checked_fields(data: Any) -> dict[str, Any]:
    """The constructor's fields of a MisereQuotient from saved data, every cheap check
    passed (keys, types, shapes, ranges, identity, commutativity, every element a product
    of heaps' elements); associativity is :func:`check_associative`'s."""
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("version") != 1:
        raise _bad(f"the format is not {FORMAT!r} version 1")
    keys = set(data) - {"readable", "whole"}
    if keys != set(_DATA_KEYS):
        raise _bad(f"the keys are {sorted(map(str, data))[:20]}, expected {sorted(_DATA_KEYS)}"
                   " (and optionally whole, readable)")
    for k in ("game", "code"):
        if not isinstance(data[k], str) or len(data[k]) > 200 or not data[k].isprintable():
            raise _bad(f"{k} is not a short printable string")
    if data["gave_up"] is not None and not (isinstance(data["gave_up"], str)
                                            and len(data["gave_up"]) <= 2000):
        raise _bad("gave_up is neither null nor a short string")
    if "readable" in data and not isinstance(data["readable"], dict):
        raise _bad("readable is not an object")
    n, m = _sizes(data)
    mul = _table(data["table"], m)
    pre, p = data["pretending"], data["p_portion"]
    if not isinstance(pre, list) or len(pre) != n + 1 or not all(_is_int(v, m) for v in pre):
        raise _bad(f"pretending is not {n + 1} elements (heaps 0 .. {n})")
    if pre[0] != 0:
        raise _bad("the empty heap is not the identity")
    if (not isinstance(p, list) or len(p) > m or not all(_is_int(v, m) for v in p)
            or sorted(set(p)) != p):
        raise _bad("p_portion is not a sorted list of distinct elements")
    _check_generated(mul, pre)
    if "whole" in data and data["whole"] != whole_of(data["code"], pre, data["gave_up"]).to_json():
        raise _bad("its 'whole' does not follow from its data by the periodicity theorem")
    return {"game": data["game"], "code": data["code"], "max_heap": n,
            "requested": data["requested"], "table": tuple(tuple(r) for r in data["table"]),
            "p_portion": tuple(p), "pretending": tuple(pre), "orders": tuple(data["orders"]),
            "gave_up": data["gave_up"]}


def _sizes(data: dict[str, Any]) -> tuple[int, int]:
    table, n, orders = data["table"], data["max_heap"], data["orders"]
    if not isinstance(table, list) or not 1 <= len(table) <= MAX_LOADED_ORDER:
        raise _bad(f"the table is not a list of 1 .. {MAX_LOADED_ORDER} rows")
    if not _is_int(n, MAX_HEAP + 1) or not _is_int(data["requested"], MAX_HEAP + 1) \
            or data["requested"] < n:
        raise _bad(f"max_heap and requested are not sizes up to {MAX_HEAP:,} with max_heap "
                   "<= requested")
    if not isinstance(orders, list) or len(orders) != n or not all(
            _is_int(v, MAX_LOADED_ORDER + 1) for v in orders):
        raise _bad("orders is not one order per heap")
    if orders and orders[-1] != len(table):
        raise _bad(f"the last order is {orders[-1]}, the table's {len(table)}")
    return n, len(table)


def _table(table: list[Any], m: int) -> np.ndarray:
    if not all(isinstance(r, list) and len(r) == m and all(_is_int(v, m) for v in r)
               for r in table):
        raise _bad(f"the table is not {m} rows of {m} elements 0 .. {m - 1}")
    mul = np.array(table, dtype=np.int64).reshape(m, m)
    if not (np.array_equal(mul[0], np.arange(m)) and np.array_equal(mul, mul.T)):
        raise _bad("the table is not commutative with identity 0")
    return mul


def _generators(mul: np.ndarray, pretending: list[int]) -> tuple[list[int], np.ndarray]:
    """Elements of heaps, each not generated by those before it (in heap order), and which
    elements they generate: each new generator multiplies what is known once, and each new
    element is multiplied by the generators once (O(k order) lookups in all)."""
    gens: list[int] = []
    seen = np.zeros(mul.shape[0], dtype=bool)
    seen[0] = True
    for e in pretending:
        if seen[e]:
            continue
        gens.append(e)
        new = np.unique(mul[np.flatnonzero(seen), e])
        new = new[~seen[new]]
        while len(new):
            seen[new] = True
            nxt = np.unique(mul[np.ix_(new, np.array(gens))])
            new = nxt[~seen[nxt]]
    return gens, seen


def _check_generated(mul: np.ndarray, pretending: list[int]) -> None:
    if not _generators(mul, pretending)[1].all():
        raise _bad("some elements are not products of the heaps' elements")


def check_associative(table: Any, pretending: Any) -> None:
    """ValueError unless (xy)g = x(yg) for all x, y and every generator g among the heaps'
    elements (Light's test: then the table is associative, since the heaps' elements
    generate it); refused up front when the work would pass the time cap
    (nimbers._limits: a time_limit keyword, NIMBERS_TIME_LIMIT, then the default).

    >>> check_associative([[0, 1], [1, 0]], [0, 1])
    """
    mul = np.asarray(table, dtype=np.int64)
    m = mul.shape[0]
    gens = _generators(mul, list(pretending))[0]
    _limits.check_time(len(gens) * m * m * 2, ASSOCIATIVITY_RATE,
                       f"checking the associativity of an order-{m} table on {len(gens)} "
                       "generators", "pass time_limit= (seconds)")
    for g in gens:
        if not np.array_equal(mul[mul, g], mul[:, mul[:, g]]):
            raise _bad("the table is not associative")
