"""The playground's adapter to the library: every call the web application makes into
nimbers goes through this module, so a renamed library function is a one-place change here.

Each public function takes plain, already validated Python values (see :mod:`.params`) and
returns a JSON-ready dict; the library's own errors (ValueError, TypeError,
ZeroDivisionError) pass through and become 400 answers.  Nimbers that may exceed 2^53 (the
largest integer a browser's JSON parser keeps exactly) are sent as decimal strings.

>>> calculate("mul", 5, 11)["result"]
{'dec': '12', 'hex': '0xc', 'bin': '0b1100'}
>>> nim_hint([3, 5, 7], misere=False)["moves"][0]["text"]
'take 1 from pile 0 (3 stones), leaving 2'
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Sequence

import numpy as np

from .. import arith, explain, field, games, notation, play, tables
from .._digits import no_digit_limit
from ..games import catalogue as named
from ..games import nim
from . import png

#: Discrete logarithms in the playground stop at 64-bit fields: the library goes to 128 bits,
#: but building the 128-bit tables takes seconds and ~100 MB in every worker.
MAX_LOG_BITS = 64
#: explain_mul's running time grows steeply with the operands (0.3 s at 64 bits, 6 s at 128).
MAX_EXPLAIN_BITS = 64


def _number(x: int) -> dict[str, str]:
    return {"dec": str(x), "hex": hex(x), "bin": bin(x)}


# ---- the calculator ------------------------------------------------------------------------

def calculate(op: str, a: int, b: int | None = None) -> dict[str, Any]:
    """One operation of the calculator, its result in three bases, a check computed by the
    library, and the derivation where there is one (nim-sum and nim-product).

    >>> calculate("inv", 2)["check"]
    '2 ⊗ 3 = 1'
    """
    with no_digit_limit():  # operands of at most params.MAX_BITS bits: results no larger
        return _calculate(op, a, b)


def _calculate(op: str, a: int, b: int | None) -> dict[str, Any]:
    derivation: list[str] = []
    notes: list[str] = []
    if op not in ("inv", "sqrt") and b is None:
        raise ValueError(f"{op} takes two operands, a and b")
    b = 0 if b is None else b  # unused by the one-operand operations
    if op == "add":
        result = arith.nim_add(a, b)
        d = explain.explain_sum(a, b)
        derivation = d.lines
        check = f"{a} ⊕ {b} ⊕ {result} = {arith.nim_add(arith.nim_add(a, b), result)}"
    elif op == "mul":
        result = arith.nim_mul(a, b)
        check = f"{b} ⊗ {a} = {arith.nim_mul(b, a)}"
        if max(a, b).bit_length() <= MAX_EXPLAIN_BITS:
            d = explain.explain_mul(a, b)
            derivation = [d.lines[0]] + ["= " + line for line in d.lines[1:]]
            notes = d.notes
        else:
            notes = [f"derivations are shown for operands of up to {MAX_EXPLAIN_BITS} bits"]
    elif op == "div":
        result = arith.nim_div(a, b)
        check = f"{result} ⊗ {b} = {arith.nim_mul(result, b)}"
    elif op == "inv":
        result = arith.nim_inv(a)
        check = f"{a} ⊗ {result} = {arith.nim_mul(a, result)}"
    elif op == "pow":
        result = arith.nim_pow(a, b)
        check = f"{a} has nim-order {field.nim_order(a)}" if a and a.bit_length() <= 64 else ""
    elif op == "sqrt":
        result = arith.nim_sqrt(a)
        check = f"{result} ⊗ {result} = {arith.nim_square(result)}"
    elif op == "log":
        if max(a, b).bit_length() > MAX_LOG_BITS:
            raise ValueError(f"logarithms are computed here in fields of up to {MAX_LOG_BITS} "
                             "bits (operands below 2^64)")
        result = field.nim_log(a, b)
        check = f"{b}^{result} = {arith.nim_pow(b, result)} (nim-powers)"
    else:
        raise ValueError(f"unknown operation {op!r}")
    return {"op": op, "a": str(a), "b": None if op in ("inv", "sqrt") else str(b),
            "result": _number(result), "field_bits": arith.field_bits(result),
            "check": check, "derivation": derivation, "notes": notes}


def derivation(a: int, b: int) -> dict[str, Any]:
    """explain_mul's steps for one product (a table cell).

    >>> derivation(2, 3)["lines"]
    ['2 ⊗ 3', '= 2 ⊗ (2 ⊕ 1)', '= (2 ⊗ 2) ⊕ (2 ⊗ 1)', '= 3 ⊕ 2', '= 1']
    """
    if max(a, b).bit_length() > MAX_EXPLAIN_BITS:
        raise ValueError(f"derivations are shown for operands of up to {MAX_EXPLAIN_BITS} bits")
    d = explain.explain_mul(a, b)
    return {"a": a, "b": b, "value": str(d.value),
            "lines": [d.lines[0]] + ["= " + line for line in d.lines[1:]], "notes": d.notes}


# ---- tables --------------------------------------------------------------------------------

def table(op: str, n: int) -> dict[str, Any]:
    """The n x n addition or multiplication table as rows of ints."""
    build = {"add": tables.add_table, "mul": tables.mul_table}[op]
    return {"op": op, "n": n, "rows": build(n, progress=False).tolist()}


@lru_cache(maxsize=8)
def table_picture(op: str, n: int) -> bytes:
    """A PNG heat map of the table, one pixel a cell, in the colours of tables.table_image:
    exact for tables whose values fit 256 colours (n <= 256), each value's place in 0..max
    rounded to one of 256 colours beyond."""
    build = {"add": tables.add_table, "mul": tables.mul_table}[op]
    t = build(n, progress=False)
    levels = int(t.max()) + 1
    if levels <= 256:
        return png.encode_indexed(t.astype(np.uint8), tables._colours(np.arange(levels)))
    indices = (t * np.uint64(256) // np.uint64(levels)).astype(np.uint8)
    return png.encode_indexed(indices, tables._colours(np.arange(256)))


def mex_step(n: int, a: int, b: int) -> dict[str, Any]:
    """The mex construction of the multiplication table (tables.mex_table) and, for one
    cell, the values it excludes: T[a'][b] ⊕ T[a][b'] ⊕ T[a'][b'] for a' < a, b' < b (the
    options of a Turning Corners coin), and their mex.

    >>> step = mex_step(4, 2, 2)
    >>> step["options"], step["mex"], step["product"]
    ([0, 1, 2], 3, 3)
    """
    if not (a < n and b < n):
        raise ValueError(f"the cell ({a}, {b}) is outside the {n} x {n} table")
    t = tables.mex_table(n, progress=False).astype(np.int64)
    opts = sorted({int(t[x, b] ^ t[a, y] ^ t[x, y]) for x in range(a) for y in range(b)})
    return {"n": n, "rows": t.tolist(), "a": a, "b": b, "options": opts,
            "mex": games.mex(opts), "product": int(arith.nim_mul(a, b))}


# ---- Nim -----------------------------------------------------------------------------------

def _nim_move_text(piles: list[int], pile: int, take: int) -> str:
    # the page's log outlives the position: the pile's size then says which pile it was
    rest = piles[pile] - take
    return notation.say_heap_move(pile, take, (rest,) if rest else (), word="pile",
                                  size=piles[pile], unit=("stone", "stones"))


def nim_hint(piles: list[int], misere: bool) -> dict[str, Any]:
    """The nim-sum (in binary columns), the verdict, every winning move, and why."""
    total = nim.nim_sum(piles)
    losing = nim.is_losing(piles, misere=misere)
    moves = nim.winning_moves(piles, misere=misere)
    rule = ("A position is lost for the player to move exactly when the nim-sum is 0 "
            "(Bouton): every move from a 0 position makes the sum non-zero, and from a "
            "non-zero sum some move brings it back to 0, so whoever leaves 0 can keep doing "
            "it and takes the last stone.")
    if misere:
        rule = ("Misère Nim (Bouton): play as in Nim, leaving a nim-sum of 0, as long as some "
                "pile keeps 2 or more stones; when a move would leave only piles of 0 or 1 "
                "stone, leave an odd number of single stones instead, so that the opponent "
                "must take the last one.")
    out = []
    for m in moves:
        after = list(piles)
        after[m.pile] = m.new_size
        out.append({"pile": m.pile, "take": m.take,
                    "text": _nim_move_text(piles, m.pile, m.take),
                    "after": after, "after_sum": nim.nim_sum(after)})
    return {"values": list(piles), "total": str(total),
            "columns": explain.explain_sum(*piles).lines if piles else [],
            "losing": losing, "moves": out, "why": rule}


def _finish(position: Any, over: bool, mover: str, last_mover_wins: bool) -> dict[str, Any]:
    winner = None
    if over:
        other = "computer" if mover == "human" else "human"
        winner = mover if last_mover_wins else other
    return {"position": position, "over": over, "winner": winner}


def nim_move(piles: list[int], misere: bool, pile: int, take: int) -> dict[str, Any]:
    """The human's move, checked by the library's Nim player (NimPlay)."""
    game = play.NimPlay(misere=misere)
    new = game.make(notation.HeapMove(pile, take, None), list(piles))
    result = _finish(new, game.over(new), "human", game.last_mover_wins)
    result["text"] = _nim_move_text(piles, pile, take)
    return result


def nim_reply(piles: list[int], misere: bool) -> dict[str, Any]:
    """The computer's answer: a winning move when there is one."""
    game = play.NimPlay(misere=misere)
    if game.over(piles):
        raise ValueError("the game is over: no stone is left")
    move, new = game.computer_move(list(piles))
    result = _finish(new, game.over(new), "computer", game.last_mover_wins)
    result["text"] = _nim_move_text(piles, move.pile, move.take)
    return result


# ---- heap games ----------------------------------------------------------------------------

@lru_cache(maxsize=64)
def heap_game(spec: str) -> games.HeapGame:
    """A heap game of the catalogue: a name (kayles, dawsons-kayles, grundy, ...), an octal
    or take-and-break code ("0.77", "4.07", "0.3F"), or a subtraction set ("S(1,3,4)").

    >>> heap_game("kayles").code, heap_game("S(1,2)").nim_values(4).tolist()
    ('0.77', [0, 1, 2, 0])
    """
    return named.heap_game(spec)


def _heap_move_text(heaps: list[int], index: int, take: int, left: Sequence[int]) -> str:
    # the page's log outlives the position: the heap's size then says which heap it was
    return notation.say_heap_move(index, take, tuple(left), size=heaps[index])


def heap_options(spec: str, heaps: list[int], index: int) -> dict[str, Any]:
    """Every move from one heap, with the value of the position each leaves."""
    game = heap_game(spec)
    if not 0 <= index < len(heaps):
        raise ValueError(f"there is no heap {index} (heaps 0 to {len(heaps) - 1})")
    rest = heaps[:index] + heaps[index + 1:]
    options = []
    seen = set()
    for take, left in game.heap_moves(heaps[index]):
        key = (take, tuple(sorted(left)))
        if key in seen:
            continue
        seen.add(key)
        options.append({"take": take, "leave": list(key[1]),
                        "text": _heap_move_text(heaps, index, take, key[1]),
                        "value": game.nim_value(rest + list(left))})
        if len(options) >= 400:
            break
    return {"heap": index, "options": options}


def heap_hint(spec: str, heaps: list[int]) -> dict[str, Any]:
    """Each heap's Grundy value, their nim-sum, and a winning move when there is one."""
    game = heap_game(spec)
    values = [game.nim_value([h]) for h in heaps]
    total = game.nim_value(heaps)
    move = game.winning_move(heaps)
    moves = []
    if move is not None:
        i, take, left = move
        after = heaps[:i] + list(left) + heaps[i + 1:]
        moves.append({"heap": i, "take": take, "leave": list(left),
                      "text": _heap_move_text(heaps, i, take, sorted(left)),
                      "after": after, "after_sum": game.nim_value(after)})
    why = (f"{game.name} ({game.code}): by the Sprague-Grundy theorem each heap plays like a "
           "Nim heap of its Grundy value g(n) = mex of the values it can move to, and the "
           "position is worth the nim-sum of the heaps' values; 0 means the player to move "
           "loses. A winning move changes one heap into heaps whose values bring the nim-sum "
           "to 0.")
    return {"heaps": list(heaps), "values": values, "total": str(total), "losing": total == 0,
            "moves": moves, "columns": explain.explain_sum(*values).lines if values else [],
            "why": why}


def heap_move(spec: str, heaps: list[int], index: int, take: int,
              leave: list[int]) -> dict[str, Any]:
    """The human's move, checked by the library's heap player (HeapPlay)."""
    game = play.HeapPlay(heap_game(spec))
    if not 0 <= index < len(heaps):
        raise ValueError(f"there is no heap {index} (heaps 0 to {len(heaps) - 1})")
    new = game.make(notation.HeapMove(index, take, tuple(sorted(leave)) if leave else None),
                    list(heaps))
    result = _finish(new, game.over(new), "human", True)
    result["text"] = _heap_move_text(heaps, index, take, sorted(leave))
    return result


def heap_reply(spec: str, heaps: list[int]) -> dict[str, Any]:
    game = play.HeapPlay(heap_game(spec))
    if game.over(heaps):
        raise ValueError("the game is over: no move is left")
    move, new = game.computer_move(list(heaps))
    result = _finish(new, game.over(new), "computer", True)
    i, take, left = move
    result["text"] = _heap_move_text(heaps, i, take, sorted(left))
    return result


# ---- coin-turning games --------------------------------------------------------------------

@lru_cache(maxsize=64)
def turning_game(spec: str) -> games.TurningGame:
    """A coin-turning game of the catalogue: a family name (ruler, mocking-turtles or
    mock-turtles, ..., at-most-T) or a turning code."""
    return named.turning_game(spec)


def _row(heads: list[int], length: int) -> str:
    return "".join("H" if i in set(heads) else "T" for i in range(length))


def turning_hint(spec: str, row: str) -> dict[str, Any]:
    """G(x) of every coin, the nim-sum over the heads, and a winning move."""
    game = turning_game(spec)
    heads = games.heads_of(row)
    values = [str(int(v)) for v in game.nim_values(len(row)).tolist()]
    total = game.nim_value(heads)
    move = game.winning_move(heads)
    moves = []
    if move is not None:
        after = sorted(set(heads) ^ set(move))
        moves.append({"coins": move, "text": notation.say_coin_move(move),
                      "after": _row(after, len(row)), "after_sum": str(game.nim_value(after))})
    why = (f"{game.name}: every head is an independent game worth G(x) (coins from 0), so the "
           "position is worth the nim-sum of G over the heads; 0 means the player to move "
           "loses. A winning move turns a head x whose G(x) is above G(x) ⊕ total, together with "
           "other coins whose values nim-add to what brings the total to 0.")
    return {"values": values, "heads": heads, "head_values": [values[h] for h in heads],
            "total": str(total), "losing": total == 0, "moves": moves, "why": why,
            "name": game.name, "code": game.code}


def turning_move(spec: str, row: str, coins: list[int]) -> dict[str, Any]:
    """The human's move, checked by the library's coin-turning player (TurningPlay)."""
    game = play.TurningPlay(turning_game(spec), len(row))
    new = game.turn(sorted(set(coins)), games.heads_of(row))
    result = _finish(_row(new, len(row)), game.over(new), "human", True)
    result["text"] = notation.say_coin_move(coins)
    return result


def turning_reply(spec: str, row: str) -> dict[str, Any]:
    game = play.TurningPlay(turning_game(spec), len(row))
    heads = games.heads_of(row)
    if game.over(heads):
        raise ValueError("the game is over: no move is left")
    move, new = game.computer_move(heads)
    result = _finish(_row(new, len(row)), game.over(new), "computer", True)
    result["text"] = notation.say_coin_move(move)
    return result


# ---- Tartan products on a grid -------------------------------------------------------------

Board = games.Tartan | games.AcrosticTwins


@lru_cache(maxsize=64)
def tartan_game(rows_game: str, cols_game: str) -> Board:
    """A board of the catalogue (turning-corners, rugs, acrostic-twins or "A x B") given as
    rows_game with cols_game empty, or the Tartan product of two coin-turning games."""
    return named.board_game(rows_game) if not cols_game else \
        named.board_game(rows_game, cols_game)


def _acrostic(game: Board, heads: Sequence[tuple[int, ...]],
              coins: Sequence[tuple[int, ...]] = ()) -> play.AcrosticPlay | None:
    """Acrostic Twins' player, which checks and makes its moves (None for a Tartan
    product, whose moves are checked here)."""
    if not isinstance(game, games.AcrosticTwins):
        return None
    cells = list(heads) + list(coins)
    shape = (max((c[0] for c in cells), default=0) + 1, max((c[1] for c in cells), default=0) + 1)
    return play.AcrosticPlay(game, shape)


def _tartan_over(game: Board, heads: Sequence[tuple[int, ...]]) -> bool:
    """No head has a move: in some direction its factor game has no move there."""
    player = _acrostic(game, heads)
    if player is not None:
        return player.over(list(heads))
    assert isinstance(game, games.Tartan)
    row_game, col_game = game.factors
    for a, b in heads:
        if next(row_game.move_sets(a), None) is not None and \
                next(col_game.move_sets(b), None) is not None:
            return False
    return True


def _tartan_legal(game: games.Tartan, heads: list[tuple[int, int]],
                  coins: list[tuple[int, int]]) -> None:
    """A move turns R x C, R a move of the row game and C one of the column game, and its
    bottom-right coin is a head; raises ValueError saying what is wrong."""
    chosen = set(coins)
    if not chosen:
        raise ValueError("choose the coins to turn")
    rows = sorted({a for a, _ in chosen})
    cols = sorted({b for _, b in chosen})
    if chosen != {(a, b) for a in rows for b in cols}:
        raise ValueError("the coins turned must be all the crossings of some rows and columns "
                         "(a product of a row move and a column move)")
    corner = (rows[-1], cols[-1])
    if corner not in set(heads):
        raise ValueError(f"the bottom-right coin turned {corner} must be a head")
    row_game, col_game = game.factors
    if not any(tuple(sorted(s)) == tuple(rows[:-1]) for s in row_game.move_sets(rows[-1])):
        raise ValueError(f"rows {rows} are not a move of {row_game.name}")
    if not any(tuple(sorted(s)) == tuple(cols[:-1]) for s in col_game.move_sets(cols[-1])):
        raise ValueError(f"columns {cols} are not a move of {col_game.name}")


def _coins_text(coins: list[tuple[int, ...]]) -> str:
    return notation.say_board_move(coins)


def tartan_hint(rows_game: str, cols_game: str, shape: tuple[int, int],
                heads: list[tuple[int, int]]) -> dict[str, Any]:
    """The value table G(a, b) = G_A(a) ⊗ G_B(b), the nim-sum over the heads, a winning
    move."""
    game = tartan_game(rows_game, cols_game)
    grid = [[str(v) for v in row] for row in game.nim_values(*shape).tolist()]
    total = game.nim_value(heads)
    move = game.winning_move(heads)
    moves = []
    if move is not None:
        coins = [tuple(c) for c in move]
        after = sorted(set(heads) ^ set(coins))
        moves.append({"coins": [list(c) for c in coins], "text": _coins_text(coins),
                      "after": [list(c) for c in after],
                      "after_sum": str(game.nim_value(after))})
    if isinstance(game, games.AcrosticTwins):
        why = ("Acrostic Twins (Winning Ways ch. 14) turns two coins of one row or of one "
               "column; a coin at row a, column b is worth a ⊕ b, and the position is worth "
               "the nim-sum over the heads. A winning move turns a head and a coin of its row "
               "or column whose value brings the total to 0.")
    else:
        row_game, col_game = game.factors
        why = (f"{game.name} = {row_game.name} × {col_game.name}: by the Tartan theorem a coin "
               "at row a, column b is worth G_rows(a) ⊗ G_columns(b) (a nim-product; for "
               "Turning Corners simply a ⊗ b), and the position is worth the nim-sum over the "
               "heads. A winning move is found by nim division: it turns a product of a row "
               "move and a column move whose value brings the total to 0.")
    return {"heads": [list(h) for h in heads], "grid": grid, "total": str(total),
            "losing": total == 0, "moves": moves,
            "head_values": [grid[a][b] for a, b in heads], "why": why, "name": game.name}


def tartan_move(rows_game: str, cols_game: str, heads: list[tuple[int, int]],
                coins: list[tuple[int, int]]) -> dict[str, Any]:
    game = tartan_game(rows_game, cols_game)
    player = _acrostic(game, heads, coins)
    if player is not None:
        new = [(r, c) for r, c in player.turn(coins, list(heads))]
    else:
        assert isinstance(game, games.Tartan)
        _tartan_legal(game, heads, coins)
        new = sorted(set(heads) ^ set(coins))
    result = _finish([list(c) for c in new], _tartan_over(game, new), "human", True)
    result["text"] = _coins_text(list(coins))
    return result


def tartan_reply(rows_game: str, cols_game: str, heads: list[tuple[int, int]]) -> dict[str, Any]:
    game = tartan_game(rows_game, cols_game)
    if _tartan_over(game, heads):
        raise ValueError("the game is over: no move is left")
    move = game.winning_move(heads)
    player = _acrostic(game, heads)
    if move is None and player is not None:
        move, _ = player.computer_move(list(heads))
    if move is None and isinstance(game, games.Tartan):  # lost: any move, at the last head
        row_game, col_game = game.factors
        for a, b in reversed(heads):
            r = next(row_game.move_sets(a), None)
            c = next(col_game.move_sets(b), None)
            if r is not None and c is not None:
                move = [(x, y) for x in list(r) + [a] for y in list(c) + [b]]
                break
    if move is None:
        raise ValueError("the game is over: no move is left")
    coins = [tuple(c) for c in move]
    new = sorted(set(heads) ^ set(coins))
    result = _finish([list(c) for c in new], _tartan_over(game, new), "computer", True)
    result["text"] = _coins_text(coins)
    return result


# ---- sequences -----------------------------------------------------------------------------

def heap_sequence(spec: str, n: int, search: int | None = None) -> dict[str, Any]:
    """The first n Grundy values and the period found with values up to search (default:
    the library's, as ``nimbers heap CODE --period``: 2^20, 2^11 with three-heap splits),
    proven by the octal periodicity theorem where it applies; ``searched`` says how far the
    search went and, when no period is proven, ``note`` how to search further.

    >>> heap_sequence("0.56", 10, 4096)["note"]
    'searched up to n = 4096 here; nimbers heap 0.56 --period --max-n 2^24 searches further'
    >>> r = heap_sequence("0.56", 10)           # proven from 653,570 values in about 0.3 s
    >>> r["text"][:38], r["note"]
    ('period 144, pre-period 326640 (proven)', None)
    """
    game = heap_game(spec)
    values = game.nim_values(n, progress=False).tolist()
    found = game.period(max_n=None if search is None else max(search, n), progress=False)
    note = None if found.proven else (
        f"searched up to n = {found.checked_up_to} here; nimbers heap {game.code} --period "
        "--max-n 2^24 searches further")
    return {"name": game.name, "code": game.code, "values": values,
            "period": found.period, "preperiod": found.preperiod, "proven": found.proven,
            "checked_up_to": found.checked_up_to, "repetitions": found.repetitions,
            "text": str(found), "searched": found.checked_up_to, "note": note}


#: The closed forms of games.CLOSED_FORMS, in words (coins from 0).
CLOSED_FORM_TEXT = {
    "turning-turtles": "G(x) = x + 1",
    "mocking-turtles": "G(x) = 2x if x is odious (odd number of 1 bits), else 2x + 1",
    "motley": "G(x) = 2^x",
    "twins": "G(x) = x",
    "triplets": "G(x) = 0 for x < 2, then 2(x-2) if x-2 is odious, else 2(x-2) + 1",
    "ruler": "G(x) = the largest power of 2 dividing x + 1",
}


def turning_sequence(spec: str, n: int) -> dict[str, Any]:
    """The first n values of a coin-turning game beside its closed form, when it has one."""
    game = turning_game(spec)
    values = [str(int(v)) for v in game.nim_values(n).tolist()]
    key = game.name if game.name in games.CLOSED_FORMS else None
    closed = [str(games.closed_form(key, x)) for x in range(n)] if key else None
    return {"name": game.name, "code": game.code, "values": values, "closed_form": closed,
            "formula": CLOSED_FORM_TEXT.get(key or ""),
            "agree": closed == values if closed else None}


def catalogue() -> dict[str, Any]:
    """The names the pages offer in their menus: the catalogue's, with an example of each
    written form."""
    return {family + "_games": named.names(board) + list(named.FORMS[board][1])
            for family, board in (("heap", "heap"), ("turning", "turning"), ("tartan", "board"))}
