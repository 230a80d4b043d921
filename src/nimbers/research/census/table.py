"""The census's files: DIR/census.jsonl, one row per class and depth, appended as classes
finish a level (a later row of a class replaces the earlier ones sharing a code with it), and
DIR/census.json, what the census covers (written atomically).

Each row is one line written by a single ``write`` and made durable with ``fsync`` before the
next, so a census killed at any moment (Ctrl-C, ``kill -9``, a power cut) leaves whole rows and
at most one torn last line, which :func:`read_rows` drops (and cuts from the file) on the
next run.
"""

from __future__ import annotations

import json
import os
from typing import Any, Iterable

from ...files import append_jsonl, read_jsonl, write_atomically

__all__ = ["TABLE", "META", "FORMAT", "read_rows", "append_row", "read_meta", "write_meta",
           "covered_codes", "numbered_rows", "replaced_rows", "all_rows", "read_capped",
           "MAX_TABLE_BYTES", "MAX_META_BYTES"]

TABLE = "census.jsonl"
META = "census.json"
FORMAT = "nimbers octal census"
#: the largest table read (a census of 6-digit codes at many depths stays far below)
MAX_TABLE_BYTES = 1 << 30
#: the largest census.json read
MAX_META_BYTES = 1 << 24


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
    """The current rows of DIR/census.jsonl (see :func:`numbered_rows`)."""
    return [row for _line, row in numbered_rows(directory, repair)]


def numbered_rows(directory: str, repair: bool = True) -> list[tuple[int, dict[str, Any]]]:
    """(line, row) for the current rows of DIR/census.jsonl in file order ([] when there is
    none): a row replaced by a later one of the same class is left out.  A last line cut short
    by a kill is dropped, and cut from the file when repair; any other bad line is an error
    naming it."""
    return _latest(all_rows(directory, repair))


def replaced_rows(directory: str) -> list[tuple[int, dict[str, Any]]]:
    """(line, row) for the rows a later row of the same class replaced."""
    rows = all_rows(directory, repair=False)
    current = {line for line, _row in _latest(rows)}
    return [(line, row) for line, row in enumerate(rows, 1) if line not in current]


def all_rows(directory: str, repair: bool = True) -> list[dict[str, Any]]:
    """Every row of DIR/census.jsonl, replaced ones included, in file order."""
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
    codes = meta.get("codes", [])
    if not isinstance(codes, list) or not all(isinstance(c, str) and c.isprintable()
                                              and c == c.strip() for c in codes):
        raise ValueError(f"{path}: \"codes\" is not a list of codes")
    if not isinstance(meta.get("offsets", True), bool):
        raise ValueError(f"{path}: \"offsets\" is not true or false")
    until = meta.get("until", 0)
    if isinstance(until, bool) or not isinstance(until, int) or until < 0:
        raise ValueError(f"{path}: \"until\" is not a number of heap sizes")
    return meta


def write_meta(directory: str, meta: dict[str, Any]) -> None:
    """Writes DIR/census.json by a rename, so that it is the old file or the new one."""
    write_atomically(os.path.join(directory, META),
                     json.dumps({"format": FORMAT, "version": 2, **meta}, indent=1))
