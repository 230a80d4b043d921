"""Game objects shared between threads and sent to process pools (issue 19, section 5).

Eight threads ask one FRESH object for values and winning moves: the answers equal those of
a second object asked sequentially, and each value is computed once (the computations are
counted by wrapping the moves function, the engine's step, or the C entry point).
"""

from __future__ import annotations

import multiprocessing
import operator
import pickle
import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable

from nimbers import _core
from nimbers.games import named_game, octal_game
from nimbers.games.engine import ImpartialGame
from nimbers.games.tartan import acrostic_twins, tartan
from nimbers.games.turning import TurningGame

THREADS = 8
#: a code with no closed form and a term listed move set by move set (runs in Python)
LISTED = "1-3,5C(9)"


def _hammer(questions: list[Callable[[], Any]]) -> list[Any]:
    """Every question asked from 8 threads at once (each thread takes every 8th, started
    together at a barrier); the answers in the order of the questions."""
    barrier = threading.Barrier(THREADS)

    def worker(k: int) -> list[tuple[int, Any]]:
        barrier.wait()
        return [(i, questions[i]()) for i in range(k, len(questions), THREADS)]

    with ThreadPoolExecutor(THREADS) as pool:
        parts = list(pool.map(worker, range(THREADS)))
    answers: dict[int, Any] = {}
    for part in parts:
        answers.update(part)
    return [answers[i] for i in range(len(questions))]


def _count_steps(game: TurningGame) -> Counter[int]:
    """Counts the engine's steps on this object: the option values of coin x asked while the
    table holds x values, i.e. while coin x is being added to it (move_values asks too, with
    the table past x: those are answers, not table entries)."""
    seen: Counter[int] = Counter()
    step = game._option_values

    def counted(g: list[int], x: int) -> set[int]:
        if len(g) == x:
            seen[x] += 1
        return step(g, x)

    game._option_values = counted  # type: ignore[method-assign]  # instrumented for the test
    return seen


def _positions(top: int) -> list[list[int]]:
    return [[x] for x in range(top)] + [[x // 3, x // 2 + 1, x] for x in range(3, top)]


def test_turning_game_from_eight_threads():
    shared, alone = TurningGame(LISTED), TurningGame(LISTED)
    seen = _count_steps(shared)
    positions = _positions(120)
    questions: list[Callable[[], Any]] = []
    for p in reversed(positions):   # the far coins first: threads race to extend the table
        questions += [lambda p=p: shared.nim_value(p), lambda p=p: shared.winning_move(p)]
    expected = [f(p) for p in reversed(positions)
                for f in (alone.nim_value, alone.winning_move)]
    assert _hammer(questions) == expected
    assert seen and max(seen.values()) == 1 and sorted(seen) == list(range(len(seen)))


def test_tartan_product_from_eight_threads():
    shared = tartan(TurningGame(LISTED), TurningGame("1-2"))
    alone = tartan(TurningGame(LISTED), TurningGame("1-2"))
    seen = _count_steps(shared.factors[0])
    heads = [[(a, b)] for a in range(0, 60, 7) for b in range(1, 30, 5)]
    heads += [[(a, b), (b, a + 1)] for a in range(1, 40, 9) for b in range(2, 20, 6)]
    questions: list[Callable[[], Any]] = []
    for h in heads:
        questions += [lambda h=h: shared.nim_value(h), lambda h=h: shared.winning_move(h)]
    expected = [f(h) for h in heads for f in (alone.nim_value, alone.winning_move)]
    assert _hammer(questions) == expected
    assert max(seen.values()) == 1


def test_misere_memo_from_eight_threads():
    shared, alone = acrostic_twins(), acrostic_twins()
    positions = [[(a, b)] for a in range(3) for b in range(3)] + [[(0, 1), (1, 2)], [(2, 2)]]
    questions = [lambda p=p: shared.misere_nim_value(p) for p in positions]
    assert _hammer(questions) == [alone.misere_nim_value(p) for p in positions]


def test_heap_game_from_eight_threads(monkeypatch):
    shared, alone = octal_game("0.137"), octal_game("0.137")   # Dawson's Kayles
    covered: list[tuple[int, int]] = []
    extend = _core.heap_extend

    def counted(rules: Any, g: Any, start: int, stop: int, *rest: Any) -> Any:
        result = extend(rules, g, start, stop, *rest)
        covered.append((start, result[0]))
        return result

    monkeypatch.setattr(_core, "heap_extend", counted)
    heaps = [[n] for n in range(2000, 0, -37)] + [[n, n // 2, 7] for n in range(50, 3000, 61)]
    questions: list[Callable[[], Any]] = []
    for h in heaps:
        questions += [lambda h=h: shared.nim_value(h), lambda h=h: shared.winning_move(h)]
    mine = _hammer(questions)
    monkeypatch.setattr(_core, "heap_extend", extend)
    assert mine == [f(h) for h in heaps for f in (alone.nim_value, alone.winning_move)]
    # each heap size was computed by exactly one call of the engine
    covered.sort()
    assert all(a[1] <= b[0] for a, b in zip(covered, covered[1:]))


def _subtract_1_3_4(n: int) -> list[int]:
    return [n - k for k in (1, 3, 4) if n >= k]


def test_impartial_game_memo_from_eight_threads():
    calls: Counter[int] = Counter()
    lock = threading.Lock()

    def moves(n: int) -> list[int]:
        with lock:
            calls[n] += 1
        return _subtract_1_3_4(n)

    shared = ImpartialGame(moves, "{1, 3, 4}")
    alone = ImpartialGame(_subtract_1_3_4, "{1, 3, 4}")
    positions = list(range(400, 0, -3))
    questions = [lambda n=n: shared.nim_value(n) for n in positions]
    assert _hammer(questions) == [alone.nim_value(n) for n in positions]
    assert max(calls.values()) == 1


def test_games_pickle_and_keep_their_answers():
    games: list[Any] = [named_game("mogul"), named_game("ruler"), octal_game("0.77"),
                        tartan("1-2", "1+C"), acrostic_twins(),
                        ImpartialGame(_subtract_1_3_4, "{1, 3, 4}")]
    for game in games:
        before = game.nim_value(game_position(game))
        again = pickle.loads(pickle.dumps(game))
        assert again.nim_value(game_position(game)) == before


def game_position(game: Any) -> Any:
    if isinstance(game, ImpartialGame):
        return 37
    if hasattr(game, "factors") or type(game).__name__ == "AcrosticTwins":
        return [(3, 5), (6, 2)]
    return [3, 9, 14]


def test_spawned_pool_maps_over_games():
    games = [named_game("mogul"), named_game("moebius"), named_game("progression"),
             octal_game("0.77"), octal_game("0.137")]
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        values = pool.map(operator.methodcaller("nim_values", 40), games)
        boards = pool.map(operator.methodcaller("nim_values", 6, 6),
                          [tartan("1-2", "1+C"), tartan("1-3", "2")])
    assert [v.tolist() for v in values] == [g.nim_values(40).tolist() for g in games]
    assert [b.tolist() for b in boards] == [tartan("1-2", "1+C").nim_values(6, 6).tolist(),
                                            tartan("1-3", "2").nim_values(6, 6).tolist()]
