"""The one way the research tools draw: matplotlib's pyplot on its file backend (Agg), an
optional extra (``pip install 'nimbers[plot]'``)."""

from __future__ import annotations

from typing import Any

__all__ = ["pyplot"]


def pyplot() -> Any:
    """matplotlib.pyplot, drawing to files (no display needed).

    Raises
    ------
    ImportError
        matplotlib is not installed (the message says how to install it).

    >>> plt = pyplot()
    >>> fig, ax = plt.subplots()
    >>> plt.close(fig)
    """
    try:
        import matplotlib
    except ImportError:
        raise ImportError("the picture needs matplotlib: pip install 'nimbers[plot]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt
