"""play: a game against a perfect opponent, in the terminal."""

from __future__ import annotations

import argparse
import sys

from .options import Commands, StreamError, UsageError, output_errors, write_out


def play_commands(commands: Commands) -> None:
    """play."""
    p = commands.add("play", "play a game against a perfect opponent, in the literature's "
                     "words (help, hint and q while playing)",
                     "nimbers play kayles 3 5 7;  nimbers play ruler THHTH --misere", _play)
    p.description = (
        "Play a game against a perfect opponent, in the literature's words. Moves: on heaps "
        "'take 2 from heap 1' or '1:2' (add '-> 1 3' for the heaps left when a split could "
        "differ), or '0 -> 1 3'; on a row of coins the coins turned, 'turn 2 3 4'; on a board "
        "two opposite corners of the rectangle, '1:2 3:5', or in Acrostic Twins the two coins "
        "of a row or a column, '1:2 1:5'. --misere plays every game under the misère rule "
        "(searched: small positions only, e.g. boards of at most 16 coins). While playing: help (the forms, with a "
        "move legal now), hint (the value and a winning move), q (quit).")
    p.add_argument("game", metavar="GAME",
                   help="nim; a heap game: kayles, dawsons-kayles, \"dawson's chess\", guiles, "
                        "treblecross, officers, grundy, a code like 0.77 or a subtraction game "
                        "like 'S(1,3,4)'; a row of coins: "
                        "ruler, mocking-turtles, turning-turtles, twins, motley, ..., or a code "
                        "like 1-3; a board: turning-corners, rugs, 'A x B' (the Tartan "
                        "product, e.g. 'ruler x twins') or acrostic-twins")
    p.add_argument("setup", nargs="*", metavar="POSITION",
                   help="pile or heap sizes (e.g. 3 5 7, the default), a row of H and T "
                        "(e.g. THHTH) or heads on a board as row:column (e.g. 1:2 3:5)")
    p.add_argument("--misere", action="store_true",
                   help="misère play, for every game: whoever moves last loses")
    p.add_argument("--quotient", metavar="FILE.json",
                   help="with --misere, a heap game: answer from a misère quotient saved by "
                        "MisereQuotient.save (proved against the game when loaded)")
    p.add_argument("--first", choices=["human", "computer"], default="human",
                   help="who moves first (default: you)")


def _play(args: argparse.Namespace) -> None:
    from ..play import play, setup_game
    game, position = setup_game(args.game, args.setup, misere=args.misere)
    if args.quotient is not None:
        from .quotient import attach
        try:
            attach(getattr(game, "ruleset", None), args.quotient)
        except ValueError as e:
            raise UsageError(str(e)) from None
    play(game, position, first=args.first, read=_read_move, write=_write_line)
    return None


def _read_move(prompt: str) -> str:
    """input() for the play loop, its streams failing as every command's do (one line,
    status 1); the end of the input still quits the game (EOFError)."""
    if sys.stdin is None:
        raise StreamError("standard input is closed")
    if sys.stdout is None:
        raise StreamError("standard output is closed")
    with output_errors():
        return input(prompt)


def _write_line(text: str) -> None:
    write_out(text, sys.stdout)
