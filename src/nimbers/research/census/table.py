"""The census's files: DIR/census.jsonl, one row per class and depth, appended as classes
finish a level (a later row of a class replaces the earlier ones sharing a code with it), and
DIR/census.json, what the census covers and the depth rule its rows were made under
(:class:`.depth.DepthRule`, key "rule"; a census.json without it, as every one written before
the rule was recorded, means the default rule for its digits: :func:`census_rule`), written
atomically.

Each row is one line written by a single ``write`` and made durable with ``fsync`` before the
next, so a census killed at any moment (Ctrl-C, ``kill -9``, a power cut) leaves whole rows and
at most one torn last line, which :func:`read_rows` drops (and cuts from the file) on the
next run.

:func:`read_rows` and :func:`all_rows` are the one reader of the table for everything that
uses its rows (the census, deepen, report, export, compare, the results folder): each row's
shape is checked by :func:`.schema.malformed`, and a row edited to ``"class": "x"`` or without
``largest`` is a ValueError naming its line, never a KeyError further on.  Only
:mod:`.verify`, which names every malformed row itself, reads them unchecked
(:func:`numbered_rows`, :func:`replaced_rows`).
"""

from __future__ import annotations

import json
import os
from typing import Any, Iterable

from ...files import append_jsonl, read_jsonl, write_atomically
from .classes import codes_up_to
from .depth import DepthRule, rule_for_digits
from .schema import malformed

__all__ = ["TABLE", "META", "RUNS", "CHOICE", "PLOT", "OWN", "refuse_own_file",
           "FORMAT", "read_rows", "append_row", "read_meta", "write_meta",
           "covered_codes", "numbered_rows", "replaced_rows", "all_rows", "read_capped",
           "census_rule", "digits_of",
           "MAX_TABLE_BYTES", "MAX_META_BYTES"]

TABLE = "census.jsonl"
META = "census.json"
#: the frontier runs' directory in the census's directory
RUNS = "runs"
#: the classes ``deepen --promising`` chose, kept for a restart
CHOICE = "deepen.json"
#: the report's plot, by default
PLOT = "census.png"
#: the files a census writes in its directory besides the run directory's manifest, lock and
#: progress log (:mod:`nimbers.research.rundir`): the table, its description, the frontier
#: runs, the choice, the plot and the misère census's table (:mod:`.misere`), which may share
#: the directory
OWN = (TABLE, META, RUNS, CHOICE, PLOT, "misere.jsonl")
FORMAT = "nimbers octal census"
#: the largest table read (a census of 6-digit codes at many depths stays far below)
MAX_TABLE_BYTES = 1 << 30
#: the largest census.json read
MAX_META_BYTES = 1 << 24


def refuse_own_file(directory: str, path: str, allowed: str | None = None) -> None:
    """ValueError when path is one of the census's own files in directory (the table, the
    manifest, a frontier run's file ...; allowed: a name that may be written there, as the
    report's plot): an export or a plot never replaces what the census keeps."""
    from ..rundir import COMMON

    home = os.path.realpath(directory)
    target = os.path.realpath(path)
    names = (set(OWN) | set(COMMON)) - {allowed}
    runs = os.path.join(home, RUNS)
    inside = (os.path.dirname(target) == home and os.path.basename(target) in names) or \
        os.path.commonpath([target, runs]) == runs
    if inside:
        raise ValueError(f"{path} is a file of the census in {directory}: write elsewhere "
                         "(an export never replaces the census's own files)")


def read_capped(path: str, most: int) -> bytes:
    """The bytes of path, refused (ValueError) past most bytes: /dev/zero or a runaway file
    cannot fill the memory."""
    with open(path, "rb") as f:
        data = f.read(most + 1)
    if len(data) > most:
        raise ValueError(f"{path}: a file of more than {most:,} bytes is refused")
    return data


def _latest(rows: list[dict[str, Any]]) -> list[tuple[int, dict[str, Any]]]:
    """(line, row) for the rows not replaced by a later one sharing a code (a class deepened
    or split)."""
    kept: list[tuple[int, dict[str, Any]] | None] = []
    holder: dict[str, int] = {}
    for line, row in enumerate(rows, 1):
        members = row.get("members")
        codes = [c for c in members if isinstance(c, str)] if isinstance(members, list) else []
        for code in codes:
            if code in holder:
                kept[holder[code]] = None
        for code in codes:
            holder[code] = len(kept)
        kept.append((line, row))
    return [item for item in kept if item is not None]


def read_rows(directory: str, repair: bool = True) -> list[dict[str, Any]]:
    """The current rows of DIR/census.jsonl (see :func:`numbered_rows`), each checked.

    Raises
    ------
    ValueError
        A row that is not what a census row holds, naming its line and field.
    """
    return [row for _line, row in _checked(directory, _latest(_raw(directory, repair)))]


def _checked(directory: str, numbered: list[tuple[int, dict[str, Any]]]
             ) -> list[tuple[int, dict[str, Any]]]:
    for line, row in numbered:
        wrong = malformed(row)
        if wrong is not None:
            code = row.get("code") if isinstance(row, dict) else None
            named = f" ({code})" if isinstance(code, str) and code.isprintable() else ""
            raise ValueError(f"{os.path.join(directory, TABLE)}, line {line}{named}: a malformed "
                             f"row: {wrong} (nimbers census verify names every problem)")
    return numbered


def numbered_rows(directory: str, repair: bool = True) -> list[tuple[int, dict[str, Any]]]:
    """(line, row) for the current rows of DIR/census.jsonl in file order ([] when there is
    none), unchecked (for :mod:`.verify`): a row replaced by a later one of the same class is
    left out.  A last line cut short by a kill is dropped, and cut from the file when repair;
    any other line that is not JSON is an error naming it."""
    return _latest(_raw(directory, repair))


def replaced_rows(directory: str) -> list[tuple[int, dict[str, Any]]]:
    """(line, row) for the rows a later row of the same class replaced (unchecked)."""
    rows = _raw(directory, repair=False)
    current = {line for line, _row in _latest(rows)}
    return [(line, row) for line, row in enumerate(rows, 1) if line not in current]


def all_rows(directory: str, repair: bool = True) -> list[dict[str, Any]]:
    """Every row of DIR/census.jsonl, replaced ones included, in file order, each checked
    (ValueError as :func:`read_rows`)."""
    rows = _raw(directory, repair)
    _checked(directory, list(enumerate(rows, 1)))
    return rows


def _raw(directory: str, repair: bool) -> list[dict[str, Any]]:
    return read_jsonl(os.path.join(directory, TABLE), "row of the census", MAX_TABLE_BYTES,
                      repair)


def append_row(directory: str, row: dict[str, Any]) -> None:
    """Appends one row as one line, durable before returning."""
    append_jsonl(os.path.join(directory, TABLE), row)


def covered_codes(rows: Iterable[dict[str, Any]]) -> set[str]:
    return {code for row in rows for code in row.get("members", ())}


def read_meta(directory: str) -> dict[str, Any] | None:
    """DIR/census.json (None when missing), its fields checked: ValueError naming what is
    wrong ("codes" not a list of codes, say)."""
    path = os.path.join(directory, META)
    try:
        meta = json.loads(read_capped(path, MAX_META_BYTES))
    except FileNotFoundError:
        return None
    except (ValueError, RecursionError):
        raise ValueError(f"{path}: not a census description") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise ValueError(f"{path}: not a census description")
    if "codes" not in meta:
        raise ValueError(f"{path}: no \"codes\" (the codes the census covers)")
    codes = meta["codes"]
    if not isinstance(codes, list) or not all(isinstance(c, str) and c.isprintable()
                                              and c == c.strip() for c in codes):
        raise ValueError(f"{path}: \"codes\" is not a list of codes")
    if not isinstance(meta.get("offsets", True), bool):
        raise ValueError(f"{path}: \"offsets\" is not true or false")
    meta.setdefault("offsets", True)   # T. Czajka's convention, the default ever since
    until = meta.setdefault("until", 0)
    if isinstance(until, bool) or not isinstance(until, int) or until < 0:
        raise ValueError(f"{path}: \"until\" is not a number of heap sizes")
    if "rule" in meta:
        try:
            DepthRule.from_json(meta["rule"])
        except ValueError as exc:
            raise ValueError(f"{path}: \"rule\" is not a depth rule: {exc}") from None
    return meta


def digits_of(codes: Iterable[str]) -> int | None:
    """K when codes are exactly every code with up to K digits (a census of --digits K), else
    None (a census of given codes)."""
    have = set(codes)
    k = max((len(c.split(".", 1)[-1]) for c in have), default=0)
    if k == 0 or len(have) != 2 * 8**k - 1:
        return None
    return k if have == set(codes_up_to(k)) else None


def census_rule(meta: dict[str, Any] | None, codes: Iterable[str] = ()) -> DepthRule:
    """The depth rule of the census meta describes (read_meta's result): the one it records,
    else the default for its digits (:func:`.depth.rule_for_digits`: a census of every code
    with up to four digits takes the four-digit rule, one of given codes the three-digit
    rule); codes: the census's codes when it has no census.json (the rows' codes)."""
    if meta is not None and "rule" in meta:
        return DepthRule.from_json(meta["rule"])
    return rule_for_digits(digits_of(meta["codes"] if meta is not None else codes))


def write_meta(directory: str, meta: dict[str, Any]) -> None:
    """Writes DIR/census.json by a rename, so that it is the old file or the new one."""
    write_atomically(os.path.join(directory, META),
                     json.dumps({"format": FORMAT, "version": 2, **meta}, indent=1))
