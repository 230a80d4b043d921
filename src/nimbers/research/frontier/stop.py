"""Ctrl-C in a frontier run (:mod:`.run`): at every instant it ends with a checkpoint.

Python raises KeyboardInterrupt wherever the main thread happens to be: in the middle of
appending values to the file, of updating their checksum, of writing a checkpoint.  A run
stopped there has no consistent state to save, so while it runs, Ctrl-C only asks it to stop
(:class:`Interrupts`); the run looks between its steps, checkpoints, and raises
KeyboardInterrupt itself.  Inside the C engine's steps, which look for Ctrl-C every 20 ms
and keep what they made, the request raises at once as before.  Where no handler can be set
(a thread other than the main one, SIGINT ignored or handled by the caller), nothing
changes.

>>> with Interrupts() as stop:
...     stop.asked
False
"""

from __future__ import annotations

import contextlib
import signal
import threading
from types import FrameType
from typing import Any, Iterator

__all__ = ["Interrupts"]


class Interrupts:
    """``with Interrupts() as stop:`` Ctrl-C sets ``stop.asked``; it raises KeyboardInterrupt
    only within ``with stop.engine():`` (a call that stops cleanly on it)."""

    def __init__(self) -> None:
        self.asked = False
        self._in_engine = False
        self._before: Any = None

    def __enter__(self) -> Interrupts:
        if threading.current_thread() is threading.main_thread() and \
                signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            self._before = signal.signal(signal.SIGINT, self._handler)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._before is not None:
            signal.signal(signal.SIGINT, self._before)
            self._before = None

    def _handler(self, signum: int, frame: FrameType | None) -> None:
        self.asked = True
        if self._in_engine:
            raise KeyboardInterrupt

    @contextlib.contextmanager
    def engine(self) -> Iterator[None]:
        """A block where Ctrl-C raises KeyboardInterrupt at once (also when it came just
        before: the block is then not begun)."""
        self._in_engine = True
        try:
            if self.asked:
                raise KeyboardInterrupt
            yield
        finally:
            self._in_engine = False
