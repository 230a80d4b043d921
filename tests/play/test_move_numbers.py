"""Numbers in typed moves follow the number rule (issue 38, item 2): a leading ``+`` is read
as everywhere else, and a number past any heap or coin is refused in the notation's words
(``take 1 from heap <5000 digits>`` gave Python's "Exceeds the limit (4300 digits)")."""

import re

import pytest

from nimbers.play import setup_game


@pytest.mark.parametrize("typed", ["take +1 from heap 0", "+0:+1", "take 1 from heap +0",
                                   "0:+1 -> +4", "+0 +1"])
def test_a_plus_sign_is_read_in_moves_as_everywhere(typed):
    game, heaps = setup_game("nim", ["5", "2"])
    assert game.parse(typed, heaps) == [4, 2]


HUGE = "9" * 5000


@pytest.mark.parametrize("typed, reason", [
    (f"take 1 from heap {HUGE}", "pile: at most 2^63 - 1, got 9999999999"),
    (f"take {HUGE} from heap 0", "tokens taken: at most 2^63 - 1, got 99999"),
    (f"0:1 -> {HUGE}", "the sizes left: at most 2^63 - 1, got 999"),
    ("take -3 from heap 0", "tokens taken: must be non-negative, got -3")],
    ids=["heap", "taken", "left", "negative"])
def test_a_number_past_any_heap_is_refused_in_the_notations_words(typed, reason):
    game, heaps = setup_game("nim", ["5", "2"])
    with pytest.raises(ValueError, match=re.escape(reason)) as refusal:
        game.parse(typed, heaps)
    assert "4300" not in str(refusal.value) and "\n" not in str(refusal.value)


def test_a_coin_past_any_row_is_refused_in_the_notations_words():
    game, heads = setup_game("ruler", ["HTHHT"])
    with pytest.raises(ValueError, match=re.escape("at most 2^63 - 1, got 9999")) as refusal:
        game.parse(f"turn {HUGE}", heads)
    assert "4300" not in str(refusal.value)
    assert game.parse("turn +3", heads) == game.parse("turn 3", heads)
