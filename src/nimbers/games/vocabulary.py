"""One vocabulary for every ruleset: the names a game answers to, whatever it is played on.

Every ruleset in :mod:`nimbers.games` (Nim, heap games, coin-turning games, their Tartan
products, any game given by a moves function) answers the same questions about a position:

==============================  ======================================================
``nim_value(position)``         the Grundy value (nim value) under normal play
``misere_nim_value(position)``  the misère Grundy value G-, as in CGSuite's
                                ``MisereNimValue`` (G-(0) = 1; ONAG ch. 12)
``is_losing(position, misere)`` the player to move loses with best play (a P-position)
``winning_move(position, ...)`` a move to a P-position in the game's own notation, or
                                None
``moves(position)``             the positions one move away
``nim_values(n)``               (games whose positions are sums of components: heaps,
                                coins) the values of the components 0 .. n-1
==============================  ======================================================

A position is what the literature writes: heap sizes for heap games, heads for coin rows,
row:column pairs for boards.  :class:`Ruleset` is a :class:`typing.Protocol`: anything with
these methods is a ruleset, no base class needed.  :class:`MisereByEngine` is the mixin
that plays misère by the generic engine for the games that do not know better.

>>> from nimbers.games import octal_game, named_game
>>> isinstance(octal_game("0.77"), Ruleset), isinstance(named_game("ruler"), Ruleset)
(True, True)
"""

from __future__ import annotations

import functools
import warnings
from typing import Any, Callable, Hashable, Iterator, Protocol, TypeVar, runtime_checkable

from ._shared import Shareable, synchronized
from .engine import misere_grundy

__all__ = ["Ruleset", "ComponentRuleset", "MisereByEngine", "Shareable", "synchronized",
           "deprecated_alias"]

_F = TypeVar("_F", bound=Callable[..., Any])


@runtime_checkable
class Ruleset(Protocol):
    """What every ruleset answers (see the module)."""

    name: str

    def nim_value(self, position: Any) -> int: ...

    def misere_nim_value(self, position: Any) -> int: ...

    def is_losing(self, position: Any, misere: bool = False) -> bool: ...

    def winning_move(self, position: Any, misere: bool = False) -> Any: ...

    def moves(self, position: Any) -> Iterator[Any]: ...


@runtime_checkable
class ComponentRuleset(Ruleset, Protocol):
    """A ruleset whose positions are sums of numbered components (heaps, coins), so that
    the values of the components say everything about normal play."""

    def nim_values(self, n: int) -> Any: ...


class MisereByEngine(Shareable):
    """Misère play by the generic engine, over the game's own moves.

    A class using it defines ``_described_moves(position)``, yielding (the move as
    ``winning_move`` writes it, the position it leads to), ``_canonical(position)``, a
    hashable key equal for positions that play alike, and ``_misere_budget(position)``,
    which raises ValueError when the search would be too large.  Misère play has no
    nim-sum rule: the whole position is searched (memoized across calls).
    """

    _misere_cache: dict[Hashable, int]

    def _described_moves(self, position: Any) -> Iterator[tuple[Any, Any]]:
        raise NotImplementedError

    def _canonical(self, position: Any) -> Hashable:
        raise NotImplementedError

    def _misere_budget(self, position: Any) -> None:
        raise NotImplementedError

    def _misere_moves(self, key: Hashable) -> list[Hashable]:
        return [self._canonical(nxt) for _, nxt in self._described_moves(key)]

    @synchronized
    def misere_nim_value(self, position: Any) -> int:
        """The misère Grundy value G- of a position: 1 at a position with no move, else
        the mex of its options' values (ONAG ch. 12; CGSuite's MisereNimValue).  The player
        to move loses misère play exactly when it is 0.

        Parameters
        ----------
        position
            A position in the game's own notation.

        Returns
        -------
        int

        Raises
        ------
        ValueError
            The search would be too large (each game says its limit).

        >>> from nimbers.games import named_game
        >>> game = named_game("turning-turtles")     # one head: its move is the last one
        >>> game.misere_nim_value("H"), game.misere_nim_value("HH")
        (0, 3)
        """
        self._misere_budget(position)
        if not hasattr(self, "_misere_cache") or self._misere_cache is None:
            self._misere_cache = {}
        return misere_grundy(self._canonical(position), self._misere_moves, self._misere_cache)

    def _misere_winning_move(self, position: Any) -> Any:
        if self.misere_nim_value(position) == 0:
            return None
        for move, nxt in self._described_moves(position):
            if self.misere_nim_value(nxt) == 0:
                return move
        # No move at all: under misère play the player to move has already won, with no move
        # to make (misère value 1).  Any other non-zero value has a move to value 0.
        return None

    def moves(self, position: Any) -> Iterator[Any]:
        """The positions one move away (in the game's own notation).

        Returns
        -------
        iterator

        >>> from nimbers.games import named_game
        >>> list(named_game("turning-turtles").moves("TH"))
        [(), (0,)]
        """
        for _, nxt in self._described_moves(position):
            yield nxt


def deprecated_alias(new: _F, old_name: str, note: str = "") -> _F:
    """A method under its old name that warns (DeprecationWarning) and calls the new one;
    the old names go after one release.

    Parameters
    ----------
    new : callable
        The method under its new name.
    old_name : str
        The old name.
    note : str
        Added to the warning (how the call changes, if it does).

    Returns
    -------
    callable
        The method to assign to the old name in the class body.

    >>> import warnings
    >>> class Game:
    ...     def nim_value(self, x): return x
    ...     value = deprecated_alias(nim_value, "value")
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     Game().value(3), str(caught[0].message)
    (3, 'value is deprecated: use nim_value')
    """
    message = f"{old_name} is deprecated: use {new.__name__}{note}"

    @functools.wraps(new)
    def alias(self: Any, *args: Any, **kwargs: Any) -> Any:
        warnings.warn(message, DeprecationWarning, stacklevel=2)
        return new(self, *args, **kwargs)

    alias.__name__ = old_name
    alias.__doc__ = f"Deprecated: {new.__name__}{note}."
    return alias  # type: ignore[return-value]  # same signature: functools.wraps
