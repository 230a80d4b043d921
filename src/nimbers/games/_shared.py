"""Game objects shared between threads and processes.

A game grows tables and memos as it is asked.  Methods marked :func:`synchronized` hold the
object's own re-entrant lock (and its ``memory_limit``, see :mod:`nimbers._limits`) while
they do, so that threads sharing one object get the sequential answers and compute each
value once.  The lock is made on first use and left out of pickles, so games go through
``multiprocessing`` and ``concurrent.futures`` process pools.

>>> import pickle
>>> from nimbers.games import octal_game
>>> kayles = octal_game("0.77")
>>> pickle.loads(pickle.dumps(kayles)).nim_value([3, 4])
2
"""

from __future__ import annotations

import functools
import threading
from typing import Any, Callable, TypeVar

from .._limits import memory_limit, time_limit

__all__ = ["Shareable", "synchronized"]

_F = TypeVar("_F", bound=Callable[..., Any])
#: guards the creation of each object's own lock
_LOCK_GUARD = threading.Lock()


class Shareable:
    """Game objects shared between threads and sent to other processes.

    A game grows tables and memos as it is asked; methods marked :func:`synchronized`
    hold the object's own re-entrant lock while they do, so that threads sharing one object
    get the sequential answers and compute each value once.  The lock is made on first use
    and left out of pickles (a process pool gets a fresh one).
    """

    def _shared_lock(self) -> threading.RLock:
        lock: threading.RLock | None = self.__dict__.get("_lock")
        if lock is None:
            with _LOCK_GUARD:
                lock = self.__dict__.setdefault("_lock", threading.RLock())
        return lock

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state.pop("_lock", None)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)


def synchronized(method: _F) -> _F:
    """A method of a :class:`Shareable` run under the object's lock, and under its
    ``memory_limit`` and ``time_limit`` attributes when it has them (see
    :mod:`nimbers._limits`)."""

    @functools.wraps(method)
    def locked(self: Shareable, *args: Any, **kwargs: Any) -> Any:
        with self._shared_lock(), memory_limit(getattr(self, "memory_limit", None)), \
                time_limit(getattr(self, "time_limit", None)):
            return method(self, *args, **kwargs)

    return locked  # type: ignore[return-value]  # same signature: functools.wraps
