"""Misère outcomes past the search's bound, answered from a misère quotient (issue 38, item
4): ``octal_game("0.07").is_losing([13, 12, 11, 10], misere=True)`` was refused ("would
search every position below it"); now a quotient for heaps up to 13 answers it.  The
quotient's answers are checked against brute force from the definition
(``tests/brute_games.py``) on smaller sums, with the search's bound lowered so that they
too go by a computed quotient."""

from __future__ import annotations

import itertools

import pytest

from brute_games import misere_heap_outcomes
from nimbers._limits import time_limit
from nimbers.games.codes import parse_take_break_code
from nimbers.games.heap import misere_play, octal_game

CODES = ["0.07", "0.77", "0.137", "0.6", "4.7", "0.75"]


def sums(top: int, most_tokens: int, least_tokens: int):
    """Positions of two to four heaps from 1 to top, with least..most tokens."""
    for k in (2, 3, 4):
        for heaps in itertools.combinations_with_replacement(range(1, top + 1), k):
            if least_tokens <= sum(heaps) <= most_tokens:
                yield list(heaps)


@pytest.mark.parametrize("code", CODES)
def test_quotient_answers_agree_with_brute_force(code, monkeypatch):
    monkeypatch.setattr(misere_play, "MISERE_SEARCH_TOKENS", 6)  # every sum below by a quotient
    game = octal_game(code)
    losing = misere_heap_outcomes(parse_take_break_code(code).digits)
    checked = 0
    for heaps in sums(9, 18, 7):
        assert game.is_losing(heaps, misere=True) == losing(tuple(heaps)), heaps
        move = game.winning_move(heaps, misere=True)
        assert (move is None) == losing(tuple(heaps))
        if move is not None:
            i, _, left = move
            assert losing(tuple(heaps[:i] + heaps[i + 1:] + list(left))), (heaps, move)
        checked += 1
    assert checked > 200 and game._quotient.max_heap >= 9


def test_the_large_sum_of_the_issue_is_answered_by_a_kept_quotient():
    dawson, position = octal_game("0.07"), [13, 12, 11, 10]
    verdict = dawson.is_losing(position, misere=True)
    assert dawson._quotient.max_heap >= 13
    move = dawson.winning_move(position, misere=True)
    options = [sorted(o) for o in dawson.moves(position)]
    if verdict:  # every move leads to a position the mover wins
        assert move is None and not any(dawson.is_losing(o, misere=True) for o in options)
    else:
        i, _, left = move
        assert dawson.is_losing(position[:i] + position[i + 1:] + list(left), misere=True)


def test_a_quotient_that_cannot_be_computed_is_refused_saying_why():
    dawson = octal_game("0.07")
    with time_limit(0.5), pytest.raises(ValueError, match=r"on 150 tokens would search every "
                                        r".* a misère quotient for heaps up to 60 could not "
                                        r"answer instead: it gave up at heap \d+"):
        dawson.is_losing([60, 50, 40], misere=True)
    # Dawson's Kayles' quotient does not close within the short search (it still grows):
    # heaps past the search's reach are refused, saying why
    with time_limit(3), pytest.raises(ValueError, match="could not answer instead: it would "
                                      "take about .* nor is Q_n the whole game's quotient"):
        octal_game("0.07").is_losing([5000, 4000], misere=True)
    with time_limit(3), pytest.raises(ValueError, match="takes heaps up to 100,000"):
        octal_game("0.07").winning_move([300000, 2], misere=True)


def test_kayles_is_answered_for_any_heaps_once_its_quotient_closes():
    """Misère Kayles' quotient closes (order 40, the pretending function of period 12 from
    heap 71, Kayles' normal-play period and pre-period): heaps past any search answer."""
    kayles = octal_game("0.77")
    q = kayles.misere_quotient(200)
    assert (q.order, q.whole.proved, q.whole.period, q.whole.preperiod) == (40, True, 12, 71)
    assert kayles.is_losing([5000, 5000], misere=True)
    assert kayles.is_losing([5000, 4000], misere=True) == kayles.is_losing(
        [5000 - 12 * 400, 4000 - 12 * 300], misere=True)


def test_the_command_line_gives_the_outcome_and_a_move_past_the_search(capsys):
    """``heap --heaps --misere`` past 40 tokens: the outcome and a winning move from the
    quotient, the misère value null (a quotient gives outcomes, not values)."""
    import json

    from nimbers.cli import main

    assert main(["heap", "0.07", "--heaps", "13,12,11,9", "--misere", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["value"] is None and data["losing"] is False
    i, _, left = data["winning_move"]
    after = [h for j, h in enumerate([13, 12, 11, 9]) if j != i] + left
    assert octal_game("0.07").is_losing(after, misere=True)
