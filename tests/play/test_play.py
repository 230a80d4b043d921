"""The play loop, driven with scripted input: golden transcripts for every family under both
rules, and the computer's play and the hints checked against brute force from the
definitions (tests/oracle.py and the small move generators below, which share no code with
the library)."""

import random
from itertools import combinations

import pytest

from nimbers.games import heap_game, octal_game
from nimbers.games.codes import HEAP_GAMES, game_key, heap_game_code
from nimbers.play import (AcrosticPlay, BoardPlay, HeapPlay, NimPlay, TurningPlay, play,
                                say_heap_move, setup_game)

from oracle import heap_moves_from_code, mex, misere_value


def scripted(lines):
    it = iter(lines)

    def read(prompt):
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None
    return read


def transcript(name, setup, lines, misere=False, first="human"):
    game, position = setup_game(name, setup, misere)
    out = []
    result = play(game, position, first=first, read=scripted(lines), write=out.append)
    return result, "\n".join(out)


NIM_RULES = ("Nim, normal play: whoever moves last wins. A move takes stones from one pile. "
             "Type help for the move forms, hint for a hint, q to quit.")
MISERE_END = ("under misère play the player who cannot move wins (the other made the last "
              "move).")


# ---- golden transcripts ------------------------------------------------------------------------

def test_nim_transcript_illegal_moves_and_hint():
    result, text = transcript("nim", ["1", "2"], ["2 1", "1 3", "hint", "1:1"])
    assert result == "quit"
    assert text == "\n".join([
        NIM_RULES,
        "piles: 0:1  1:2",
        "illegal move: there is no pile 2: the piles are numbered 0 to 1",
        "illegal move: pile 1 has only 2 stones; Nim may take 1 or 2 from it",
        "value 3 (an N-position): a winning move is take 1 from pile 1, leaving 1 (1:1)",
        "piles: 0:1  1:1",
        "computer: take 1 from pile 0, leaving nothing (0:1)",
        "piles: 0:0  1:1",
        "bye"])


def test_misere_nim_transcript_says_why_it_ended():
    result, text = transcript("nim", ["1", "1", "1"], ["hint", "take 1 from pile 2", "1:1"],
                              misere=True)
    assert result == "computer"
    assert text.splitlines()[1:] == [
        "piles: 0:1  1:1  2:1",
        "misère value 0 (a P-position): every move loses against best play",
        "piles: 0:1  1:1  2:0",
        "computer: take 1 from pile 0, leaving nothing (0:1)",
        "piles: 0:0  1:1  2:0",
        "piles: 0:0  1:0  2:0",
        "no stone is left, and the computer is to move: " + MISERE_END,
        "the computer wins."]


def test_kayles_transcript():
    result, text = transcript("kayles", ["4"], [
        "1 2", "0 2", "0:3", "hint", "take 1 from heap 0 leaving 1 and 2", "0:2 -> 1",
        "take 1 from heap 1"])
    assert result == "computer"
    assert text == "\n".join([
        "Kayles (0.77), normal play: whoever moves last wins. A move takes tokens from one heap "
        "(and may split what is left) as the code allows. Type help for the move forms, hint for "
        "a hint, q to quit.",
        "heaps: 0:4",
        # '1 2' is refused as what it is, never as a move that might be allowed
        "illegal move: there is no heap 1: the only heap is heap 0",
        "illegal move: taking 2 from heap 0 (4) may leave 1 and 1, or 2: say which, e.g. "
        "'0:2 -> 2'",
        "illegal move: taking 3 from heap 0 (4 tokens) is not allowed: Kayles (0.77) may take "
        "1 or 2 from it",
        "value 1 (an N-position): a winning move is take 2 from heap 0, leaving 1 and 1 "
        "(0:2 -> 1 1)",
        "heaps: 0:1  1:2",
        "computer: take 1 from heap 1, leaving 1 (1:1)",
        "heaps: 0:1  1:1",
        "illegal move: heap 0 has only 1 token; Kayles (0.77) may take 1 from it",
        "heaps: 0:1",
        "computer: take 1 from heap 0, leaving nothing (0:1)",
        "heaps: none",
        "no heap can be moved, and you are to move: under normal play the player who cannot "
        "move loses.",
        "the computer wins."])


def test_misere_dawsons_kayles_transcript_with_help():
    result, text = transcript("dawson's kayles", ["5"], ["help", "hint", "0:2 -> 3"],
                              misere=True)
    assert result == "human"
    assert text == "\n".join([
        "Dawson's Kayles (0.07), misère play: whoever moves last loses. A move takes tokens from "
        "one heap (and may split what is left) as the code allows. Type help for the move forms, "
        "hint for a hint, q to quit.",
        "heaps: 0:5",
        "Dawson's Kayles (0.07): A move takes tokens from one heap (and may split what is left) "
        "as the code allows.",
        "Moves (heaps are numbered from 0, left to right):",
        "  take 2 from heap 1           or  1:2            take 2 tokens from heap 1",
        "  take 1 from heap 0 leaving 1 and 3   or  0:1 -> 1 3   say what is left when it could "
        "differ",
        "  0 -> 1 3                    heap 0 becomes heaps of 1 and 3 (the sizes left)",
        "A legal move here: take 2 from heap 0, leaving 3 (0:2 -> 3).",
        "Commands: help (this), hint (the value and a winning move), q (quit).",
        "misère value 1 (an N-position): a winning move is take 2 from heap 0, leaving 3 "
        "(0:2 -> 3)",
        "heaps: 0:3",
        "computer: take 2 from heap 0, leaving 1 (0:2)",
        "heaps: 0:1",
        "no heap can be moved, and you are to move: " + MISERE_END,
        "you win!"])


def test_grundys_game_transcript():
    result, text = transcript("grundy", ["7"], ["0:1", "0 -> 3 3", "split heap 0 into 2 and 5",
                                                "0 -> 1 2"])
    assert result == "quit"
    assert text.splitlines()[1:] == [
        "heaps: 0:7",
        "illegal move: Grundy's game only splits heaps, keeping every token: heap 0 (7) cannot "
        "be split; it may become 1 and 6, or 2 and 5, or 3 and 4 (e.g. '0 -> 1 6')",
        "illegal move: Grundy's game only splits heaps, keeping every token: heap 0 (7) cannot "
        "be split into 3 and 3; it may become 1 and 6, or 2 and 5, or 3 and 4 (e.g. '0 -> 1 6')",
        "heaps: 0:2  1:5",
        "computer: split heap 1 into 1 and 4 (1 -> 1 4)",
        "heaps: 0:2  1:1  2:4",
        "illegal move: heap 0 (2 tokens) cannot be moved in Grundy's game; heaps that can: 2",
        "bye"]


def test_ruler_transcript():
    result, text = transcript("ruler", ["THHTH"], ["5", "0", "2 4", "turn 3 4"])
    assert result == "computer"
    assert text.splitlines()[1:] == [
        "coins: THHTH   (coins 0 to 4 from the left)",
        "illegal move: there is no coin 5: coins are numbered 0 to 4",
        "illegal move: coin 0 is a tail: the rightmost coin turned must be a head "
        "(heads: 1, 2, 4)",
        "illegal move: Ruler (1+C) does not allow turning coins 2 4: at head 4 it may turn 4; "
        "3 4; 2 3 4; 1 2 3 4; 0 1 2 3 4",
        "coins: THHHT   (coins 0 to 4 from the left)",
        "computer: turn 1 2 3",
        "coins: TTTTT   (coins 0 to 4 from the left)",
        "no head can be turned, and you are to move: under normal play the player who cannot "
        "move loses.",
        "the computer wins."]


def test_misere_mocking_turtles_transcript():
    result, text = transcript("mocking-turtles", ["HTHH"], ["hint", "0 1 2 3", "turn 2 3"],
                              misere=True)
    assert result == "human"
    assert text.splitlines() == [
        "Mocking Turtles (1-3), misère play: whoever moves last loses. A move turns over coins, "
        "the rightmost of them from heads to tails. Type help for the move forms, hint for a "
        "hint, q to quit.",
        "coins: HTHH   (coins 0 to 3 from the left)",
        "misère value 2 (an N-position): a winning move is turn 2 3",
        "illegal move: Mocking Turtles (1-3) does not allow turning coins 0 1 2 3: at head 3 it "
        "may turn 3; 0 3; 1 3; 2 3; 0 1 3; 0 2 3 (and 1 more)",
        "coins: HTTT   (coins 0 to 3 from the left)",
        "computer: turn 0",
        "coins: TTTT   (coins 0 to 3 from the left)",
        "no head can be turned, and you are to move: " + MISERE_END,
        "you win!"]


BOARD_1_1_AND_2_3 = ["    0 1 2 3", "  0 T T T T", "  1 T H T T", "  2 T T T H"]


def test_turning_corners_transcript():
    result, text = transcript("turning-corners", ["1:1", "2:3"],
                              ["hint", "1:1 2:2", "1:3 2:3", "0:1 2:3"])
    assert result == "computer"
    assert text.splitlines() == [
        "Turning Corners, normal play: whoever moves last wins. A move turns the coins of a "
        "rectangle: rows as Twins (2) turns coins, columns as Twins (2); its bottom-right coin "
        "goes from heads to tails. Type help for the move forms, hint for a hint, q to quit.",
        *BOARD_1_1_AND_2_3,
        "value 0 (a P-position): every move loses against best play",   # 1 (x) 1 = 2 (x) 3
        "illegal move: coin 2:2, the bottom-right of the move, is a tail; heads: 1:1, 2:3",
        "illegal move: the column 3 is not a move of Twins (2): ending at 3 it may turn 0 3; "
        "1 3; 2 3",
        "    0 1 2 3", "  0 T H T H", "  1 T H T T", "  2 T H T T",
        "computer: turn rows 1 2 x columns 0 1 (1:0 2:1)",
        "    0 1 2 3", "  0 T H T H", "  1 H T T T", "  2 H T T T",
        "no head can be turned, and you are to move: under normal play the player who cannot "
        "move loses.",
        "the computer wins."]


def test_misere_rugs_transcript():
    result, text = transcript("rugs", ["1:1", "2:2"], ["hint", "2:2"], misere=True)
    assert result == "human"
    assert text.splitlines()[1:] == [
        "    0 1 2", "  0 T T T", "  1 T H T", "  2 T T H",
        "misère value 1 (an N-position): a winning move is turn 1:1 (one coin)",
        "    0 1 2", "  0 T T T", "  1 T H T", "  2 T T T",
        "computer: turn 1:1 (one coin)",
        "    0 1 2", "  0 T T T", "  1 T T T", "  2 T T T",
        "no head can be turned, and you are to move: " + MISERE_END,
        "you win!"]


ACROSTIC_RULES = ("Acrostic Twins, {rule}. A move turns two coins in one row or one column; "
                  "the right (or lower) one goes from heads to tails. Type help for the move "
                  "forms, hint for a hint, q to quit.")


def test_acrostic_twins_transcript():
    # one head at 1:2: G = 1 (+) 2 = 3; turning 1:1 and 1:2 leaves 1:1, G = 0
    result, text = transcript("acrostic-twins", ["1:2"],
                              ["hint", "1:2", "0:0 1:2", "1:0 1:1", "1:1 1:2", "0:0 0:1"])
    assert result == "human"
    assert text.splitlines() == [
        ACROSTIC_RULES.format(rule="normal play: whoever moves last wins"),
        "    0 1 2", "  0 T T T", "  1 T T H",
        "value 3 (an N-position): a winning move is turn 1:1 and 1:2, in row 1 (1:1 1:2)",
        "illegal move: a move of Acrostic Twins turns two coins, in one row or one column "
        "(e.g. '1:2 1:5'); got 1",
        "illegal move: coins 0:0 and 1:2 are in neither one row nor one column: a move of "
        "Acrostic Twins turns two coins of one row or of one column",
        "illegal move: coin 1:1, the right one of the move, is a tail; heads: 1:2",
        "    0 1 2", "  0 T T T", "  1 T H T",
        "computer: turn 0:1 and 1:1, in column 1 (0:1 1:1)",   # every move loses: any one
        "    0 1 2", "  0 T H T", "  1 T T T",
        "    0 1 2", "  0 H T T", "  1 T T T",
        "no head can be turned, and the computer is to move: under normal play the player who "
        "cannot move loses.",
        "you win!"]


def test_misere_acrostic_twins_transcript():
    # misère: 0:0 cannot move (the mover wins), so 0:1 is lost and 1:1 is won
    result, text = transcript("acrostic-twins", ["1:1"], ["hint", "0:1 1:1"], misere=True)
    assert result == "human"
    assert text.splitlines() == [
        ACROSTIC_RULES.format(rule="misère play: whoever moves last loses"),
        "    0 1", "  0 T T", "  1 T H",
        "misère value 1 (an N-position): a winning move is turn 0:1 and 1:1, in column 1 "
        "(0:1 1:1)",
        "    0 1", "  0 T H", "  1 T T",
        "computer: turn 0:0 and 0:1, in row 0 (0:0 0:1)",
        "    0 1", "  0 H T", "  1 T T",
        "no head can be turned, and you are to move: " + MISERE_END,
        "you win!"]


def test_quit_end_of_input_and_interrupt():
    out = []
    assert play(NimPlay(), [3, 4], read=scripted(["q"]), write=out.append) == "quit"
    assert out[-1] == "bye"
    assert play(NimPlay(), [3, 4], read=scripted([]), write=out.append) == "quit"

    def interrupt(prompt):
        raise KeyboardInterrupt
    assert play(NimPlay(), [3, 4], read=interrupt, write=out.append) == "quit"


# ---- the forms of a move ----------------------------------------------------------------------

@pytest.mark.parametrize("typed", ["take 1 from heap 0 leaving 1 and 3", "0:1 -> 1 3",
                                   "0:1 leaving 1, 3", "0 -> 3 1", "0 1 1 3", "TAKE 1 FROM HEAP 0 LEAVING 1 3"])
def test_every_form_of_one_kayles_move(typed):
    game, heaps = setup_game("kayles", ["5", "2"])
    assert game.parse(typed, heaps) == [1, 3, 2]


@pytest.mark.parametrize("typed, reason", [
    ("0 2", "may leave"), ("1", "is not a move"), ("take two from heap 0", "is not a move"),
    ("0:9", "has only 5"), ("0:1 -> 5", "not allowed"), ("0:1 -> 2 3", "not allowed"),
    ("7:1", "no heap 7"), ("q 1", "is not a move")])
def test_every_illegal_heap_move_has_a_reason(typed, reason):
    game, heaps = setup_game("kayles", ["5", "3"])
    with pytest.raises(ValueError, match=reason):
        game.parse(typed, heaps)


def test_board_moves_by_corners_or_every_coin():
    corners, heads = setup_game("turning-corners", ["3:5"])
    after = [(1, 2), (1, 5), (3, 2)]
    assert corners.parse("1:2 3:5", heads) == after
    assert corners.parse("1:5 3:2", heads) == after          # the other two corners
    assert corners.parse("1:2 1:5 3:2 3:5", heads) == after
    rug, heads = setup_game("rugs", ["2:2"])
    assert rug.parse("0:1 2:2", heads) == sorted({(r, c) for r in range(3) for c in (1, 2)}
                                                 - {(2, 2)})
    with pytest.raises(ValueError, match="two opposite corners"):
        rug.parse("0:1 1:2 2:2", heads)
    with pytest.raises(ValueError, match="row:column"):
        rug.parse("2 2", heads)


@pytest.mark.parametrize("typed, reason", [
    ("2:3", "turns two coins"), ("1:3 2:3 0:3", "turns two coins"),
    ("1:1 2:3", "neither one row nor one column"), ("2:3 2:3", "typed twice"),
    ("1:0 1:1", "is a tail"), ("0:2 2:2", "the lower one of the move, is a tail"),
    ("2:9 2:3", "no coin 2:9"), ("two three", "row:column"), ("2:x 2:3", "row:column")])
def test_every_illegal_acrostic_move_has_a_one_line_reason(typed, reason):
    game, heads = setup_game("acrostic-twins", ["2:3", "1:3"])
    with pytest.raises(ValueError, match=reason) as refused:
        game.parse(typed, heads)
    assert "\n" not in str(refused.value)


def test_acrostic_moves_in_a_row_or_a_column_either_way_round():
    game, heads = setup_game("Acrostic Twins", ["2:3", "1:3"])
    assert isinstance(game, AcrosticPlay)
    assert game.parse("2:0 2:3", heads) == game.parse("turn 2:3, 2:0", heads) == [(1, 3), (2, 0)]
    assert game.parse("0:3 2:3", heads) == [(0, 3), (1, 3)]
    assert game.parse("1:3 2:3", heads) == []


def test_names_and_codes():
    for key, named in HEAP_GAMES.items():
        game = heap_game(named.name)
        assert game.code == named.code and game_key(named.name) == key
        assert "Winning Ways" in named.source
    assert heap_game_code("Dawson's Chess").code == "0.137"
    assert setup_game("0.77", ["3"])[0].name == "Kayles (0.77)"     # a code shows its name
    assert setup_game("4.07", ["3"])[0].name == "the take-and-break game 4.07"
    assert setup_game("ruler x twins", ["1:1"])[0].name == "ruler x twins"
    assert setup_game("Mock Turtles", ["HTH"])[0].name == "Mocking Turtles (1-3)"
    assert setup_game("octal", ["0.07", "5"])[0].name == "Dawson's Kayles (0.07)"
    with pytest.raises(ValueError, match="unknown game"):
        setup_game("chess")
    with pytest.raises(ValueError, match="needs a code"):
        setup_game("octal", ["0.77"])
    for name, position in (("kayles", ["10**9"]), ("kayles", ["1000000000"]), ("nim", ["-1"]),
                           ("motley", ["H" * 21]), ("rugs", ["16:0"])):
        with pytest.raises(ValueError):
            setup_game(name, position)


def test_dawsons_chess_is_dawsons_kayles_one_further():
    # Winning Ways ch. 4: Dawson's Chess on n files is Dawson's Kayles on n + 1 pins
    chess, kayles = octal_game("0.137"), octal_game("0.07")
    assert chess.nim_values(200).tolist() == kayles.nim_values(201).tolist()[1:]


def test_misere_search_limits_are_said_before_the_first_move():
    """Past the search's 40 tokens a misère quotient answers (issue 38, item 4); a position
    no quotient can answer within the time cap is refused before the first move, saying so."""
    game, heaps = setup_game("grundy", ["2000", "2000"], misere=True)
    with pytest.raises(ValueError, match="40 tokens.*a misère quotient .* could not answer"):
        play(game, heaps, read=scripted([]), write=lambda line: None)
    game, heaps = setup_game("kayles", ["30", "30"], misere=True)
    said = []
    play(game, heaps, read=scripted(["hint"]), write=said.append)
    assert any("winning move" in line or "every move loses" in line for line in said), said


# ---- against brute force ----------------------------------------------------------------------

def _normal(position, moves, cache):
    if position not in cache:
        cache[position] = mex(_normal(o, moves, cache) for o in moves(position))
    return cache[position]


def _heap_oracle(digits):
    moves = heap_moves_from_code(digits)
    normal, misere = {}, {}

    def value(heaps, is_misere):
        key = tuple(sorted(heaps))
        return misere_value(key, moves, misere) if is_misere else _normal(key, moves, normal)
    return moves, value


def _typed_heap_move(before, after):
    """How a person types the move from one multiset of heaps to another: 'i -> left'."""
    rest = list(after)
    for i, h in enumerate(before):
        others = list(before[:i]) + list(before[i + 1:])
        left = list(rest)
        ok = True
        for o in others:
            if o in left:
                left.remove(o)
            else:
                ok = False
                break
        if ok and sum(left) <= h and sorted(left) != [h]:
            return f"{i} -> {' '.join(map(str, left)) or '0'}"
    raise AssertionError("no move")


@pytest.mark.parametrize("code", ["0.77", "0.07", "0.137", "0.6"])
@pytest.mark.parametrize("misere", [False, True])
def test_heap_hints_and_computer_against_brute_force(code, misere):
    digits = [int(d) for d in code.replace(".", "")]
    moves, value = _heap_oracle(digits)
    game = HeapPlay(heap_game(code), misere=misere)
    rng = random.Random(12)
    for heaps in ([1], [2], [3, 4], [5, 2], [6], [7, 3, 1], [4, 4], [9]):
        if not moves(tuple(heaps)):
            assert game.over(heaps) and game.hint(heaps) == "no move is left"
            continue
        lost = value(heaps, misere) == 0
        assert game.hint(heaps).split("(")[1].startswith("a P-position" if lost else "an N")
        if lost:
            continue
        # from an N-position the computer wins against any play: random typed moves
        position, mover = list(heaps), "computer"
        while moves(tuple(sorted(position))):
            if mover == "computer":
                _, position = game.computer(position)
                assert value(position, misere) == 0
            else:
                option = rng.choice(moves(tuple(sorted(position))))
                position = game.parse(_typed_heap_move(position, option), position)
                assert sorted(position) == sorted(option)
            mover = "human" if mover == "computer" else "computer"
        winner = ("human" if mover == "computer" else "computer") if not misere else mover
        assert winner == "computer"


def _turning_moves(rule):
    """Moves of a row game from the definition: rule(x) gives the sets of other coins."""
    def moves(heads):
        out = []
        for x in heads:
            for others in rule(x):
                out.append(tuple(sorted(set(heads) ^ set(others) ^ {x})))
        return out
    return moves


def _at_most(t):
    return lambda x: [c for k in range(t) for c in combinations(range(x), k)]


def _runs(x):
    return [tuple(range(x - k, x)) for k in range(x + 1)]


@pytest.mark.parametrize("name, rule", [("mocking-turtles", _at_most(3)), ("ruler", _runs),
                                        ("twins", lambda x: [(y,) for y in range(x)])])
@pytest.mark.parametrize("misere", [False, True])
def test_turning_hints_against_brute_force(name, rule, misere):
    moves = _turning_moves(rule)
    cache = {}
    for bits in range(1, 1 << 6):
        row = "".join("H" if bits >> i & 1 else "T" for i in range(6))
        game, heads = setup_game(name, [row], misere)
        key = tuple(heads)
        if not moves(key):  # the game is over: nothing to hint
            assert game.over(heads)
            continue
        v = misere_value(key, moves, cache) if misere else _normal(key, moves, {})
        hint = game.hint(heads)
        assert ("P-position" in hint) == (v == 0), (row, hint)
        if v:
            move = game.ruleset.winning_move(heads, misere=misere)
            after = tuple(sorted(set(heads) ^ set(move)))
            assert after in moves(key)
            assert (misere_value(after, moves, cache) if misere else _normal(after, moves, {})) == 0


def _corner_moves(heads):
    """Turning Corners from the definition: the corners of a rectangle, bottom-right a head."""
    out = []
    for a, b in heads:
        for r in range(a):
            for c in range(b):
                out.append(tuple(sorted(set(heads) ^ {(r, c), (r, b), (a, c), (a, b)})))
    return out


@pytest.mark.parametrize("misere", [False, True])
def test_turning_corners_hints_against_brute_force(misere):
    cache, normal = {}, {}
    cells = [(r, c) for r in range(1, 3) for c in range(1, 4)]
    for k in (1, 2, 3):
        for heads in combinations(cells, k):
            if not _corner_moves(heads):
                continue
            game = BoardPlay(setup_game("turning-corners", ["1:1"])[0].game, (3, 4), misere)
            v = misere_value(heads, _corner_moves, cache) if misere else \
                _normal(heads, _corner_moves, normal)
            assert ("P-position" in game.hint(list(heads))) == (v == 0), heads
            if v:
                _, after = game.computer(list(heads))
                w = misere_value(tuple(after), _corner_moves, cache) if misere else \
                    _normal(tuple(after), _corner_moves, normal)
                assert w == 0


def _acrostic_moves(heads):
    """Acrostic Twins from the definition (Winning Ways ch. 14): two coins of one row or of
    one column, the right or lower one a head."""
    out = []
    for a, b in heads:
        for other in [(x, b) for x in range(a)] + [(a, y) for y in range(b)]:
            out.append(tuple(sorted(set(heads) ^ {other, (a, b)})))
    return out


@pytest.mark.parametrize("misere", [False, True])
def test_acrostic_twins_hints_win_against_brute_force(misere):
    cache = {}
    cells = [(r, c) for r in range(3) for c in range(3)]
    for k in (1, 2, 3):
        for heads in combinations(cells, k):
            game = AcrosticPlay(setup_game("acrostic-twins", ["1:1"])[0].game, (3, 3), misere)
            v = misere_value(heads, _acrostic_moves, cache) if misere else \
                _normal(heads, _acrostic_moves, cache)
            hint = game.hint(list(heads))
            if not _acrostic_moves(heads):
                assert hint == "no move is left"
                continue
            assert ("P-position" in hint) == (v == 0), (heads, hint)
            if v == 0:
                continue
            # the move the hint says, typed as it says to type it, leaves a lost position
            typed = hint[hint.rindex("(") + 1:-1]
            after = game.parse(typed, list(heads))
            assert tuple(after) in _acrostic_moves(heads)
            w = misere_value(tuple(after), _acrostic_moves, cache) if misere else \
                _normal(tuple(after), _acrostic_moves, cache)
            assert w == 0, (heads, hint)
            assert game.ruleset.is_losing(after, misere=misere)  # the engine agrees
            assert game.verdict(after)[0] == 0


def test_one_phrasing_for_heap_moves():
    # the terminal's words are the web's (nimbers.web.api), which add the heap's size
    said = say_heap_move(1, 2, (2, 3))
    assert said == "take 2 from heap 1, leaving 2 and 3"
    assert HeapPlay(octal_game("4.07")).describe((1, 2, (2, 3)), [1, 7]) == \
        said + " (1:2 -> 2 3)"
    assert say_heap_move(1, 2, (2, 3), size=7) == "take 2 from heap 1 (7 tokens), leaving 2 and 3"
    assert say_heap_move(0, 1, (), word="pile", size=1, unit=("stone", "stones")) == \
        "take 1 from pile 0 (1 stone), leaving nothing"
    assert NimPlay().say((0, 3, (2,)), [5], size=True) == "take 3 from pile 0 (5 stones), leaving 2"
    assert say_heap_move(0, 0, (3, 4)) == "split heap 0 into 3 and 4"


def test_web_playground_calls_still_work():
    # nimbers.web.api drives these classes with plain numbers
    assert NimPlay().parse("1 2", [3, 5]) == [3, 3]
    assert HeapPlay(octal_game("0.77")).parse("0 1 1 1", [3]) == [1, 1]
    game = TurningPlay(setup_game("ruler", ["HTHHT"])[0].game, 5)
    assert game.parse("2 3", [0, 2, 3]) == [0]
    assert game.over([]) and not game.over([0])
    text, after = HeapPlay(octal_game("0.77")).computer([3, 4])
    assert after == [1, 4] and text.startswith("take 2 from heap 0")


def test_a_misere_game_over_before_any_move_names_no_last_mover():
    # nobody moved: "the other made the last move" would be false
    result, text = transcript("acrostic-twins", ["0:0"], [], misere=True)
    assert result == "human"
    assert text.splitlines()[-2] == ("no head can be turned, and you are to move: under "
                                     "misère play the player who cannot move wins.")


@pytest.mark.parametrize("setup", [["1:2", "1:2", "0:1"], ["1:2,01:2"]])
def test_a_head_typed_twice_in_the_setup_is_named(setup):
    # the turning convention (a coin listed twice is turned twice) would cancel it silently
    with pytest.raises(ValueError, match="head 1:2 is typed twice"):
        setup_game("acrostic-twins", setup)


def test_the_old_home_of_play_warns_and_gives_the_same_objects():
    import nimbers.games.play as old
    import nimbers.play as new
    with pytest.warns(DeprecationWarning, match="use nimbers.play.setup_game"):
        assert old.setup_game is new.setup_game
    with pytest.raises(AttributeError):
        old.no_such_name
