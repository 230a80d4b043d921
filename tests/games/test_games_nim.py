"""Nim: the references' examples, misère play, and the DP solvers against the formula."""

import itertools

import pytest

from nimbers.games.nim import Move, is_losing, nim_sum, solve_bottom_up, solve_memo, winning_moves


def test_reference_examples():
    # J reference: 3 5 7 has nim-sum 1 and three safe moves, to 2 5 7, 3 4 7, 3 5 6
    assert nim_sum([3, 5, 7]) == 1
    assert winning_moves([3, 5, 7]) == [Move(0, 1, 2), Move(1, 1, 4), Move(2, 1, 6)]
    # 10 11 4: the only move is to take 3 from the last pile, leaving 10 11 1
    assert winning_moves([10, 11, 4]) == [Move(2, 3, 1)]
    assert is_losing([10, 11, 1]) and is_losing([2, 5, 7])
    # lecture: xorsum(1,2,3) = 0, xorsum(3,5,3) = 5
    assert nim_sum([1, 2, 3]) == 0 and nim_sum([3, 5, 3]) == 5


def brute(piles, misere, memo={}):
    key = (tuple(piles), misere)
    if key not in memo:
        if not any(piles):
            memo[key] = misere  # won for the mover in misère play
        else:
            memo[key] = any(not brute(piles[:i] + (n,) + piles[i + 1:], misere)
                            for i, p in enumerate(piles) for n in range(p))
    return memo[key]


@pytest.mark.parametrize("misere", [False, True])
def test_formula_against_brute_force(misere):
    for pos in itertools.product(range(5), repeat=3):
        assert is_losing(pos, misere) == (not brute(pos, misere))
        for m in winning_moves(pos, misere):
            child = list(pos)
            child[m.pile] -= m.take
            assert child[m.pile] == m.new_size and is_losing(child, misere)
        # every winning move is listed
        count = sum(1 for i, p in enumerate(pos) for n in range(p)
                    if is_losing(pos[:i] + (n,) + pos[i + 1:], misere))
        assert count == len(winning_moves(pos, misere))


@pytest.mark.parametrize("start", [(7, 7, 7, 7), (3, 5, 7), (1, 2, 3, 4), (6,), (0, 4)])
@pytest.mark.parametrize("misere", [False, True])
def test_dp_solvers_agree_with_formula(start, misere):
    memo, bottom = solve_memo(start, misere), solve_bottom_up(start, misere)
    for pos in itertools.product(*[range(p + 1) for p in start]):
        losing = is_losing(pos, misere)
        assert memo.is_losing(pos) == losing == bottom.is_losing(pos), pos
        for move in (memo.winning_move(pos), bottom.winning_move(pos)):
            if losing or (misere and not any(pos)):
                assert move is None
            else:
                assert move in winning_moves(pos, misere)


def test_deep_memo_does_not_hit_recursion_limit():
    sol = solve_memo([3000])
    assert not sol.is_losing([3000]) and sol.winning_move([3000]) == Move(0, 3000, 0)


def test_bad_input():
    with pytest.raises(ValueError):
        nim_sum([3, -1])
    with pytest.raises(TypeError):
        is_losing([1.5])
    with pytest.raises(TypeError):
        winning_moves("357")
    with pytest.raises(ValueError):
        solve_bottom_up([10**4, 10**4, 10**4])
    sol = solve_bottom_up([3, 5])
    with pytest.raises(ValueError):
        sol.is_losing([4, 1])
    with pytest.raises(ValueError):
        sol.is_losing([1, 1, 1])


def test_bottom_up_numbering_is_public():
    import itertools
    sol = solve_bottom_up([2, 3, 1])
    positions = [list(p) for p in itertools.product(range(3), range(4), range(2))]
    numbers = sorted(sol.index(p) for p in positions)
    assert numbers == list(range(24))
    for p in positions:
        assert sol.position(sol.index(p)) == p
        for i in range(3):  # every move leads to a lower number
            for new in range(p[i]):
                assert sol.index(p[:i] + [new] + p[i + 1:]) < sol.index(p)
