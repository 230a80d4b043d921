"""nim, heap, turning, tartan: values, positions and winning moves of games."""

from __future__ import annotations

import argparse
from typing import Any

from ..notation import (CoinRow, NotationError, read_cell, read_cells, read_heads, read_heaps,
                        say_board_move, say_coin_move, write_integer)
from .options import (Commands, MAX_POSITION, UsageError, json_option, parse_count, parse_nimber,
                      to_json, write_values)


# ---- games ------------------------------------------------------------------------------------


def game_commands(commands: Commands) -> None:
    """nim, heap, turning, tartan."""
    p = commands.add("nim", "the nim-sum, the verdict and every winning move of a Nim position",
                     "nimbers nim 3 5 7", _nim)
    p.add_argument("piles", nargs="+", type=parse_nimber, metavar="PILE",
                   help="pile sizes (pile 0 first)")
    p.add_argument("--misere", action="store_true", help="whoever takes the last stone loses")
    json_option(p)

    p = commands.add("heap", "Grundy values (and period, statistics, misère values) of a heap game",
                     "nimbers heap 0.77 20 --period;  nimbers heap kayles --heaps 3,4 --misere",
                     _heap)
    p.add_argument("code", help="a heap game of the catalogue: a name (kayles, dawsons-kayles, "
                                "dawsons-chess, guiles, treblecross, officers, grundy), a "
                                "take-and-break code such as 0.77 or a subtraction game "
                                "such as 'S(1,3,4)'")
    p.add_argument("count", type=parse_count, nargs="?", default=30,
                   help="how many Grundy values to compute, for heaps 0 .. count-1 (default 30)")
    p.add_argument("--period", action="store_true",
                   help="also find the period (proved by the octal periodicity theorem), "
                        "searching up to count values or 2^20 (2^11 with three-heap splits), "
                        "whichever is more, or up to --max-n")
    p.add_argument("--max-n", type=parse_count, metavar="N",
                   help="with --period: how many values the period search may compute")
    p.add_argument("--stats", action="store_true",
                   help="print statistics instead of the values: the largest value, the rare "
                        "mask and the rare heap sizes with their values")
    p.add_argument("--save", metavar="FILE.npy",
                   help="save the values (.npy added to a name without it) and, beside "
                        "them, the state to resume from (FILE.npy.json); each file is written "
                        "whole or not at all. The values are then not printed (a line says "
                        "what was saved; --json still prints them)")
    p.add_argument("--resume", metavar="FILE.npy",
                   help="start from the values saved there (by --save) instead of from 0; "
                        "what is read is checked (a damaged or altered file is refused)")
    p.add_argument("--heaps", metavar="SIZES",
                   help="a position, heap sizes like 3,5: prints its value, who wins and a "
                        "winning move (e.g. nimbers heap kayles --heaps 3,4)")
    p.add_argument("--misere", action="store_true",
                   help="misère play (whoever moves last loses): the misère Grundy values "
                        "G-(0..count-1), or with --heaps the position's misère "
                        "value, outcome and winning move (e.g. nimbers heap 0.07 12 --misere)")
    p.add_argument("--genus", action="store_true",
                   help="with --misere: also the genus g^γ0γ1... of each heap (Winning Ways "
                        "ch. 13; searched, seconds beyond 20 heaps: e.g. nimbers heap kayles 12 "
                        "--misere --genus)")
    from .quotient import add_arguments as quotient_arguments
    quotient_arguments(p)
    from .frontier import add_arguments as frontier_arguments
    frontier_arguments(p)
    json_option(p)

    p = commands.add("turning", "values and winning moves of a coin-turning game",
                     "nimbers turning ruler --heads 0,3,7", _turning)
    p.add_argument("game", help="a family (turning-turtles, mocking-turtles or mock-turtles, "
                                "moebius, mogul, "
                                "gold-moidores, at-most-T, motley, twins, triplets, ruler, "
                                "progression, turnips, grunt) or a turning code like 1-3C(5)")
    p.add_argument("count", type=parse_count, nargs="?", default=20,
                   help="how many values G(0..count-1) to print (default 20)")
    p.add_argument("--heads", metavar="COINS",
                   help="a position: head coins '0,3,7' or a row like HTHHT; prints its value "
                        "and a winning move")
    p.add_argument("--misere", action="store_true",
                   help="misère play (whoever turns the last coin loses): misère values of "
                        "one head at each coin, or with --heads the position's misère value "
                        "and winning move; searched, so small rows only "
                        "(e.g. nimbers turning mocking-turtles --heads HTHH --misere)")
    json_option(p)

    p = commands.add("tartan", "values and winning moves of 2-D coin-turning games (Tartan theorem)",
                     "nimbers tartan twins twins --heads 3:5,2:2", _tartan)
    p.add_argument("games", nargs="+", help="two or more 1-D games (names or codes), or one "
                                            "of turning-corners, rugs, acrostic-twins")
    p.add_argument("--heads", metavar="HEADS", help="heads as row:column pairs, e.g. 3:5,2:2")
    p.add_argument("--size", type=parse_count, default=8, help="board side for the table")
    p.add_argument("--misere", action="store_true",
                   help="with --heads: the misère value and a misère winning move (searched: "
                        "boards of at most 16 coins, e.g. nimbers tartan rugs --heads 1:1,2:3 "
                        "--misere)")
    json_option(p)


def _nim(args: argparse.Namespace) -> str:
    from ..games.nim import is_losing, nim_sum, winning_moves
    total = nim_sum(args.piles)
    losing = is_losing(args.piles, misere=args.misere)
    moves = [] if losing else winning_moves(args.piles, misere=args.misere)
    if args.json:
        return to_json({"nim_sum": total, "losing": losing,
                        "winning_moves": [m._asdict() for m in moves]})
    lines = [f"nim-sum: {write_integer(total)}"]
    if losing:
        lines.append("P-position: the player to move loses (safe for the player who just moved)")
    else:
        lines.append("N-position: the player to move wins; winning moves (piles from 0):")
        for m in moves:
            lines.append(f"  take {write_integer(m.take)} from pile {m.pile} "
                         f"(leaving {write_integer(m.new_size)})")
    return "\n".join(lines)


def _heap(args: argparse.Namespace) -> str | None:
    from ..games.catalogue import heap_game
    from ..games.heap import HeapGame
    from .frontier import frontier_asked
    if frontier_asked(args):
        from .frontier import run_command as frontier_run_command
        return frontier_run_command(args)
    if args.resume is not None:
        game = HeapGame.load(args.resume)
        asked = heap_game(args.code)
        if (game.code, game.rules, game.kind) != (asked.code, asked.rules, asked.kind):
            raise UsageError(f"{args.resume} holds {game.code}, not {args.code}")
    else:
        game = heap_game(args.code)
    if args.quotient is not None:
        from .quotient import run as quotient_report
        try:
            return quotient_report(game, args)
        except ValueError as e:
            raise UsageError(str(e)) from None
    if args.heaps is not None:
        return _position_report(_heap_position(game, args.heaps, args.misere), args.json)
    if args.genus and not args.misere:
        raise UsageError("--genus comes with --misere: nimbers heap kayles 12 --misere --genus")
    if args.misere:
        return _misere_heap_values(game, args.count, args.genus, args.json)
    values = game.nim_values(args.count)
    stats = game.stats(args.count) if args.stats else None
    period = game.period(max_n=_period_search(game, args)) if args.period else None
    saved = _save(game, args.save) if args.save is not None else None
    found = None if period is None else {
        "period": period.period, "preperiod": period.preperiod, "proven": period.proven,
        "checked_up_to": period.checked_up_to, "repetitions": period.repetitions,
        "text": str(period)}
    if args.json:
        data: dict[str, Any] = {"game": game.name, "code": game.code}
        if stats is not None:
            data["stats"] = stats.as_dict()
            if found is not None:
                data["period"] = found
            return to_json(data)
        head = to_json(data)[:-1] + ', "values": ['
        tail = "]" + (f', "period": {to_json(found)}' if found is not None else "") + "}"
        write_values(values, head, ", ", tail)
        return None
    said = [str(x) for x in (stats, period, saved) if x is not None]
    if stats is not None or saved is not None:
        # a --save run writes its values to the file, not the screen (a million on one line
        # told nobody anything): a line says what was written instead
        return "\n".join(said)
    write_values(values, "", " ", "" if period is None else f"\n{period}")
    return None


def _save(game: Any, path: str) -> str:
    """Saves the game's values to path (as HeapGame.save) and says in one line what was
    written where."""
    from ..games.heap.storage import state_path, values_path
    game.save(path)
    known = game._known
    return (f"saved g(0) .. g({known - 1}) to {values_path(path)}, and the state to resume "
            f"from (--resume) to {state_path(path)}")


def _period_search(game: Any, args: argparse.Namespace) -> int:
    """How far ``heap --period`` searches: --max-n, else the values asked for or the
    library's default (2^20; 2^11 with three-heap splits, n^2 work a heap), whichever is more."""
    if args.max_n is not None:
        return int(args.max_n)
    default = 1 << 11 if any(d & 8 for d in game.rules or ()) else 1 << 20
    return max(int(args.count), default)


def _heap_position(game: Any, text: str, misere: bool) -> tuple[Any, Any]:
    from ..play import HeapPlay
    try:
        heaps = read_heaps(text, most=MAX_POSITION)
    except NotationError as exc:
        raise UsageError(f"--heaps: {exc}") from None
    return HeapPlay(game, misere=misere), heaps


def _position_report(played: tuple[Any, Any], as_json: bool) -> str:
    """A position's value, outcome and winning move under the game's rule (play's notation)."""
    game, position = played
    value, move = game.verdict(position)
    rule = "misère play" if game.misere else "normal play"
    label = "misère value" if game.misere else "value"
    if as_json:  # the move as data (as under normal play), and in words
        return to_json({"game": game.name, "misere": game.misere, "value": value,
                        "losing": value == 0, "winning_move": move,
                        "text": None if move is None else game.describe(move, position)})
    if game.over(position):
        verdict = (f"no move is left: under {rule} the player to move "
                   + ("has won (the other made the last move)" if game.misere else "has lost"))
    elif move is None:
        verdict = f"P-position under {rule}: the player to move loses; every move loses"
    else:
        verdict = (f"N-position under {rule}: the player to move wins; a winning move: "
                   f"{game.describe(move, position)}")
    from ..play.base import UNKNOWN_VALUE
    said = UNKNOWN_VALUE if value is None else write_integer(value)
    return f"{game.name}\n{label}: {said}\n{verdict}"


def _misere_heap_values(game: Any, count: int, genus: bool, as_json: bool) -> str:
    """G-(0..count-1) of single heaps, and their genera when asked (Winning Ways ch. 13)."""
    values = game.misere_nim_values(count)
    genera = [str(g) for g in game.genera(count)] if genus else None
    if as_json:
        data: dict[str, Any] = {"game": game.name, "code": game.code, "misere_values": values}
        if genera is not None:
            data["genera"] = genera
        return to_json(data)
    lines = [f"misère values G-(0..{count - 1}): " + " ".join(map(str, values))]
    if genera is not None:
        lines.append("genera: " + " ".join(genera))
    return "\n".join(lines)


def _parse_heads(text: str) -> CoinRow:
    try:
        return read_heads(text, most=MAX_POSITION)
    except NotationError as exc:
        raise UsageError(f"--heads: {exc}") from None


def _turning(args: argparse.Namespace) -> str:
    from ..games.catalogue import turning_game
    game = turning_game(args.game)
    if args.misere:
        return _misere_turning(game, args)
    if args.heads is None:
        values = game.nim_values(args.count).tolist()
        return to_json(values) if args.json else " ".join(str(v) for v in values)
    heads = _parse_heads(args.heads).heads
    value = game.nim_value(heads)
    move = game.winning_move(heads)
    if args.json:
        return to_json({"value": value, "winning_move": move})
    verdict = "no winning move: every move loses" if move is None else \
        "winning move: " + say_coin_move(move)
    return f"value: {write_integer(value)}\n{verdict}"


def _misere_turning(game: Any, args: argparse.Namespace) -> str:
    from ..play import TurningPlay
    if args.heads is not None:
        heads, length = _parse_heads(args.heads)
        if length is None:
            length = heads[-1] + 1 if heads else 1
        return _position_report((TurningPlay(game, length, misere=True), heads), args.json)
    values = []
    for x in range(args.count):
        try:
            values.append(game.misere_nim_value([x]))
        except ValueError:
            raise UsageError(f"misère values are searched over every row of coins: {game.name} "
                             f"reaches coin {x - 1} within the search's limits; ask for a count "
                             f"of at most {x}") from None
    if args.json:
        return to_json({"game": game.name, "misere_values": values})
    return f"misère values G-(0..{args.count - 1}) of one head: " + " ".join(map(str, values))


def _tartan(args: argparse.Namespace) -> str:
    from ..games.catalogue import board_game
    from ..games.tartan import Tartan
    from ..tables import format_table
    for word in args.games:
        if _is_a_coin(word):
            raise UsageError(f"{word!r} is a coin, not a game: --heads takes the coins "
                             "comma-separated, e.g. --heads 1:2,3:3")
    game = board_game(*args.games)
    heads = None if args.heads is None else _board_heads(args.heads, game)
    if heads is None:
        if args.misere:
            raise UsageError("--misere analyses a position: give --heads, e.g. --heads 1:1,2:3")
        if args.size > 64:
            raise UsageError("--size is at most 64 for a printed table")
        shape = [args.size] * (len(getattr(game, "factors", (0, 0))))
        if len(shape) != 2:
            raise UsageError("a table is printed for two games only; use --heads")
        values = game.nim_values(*shape)
        return to_json(values.tolist()) if args.json else format_table(values, op="G")
    if args.misere:
        from ..play import AcrosticPlay, BoardPlay
        board = (max((r for r, _ in heads), default=0) + 1,
                 max((c for _, c in heads), default=0) + 1)
        played = BoardPlay(game, board, misere=True) if isinstance(game, Tartan) else \
            AcrosticPlay(game, board, misere=True)
        return _position_report((played, heads), args.json)
    value = game.nim_value(heads)
    move = game.winning_move(heads)
    if args.json:
        return to_json({"value": value, "winning_move": None if move is None else
                        [list(c) for c in move]})
    verdict = "no winning move: every move loses" if move is None else \
        "winning move: " + say_board_move(move)
    return f"value: {write_integer(value)}\n{verdict}"


def _board_heads(text: str, game: Any) -> list[tuple[int, ...]]:
    """The heads typed for a board game: coins row:column (a:b:c for a product of three
    games), each coordinate up to MAX_POSITION; a coin typed twice is turned twice."""
    from ..games.positions import heads_2d
    dims = len(getattr(game, "factors", (0, 0)))
    try:
        return heads_2d(read_cells(text, most=MAX_POSITION, dims=dims), dims=dims)
    except NotationError as exc:
        raise UsageError(f"--heads: {exc}") from None


def _is_a_coin(word: str) -> bool:
    """Whether a word typed among the games reads as a coin, row:column."""
    try:
        read_cell(word)
    except NotationError:
        return False
    return True
