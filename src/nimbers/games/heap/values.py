"""The values of one heap game: the store of g(0 .. known-1), the driver of the C engine
(csrc/core/heap.c) that extends it, and the search that extends it until a period is proven.

The store keeps the values in the smallest unsigned dtype that holds them, grows by half again
at least (so extending step by step stays linear) and refuses before allocating past the memory
cap (:mod:`nimbers._limits`).  Once a period is proven, any heap size is answered from it.

>>> store = HeapValues("Kayles", (0, 7, 7), "octal")
>>> store.values(12).tolist()
[0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]
>>> store.find_period(4096)
Periodicity(period=12, preperiod=71, proven=True, checked_up_to=...)
>>> store.value(10**30) == store.value(76)      # 10^30 = 76 (mod 12), both past 71
True
"""

from __future__ import annotations

import contextlib
import time
from typing import Sequence

import numpy as np

from ... import _core
from ..._progress import Progress
from ._args import check_memory, count, heap_size
from .periodicity import Periodicity, ProofRule, arithmetic_period, offered, proof, proof_rule

__all__ = ["HeapValues", "METHODS"]

#: the engine's methods: the cheaper of the two per heap size, every split, the rare values
METHODS = {"auto": 0, "exact": 1, "sparse": 2}


class HeapValues:
    """g(0 .. known-1) of one ruleset (its digit list, None for Grundy's game), extended by the
    C engine on demand; proven: the period once a theorem proves it."""

    def __init__(self, name: str, rules: Sequence[int] | None, kind: str) -> None:
        self.name = name
        self.rules = tuple(rules) if rules is not None else None
        self.kind = kind
        self.g = np.zeros(1, dtype=np.uint8)  # g(0) = 0; capacity may exceed known
        self.known = 1
        self.proven: Periodicity | None = None
        self.chunk = 1 << 14  # heap sizes per call of the engine, adapted to take ~1 s
        #: what the engine used in its last call (mask, parity, rare, sparse and exact counts)
        self.last_run: dict[str, int] = {}

    @property
    def three_heap_splits(self) -> bool:
        return any(d & 8 for d in self.rules or ())

    def proof_rule(self) -> ProofRule | None:
        return proof_rule(self.rules, self.kind)

    # -- reading --
    def values(self, n: int, progress: bool | None = None, method: str = "auto",
               mask: int | None = None) -> np.ndarray:
        """g(0), ..., g(n-1): computed (proving a period on the way when a theorem can), then
        from the period past what was computed."""
        n = count(n)
        if n > self.known and self.proven is None:
            self.compute(n, progress, method, mask, prove=True)
        if n > self.known and self.proven is not None:
            return self._by_period(n)
        return self.g[:n].copy()

    def value(self, heap: int) -> int:
        """The Grundy value of one heap: any size once a period is proven (a heap beyond the
        engine's 2^32 first looks for that proof)."""
        heap = heap_size(heap)
        if heap >= self.known and self.proven is None:
            if heap >= 2**32 and self.proof_rule() is not None:
                self.find_period()  # beyond the engine: only a proven period can answer
            if self.proven is None:
                self.compute(heap + 1, None, prove=True)
        if heap >= self.known:
            period, preperiod = self._period()
            return int(self.g[preperiod + (heap - preperiod) % period])
        return int(self.g[heap])

    def _period(self) -> tuple[int, int]:
        per = self.proven
        assert per is not None and per.period is not None and per.preperiod is not None
        return per.period, per.preperiod

    def _by_period(self, n: int) -> np.ndarray:
        """g(0..n-1) from the proven period."""
        period, preperiod = self._period()
        check_memory(n * self.g.itemsize, f"{n:,} values of {self.name}")
        out = np.empty(n, dtype=self.g.dtype)
        known = min(self.known, n)
        out[:known] = self.g[:known]
        # the period from heap `known` on, then copies of what is filled, doubling: no
        # temporary array of n indices (8 bytes a value where the values take 1)
        start = preperiod + (known - preperiod) % period
        first = min(period, n - known)
        cycle = self.g[start:start + period]
        out[known:known + first] = np.concatenate((cycle, self.g[preperiod:start]))[:first]
        filled = first
        while known + filled < n:
            more = min(filled, n - known - filled)
            out[known + filled:known + filled + more] = out[known:known + more]
            filled += more
        return out

    # -- the engine --
    def compute(self, n: int, progress: bool | None, method: str = "auto",
                mask: int | None = None, prove: bool = False,
                bar: Progress | None = None) -> None:
        """Computes the values up to n; with prove, stops early once the values so far
        prove a period (checked between calls of the engine).  bar: a progress bar to
        advance instead of a new one."""
        if n <= self.known:
            return
        rule = self.proof_rule() if prove else None
        engine_mask = _engine_mask(method, mask)
        if n >= 2**32:
            way = ("prove a period (period()) to answer larger heaps from it"
                   if self.proof_rule() is not None else
                   "and no theorem proves a period of this game to answer them from")
            raise ValueError(f"{n} values exceed the engine's 2^32 heap sizes: {way}")
        self.reserve(n)
        own = bar is None
        if bar is None:
            bar = Progress(n - self.known, f"{self.name} Grundy values", enabled=progress,
                           min_total=20000)
        with bar if own else contextlib.nullcontext(bar):
            self._run_engine(n, METHODS[method], engine_mask, rule, bar)

    def _run_engine(self, n: int, method: int, engine_mask: int, rule: ProofRule | None,
                    bar: Progress) -> None:
        # each call of the engine starts by reading the values so far (a few ns each):
        # calls of about a second, and never much shorter than that reading
        chunk = max(self.chunk, self.known // 16)
        while self.known < n:
            stop = min(n, self.known + chunk)
            began = time.monotonic()
            reached, used, rare, sparse, exact = _core.heap_extend(
                self.rules, self.g, self.known, stop, engine_mask, method)
            bar.update(reached - self.known)
            self.known = reached
            self.last_run = {"mask": used >> 1, "parity": used & 1, "rare": rare,
                             "sparse_positions": sparse, "exact_positions": exact}
            if reached < stop:  # the next value needs a wider dtype
                self._widen()
                continue
            if rule is not None and self.known < n:
                found = _core.heap_period(self.g, self.known, self.known, *rule[0])
                if found is not None:
                    self.proven = proof(found, rule)
                    return
            elapsed = time.monotonic() - began
            if elapsed < 0.5:
                chunk *= 2
            elif elapsed > 2 and chunk > 1 << 14:
                chunk //= 2
            self.chunk = chunk

    def reserve(self, n: int) -> None:
        """Room for n values, growing by half again at least (extending step by step stays
        linear); refused before allocating when it cannot fit in memory."""
        if n <= len(self.g):
            return
        size = max(n, len(self.g) + len(self.g) // 2)
        itemsize = self.g.dtype.itemsize
        check_memory(size * itemsize + self.known * itemsize, f"{size:,} values of "
                     f"{self.name} ({itemsize} byte{'s' if itemsize > 1 else ''} each)")
        g = np.zeros(size, dtype=self.g.dtype)
        g[: self.known] = self.g[: self.known]
        self.g = g

    def _widen(self) -> None:
        wider = {np.dtype(np.uint8): np.uint16, np.dtype(np.uint16): np.uint32}
        if self.g.dtype not in wider:
            raise ValueError(f"{self.name}: a Grundy value above 2^32 - 1")
        itemsize = np.dtype(wider[self.g.dtype]).itemsize
        check_memory(len(self.g) * itemsize, f"{len(self.g):,} values of {self.name} "
                     f"({itemsize} bytes each)")
        self.g = self.g.astype(wider[self.g.dtype])

    # -- the period --
    def find_period(self, max_n: int | None = None, progress: bool | None = None
                    ) -> Periodicity:
        """The proven period, computing as far as its proof needs (at most max_n values:
        default 2^20, 2^11 with three-heap splits); else the apparent one, not proven."""
        if max_n is None:  # a three-heap split costs n^2 per heap size
            max_n = 1 << 11 if self.three_heap_splits else 1 << 20
        max_n = count(max_n)
        if self.proven is not None:
            return self.proven
        n = min(max_n, max(self.known, 64))
        with Progress(max_n, f"{self.name}: period search up to n = {max_n}", enabled=progress,
                      min_total=1 << 20) as bar:
            bar.update(self.known)
            found = self._period_search(n, max_n, self.proof_rule(), bar)
            bar.update(bar.total - bar.done)  # the search is over, proven or not
            return found

    def _period_search(self, n: int, max_n: int, rule: ProofRule | None,
                       bar: Progress) -> Periodicity:
        while True:
            self.compute(n, None, bar=bar)
            g = self.g
            if rule is not None:
                found = _core.heap_period(g, n, n, *rule[0])
                if found is not None:
                    self.proven = proof(found, rule)
                    return self.proven
            seen = _core.heap_period(g, n, n, 1, 3, 0, 0)  # the tail shows it twice
            if n >= max_n:
                return self._apparent(seen, n)
            step = int(n * 1.25) + 1
            target = None
            if rule is not None:
                # a period whose proof needs at most step values repeats on 3/8 of them
                glimpse = _core.heap_period(g, n, n, 1, 1, 3 * n // 8, 0)
                if glimpse is not None:
                    a, b, c, floor = rule[0]
                    target = a * max(glimpse[1], floor) + b * glimpse[0] + c
            n = min(max_n, target if target is not None and n < target <= step else step)

    def _apparent(self, seen: tuple[int, int] | None, n: int) -> Periodicity:
        """What the first n values show, not proven: a period seen twice in the tail, or an
        arithmetic period (three-heap splits), or none."""
        if seen is not None and offered(seen, n):
            return Periodicity(seen[0], seen[1], False, n)
        if self.three_heap_splits:
            arithmetic = arithmetic_period(self.g[:n])
            if arithmetic is not None:
                return Periodicity(arithmetic[0], arithmetic[1], False, n, saltus=arithmetic[2])
        return Periodicity(None, None, False, n, glimpse=seen)


def _engine_mask(method: str, mask: int | None) -> int:
    """The engine's mask argument (the value mask shifted past the parity bit; -1: choose)."""
    if method not in METHODS:
        raise ValueError(f"method is 'auto', 'exact' or 'sparse', not {method!r}")
    if mask is not None and (isinstance(mask, bool) or not isinstance(mask, (int, np.integer))
                             or not 0 < mask < 2**31):
        raise ValueError(f"a mask is an int in 1 .. 2^31 - 1, got {mask!r}")
    return -1 if mask is None else int(mask) << 1
