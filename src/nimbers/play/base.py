"""What every game shares in play: the rules line, hints, verdicts, help, the end."""

from __future__ import annotations

from typing import Any

from ..games.vocabulary import Ruleset

#: said in place of a misère value that only the outcome of is known (from a misère quotient)
UNKNOWN_VALUE = "past the search (the outcome is the misère quotient's)"


# ---- what every game shares -------------------------------------------------------------------


class GamePlay:
    """A ruleset with its notation, for the loop.

    The rules are the ruleset's (any :class:`.Ruleset`); a subclass says how positions look
    (``show``), how typed moves read (``parse``, ValueError with the reason), how a move of
    ``winning_move`` is said (``describe``) and made (``_apply``), and ``_any_move``, the
    move the computer makes when every move loses.
    """

    #: what is true when no move is left, e.g. "no heap can be moved"
    stuck = "no move is left"
    #: the move forms, for help (a subclass's)
    forms = ""

    def __init__(self, ruleset: Ruleset, name: str, misere: bool = False) -> None:
        self.ruleset = ruleset
        self.name = name
        self.misere = bool(misere)
        self.last_mover_wins = not self.misere

    @property
    def rules(self) -> str:
        """One line for the start of the game."""
        rule = "misère play: whoever moves last loses" if self.misere else \
            "normal play: whoever moves last wins"
        return (f"{self.name}, {rule}. {self.how} "
                "Type help for the move forms, hint for a hint, q to quit.")

    how = ""

    def check(self, position: Any) -> None:
        """Raises ValueError when the ruleset cannot answer for this position (searched
        misère play over its limits); positions only shrink, so checking the start is enough."""
        self.ruleset.is_losing(position, misere=self.misere)

    def over(self, position: Any) -> bool:
        """No move is left."""
        return next(iter(self.ruleset.moves(position)), None) is None

    def show(self, position: Any) -> str:
        raise NotImplementedError

    def parse(self, text: str, position: Any) -> Any:
        raise NotImplementedError

    def describe(self, move: Any, position: Any) -> str:
        """A move of the ruleset's ``winning_move``, said in words, with how it is typed."""
        raise NotImplementedError

    def _apply(self, move: Any, position: Any) -> Any:
        raise NotImplementedError

    def _any_move(self, position: Any) -> Any:
        raise NotImplementedError

    def computer_move(self, position: Any) -> tuple[Any, Any]:
        """The computer's move: a winning one when there is one, else any legal move (and
        hope).  Returns the move (as ``describe`` takes it) and the position after it."""
        move = self.ruleset.winning_move(position, misere=self.misere)
        if move is None:
            move = self._any_move(position)
        return move, self._apply(move, position)

    def computer(self, position: Any) -> tuple[str, Any]:
        """The computer's move, said as ``describe`` says it, and the position after it."""
        move, after = self.computer_move(position)
        return self.describe(move, position), after

    def hint(self, position: Any) -> str:
        """The position's value (its misère value under misère play) and a winning move, or
        that every move loses."""
        if self.over(position):  # the game is over: no value to speak of, no move to make
            return "no move is left"
        value = self.value(position)
        move = self.ruleset.winning_move(position, misere=self.misere)
        said = f"{self.value_label} {value}" if value is not None else \
            f"{self.value_label} {UNKNOWN_VALUE}"
        if move is None:
            return (f"{said} (a P-position): every move loses against best play")
        return f"{said} (an N-position): a winning move is {self.describe(move, position)}"

    @property
    def value_label(self) -> str:
        return "misère value" if self.misere else "value"

    def value(self, position: Any) -> int | None:
        """The value (the misère value under misère play); None for a misère N-position
        past the search, whose outcome a misère quotient gives but not its value; the
        ruleset's ValueError when neither can answer."""
        if not self.misere:
            return int(self.ruleset.nim_value(position))
        try:
            return int(self.ruleset.misere_nim_value(position))
        except ValueError:
            if self.ruleset.is_losing(position, misere=True):  # (the quotient's refusal, if any)
                return 0
            return None

    def verdict(self, position: Any) -> tuple[int | None, Any]:
        """The value (the misère value under misère play; None where only the outcome is
        known, see :meth:`value`) and a winning move or None, as ``hint`` says them; for the
        command line's analysis of a position."""
        value = self.value(position)
        if self.over(position):  # no move: nothing to win with (the misère mover has won)
            return value, None
        return value, self.ruleset.winning_move(position, misere=self.misere)

    def help(self, position: Any) -> str:
        """The move forms, with an example legal here."""
        example = self.describe(self._any_move(position), position) \
            if not self.over(position) else None
        lines = [f"{self.name}: {self.how}", self.forms]
        if example is not None:
            lines.append(f"A legal move here: {example}.")
        lines.append("Commands: help (this), hint (the value and a winning move), q (quit).")
        return "\n".join(lines)

    def end_reason(self, mover: str, moved: bool = True) -> str:
        """Why the game ended: nobody can move, and what that means under the rule (moved:
        whether a move was made, so that someone made the last one)."""
        whose = "you are" if mover == "human" else "the computer is"
        if not self.misere:
            rule = "under normal play the player who cannot move loses"
        elif moved:
            rule = ("under misère play the player who cannot move wins (the other made the "
                    "last move)")
        else:
            rule = "under misère play the player who cannot move wins"
        return f"{self.stuck}, and {whose} to move: {rule}."
