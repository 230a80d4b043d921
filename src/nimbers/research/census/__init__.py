"""A census of octal games: every code with up to K digits, grouped into classes of the same
game, each taken level by level to a depth or proven periodic, on this machine's cores or a
dask cluster; a table that survives kill -9 and deepens in place, a verifier independent of the
run, and a report and exports comparable to the published tables (A. Flammenkamp's,
T. Czajka's octal-games).

* :mod:`.classes` -- the codes, the standard form of a class, dead heap sizes;
* :mod:`.depth` -- one code to one depth: the engine that fits it, its proof, its statistics;
* :mod:`.compute` -- one task: a survey of codes, or one class to one depth;
* :mod:`.run` -- the schedule by depth (:func:`census`, :func:`deepen`);
* :mod:`.pool` -- the process pool (workers that end with the census) or a dask cluster;
* :mod:`.table` -- the append-only table DIR/census.jsonl;
* :mod:`.schema` -- what a row may say, field by field;
* :mod:`.verify` -- :func:`verify_census`, every row re-checked from scratch;
* :mod:`.report` -- :func:`census_report`, counts, the frontier games and a plot;
* :mod:`.lists` -- an open class's rare and record values, for a results folder.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as d:
...     rows = census(codes=[".77", ".16"], out=d, workers=1, until=1 << 14, progress=False)
>>> [(r["code"], r["class"], r["period"], r["reached"]) for r in rows]
[('0.16', 'single', None, 16384), ('0.77', 'single', 12, 168)]
"""

from .run import census, deepen

__all__ = ["census", "deepen"]
