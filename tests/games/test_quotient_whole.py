"""The quotient of the whole game (nimbers.games.quotient.whole): the periodicity theorem of
Plambeck and Siegel applied after each heap, against the literature, an independent brute
force past the heap where it closed, and planted mistakes.

Sources: T. Plambeck and A. Siegel, "Misère quotients for impartial games", JCTA 115 (2008)
(0.75 and 0.31, 0.312: finite quotients; impartial quotients have even order; if |P| = 2 and
Q is finite, |Q| = 2^n + 2 or 2^n + 4); A. Siegel, "Misère games and misère quotients",
Games of No Chance 5 (2017) (the one quotient of order 8, that of 0.75; the periodicity
theorem); the quotient of 0.3122 is infinite (tests/data/misere_quotients.json names the
source).
"""

from __future__ import annotations

import dataclasses
import json
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest

from brute_games import octal_options

from nimbers.games import MisereQuotient, Nim, misere_quotient, octal_game
from nimbers.games.quotient import proves
from nimbers.games.quotient.whole import closing, kernel, removal_bound, whole_of


def make_outcome(code: str):
    @lru_cache(maxsize=None)
    def losing(position: tuple[int, ...]) -> bool:
        moves = [tuple(sorted(position[:i] + position[i + 1:] + left))
                 for i, h in enumerate(position) for left in octal_options(code, h)]
        return bool(moves) and not any(losing(m) for m in moves)
    return losing


def test_075_is_the_order_8_quotient_of_the_whole_game():
    q = misere_quotient(octal_game("0.75"), 60)
    w = q.whole
    assert (q.order, len(q.p_portion), q.presentation()) == (
        8, 2, "⟨a, b, c | a² = 1, b³ = b, bc = ab, c² = b²⟩")
    assert (w.proved, w.period, w.preperiod, w.last_rogue, w.closed_at) == (True, 2, 8, 7, 21)
    assert q.max_heap == 21 and q.requested == 60     # the search stopped where it closed


@pytest.mark.parametrize("code", ["0.31", "0.312", "0.75"])
def test_published_finite_quotients_close(code):
    """Plambeck and Siegel give these games finite quotients (0.31 tame, of order 6)."""
    q = misere_quotient(octal_game(code), 60)
    assert q.whole.proved and q.whole.closed_at == q.max_heap < 60
    if code == "0.31":
        assert (q.order, q.evidence().tame) == (6, True)


@pytest.mark.parametrize("code, upto", [("0.3122", 6), ("0.07", 20), ("0.04", 20)])
def test_no_whole_quotient_where_it_is_infinite_or_still_growing(code, upto):
    q = misere_quotient(octal_game(code), upto, time_limit=30)
    assert not q.whole.proved
    assert "only Q_" in q.whole.why


@pytest.mark.parametrize("code", ["0.31", "0.312", "0.75", "0.34", "0.52", "0.71", "4.0", "4.3",
                                  "0.022"])
def test_whole_quotient_says_outcomes_of_large_heaps(code):
    """Past the heap where it closed: one heap of closed_at + 1 .. closed_at + 6 tokens,
    alone or beside one or two heaps of up to 4, against the brute force (which knows
    nothing of quotients)."""
    q = misere_quotient(octal_game(code), 60)
    if not q.whole.proved:
        pytest.skip(f"{code}: {q.whole.why}")
    losing = make_outcome(code)
    n = q.whole.closed_at
    for big in range(n + 1, n + 7):
        for small in [(), (1,), (2,), (3,), (4,), (1, 1), (2, 3), (4, 4)]:
            x = tuple(sorted((big,) + small))
            assert q.is_losing(list(x)) == losing(x), x


#: two-digit codes whose quotient closes within heap 40 (found by nimbers; each checked here)
CLOSING = ["0.01", "0.02", "0.05", "0.1", "0.12", "0.2", "0.22", "0.23", "0.31", "0.32",
           "0.34", "0.51", "0.52", "0.71", "0.73", "0.75", "0.147", "4.56", "4.74", "4.12"]


def test_siegel_facts_on_every_proved_quotient():
    """Even order; |P| = 2 and finite: |Q| = 2^n + 2 or 2^n + 4; order 8: only 0.75's."""
    eight = []
    of_075 = misere_quotient(octal_game("0.75"), 40)
    for code in CLOSING:
        q = misere_quotient(octal_game(code), 40)
        assert q.whole.proved, code
        assert q.order % 2 == 0, code
        if len(q.p_portion) == 2:
            assert any(q.order in (2**n + 2, 2**n + 4) for n in range(12)), code
        if q.order == 8:
            eight.append(code)
            assert _isomorphic(q, of_075), code
    assert eight == ["0.75", "4.56", "4.74"]


def test_rogue_heaps_are_those_outside_the_kernel_as_misere_solver_says():
    """MisereSolver's LastRogue is the last heap whose element lies outside the kernel (the
    least ideal) of Q, not the pre-period less one: Kayles' is 25, its pre-period 71
    (tests/data/published_misere_quotients.txt).  The kernel is checked here as the
    intersection of every principal ideal xQ."""
    q = misere_quotient(octal_game("0.77"), 400)
    w = q.whole
    assert (w.proved, w.period, w.preperiod, w.last_rogue, w.rogues_recur) == (
        True, 12, 71, 25, False)
    least = set(q.elements)
    for x in q.elements:
        least &= {q.multiply(x, y) for y in q.elements}
    mask = kernel(np.array(q.table))
    assert set(np.flatnonzero(mask).tolist()) == least
    assert not mask[q.pretending[25]] and all(mask[q.pretending[h]] for h in range(26, 168))
    # 0.32 is tame: heap 1 (a) lies outside the kernel and recurs with the period 3
    w = misere_quotient(octal_game("0.32"), 60).whole
    assert (w.period, w.last_rogue, w.rogues_recur) == (3, None, True)
    assert "recur" in w.rogue_text()


def test_the_check_fails_on_a_planted_pretending_function():
    """A pretending function changed at one heap: the quotient no longer proves against the
    game, so it never answers (and its 'whole' claim is never used); one changed past the
    period: no period reaches the bound."""
    q = misere_quotient(octal_game("0.75"), 60)
    data = q.to_json(readable=False)
    pre = list(data["pretending"])
    pre[12] = pre[13]                          # heap 12 said to be heap 13
    del data["whole"]
    planted = MisereQuotient.from_json({**data, "pretending": pre})
    assert not planted.whole.proved              # the period breaks at heap 12
    assert not proves(planted, octal_game("0.75"))
    # a periodic but wrong pretending function: heaps 7 and 8 repeated from heap 9 on
    good = q.pretending
    wrong = list(good[:9]) + [good[7 + (n - 7) % 2] for n in range(9, 22)]
    assert closing(wrong, 2) is not None         # the period alone would close it ...
    fake = dataclasses.replace(q, pretending=tuple(wrong))
    assert fake.whole.proved                     # ... and the data claim it ...
    assert not proves(fake, octal_game("0.75"))  # ... but Q_N is not proved for the game
    game = octal_game("0.75")
    with pytest.raises(ValueError, match="does not say"):
        game.use_quotient(fake)


def test_a_wrong_period_claim_in_a_file_is_refused():
    data = misere_quotient(octal_game("0.75"), 60).to_json()
    data["whole"] = {**data["whole"], "period": 4}
    with pytest.raises(ValueError, match="does not follow"):
        MisereQuotient.from_json(data)
    data = misere_quotient(octal_game("0.75"), 12).to_json()
    data["whole"] = {"proved": True, "why": "trust me", "period": 2, "preperiod": 8,
                     "closed_at": 12}
    with pytest.raises(ValueError, match="does not follow"):
        MisereQuotient.from_json(data)


def test_too_short_a_run_claims_nothing():
    # period 2 from heap 8 is seen by heap 14, but the theorem needs heap 21
    q = misere_quotient(octal_game("0.75"), 20)
    assert q.max_heap == 20 and not q.whole.proved
    with pytest.raises(ValueError, match="not proved to be the whole"):
        q.element(25)


def test_a_whole_claim_is_for_its_own_game():
    q = misere_quotient(octal_game("0.75"), 60)
    assert proves(q, octal_game("0.75"))
    assert whole_of("0.77", q.pretending, None).proved
    other = MisereQuotient.from_json({**q.to_json(readable=False), "code": "0.77",
                                      "whole": whole_of("0.77", q.pretending, None).to_json()})
    assert not proves(other, octal_game("0.75"))


def test_where_the_theorem_does_not_apply():
    assert isinstance(removal_bound("nim"), str) and isinstance(removal_bound("grundy"), str)
    assert "three heaps" in removal_bound("0.8")
    assert removal_bound("4.07") == 2 and removal_bound("0.0003") == 4
    q = misere_quotient(Nim(), 6)
    assert not q.whole.proved and "does not apply" in q.whole.why


def test_whole_json_round_trip(tmp_path):
    q = misere_quotient(octal_game("0.31"), 40)
    q.save(tmp_path / "q.json")
    back = MisereQuotient.load(tmp_path / "q.json")
    assert back == q and back.whole == q.whole and back.whole.proved
    data = json.loads((tmp_path / "q.json").read_text(encoding="utf-8"))
    assert data["whole"]["period"] == 2


def test_play_answers_any_heap_of_a_whole_game():
    game = octal_game("0.75")
    game.misere_quotient(60)
    assert game.is_losing([10**9, 10**9], misere=True)
    assert game.is_losing([10**9 + 1, 4], misere=True) == game.is_losing([21, 4], misere=True)
    assert game.winning_move([10**9, 10**9, 3], misere=True) is not None


def test_huge_heaps_are_answered_when_a_short_search_closes_the_game():
    """No quotient computed first: a heap past the search's reach (10^12) is answered once a
    short search closes the whole game's quotient; a game whose search does not close it is
    refused, saying so."""
    game = octal_game("0.75")
    assert game.is_losing([10**12, 10**12], misere=True)
    i, _, left = game.winning_move([10**12, 10**12, 3], misere=True)
    after = [h for j, h in enumerate([10**12, 10**12, 3]) if j != i] + list(left)
    assert game.is_losing(after, misere=True)


def _isomorphic(q, r) -> bool:
    """Whether two small bipartite monoids are isomorphic (identity, table and P-portion):
    every bijection fixing the identity tried."""
    import itertools
    if q.order != r.order or len(q.p_portion) != len(r.p_portion):
        return False
    for perm in itertools.permutations(range(1, q.order)):
        f = (0,) + perm
        if {f[x] for x in q.p_portion} == set(r.p_portion) and all(
                f[q.multiply(a, b)] == r.multiply(f[a], f[b])
                for a in q.elements for b in q.elements):
            return True
    return False


RESULTS = Path(__file__).resolve().parents[2] / "results" / "misere"


@pytest.mark.parametrize("path", [RESULTS / "misere.jsonl", RESULTS / "each_code" / "misere.jsonl"],
                         ids=lambda p: p.parent.name)
def test_the_whole_game_column_of_the_results(path):
    """Every row says whether its class's whole quotient is proved; the proved ones stop where
    they closed and obey Siegel's facts (order 8: 0.75's quotient, the only one); 0.07 and
    0.04 are never proved (their Q_n still grow at the heaps reached)."""
    rows = {r["code"]: r for r in map(json.loads, path.read_text(encoding="utf-8").splitlines())}
    for code, r in rows.items():
        w = r["whole"]
        if not w["proved"]:
            assert w["closed_at"] is None and w["why"], code
            continue
        assert r["reached"] == w["closed_at"] <= r["max_heap"] and r["stopped"] is None, code
        assert r["order"] % 2 == 0 or r["order"] == 1, code
        if r["p_size"] == 2:
            assert any(r["order"] in (2**n + 2, 2**n + 4) for n in range(12)), code
        if r["order"] == 8:
            q = misere_quotient(octal_game(code), r["reached"])
            assert _isomorphic(q, misere_quotient(octal_game("0.75"), 30)), code
    if path.parent.name == "each_code":
        assert (rows["0.75"]["whole"]["period"], rows["0.75"]["whole"]["preperiod"]) == (2, 8)
        assert not rows["0.07"]["whole"]["proved"] and not rows["0.04"]["whole"]["proved"]
