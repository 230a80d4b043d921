"""Misère play: values against the definition, genera against Winning Ways' tables, the tame
shortcut against the search, and misère play of every kind of game."""

import itertools
import random

import pytest

from nimbers.games import (Genus, ImpartialGame, Nim, acrostic_twins, genus_of, grundy_game,
                           named_game, octal_game, subtraction_game, take_break_game,
                           turning_corners)
from oracle import heap_moves_from_code, misere_value


def nim_moves(heaps):
    return [tuple(sorted(heaps[:i] + (k,) + heaps[i + 1:]))
            for i, h in enumerate(heaps) for k in range(h)]


def test_misere_nim_formula_against_the_definition():
    nim = Nim()
    cache = {}
    for heaps in itertools.product(range(5), repeat=3):
        key = tuple(sorted(heaps))
        assert nim.misere_nim_value(list(heaps)) == misere_value(key, nim_moves, cache), heaps


def test_genera_of_nim_heaps():
    # Winning Ways ch. 13: 0 = 0^120, *1 = 1^031, *n = n^(n, n xor 2) for n >= 2
    nothing = lambda p: []
    assert str(genus_of((), nothing)) == "0^120"
    heaps = {n: genus_of((n,), nim_moves) for n in range(6)}
    assert [str(heaps[n]) for n in range(6)] == ["0^120", "1^031", "2^20", "3^31", "4^46", "5^57"]


@pytest.mark.parametrize("code", ["0.77", "0.07", "0.137", "4.07", "0.3F", "0.6", "0.51"])
def test_heap_misere_values_against_the_definition(code):
    game = take_break_game(code)
    digits = [int(c, 16) for c in code.replace(".", "")]
    moves = heap_moves_from_code(digits)
    cache = {}
    expected = [misere_value((n,) if n else (), moves, cache) for n in range(14)]
    assert game.misere_nim_values(14) == expected
    rng = random.Random(code)
    for _ in range(15):
        heaps = [rng.randrange(1, 8) for _ in range(rng.randrange(1, 4))]
        key = tuple(sorted(h for h in heaps if moves((h,))))
        assert game.misere_nim_value(heaps) == misere_value(key, moves, cache), heaps


def test_kayles_genera_match_winning_ways():
    # Winning Ways ch. 13, the genus table of Kayles (heaps 0 to 5)
    kayles = octal_game("0.77")
    assert [str(g) for g in kayles.genera(6)] == ["0^120", "1^031", "2^20", "3^31", "1^031",
                                                  "4^146"]
    assert not kayles.tame_up_to(6)


def test_genus_sequence_is_what_it_says():
    # each superscript is the misère value with that many *2s added (checked independently)
    kayles = octal_game("0.77")
    kayles_moves = heap_moves_from_code([0, 7, 7])

    def moves(state):  # a Kayles position and a Nim position side by side
        kay, nim = state
        return [(k, nim) for k in kayles_moves(kay)] + \
            [(kay, tuple(h for h in n if h)) for n in nim_moves(nim)]

    cache = {}
    for n in range(7):
        genus = kayles.genus(n)
        assert genus.normal == kayles.nim_value(n)
        for k, gamma in enumerate(genus.misere):
            start = ((n,) if n else (), (2,) * k)
            assert misere_value(start, moves, cache) == gamma, (n, k)


@pytest.mark.parametrize("game", [subtraction_game({1, 2}), subtraction_game({1, 2, 3}),
                                  subtraction_game({2, 3}), octal_game("0.3"), octal_game("0.31")],
                         ids=lambda g: g.code)
def test_tame_shortcut_agrees_with_the_search(game):
    # tame games play misère like Nim (Winning Ways ch. 13): the shortcut and the search agree
    if not game.tame_up_to(10):
        pytest.skip(f"{game.code} is not tame up to 10")
    moves = lambda heaps: [tuple(sorted(h for h in nxt if game._has_move(h)))
                           for nxt in game.moves(list(heaps))]
    rng = random.Random(game.code)
    cache = {}
    for _ in range(40):
        heaps = sorted(rng.randrange(0, 10) for _ in range(rng.randrange(1, 4)))
        key = tuple(h for h in heaps if game._has_move(h))
        assert game.misere_nim_value(heaps) == misere_value(key, moves, cache), heaps
        assert game.genus(heaps).misere_value == game.misere_nim_value(heaps)


def test_tame_answers_large_sums_without_searching():
    game = subtraction_game({1, 2})
    assert game.tame_up_to(8)
    heaps = [5, 7, 6, 7, 5, 6, 4, 3, 2, 7]   # 52 tokens: beyond the search, tame by the rule
    value = game.misere_nim_value(heaps)
    g = 0
    for h in heaps:
        g ^= h % 3
    assert value == g     # some heap has value >= 2: the misère value is the nim-sum


def test_misere_winning_moves_win():
    dawson = octal_game("0.07")
    for heaps in ([4, 5], [3, 3, 6], [9], [2, 7]):
        move = dawson.winning_move(heaps, misere=True)
        if dawson.is_losing(heaps, misere=True):
            assert move is None
            continue
        i, take, left = move
        after = heaps[:i] + list(left) + heaps[i + 1:]
        assert dawson.is_losing(after, misere=True)


def test_a_finished_misere_position_has_no_winning_move_to_make():
    # The player to move there has already won (misère value 1), and there is no move.
    for game, finished in ((octal_game("0.07"), [1]), (named_game("twins"), [0]),
                           (ImpartialGame(nim_moves, "Nim by its moves"), (0, 0))):
        assert game.misere_nim_value(finished) == 1
        assert not game.is_losing(finished, misere=True)
        assert game.winning_move(finished, misere=True) is None
    assert Nim().winning_move([0, 0], misere=True) is None


def test_misere_search_refuses_big_positions():
    with pytest.raises(ValueError, match="tokens"):
        octal_game("0.07").misere_nim_value([30, 31])


def test_grundys_game_misere():
    g = grundy_game()
    # heaps of 1 and 2 allow no move: a position of them has no move, so G- = 1
    assert g.misere_nim_value([1, 2, 2]) == 1
    moves = lambda heaps: [tuple(sorted(h for h in nxt if h > 2)) for nxt in g.moves(list(heaps))]
    cache = {}
    for n in range(3, 16):
        assert g.misere_nim_value(n) == misere_value((n,), moves, cache)


def turning_moves(allowed):
    """Moves of a coin row from the definition: turn a set allowed(set) whose largest is a head."""
    def moves(heads):
        out = []
        for x in heads:
            for r in range(x + 1):
                for others in itertools.combinations(range(x), r):
                    if allowed(others + (x,)):
                        out.append(tuple(sorted(set(heads) ^ set(others + (x,)))))
        return out
    return moves


@pytest.mark.parametrize("name,allowed", [
    ("mocking-turtles", lambda s: len(s) <= 3),
    ("ruler", lambda s: all(b - a == 1 for a, b in zip(s, s[1:]))),
    ("twins", lambda s: len(s) == 2),
])
def test_turning_misere_against_the_definition(name, allowed):
    game = named_game(name)
    moves = turning_moves(allowed)
    cache = {}
    for heads in itertools.chain.from_iterable(
            itertools.combinations(range(7), k) for k in range(4)):
        assert game.misere_nim_value(list(heads)) == misere_value(heads, moves, cache), heads
    row = "HTHHTH"
    move = game.winning_move(row, misere=True)
    if move is not None:
        assert game.is_losing(sorted(set(game._canonical(row)) ^ set(move)), misere=True)


def test_turning_misere_refuses_long_rows():
    with pytest.raises(ValueError, match="misère"):
        named_game("motley").misere_nim_value([30])


def test_tartan_and_acrostic_misere():
    corners = turning_corners()

    def moves(heads):
        out = []
        for (a, b) in heads:
            for x in range(a):
                for y in range(b):
                    coins = {(x, y), (x, b), (a, y), (a, b)}
                    out.append(tuple(sorted(set(heads) ^ coins)))
        return out
    cache = {}
    for heads in ([(1, 1)], [(2, 3), (1, 1)], [(3, 3)], [(2, 2), (3, 1), (1, 3)]):
        assert corners.misere_nim_value(heads) == misere_value(tuple(sorted(heads)), moves, cache)
    assert corners.is_losing([], misere=False) and not corners.is_losing([], misere=True)
    assert acrostic_twins().misere_nim_value([(0, 1)]) == 0     # one move, then no move: won
    with pytest.raises(ValueError, match=r"board of 100 coins \(10 x 10\) would search 2\^100 "
                       "positions; the limit is 16 coins"):
        corners.misere_nim_value([(9, 9)])
    with pytest.raises(ValueError, match=r"Acrostic Twins on a board of 20 coins \(4 x 5\)"):
        acrostic_twins().misere_nim_value([(3, 4)])


def test_impartial_game_misere_matches_nim():
    game = ImpartialGame(nim_moves, "Nim by its moves")
    nim = Nim()
    for heaps in itertools.product(range(4), repeat=3):
        key = tuple(sorted(heaps))
        assert game.misere_nim_value(key) == nim.misere_nim_value(list(heaps))
        assert game.is_losing(key, misere=True) == nim.is_losing(list(heaps), misere=True)


def test_genus_str():
    assert str(Genus(0, (1, 2, 0))) == "0^120"
    assert str(Genus(12, (12, 14))) == "12^12,14"
