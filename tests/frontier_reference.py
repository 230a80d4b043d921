"""What the frontier engine's tests compare against, shared by tests/research/test_frontier*.py
(a module of tests/, as oracle.py is, so that every import mode finds it: a test module never
imports another test module)."""

from __future__ import annotations

import functools
import hashlib
import signal

import numpy as np

from nimbers.games import heap_game


@functools.lru_cache(maxsize=None)
def reference(code: str, n: int) -> tuple[np.ndarray, str]:
    """The ordinary engine's values of g(0..n-1) and the SHA-256 of their stored layout
    (one byte a value while every value is below 256, two little-endian bytes after)."""
    values = heap_game(code).nim_values(n, progress=False)
    values.setflags(write=False)  # shared between tests through the cache
    width = 1 if int(values.max()) < 256 else 2
    return values, hashlib.sha256(values.astype(f"<u{width}").tobytes()).hexdigest()


def python_ctrl_c() -> None:
    """In the child before it runs Python: SIGINT as a shell's foreground job has it, whatever
    the suite inherited (nohup pytest & ignores it, and an ignored signal stays ignored
    across exec: the child would never see its Ctrl-C)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
