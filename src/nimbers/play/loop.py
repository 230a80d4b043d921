"""The game loop: show the position, read a move, answer it, say who won and why."""

from __future__ import annotations

from typing import Any, Callable

from .base import GamePlay


Read = Callable[[str], str]
Write = Callable[[str], None]


class Quit(Exception):
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

    >>> from nimbers.play import NimPlay
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
    except Quit:
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
            raise Quit from None
        text = text.strip()
        command = text.lower()
        if command in ("q", "quit", "exit"):
            raise Quit
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
