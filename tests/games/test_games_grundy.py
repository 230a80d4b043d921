"""The Sprague-Grundy engine and heap games against published sequences and brute force."""

import pytest

from nimbers.games import (CycleError, grundy, grundy_game, mex, octal_game,
                                  subtraction_game, sum_value, take_break_game,
                                  winning_move_in_sum)
from conftest import DATA
from oracle import heap_moves_from_code


def published(name):
    values = []
    for line in (DATA / name).read_text(encoding="utf-8").splitlines():
        if not line.startswith("#"):
            values += [int(x) for x in line.split()]
    return values


def test_mex():
    assert mex([]) == 0 and mex([0, 1, 2]) == 3 and mex([1, 5]) == 0 and mex({0, 2}) == 1
    with pytest.raises(ValueError):
        mex([-1])


def test_kayles_against_oeis():
    ref = published("oeis_A002186_kayles.txt")
    assert octal_game("0.77").nim_values(len(ref)).tolist() == ref


def test_dawson_against_oeis():
    ref = published("oeis_A002187_dawsons_chess.txt")
    assert octal_game("0.137").nim_values(len(ref)).tolist() == ref
    # Dawson's Kayles 0.07 has the values shifted by one (OEIS comment)
    assert octal_game("0.07").nim_values(len(ref) + 1).tolist() == [0] + ref


def test_grundys_game_against_oeis():
    ref = published("oeis_A002188_grundys_game.txt")
    assert grundy_game().nim_values(len(ref)).tolist() == ref


def test_periods():
    # Convention: g(n + period) = g(n) for every n >= preperiod, both the smallest possible.
    # Kayles (OEIS A002186): periodic with period 12 from n = 71 on.
    k = octal_game("0.77").period()
    assert (k.period, k.preperiod, k.proven) == (12, 71, True)
    # Dawson's Kayles: A002187 (Dawson's Chess) has its last exception at n = 51, and 0.07
    # has the values shifted by one, so period 34 from n = 53 on.
    d = octal_game("0.07").period()
    assert (d.period, d.preperiod, d.proven) == (34, 53, True)
    c = octal_game("0.137").period()
    assert (c.period, c.preperiod, c.proven) == (34, 52, True)
    s = subtraction_game({1, 2, 3}).period()
    assert (s.period, s.preperiod, s.proven) == (4, 0, True)
    g = grundy_game().period(max_n=2048)
    assert not g.proven


def test_not_proven_when_data_are_short():
    p = octal_game("0.77").period(max_n=128)
    assert not p.proven and "not proven up to n = 128" in str(p)


@pytest.mark.parametrize("code", ["0.77", "0.07", "0.137", "4.07", "0.3F", "0.8", "0.51", "0.6"])
def test_heap_values_against_engine(code):
    game = take_break_game(code)
    digits = [int(c, 16) for c in code.replace(".", "")]
    moves = heap_moves_from_code(digits)
    cache = {}
    values = game.nim_values(18).tolist()
    for n in range(18):
        assert values[n] == grundy((n,), moves, cache), (code, n)


def test_subtraction_games():
    assert subtraction_game({1, 2, 3}).nim_values(12).tolist() == [n % 4 for n in range(12)]
    moves = lambda n: [n - s for s in (2, 5, 6) if n >= s]
    g = subtraction_game({2, 5, 6}).nim_values(40).tolist()
    assert g == [grundy(n, moves) for n in range(40)]


def test_winning_moves_of_heap_games():
    game = octal_game("0.77")
    for heaps in ([3, 4], [5, 6, 7], [10], [1, 1], [2, 2, 3]):
        move = game.winning_move(heaps)
        if game.is_losing(heaps):
            assert move is None
            continue
        i, k, left = move
        assert (k, left) in list(game.heap_moves(heaps[i]))
        assert game.is_losing(heaps[:i] + list(left) + heaps[i + 1:])


def test_engine_deep_chain_and_sums():
    n = 10**6
    cache = {}
    assert grundy(n, lambda x: [x - 1] if x else [], cache) == n % 2
    sub = lambda x: [x - k for k in (1, 2) if x >= k]
    assert sum_value([4, 5, 6], sub) == 1 ^ 2 ^ 0
    move = winning_move_in_sum([4, 5, 6], sub)
    i, new = move
    comps = [4, 5, 6]
    comps[i] = new
    assert sum_value(comps, sub) == 0
    assert winning_move_in_sum([3, 6], sub) is None


def test_bad_rules():
    with pytest.raises(ValueError, match="octal digits"):
        octal_game("0.79")
    with pytest.raises(ValueError):
        octal_game("0.7G")
    with pytest.raises(ValueError):
        octal_game("077")
    with pytest.raises(ValueError, match="no move"):
        octal_game("0.000")
    with pytest.raises(ValueError):
        octal_game("2.7")  # a null move
    with pytest.raises(TypeError):
        octal_game(0.77)
    with pytest.raises(ValueError, match="empty"):
        subtraction_game(set())
    with pytest.raises(ValueError):
        subtraction_game({0, 1})
    with pytest.raises(ValueError):
        subtraction_game({-2})
    with pytest.raises(CycleError):
        grundy(0, lambda x: [(x + 1) % 3])
    with pytest.raises(TypeError, match="hashable"):
        grundy(0, lambda x: [[x]])
    with pytest.raises(TypeError, match="iterable"):
        grundy(0, lambda x: 5)
    with pytest.raises(ValueError):
        octal_game("0.77").nim_values(-1)


def test_the_old_module_warns_and_leaves_the_function_in_place():
    import importlib
    import sys

    import nimbers.games

    sys.modules.pop("nimbers.games.grundy", None)
    old = importlib.import_module("nimbers.games.grundy")  # importing it says nothing
    with pytest.warns(DeprecationWarning, match="nimbers.games.grundy is deprecated"):
        assert old.octal_game is nimbers.games.octal_game
    with pytest.warns(DeprecationWarning, match="nimbers.games.grundy is deprecated"):
        from nimbers.games.grundy import mex
    assert mex is nimbers.games.mex
    # Importing the submodule does not rebind the package's name to it.
    with pytest.warns(DeprecationWarning, match="nimbers.games.grundy is deprecated"):
        assert nimbers.games.grundy is old.grundy and callable(nimbers.games.grundy)
    assert nimbers.games.grundy(4, lambda n: [n - 1] if n else []) == 0
