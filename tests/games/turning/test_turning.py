"""Coin-turning games: the engine against brute force, closed forms, the Mock Turtle theorem,
winning moves, and the contest problem."""

import itertools
import random

import pytest

from nimbers.games.turning import (CLOSED_FORMS, NAMED_GAMES, TurningGame, heads_of,
                                   named_game, odious, parse_code)
from oracle import mex


def brute_values(predicate, n):
    """G(x) from the definition: every subset of earlier coins, filtered by a predicate on
    the whole set turned (the head included)."""
    g = []
    for x in range(n):
        opts = set()
        for r in range(x + 1):
            for others in itertools.combinations(range(x), r):
                if predicate(others + (x,)):
                    v = 0
                    for y in others:
                        v ^= g[y]
                    opts.add(v)
        g.append(mex(opts))
    return g


def consecutive(s):
    return all(b - a == 1 for a, b in zip(s, s[1:]))


def equally_spaced(s):
    return len({b - a for a, b in zip(s, s[1:])}) <= 1


def symmetric(s):
    return all(s[i] + s[-1 - i] == s[0] + s[-1] for i in range(len(s)))


BRUTE = {
    "1-2": lambda s: len(s) <= 2,
    "1-3": lambda s: len(s) <= 3,
    "1-5": lambda s: len(s) <= 5,
    "2": lambda s: len(s) == 2,
    "3": lambda s: len(s) == 3,
    "1+": lambda s: True,
    "2+": lambda s: len(s) >= 2,
    "1+C": consecutive,
    "2-3C": lambda s: 2 <= len(s) <= 3 and consecutive(s),
    "1+E": equally_spaced,
    "3E": lambda s: len(s) == 3 and equally_spaced(s),
    "1-3C(5)": lambda s: len(s) <= 3 and s[-1] - s[0] < 5,
    "3C(5)": lambda s: len(s) == 3 and s[-1] - s[0] < 5,
    "1+S": symmetric,
    "4FS": lambda s: len(s) == 4 and s[0] == 0 and symmetric(s),
    "1+FS": lambda s: s[0] == 0 and symmetric(s),
    "2-3,6C": lambda s: 2 <= len(s) <= 3 or (len(s) == 6 and consecutive(s)),
    "2F": lambda s: len(s) == 2 and s[0] == 0,
}


@pytest.mark.parametrize("code", sorted(BRUTE))
def test_engine_against_brute_force(code):
    n = 13
    game = TurningGame(code)
    brute = brute_values(BRUTE[code], n)
    assert game.engine_values(n).tolist() == brute
    assert game.nim_values(n).tolist() == brute      # the closed form, where there is one


@pytest.mark.parametrize("name", sorted(CLOSED_FORMS))
def test_closed_forms_agree_with_engine(name):
    n = 240
    game = named_game(name)
    engine = game.engine_values(n).tolist()
    assert engine == [CLOSED_FORMS[name](x) for x in range(n)]
    assert game.closed_form is not None
    assert game.nim_values(n).tolist() == engine
    assert [game.nim_value(x) for x in range(n)] == engine


def test_reference_values():
    # the turning-games reference's table of Mocking Turtles, coins from 0
    assert named_game("mocking-turtles").nim_values(17).tolist() == \
        [1, 2, 4, 7, 8, 11, 13, 14, 16, 19, 21, 22, 25, 26, 28, 31, 32]
    # Ruler: the largest power of 2 dividing x + 1 (errata of the reference)
    assert named_game("ruler").nim_values(8).tolist() == [1, 2, 1, 4, 1, 2, 1, 8]
    assert named_game("grunt").nim_values(12).tolist() == [0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2]


@pytest.mark.parametrize("m", [1, 2, 3, 4, 5])
def test_mock_turtle_theorem(m):
    n = {1: 200, 2: 120, 3: 40, 4: 30, 5: 24}[m]
    odd = TurningGame(f"1-{2 * m + 1}").engine_values(n + 1).tolist()
    even = TurningGame(f"1-{2 * m}").engine_values(n).tolist()
    assert all(odious(v) for v in odd)  # t = 2m + 1: every value is odious
    # coins from 0: G_2m(x) = floor(G_2m+1(x + 1) / 2) (the errata's corrected form)
    assert even == [odd[x + 1] // 2 for x in range(n)]


@pytest.mark.parametrize("name", ["mocking-turtles", "ruler", "progression", "twins", "motley",
                                  "moebius", "turnips", "grunt"])
def test_winning_moves_reach_zero(name):
    game = named_game(name)
    rng = random.Random(name)
    length = 14
    for _ in range(30):
        heads = [i for i in range(length) if rng.random() < 0.4]
        move = game.winning_move(heads)
        if game.nim_value(heads) == 0:
            assert move is None
            continue
        x = move[-1]
        assert x in heads and tuple(move[:-1]) in {tuple(s) for s in game.move_sets(x)}
        assert game.nim_value(sorted(set(heads) ^ set(move))) == 0


def test_contest_problem_arithmetic_progressions():
    """Petrozavodsk 2014, Warsaw U (quoted in the turning-games reference): n <= 3000 coins,
    turn any arithmetic progression whose last coin is a head; print a winning first move."""
    game = named_game("progression")
    rng = random.Random(3000)
    row = "".join(rng.choice("HT") for _ in range(3000))
    values = game.nim_values(3000)
    assert len(values) == 3000
    move = game.winning_move(row)
    heads = heads_of(row)
    if game.nim_value(heads) == 0:
        assert move is None
    else:
        assert len({b - a for a, b in zip(move, move[1:])}) <= 1  # an arithmetic progression
        assert game.nim_value(sorted(set(heads) ^ set(move))) == 0


def test_custom_rules():
    g = TurningGame(moves=lambda x: [()] + [(y,) for y in range(x) if (x - y) % 2 == 1], name="odd gaps")
    def odd_pair(s):
        return len(s) == 1 or (len(s) == 2 and (s[1] - s[0]) % 2 == 1)
    assert g.nim_values(10).tolist() == brute_values(odd_pair, 10)


def test_bad_rules_and_positions():
    for bad in ["", "0", "3-1", "1-3X", "C", "1--3", "1-3CC"]:
        with pytest.raises(ValueError):
            parse_code(bad)
    with pytest.raises(TypeError):
        parse_code(3)
    with pytest.raises(ValueError, match="known games"):
        named_game("nonsense")
    with pytest.raises(ValueError):
        heads_of("HXT")
    with pytest.raises(ValueError):
        heads_of([-1])
    with pytest.raises(ValueError, match="distinct coins left"):
        TurningGame(moves=lambda x: [(x,)]).nim_values(3)
    with pytest.raises(ValueError):
        TurningGame()
    assert set(NAMED_GAMES) >= {"turning-turtles", "mocking-turtles", "moebius", "mogul",
                                "gold-moidores", "motley", "twins", "triplets", "ruler"}
