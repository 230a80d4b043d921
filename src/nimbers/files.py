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
import os
from typing import IO, Callable, Iterator

__all__ = ["write_atomically", "writing_atomically", "read_capped", "fsync_directory"]


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
