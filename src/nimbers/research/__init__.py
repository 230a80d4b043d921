"""The research floor: long computations on the games below, sharing one run directory, one
number grammar, one game resolver and one set of statistics in the literature's conventions.

* :mod:`.frontier` -- frontier runs of heap games (bounded memory, checkpoints, proofs);
* :mod:`.census` -- the census of octal games (:func:`census`), deepened in place;

>>> from nimbers.research import frontier_run, census
>>> callable(frontier_run) and callable(census)
True
"""

from .census import census
from .frontier import FrontierStats, frontier_run, frontier_stats, frontier_values

__all__ = ["FrontierStats", "census", "frontier_run", "frontier_stats", "frontier_values"]
