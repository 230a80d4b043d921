"""The run directory: one folder per long computation, shared by the frontier runs and the
census, and laid out the same way whatever wrote it.

- ``manifest.json``: what was run -- the tool, the game or codes, the parameters, the nimbers
  version and git commit and each session that worked on it (started, until, threads,
  machine);
- ``progress.log``: a plain line every interval (heap size, rate, time left), appended
  whether or not anyone watches, so ``tail -f`` follows a run left for days;
- the tool's own state (checkpoints, values, tables) and results (JSON with one spelling of
  every field, CSV lists), each written atomically by :mod:`nimbers.files`.

A directory holding anything the tool did not write is refused, unless the caller asks to
start afresh (then only the tool's own files are deleted): a run never silently overwrites a
copy from elsewhere or a half-restored backup.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as d:
...     run = RunDirectory(d, "frontier", {"values.bin", "checkpoint.json"})
...     run.claim(fresh=False)
...     run.record_session({"game": "grundy", "until": 4096})
...     run.log("grundy: 4,096 heap sizes")
...     run.unlock()
...     sorted(p.name for p in run.folder.iterdir())
['lock', 'manifest.json', 'progress.log']
"""

from __future__ import annotations

import csv
import functools
import io
import json
import os
import platform
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any, Iterable, Sequence

from .._version import __version__
from .. import files
from ..files import write_atomically

__all__ = ["RunDirectory", "MANIFEST", "PROGRESS_LOG", "read_json", "source_commit"]

MANIFEST, PROGRESS_LOG, LOCK = "manifest.json", "progress.log", "lock"
#: Every file a run directory keeps besides the tool's own (temporary files of an
#: interrupted atomic write included).
COMMON = frozenset({MANIFEST, PROGRESS_LOG, LOCK})
_JSON_CAP = 64 << 20  # bytes: a manifest, checkpoint or result is far smaller
_JSON_DEPTH = 32


def read_json(path: str | os.PathLike[str], what: str) -> Any:
    """A JSON file of a run directory, read within a size and a nesting cap
    (:func:`nimbers.files.read_json`).

    Raises
    ------
    ValueError
        Too large, too deep, not UTF-8 or not JSON: one line naming the file and what.
    """
    return files.read_json(path, f"readable {what}", _JSON_CAP, _JSON_DEPTH)


class RunDirectory:
    """The folder of one run of a tool ("frontier", "census"); own: the names of the files
    the tool writes there (besides the manifest and the progress log)."""

    def __init__(self, folder: str | os.PathLike[str], tool: str, own: Iterable[str]) -> None:
        if not os.fspath(folder).strip():
            raise ValueError("a run needs a directory name, not an empty one")
        self.folder = Path(folder)
        self.tool = tool
        self.own = frozenset(own) | COMMON
        self._lock_fd: int | None = None

    def lock(self) -> None:
        """Holds the folder for this process (an advisory lock on DIR/lock, released by the
        system when the process ends, kill -9 included): a second process on the same run
        would truncate the values the first is writing.

        Raises
        ------
        ValueError
            Another process holds the folder.
        """
        import fcntl
        fd = files.open_own(self.folder / LOCK, os.O_RDWR | os.O_CREAT)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip() or "?"
            os.close(fd)
            raise ValueError(f"{self.folder} is in use by another process (pid {holder}): one "
                             "process at a time works on a run") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        self._lock_fd = fd

    def unlock(self) -> None:
        """Lets the folder go (the lock file stays: removing it would race a new holder)."""
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None

    def _ours(self, name: str) -> bool:
        """One of the tool's files, or the temporary file of an interrupted atomic write of
        one (``.NAME.PID-THREAD.tmp``; ``.NAME.PID.tmp`` and ``NAME.tmp`` as older versions
        wrote them)."""
        if name.endswith(".tmp"):
            name = name[1:].rsplit(".", 2)[0] if name.startswith(".") else name[:-4]
        return name in self.own

    def claim(self, fresh: bool, state: str | None = None) -> None:
        """Makes the folder this run's: created when missing; refused when it holds a file
        the tool did not write, or the tool's files without its state file (state: the file
        that says a run is there, e.g. checkpoint.json) nor a manifest of the tool.  fresh: delete the tool's own files
        first (files of others are never deleted).

        Raises
        ------
        ValueError
            Not a directory, or not this tool's.
        """
        if self.folder.exists() and not self.folder.is_dir():
            raise ValueError(f"{self.folder} is not a directory")
        self.folder.mkdir(parents=True, exist_ok=True)
        made_lock = not (self.folder / LOCK).exists()
        self.lock()
        try:
            self._claim(fresh, state)
        except BaseException:
            if made_lock:  # a refused folder keeps nothing of ours (no run of this tool is there)
                (self.folder / LOCK).unlink(missing_ok=True)
            self.unlock()
            raise

    def _claim(self, fresh: bool, state: str | None) -> None:
        names = sorted(p.name for p in self.folder.iterdir() if p.name != LOCK)
        linked = [n for n in names if (self.folder / n).is_symlink()]
        if linked:  # (each file is also opened without following links: files.open_own)
            raise ValueError(f"{self.folder / linked[0]} is a symbolic link: a run's files are "
                             "never written through links (remove it)")
        foreign = [n for n in names if not self._ours(n)]
        if foreign:
            raise ValueError(f"{self.folder} holds {foreign[0]!r}, which a {self.tool} run "
                             "does not write: use an empty or new directory")
        if MANIFEST in names and not fresh:
            self.manifest()  # another tool's run is refused
        if fresh:
            for name in names:
                path = self.folder / name
                shutil.rmtree(path) if path.is_dir() else path.unlink()
            return
        if state is not None and names and state not in names and MANIFEST not in names and \
                any(n not in COMMON and not n.endswith(".tmp") for n in names):
            # a manifest without the state: a run of this tool stopped before its first
            # checkpoint, which has nothing to lose; without one, a copy from elsewhere
            raise ValueError(f"{self.folder} holds {self.tool} files but no {state}: not a run "
                             "this command can go on with (--fresh deletes them and starts "
                             "afresh)")

    # -- the manifest and the log --
    def manifest(self) -> dict[str, Any] | None:
        """The manifest, or None when there is none yet."""
        path = self.folder / MANIFEST
        if not path.exists():
            return None
        data = read_json(path, "run manifest")
        if not isinstance(data, dict) or data.get("tool") != self.tool:
            raise ValueError(f"{path}: not the manifest of a {self.tool} run")
        return data

    def record_session(self, parameters: dict[str, Any]) -> None:
        """Adds this session (its parameters, the version, the machine, the time) to the
        manifest, creating it on the first."""
        data = self.manifest() or {"format": "nimbers-run/1", "tool": self.tool,
                                   "created": _now(), "sessions": []}
        sessions = data.get("sessions")
        if not isinstance(sessions, list):
            sessions = []
        sessions.append({"started": _now(), "nimbers": __version__, "commit": source_commit(),
                         "machine": f"{platform.machine()} {platform.processor() or ''}".strip(),
                         "cpus": os.cpu_count(), **parameters})
        data["sessions"] = sessions[-1000:]
        self.write_json(MANIFEST, data)

    def log(self, line: str) -> None:
        """Appends a timestamped line to progress.log (append-only: a kill loses at most the
        line being written)."""
        fd = files.open_own(self.folder / PROGRESS_LOG, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
        try:
            os.write(fd, f"{_now()} {line}\n".encode())
        finally:
            os.close(fd)

    # -- results --
    def write_json(self, name: str, data: Any) -> None:
        """name (a file of the run) holds data as indented JSON, replaced atomically."""
        write_atomically(self.folder / name, json.dumps(data, indent=1) + "\n")

    def write_csv(self, name: str, header: Sequence[str], rows: Iterable[Sequence[Any]]
                  ) -> None:
        """name holds a CSV table (a header line, then the rows), replaced atomically."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)
        write_atomically(self.folder / name, out.getvalue())


@functools.lru_cache(maxsize=1)
def source_commit() -> str:
    """The git commit of the source this nimbers runs from (``git rev-parse HEAD`` in the
    package's folder), or "unknown" (an installed wheel, no git): which code made a run."""
    try:
        done = subprocess.run(["git", "rev-parse", "HEAD"], cwd=Path(__file__).parent,
                              capture_output=True, text=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    commit = done.stdout.strip()
    ok = done.returncode == 0 and len(commit) == 40 and all(c in "0123456789abcdef"
                                                             for c in commit)
    return commit if ok else "unknown"


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
