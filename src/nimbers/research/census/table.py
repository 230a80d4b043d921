"""The census's files: DIR/census.jsonl, one row per class, appended as classes finish, and
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

__all__ = ["TABLE", "META", "FORMAT", "read_rows", "append_row", "read_meta", "write_meta",
           "covered_codes"]

TABLE = "census.jsonl"
META = "census.json"
FORMAT = "nimbers octal census"


def read_rows(directory: str, repair: bool = True) -> list[dict[str, Any]]:
    """The rows of DIR/census.jsonl in file order ([] when there is none).  A last line cut
    short by a kill is dropped, and cut from the file when repair; any other bad line is an
    error naming it."""
    path = os.path.join(directory, TABLE)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        return []
    lines = data.split(b"\n")
    torn = lines.pop()  # b"" when the file ends with a newline; a row is written with its own
    rows = []
    for number, line in enumerate(lines, 1):
        try:
            row = json.loads(line)
        except ValueError:
            row = None
        if not isinstance(row, dict):
            raise ValueError(f"{path}, line {number}: not a row of the census")
        rows.append(row)
    good = len(data) - len(torn)
    if good < len(data) and repair:
        with open(path, "r+b") as f:
            f.truncate(good)
            os.fsync(f.fileno())
    return rows


def append_row(directory: str, row: dict[str, Any]) -> None:
    """Appends one row as one line, durable before returning."""
    line = (json.dumps(row, separators=(",", ":"), sort_keys=False) + "\n").encode()
    fd = os.open(os.path.join(directory, TABLE), os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        written = os.write(fd, line)
        if written != len(line):
            raise OSError(f"{TABLE}: a short write ({written} of {len(line)} bytes)")
        os.fsync(fd)
    finally:
        os.close(fd)


def covered_codes(rows: Iterable[dict[str, Any]]) -> set[str]:
    return {code for row in rows for code in row.get("members", ())}


def read_meta(directory: str) -> dict[str, Any] | None:
    path = os.path.join(directory, META)
    try:
        with open(path, encoding="utf-8") as f:
            meta = json.load(f)
    except FileNotFoundError:
        return None
    except ValueError:
        raise ValueError(f"{path}: not a census description") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise ValueError(f"{path}: not a census description")
    return meta


def write_meta(directory: str, meta: dict[str, Any]) -> None:
    """Writes DIR/census.json by a rename, so that it is the old file or the new one."""
    path = os.path.join(directory, META)
    temporary = path + ".tmp"
    with open(temporary, "w", encoding="utf-8") as f:
        json.dump({"format": FORMAT, "version": 1, **meta}, f, indent=1)
        f.flush()
        os.fsync(f.fileno())
    os.replace(temporary, path)
