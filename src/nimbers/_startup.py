"""What the ``nimbers`` command sets before the package imports numpy.

*Ctrl-C while the command starts up ends it quietly.*

Importing numpy and the C core takes a good part of a second; a Ctrl-C in that time would
print a traceback from deep inside an import (numpy even rewraps it as an ``ImportError``).
When this process *is* the command (``python -m nimbers`` or the ``nimbers`` console
script), the package leaves SIGINT at the operating system's default while it imports, so a
Ctrl-C ends the process at once with no output (a shell reports status 130), as it does for
any compiled tool; :func:`restore` hands SIGINT back to Python as soon as the command's
``main`` runs, where a Ctrl-C prints one line and exits with 130.  A program that merely
imports nimbers is left alone: a library does not change its signal handling.

Python's own start-up (before the first line of the package runs) is out of our reach.

*No BLAS threads.*  numpy's OpenBLAS starts a thread for each core when it loads, and they
spin for a while before they sleep: 0.1-0.17 s of CPU at every start of the command on a
2-core machine (``nimbers --version``: 0.40 s of user CPU, 0.26 s without them), taken from
the cores a frontier run's threads are about to use.  nimbers does no floating-point linear
algebra, so the command sets ``OPENBLAS_NUM_THREADS=1`` unless it is set already.  A program
that merely imports nimbers is left alone here too.
"""

from __future__ import annotations

import os
import signal
import sys

__all__ = ["restore"]


def _is_the_command() -> bool:
    """True for ``python [options] -m nimbers ...`` and for the ``nimbers`` console script."""
    orig = list(getattr(sys, "orig_argv", []))
    if "-m" in orig and orig[orig.index("-m") + 1:][:1] == ["nimbers"]:
        return True
    script = sys.argv[0] if getattr(sys, "argv", None) else ""
    return os.path.splitext(os.path.basename(script))[0] == "nimbers"


def _quiet_start() -> bool:
    if not _is_the_command() or signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        return False  # an ignored or custom SIGINT handler stays as the caller set it
    try:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
    except ValueError:  # not the main thread: nothing to do
        return False
    return True


_quieted = _quiet_start()
if _is_the_command():  # (numpy is not loaded yet: nimbers imports this module first)
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def restore() -> None:
    """Python's Ctrl-C again (``KeyboardInterrupt``), if the start-up had quieted it."""
    global _quieted
    if _quieted and signal.getsignal(signal.SIGINT) is signal.SIG_DFL:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    _quieted = False
