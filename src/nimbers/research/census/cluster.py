"""A census on a dask distributed cluster: the scheduler a user started (``dask scheduler``,
``dask worker tcp://HOST:PORT``), reached through distributed's concurrent.futures executor,
so the schedule runs unchanged.  Imported only when a scheduler address is given: the core
never needs dask.
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
from typing import Any, Iterator

__all__ = ["dask_executor", "CONNECT_SECONDS"]

#: how long to try to reach the scheduler, and then to wait for a first worker
CONNECT_SECONDS = 10


@contextlib.contextmanager
def dask_executor(address: str) -> Iterator[tuple[cf.Executor, int]]:
    """The executor of a distributed Client connected to address, and the number of
    threads of its workers.

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
        yield pool, max(1, threads)
    finally:
        client.close()
