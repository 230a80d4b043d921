"""Files that survive ``kill -9``: the one way nimbers replaces a file, and reads one back
within a cap.

:func:`write_atomically` writes a temporary file beside the target, flushes it to the disk,
renames it over the target and flushes the directory: at every instant the target holds the
old contents or the new ones, never a part.  The file is created as any program creates one
(mode 0666 less the umask), not private like :func:`tempfile.mkstemp`'s.  When the write fails
(a full disk, a closed device) the temporary file is removed and the error names the file.

>>> import os, tempfile
>>> with tempfile.TemporaryDirectory() as d:
...     path = os.path.join(d, "a.json")
...     write_atomically(path, '{"n": 1}')
...     write_atomically(path, b'{"n": 2}')
...     read_capped(path, 100), sorted(os.listdir(d))
('{"n": 2}', ['a.json'])
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from typing import IO, Any, Callable, Iterator

__all__ = ["write_atomically", "writing_atomically", "read_capped", "read_json", "json_depth",
           "read_jsonl", "append_jsonl", "fsync_directory"]

_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def fsync_directory(folder: str | os.PathLike[str]) -> None:
    """Makes a rename or a new file in folder durable (a no-op where directories cannot be
    opened, as on Windows)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


@contextlib.contextmanager
def writing_atomically(path: str | os.PathLike[str]) -> Iterator[IO[bytes]]:
    """A binary file to write; on leaving the block it replaces path atomically (nothing
    changes if the block raises).

    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     with writing_atomically(os.path.join(d, "v.bin")) as f:
    ...         _ = f.write(bytes(3))
    ...     os.path.getsize(os.path.join(d, "v.bin"))
    3
    """
    target = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(target))
    temporary = os.path.join(folder, f".{os.path.basename(target)}.{os.getpid()}.tmp")
    try:
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666)
        with os.fdopen(fd, "wb") as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(temporary, target)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        if isinstance(exc, OSError) and not exc.filename:
            raise OSError(exc.errno, f"{target}: {exc.strerror}") from None
        raise
    fsync_directory(folder)


def write_atomically(path: str | os.PathLike[str], data: str | bytes | Callable[[IO[bytes]], object]
                     ) -> None:
    """Replaces the file at path by data (text is written as UTF-8; a callable is given the
    open binary file), atomically and durably.

    Raises
    ------
    OSError
        The write failed (the error names the file); path is unchanged and no temporary file
        is left.
    """
    with writing_atomically(path) as f:
        if callable(data):
            data(f)
        else:
            f.write(data.encode("utf-8") if isinstance(data, str) else data)


def read_capped(path: str | os.PathLike[str], most: int, what: str = "file") -> str:
    """The UTF-8 text of a file of at most ``most`` bytes (a larger one, ``/dev/zero`` or a
    device that never ends, is refused after reading most + 1 bytes).

    Raises
    ------
    ValueError
        Larger than most bytes, or not UTF-8 text.
    OSError
        Unreadable.
    """
    with open(path, "rb") as f:
        data = f.read(most + 1)
    if len(data) > most:
        raise ValueError(f"{os.fspath(path)}: a {what} of more than {most:,} bytes is refused")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError(f"{os.fspath(path)}: not UTF-8 text") from None


def json_depth(text: str) -> int:
    """The deepest nesting of [ ] and { } in JSON text, brackets inside strings not counted
    (a scan, no recursion: 100,000 nested brackets would take json.loads past Python's
    recursion limit).

    >>> json_depth('{"a": [[1, 2], [3]], "b": "[[[["}')
    3
    """
    depth = deepest = 0
    for m in _TOKENS.finditer(text):
        c = m.group()
        if c in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif c in "]}":
            depth -= 1
    return deepest


def read_json(path: str | os.PathLike[str], what: str, most: int, depth: int) -> Any:
    """The JSON data of a file of at most ``most`` bytes nested at most ``depth`` deep: the
    one reader of the project's saved JSON (checkpoints, manifests, statistics, quotients).

    Raises
    ------
    ValueError
        One line, "PATH: not a WHAT (why)", or "cannot read PATH: why".

    >>> import pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     p = pathlib.Path(d, "x.json")
    ...     _ = p.write_text("[" * 50 + "]" * 50)
    ...     try:
    ...         read_json(p, "saved thing", 1000, 8)
    ...     except ValueError as e:
    ...         print(str(e).split(": ", 1)[1])
    not a saved thing (brackets nested deeper than 8)
    """
    name = os.fspath(path)
    try:
        with open(name, "rb") as f:
            raw = f.read(most + 1)
    except OSError as e:
        raise ValueError(f"cannot read {name}: {e.strerror or e}") from None
    if len(raw) > most:
        raise ValueError(f"{name}: not a {what} (over {most:,} bytes)")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError(f"{name}: not a {what} (not UTF-8 text)") from None
    if json_depth(text) > depth:
        raise ValueError(f"{name}: not a {what} (brackets nested deeper than {depth})")
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as e:
        first = str(e).splitlines()[0][:80] if str(e) else type(e).__name__
        raise ValueError(f"{name}: not a {what} ({first})") from None


def read_jsonl(path: str | os.PathLike[str], what: str, most: int, repair: bool = True
               ) -> list[dict[str, Any]]:
    """The rows of an append-only table (one JSON object a line, written by
    :func:`append_jsonl`), in file order ([] when there is none).  A last line cut short by a
    kill is dropped, and cut from the file when repair; any other bad line is a ValueError
    naming it; a file past most bytes is refused.

    >>> import pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     table = pathlib.Path(d, "t.jsonl")
    ...     append_jsonl(table, {"code": "0.07"})
    ...     with open(table, "ab") as f:
    ...         _ = f.write(b'{"code": "0.1')          # a write cut short by kill -9
    ...     read_jsonl(table, "row", 1 << 20), len(table.read_bytes())
    ([{'code': '0.07'}], 16)
    """
    name = os.fspath(path)
    try:
        with open(name, "rb") as f:
            data = f.read(most + 1)
    except FileNotFoundError:
        return []
    if len(data) > most:
        raise ValueError(f"{name}: a file of more than {most:,} bytes is refused")
    lines = data.split(b"\n")
    torn = lines.pop()  # b"" when the file ends with a newline: each row ends with one
    rows = []
    for number, line in enumerate(lines, 1):
        try:
            row = json.loads(line)
        except (ValueError, RecursionError):
            row = None
        if not isinstance(row, dict):
            raise ValueError(f"{name}, line {number}: not a {what}")
        rows.append(row)
    if torn and repair:
        with open(name, "r+b") as f:
            f.truncate(len(data) - len(torn))
            os.fsync(f.fileno())
    return rows


def append_jsonl(path: str | os.PathLike[str], row: dict[str, Any]) -> None:
    """Appends one row as one line by a single write, durable before returning (a kill leaves
    whole rows and at most one torn last line, which :func:`read_jsonl` drops)."""
    line = (json.dumps(row, separators=(",", ":")) + "\n").encode()
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o666)
    try:
        written = os.write(fd, line)
        if written != len(line):
            raise OSError(f"{os.fspath(path)}: a short write ({written} of {len(line)} bytes)")
        os.fsync(fd)
    finally:
        os.close(fd)
