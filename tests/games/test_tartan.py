"""2-D coin-turning games: the Tartan theorem proven by brute force on small boards, Turning
Corners against the reference table, winning moves."""

import random

import pytest

from nimbers.games.tartan import acrostic_twins, rugs, tartan, turning_corners
from nimbers.games.turning import named_game
from brute_games import brute_force_values, product_move_sets
from conftest import DATA
from oracle import load_table

FAMILIES = ["turning-turtles", "mocking-turtles", "twins", "triplets", "ruler", "motley",
            "progression", "moebius"]


@pytest.mark.parametrize("a", FAMILIES)
@pytest.mark.parametrize("b", ["twins", "ruler", "mocking-turtles", "progression"])
def test_tartan_theorem_by_brute_force(a, b):
    A, B = named_game(a), named_game(b)
    n = 8
    brute = brute_force_values(product_move_sets(A, B), n, n)
    assert tartan(A, B).nim_values(n, n).tolist() == brute


def test_turning_corners_16x16_against_reference():
    # the J reference's table (Conway & Guy); the turning-games reference's copy has a
    # misprint at row 13, column 3 (errata), so the J table is the one kept in tests/data
    ref = load_table(DATA / "nim_mul_16x16.txt")
    assert turning_corners().nim_values(16, 16).tolist() == ref
    corners = lambda a, b: [[(x, b), (a, y), (x, y)] for x in range(a) for y in range(b)]
    assert brute_force_values(corners, 16, 16) == ref


def test_acrostic_twins_by_brute_force():
    def moves(a, b):
        return [[(x, b)] for x in range(a)] + [[(a, y)] for y in range(b)]
    assert acrostic_twins().nim_values(10, 10).tolist() == brute_force_values(moves, 10, 10)


@pytest.mark.parametrize("game", [turning_corners(), rugs(), acrostic_twins(),
                                  tartan("mocking-turtles", "ruler"), tartan("motley", "twins")],
                         ids=lambda g: g.name)
def test_winning_moves(game):
    rng = random.Random(game.name)
    for _ in range(25):
        heads = {(rng.randrange(12), rng.randrange(12)) for _ in range(rng.randrange(1, 6))}
        move = game.winning_move(heads)
        if game.nim_value(heads) == 0:
            assert move is None
            continue
        assert max(move) in heads
        after = heads ^ set(move)
        assert game.nim_value(after) == 0


def test_three_dimensions():
    game = tartan("ruler", "twins", "mocking-turtles")
    from nimbers import nim_mul
    assert game.nim_value((3, 5, 2)) == nim_mul(nim_mul(4, 5), 4)
    heads = {(3, 5, 2), (1, 1, 1), (6, 2, 4)}
    move = game.winning_move(heads)
    assert move is not None and game.nim_value(heads ^ set(move)) == 0


def test_bad_positions():
    with pytest.raises(ValueError):
        turning_corners().nim_value("3:x")
    with pytest.raises(ValueError):
        turning_corners().nim_value([(1, 2, 3)])
    with pytest.raises(ValueError):
        tartan("twins")
    with pytest.raises(ValueError, match="known games"):
        tartan("twins", "bogus")


def test_cli(capsys):
    from nimbers.cli import main
    assert main(["turning", "mocking-turtles", "8"]) == 0
    assert capsys.readouterr().out.split() == ["1", "2", "4", "7", "8", "11", "13", "14"]
    assert main(["turning", "ruler", "--heads", "0,3,7"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("value: 13") and "winning move" in out
    assert main(["tartan", "twins", "twins", "--heads", "3:5,2:2"]) == 0
    assert capsys.readouterr().out.startswith("value: 12")
    assert main(["turning", "nope"]) == 2
    assert "known coin-turning games" in capsys.readouterr().err


def test_every_game_object_says_who_wins():
    from nimbers.games import octal_game
    from nimbers.games.turning import named_game
    games = [(named_game("ruler"), [0, 3, 7]), (turning_corners(), {(3, 5), (2, 2)}),
             (acrostic_twins(), {(3, 5), (2, 2)}), (octal_game("0.77"), [3, 4])]
    for game, position in games:
        assert game.is_losing(position) == (game.winning_move(position) is None)
