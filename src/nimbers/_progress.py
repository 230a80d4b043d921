"""Progress bars for long computations, on a terminal and in Jupyter.

Every long computation takes ``progress=``:

- ``None`` (the default): a bar when someone is watching -- stderr is a terminal, or the
  code runs in a Jupyter kernel -- and the work is big enough to be worth one;
- ``True`` or ``False``: always or never;
- a tqdm-like class (``tqdm.tqdm``, ``tqdm.notebook.tqdm``, ``rich.progress.tqdm`` ...):
  called as ``cls(total=..., desc=...)``, then ``update(n)`` and ``close()``.

In a Jupyter kernel with ``tqdm`` installed the default bar is ``tqdm.auto.tqdm`` (a widget);
otherwise it is drawn in text with carriage returns, which terminals and notebooks both
honour.  (numpy is the one runtime dependency: tqdm is used when present, never required.)
"""

from __future__ import annotations

import sys
import time
from typing import Any, Protocol, TextIO, Union


class TqdmLike(Protocol):
    """What a progress class must offer: ``cls(total=, desc=)``, ``update(n)``, ``close()``."""

    def update(self, n: int = ...) -> Any: ...
    def close(self) -> Any: ...


#: The type of every ``progress=`` argument.
ProgressOption = Union[bool, None, type, Any]


def in_notebook() -> bool:
    """True inside a Jupyter kernel (where stderr is no terminal, but a person watches)."""
    shell = sys.modules.get("IPython")
    if shell is None or "ipykernel" not in sys.modules:
        return False
    try:
        ip = shell.get_ipython()
    except AttributeError:
        return False
    return ip is not None and type(ip).__name__ == "ZMQInteractiveShell"


def watched(stream: TextIO) -> bool:
    """Whether someone watches stream: a terminal, or a Jupyter kernel's output."""
    return bool(getattr(stream, "isatty", lambda: False)()) or in_notebook()


def _notebook_tqdm() -> Any:
    try:
        from tqdm.auto import tqdm  # type: ignore[import-untyped,unused-ignore]
    except ImportError:
        return None
    return tqdm


class Progress:
    """``with Progress(total, "mex table", enabled=progress) as bar: bar.update(k)``.

    ``enabled`` is a ``progress=`` option (see the module docstring); with ``None`` the bar
    shows when someone is watching and ``total >= min_total``."""

    def __init__(self, total: int, desc: str, enabled: ProgressOption = None,
                 stream: TextIO | None = None, min_total: int = 1, *,
                 log_every: float | None = None, unit: str = "", start: int = 0) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.total = max(total, 1)
        self.desc = desc
        self.unit = unit
        self.done = self._start = start  # work done before (a resumed run): not in the rate
        self._began = time.monotonic()
        self._last = 0.0
        self._external: Any = None
        #: plain lines every log_every seconds when nobody watches (output sent to a file)
        self.log_every = None
        if enabled is None:
            someone = watched(self.stream)
            if not someone and log_every is not None and total >= min_total:
                self.log_every = float(log_every)
                self._last = self._began
            enabled = total >= min_total and someone
            if enabled and in_notebook() and stream is None:
                factory = _notebook_tqdm()
                if factory is not None:
                    self._external = factory(total=total, desc=desc)
        elif not isinstance(enabled, bool):
            if not callable(enabled):
                raise TypeError("progress is True, False, None or a tqdm-like class, "
                                f"not {type(enabled).__name__}")
            self._external = enabled(total=total, desc=desc)
            enabled = True
        self.enabled = bool(enabled)
        if self._external is not None and start:
            self._external.update(start)

    def __enter__(self) -> Progress:
        return self

    def update(self, n: int = 1) -> None:
        self.done += n
        if self._external is not None:
            self._external.update(n)
            return
        now = time.monotonic()
        if self.log_every is not None and now - self._last >= self.log_every:
            self._last = now
            self.stream.write(f"{time.strftime('%Y-%m-%d %H:%M:%S')} {self.desc}: "
                              f"{self.status()}\n")
            self.stream.flush()
        if not self.enabled:
            return
        if now - self._last >= 0.1 or self.done >= self.total:
            self._last = now
            self._draw()

    def status(self) -> str:
        """How far the work is, its rate and the time left, in words: "1,048,576 of
        4,194,304 heap sizes (25.0%), 812,345/s, about 4 s left"."""
        took = time.monotonic() - self._began
        rate = (self.done - self._start) / took if took > 0 else 0.0
        unit = f" {self.unit}" if self.unit else ""
        text = f"{self.done:,} of {self.total:,}{unit} ({min(self.done / self.total, 1) * 100:.1f}%)"
        if rate > 0:
            left = max(self.total - self.done, 0) / rate
            text += f", {rate:,.0f}/s, about {_duration(left)} left"
        return text

    def _draw(self) -> None:
        frac = min(self.done / self.total, 1.0)
        width = 20
        filled = int(frac * width)
        bar = "#" * filled + "-" * (width - filled)
        self.stream.write(f"\r{self.desc}: [{bar}] {self.status()}\x1b[K")
        self.stream.flush()

    def __exit__(self, *exc: object) -> None:
        if self._external is not None:
            self._external.close()
        elif self.enabled:
            self._draw()
            self.stream.write("\n")
            self.stream.flush()


def _duration(seconds: float) -> str:
    """A time left as people say it: 42 s, 3 min 5 s, 2 h 10 min, 3 d 4 h."""
    s = int(seconds)
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60} s"
    if s < 86400:
        return f"{s // 3600} h {s % 3600 // 60} min"
    return f"{s // 86400} d {s % 86400 // 3600} h"
