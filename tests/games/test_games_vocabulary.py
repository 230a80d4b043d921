"""The one vocabulary: every ruleset answers it, the old names warn, known structure answers
any index."""

import warnings

import pytest

from nimbers import nim_mul
from nimbers.games import (ComponentRuleset, ImpartialGame, Nim, Ruleset, acrostic_twins,
                           mock_turtle_theorem, named_game, octal_game, rugs, tartan_theorem,
                           turning_corners)

RULESETS = [Nim(), octal_game("0.77"), named_game("ruler"), named_game("moebius"),
            turning_corners(), acrostic_twins(), ImpartialGame(lambda n: range(n), "nim heap")]


@pytest.mark.parametrize("game", RULESETS, ids=lambda g: g.name)
def test_every_ruleset_speaks_the_vocabulary(game):
    assert isinstance(game, Ruleset)


@pytest.mark.parametrize("game", RULESETS[:4], ids=lambda g: g.name)
def test_component_rulesets(game):
    assert isinstance(game, ComponentRuleset)
    values = game.nim_values(6).tolist()
    assert [game.nim_value(x) for x in range(6)] == values


@pytest.mark.parametrize("call", [
    lambda: octal_game("0.77").grundy_values(5),
    lambda: octal_game("0.77").grundy(5),
    lambda: octal_game("0.77").value([1, 2]),
    lambda: list(octal_game("0.77").moves(3)),
    lambda: named_game("ruler").values(5),
    lambda: named_game("ruler").value(5),
    lambda: named_game("ruler").position_value([1, 2]),
    lambda: turning_corners().value(2, 3),
    lambda: turning_corners().values(2, 3),
    lambda: turning_corners().position_value([(2, 3)]),
    lambda: acrostic_twins().value(2, 3),
])
def test_old_names_warn_and_still_answer(call):
    with pytest.warns(DeprecationWarning):
        call()


def test_old_and_new_names_agree():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        assert octal_game("0.77").grundy_values(20).tolist() == octal_game("0.77").nim_values(20).tolist()
        assert turning_corners().value(5, 11) == turning_corners().nim_value((5, 11))


def lowest_bit(n):
    return n & -n


def test_closed_forms_at_huge_coins():
    for x in (10**6, 10**9, 2**40 - 1, 10**30):
        assert named_game("ruler").nim_value(x) == lowest_bit(x + 1)
        assert named_game("twins").nim_value(x) == x
        assert named_game("turning-turtles").nim_value(x) == x + 1
    assert named_game("motley").nim_value(200) == 2**200
    assert named_game("mocking-turtles").nim_value(10**9) == 2 * 10**9 + (bin(10**9).count("1") % 2 == 0)


def test_tartan_at_huge_coordinates():
    a, b = 10**9, 3 * 10**8 + 7
    assert turning_corners().nim_value((a, b)) == nim_mul(a, b)
    assert rugs().nim_value((a, b)) == nim_mul(lowest_bit(a + 1), lowest_bit(b + 1))


def test_table_limits_are_clear():
    with pytest.raises(ValueError, match="GiB, over the memory cap"):
        named_game("moebius").nim_value(10**9)


def test_theorems_give_evidence():
    for m in (1, 2, 3):
        ev = mock_turtle_theorem(m, 40)
        assert ev.holds and ev.counterexample is None
    ev = tartan_theorem("mocking-turtles", "ruler", 6, 6)
    assert ev.holds and ev.checked == "6 x 6 board"
    with pytest.raises(ValueError):
        mock_turtle_theorem(0, 10)
