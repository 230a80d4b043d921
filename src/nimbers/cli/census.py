"""census: a census of octal games (#27), declared by :mod:`nimbers.games.octal_census.commands`
(its arguments and what it runs live beside the census)."""

from __future__ import annotations

from .options import Commands


def census_commands(commands: Commands) -> None:
    """census [run|verify|report]."""
    from ..games.octal_census import commands as census

    census.add_arguments(commands.add("census", census.SUMMARY, census.EXAMPLE, census.run))
