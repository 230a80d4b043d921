"""The misère quotient as a value: its monoid, P-portion, pretending function and presentation.

A :class:`MisereQuotient` answers the misère outcome of any sum of heaps of size at most
max_heap by one product per heap (Plambeck and Siegel, "Misère quotients for impartial
games", JCTA 115 (2008)): the position is a P-position exactly when the product of its
heaps' elements lies in the P-portion.  It says nothing of misère Grundy values: two
positions with the same element may have different G- values.

>>> from nimbers.games import octal_game, misere_quotient
>>> q = misere_quotient(octal_game("0.75"), 6)
>>> q.order, q.proved
(8, True)
>>> print(q.presentation())
⟨a, b, c | a² = 1, b³ = b, bc = ab, c² = b²⟩
>>> q.is_losing([1]), q.is_losing([2, 2]), q.is_losing([5, 3, 1])
(True, True, False)
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

import numpy as np

from ... import files
from .presentation import Presentation, present, word_text
from .saved import (FORMAT, MAX_LOADED_ORDER, check_associative, checked_fields, json_text,
                    read_json)
from .stability import Evidence, evidence
from .whole import WholeGame, reduced_heap, whole_of
from .writing import html_report, tex_report, text_report

__all__ = ["MisereQuotient", "FORMAT", "MAX_LOADED_ORDER"]


@dataclass(frozen=True)
class MisereQuotient:
    """Q_n: the misère quotient of the positions made of heaps of size at most max_heap.

    table[a][b] is the product of elements a and b (element 0 is the identity, the empty
    position); p_portion the elements of misère P-positions; pretending[h] the element of
    one heap of size h.  Everything here is proved for heaps up to max_heap: when the search
    stopped before requested, gave_up says where and why (a size or time bound), and
    max_heap is the last heap it proved.  orders[k - 1] is the order of Q_k.
    """

    game: str
    code: str
    max_heap: int
    requested: int
    table: tuple[tuple[int, ...], ...]
    p_portion: tuple[int, ...]
    pretending: tuple[int, ...]
    orders: tuple[int, ...] = ()
    gave_up: str | None = None
    _mul: np.ndarray = field(init=False, repr=False, compare=False)
    _p: np.ndarray = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        mul = np.array(self.table, dtype=np.int32).reshape(len(self.table), len(self.table))
        p = np.zeros(len(self.table), dtype=bool)
        p[list(self.p_portion)] = True
        object.__setattr__(self, "_mul", mul)
        object.__setattr__(self, "_p", p)

    def __repr__(self) -> str:
        state = "proved" if self.proved else f"gave up: {self.gave_up}"
        heaps = "every heap" if self.whole.proved else f"heaps <= {self.max_heap}"
        return (f"<MisereQuotient of {self.game} for {heaps}: order "
                f"{self.order}, |P| = {len(self.p_portion)}, {state}>")

    @property
    def whole(self) -> WholeGame:
        """Whether this Q_n is the quotient of the whole game, and why (the periodicity
        theorem's hypotheses checked on its data: :mod:`.whole`).

        >>> from nimbers.games import octal_game, misere_quotient
        >>> misere_quotient(octal_game("0.75"), 12).whole.proved
        False
        >>> w = misere_quotient(octal_game("0.75"), 30).whole
        >>> w.proved, w.period, w.preperiod, w.last_rogue, w.closed_at
        (True, 2, 8, 7, 21)
        """
        cached: Any = self.__dict__.get("_whole")
        if cached is None:
            cached = whole_of(self.code, self.pretending, self.gave_up, self._mul)
            object.__setattr__(self, "_whole", cached)
        return cached  # type: ignore[no-any-return]

    def covers(self, heap: int) -> bool:
        """True when this quotient answers positions with a heap of this size: up to
        max_heap, or every heap when it is the whole game's."""
        return heap <= self.max_heap or self.whole.proved

    # -- the monoid --
    @property
    def order(self) -> int:
        """The number of elements."""
        return len(self.table)

    @property
    def proved(self) -> bool:
        """True when the quotient was proved for every heap up to the size requested."""
        return self.gave_up is None

    @property
    def elements(self) -> range:
        """The elements, 0 (the identity) .. order - 1."""
        return range(self.order)

    def multiply(self, a: int, b: int) -> int:
        """The product of two elements."""
        return int(self._mul[a, b])

    def element(self, position: int | Sequence[int]) -> int:
        """The element of a position (a heap size or heap sizes): the product of its heaps'.

        A heap larger than max_heap has the element of the heap a multiple of the period
        lower when the quotient is the whole game's (:attr:`whole`).

        Raises
        ------
        ValueError
            a heap larger than max_heap when the quotient is not the whole game's (it says
            nothing of such heaps).

        >>> from nimbers.games import octal_game, misere_quotient
        >>> q = misere_quotient(octal_game("0.75"), 6)
        >>> q.word(q.element([2, 3]))
        'ab'
        """
        e = 0
        for h in _heap_list(position):
            if h > self.max_heap:
                if not self.whole.proved:
                    raise ValueError(f"heap {h} is larger than this quotient's heaps (at most "
                                     f"{self.max_heap}), and it is not proved to be the whole "
                                     f"game's: compute misere_quotient(game, {h})")
                h = reduced_heap(h, self.whole)
            e = int(self._mul[e, self.pretending[h]])
        return e

    def is_losing(self, position: int | Sequence[int]) -> bool:
        """True when the player to move loses misère play (a P-position): one product per
        heap.

        >>> from nimbers.games import misere_quotient, Nim
        >>> q = misere_quotient(Nim(), 3)
        >>> q.is_losing([1, 1, 1]), q.is_losing([2, 2]), q.is_losing([1, 2, 3])
        (True, True, True)
        >>> from nimbers.games import octal_game
        >>> q = misere_quotient(octal_game("0.75"), 60)        # the whole game's
        >>> q.is_losing([10**12, 10**12]), q.is_losing([10**12 + 1, 2])
        (True, False)
        """
        return bool(self._p[self.element(position)])

    def outcome(self, position: int | Sequence[int]) -> str:
        """"P" (the player to move loses misère play) or "N"."""
        return "P" if self.is_losing(position) else "N"

    def winning_move(self, position: Sequence[int],
                     heap_moves: Callable[[int], Iterable[tuple[int, tuple[int, ...]]]]
                     ) -> tuple[int, int, tuple[int, ...]] | None:
        """A move to a misère P-position, (heap index, tokens removed, heaps left), or None
        when every move loses; heap_moves(h) lists a heap's moves as (tokens removed, heaps
        left).  The elements of all heaps but one come from prefix and suffix products, so
        the work is linear in the number of heaps.
        """
        heaps = _heap_list(position)
        elems = [self.element(h) for h in heaps]
        suffix = [0] * (len(heaps) + 1)
        for i in range(len(heaps) - 1, -1, -1):
            suffix[i] = int(self._mul[elems[i], suffix[i + 1]])
        prefix = 0
        for i, h in enumerate(heaps):
            rest = int(self._mul[prefix, suffix[i + 1]])
            low = reduced_heap(h, self.whole) if h > self.max_heap else h
            for k, left in heap_moves(low):
                if self._p[self._mul[rest, self.element(left)]]:
                    return i, k, _raised(tuple(left), h - low)
            prefix = int(self._mul[prefix, elems[i]])
        return None

    # -- the presentation (written out by .writing) --
    def presentation_data(self) -> Presentation:
        """The generators, normal forms and relations (see :func:`.presentation.present`)."""
        cached: Any = self.__dict__.get("_pres")
        if cached is None:
            cached = present(self._mul, self.pretending)
            object.__setattr__(self, "_pres", cached)
        return cached  # type: ignore[no-any-return]

    @property
    def generators(self) -> tuple[int, ...]:
        """The heaps that name the generators a, b, c, ...: each heap whose element is not a
        product of the smaller heaps' elements."""
        return self.presentation_data().heaps

    def word(self, element: int) -> str:
        """An element as a word in the generators a, b, c, ... (its shortest, first in
        order), "1" for the identity."""
        return self.presentation_data().word(element)

    def relations(self) -> list[tuple[str, str]]:
        """The relations (left, right) of the presentation: from the words that are not in
        normal form but all of whose proper divisors are, each set equal to its element's
        normal form, those the others do not imply."""
        return [(word_text(a), word_text(b)) for a, b in self.presentation_data().relations]

    def presentation(self) -> str:
        """⟨a, b, ... | relations⟩ as Plambeck and Siegel write it, on one line."""
        return self.presentation_data().text()

    def heap_words(self) -> list[str]:
        """The pretending function: the word of each heap 0 .. max_heap."""
        pres = self.presentation_data()
        return [pres.word(e) for e in self.pretending]

    def p_words(self) -> list[str]:
        """The P-portion as words, shortest first."""
        pres = self.presentation_data()
        return sorted((pres.word(e) for e in self.p_portion), key=lambda w: (len(w), w))

    def is_p_element(self, element: int) -> bool:
        """True when the element is in the P-portion."""
        return bool(self._p[element])

    def evidence(self) -> Evidence:
        """What is proved and what is only observed (see :mod:`.stability`)."""
        return evidence(self)

    def summary(self, width: int | None = None) -> str:
        """The text `nimbers heap CODE --quotient N` prints, wrapped at width (default:
        the terminal's)."""
        return "\n".join(text_report(self, width))

    def to_tex(self) -> str:
        """The quotient as LaTeX for a paper (see :func:`.writing.tex_report`)."""
        return tex_report(self)

    def _repr_html_(self) -> str:
        return html_report(self)

    def _repr_latex_(self) -> str:
        pres = self.presentation_data()
        rels = pres.relation_texts(tex=True)
        body = (r" \mid " + ", ".join(rels)) if rels else ""
        return (rf"$\mathcal{{Q}}_{{{self.max_heap}}} = \langle "
                rf"{', '.join(pres.names(tex=True))}{body} \rangle$")

    # -- saving (the one format: .saved) --
    def to_json(self, readable: bool = True) -> dict[str, Any]:
        """The quotient as JSON data: what :meth:`save` writes and ``nimbers heap CODE
        --quotient N --json`` prints; readable adds the words (ignored when read back)."""
        data: dict[str, Any] = {
            "format": FORMAT, "version": 1, "game": self.game, "code": self.code,
            "max_heap": self.max_heap, "requested": self.requested, "gave_up": self.gave_up,
            "orders": list(self.orders), "table": [list(r) for r in self.table],
            "p_portion": list(self.p_portion), "pretending": list(self.pretending),
            "whole": self.whole.to_json()}
        if readable:
            ev = self.evidence()
            data["readable"] = {
                "order": self.order, "proved": self.proved, "presentation": self.presentation(),
                "generators": list(self.generators), "p_words": self.p_words(),
                "heap_words": self.heap_words(), "tame": ev.tame, "evidence": ev.lines()}
        return data

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the quotient as JSON (atomically: nimbers.files.write_atomically)."""
        files.write_atomically(path, json_text(self.to_json()))

    @classmethod
    def from_json(cls, data: Any, *, associativity: bool = True) -> MisereQuotient:
        """A quotient from JSON data, checked as hostile input (see :mod:`.saved`): the
        cheap checks first, then associativity within the time cap (unless
        associativity=False: :func:`nimbers.games.quotient.proves` checks it after the
        small heaps).  This checks the structure only; HeapGame.use_quotient proves it
        against the game.

        Raises
        ------
        ValueError
            anything malformed, or associativity too costly to check within the time cap.
        """
        fields = checked_fields(data)
        if associativity:
            check_associative(fields["table"], fields["pretending"])
        return cls(**fields)

    @classmethod
    def load(cls, path: str | os.PathLike[str], *, associativity: bool = True
             ) -> MisereQuotient:
        """Read a quotient written by :meth:`save` or by ``--quotient N --json`` (see
        :meth:`from_json`).

        Raises
        ------
        ValueError
            not a saved quotient, or malformed (one line).
        """
        return cls.from_json(read_json(path), associativity=associativity)


def _raised(left: tuple[int, ...], by: int) -> tuple[int, ...]:
    """The heaps a move leaves, the largest raised by a multiple of the period."""
    if not by or not left:
        return left
    top = max(range(len(left)), key=lambda j: left[j])
    return tuple(h + by if j == top else h for j, h in enumerate(left))


def _heap_list(position: int | Sequence[int]) -> list[int]:
    heaps = [position] if isinstance(position, (int, np.integer)) else list(position)
    out = []
    for h in heaps:
        if isinstance(h, bool) or not isinstance(h, (int, np.integer)) or h < 0:
            raise ValueError(f"heap sizes are non-negative ints, got {h!r}")
        out.append(int(h))
    return out
