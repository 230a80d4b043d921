"""One reader of heap games by name or code (issue 48): ``nimbers.games.heap_game``, the
catalogue's, which the command line, the web and play use; ``heap_game_from_code``, a second
one, is now a deprecated alias of it."""

from __future__ import annotations

import pytest

from nimbers.games import heap_game
from nimbers.games.codes import GRUNDY_NAMES, HEAP_GAMES


@pytest.mark.parametrize("name", list(HEAP_GAMES) + sorted(GRUNDY_NAMES) + ["0.77", "4.07", "0.3F"])
def test_the_old_name_warns_and_gives_the_same_game(name):
    from nimbers.games import heap_game_from_code
    with pytest.warns(DeprecationWarning, match="use nimbers.games.heap_game"):
        old = heap_game_from_code(name)
    new = heap_game(name)
    assert (old.name, old.code, old.rules) == (new.name, new.code, new.rules)


def test_the_one_reader_takes_what_the_old_one_did_and_subtraction_sets():
    assert heap_game("dawson's kayles").code == "0.07" and heap_game("grundy").code == "grundy"
    assert heap_game("S(1,3,4)").nim_values(8).tolist() == [0, 1, 0, 1, 2, 3, 2, 0]
