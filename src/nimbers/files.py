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
import stat
import threading
from typing import IO, Any, Callable, Iterator

__all__ = ["write_atomically", "writing_atomically", "read_capped", "read_json", "json_depth",
           "read_jsonl", "append_jsonl", "fsync_directory", "open_own"]

#: (Windows has neither: no links followed at open, no FIFOs to wait on)
_NOFOLLOW, _NONBLOCK = getattr(os, "O_NOFOLLOW", 0), getattr(os, "O_NONBLOCK", 0)

#: what json_depth looks for outside strings, and the body of a string up to its end or its
#: 1024th escape (the regex engine keeps no state per character skipped and some per escape:
#: a bounded number of escapes a match keeps the scan in constant memory)
_OUTSIDE = re.compile(r'["\[\]{}]')
_BODY = re.compile(r'[^"\\]*(?:\\.[^"\\]*){0,1024}', re.DOTALL)


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


def open_own(path: str | os.PathLike[str], flags: int, mode: int = 0o666) -> int:
    """``os.open(path, flags, mode)`` for a file a program writes in place (a lock, a log, a
    values file): never through a symbolic link (``O_NOFOLLOW``), and only a regular file with
    no other name (a link planted at the name would have the program truncate or append to
    the file it points at, someone's ``~/.bashrc``; writing in place into a hard-linked copy
    would change the other copy too).

    Raises
    ------
    ValueError
        path is a symbolic link, not a regular file, or has other hard links: one line
        naming it.
    OSError
        Any other failure to open it.

    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     os.symlink(os.path.join(d, "victim"), os.path.join(d, "lock"))
    ...     try:
    ...         open_own(os.path.join(d, "lock"), os.O_RDWR | os.O_CREAT)
    ...     except ValueError as e:
    ...         print(str(e).split(": ", 1)[1])
    a symbolic link: refused (a run's files are never opened through links)
    """
    name = os.fspath(path)
    try:  # (O_NONBLOCK: a FIFO at the name does not wait; O_TRUNC once the file is checked)
        fd = os.open(name, (flags & ~os.O_TRUNC) | _NOFOLLOW | _NONBLOCK, mode)
    except OSError as e:
        try:
            kind = os.lstat(name).st_mode
        except OSError:
            kind = stat.S_IFREG
        if stat.S_ISLNK(kind):  # (ELOOP; EMLINK on FreeBSD)
            raise ValueError(f"{name}: a symbolic link: refused (a run's files are never "
                             "opened through links)") from None
        if not stat.S_ISREG(kind):  # (a FIFO without a reader: ENXIO)
            raise ValueError(f"{name}: not a regular file: refused") from None
        raise OSError(e.errno, f"{name}: {e.strerror}") from None
    info = os.fstat(fd)
    problem = ("not a regular file" if not stat.S_ISREG(info.st_mode) else
               f"a file with {info.st_nlink - 1} other hard link(s)" if info.st_nlink > 1
               else None)
    if problem is not None:
        os.close(fd)
        raise ValueError(f"{name}: {problem}: refused (a run writes its files in place: give "
                         "it a copy, not a link)")
    if _NONBLOCK:
        os.set_blocking(fd, True)
    if flags & os.O_TRUNC:
        os.ftruncate(fd, 0)
    return fd


def temporary_suffix() -> str:
    """The end of the temporary file's name :func:`writing_atomically` writes first: the
    process and the thread, so that no two writers share one."""
    return f"{os.getpid()}-{threading.get_native_id()}.tmp"


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
    # one temporary name per process and thread: two threads writing one target must not
    # share (and unlink) each other's temporary file
    temporary = os.path.join(folder, f".{os.path.basename(target)}.{temporary_suffix()}")
    try:
        with contextlib.suppress(FileNotFoundError):  # a kill's leftover, or a planted link
            os.unlink(temporary)
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o666)
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


def _read_at_most(f: IO[bytes], most: int) -> bytes:
    """The file's bytes, up to most + 1 of them (one more than allowed says it is too long),
    read a MiB at a time: ``f.read(most + 1)`` would allocate the whole cap (64 MiB) for a
    file of a few bytes."""
    data = bytearray()
    while len(data) <= most:
        piece = f.read(min(1 << 20, most + 1 - len(data)))
        if not piece:
            break
        data += piece
    return bytes(data)


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
        data = _read_at_most(f, most)
    if len(data) > most:
        raise ValueError(f"{os.fspath(path)}: a {what} of more than {most:,} bytes is refused")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError(f"{os.fspath(path)}: not UTF-8 text") from None


def json_depth(text: str) -> int:
    """The deepest nesting of [ ] and { } in JSON text, brackets inside strings not counted
    (a scan, no recursion: 100,000 nested brackets would take json.loads past Python's
    recursion limit).  Linear time and constant memory: a state machine that jumps from one
    bracket or quote to the next outside strings, and through a string to the quote that ends
    it (a backslash skips the character it escapes), so a string of 64 MB costs a pass and no
    memory (a regex matching whole strings kept some 120 bytes per character).

    >>> json_depth('{"a": [[1, 2], [3]], "b": "[[[[", "c": "\\\\\\"]["}')
    3
    """
    depth = deepest = pos = 0
    outside, body, end = _OUTSIDE.search, _BODY.match, len(text)
    while (m := outside(text, pos)) is not None:
        c, pos = m.group(), m.end()
        if c == '"':  # to the end of the string: the next quote that no backslash escapes
            while True:
                found = body(text, pos)  # (always a match, perhaps empty)
                at = found.end() if found else pos
                if at >= end or (at == pos and text[at] == "\\"):
                    return deepest  # a string never closed: json.loads says so
                if text[at] == '"':
                    pos = at + 1
                    break
                pos = at  # stopped at its 1025th escape: on from there
        elif c in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
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
            raw = _read_at_most(f, most)
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
            data = _read_at_most(f, most)
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
