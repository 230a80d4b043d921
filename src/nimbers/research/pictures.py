"""The one way the research tools draw: matplotlib's pyplot on its file backend (Agg), an
optional extra (``pip install 'nimbers[plot]'``)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

__all__ = ["label_points", "pyplot", "save"]

#: how far (points) and in which directions a label may sit from its point, nearest first
_REACH = (4.0, 10.0, 18.0, 28.0, 40.0, 56.0, 76.0, 100.0, 130.0)
_DIRECTIONS = 16


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


def save(fig: Any, ax: Any, path: Any,
         labels: Sequence[tuple[float, float, str]] = ()) -> None:
    """Finishes a research picture the one way: legend top left, a light grid, tight
    layout, the labels (x, y, text) placed apart (:func:`label_points`), written to path,
    the figure closed."""
    _lay_out(fig, ax)
    if labels:
        _label(fig, ax, labels)
    fig.savefig(path)
    pyplot().close(fig)


def _lay_out(fig: Any, ax: Any) -> None:
    ax.legend(loc="upper left", fontsize=8)
    ax.grid(True, which="major", alpha=0.3)
    fig.tight_layout()


def label_points(fig: Any, ax: Any, points: Sequence[tuple[float, float, str]],
                 fontsize: float = 7) -> list[Any]:
    """Labels (x, y, text) beside their points, no two overlapping and none over the legend
    or outside the figure: each label, left to right, takes the nearest free place among
    rings of offsets around its point (a thin line joins a label set further off); a label
    with no free place within reach is left out.  Lays the picture out first (legend, grid,
    tight layout), since moving the axes afterwards would move the labels onto each other:
    draw with ``fig.savefig`` after it, or pass the labels to :func:`save` instead.

    Returns the window extents (display boxes) of the labels placed.

    >>> plt = pyplot()
    >>> fig, ax = plt.subplots()
    >>> _ = ax.scatter([1, 1.01, 1.02], [1, 1, 1], label="points")
    >>> boxes = label_points(fig, ax, [(1, 1, "0.16"), (1.01, 1, "0.56"), (1.02, 1, ".127")])
    >>> len(boxes), any(a.overlaps(b) for a in boxes for b in boxes if a is not b)
    (3, False)
    >>> plt.close(fig)
    """
    _lay_out(fig, ax)
    return _label(fig, ax, points, fontsize)


def _label(fig: Any, ax: Any, points: Sequence[tuple[float, float, str]],
           fontsize: float = 7) -> list[Any]:
    """label_points on a picture laid out already."""
    renderer = fig.canvas.get_renderer()
    legend = ax.get_legend()
    taken = [legend.get_window_extent(renderer)] if legend is not None else []
    room = fig.bbox
    placed = []
    for x, y, text in sorted(points, key=lambda p: (p[0], p[1])):
        box = _place(ax, renderer, room, taken, x, y, text, fontsize)
        if box is not None:
            taken.append(box)
            placed.append(box)
    return placed


def _place(ax: Any, renderer: Any, room: Any, taken: list[Any], x: float, y: float,
           text: str, fontsize: float) -> Any:
    """The label's box at the first free offset (the label drawn there), or None.  The
    boxes are reckoned from the text's size measured once, not drawn place by place."""
    from matplotlib.transforms import Bbox
    probe = ax.text(0, 0, text, fontsize=fontsize)
    size = probe.get_window_extent(renderer)
    probe.remove()
    width, height = size.width, size.height
    px, py = ax.transData.transform((x, y))
    scale = ax.figure.dpi / 72.0  # offsets are in points, boxes in pixels
    for reach in _REACH:
        for k in range(_DIRECTIONS):
            angle = 2 * math.pi * k / _DIRECTIONS + math.pi / 4  # up-right first
            dx, dy = reach * math.cos(angle), reach * math.sin(angle)
            x0 = px + dx * scale - (0 if dx >= 0 else width)
            y0 = py + dy * scale - (0 if dy >= 0 else height)
            box = Bbox.from_bounds(x0, y0, width, height)
            inside = room.x0 <= box.x0 and box.x1 <= room.x1 and room.y0 <= box.y0 \
                and box.y1 <= room.y1
            if inside and not any(box.overlaps(other) for other in taken):
                ax.annotate(
                    text, (x, y), xytext=(dx, dy), textcoords="offset points",
                    fontsize=fontsize, ha="left" if dx >= 0 else "right",
                    va="bottom" if dy >= 0 else "top",
                    arrowprops={"arrowstyle": "-", "lw": 0.4, "color": "grey"}
                    if reach > _REACH[1] else None)
                return box
    return None
