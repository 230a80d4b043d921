"""Playing a game against the computer in a terminal: a loop that shows the position, reads
a typed move, rejects an illegal or malformed one with a one-line reason, answers with a
perfect move, and says who won.  ``q``, end of input or Ctrl-C quit cleanly.

A game for the loop is an object with: ``rules`` (one line for the human), ``show(position)``,
``over(position)``, ``parse(text, position) -> new position`` (ValueError with the reason
for a bad move), ``computer(position) -> (description, new position)`` and ``last_mover_wins``.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from .heap import HeapGame
from .nim import is_losing, winning_moves

__all__ = ["play", "NimPlay", "HeapPlay", "TurningPlay"]


class _Quit(Exception):
    pass


def play(game: Any, position: Any, first: str = "human",
         read: Callable[[str], str] = input, write: Callable[[str], None] = print) -> str:
    """Runs the game loop; returns "human", "computer" or "quit"."""
    if first not in ("human", "computer"):
        raise ValueError("first must be 'human' or 'computer'")
    write(game.rules)
    mover = first
    try:
        while not game.over(position):
            write(game.show(position))
            if mover == "computer":
                text, position = game.computer(position)
                write(f"computer: {text}")
            else:
                position = _ask(game, position, read, write)
            mover = "human" if mover == "computer" else "computer"
    except _Quit:
        write("bye")
        return "quit"
    write(game.show(position))
    # The player to move now cannot move: under the normal rule that player lost, under the
    # misère rule that player won (the other one took the last stone).
    other = "computer" if mover == "human" else "human"
    winner = other if game.last_mover_wins else mover
    write("you win!" if winner == "human" else "the computer wins.")
    return winner


def _ask(game: Any, position: Any, read: Callable[[str], str], write: Callable[[str], None]) -> Any:
    while True:
        try:
            text = read("your move> ")
        except (EOFError, KeyboardInterrupt):
            raise _Quit from None
        text = text.strip()
        if text.lower() in ("q", "quit", "exit"):
            raise _Quit
        if not text:
            continue
        try:
            return game.parse(text, position)
        except ValueError as exc:
            write(f"illegal move: {exc}")


def _numbers(text: str) -> list[int]:
    try:
        return [int(w) for w in text.replace(",", " ").split()]
    except ValueError:
        raise ValueError(f"type numbers, e.g. '2 3' (got {text!r})") from None


def _stones(n: int) -> str:
    return "1 stone" if n == 1 else f"{n} stones"


class NimPlay:
    """Nim: a move is "PILE TAKE" (piles numbered from 0, as everywhere in nimbers)."""

    def __init__(self, misere: bool = False) -> None:
        self.misere = misere
        self.last_mover_wins = not misere
        kind = "misère Nim: whoever takes the last stone loses" if misere else \
            "Nim: whoever takes the last stone wins"
        self.rules = f"{kind}. Type PILE TAKE (piles from 0, e.g. '2 3'), or q to quit."

    def show(self, piles: Sequence[int]) -> str:
        return "piles: " + "  ".join(f"{i}:{p}" for i, p in enumerate(piles))

    def over(self, piles: Sequence[int]) -> bool:
        return not any(piles)

    def parse(self, text: str, piles: list[int]) -> list[int]:
        nums = _numbers(text)
        if len(nums) != 2:
            raise ValueError("type two numbers: the pile and how many stones to take")
        pile, take = nums
        if not 0 <= pile < len(piles):
            raise ValueError(f"there is no pile {pile} (piles 0 to {len(piles) - 1})")
        if take < 1:
            raise ValueError("take at least one stone")
        if take > piles[pile]:
            raise ValueError(f"pile {pile} has only {_stones(piles[pile])}")
        new = list(piles)
        new[pile] -= take
        return new

    def computer(self, piles: list[int]) -> tuple[str, list[int]]:
        moves = winning_moves(piles, misere=self.misere)
        if moves:
            m = moves[0]
            pile, take = m.pile, m.take
        else:  # a lost position: take one stone from the largest pile, and hope
            pile = max(range(len(piles)), key=lambda i: piles[i])
            take = 1
        new = list(piles)
        new[pile] -= take
        return f"takes {take} from pile {pile}", new

    def losing(self, piles: list[int]) -> bool:
        return is_losing(piles, misere=self.misere)


class HeapPlay:
    """A heap game: a move is "HEAP TAKE [HEAPS LEFT...]" (heaps numbered from 0)."""

    def __init__(self, game: HeapGame) -> None:
        self.game = game
        self.last_mover_wins = True
        self.rules = (f"{game.name} ({game.code}): whoever moves last wins. Type HEAP TAKE "
                      "and the sizes of the heaps it leaves (e.g. '1 2 3 4'), or q to quit.")

    def show(self, heaps: Sequence[int]) -> str:
        return "heaps: " + "  ".join(f"{i}:{h}" for i, h in enumerate(heaps))

    def over(self, heaps: Sequence[int]) -> bool:
        return not any(next(self.game.heap_moves(h), None) is not None for h in heaps)

    def parse(self, text: str, heaps: list[int]) -> list[int]:
        nums = _numbers(text)
        if len(nums) < 2:
            raise ValueError("type the heap, the tokens to take, and the heaps left")
        heap, take, left = nums[0], nums[1], tuple(sorted(nums[2:]))
        if not 0 <= heap < len(heaps):
            raise ValueError(f"there is no heap {heap} (heaps 0 to {len(heaps) - 1})")
        h = heaps[heap]
        legal = {(k, tuple(sorted(rest))) for k, rest in self.game.heap_moves(h)}
        if (take, left) not in legal:
            options = sorted({k for k, _ in legal})
            raise ValueError(f"that move is not allowed from a heap of {h}"
                             + (f" (it may take {options} tokens)" if options else " (no move)"))
        return heaps[:heap] + list(left) + heaps[heap + 1:]

    def computer(self, heaps: list[int]) -> tuple[str, list[int]]:
        move = self.game.winning_move(heaps)
        if move is None:  # lost: any legal move
            i = next(i for i, h in enumerate(heaps) if next(self.game.heap_moves(h), None))
            k, left = next(self.game.heap_moves(heaps[i]))
        else:
            i, k, left = move
        desc = f"takes {k} from heap {i}" + (f", leaving {list(left)}" if left else "")
        return desc, heaps[:i] + list(left) + heaps[i + 1:]


class TurningPlay:
    """A coin-turning game on a row of coins: a move lists the coins to turn, e.g. "1 4"
    (coins numbered from 0; the rightmost must be a head)."""

    def __init__(self, game: Any, length: int) -> None:
        self.game = game
        self.length = length
        self.last_mover_wins = True
        self.rules = (f"{game.name}: turn coins, the rightmost from heads to tails; whoever "
                      "moves last wins. Type the coins to turn (from 0), e.g. '1 4', or q.")

    def show(self, heads: Sequence[int]) -> str:
        row = "".join("H" if i in set(heads) else "T" for i in range(self.length))
        return f"coins: {row}   (0..{self.length - 1} from the left)"

    def over(self, heads: Sequence[int]) -> bool:
        return not any(next(self.game.move_sets(h), None) is not None for h in heads)

    def parse(self, text: str, heads: list[int]) -> list[int]:
        coins = sorted(set(_numbers(text)))
        if not coins:
            raise ValueError("type the coins to turn")
        if coins[0] < 0 or coins[-1] >= self.length:
            raise ValueError(f"coins are numbered 0 to {self.length - 1}")
        x = coins[-1]
        if x not in heads:
            raise ValueError(f"the rightmost coin turned ({x}) must be a head")
        others = tuple(coins[:-1])
        if not any(tuple(sorted(s)) == others for s in self.game.move_sets(x)):
            raise ValueError(f"{self.game.name} does not allow turning those coins")
        return sorted(set(heads) ^ set(coins))

    def computer(self, heads: list[int]) -> tuple[str, list[int]]:
        move = self.game.winning_move(heads)
        if move is None:  # lost: any legal move, at the rightmost head that has one
            x = next(h for h in reversed(heads) if next(self.game.move_sets(h), None) is not None)
            move = sorted(next(self.game.move_sets(x))) + [x]
        return "turns " + " ".join(str(c) for c in move), sorted(set(heads) ^ set(move))
