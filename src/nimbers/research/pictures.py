"""The one way the research tools draw: matplotlib's pyplot on its file backend (Agg), an
optional extra (``pip install 'nimbers[plot]'``)."""

from __future__ import annotations

from typing import Any

__all__ = ["pyplot", "save"]


def pyplot() -> Any:
    """matplotlib.pyplot, drawing to files (no display needed).

    Raises
    ------
    ImportError
        matplotlib is not installed (the message says how to install it).

    >>> import os, tempfile
    >>> plt = pyplot()
    >>> fig, ax = plt.subplots()
    >>> _ = ax.plot([1, 2], [3, 4], label="a line")
    >>> with tempfile.TemporaryDirectory() as d:
    ...     save(fig, ax, os.path.join(d, "a.png"))
    ...     os.path.getsize(os.path.join(d, "a.png")) > 1000
    True
    """
    try:
        import matplotlib
    except ImportError:
        raise ImportError("the picture needs matplotlib: pip install 'nimbers[plot]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def save(fig: Any, ax: Any, path: Any) -> None:
    """Finishes a research picture the one way: legend top left, a light grid, tight
    layout, written to path, the figure closed."""
    ax.legend(loc="upper left", fontsize=8)
    ax.grid(True, which="major", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)
    pyplot().close(fig)
