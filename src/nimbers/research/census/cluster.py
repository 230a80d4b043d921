"""A census on a dask distributed cluster: the scheduler a user started (``dask scheduler``,
``dask worker tcp://HOST:PORT``), reached through distributed's concurrent.futures executor,
so the schedule runs unchanged.  Imported only when a scheduler address is given: the core
never needs dask.
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import sys
import time
from typing import Any, Callable, Iterator

from ... import _limits

__all__ = ["dask_executor", "CONNECT_SECONDS", "WORKERLESS_SECONDS"]

#: how long to try to reach the scheduler, and then to wait for a first worker
CONNECT_SECONDS = 10
#: how long a census waits, saying so, when every worker of the cluster is gone (the
#: environment variable NIMBERS_CENSUS_WORKERLESS sets another number of seconds)
WORKERLESS_SECONDS = 120.0
WORKERLESS_ENV = "NIMBERS_CENSUS_WORKERLESS"


@contextlib.contextmanager
def dask_executor(address: str, workerless: float | None = None
                  ) -> Iterator[tuple[cf.Executor, int, Callable[[], None]]]:
    """The executor of a distributed Client connected to address, the number of threads of
    its workers, and a check that says on stderr when no worker is left and raises
    ValueError once that has lasted workerless seconds.

    Raises
    ------
    ImportError
        distributed is not installed.
    ValueError
        The scheduler cannot be reached, or has no worker.
    """
    try:
        from distributed import Client
    except ImportError:
        raise ImportError("a census on a cluster needs dask distributed: "
                          "pip install 'nimbers[cluster]'") from None
    if not isinstance(address, str) or "://" not in address:
        raise ValueError(f"a scheduler address looks like tcp://HOST:PORT, got {address!r}")
    try:
        client: Any = Client(address, timeout=f"{CONNECT_SECONDS}s")
    except Exception as exc:  # distributed raises OSError, TimeoutError or its own kinds
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise ValueError(f"cannot reach the dask scheduler at {address}: {reason}") from None
    try:
        try:
            client.wait_for_workers(1, timeout=CONNECT_SECONDS)
        except Exception:
            raise ValueError(f"the dask scheduler at {address} has no worker (start one: "
                             f"dask worker {address})") from None
        info = client.scheduler_info()
        threads = sum(int(w.get("nthreads", 1)) for w in info.get("workers", {}).values())
        pool = client.get_executor(pure=False)
        limit = _limits.seconds_setting(workerless, WORKERLESS_ENV, WORKERLESS_SECONDS,
                                        keyword="workerless", most=10**6)
        yield pool, max(1, threads), _Watch(client, address, limit)
    finally:
        client.close()


class _Watch:
    """Called while the census waits: nothing while the cluster has workers; with none, a
    line on stderr now and then, and after workerless seconds a ValueError."""

    def __init__(self, client: Any, address: str, workerless: float) -> None:
        self.client, self.address, self.workerless = client, address, workerless
        self.since: float | None = None
        self.said = 0.0

    def __call__(self) -> None:
        try:
            workers = self.client.scheduler_info().get("workers", {})
        except Exception:  # the scheduler is gone as well
            workers = {}
        if workers:
            self.since = None
            return
        now = time.monotonic()
        if self.since is None:
            self.since = now
        left = self.workerless - (now - self.since)
        if left <= 0:
            raise ValueError(f"the dask cluster at {self.address} has had no worker for "
                             f"{self.workerless:.0f} s: start workers (dask worker "
                             f"{self.address}) and run the census again; it goes on from its "
                             "table")
        if now - self.said >= 10:
            self.said = now
            print(f"census: no dask worker at {self.address}; waiting {left:.0f} s more for "
                  "one", file=sys.stderr, flush=True)
