"""Frontier runs: heap games taken to billions of values in bounded memory, checkpointed,
checksummed, their periods proven as they go (see :mod:`.run`)."""

from .run import frontier_run, frontier_stats, frontier_values
from .summary import FrontierStats

__all__ = ["FrontierStats", "frontier_run", "frontier_stats", "frontier_values"]
