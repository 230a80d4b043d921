"""What a frontier run found, in the terms of T. Czajka's and A. Flammenkamp's tables (the
conventions of :mod:`nimbers.games.heap.stats`), and its proof of a period when it has one."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from ...games.heap.stats import mask_name, read_mask_name

__all__ = ["FrontierStats"]


@dataclasses.dataclass(frozen=True)
class FrontierStats:
    """The statistics of a frontier run, the same fields in ``stats.json``, ``--json`` and
    the census.

    heap_sizes: values known, g(0..heap_sizes-1); mask and parity: the sparse space's mask
    (over every bit of the values; with the heap size's parity, T. Czajka's "m+pos"; in JSON
    one field, "mask", written as the tables write it: "1fe", "1+pos"); rare_count: the rare
    heap sizes (heap 0 counted as the tables count it); last_rare: the largest;
    largest and largest_at: the largest value and the first heap size having it; records: how
    many times a new largest value appeared; p_positions: heap sizes of value 0; sha256: of
    the values file's first heap_sizes values (width bytes each), so two runs compare by one
    line.  period, preperiod, proof_bound, proof_sha256, theorem: the period once proven (by
    g(0..proof_bound-1), whose SHA-256 is proof_sha256), else None.  chain: the digests of the
    first 2^k values (None in runs made before it was kept).
    """

    game: str
    code: str
    heap_sizes: int
    width: int
    mask: int
    parity: bool
    rare_count: int
    last_rare: int
    largest: int
    largest_at: int
    records: int
    p_positions: int
    sha256: str
    seconds: float
    values_per_second: float
    threads: int
    period: int | None = None
    preperiod: int | None = None
    proof_bound: int | None = None
    proof_sha256: str | None = None
    theorem: str | None = None
    last_exception: dict[str, int] | None = None
    #: the SHA-256 of g(0 .. 2^k - 1) as little-endian uint32 for 2^12 <= 2^k <= heap_sizes
    #: (:mod:`nimbers.research.certificate`): a re-check may stop at any power of two
    chain: dict[str, str] | None = None

    @property
    def mask_name(self) -> str:
        """The mask as the tables write it ("fe", "1ee", "1+pos")."""
        return mask_name(self.mask << 1 | self.parity)

    @property
    def proven(self) -> bool:
        """Whether the run proved a period."""
        return self.period is not None

    def as_json(self) -> dict[str, Any]:
        """The JSON fields (``stats.json``, ``--json``): the dataclass's, the mask and parity
        as one field written as the tables write it."""
        data = dataclasses.asdict(self)
        data["mask"] = self.mask_name
        del data["parity"]
        return data

    @classmethod
    def from_json(cls, data: Any, where: str) -> FrontierStats:
        """The statistics from their JSON fields, checked for their names and types.

        Raises
        ------
        ValueError
            Missing or unknown fields, or fields of the wrong type.
        """
        fields = {f.name: f for f in dataclasses.fields(cls)}
        if isinstance(data, dict) and "rare" in data and "rare_count" not in data:
            data = {**data, "rare_count": data["rare"]}  # as runs before 0.2 wrote it
            del data["rare"]
        if isinstance(data, dict) and isinstance(data.get("mask"), str) and "parity" not in data:
            data = {**data, **_read_mask(data["mask"], where)}
        if not isinstance(data, dict) or set(data) - set(fields) or \
                any(f.default is dataclasses.MISSING and n not in data
                    for n, f in fields.items()):
            raise ValueError(f"{where}: not the statistics of a frontier run")
        for name in ("heap_sizes", "width", "mask", "rare_count", "last_rare", "largest",
                     "largest_at", "records", "p_positions", "threads"):
            if type(data[name]) is not int:
                raise ValueError(f"{where}: its {name!r} is not an int")
        chain = data.get("chain")
        if chain is not None and not (isinstance(chain, dict) and all(
                isinstance(k, str) and isinstance(v, str) for k, v in chain.items())):
            raise ValueError(f"{where}: its 'chain' is not a table of digests")
        return cls(**data)

    def summary(self) -> str:
        """The statistics as lines of text (what ``nimbers heap --frontier`` prints).

        Returns
        -------
        str

        >>> import tempfile
        >>> from nimbers.research.frontier import frontier_run
        >>> with tempfile.TemporaryDirectory() as run:
        ...     print(frontier_run("0.6", 3000, run, progress=False).summary().splitlines()[2])
        rare mask 6e: 600 rare heap sizes (heap 0 counted), the last at 2995
        """
        threads = f"{self.threads} thread{'s' if self.threads != 1 else ''}"
        lines = [
            f"{self.game}: g(0..{self.heap_sizes - 1}) "
            f"(2^{np.log2(self.heap_sizes):.2f} heap sizes)",
            f"largest value {self.largest}, first at {self.largest_at} "
            f"({self.records} records: see records.csv)",
            f"rare mask {self.mask_name}: {self.rare_count} rare heap sizes (heap 0 counted), the "
            f"last at {self.last_rare}",
            f"P-positions (value 0): {self.p_positions}",
            f"{self.values_per_second:,.0f} values/s over {self.seconds:.1f} s on {threads}",
            f"SHA-256 of the values ({self.width} byte{'s' if self.width > 1 else ''} each, "
            f"little endian): {self.sha256}"]
        if self.period is not None:
            lines.append(self._proof_line())
        return "\n".join(lines)

    def _proof_line(self) -> str:
        text = (f"period {self.period} from heap {self.preperiod}, proven by {self.theorem} "
                f"from g(0..{(self.proof_bound or 0) - 1}) (SHA-256 {self.proof_sha256})")
        last = self.last_exception
        if last:
            text += (f"; the last exception is at n = {last['n']}: g = {last['g']}, "
                     f"g(n + {self.period}) = {last['g_plus_period']}")
        return text


def _read_mask(name: str, where: str) -> dict[str, Any]:
    """The mask and parity of a mask written as the tables write it ("1fe", "1+pos")."""
    try:
        emask = read_mask_name(name)
    except ValueError as exc:
        raise ValueError(f"{where}: {exc}") from None
    return {"mask": emask >> 1, "parity": bool(emask & 1)}
