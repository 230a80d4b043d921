"""A minimal progress bar on stderr for long computations: shown only when stderr is a
terminal, so piped output and logs stay clean.  (numpy is the one runtime dependency, so no
tqdm.)"""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    """``with Progress(total, "mex table") as bar: bar.update(k)``.

    enabled=None shows the bar when stderr is a terminal and the work is worth a bar."""

    def __init__(self, total: int, desc: str, enabled: bool | None = None,
                 stream: TextIO | None = None, min_total: int = 1) -> None:
        self.stream = stream if stream is not None else sys.stderr
        if enabled is None:
            enabled = total >= min_total and bool(getattr(self.stream, "isatty", lambda: False)())
        self.enabled = enabled
        self.total = max(total, 1)
        self.desc = desc
        self.done = 0
        self._last = 0.0

    def __enter__(self) -> Progress:
        return self

    def update(self, n: int = 1) -> None:
        self.done += n
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self._last >= 0.1 or self.done >= self.total:
            self._last = now
            self._draw()

    def _draw(self) -> None:
        frac = min(self.done / self.total, 1.0)
        width = 30
        filled = int(frac * width)
        bar = "#" * filled + "-" * (width - filled)
        self.stream.write(f"\r{self.desc}: [{bar}] {frac * 100:5.1f}%")
        self.stream.flush()

    def __exit__(self, *exc: object) -> None:
        if self.enabled:
            self._draw()
            self.stream.write("\n")
            self.stream.flush()
