"""Misère play of heap games: the misère Grundy value G- and the genus of a position (Winning
Ways ch. 12-13; ONAG ch. 12), by the tame rule where every heap is tame, else by a search of
the positions below it (bounded: at most MISERE_SEARCH_TOKENS tokens in heaps with a move).

A misère *outcome* (``is_losing``, ``winning_move``) past the search's bound is answered from
a misère quotient (Plambeck and Siegel; :mod:`nimbers.games.quotient`) for heaps up to the
largest, computed within the time cap (:func:`nimbers._limits.time_cap`) and kept for later
questions; only when that quotient cannot be computed is the question refused, saying why.

>>> from nimbers.games.heap import octal_game
>>> octal_game("0.07").is_losing([13, 12, 11, 10], misere=True)   # 46 tokens: by a quotient
True
"""

from __future__ import annotations

import math
from typing import Any, Hashable, Iterator, Sequence

from ..._limits import describe_seconds, time_cap
from ..misere import ZERO_GENUS, Genus, genus_of, is_tame_genus, tame_sum
from ..vocabulary import MisereByEngine, synchronized
from ._args import count, heaps_of

__all__ = ["HeapMisere", "MISERE_SEARCH_TOKENS", "QUOTIENT_MAX_HEAP"]

#: the most tokens (in heaps that allow a move) a misère search takes on
MISERE_SEARCH_TOKENS = 40
#: the largest heap a misère quotient is computed for (misere_quotient's own bound)
QUOTIENT_MAX_HEAP = 100_000
#: heaps^3 a second, a quotient's work up to a heap: measured 2.6-2.8 million for 0.77 and
#: 0.75 to heaps 200 and 400 (3 and 23 s, on a 2-core machine); four times that here, so
#: that a refusal before the work is a lower bound of its time
QUOTIENT_RATE = 1e7
#: a heap past the search's reach is answered when a search this far, this long, closes the
#: whole game's quotient (0.75 closes at heap 21 in 0.1 s; a refusal costs at most this)
WHOLE_PROBE_HEAP = 200
WHOLE_PROBE_SECONDS = 5.0


class HeapMisere(MisereByEngine):
    """The misère half of :class:`~nimbers.games.heap.HeapGame`: what it answers under the
    misère rule, from the heap moves its ruleset gives (heap_moves)."""

    name: str

    def __init__(self) -> None:
        self._misere_cache: dict[Hashable, int] = {}
        self._genus_cache: dict[Any, Any] = {}
        self._genera: list[Genus] = []

    def heap_moves(self, heap: int) -> Iterator[tuple[int, tuple[int, ...]]]:
        raise NotImplementedError

    # -- misère quotients (nimbers.games.quotient): outcomes of sums at once --
    def misere_quotient(self, n: int, **limits: Any) -> Any:
        """The misère quotient for heaps up to n (see nimbers.games.misere_quotient), kept:
        misère is_losing and winning_move then answer from it, one product per heap."""
        from ..quotient import misere_quotient
        q = misere_quotient(self, n, **limits)
        self._quotient = q
        self.__dict__.pop("_quotient_failure", None)
        return q

    def use_quotient(self, q: Any) -> None:
        """Answer misère outcomes from q (a MisereQuotient, computed or loaded) after
        proving it against this game; ValueError when it does not prove."""
        from ..quotient import MisereQuotient, proves
        if not isinstance(q, MisereQuotient):
            raise TypeError(f"use_quotient takes a MisereQuotient, not {type(q).__name__}")
        if not proves(q, self):
            raise ValueError(f"this quotient does not say the misère outcomes of {self.name}"
                             f" (made for {q.code})")
        self._quotient = q

    def _quotient_for(self, position: Any) -> Any:
        q = getattr(self, "_quotient", None)
        if q is None or not all(q.covers(h) for h in heaps_of(position)):
            return None
        return q

    def _outcome_quotient(self, position: Any) -> Any:
        """The misère quotient that answers this position's outcome: the one kept, when it
        covers the heaps; else, when neither the tame rule nor the search may answer (more
        than MISERE_SEARCH_TOKENS tokens), one computed for heaps up to the largest; None
        when the tame rule or the search answers.  ValueError when no quotient can be
        computed (the message says why)."""
        q = self._quotient_for(position)
        if q is not None or self._tame_genus(position) is not None:
            return q
        heaps = self._canonical(position)
        if sum(heaps) <= MISERE_SEARCH_TOKENS:
            return None
        return self._computed_quotient(heaps[-1], sum(heaps))

    @synchronized
    def _computed_quotient(self, top: int, tokens: int) -> Any:
        """A misère quotient proved for heaps up to top, computed within the time cap and
        kept; ValueError, naming the search's bound and the quotient's failure, else.  A
        failure is remembered: a heap as large, under a cap no longer, fails at once."""
        q = self._quotient_for([top])
        if q is not None:
            return q
        cap = time_cap()
        failed = getattr(self, "_quotient_failure", None)
        if failed is not None and top >= failed[0] and cap <= failed[1]:
            why = failed[2]
        elif top > QUOTIENT_MAX_HEAP or top**3 / QUOTIENT_RATE > cap:
            why = (f"the quotient search takes heaps up to {QUOTIENT_MAX_HEAP:,}"
                   if top > QUOTIENT_MAX_HEAP else
                   f"it would take about {describe_seconds(top**3 / QUOTIENT_RATE)}, over the "
                   f"time cap of {describe_seconds(cap)}")
            q = self._whole_probe(cap)
            if q is not None:
                return q
            kept = getattr(self, "_quotient", None)
            why += (f"; nor is Q_n the whole game's quotient by heap {kept.max_heap}"
                    if kept is not None else "; nor can the periodicity theorem close it")
            self._quotient_failure = (top, cap, why)
        else:
            from ..quotient import misere_quotient
            q = misere_quotient(self, top, time_limit=cap)
            self._keep_quotient(q)
            if q.covers(top):
                return q
            why = f"it gave up at {q.gave_up}"
            self._quotient_failure = (top, cap, why)
        raise ValueError(self._search_refusal(tokens) + f"; a misère quotient for heaps up to "
                         f"{top:,} could not answer instead: {why}")

    def _whole_probe(self, cap: float) -> Any:
        """The whole game's quotient when a short search closes it (the periodicity theorem:
        then heaps of any size are answered), else None; the quotient found is kept."""
        from ..quotient import misere_quotient
        from ..quotient.whole import removal_bound
        if isinstance(removal_bound(str(getattr(self, "code", ""))), str):
            return None     # the theorem does not apply: no search can close it
        q = misere_quotient(self, WHOLE_PROBE_HEAP, time_limit=min(cap, WHOLE_PROBE_SECONDS))
        self._keep_quotient(q)
        return q if q.whole.proved else None

    def _keep_quotient(self, q: Any) -> None:
        """Keeps q unless the quotient kept already covers more heaps."""
        kept = getattr(self, "_quotient", None)
        if kept is None or (q.max_heap > kept.max_heap and not kept.whole.proved):
            self._quotient = q

    def _canonical(self, position: Any) -> tuple[int, ...]:
        """Heaps in order, without those that allow no move (they change nothing)."""
        return tuple(sorted(h for h in heaps_of(position) if self._has_move(h)))

    def _has_move(self, heap: int) -> bool:
        return next(self.heap_moves(heap), None) is not None

    def _misere_budget(self, position: Any) -> None:
        tokens = sum(self._canonical(position))
        if tokens > MISERE_SEARCH_TOKENS:
            raise ValueError(self._search_refusal(tokens))

    def _search_refusal(self, tokens: int) -> str:
        return (f"misère play of {self.name} on {tokens} tokens would search every position "
                f"below it (more than {_positions_below(tokens)}); the limit is "
                f"{MISERE_SEARCH_TOKENS} tokens unless every heap is tame (see tame_up_to)")

    @synchronized
    def misere_nim_value(self, position: int | Sequence[int]) -> int:
        """The misère Grundy value G- (CGSuite's MisereNimValue): 1 for a position with no
        move, else the mex of the options' values; 0 exactly when the mover loses misère
        play.  Tame positions (Winning Ways ch. 13) are answered from the genera of their
        heaps; others are searched (at most 40 tokens in heaps that have a move).

        Parameters
        ----------
        position : int or sequence of int
            A heap size, or the heap sizes of a position.

        Returns
        -------
        int

        Raises
        ------
        ValueError
            A position too large to search.

        >>> from nimbers.games.heap import octal_game
        >>> kayles = octal_game("0.77")
        >>> [kayles.misere_nim_value(n) for n in range(8)]
        [1, 0, 2, 3, 0, 1, 3, 2]
        """
        tame = self._tame_genus(position)
        if tame is not None:
            return tame.misere_value
        q = self._quotient_for(position)
        if q is not None and q.is_losing(heaps_of(position)):
            return 0        # the quotient gives outcomes only: G- = 0 exactly at P
        return MisereByEngine.misere_nim_value(self, position)

    @synchronized
    def misere_nim_values(self, n: int) -> list[int]:
        """G-(0), ..., G-(n-1): the misère Grundy values of single heaps.

        Parameters
        ----------
        n : int

        Returns
        -------
        list of int

        >>> from nimbers.games.heap import octal_game
        >>> octal_game("0.07").misere_nim_values(10)      # Dawson's Kayles
        [1, 1, 0, 0, 2, 1, 3, 0, 0, 1]
        """
        n = count(n)
        if n and self._tame_genus([n - 1]) is None:
            self._misere_budget([n - 1])  # refuse now what the last heap would refuse at the end
        return [self.misere_nim_value([h]) for h in range(n)]

    @synchronized
    def genus(self, position: int | Sequence[int]) -> Genus:
        """The genus g^(γ0 γ1 ...) of a position (see :mod:`nimbers.games.misere`): normal
        value g, γn the misère value with n copies of ``*2`` added; tame sums by the Nim rule.

        Parameters
        ----------
        position : int or sequence of int
            A heap size, or the heap sizes of a position.

        Returns
        -------
        Genus

        >>> from nimbers.games.heap import octal_game
        >>> print(octal_game("0.77").genus([1, 2]))
        3^31
        """
        tame = self._tame_genus(position)
        if tame is not None:
            return tame
        key = self._canonical(position)
        self._misere_budget(key)
        return genus_of(key, self._misere_moves, self._genus_cache)

    @synchronized
    def genera(self, n: int) -> list[Genus]:
        """The genera of single heaps 0 .. n-1 (kept for later calls).

        Parameters
        ----------
        n : int

        Returns
        -------
        list of Genus

        >>> from nimbers.games.heap import octal_game
        >>> [str(g) for g in octal_game("0.77").genera(6)]
        ['0^120', '1^031', '2^20', '3^31', '1^031', '4^146']
        """
        n = count(n)
        while len(self._genera) < n:
            h = len(self._genera)
            self._misere_budget([h])
            self._genera.append(genus_of(self._canonical([h]), self._misere_moves,
                                         self._genus_cache))
        return self._genera[:n]

    @synchronized
    def tame_up_to(self, n: int) -> bool:
        """True when heaps 0 .. n-1 all have tame genera: then every position of such heaps
        is tame and plays misère like Nim (Winning Ways ch. 13).

        Parameters
        ----------
        n : int

        Returns
        -------
        bool

        >>> from nimbers.games.heap import octal_game, subtraction_game
        >>> subtraction_game({1, 2}).tame_up_to(20), octal_game("0.07").tame_up_to(20)
        (True, False)
        """
        return all(is_tame_genus(g) for g in self.genera(n))

    def _tame_genus(self, position: Any) -> Genus | None:
        """The genus by the tame rule, when every heap up to the largest is known tame."""
        heaps = self._canonical(position)
        if not heaps:
            return ZERO_GENUS
        top = heaps[-1] + 1
        if len(self._genera) < top:
            return None  # not known yet: the search decides (and is exact)
        if not all(is_tame_genus(g) for g in self._genera[:top]):
            return None
        return tame_sum(self._genera[h] for h in heaps)


def _positions_below(tokens: int) -> str:
    """How many multisets of heap sizes hold at most this many tokens, for a message: the
    count up to 200 tokens, and beyond a power of ten below it, from Hardy and Ramanujan's
    p(n) ~ e^(π√(2n/3)) / (4n√3) (which overestimates p(n) by less than 5% from n = 100 on),
    in integer arithmetic so that a heap of any size is answered at once."""
    if tokens <= 200:
        p = [1] + [0] * tokens
        for part in range(1, tokens + 1):
            for total in range(part, tokens + 1):
                p[total] += p[total - part]
        return f"{sum(p):,}"
    # log10 p(n) >= (π / ln 10)·√(2n/3) - log10(4√3 n) - 0.05
    if tokens < 10**300:
        exponent = (math.pi / math.log(10) * math.sqrt(2 * tokens / 3)
                    - math.log10(4 * math.sqrt(3) * tokens) - 0.05)
        return f"10^{math.floor(exponent - 1e-6)}"
    lead = math.isqrt(2 * tokens // 3) * 136437 // 100000  # each part rounded down
    return f"10^{lead - tokens.bit_length() * 30103 // 100000 - 2}"
