"""A picture of a frontier run for a talk or a paper: g(n) against n on a log axis (the range
of the values over each of a few thousand stretches of heap sizes, so 2^32 values draw in
seconds), the rare heap sizes marked, and the records (each new largest value) as a
staircase.  Needs matplotlib (``pip install 'nimbers[plot]'``).

>>> import tempfile, os
>>> from nimbers.research.frontier import frontier_run
>>> with tempfile.TemporaryDirectory() as run:
...     _ = frontier_run("grundy", 5000, run, progress=False)
...     frontier_picture(run, os.path.join(run, "grundy.png"))
...     os.path.getsize(os.path.join(run, "grundy.png")) > 10_000
True
"""

from __future__ import annotations

import csv
import os
from pathlib import Path

import numpy as np

from ..pictures import pyplot, save
from .run import frontier_stats, frontier_values
from .store import RARE, RECORDS

__all__ = ["frontier_picture"]

_BINS = 2000


def _read_pairs(path: Path) -> tuple[list[int], list[int]]:
    with open(path, encoding="utf-8") as f:
        rows = list(csv.reader(f))[1:]
    return [int(r[0]) for r in rows], [int(r[1]) for r in rows]


def _envelope(values: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Over log-spaced stretches of heap sizes 1 .. n-1: where each starts, the least and the
    largest value in it (read stretch by stretch from the memory map)."""
    n = len(values)
    edges = np.unique(np.geomspace(1, n, _BINS + 1).astype(np.int64))
    lows, highs = [], []
    for a, b in zip(edges[:-1], edges[1:]):
        piece = np.asarray(values[a:b])
        lows.append(int(piece.min()))
        highs.append(int(piece.max()))
    return edges[:-1], np.array(lows), np.array(highs)


def frontier_picture(checkpoint: str | os.PathLike[str], path: str | os.PathLike[str]) -> None:
    """Draws the run in the directory checkpoint as a PNG at path.

    Parameters
    ----------
    checkpoint : path
        A frontier run's directory (its values, rare.csv and records.csv are read).
    path : path
        Where the PNG goes.

    Raises
    ------
    ImportError
        matplotlib is not installed.
    ValueError
        Not a frontier run.
    """
    plt = pyplot()
    folder = Path(checkpoint)
    stats = frontier_stats(folder)
    starts, lows, highs = _envelope(frontier_values(folder))
    rare_n, rare_g = _read_pairs(folder / RARE)
    rec_n, rec_g = _read_pairs(folder / RECORDS)
    fig, ax = plt.subplots(figsize=(9, 5.5), dpi=110)
    ax.fill_between(starts, lows, highs, step="post", color="#9ab", alpha=0.6,
                    label="g(n): least to largest over each stretch")
    rare = [(n, g) for n, g in zip(rare_n, rare_g) if n >= 1]
    ax.scatter([n for n, _ in rare], [g for _, g in rare], s=6, color="#c33", zorder=3,
               label=f"rare heap sizes ({stats.rare_count}, mask {stats.mask_name})")
    ax.step([max(n, 1) for n in rec_n] + [stats.heap_sizes], rec_g + rec_g[-1:], where="post",
            color="#222", lw=1.2, label=f"records ({stats.records})")
    ax.set_xscale("log")
    ax.set_xlabel("heap size n")
    ax.set_ylabel("Grundy value g(n)")
    proof = (f"; period {stats.period} from {stats.preperiod}, proven" if stats.proven else "")
    ax.set_title(f"{stats.game}: g(0..{stats.heap_sizes - 1}){proof}")
    save(fig, ax, path)
