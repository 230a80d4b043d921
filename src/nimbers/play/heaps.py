"""Heaps in play: Nim and every heap game, moves read and said as Winning Ways writes them."""

from __future__ import annotations

from typing import Any, Iterable, Sequence

from ..games.codes import heap_game_name
from ..games.heap import HeapGame
from ..games.nim import Move, Nim
from ..notation import HeapMove, read_heap_move, say_count, say_heap_move, say_sizes, type_heap_move
from .base import GamePlay


def _become(options: Iterable[tuple[int, ...]], most: int = 4) -> str:
    shown = sorted(options)
    more = f", ... ({len(shown) - most} more)" if len(shown) > most else ""
    return ", or ".join(say_sizes(r) for r in shown[:most]) + more


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
        """Whether taking ``take`` from this heap may leave different heaps (then the move
        is typed with what it leaves); stops at the second one, whatever the heap's size."""
        seen: set[tuple[int, ...]] = set()
        for left in self._leaving(heap, take):
            seen.add(tuple(sorted(left)))
            if len(seen) > 1:
                return True
        return False

    def _leaving(self, heap: int, take: int) -> Iterable[tuple[int, ...]]:
        """What a move taking ``take`` from this heap may leave (a subclass's rules)."""
        return (left for k, left in self._heap_moves(heap) if k == take)

    def parse(self, text: str, heaps: list[int]) -> list[int]:
        return self.make(read_heap_move(text, self.word), heaps)

    def make(self, move: HeapMove, heaps: list[int]) -> list[int]:
        """The heaps after a move given as data (:class:`.HeapMove`: as read, or as the web
        page sends it), or ValueError saying why it is not legal here."""
        w = self.word
        i, take, left = move
        if not 0 <= i < len(heaps):
            numbered = f"the only {w} is {w} 0" if len(heaps) == 1 else \
                f"the {w}s are numbered 0 to {len(heaps) - 1}"
            raise ValueError(f"there is no {w} {i}: {numbered}")
        h = heaps[i]
        moves = self._heap_moves(h)
        if not moves:
            movable = [str(j) for j, x in enumerate(heaps) if self._heap_moves(x)]
            raise ValueError(f"{w} {i} ({say_count(h, *self.unit)}) cannot be moved in {self.name}; "
                             f"{w}s that can: {', '.join(movable)}")
        takes = sorted({k for k, _ in moves})
        if takes == [0]:  # a game that only splits heaps (Grundy's game)
            return self._split(i, h, moves, left, heaps)
        may = f"{self.name} may take {_choices(takes)} from it"
        if take is None:
            take = h - sum(left or ())
            if take < 0:
                raise ValueError(f"{w} {i} has only {say_count(h, *self.unit)}: it cannot leave "
                                 f"{say_sizes(left or ())}")
        if take > h:
            raise ValueError(f"{w} {i} has only {say_count(h, *self.unit)}; {may}")
        fits = [(k, rest) for k, rest in moves if k == take and (left is None or rest == left)]
        if not fits:
            if take not in takes:
                raise ValueError(f"taking {take} from {w} {i} ({say_count(h, *self.unit)}) is not "
                                 f"allowed: {may}")
            allowed = sorted({rest for k, rest in moves if k == take})
            raise ValueError(f"taking {take} from {w} {i} ({h}) and leaving {say_sizes(left or ())} "
                             f"is not allowed: it may leave " + ", or ".join(say_sizes(r) for r in allowed))
        if len({rest for _, rest in fits}) > 1:
            allowed = sorted({rest for _, rest in fits})
            raise ValueError(f"taking {take} from {w} {i} ({h}) may leave "
                             + ", or ".join(say_sizes(r) for r in allowed)
                             + f": say which, e.g. '{i}:{take} -> "
                             + (" ".join(map(str, allowed[-1])) or "0") + "'")
        return self._apply((i, take, fits[0][1]), heaps)


    def _split(self, i: int, h: int, moves: list[tuple[int, tuple[int, ...]]],
               left: tuple[int, ...] | None, heaps: list[int]) -> list[int]:
        """A split typed in a game whose every move splits a heap, tokens kept."""
        options = {rest for _, rest in moves}
        if left is None or left not in options:
            got = "" if left is None else f" into {say_sizes(left)}"
            raise ValueError(f"{self.name} only splits heaps, keeping every token: heap {i} "
                             f"({h}) cannot be split{got}; it may become {_become(options)} "
                             f"(e.g. '{i} -> {' '.join(map(str, min(options)))}')")
        return self._apply((i, 0, left), heaps)


_HEAP_FORMS = """Moves ({w}s are numbered from 0, left to right):
  take 2 from {w} 1           or  1:2            take 2 {units} from {w} 1
  take 1 from {w} 0 leaving 1 and 3   or  0:1 -> 1 3   say what is left when it could differ
  0 -> 1 3                    {w} 0 becomes {w}s of 1 and 3 (the sizes left)"""
#: the forms for games that never split a heap (Nim, subtraction games): no "leaving 1 and 3"
_TAKE_FORMS = """Moves ({w}s are numbered from 0, left to right):
  take 2 from {w} 1           or  1:2            take 2 {units} from {w} 1
  0 -> 3                      {w} 0 is left with 3 {units} (the size left)"""
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
        self.forms = _TAKE_FORMS.format(w="pile", units="stones")

    def _heap_moves(self, heap: int) -> list[tuple[int, tuple[int, ...]]]:
        return [(k, (heap - k,) if heap > k else ()) for k in range(1, heap + 1)]

    def _leaving(self, heap: int, take: int) -> Iterable[tuple[int, ...]]:
        return [(heap - take,) if heap > take else ()]  # Nim never splits a pile

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

    >>> from nimbers.games.catalogue import heap_game
    >>> HeapPlay(heap_game("0.07")).name
    "Dawson's Kayles (0.07)"
    """

    stuck = "no heap can be moved"
    how = "A move takes tokens from one heap (and may split what is left) as the code allows."

    def __init__(self, game: HeapGame, misere: bool = False) -> None:
        super().__init__(game, _heap_title(game), misere)
        self.game = game
        if game.kind == "grundy":
            self.how = "A move splits one heap into two heaps of different sizes."
        splits = game.rules is None or any(d & 12 for d in game.rules)
        if not splits:
            self.how = "A move takes tokens from one heap, as the rules allow."
        self.forms = _GRUNDY_FORMS if game.kind == "grundy" else \
            (_HEAP_FORMS if splits else _TAKE_FORMS).format(w="heap", units="tokens")

    def _heap_moves(self, heap: int) -> list[tuple[int, tuple[int, ...]]]:
        return [(k, tuple(sorted(left))) for k, left in self.game.heap_moves(heap)]

    def _leaving(self, heap: int, take: int) -> Iterable[tuple[int, ...]]:
        return self.game.heap_moves_taking(heap, take)

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
