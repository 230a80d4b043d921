"""Worker processes that do the playground's computations under a time limit.

Python cannot stop a thread that is busy in compiled code, so the work of each request runs
in a separate process: the request's thread sends the call down a pipe and waits at most
``time_limit`` seconds for the answer.  A worker that has not answered by then is killed and
replaced, and the request is answered 422 ("the computation took longer than ..."), so one
request can never occupy the server for longer.  A fixed number of workers also bounds how
much of the machine the server uses; a request that finds none free within ``queue_wait``
seconds is answered 503.

Workers start from a fork server that has already imported the library, so a replacement
is ready in milliseconds (on Linux; elsewhere the spawn start method is used).

>>> with WorkerPool(workers=1, time_limit=5) as pool:
...     pool.call("calculate", {"op": "mul", "a": 5, "b": 11})["result"]["dec"]
'12'
"""

from __future__ import annotations

import multiprocessing
import queue
import threading
import traceback
from multiprocessing.connection import Connection
from typing import Any

__all__ = ["WorkerPool", "TooMuchWork", "Busy", "CLIENT_ERRORS"]

#: Exceptions that mean the input was wrong (answered 400 with their message).
CLIENT_ERRORS = (ValueError, TypeError, ZeroDivisionError, OverflowError)


class TooMuchWork(Exception):
    """The computation ran past the time limit (its worker was killed)."""


class Busy(Exception):
    """No worker became free in time."""


class WorkFailed(Exception):
    """The computation raised an unexpected error (a bug: answered 500)."""


def _context() -> Any:
    methods = multiprocessing.get_all_start_methods()
    if "forkserver" in methods:
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(["nimbers.web.api"])
        return ctx
    return multiprocessing.get_context("spawn")


def _serve(conn: Connection) -> None:
    """A worker's loop: receive (function name, keyword arguments), answer
    ("ok", result), ("error", (kind, message)) or ("bug", text)."""
    from . import api

    while True:
        try:
            name, kwargs = conn.recv()
        except (EOFError, OSError, KeyboardInterrupt):
            return
        try:
            result = ("ok", getattr(api, name)(**kwargs))
        except CLIENT_ERRORS as exc:
            message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            result = ("error", (type(exc).__name__, message))
        except MemoryError:
            result = ("error", ("MemoryError", "the computation needs too much memory"))
        except Exception:  # noqa: BLE001 (a bug: report it, keep the worker alive)
            result = ("bug", traceback.format_exc(limit=5))
        try:
            conn.send(result)
        except (OSError, ValueError):
            return


class _Worker:
    def __init__(self, ctx: Any) -> None:
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(target=_serve, args=(child,), daemon=True)
        self.process.start()
        child.close()

    def stop(self) -> None:
        self.process.kill()
        self.process.join(timeout=5)
        self.conn.close()


class WorkerPool:
    """A fixed set of worker processes, each doing one computation at a time."""

    def __init__(self, workers: int = 2, time_limit: float = 4.0, queue_wait: float = 10.0) -> None:
        if workers < 1:
            raise ValueError("a worker pool needs at least one worker")
        self.time_limit = time_limit
        self.queue_wait = queue_wait
        self._ctx = _context()
        self._idle: queue.Queue[_Worker] = queue.Queue()
        self._all: list[_Worker] = []
        self._lock = threading.Lock()
        self._closed = False
        for _ in range(workers):
            self._add()

    def _add(self) -> None:
        w = _Worker(self._ctx)
        with self._lock:
            if self._closed:
                w.stop()
                return
            self._all.append(w)
        self._idle.put(w)

    def _replace(self, w: _Worker) -> None:
        with self._lock:
            if w in self._all:
                self._all.remove(w)
        w.stop()
        threading.Thread(target=self._add, daemon=True).start()

    def call(self, name: str, kwargs: dict[str, Any]) -> Any:
        """api.name(**kwargs) in a worker; raises the input's error (ValueError, ...),
        TooMuchWork, Busy or WorkFailed."""
        try:
            w = self._idle.get(timeout=self.queue_wait)
        except queue.Empty:
            raise Busy(f"every worker stayed busy for {self.queue_wait:g} s") from None
        try:
            w.conn.send((name, kwargs))
            if not w.conn.poll(self.time_limit):
                self._replace(w)
                w = None
                raise TooMuchWork(f"the computation took longer than {self.time_limit:g} s "
                                  "and was stopped: try smaller input")
            status, payload = w.conn.recv()
        except (EOFError, OSError) as exc:  # the worker died (killed by the system?)
            if w is not None:
                self._replace(w)
                w = None
            raise WorkFailed(f"a worker process stopped: {exc!r}") from None
        finally:
            if w is not None:
                self._idle.put(w)
        if status == "ok":
            return payload
        if status == "error":
            kind, message = payload
            raise {"TypeError": TypeError, "ZeroDivisionError": ZeroDivisionError}.get(
                kind, ValueError)(message)
        raise WorkFailed(payload)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            workers, self._all = self._all, []
        for w in workers:
            w.stop()

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
