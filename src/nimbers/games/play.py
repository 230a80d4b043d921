"""Playing a game against the computer in a terminal, in the literature's words.

The loop shows the position, reads a move typed as the literature writes it ("take 2 from
heap 3", "3:2", the coins turned, the corners of a rectangle, two coins of a row), rejects
an illegal or malformed one with a one-line reason saying what is legal, answers with a
perfect move and, at the end, says who won and why.  ``help`` prints the move forms with an example from the
position on the board, ``hint`` the position's value and a winning move, ``q`` (or the end
of input, or Ctrl-C) quits.  Every game is played under the normal rule (whoever moves last
wins) or the misère rule (whoever moves last loses; Winning Ways ch. 13).

The rules come from the ruleset alone, through the common vocabulary (:class:`.Ruleset`:
``nim_value``, ``misere_nim_value``, ``is_losing``, ``winning_move``, ``moves``); the
classes here add only the notation: how a position is shown, how a typed move is read, and
how the ruleset's ``winning_move`` is said.

>>> game, position = setup_game("kayles", ["3", "4"])
>>> game.name
'Kayles (0.77)'
>>> game.hint(position)
'value 2 (an N-position): a winning move is take 2 from heap 0, leaving 1 (0:2)'
>>> game.parse("take 1 from heap 1 leaving 1 and 2", position)
[3, 1, 2]
"""

from __future__ import annotations

from itertools import product
from typing import Any, Callable, Iterable, Sequence

from ..notation import (NotationError, read_board_move, read_cell, read_coin_move,
                        read_heap_move, read_numbers, read_row, say_count, say_heap_move,
                        say_sizes, type_heap_move)
from . import catalogue
from .codes import game_key, heap_game_name
from .heap import HeapGame
from .nim import Move, Nim
from .tartan import AcrosticTwins, Tartan
from .turning import NAMED_GAMES, TurningGame
from .vocabulary import Ruleset

__all__ = ["play", "setup_game", "say_heap_move", "GamePlay", "NimPlay", "HeapPlay",
           "TurningPlay", "BoardPlay", "AcrosticPlay"]

Read = Callable[[str], str]
Write = Callable[[str], None]


class _Quit(Exception):
    pass


# ---- the loop ---------------------------------------------------------------------------------


def play(game: GamePlay, position: Any, first: str = "human",
         read: Read = input, write: Write = print) -> str:
    """Runs the game loop; returns "human", "computer" or "quit".

    Parameters
    ----------
    game : GamePlay
        The game and its notation (:class:`NimPlay`, :class:`HeapPlay`, ...).
    position : object
        The starting position, as the game writes it (piles, heaps, heads).
    first : {"human", "computer"}
        Who moves first.
    read, write : callable
        Where moves come from and text goes to (``input`` and ``print``; tests script them).

    Raises
    ------
    ValueError
        first is neither, or the game cannot be searched from this position (misère play
        of a position over the engine's limits: said before the first move).

    >>> lines, out = iter(["hint", "0:1"]), []
    >>> play(NimPlay(), [1], read=lambda prompt: next(lines), write=out.append)
    'human'
    >>> for line in out[1:]:
    ...     print(line)
    piles: 0:1
    value 1 (an N-position): a winning move is take 1 from pile 0, leaving nothing (0:1)
    piles: 0:0
    no stone is left, and the computer is to move: under normal play the player who cannot move loses.
    you win!
    """
    if first not in ("human", "computer"):
        raise ValueError(f"first must be 'human' or 'computer', not {first!r}")
    game.check(position)
    write(game.rules)
    mover = first
    moved = False
    try:
        while not game.over(position):
            write(game.show(position))
            if mover == "computer":
                text, position = game.computer(position)
                write(f"computer: {text}")
            else:
                position = _ask(game, position, read, write)
            mover = "human" if mover == "computer" else "computer"
            moved = True
    except _Quit:
        write("bye")
        return "quit"
    write(game.show(position))
    write(game.end_reason(mover, moved))
    # The player to move now cannot: under the normal rule that player lost, under the
    # misère rule that player won (the other one made the last move).
    other = "computer" if mover == "human" else "human"
    winner = other if game.last_mover_wins else mover
    write("you win!" if winner == "human" else "the computer wins.")
    return winner


def _ask(game: GamePlay, position: Any, read: Read, write: Write) -> Any:
    while True:
        try:
            text = read("your move> ")
        except (EOFError, KeyboardInterrupt):
            raise _Quit from None
        text = text.strip()
        command = text.lower()
        if command in ("q", "quit", "exit"):
            raise _Quit
        if not text:
            continue
        if command in ("help", "?", "h"):
            write(game.help(position))
            continue
        if command == "hint":
            write(game.hint(position))
            continue
        try:
            return game.parse(text, position)
        except ValueError as exc:
            write(f"illegal move: {exc}")


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
        if self.misere:
            label, value = "misère value", self.ruleset.misere_nim_value(position)
        else:
            label, value = "value", self.ruleset.nim_value(position)
        move = self.ruleset.winning_move(position, misere=self.misere)
        if move is None:
            return (f"{label} {value} (a P-position): every move loses against best play")
        return f"{label} {value} (an N-position): a winning move is {self.describe(move, position)}"

    def verdict(self, position: Any) -> tuple[int, Any]:
        """The value (the misère value under misère play) and a winning move or None, as
        ``hint`` says them; for the command line's analysis of a position."""
        value = self.ruleset.misere_nim_value(position) if self.misere else \
            self.ruleset.nim_value(position)
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


_count = say_count
_said = say_sizes


def _become(options: Iterable[tuple[int, ...]], most: int = 4) -> str:
    shown = sorted(options)
    more = f", ... ({len(shown) - most} more)" if len(shown) > most else ""
    return ", or ".join(_said(r) for r in shown[:most]) + more


def _choices(values: Sequence[int]) -> str:
    """1, 2 or 3 -- or a range when they are consecutive and many."""
    if len(values) > 3 and values[-1] - values[0] == len(values) - 1:
        return f"{values[0]} to {values[-1]}"
    if len(values) == 1:
        return str(values[0])
    return ", ".join(map(str, values[:-1])) + f" or {values[-1]}"


class _HeapNotation(GamePlay):
    """Reading and saying moves on heaps; a subclass lists a heap's moves (tokens taken,
    the heaps left) in ``_heap_moves``."""

    word = "heap"
    unit = ("token", "tokens")

    def _heap_moves(self, heap: int) -> list[tuple[int, tuple[int, ...]]]:
        raise NotImplementedError

    def show(self, heaps: Sequence[int]) -> str:
        return f"{self.word}s: " + ("  ".join(f"{i}:{h}" for i, h in enumerate(heaps))
                                    or "none")

    def _any_move(self, heaps: Sequence[int]) -> tuple[int, int, tuple[int, ...]]:
        for i, h in enumerate(heaps):
            moves = self._heap_moves(h)
            if moves:
                k, left = moves[0]
                return i, k, left
        raise ValueError("no move is left")

    def _apply(self, move: Any, heaps: Sequence[int]) -> list[int]:
        i, _, left = move
        return list(heaps[:i]) + list(left) + list(heaps[i + 1:])

    def _as_triple(self, move: Any) -> tuple[int, int, tuple[int, ...]]:
        """(heap, tokens taken, heaps left) from a move as the ruleset gives it."""
        i, k, left = move
        return int(i), int(k), tuple(left)

    def say(self, move: Any, heaps: Sequence[int], size: bool = False) -> str:
        """A move in words (:func:`say_heap_move`), with the heap's size when asked."""
        i, k, left = self._as_triple(move)
        return say_heap_move(i, k, left, self.word, heaps[i] if size else None, self.unit)

    def describe(self, move: Any, heaps: Sequence[int]) -> str:
        i, k, left = self._as_triple(move)
        typed = type_heap_move(i, k, left, k != 0 and self._ambiguous(heaps[i], k))
        return f"{self.say(move, heaps)} ({typed})"

    def _ambiguous(self, heap: int, take: int) -> bool:
        return len({left for k, left in self._heap_moves(heap) if k == take}) > 1

    def parse(self, text: str, heaps: list[int]) -> list[int]:
        w = self.word
        i, take, left = read_heap_move(text, w)
        if not 0 <= i < len(heaps):
            numbered = f"the only {w} is {w} 0" if len(heaps) == 1 else \
                f"the {w}s are numbered 0 to {len(heaps) - 1}"
            raise ValueError(f"there is no {w} {i}: {numbered}")
        h = heaps[i]
        moves = self._heap_moves(h)
        if not moves:
            movable = [str(j) for j, x in enumerate(heaps) if self._heap_moves(x)]
            raise ValueError(f"{w} {i} ({_count(h, *self.unit)}) cannot be moved in {self.name}; "
                             f"{w}s that can: {', '.join(movable)}")
        takes = sorted({k for k, _ in moves})
        if takes == [0]:  # a game that only splits heaps (Grundy's game)
            return self._split(i, h, moves, left, heaps)
        may = f"{self.name} may take {_choices(takes)} from it"
        if take is None:
            take = h - sum(left or ())
            if take < 0:
                raise ValueError(f"{w} {i} has only {_count(h, *self.unit)}: it cannot leave "
                                 f"{_said(left or ())}")
        if take > h:
            raise ValueError(f"{w} {i} has only {_count(h, *self.unit)}; {may}")
        fits = [(k, rest) for k, rest in moves if k == take and (left is None or rest == left)]
        if not fits:
            if take not in takes:
                raise ValueError(f"taking {take} from {w} {i} ({_count(h, *self.unit)}) is not "
                                 f"allowed: {may}")
            allowed = sorted({rest for k, rest in moves if k == take})
            raise ValueError(f"taking {take} from {w} {i} ({h}) and leaving {_said(left or ())} "
                             f"is not allowed: it may leave " + ", or ".join(_said(r) for r in allowed))
        if len({rest for _, rest in fits}) > 1:
            allowed = sorted({rest for _, rest in fits})
            raise ValueError(f"taking {take} from {w} {i} ({h}) may leave "
                             + ", or ".join(_said(r) for r in allowed)
                             + f": say which, e.g. '{i}:{take} -> "
                             + (" ".join(map(str, allowed[-1])) or "0") + "'")
        return self._apply((i, take, fits[0][1]), heaps)


    def _split(self, i: int, h: int, moves: list[tuple[int, tuple[int, ...]]],
               left: tuple[int, ...] | None, heaps: list[int]) -> list[int]:
        """A split typed in a game whose every move splits a heap, tokens kept."""
        options = {rest for _, rest in moves}
        if left is None or left not in options:
            got = "" if left is None else f" into {_said(left)}"
            raise ValueError(f"{self.name} only splits heaps, keeping every token: heap {i} "
                             f"({h}) cannot be split{got}; it may become {_become(options)} "
                             f"(e.g. '{i} -> {' '.join(map(str, min(options)))}')")
        return self._apply((i, 0, left), heaps)


_HEAP_FORMS = """Moves ({w}s are numbered from 0, left to right):
  take 2 from {w} 1           or  1:2            take 2 {units} from {w} 1
  take 1 from {w} 0 leaving 1 and 3   or  0:1 -> 1 3   say what is left when it could differ
  0 -> 1 3                    {w} 0 becomes {w}s of 1 and 3 (the sizes left)"""
_GRUNDY_FORMS = """Moves (heaps are numbered from 0, left to right):
  split heap 0 into 3 and 4   or  0 -> 3 4       two heaps of different sizes"""


class NimPlay(_HeapNotation):
    """Nim (:class:`.Nim`): take any number of stones from one pile.

    >>> NimPlay().parse("take 2 from pile 1", [3, 5]), NimPlay().parse("1:5", [3, 5])
    ([3, 3], [3, 0])
    """

    word = "pile"
    unit = ("stone", "stones")
    stuck = "no stone is left"
    how = "A move takes stones from one pile."

    def __init__(self, misere: bool = False) -> None:
        super().__init__(Nim(), "Nim", misere)
        self.forms = _HEAP_FORMS.format(w="pile", units="stones")

    def _heap_moves(self, heap: int) -> list[tuple[int, tuple[int, ...]]]:
        return [(k, (heap - k,) if heap > k else ()) for k in range(1, heap + 1)]

    def computer_move(self, piles: Any) -> tuple[Any, Any]:
        move = self.ruleset.winning_move(piles, misere=self.misere)
        if move is None:  # lost: take one stone from the largest pile, and hope
            i = max(range(len(piles)), key=lambda j: piles[j])
            move = Move(i, 1, piles[i] - 1)
        return move, self._apply(move, piles)

    def _as_triple(self, move: Any) -> tuple[int, int, tuple[int, ...]]:
        if isinstance(move, Move):
            return move.pile, move.take, (move.new_size,) if move.new_size else ()
        return super()._as_triple(move)

    def _apply(self, move: Any, piles: Sequence[int]) -> list[int]:
        # piles keep their places (an empty pile stays, as 0): the numbering never shifts
        i, k, _ = self._as_triple(move)
        return list(piles[:i]) + [piles[i] - k] + list(piles[i + 1:])

    def losing(self, piles: list[int]) -> bool:
        """Whether the player to move loses (the web playground asks)."""
        return self.ruleset.is_losing(piles, misere=self.misere)


class HeapPlay(_HeapNotation):
    """A heap game (:class:`.HeapGame`: subtraction, octal, take-and-break, Grundy's game),
    shown by its name in the literature when it has one.

    >>> HeapPlay(catalogue.heap_game("0.07")).name
    "Dawson's Kayles (0.07)"
    """

    stuck = "no heap can be moved"
    how = "A move takes tokens from one heap (and may split what is left) as the code allows."

    def __init__(self, game: HeapGame, misere: bool = False) -> None:
        super().__init__(game, _heap_title(game), misere)
        self.game = game
        if game.kind == "grundy":
            self.how = "A move splits one heap into two heaps of different sizes."
        self.forms = _GRUNDY_FORMS if game.kind == "grundy" else \
            _HEAP_FORMS.format(w="heap", units="tokens")

    def _heap_moves(self, heap: int) -> list[tuple[int, tuple[int, ...]]]:
        return [(k, tuple(sorted(left))) for k, left in self.game.heap_moves(heap)]

    def _apply(self, move: Any, heaps: Sequence[int]) -> list[int]:
        i, _, left = move
        return list(heaps[:i]) + sorted(left) + list(heaps[i + 1:])


def _heap_title(game: HeapGame) -> str:
    """Kayles, Dawson's Kayles, ... for the codes with a name; the code otherwise."""
    if game.kind == "grundy":
        return game.name
    named = heap_game_name(game.code)
    if named is not None:
        return f"{named} ({game.code})"
    if game.name != game.code:
        return f"{game.name} ({game.code})"
    kind = {"octal": "the octal game", "subtraction": "the subtraction game"}
    return f"{kind.get(game.kind, 'the take-and-break game')} {game.code}"


# ---- a row of coins ---------------------------------------------------------------------------


def _turning_title(game: TurningGame) -> str:
    if game.name in NAMED_GAMES or game.name.startswith("at-most-"):
        return game.name.replace("-", " ").title() + f" ({game.code})"
    return game.name if game.code is None or game.name != game.code else \
        f"the turning game {game.code}"


class TurningPlay(GamePlay):
    """A coin-turning game on a row of coins (:class:`.TurningGame`): a move lists the coins
    turned, the rightmost of them a head (coins numbered from 0, left to right).

    >>> from nimbers.games.turning import named_game
    >>> TurningPlay(named_game("ruler"), 5).parse("turn 2 3 4", [0, 4])
    [0, 2, 3]
    """

    stuck = "no head can be turned"
    how = "A move turns over coins, the rightmost of them from heads to tails."
    forms = ("Moves (coins are numbered from 0, left to right): the coins to turn, the "
             "rightmost a head:\n  turn 1 4    or  1 4    or  1,4\n"
             "The game's rule says which sets of coins may be turned together.")

    def __init__(self, game: TurningGame, length: int, misere: bool = False) -> None:
        super().__init__(game, _turning_title(game), misere)
        self.game = game
        self.length = int(length)

    def show(self, heads: Sequence[int]) -> str:
        hs = set(heads)
        row = "".join("H" if i in hs else "T" for i in range(self.length))
        return f"coins: {row}   (coins 0 to {self.length - 1} from the left)"

    def _sets_at(self, x: int, most: int | None = None) -> list[tuple[int, ...]]:
        out: list[tuple[int, ...]] = []
        for others in self.game.move_sets(x):
            coins = tuple(sorted(others)) + (x,)
            if coins not in out:
                out.append(coins)
            if most is not None and len(out) >= most:
                break
        return out

    def parse(self, text: str, heads: list[int]) -> list[int]:
        coins = read_coin_move(text)
        if coins[-1] >= self.length:
            raise ValueError(f"there is no coin {coins[-1]}: coins are numbered 0 to "
                             f"{self.length - 1}")
        x = coins[-1]
        if x not in heads:
            raise ValueError(f"coin {x} is a tail: the rightmost coin turned must be a head "
                             f"(heads: {', '.join(map(str, heads)) or 'none'})")
        legal = self._sets_at(x)
        if not legal:
            raise ValueError(f"{self.name} allows no move at coin {x}")
        if tuple(coins) not in legal:
            shown = "; ".join(" ".join(map(str, s)) for s in legal[:6])
            more = f" (and {len(legal) - 6} more)" if len(legal) > 6 else ""
            raise ValueError(f"{self.name} does not allow turning coins "
                             f"{' '.join(map(str, coins))}: at head {x} it may turn {shown}{more}")
        return sorted(set(heads) ^ set(coins))

    def describe(self, move: Any, heads: Sequence[int]) -> str:
        return "turn " + " ".join(str(c) for c in move)

    def _apply(self, move: Any, heads: Sequence[int]) -> list[int]:
        return sorted(set(heads) ^ set(move))

    def _any_move(self, heads: Sequence[int]) -> list[int]:
        for x in reversed(sorted(heads)):
            sets = self._sets_at(x, most=1)
            if sets:
                return list(sets[0])
        raise ValueError("no move is left")


# ---- a board of coins: Tartan products and Acrostic Twins -------------------------------------

_BOARD_ORIENTATION = "row:column, both from 0; row 0 at the top, column 0 on the left"


class _Board(GamePlay):
    """A game on a board of coins: shown as a grid of H and T, moves typed as the coins
    row:column; a subclass reads which coins a typed move turns (``parse``)."""

    stuck = "no head can be turned"
    #: a move, typed, for the messages
    example = "1:2 3:5"

    def __init__(self, game: Any, shape: tuple[int, int], misere: bool = False) -> None:
        super().__init__(game, game.name, misere)
        self.game = game
        self.shape = (int(shape[0]), int(shape[1]))

    def show(self, heads: Sequence[tuple[int, ...]]) -> str:
        hs = set(heads)
        width = len(str(self.shape[1] - 1))
        top = "    " + " ".join(f"{c:>{width}}" for c in range(self.shape[1]))
        lines = [top] + [f"{r:>3} " + " ".join(f"{'H' if (r, c) in hs else 'T':>{width}}"
                                               for c in range(self.shape[1]))
                         for r in range(self.shape[0])]
        return "\n".join(lines)

    def _typed_coins(self, text: str) -> list[tuple[int, int]]:
        """The coins typed, each once, on the board (ValueError with the reason)."""
        typed = read_board_move(text, self.example)
        if len(set(typed)) < len(typed):
            twice = next(c for c in typed if typed.count(c) > 1)
            raise NotationError(f"coin {twice[0]}:{twice[1]} is typed twice: a move turns "
                                "each coin once")
        coins = typed
        rows, cols = self.shape
        for r, c in coins:
            if r >= rows or c >= cols:
                raise ValueError(f"there is no coin {r}:{c}: rows 0 to {rows - 1}, columns 0 to "
                                 f"{cols - 1}")
        return coins

    def _check_head(self, head: tuple[int, int], which: str,
                    heads: Sequence[tuple[int, ...]]) -> None:
        if head not in heads:
            raise ValueError(f"coin {head[0]}:{head[1]}, the {which} of the move, is a tail; "
                             "heads: " + (", ".join(f"{r}:{c}" for r, c in heads) or "none"))

    def _apply(self, move: Any, heads: Sequence[tuple[int, ...]]) -> list[tuple[int, ...]]:
        return sorted(set(heads) ^ {tuple(c) for c in move})

    def _any_move(self, heads: Sequence[tuple[int, ...]]) -> list[tuple[int, ...]]:
        for h in reversed(sorted(heads)):
            for coins in self.game.move_sets(h):
                return list(coins)
        raise ValueError("no move is left")


class BoardPlay(_Board):
    """A Tartan product on a board (:class:`.Tartan`: Turning Corners, Rugs, A x B): a move
    turns the coins R x C of a row move R and a column move C, the bottom-right one a head.
    It is typed as those coins, or as two opposite corners of their rectangle when that
    says which move is meant (always for Turning Corners and Rugs).

    >>> BoardPlay(catalogue.board_game("turning-corners"), (4, 6)).parse("1:2 3:5", [(3, 5)])
    [(1, 2), (1, 5), (3, 2)]
    """

    forms = (f"Moves ({_BOARD_ORIENTATION}):\n"
             "  1:2 3:5              two opposite corners of the rectangle; the bottom-right "
             "one is a head\n"
             "  1:2 1:5 3:2 3:5      or every coin turned (rows x columns of the factors' moves)")

    def __init__(self, game: Tartan, shape: tuple[int, int], misere: bool = False) -> None:
        if len(game.factors) != 2:
            raise ValueError("play on a board needs a product of two games")
        super().__init__(game, shape, misere)
        rows, cols = (_turning_title(f) for f in game.factors)
        self.how = (f"A move turns the coins of a rectangle: rows as {rows} turns coins, "
                    f"columns as {cols}; its bottom-right coin goes from heads to tails.")

    def _axis_sets(self, axis: int, x: int) -> list[tuple[int, ...]]:
        out = []
        for others in self.game.factors[axis].move_sets(x):
            s = tuple(sorted(others)) + (x,)
            if s not in out:
                out.append(s)
        return out

    def _resolve(self, coins: Sequence[tuple[int, ...]]) -> list[tuple[int, ...]]:
        """The move meant by the typed coins: a product R x C typed whole, or its corners."""
        rows = sorted({r for r, _ in coins})
        cols = sorted({c for _, c in coins})
        whole = sorted(product(rows, cols))
        bottom, right = rows[-1], cols[-1]
        corners = {(rows[0], cols[0]), (bottom, right)}, {(rows[0], right), (bottom, cols[0])}
        typed = set(coins)
        if typed != set(whole) and not any(typed == c for c in corners):
            raise ValueError("type every coin of a rectangle's rows x columns, or two opposite "
                             "corners of it, e.g. '1:2 3:5'")
        row_sets = self._axis_choices(0, rows)
        col_sets = self._axis_choices(1, cols)
        for axis, sets, typed_axis in ((0, row_sets, rows), (1, col_sets, cols)):
            if not sets:
                raise ValueError(self._not_a_move(axis, typed_axis))
        if len(row_sets) * len(col_sets) > 1:
            options = [" ".join(f"{r}:{c}" for r, c in product(rs, cs))
                       for rs in row_sets for cs in col_sets][:3]
            raise ValueError("those corners fit several moves: type every coin, e.g. "
                             + " or ".join(repr(o) for o in options))
        return sorted(product(row_sets[0], col_sets[0]))

    def _axis_choices(self, axis: int, typed: list[int]) -> list[tuple[int, ...]]:
        """The factor's move sets ending at the largest typed coordinate: the typed set
        itself when it is one, else (one or two coordinates: corners) those spanning from
        the smallest to the largest."""
        legal = self._axis_sets(axis, typed[-1])
        if tuple(typed) in legal:
            return [tuple(typed)]
        if len(typed) > 2:
            return []
        return [s for s in legal if s[0] == typed[0]]

    def _not_a_move(self, axis: int, typed: list[int]) -> str:
        factor = self.game.factors[axis]
        what = ("row", "column")[axis] + ("s" if len(typed) > 1 else "")
        verb = "are" if len(typed) > 1 else "is"
        legal = self._axis_sets(axis, typed[-1])
        shown = "; ".join(" ".join(map(str, s)) for s in legal[:6]) or "nothing"
        more = f" (and {len(legal) - 6} more)" if len(legal) > 6 else ""
        return (f"the {what} {' '.join(map(str, typed))} {verb} not a move of "
                f"{_turning_title(factor)}: ending at {typed[-1]} it may turn {shown}{more}")

    def parse(self, text: str, heads: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
        coins = self._typed_coins(text)
        self._check_head((max(r for r, _ in coins), max(c for _, c in coins)), "bottom-right",
                         heads)
        return self._apply(self._resolve(coins), heads)

    def describe(self, move: Any, heads: Sequence[tuple[int, ...]]) -> str:
        coins = sorted(tuple(c) for c in move)
        rows = sorted({r for r, _ in coins})
        cols = sorted({c for _, c in coins})
        if len(coins) == 1:
            return f"turn {coins[0][0]}:{coins[0][1]} (one coin)"
        typed = f"{rows[0]}:{cols[0]} {rows[-1]}:{cols[-1]}"
        try:
            short = self._resolve([(rows[0], cols[0]), (rows[-1], cols[-1])]) == coins
        except ValueError:
            short = False
        if not short:
            typed = " ".join(f"{r}:{c}" for r, c in coins)
        return (f"turn rows {' '.join(map(str, rows))} x columns {' '.join(map(str, cols))} "
                f"({typed})")


class AcrosticPlay(_Board):
    """Acrostic Twins on a board (:class:`.AcrosticTwins`, Winning Ways ch. 14): a move
    turns two coins in one row or one column, the right (or lower) one a head.  It is typed
    as the two coins.

    >>> from nimbers.games.tartan import acrostic_twins
    >>> game = AcrosticPlay(acrostic_twins(), (4, 6))
    >>> game.parse("1:2 1:5", [(1, 5), (3, 3)])
    [(1, 2), (3, 3)]
    >>> game.describe([(1, 2), (1, 5)], [(1, 5), (3, 3)])
    'turn 1:2 and 1:5, in row 1 (1:2 1:5)'
    """

    example = "1:2 1:5"
    how = ("A move turns two coins in one row or one column; the right (or lower) one goes "
           "from heads to tails.")
    forms = (f"Moves ({_BOARD_ORIENTATION}):\n"
             "  1:2 1:5      two coins in one row: the right one is a head\n"
             "  0:4 3:4      or two coins in one column: the lower one is a head")

    def parse(self, text: str, heads: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
        coins = sorted(self._typed_coins(text))
        if len(coins) != 2:
            raise ValueError(f"a move of {self.name} turns two coins, in one row or one column "
                             f"(e.g. '{self.example}'); got {len(coins)}")
        (r0, c0), (r1, c1) = coins
        if r0 != r1 and c0 != c1:
            raise ValueError(f"coins {r0}:{c0} and {r1}:{c1} are in neither one row nor one "
                             f"column: a move of {self.name} turns two coins of one row or of "
                             "one column")
        head = coins[1]  # of two coins in a line, the later is the right or the lower one
        self._check_head(head, "right one" if r0 == r1 else "lower one", heads)
        if coins not in (sorted(m) for m in self.game.move_sets(head)):
            raise ValueError(f"{self.name} does not allow turning {r0}:{c0} and {r1}:{c1}")
        return self._apply(coins, heads)

    def describe(self, move: Any, heads: Sequence[tuple[int, ...]]) -> str:
        (r0, c0), (r1, c1) = sorted(tuple(c) for c in move)
        line = f"row {r0}" if r0 == r1 else f"column {c0}"
        return f"turn {r0}:{c0} and {r1}:{c1}, in {line} ({r0}:{c0} {r1}:{c1})"


# ---- games by name ----------------------------------------------------------------------------

#: the largest positions ``setup_game`` sets up: play is for people, and a move is checked
#: against every move of its heap, head or rectangle
MAX_HEAP, MAX_ROW, MAX_SIDE = 100_000, 20, 16

_DEFAULT_HEAPS = ["3", "5", "7"]
_DEFAULT_ROW = "THHTHTHH"
_DEFAULT_BOARD = ["1:2", "2:3", "3:1"]


def known_games() -> str:
    """The names ``setup_game`` knows, in one line (the catalogue's)."""
    return catalogue.described()


def setup_game(name: str, setup: Sequence[str] = (), misere: bool = False
               ) -> tuple[GamePlay, Any]:
    """A game and its starting position from what a person types: the game's name in the
    literature (or its code) and the position.

    Parameters
    ----------
    name : str
        "nim"; a heap game ("kayles", "dawson's kayles", "dawsons-chess", "grundy", ... or
        a code such as "0.77"); a coin-turning family ("ruler", "mocking-turtles", ... or a
        code such as "1-3C(5)"); a board ("turning-corners", "rugs", or "A x B" for the
        Tartan product of two coin-turning games; "acrostic-twins").  The older forms "octal CODE HEAPS..."
        and "turning GAME ROW" still work.
    setup : sequence of str
        Pile or heap sizes ("3", "5", "7": the default), a row of coins ("THHTH"; default
        THHTHTHH), or heads on a board as row:column ("1:2", "3:5"; default 1:2 2:3 3:1).
    misere : bool
        The misère rule: whoever moves last loses.

    Raises
    ------
    ValueError
        an unknown name, or a position that does not fit the game or is larger than play
        takes (heaps of 100,000 tokens, rows of 20 coins, boards of 16 x 16).

    >>> game, heaps = setup_game("dawson's chess", ["4", "6"], misere=True)
    >>> game.name, heaps, game.misere
    ("Dawson's Chess (0.137)", [4, 6], True)
    >>> setup_game("turning-corners", ["3:5"])[1]
    [(3, 5)]
    >>> setup_game("Acrostic Twins", ["1:2", "3:3"], misere=True)[0].name
    'Acrostic Twins'
    """
    key = game_key(name)
    setup = list(setup)
    if key in ("octal", "heap", "take-break"):
        if len(setup) < 2:  # the older form: a code and the heaps, both given
            raise ValueError(f"play {key} needs a code, then heap sizes, e.g. 'play {key} 0.77 "
                             "3 5' (or by name, with heaps 3 5 7 by default: 'play kayles')")
        return setup_game(setup[0], setup[1:], misere)
    if key == "turning":
        if not setup:
            raise ValueError("play turning needs a game, then a row like THHTH, e.g. ruler THHTH")
        return setup_game(setup[0], setup[1:], misere)
    kind = catalogue.family(name)
    if kind == "nim":
        return NimPlay(misere), _sizes(setup or _DEFAULT_HEAPS, "pile")
    if kind == "board":
        return _board(name, setup, misere)
    if kind == "heap":
        return HeapPlay(catalogue.heap_game(name), misere), \
            _sizes(setup or _DEFAULT_HEAPS, "heap")
    return _row(catalogue.turning_game(name), setup, misere)


def _sizes(words: Sequence[str], what: str) -> list[int]:
    return read_numbers(words, f"{what} sizes", most=MAX_HEAP)


def _row(game: TurningGame, setup: Sequence[str], misere: bool) -> tuple[GamePlay, Any]:
    row = "".join(setup) if setup else _DEFAULT_ROW
    heads = read_row(row)
    if len(row) > MAX_ROW:
        raise ValueError(f"a row here has at most {MAX_ROW} coins, got {len(row)}")
    return TurningPlay(game, len(row), misere), heads


def _coins_once(words: Sequence[str], noun: str, why: str,
                example: str | None = None) -> list[tuple[int, int]]:
    """The coins typed, one "row:column" a word, each at most once: heads_2d alone would
    cancel a coin listed twice (the turning convention: turned twice), which a person typing
    a move or a board never means.  A malformed word's error shows ``example`` when given."""
    coins: list[tuple[int, int]] = []
    for w in words:
        try:
            r, c = read_cell(w)
        except NotationError as exc:
            if example is None:
                raise
            raise NotationError(f"{exc} (e.g. '{example}')") from None
        if (r, c) in coins:
            raise ValueError(f"{noun} {r}:{c} is typed twice: {why}")
        coins.append((r, c))
    return coins


def _board(name: str, setup: Sequence[str], misere: bool) -> tuple[GamePlay, Any]:
    game = catalogue.board_game(name)
    typed = [w for part in (setup or _DEFAULT_BOARD) for w in part.replace(",", " ").split()]
    heads = sorted(_coins_once(typed, "head", "list each head once"))
    if not heads:
        raise ValueError("give at least one head, as row:column")
    shape = (max(r for r, _ in heads) + 1, max(c for _, c in heads) + 1)
    if max(shape) > MAX_SIDE:
        raise ValueError(f"a board here has at most {MAX_SIDE} rows and columns (rows and "
                         f"columns 0 to {MAX_SIDE - 1}), got {shape[0]} x {shape[1]}")
    if isinstance(game, AcrosticTwins):
        return AcrosticPlay(game, shape, misere), heads
    return BoardPlay(game, shape, misere), heads
