"""Misère play of impartial games: the genus, tame games and their Nim-like rule.

Under the misère rule the player who makes the last move loses.  The misère Grundy value
G-(G) is 1 at a position with no move and the mex of the options' values otherwise (Conway,
ONAG ch. 12; CGSuite's ``MisereNimValue``); the player to move loses exactly when it is 0.
There is no nim-sum rule for G-: the genus carries more.

The genus of G (Winning Ways ch. 13; ONAG ch. 12) is g^(γ0 γ1 γ2 ...): g is the normal-play
value, γn = G-(G + *2 + ... + *2) with n copies of *2.  The γ sequence ends alternating with
period 2; it is written up to the first two terms of the alternation (CGSuite's ``Genus``):
0 has genus 0^120, *1 has 1^031, *2 has 2^20.

Tame genera are those of Nim positions: 0^120, 1^031 and g^(g, g xor 2) (0^02, 1^13, 2^20,
3^31, ...).  A sum of games whose positions all have tame genera is tame, with the genus of
the Nim position of the same kind (Winning Ways ch. 13, "Tame games"): this is the
shortcut :func:`tame_sum` takes.

>>> genus_of((), lambda p: [])                 # the empty game
Genus(normal=0, misere=(1, 2, 0))
>>> str(genus_of((), lambda p: []))
'0^120'
>>> str(tame_sum([Genus(2, (2, 0)), Genus(1, (0, 3, 1))]))     # *2 + *1, as in Nim
'3^31'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Hashable, Iterable, MutableMapping, Sequence

from .engine import grundy, misere_grundy

__all__ = ["Genus", "genus_of", "is_tame_genus", "tame_sum", "SMALL_GENERA"]

#: how many terms of the alternation must be seen before the genus is reported
_ALTERNATION_SEEN = 4
#: the most copies of *2 tried before giving up
_MAX_TWOS = 16


@dataclass(frozen=True)
class Genus:
    """normal: the normal-play Grundy value; misere: γ0, γ1, ... up to the first two terms
    of the final alternation (γ0 is the misère Grundy value)."""

    normal: int
    misere: tuple[int, ...]

    def __str__(self) -> str:
        sep = "," if any(v > 9 for v in self.misere) else ""
        return f"{self.normal}^{sep.join(str(v) for v in self.misere)}"

    @property
    def misere_value(self) -> int:
        """The misère Grundy value (γ0)."""
        return self.misere[0]


ZERO_GENUS = Genus(0, (1, 2, 0))
ONE_GENUS = Genus(1, (0, 3, 1))
SMALL_GENERA = (ZERO_GENUS, ONE_GENUS)


def is_tame_genus(genus: Genus) -> bool:
    """A genus a Nim position has: 0^120, 1^031, or g^(g, g xor 2) (Winning Ways ch. 13).

    Parameters
    ----------
    genus : Genus

    Returns
    -------
    bool

    >>> is_tame_genus(Genus(0, (1, 2, 0))), is_tame_genus(Genus(4, (4, 6))), is_tame_genus(Genus(0, (1, 4, 2, 0)))
    (True, True, False)
    """
    g = genus.normal
    return genus in SMALL_GENERA or genus.misere == (g, g ^ 2)


def tame_sum(genera: Iterable[Genus]) -> Genus:
    """The genus of a sum of tame games, as for Nim: all components like heaps of 0 or 1
    (genera 0^120, 1^031): 0^120 or 1^031 by parity; else g^(g, g xor 2), g the nim-sum
    (Winning Ways ch. 13, "Tame games").

    Parameters
    ----------
    genera : iterable of Genus
        The components' genera, each tame.

    Returns
    -------
    Genus

    Raises
    ------
    ValueError
        a genus is not tame: the rule does not apply.

    >>> str(tame_sum([Genus(1, (0, 3, 1))] * 3))       # three heaps of one: like *1
    '1^031'
    """
    g, small, ones = 0, True, 0
    for genus in genera:
        if not is_tame_genus(genus):
            raise ValueError(f"the genus {genus} is not tame: the Nim rule does not apply")
        g ^= genus.normal
        if genus in SMALL_GENERA:
            ones += genus.normal
        else:
            small = False
    if small:
        return ONE_GENUS if ones % 2 else ZERO_GENUS
    return Genus(g, (g, g ^ 2))


def truncate_alternation(gammas: Sequence[int]) -> tuple[int, ...] | None:
    """γ0 .. up to the first two terms of the final alternation, or None when the sequence
    has not alternated for _ALTERNATION_SEEN terms at its end."""
    n = len(gammas)
    start = n - 2
    while start > 0 and gammas[start - 1] == gammas[start + 1]:
        start -= 1
    if n - start < 2 + _ALTERNATION_SEEN:
        return None
    return tuple(gammas[:start + 2])


def genus_of(position: Hashable, moves: Callable[[Any], Iterable[Hashable]],
             cache: MutableMapping[str, Any] | None = None) -> Genus:
    """The genus of a position of any finite impartial game, from its definition: the game
    is added to k copies of *2 (as a count of *2 and *1 heaps) and searched.

    The γ sequence is computed until its final alternation has shown itself for 4 more
    terms (at most 16 copies of *2).  Winning Ways ch. 13 and ONAG ch. 12 define the genus.

    Parameters
    ----------
    position : hashable
        The position.
    moves : callable
        ``moves(position)`` lists the positions one move away.
    cache : dict, optional
        Searched values, kept between calls when you pass the same dict.

    Returns
    -------
    Genus

    Raises
    ------
    ValueError
        no alternation within 16 copies of *2.

    >>> nim_heap = lambda n: range(n)                  # a Nim heap of n
    >>> str(genus_of(2, nim_heap)), str(genus_of(3, nim_heap))
    ('2^20', '3^31')
    """
    if cache is None:
        cache = {}
    misere_cache = cache.setdefault("misere", {})

    def with_nim(state: tuple[Hashable, int, int]) -> list[tuple[Hashable, int, int]]:
        pos, ones, twos = state
        out = [(p, ones, twos) for p in moves(pos)]
        if twos:
            out.append((pos, ones, twos - 1))       # *2 -> 0
            out.append((pos, ones + 1, twos - 1))   # *2 -> *1
        if ones:
            out.append((pos, ones - 1, twos))       # *1 -> 0
        return out

    normal = grundy(position, moves, cache.setdefault("normal", {}))
    gammas: list[int] = []
    for twos in range(_MAX_TWOS + 1):
        gammas.append(misere_grundy((position, 0, twos), with_nim, misere_cache))
        found = truncate_alternation(gammas)
        if found is not None:
            return Genus(normal, found)
    raise ValueError(f"the genus of {position!r} did not settle within {_MAX_TWOS} copies of *2")
