"""Known structure of the turning families, checked against the engine on small cases.

Grunt ("4FS") is Grundy's game in coin form (Winning Ways, ch. 14): its values come from the
C heap engine.  The first T coins of "at most T coins" are Motley's (G(x) = 2^x).
"""

from __future__ import annotations

import itertools
import random

from nimbers.games.heap import grundy_game
from nimbers.games.turning import TurningGame, named_game


def _engine_only(code: str) -> TurningGame:
    game = TurningGame(code)
    game.closed_form = None
    return game


def _mex(values: set[int]) -> int:
    m = 0
    while m in values:
        m += 1
    return m


def test_grunt_is_grundys_game():
    grunt = named_game("grunt")
    assert grunt.closed_form is not None
    engine = _engine_only("4FS").engine_values(160).tolist()
    assert grunt.nim_values(160).tolist() == engine
    # Grundy's game from its definition: split a heap into two unequal non-empty heaps
    g: list[int] = []
    for n in range(160):
        g.append(_mex({g[a] ^ g[n - a] for a in range(1, (n + 1) // 2)}))
    assert engine == g == grundy_game().nim_values(160).tolist()


def test_grunt_winning_moves_are_legal():
    grunt, engine = named_game("grunt"), _engine_only("4FS")
    rng = random.Random(19)
    for _ in range(200):
        heads = sorted(rng.sample(range(1, 90), rng.randint(1, 4)))
        move = grunt.winning_move(heads)
        assert (move is None) == (engine.winning_move(heads) is None)
        if move is not None:
            zero, a, b, x = move
            assert zero == 0 and 0 < a < b < x and a + b == x and x in heads
            assert engine.nim_value(sorted(set(heads) ^ set(move))) == 0


def test_at_most_t_begins_like_motley():
    for t in range(1, 7):
        # brute force: the nim-sums of at most t - 1 distinct earlier values (the head alone: 0)
        g: list[int] = []
        for x in range(t + 6):
            sums = {0}
            for k in range(1, t):
                sums |= {_xor(c) for c in itertools.combinations(g, k)}
            g.append(_mex(sums))
        assert TurningGame(f"1-{t}").nim_values(t + 6).tolist() == g
        assert g[:t] == [1 << x for x in range(t)]


def _xor(values: tuple[int, ...]) -> int:
    out = 0
    for v in values:
        out ^= v
    return out
