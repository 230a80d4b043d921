"""research.pictures: labels beside their points that never overlap one another, the legend
or the figure's edge, however crowded the points (the census's PNG)."""

import itertools

import pytest

pytest.importorskip("matplotlib")

from matplotlib.text import Text  # noqa: E402

from nimbers.research.pictures import label_points, pyplot  # noqa: E402


def _crowded(n: int) -> list[tuple[float, float, str]]:
    """n points in a tight cluster and a few apart, log-spaced like the census's rows."""
    near = [(1e5 * (1 + 0.002 * i), 10.0 * (1 + 0.003 * i), f"0.{i:03o}") for i in range(n)]
    return near + [(10.0, 1.0, "4.07"), (1e7, 1e4, "0.16")]


def test_crowded_labels_do_not_overlap_each_other_the_legend_or_the_edge():
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(8, 5.5), dpi=110)
    points = _crowded(25)
    ax.scatter([p[0] for p in points], [p[1] for p in points], label="period")
    ax.set_xscale("log")
    ax.set_yscale("log")
    placed = label_points(fig, ax, points)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    legend = ax.get_legend().get_window_extent(renderer)
    # the boxes as drawn (the text alone, not its leader line), not as reckoned
    boxes = [Text.get_window_extent(t, renderer) for t in ax.texts]
    assert len(boxes) == len(placed) >= 15   # the crowd mostly fits in the rings around it
    for a, b in itertools.combinations(boxes, 2):
        assert not a.overlaps(b)
    for box in boxes:
        assert not box.overlaps(legend)
        assert fig.bbox.x0 <= box.x0 and box.x1 <= fig.bbox.x1
        assert fig.bbox.y0 <= box.y0 and box.y1 <= fig.bbox.y1
    plt.close(fig)


def test_a_label_without_room_is_left_out_not_drawn_over_another():
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(1.2, 1.0), dpi=50)
    points = [(1.0, 1.0, f"label {i}") for i in range(40)]
    ax.scatter([1.0], [1.0], label="p")
    boxes = label_points(fig, ax, points)
    assert len(boxes) < len(points)
    texts = [t for t in ax.texts]
    assert len(texts) == len(boxes)
    plt.close(fig)
