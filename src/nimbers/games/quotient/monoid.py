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

import json
import os
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

import numpy as np

__all__ = ["MisereQuotient", "FORMAT"]

FORMAT = "nimbers misère quotient"
#: the largest order a saved quotient may have
MAX_LOADED_ORDER = 4096
_SUPERSCRIPTS = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
_DIGITS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")


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
        return (f"<MisereQuotient of {self.game} for heaps <= {self.max_heap}: order "
                f"{self.order}, |P| = {len(self.p_portion)}, {state}>")

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

        Raises
        ------
        ValueError
            a heap larger than max_heap (this quotient says nothing of it).

        >>> from nimbers.games import octal_game, misere_quotient
        >>> q = misere_quotient(octal_game("0.75"), 6)
        >>> q.word(q.element([2, 3]))
        'ab'
        """
        e = 0
        for h in _heap_list(position):
            if h > self.max_heap:
                raise ValueError(f"heap {h} is larger than this quotient's heaps (at most "
                                 f"{self.max_heap}): compute misere_quotient(game, {h})")
            e = int(self._mul[e, self.pretending[h]])
        return e

    def is_losing(self, position: int | Sequence[int]) -> bool:
        """True when the player to move loses misère play (a P-position): one product per
        heap.

        >>> from nimbers.games import misere_quotient, Nim
        >>> q = misere_quotient(Nim(), 3)
        >>> q.is_losing([1, 1, 1]), q.is_losing([2, 2]), q.is_losing([1, 2, 3])
        (True, True, True)
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
            for k, left in heap_moves(h):
                if self._p[self._mul[rest, self.element(left)]]:
                    return i, k, tuple(left)
            prefix = int(self._mul[prefix, elems[i]])
        return None

    # -- the presentation --
    @property
    def generators(self) -> tuple[int, ...]:
        """The heaps that name the generators: each heap whose element is not a product of
        the smaller heaps' elements."""
        return self._presentation()[0]

    def word(self, element: int) -> str:
        """An element as a word in the generators a, b, c, ... (its shortest, first in
        order), "1" for the identity."""
        return self._presentation()[1][element]

    def relations(self) -> list[tuple[str, str]]:
        """The relations (left, right): every word that is not in normal form but all of
        whose proper divisors are, equal to the normal form of its element."""
        return list(self._presentation()[2])

    def presentation(self) -> str:
        """⟨a, b, ... | relations⟩ as Plambeck and Siegel write it."""
        gens, _, rels = self._presentation()
        names = ", ".join(_name(i) for i in range(len(gens)))
        if not rels:
            return f"⟨{names}⟩" if gens else "⟨ ⟩ (the trivial monoid)"
        return f"⟨{names} | " + ", ".join(f"{a} = {b}" for a, b in rels) + "⟩"

    def heap_words(self) -> list[str]:
        """The pretending function: the word of each heap 0 .. max_heap."""
        words = self._presentation()[1]
        return [words[e] for e in self.pretending]

    def p_words(self) -> list[str]:
        """The P-portion as words."""
        words = self._presentation()[1]
        return sorted((words[e] for e in self.p_portion), key=lambda w: (len(w), w))

    def _presentation(self) -> tuple[tuple[int, ...], list[str], list[tuple[str, str]]]:
        cached: Any = self.__dict__.get("_pres")
        if cached is None:
            cached = _present(self._mul, self.pretending)
            object.__setattr__(self, "_pres", cached)
        return cached  # type: ignore[no-any-return]

    def summary(self) -> str:
        """The text `nimbers heap CODE --quotient N` prints."""
        gens = self.generators
        lines = [f"misère quotient of {self.game} ({self.code}), heaps <= {self.max_heap}: "
                 f"order {self.order}" + ("" if self.proved else f" (gave up at {self.gave_up})"),
                 "orders of Q_1 .. Q_n: " + " ".join(str(o) for o in self.orders),
                 "presentation: " + self.presentation(),
                 "generators: " + ", ".join(f"{_name(i)} = heap {h}" for i, h in enumerate(gens)),
                 "P-portion: {" + ", ".join(self.p_words()) + "}",
                 "heap words: " + " ".join(f"{h}:{w}" for h, w in enumerate(self.heap_words()))]
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        words = [self.word(e) for e in self.elements]
        head = "".join(f"<th>{w}</th>" for w in words)
        rows = []
        bold = ' style="font-weight:bold"'
        for a in self.elements:
            cells = "".join(
                f"<td{bold if self._p[self._mul[a, b]] else ''}>"
                f"{words[int(self._mul[a, b])]}</td>" for b in self.elements)
            rows.append(f"<tr><th>{words[a]}</th>{cells}</tr>")
        return (f"<p>{_escape(repr(self))}<br>{_escape(self.presentation())}<br>"
                f"P-portion (bold in the table): {{{_escape(', '.join(self.p_words()))}}}</p>"
                f"<table><tr><th>·</th>{head}</tr>{''.join(rows)}</table>")

    # -- saving --
    def to_json(self) -> dict[str, Any]:
        """The quotient as JSON data (see :meth:`save`)."""
        return {"format": FORMAT, "version": 1, "game": self.game, "code": self.code,
                "max_heap": self.max_heap, "requested": self.requested,
                "gave_up": self.gave_up, "orders": list(self.orders),
                "table": [list(r) for r in self.table], "p_portion": list(self.p_portion),
                "pretending": list(self.pretending)}

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the quotient as JSON (atomically: a temporary file, then renamed)."""
        tmp = f"{os.fspath(path)}.tmp{os.getpid()}"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(self.to_json(), f, ensure_ascii=False)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)

    @classmethod
    def from_json(cls, data: Any) -> MisereQuotient:
        """A quotient from JSON data, checked: a monoid (identity 0, commutative,
        associative), P-portion and pretending function in range.  This checks the
        structure only; HeapGame.use_quotient proves it against the game.

        Raises
        ------
        ValueError
            anything malformed.
        """
        return _validated(data)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> MisereQuotient:
        """Read a quotient written by :meth:`save` (see :meth:`from_json`).

        Raises
        ------
        ValueError
            not a saved quotient, or malformed.
        """
        try:
            with open(path, encoding="utf-8") as f:
                data = json.load(f)
        except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as e:
            raise ValueError(f"{os.fspath(path)}: not a saved misère quotient ({e})") from None
        return _validated(data)


def _validated(data: Any) -> MisereQuotient:
    def bad(what: str) -> ValueError:
        return ValueError(f"not a valid saved misère quotient: {what}")

    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("version") != 1:
        raise bad(f"the format is not {FORMAT!r} version 1")
    keys = {"format", "version", "game", "code", "max_heap", "requested", "gave_up", "orders",
            "table", "p_portion", "pretending"}
    if set(data) != keys:
        raise bad(f"the keys are {sorted(data)}, expected {sorted(keys)}")
    for k in ("game", "code"):
        if not isinstance(data[k], str) or len(data[k]) > 200:
            raise bad(f"{k} is not a short string")
    if data["gave_up"] is not None and not isinstance(data["gave_up"], str):
        raise bad("gave_up is neither null nor a string")
    table = data["table"]
    if not isinstance(table, list) or not 1 <= len(table) <= MAX_LOADED_ORDER:
        raise bad(f"the table is not a list of 1 .. {MAX_LOADED_ORDER} rows")
    m = len(table)
    if not all(isinstance(r, list) and len(r) == m and all(_is_int(v, m) for v in r)
               for r in table):
        raise bad(f"the table is not {m} rows of {m} elements 0 .. {m - 1}")
    n = data["max_heap"]
    if not _is_int(n, 10**6) or not _is_int(data["requested"], 10**6) or data["requested"] < n:
        raise bad("max_heap and requested are not sizes with max_heap <= requested")
    pre, p, orders = data["pretending"], data["p_portion"], data["orders"]
    if not isinstance(pre, list) or len(pre) != n + 1 or not all(_is_int(v, m) for v in pre):
        raise bad(f"pretending is not {n + 1} elements (heaps 0 .. {n})")
    if pre[0] != 0:
        raise bad("the empty heap is not the identity")
    if (not isinstance(p, list) or not all(_is_int(v, m) for v in p)
            or sorted(set(p)) != p):
        raise bad("p_portion is not a sorted list of distinct elements")
    if not isinstance(orders, list) or len(orders) != n or not all(
            _is_int(v, MAX_LOADED_ORDER + 1) for v in orders):
        raise bad("orders is not one order per heap")
    mul = np.array(table, dtype=np.int64)
    ident = np.arange(m)
    if not (np.array_equal(mul[0], ident) and np.array_equal(mul, mul.T)):
        raise bad("the table is not commutative with identity 0")
    gens = sorted(set(pre))
    for g in gens:     # (xy)g = x(yg) for every generator g and everything they generate
        if not np.array_equal(mul[mul, g], mul[:, mul[:, g]]):
            raise bad("the table is not associative")
    seen = {0}
    frontier = [0]
    while frontier:
        frontier = [int(mul[x, g]) for x in frontier for g in gens if int(mul[x, g]) not in seen]
        seen.update(frontier)
    if len(seen) != m:
        raise bad("some elements are not products of the heaps' elements")
    return MisereQuotient(data["game"], data["code"], n, data["requested"],
                          tuple(tuple(r) for r in table), tuple(p), tuple(pre), tuple(orders),
                          data["gave_up"])


def _is_int(v: Any, below: int) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v < below


def _heap_list(position: int | Sequence[int]) -> list[int]:
    heaps = [position] if isinstance(position, (int, np.integer)) else list(position)
    out = []
    for h in heaps:
        if isinstance(h, bool) or not isinstance(h, (int, np.integer)) or h < 0:
            raise ValueError(f"heap sizes are non-negative ints, got {h!r}")
        out.append(int(h))
    return out


def _name(i: int) -> str:
    return chr(ord("a") + i) if i < 26 else f"g{i + 1}"


def _escape(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _word(exps: tuple[int, ...]) -> str:
    parts = [_name(i) + (str(e).translate(_SUPERSCRIPTS) if e > 1 else "")
             for i, e in enumerate(exps) if e]
    return "".join(parts) or "1"


def _present(mul: np.ndarray, pretending: Sequence[int]
             ) -> tuple[tuple[int, ...], list[str], list[tuple[str, str]]]:
    """Generators (the heaps whose elements the smaller heaps do not generate), the normal
    form of each element (its first word by degree, then with the earlier generators'
    exponents largest), and the relations: each word not in normal form whose divisors by
    one generator all are, set equal to its element's normal form."""
    m = mul.shape[0]
    gens: list[int] = []
    gen_elems: list[int] = []
    generated = {0}
    for h, e in enumerate(pretending):
        if e not in generated:
            gens.append(h)
            gen_elems.append(e)
            frontier = list(generated)
            while frontier:
                frontier = [int(mul[x, g]) for x in frontier for g in gen_elems
                            if int(mul[x, g]) not in generated]
                generated.update(frontier)
    k = len(gens)
    normal: dict[tuple[int, ...], int] = {(0,) * k: 0}
    form: list[tuple[int, ...] | None] = [None] * m
    form[0] = (0,) * k
    level = [(0,) * k]
    relations: list[tuple[str, str]] = []
    seen_left: set[tuple[int, ...]] = set()
    while level:
        candidates = sorted({v[:i] + (v[i] + 1,) + v[i + 1:] for v in level for i in range(k)},
                            reverse=True)
        nxt = []
        for u in candidates:
            divisors = [u[:i] + (u[i] - 1,) + u[i + 1:] for i in range(k) if u[i]]
            if not all(d in normal for d in divisors):
                continue         # a multiple of a relation's left side
            d = divisors[0]
            i = next(i for i in range(k) if u[i])
            e = int(mul[normal[d], gen_elems[i]])
            known = form[e]
            if known is None:
                form[e] = u
                normal[u] = e
                nxt.append(u)
            elif u not in seen_left:
                seen_left.add(u)
                relations.append((_word(u), _word(known)))
        level = nxt
    words = [_word(f) if f is not None else "?" for f in form]
    # as the literature lists them: by the first generator, powers first, then by degree
    relations.sort(key=lambda r: _relation_key(r[0]))
    return tuple(gens), words, relations


def _relation_key(word: str) -> tuple[int, int, int]:
    letters = [c for c in word if c.isalpha()]
    degree = sum(int(c.translate(_DIGITS) or 1) for c in re.findall(r"[a-z]([⁰-⁹¹²³]*)", word))
    return ord(letters[0]), len(set(letters)), degree
