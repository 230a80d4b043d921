"""Misère quotients written as the papers write them: generators named from heap sizes,
relations in a reduced, ordered form, the P-portion, the pretending function as a table, the
orders Q_1 .. Q_n and the heap sizes at which they grew.

Plambeck and Siegel ("Misère quotients for impartial games", JCTA 115 (2008)) name the
generators a, b, c, ... in the order of the heaps that bring them in, write each element as
its word in them, and the quotient as ⟨a, b, ... | relations⟩ with its P-portion.  Past z
the names go on a₁, b₁, ... (LaTeX a_{1}, b_{1}, ...): a word stays readable, never g27.

* :func:`present` -- the generators, the normal form of every element and the relations:
  from the rewriting system (each minimal word that is not a normal form, set equal to its
  element's normal form), those the others do not imply (:func:`drop_implied`);
* :func:`wrap` -- items joined and wrapped at a width, never cut inside an item;
* :func:`growth`, :func:`pretending_period` -- where Q_n grew, and where the pretending
  function repeats (evidence only: see :mod:`.stability`).

>>> generator_name(0), generator_name(25), generator_name(26), generator_name(27, tex=True)
('a', 'z', 'a₁', 'b_{1}')
>>> word_text((2, 0, 1)), word_tex((2, 0, 1)), word_text((0, 0, 0))
('a²c', 'a^{2}c', '1')
>>> wrap("rel: ", ["a² = 1", "b³ = b", "bc = ab"], width=16)
['rel: a² = 1,', '     b³ = b,', '     bc = ab']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

__all__ = ["Presentation", "present", "generator_name", "word_text", "word_tex", "wrap",
           "growth", "pretending_period"]

_SUPERSCRIPTS = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
_SUBSCRIPTS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
#: the letters of the generators' names, then again with an index
LETTERS = "abcdefghijklmnopqrstuvwxyz"

Exponents = tuple[int, ...]


def generator_name(i: int, tex: bool = False) -> str:
    """The name of the i-th generator (from 0): a .. z, then a₁ .. z₁, a₂, ..."""
    if isinstance(i, bool) or not isinstance(i, int) or i < 0:
        raise ValueError(f"a generator's index is a non-negative int, got {i!r}")
    letter, index = LETTERS[i % 26], i // 26
    if not index:
        return letter
    return f"{letter}_{{{index}}}" if tex else letter + str(index).translate(_SUBSCRIPTS)


def word_text(exps: Exponents) -> str:
    """A word, from the exponents of the generators: a²c; "1" for the identity."""
    return "".join(generator_name(i) + (str(e).translate(_SUPERSCRIPTS) if e > 1 else "")
                   for i, e in enumerate(exps) if e) or "1"


def word_tex(exps: Exponents) -> str:
    """A word in LaTeX: a^{2}c; "1" for the identity."""
    return "".join(generator_name(i, tex=True) + (f"^{{{e}}}" if e > 1 else "")
                   for i, e in enumerate(exps) if e) or "1"


@dataclass(frozen=True)
class Presentation:
    """The generators (the heap sizes that bring them in), each element's normal form (its
    exponents), and the relations (left, right), left never a normal form, right always."""

    heaps: tuple[int, ...]
    forms: tuple[Exponents, ...]
    relations: tuple[tuple[Exponents, Exponents], ...]
    rewriting: tuple[tuple[Exponents, Exponents], ...] = ()

    def word(self, element: int, tex: bool = False) -> str:
        """The element's normal form as a word."""
        return (word_tex if tex else word_text)(self.forms[element])

    def relation_texts(self, tex: bool = False) -> list[str]:
        """The relations, "a² = 1", in order."""
        w = word_tex if tex else word_text
        return [f"{w(a)} = {w(b)}" for a, b in self.relations]

    def names(self, tex: bool = False) -> list[str]:
        return [generator_name(i, tex) for i in range(len(self.heaps))]

    def text(self) -> str:
        """⟨a, b, ... | relations⟩ on one line."""
        names = ", ".join(self.names())
        if not self.heaps:
            return "⟨ ⟩ (the trivial monoid)"
        if not self.relations:
            return f"⟨{names}⟩"
        return f"⟨{names} | " + ", ".join(self.relation_texts()) + "⟩"


def present(mul: np.ndarray, pretending: Sequence[int]) -> Presentation:
    """The presentation of a quotient (table mul, element 0 the identity) whose heaps have
    the elements pretending[h].

    Generators: the heaps whose element the smaller heaps do not generate.  Normal form of
    an element: its first word by degree, then with the earlier generators' exponents
    largest.  Relations: each word that is not a normal form but whose divisors by one
    generator all are, equal to its element's normal form; so every word reduces to its
    normal form by them, and no left side divides another (a reduced rewriting system).
    Ordered as the literature lists them: by the first generator, powers first, then by
    the number of generators and the degree.
    """
    heaps, gen_elems = _generators(mul, pretending)
    k = len(heaps)
    normal: dict[Exponents, int] = {(0,) * k: 0}
    form: list[Exponents | None] = [None] * mul.shape[0]
    form[0] = (0,) * k
    level = [(0,) * k]
    relations: list[tuple[Exponents, Exponents]] = []
    while level:
        candidates = sorted({v[:i] + (v[i] + 1,) + v[i + 1:] for v in level for i in range(k)},
                            reverse=True)
        nxt = []
        for u in candidates:
            divisors = [u[:i] + (u[i] - 1,) + u[i + 1:] for i in range(k) if u[i]]
            if not all(d in normal for d in divisors):
                continue         # a multiple of a relation's left side
            i = next(i for i in range(k) if u[i])
            e = int(mul[normal[divisors[0]], gen_elems[i]])
            known = form[e]
            if known is None:
                form[e], normal[u] = u, e
                nxt.append(u)
            else:
                relations.append((u, known))
        level = nxt
    relations.sort(key=lambda r: _relation_key(r[0]))
    forms = tuple(f if f is not None else (0,) * k for f in form)
    return Presentation(tuple(heaps), forms, tuple(drop_implied(relations)), tuple(relations))


#: the most words one implication search visits before it keeps the relation
SEARCH_WORDS = 2000


def drop_implied(relations: Sequence[tuple[Exponents, Exponents]], slack: int = 1
                 ) -> list[tuple[Exponents, Exponents]]:
    """The relations without those the others imply, the last first (a relation whose left
    side is a power of one generator is always kept: it says that generator's cycle, as
    Plambeck and Siegel write it): u = v is dropped when
    a chain of the other relations, applied either way inside words of degree at most
    max(deg u, deg v) + slack, leads from u to v (then the congruence they generate is the
    same, so the presentation still defines the monoid).  A bounded search: a relation it
    cannot show implied is kept.

    >>> drop_implied([((2, 0), (0, 0)), ((0, 3), (0, 1)), ((2, 3), (0, 1))])
    [((2, 0), (0, 0)), ((0, 3), (0, 1))]
    """
    kept = list(relations)
    for r in reversed(list(relations)):
        if sum(1 for e in r[0] if e) == 1:
            continue            # a power of one generator: kept, as the papers keep them
        rest = [x for x in kept if x != r]
        if _connected(r[0], r[1], rest, max(sum(r[0]), sum(r[1])) + slack):
            kept = rest
    return kept


def _connected(u: Exponents, v: Exponents, rules: Sequence[tuple[Exponents, Exponents]],
               degree: int) -> bool:
    seen = {u}
    frontier = [u]
    while frontier and len(seen) < SEARCH_WORDS:
        nxt = []
        for w in frontier:
            for left, right in rules:
                for a, b in ((left, right), (right, left)):
                    if all(x >= y for x, y in zip(w, a)):
                        z = tuple(x - y + c for x, y, c in zip(w, a, b))
                        if z == v:
                            return True
                        if z not in seen and sum(z) <= degree:
                            seen.add(z)
                            nxt.append(z)
        frontier = nxt
    return False


def _generators(mul: np.ndarray, pretending: Sequence[int]) -> tuple[list[int], list[int]]:
    """The heaps whose elements the smaller heaps' do not generate, and their elements."""
    heaps: list[int] = []
    elems: list[int] = []
    generated = {0}
    for h, e in enumerate(pretending):
        if e in generated:
            continue
        heaps.append(h)
        elems.append(e)
        frontier = list(generated)
        while frontier:
            frontier = [int(mul[x, g]) for x in frontier for g in elems
                        if int(mul[x, g]) not in generated]
            generated.update(frontier)
    return heaps, elems


def _relation_key(u: Exponents) -> tuple[int, int, int, Exponents]:
    first = next(i for i, e in enumerate(u) if e)
    return first, sum(1 for e in u if e), sum(u), tuple(-e for e in u)


def wrap(head: str, items: Sequence[str], width: int, sep: str = ",",
         indent: int | None = None) -> list[str]:
    """head then the items joined by sep and a space, wrapped at width columns; the lines
    after the first indented under the first item (or by indent).  An item longer than a
    line gets a line of its own."""
    pad = " " * (len(head) if indent is None else indent)
    lines: list[str] = []
    line = head
    for j, item in enumerate(items):
        piece = item + (sep if j < len(items) - 1 else "")
        fresh = line in (head, pad)
        if not fresh and len(line) + 1 + len(piece) > width:
            lines.append(line.rstrip())
            line = pad + piece
        else:
            line = line + ("" if fresh else " ") + piece
    lines.append(line.rstrip())
    return lines


def growth(orders: Sequence[int]) -> list[tuple[int, int]]:
    """(heap n, ``|Q_n|``) for each n at which the order grew (``orders[n - 1] = |Q_n|``).

    >>> growth([1, 2, 2, 6, 6, 6, 6, 6, 6, 12])
    [(2, 2), (4, 6), (10, 12)]
    """
    out = []
    before = 1
    for n, order in enumerate(orders, start=1):
        if order != before:
            out.append((n, order))
        before = order
    return out


def pretending_period(seq: Sequence[object], min_repeats: int = 2
                      ) -> tuple[int, int] | None:
    """(p, n0): the shortest period p, and for it the least n0, with seq[h + p] == seq[h]
    for every n0 <= h < len(seq) - p, seen at least min_repeats times over (len(seq) - n0 >=
    min_repeats * p, and at least 4 heaps); None when no period is seen that often.  An
    observation on a finite sequence, never a proof that it goes on.

    >>> pretending_period(["1", "a", "b", "a", "b", "a", "b"])
    (2, 1)
    """
    n = len(seq)
    for p in range(1, n // min_repeats + 1):
        n0 = n - p
        while n0 > 0 and seq[n0 - 1] == seq[n0 - 1 + p]:
            n0 -= 1
        if n - n0 >= max(min_repeats * p, 4):
            return p, n0
    return None

