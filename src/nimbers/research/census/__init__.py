"""A census of octal games: every code with up to K digits, grouped into classes of the same
game, each proven periodic or taken as deep as a time budget allows, on this machine's cores
or a dask cluster; a table that survives kill -9, a verifier independent of the run, and a
report comparable to the published tables (A. Flammenkamp's, T. Czajka's octal-games).

* :mod:`.classes` -- the codes, the standard form of a class, dead heap sizes;
* :mod:`.compute` -- one task: a survey of codes, or one class solved within its time;
* :mod:`.run` -- the schedule (:func:`census`) on a process pool or a dask cluster;
* :mod:`.table` -- the append-only table DIR/census.jsonl;
* :mod:`.verify` -- :func:`verify_census`, every row re-checked from scratch;
* :mod:`.report` -- :func:`census_report`, counts, the frontier games and a plot.
"""

from .run import census

__all__ = ["census"]
