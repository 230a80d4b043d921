"""Where a census's tasks run: a process pool on this machine's cores, or the workers of a dask
cluster (:mod:`.cluster`), behind one ``concurrent.futures`` executor.

Processes we start end when the process that started them ends, whatever ends it (Ctrl-C,
``kill``, ``kill -9``): each worker of the pool asks Linux for a signal when its parent dies
(``prctl(PR_SET_PDEATHSIG, SIGKILL)``), and a watchdog thread in it exits as soon as the census
process is gone or its parent changes (the forkserver that made it ends with the census).  The
C engines release the GIL, so the watchdog runs while a game is computed.

>>> with executor(workers=1) as (pool, slots, alive):
...     pool.submit(abs, -3).result(), slots
(3, 1)
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
from typing import Any, Callable, Iterable, Iterator

from ..._limits import available_cpus

__all__ = ["executor", "as_done", "Executor", "WATCH_SECONDS", "POLL_SECONDS"]

#: how often a worker's watchdog looks for the census process
WATCH_SECONDS = 0.5
#: seconds between two looks at the executor's workers while tasks are awaited
POLL_SECONDS = 1.0
#: prctl's option asking for a signal when the parent dies (linux/prctl.h)
_PR_SET_PDEATHSIG = 1

#: (the executor, how many tasks it runs at once, a check that raises when no worker is left)
Executor = tuple[cf.Executor, int, Callable[[], None]]


def _ask_for_death_signal() -> None:
    """SIGKILL to this process when its parent thread ends (Linux; elsewhere nothing)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
    except (OSError, AttributeError):
        pass  # not Linux: the watchdog alone


def _watch(census_pid: int, parent: int) -> None:
    while True:
        time.sleep(WATCH_SECONDS)
        if os.getppid() != parent:
            os._exit(3)
        try:
            os.kill(census_pid, 0)
        except ProcessLookupError:
            os._exit(3)
        except PermissionError:  # the number is another user's process now
            os._exit(3)


def worker_start(census_pid: int) -> None:
    """The pool's worker initializer: end with the census (see the module docstring)."""
    _ask_for_death_signal()
    parent = os.getppid()
    if parent == 1:  # the parent is gone already
        os._exit(3)
    threading.Thread(target=_watch, args=(census_pid, parent), name="census-watchdog",
                     daemon=True).start()


def _local_alive() -> None:
    """A process pool reports its dead workers itself (BrokenProcessPool)."""


@contextlib.contextmanager
def executor(workers: int | None = None, scheduler: str | None = None) -> Iterator[Executor]:
    """A concurrent.futures executor, how many tasks it runs at once, and a check to call while
    waiting (it raises ValueError when a cluster has had no worker for too long): a process
    pool of workers processes (default: the cores), or the workers of a dask cluster."""
    if scheduler is not None:
        from .cluster import dask_executor
        with dask_executor(scheduler) as found:
            yield found
        return
    if workers is None:
        workers = available_cpus()
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers is a positive int, got {workers!r}")
    # never fork: numpy's BLAS threads make fork unsafe (Python 3.12 warns); like spawn, a
    # forkserver's workers import the caller's __main__, so a script needs the usual
    # ``if __name__ == "__main__":`` guard (``nimbers`` and ``python -m nimbers`` have it)
    script = _unguarded_script()
    method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
    pool = cf.ProcessPoolExecutor(max_workers=workers,
                                  mp_context=multiprocessing.get_context(method),
                                  initializer=worker_start, initargs=(os.getpid(),))
    try:
        yield pool, workers, _local_alive
    except cf.process.BrokenProcessPool as exc:
        _stop_workers(pool)
        if script is None:
            raise
        raise RuntimeError(_rerun_message(script, "a worker process ended at its start"
                                          )) from exc
    except BaseException:  # Ctrl-C or an error: the running tasks are not waited for
        _stop_workers(pool)
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _rerun_message(script: str, what: str) -> str:
    return (f"{what}: the census's worker processes import the script that started them "
            f"({script}), as multiprocessing's forkserver and spawn do, and so run it again; "
            'call census in a script under if __name__ == "__main__": (docs/guide.md, "A '
            'census of octal games")')


def _unguarded_script() -> str | None:
    """The script the pool's workers will import (the caller's ``__main__`` run from a file),
    or None when there is none (``python -m``, an interactive session, a notebook).

    Raises
    ------
    RuntimeError
        The script has no ``if __name__ == "__main__":`` at all (before any worker starts).
    SystemExit
        In a worker importing that script: the census was called outside the
        ``if __name__ == "__main__":`` guard, which would start workers from workers (the
        worker says so in one line and ends; the census then raises RuntimeError saying so).
    """
    frame = sys._getframe(1)
    while frame is not None:  # multiprocessing re-running the caller's script names it so
        if frame.f_code.co_name == "<module>" and frame.f_globals.get("__name__") == "__mp_main__":
            raise SystemExit(_rerun_message(frame.f_code.co_filename,
                                            "census called in a worker process"))
        frame = frame.f_back  # type: ignore[assignment]
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    if main is None or path is None or getattr(main, "__spec__", None) is not None:
        return None
    try:
        with open(path, "rb") as f:
            text = f.read(1 << 20)
    except OSError:
        return str(path)
    if b"__main__" not in text:  # no guard at all: refused before the script runs twice
        raise RuntimeError(_rerun_message(str(path), "census needs worker processes"))
    return str(path)


def _stop_workers(pool: cf.ProcessPoolExecutor) -> None:
    """SIGKILL to the pool's workers (their tasks are checkpointed or appended row by row)."""
    processes = getattr(pool, "_processes", None) or {}
    for process in list(processes.values()):
        with contextlib.suppress(OSError, ValueError, AttributeError):
            process.kill()


def as_done(futures: Iterable[cf.Future[Any]], alive: Callable[[], None],
            tick: Callable[[int], None] | None = None) -> Iterator[cf.Future[Any]]:
    """The futures as they finish (``concurrent.futures.as_completed``), with the executor's
    alive check between waits (a cluster whose workers are all gone is an error, not a wait
    for ever) and tick(how many are left) after each wait (progress lines); those left are
    cancelled when the caller stops early.  A set given is awaited as it is: the caller may
    add to it while iterating (a task done starting the next), and it holds those left.

    >>> with executor(workers=1) as (pool, _slots, alive):
    ...     waiting = {pool.submit(abs, -2)}
    ...     got = []
    ...     for future in as_done(waiting, alive):
    ...         got.append(future.result())
    ...         if len(got) == 1:
    ...             waiting.add(pool.submit(abs, -5))
    >>> got
    [2, 5]
    """
    waiting = futures if isinstance(futures, set) else set(futures)
    try:
        while waiting:
            finished, _ = cf.wait(waiting, timeout=POLL_SECONDS,
                                  return_when=cf.FIRST_COMPLETED)
            waiting -= finished
            yield from finished
            alive()
            if tick is not None:
                tick(len(waiting))
    finally:
        for future in waiting:
            future.cancel()
