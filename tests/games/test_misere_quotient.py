"""Misère quotients (nimbers.games.quotient) against an independent brute force.

The oracle here shares no code with the library: octal moves read from the code's digits,
outcomes of sums by the misère definition (a position is P when it has a move and every
option is N), and classes by their outcomes against every test position up to a size.
"""

from __future__ import annotations

import json
import pathlib
import re
from functools import lru_cache
from itertools import combinations_with_replacement

import pytest

from brute_games import octal_options

from nimbers.games import Nim, MisereQuotient, misere_quotient, octal_game

DATA = json.loads((pathlib.Path(__file__).resolve().parents[1] / "data" / "misere_quotients.json")
                  .read_text(encoding="utf-8"))


# ---- the oracle ---------------------------------------------------------------------------

def nim_options(heap: int) -> list[tuple[int, ...]]:
    return [(j,) if j else () for j in range(heap)]


def make_outcome(options):
    @lru_cache(maxsize=None)
    def losing(position: tuple[int, ...]) -> bool:
        moves = [tuple(sorted(position[:i] + position[i + 1:] + left))
                 for i, h in enumerate(position) for left in options(h)]
        return bool(moves) and not any(losing(m) for m in moves)
    return losing


def positions(max_heap: int, max_count: int) -> list[tuple[int, ...]]:
    return [c for k in range(max_count + 1)
            for c in combinations_with_replacement(range(1, max_heap + 1), k)]


def oracle_classes(options, max_heap: int, count: int, tests: int):
    """Positions of up to count heaps <= max_heap, grouped by their outcomes against every
    position of up to tests heaps."""
    losing = make_outcome(options)
    zs = positions(max_heap, tests)
    sig = {x: tuple(losing(tuple(sorted(x + z))) for z in zs)
           for x in positions(max_heap, count)}
    return losing, sig


def check_against_oracle(q: MisereQuotient, options, count: int = 3, tests: int = 3) -> None:
    losing, sig = oracle_classes(options, q.max_heap, count, tests)
    by_element: dict[int, tuple[bool, ...]] = {}
    by_signature: dict[tuple[bool, ...], int] = {}
    rep: dict[int, tuple[int, ...]] = {}
    for x, s in sig.items():
        assert q.is_losing(list(x)) == losing(x), x
        e = q.element(list(x))
        rep.setdefault(e, x)
        assert by_element.setdefault(e, s) == s, f"{x}: one element, two behaviours"
        other = by_signature.setdefault(s, e)
        if other != e:      # the tests did not tell them apart: a larger test must
            y = rep[other]
            assert any(losing(tuple(sorted(x + z))) != losing(tuple(sorted(y + z)))
                       for z in positions(q.max_heap, tests + 2)), f"{x}, {y}: alike"


CODES = [f"0.{a}{b}" for a in range(8) for b in range(8) if (a, b) != (0, 0)]


# ---- known quotients ----------------------------------------------------------------------

def test_misere_nim_orders():
    assert [misere_quotient(Nim(), n).order for n in range(1, 9)] == DATA["nim_orders"]


@pytest.mark.parametrize("entry", DATA["quotients"], ids=lambda e: e["game"])
def test_published_quotients(entry):
    game = Nim() if entry["game"] == "nim" else octal_game(entry["game"])
    q = misere_quotient(game, entry["max_heap"])
    assert q.proved and q.order == entry["order"]
    assert q.presentation() == entry["presentation"]
    assert q.p_words() == entry["p_portion"]


def test_075_order_8_from_heap_5():
    q = misere_quotient(octal_game("0.75"), 12)
    assert q.orders[4:] == (8,) * 8 and q.orders[3] != 8


@pytest.mark.parametrize("n", [3, 5, 6])
def test_nim_against_oracle(n):
    check_against_oracle(misere_quotient(Nim(), n), nim_options, 3, 2)


@pytest.mark.parametrize("code", CODES)
def test_two_digit_octals_against_oracle(code):
    q = misere_quotient(octal_game(code), 7, time_limit=5)
    check_against_oracle(q, lambda h: octal_options(code, h), 3, 2)


@pytest.mark.parametrize("code", ["0.137", "0.351", "0.456", "0.607", "0.777", "0.164"])
def test_three_digit_octals_against_oracle(code):
    """A sample of the misère census's three-digit classes, against the brute force."""
    q = misere_quotient(octal_game(code), 7, time_limit=10)
    assert q.proved
    check_against_oracle(q, lambda h: octal_options(code, h), 3, 2)


def test_dawsons_kayles_against_oracle():
    q = misere_quotient(octal_game("0.07"), 11)
    assert q.proved and q.orders[9:] == (12, 12)      # the first split, at heap 10
    check_against_oracle(q, lambda h: octal_options("0.07", h), 3, 2)


def test_dawsons_kayles_q30_is_siegels_360():
    q = misere_quotient(octal_game("0.07"), 30)
    assert q.proved and q.order == DATA["dawson_q30_order"]
    losing = make_outcome(lambda h: octal_options("0.07", h))
    for x in [(30,), (30, 1), (28, 2), (25, 4, 1), (20, 9, 1), (14, 12, 3)]:
        assert q.is_losing(list(x)) == losing(x), x


@pytest.mark.parametrize("entry", DATA["infinite_quotients"], ids=lambda e: e["game"])
def test_published_infinite_quotients(entry):
    """A quotient published as infinite (the entry names its source): the search proves
    every Q_n below the heap bound, stops at it, and exact outcomes there certify more
    classes than the last proved quotient has, which is right on small sums (brute force).
    This agrees with the paper; it does not prove the quotient infinite."""
    n = entry["max_heap"]
    q = misere_quotient(octal_game(entry["game"]), n, max_order=512)
    assert not q.proved and q.max_heap == n - 1
    why = q.gave_up or ""
    assert why.startswith(f"heap {n}:"), why
    certified = re.search(rf"\|Q_{n}\| >= (\d+)", why)
    assert certified is not None and int(certified.group(1)) > q.order, why
    check_against_oracle(q, lambda h: octal_options(entry["game"], h), 3, 2)


@pytest.mark.parametrize("code", sorted(DATA["computed_q12"]["orders"]))
def test_large_two_digit_quotients(code):
    """The codes whose Q_12 the heap-by-heap search used to give up on: proved, with the
    order found before, and right on every sum of up to three heaps (brute force)."""
    q = misere_quotient(octal_game(code), 12)
    assert q.proved and q.order == DATA["computed_q12"]["orders"][code]
    losing = make_outcome(lambda h: octal_options(code, h))
    for x in positions(12, 3):
        assert q.is_losing(list(x)) == losing(x), x


#: the two-digit codes whose search used to stop with "recalibration" before heap 30 (one of
#: each behaviour), and a heap bound they are proved to, small enough for the brute force
STUCK_CODES = {"0.6": 9, "0.06": 9, "0.14": 9, "0.16": 9, "0.36": 9, "0.37": 9,
               "0.45": 9, "0.64": 9, "0.74": 9, "0.76": 9, "4.76": 5}


@pytest.mark.parametrize("code", sorted(STUCK_CODES))
def test_previously_stuck_codes_against_oracle(code):
    q = misere_quotient(octal_game(code), STUCK_CODES[code])
    assert q.proved
    check_against_oracle(q, lambda h: octal_options(code, h), 3, 2)


def test_4_76_split_moves_in_the_oracle():
    """The oracle reads the 4 before the point: heap 4 of 4.76 splits to 1+3 and 2+2 as
    well as taking one or two."""
    assert sorted(octal_options("4.76", 4)) == [(1, 1), (1, 2), (1, 3), (2,), (2, 2), (3,)]


def test_order_past_the_cap_is_proved_and_stated():
    """0.64 at heap 14: the candidates pass through 1972 elements to a proved Q_14 of 2248;
    with the cap 2048 the search stops there and says so, with the order."""
    q = misere_quotient(octal_game("0.64"), 14)
    assert q.max_heap == 13 and q.gave_up is not None
    assert "|Q_14| = 2248 exceeds max_order=2048 (proved)" in q.gave_up
    big = misere_quotient(octal_game("0.64"), 14, max_order=4096)
    assert big.proved and big.order == 2248
    check_against_oracle(big, lambda h: octal_options("0.64", h), 2, 2)


def test_certified_lower_bound_never_exceeds_the_quotient(monkeypatch):
    """Every wrong candidate met on the way to a proved Q_n certifies at most |Q_n| classes
    (and at most |Q_n| distinct powers of a heap)."""
    from nimbers.games.quotient import build
    from nimbers.games.quotient.verify import certified_lower_bound, certified_powers

    met = []
    recalibrate = build._Search.recalibrate

    def spy(self, cand, bad):
        met.append((self.gens, cand, bad))
        return recalibrate(self, cand, bad)

    monkeypatch.setattr(build._Search, "recalibrate", spy)
    for code, n in [("0.07", 14), ("0.64", 13), ("0.16", 13)]:
        met.clear()
        q = misere_quotient(octal_game(code), n)
        assert q.proved and met
        for gens, cand, bad in met:
            order = q.orders[gens[0] - 1]
            assert certified_lower_bound(cand.mul, cand.p, cand.phi, gens, bad) <= order
            assert certified_powers(cand.mul, cand.p, cand.phi, gens, bad)[2] <= order


def test_endless_powers_are_reported_as_a_sign_only():
    """4.76 at heap 6: the wrong positions need ever more heaps of 5; the stop says how many
    of its powers exact outcomes tell apart, and claims no more than that."""
    q = misere_quotient(octal_game("4.76"), 6)
    assert q.max_heap == 5 and q.orders == (2, 6, 10, 12, 30)
    assert "heaps of 5 are pairwise told apart (a sign, not a proof" in (q.gave_up or "")
    assert "|Q_6| >= " in (q.gave_up or "")


# ---- answers ------------------------------------------------------------------------------

def test_winning_moves_against_brute_force():
    game = octal_game("0.07")
    q = misere_quotient(game, 11)
    losing = make_outcome(lambda h: octal_options("0.07", h))
    for x in positions(11, 3):
        move = q.winning_move(list(x), game.heap_moves)
        if losing(x) or all(not octal_options("0.07", h) for h in x):
            assert move is None, x      # every move loses, or there is no move (a win)
            continue
        assert move is not None, x
        i, _, left = move
        after = tuple(sorted(x[:i] + x[i + 1:] + left))
        assert losing(after), (x, move)


def test_heap_past_n_is_refused():
    q = misere_quotient(Nim(), 3)
    with pytest.raises(ValueError, match="larger than"):
        q.is_losing([4])


def test_gave_up_says_where():
    q = misere_quotient(octal_game("0.77"), 12, max_order=6)
    assert not q.proved and "max_order" in (q.gave_up or "")
    assert q.max_heap < 12 and len(q.orders) == q.max_heap


@pytest.mark.parametrize("bad", ["table", "generator", "option", "starts", "cycle"])
def test_core_loops_refuse_out_of_range_input(bad):
    import numpy as np

    from nimbers import _core
    mul = np.array([[0, 1], [1, 0]], dtype=np.int32)
    cycles = np.zeros((0, 2), dtype=np.int32)
    gen, start, opt = (np.array([1], dtype=np.int32), np.array([0, 1], dtype=np.int64),
                       np.array([0], dtype=np.int32))
    if bad == "table":
        mul[1, 1] = 5
    elif bad == "generator":
        gen[0] = 2
    elif bad == "option":
        opt[0] = -1
    elif bad == "starts":
        start[1] = 7
    else:
        cycles = np.array([[1, 0]], dtype=np.int32)
    with pytest.raises(ValueError):
        _core.quotient_mark_p(mul, cycles, gen, start, opt)
    if bad != "cycle":
        with pytest.raises(ValueError):
            _core.quotient_n_failure(mul, np.zeros(2, dtype=np.uint8), gen, start, opt, 100)
    if bad in ("table", "generator"):
        delta = mul if bad == "table" else gen[None, :].repeat(2, axis=1)
        with pytest.raises(ValueError):
            _core.quotient_refine(delta, np.zeros(2, dtype=np.uint8))


# ---- saving -------------------------------------------------------------------------------

def test_save_load_round_trip(tmp_path):
    q = misere_quotient(octal_game("0.75"), 8)
    path = tmp_path / "q.json"
    q.save(path)
    back = MisereQuotient.load(path)
    assert back == q and back.presentation() == q.presentation()


@pytest.mark.parametrize("change", [
    lambda d: d.update(table=[[0, 1], [1, 5]]),
    lambda d: d.update(table=[[0, 1, 2], [1, 2, 0], [2, 1, 1]]),
    lambda d: d.update(pretending=[1] + d["pretending"][1:]),
    lambda d: d.update(p_portion=[99]),
    lambda d: d.update(max_heap=-1),
    lambda d: d.update(format="something else"),
    lambda d: d.update(extra=1),
    lambda d: d.update(table="[]"),
    lambda d: d.update(orders=[True] * len(d["orders"])),
])
def test_hostile_json_refused(tmp_path, change):
    data = misere_quotient(octal_game("0.75"), 8).to_json()
    change(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ValueError):
        MisereQuotient.load(path)


def test_garbage_file_refused(tmp_path):
    path = tmp_path / "bad.json"
    path.write_bytes(b"\xff\x00[[[")
    with pytest.raises(ValueError):
        MisereQuotient.load(path)


# ---- the heap games and the command line --------------------------------------------------

def test_heap_game_answers_from_its_quotient():
    game = octal_game("0.07")
    losing = make_outcome(lambda h: octal_options("0.07", h))
    game.misere_quotient(12)
    for x in positions(12, 3):
        assert game.is_losing(list(x), misere=True) == losing(x), x
    for x in [(5, 9), (2, 3), (4, 4, 6)]:
        assert (game.misere_nim_value(list(x)) == 0) == losing(x)
    # past heap 12 and past the search's 40 tokens: a quotient to heap 23 is computed and
    # kept (issue 38, item 4; the bounded search refused before)
    move = game.winning_move([20, 21, 22, 23], misere=True)
    assert game._quotient.max_heap >= 23
    assert (move is None) == game.is_losing([20, 21, 22, 23], misere=True)


def test_use_quotient_proves_first():
    q = misere_quotient(octal_game("0.07"), 10)
    with pytest.raises(ValueError, match="does not say"):
        octal_game("0.77").use_quotient(q)
    game = octal_game("0.07")
    game.use_quotient(q)
    assert game.is_losing([2, 3], misere=True) == q.is_losing([2, 3])


def test_cli_quotient(capsys):
    from nimbers.cli import main
    assert main(["heap", "0.75", "--quotient", "8"]) == 0
    out = capsys.readouterr().out
    assert "order 8" in out and "⟨a, b, c | a² = 1, b³ = b, bc = ab, c² = b²⟩" in out
    assert main(["heap", "0.75", "--quotient", "8", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["readable"]["order"] == 8 and data["readable"]["p_words"] == ["a", "b²"]
    with pytest.raises(SystemExit) as stop:  # refused while the arguments are read
        main(["heap", "0.75", "--quotient", "-1"])
    assert stop.value.code == 2 and "must be non-negative" in capsys.readouterr().err


def test_tampered_but_well_formed_quotient_is_not_used(tmp_path):
    data = misere_quotient(octal_game("0.75"), 8).to_json()
    data["p_portion"] = [0]             # a monoid still, but the wrong P-portion
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    q = MisereQuotient.load(path)
    with pytest.raises(ValueError, match="does not say"):
        octal_game("0.75").use_quotient(q)
