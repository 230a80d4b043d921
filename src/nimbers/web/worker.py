"""Worker processes that do the playground's computations under a time limit.

Python cannot stop a thread that is busy in compiled code, so the work of each request runs
in a separate process: the request's thread sends the call to a worker and waits at most
``time_limit`` seconds for the answer.  A worker that has not answered by then is killed and
replaced, and the request is answered 422 ("the computation took longer than ..."), so one
request can never occupy the server for longer.  A fixed number of workers also bounds how
much of the machine the server uses; a request that finds none free within ``queue_wait``
seconds is answered 503.

Each worker is a fresh interpreter running :func:`main`, reading calls on its
standard input and writing answers on its standard output (length-prefixed pickles; both
ends are this module).  It is not a fork of the server, so it inherits none of the server's
threads, and the program that started the server is not imported again (as
multiprocessing's spawn and forkserver methods would do).  A replacement costs the library's
import, a fraction of a second, and happens only after a computation was stopped.

On POSIX systems each worker also holds the reading end of a pipe (its *lifeline*) whose
writing end only the server process holds, and a thread that waits on it: when the server
dies, however it dies (``kill -9`` included), the kernel closes the writing end and the
worker exits at once, even in the middle of a computation.  (Linux's ``PR_SET_PDEATHSIG``
would not do: it fires when the *thread* that started the child ends, and replacements are
started by short-lived threads.)

>>> with WorkerPool(workers=1, time_limit=5) as pool:
...     pool.call("calculate", {"op": "mul", "a": 5, "b": 11})["result"]["dec"]
'12'
"""

from __future__ import annotations

import os
import pickle
import queue
import signal
import struct
import subprocess
import sys
import threading
import traceback
from pathlib import Path
from typing import Any, BinaryIO, Callable

__all__ = ["WorkerPool", "TooMuchWork", "Busy", "Stopping", "WorkFailed", "CLIENT_ERRORS"]

#: Exceptions that mean the input was wrong (answered 400 with their message).
CLIENT_ERRORS = (ValueError, TypeError, ZeroDivisionError, OverflowError)


class TooMuchWork(Exception):
    """The computation ran past the time limit (its worker was killed)."""


class Busy(Exception):
    """No worker became free in time."""


class Stopping(Busy):
    """The pool was closed (the server is stopping) before the computation answered."""


class Crowded(Exception):
    """No worker is free and other requests wait behind this one (see WorkerPool.call)."""


class WorkFailed(Exception):
    """The computation raised an unexpected error, or its worker died (a bug: 500)."""


# ---- the messages --------------------------------------------------------------------------

def _send(stream: BinaryIO, message: Any) -> None:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(struct.pack(">Q", len(data)) + data)
    stream.flush()


def _receive(stream: BinaryIO) -> Any:
    """One message, or None at the end of the stream."""
    head = stream.read(8)
    if len(head) < 8:
        return None
    (size,) = struct.unpack(">Q", head)
    data = stream.read(size)
    if len(data) < size:
        return None
    return pickle.loads(data)


# ---- the worker's side ---------------------------------------------------------------------

def _answer(name: str, kwargs: dict[str, Any]) -> tuple[str, Any]:
    """("ok", result), ("error", (kind, message)) for bad input, or ("bug", traceback)."""
    from . import api

    try:
        return "ok", getattr(api, name)(**kwargs)
    except CLIENT_ERRORS as exc:
        message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        return "error", (type(exc).__name__, message)
    except MemoryError:
        return "error", ("MemoryError", "the computation needs too much memory")
    except Exception:  # noqa: BLE001 (a bug: report it, keep the worker alive)
        return "bug", traceback.format_exc(limit=5)


def _exit_when_closed(lifeline: int) -> None:
    """Waits for the end of the lifeline (nothing is ever written on it), then ends the
    process at once, whatever its main thread is doing.  A lifeline that cannot be read (the
    pool closed it while starting this worker: EBADF) is ended too, not a traceback and a
    worker left without one."""
    try:
        while os.read(lifeline, 1):
            pass
    except OSError:
        pass
    os._exit(0)


def watch_lifeline(argv: list[str]) -> None:
    """Starts the thread that ends this worker when the server's end of its lifeline closes
    (``argv[1]``, the lifeline's file descriptor, when the server passed one)."""
    if len(argv) > 1:
        threading.Thread(target=_exit_when_closed, args=(int(argv[1]),), daemon=True).start()


def main() -> None:
    """A worker's loop: (function name, keyword arguments) in, an answer out.  It ends when
    its input closes, when the server dies (its lifeline closes: see :func:`watch_lifeline`),
    or quietly when the server has gone (a broken pipe)."""
    watch_lifeline(sys.argv)
    calls, answers = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # a stray print must not corrupt the answers
    # Workers run in a session of their own (a Ctrl-C in the server's terminal is the
    # server's to handle); ignore SIGINT all the same, should one be sent to the process.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    from . import api  # noqa: F401 (imported before the first call, not during it)

    try:
        _send(answers, ("ready", None))  # the import's time counts against no request
        while True:
            message = _receive(calls)
            if message is None:
                return
            _send(answers, _answer(*message))
    except BrokenPipeError:
        # the server closed the pool while this worker started or worked: nothing to say,
        # and nothing left to flush at exit
        os.dup2(os.open(os.devnull, os.O_WRONLY), answers.fileno())


# ---- the server's side ---------------------------------------------------------------------

_WORKER_MAIN = "from nimbers.web.worker import main; main()"


class _Worker:
    def __init__(self, lifeline: int | None = None) -> None:
        env = dict(os.environ)
        package_root = str(Path(__file__).resolve().parents[2])  # the folder holding nimbers/
        env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH")) if p)
        argv = [sys.executable, "-c", _WORKER_MAIN]
        fds: tuple[int, ...] = ()
        if lifeline is not None:
            argv, fds = argv + [str(lifeline)], (lifeline,)
        # a session of its own: Ctrl-C in the server's terminal stops the server, which then
        # stops its workers, instead of reaching each worker too (perhaps mid-import)
        self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        env=env, start_new_session=True, pass_fds=fds)
        assert self.process.stdin is not None and self.process.stdout is not None
        self.calls: BinaryIO = self.process.stdin  # type: ignore[assignment]
        self.replies: BinaryIO = self.process.stdout  # type: ignore[assignment]
        self.answers: queue.Queue[Any] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        """Moves the worker's answers into a queue, so that a request can wait on it with a
        timeout (portable, unlike select on pipes)."""
        while True:
            try:
                message = _receive(self.replies)
            except (OSError, ValueError, EOFError, pickle.UnpicklingError):
                message = None
            self.answers.put(message)
            if message is None:
                return

    def wait_ready(self, timeout: float = 60.0) -> None:
        """Waits for the worker's first message, sent once the library is imported."""
        try:
            message = self.answers.get(timeout=timeout)
        except queue.Empty:
            message = None
        if message != ("ready", None):
            self.stop()
            raise WorkFailed("a worker process did not start")

    def ask(self, name: str, kwargs: dict[str, Any], timeout: float) -> Any:
        """The answer, or None when the worker died; queue.Empty after timeout seconds."""
        _send(self.calls, (name, kwargs))
        return self.answers.get(timeout=timeout)

    def stop(self) -> None:
        self.process.kill()
        self.process.wait(timeout=5)
        for stream in (self.calls, self.replies):
            try:
                stream.close()
            except OSError:
                pass


class WorkerPool:
    """A fixed set of worker processes, each doing one computation at a time."""

    def __init__(self, workers: int = 2, time_limit: float = 4.0, queue_wait: float = 10.0) -> None:
        if workers < 1:
            raise ValueError("a worker pool needs at least one worker")
        self.time_limit = time_limit
        self.queue_wait = queue_wait
        self._idle: queue.Queue[_Worker] = queue.Queue()
        self._all: list[_Worker] = []
        self._lock = threading.Lock()
        self._closed = False
        # the lifeline: the workers get the reading end, only this process holds the writing
        # end (os.pipe's descriptors are not inherited), so the workers see it close when
        # this process ends
        self._lifeline = os.pipe() if os.name == "posix" else None
        starting = [self._start() for _ in range(workers)]  # they import the library in parallel
        try:
            for w in starting:
                self._enlist(w)
        except WorkFailed:
            for w in starting:
                w.stop()
            self._close_lifeline()
            raise

    def _start(self) -> _Worker:
        return _Worker(self._lifeline[0] if self._lifeline else None)

    def _add(self) -> None:
        if self._closed:
            return
        try:
            self._enlist(self._start())
        except (WorkFailed, OSError) as exc:  # the pool goes on with one worker fewer
            if not self._closed:  # (closing meanwhile may take the lifeline from a start)
                sys.stderr.write(f"nimbers serve: {exc}\n")

    def _enlist(self, w: _Worker) -> None:
        """Makes a started worker available once it is ready."""
        w.wait_ready()
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
            closed = self._closed
        w.stop()
        if not closed:
            threading.Thread(target=self._add, daemon=True).start()

    def call(self, name: str, kwargs: dict[str, Any],
             crowded: Callable[[], bool] | None = None) -> Any:
        """api.name(**kwargs) in a worker; raises the input's error (ValueError, TypeError,
        ZeroDivisionError), TooMuchWork, Busy, Stopping (the pool was closed meanwhile) or
        WorkFailed.  Busy after queue_wait seconds without a free worker, or as soon as
        crowded() says that other requests wait behind this one (the server's queue of
        connections): a saturated server answers at once instead of after queue_wait."""
        try:
            w = self._take(crowded)
        except queue.Empty:
            raise Busy(f"every worker stayed busy for {self.queue_wait:g} s") from None
        except Crowded:
            raise Busy("every worker is busy and more requests wait") from None
        try:
            answer = w.ask(name, kwargs, self.time_limit)
        except queue.Empty:
            self._replace(w)
            raise TooMuchWork(f"the computation took longer than {self.time_limit:g} s "
                              "and was stopped: try smaller input") from None
        except OSError:  # the pipe broke: the worker died
            answer = None
        if answer is None:
            self._replace(w)
            if self._closed:
                raise Stopping(self.STOPPING)
            raise WorkFailed("a worker process stopped unexpectedly")
        self._idle.put(w)
        status, payload = answer
        if status == "ok":
            return payload
        if status == "error":
            kind, message = payload
            raise {"TypeError": TypeError, "ZeroDivisionError": ZeroDivisionError}.get(
                kind, ValueError)(message)
        raise WorkFailed(payload)

    STOPPING = "the server is stopping: the computation was not finished"

    def _take(self, crowded: Callable[[], bool] | None = None) -> _Worker:
        """An idle worker, waiting at most queue_wait seconds (queue.Empty after that), in
        short steps so that a request waiting for one learns soon that the pool closed (or,
        through crowded(), that others wait behind it: Crowded)."""
        waited = 0.0
        while True:
            if self._closed:
                raise Stopping(self.STOPPING)
            if waited and crowded is not None and crowded():
                raise Crowded
            step = min(0.25, self.queue_wait - waited)
            try:
                return self._idle.get(timeout=max(step, 0.0))
            except queue.Empty:
                waited += step
                if waited >= self.queue_wait:
                    raise

    def close(self) -> None:
        """Stops every worker: a computation in progress ends with Stopping."""
        with self._lock:
            self._closed = True
            workers, self._all = self._all, []
        for w in workers:
            w.stop()
        self._close_lifeline()

    def _close_lifeline(self) -> None:
        lifeline, self._lifeline = self._lifeline, None
        for fd in lifeline or ():
            os.close(fd)

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
