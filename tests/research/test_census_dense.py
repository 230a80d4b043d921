"""The census's dense rule (issue 48): whether a class has a useful sparse space is decided
again at every level from its values alone, so a class whose rare values thin out goes on to
the frontier engine and one that stays dense stops with its cap stated; T. Czajka's figures
for the dense .04 and .06 at 2^17."""

from pathlib import Path

import numpy as np
import pytest

from nimbers.games.heap import octal_game
from nimbers.research.census import depth
from nimbers.research.census.compute import solve_class
from nimbers.research.census.run import is_final
from nimbers.research.census import verify_row
from nimbers.research.census.verify import check_row

DATA = Path(__file__).resolve().parents[1] / "data"


def _rare_by_hand(g, emask, rules):
    """Rare heap sizes as A. Flammenkamp defines them (octal_sparse.html): m = emask >> 1;
    in the range, popcount(g(n) & m) even; in the domain (emask's lowest bit), popcount(g(n)
    & m) = n - t mod 2, t the number of tokens a splitting move removes."""
    m, t = emask >> 1, next(k for k, d in enumerate(rules) if d & 4)
    ones = np.array([bin(int(x) & m).count("1") for x in g]) % 2
    n = np.arange(len(g))
    return ones == (n - t) % 2 if emask & 1 else ones == 0


@pytest.mark.parametrize("code", ["0.04", "0.146", "0.005"])
def test_rare_share_is_the_latest_half_under_the_best_mask(code):
    g = octal_game(code).nim_values(1 << 16, progress=False)
    rules = depth._rules(code)
    emask = depth.mask_of_values(g, rules)
    rare = _rare_by_hand(g, emask, rules)
    assert depth.rare_count(g, emask, rules) == int(rare.sum())
    assert depth.rare_share(g, rules) == (int(rare[1 << 15:].sum()), 1 << 15)


def test_dense_is_decided_from_the_values_where_they_stand():
    """.04 and .06 are dense at 2^16; .146 and .606, dense in their first 2^14 heap sizes,
    are not at 2^16: their rare values thin out (the old rule, one judgement of the first
    2^16 heap sizes as a whole, capped all four at 2^17)."""
    found = {}
    for code in ("0.04", "0.06", "0.146", "0.606"):
        g = octal_game(code).nim_values(1 << 16, progress=False)
        rules = depth._rules(code)
        found[code] = (depth.is_dense(g, rules), depth.is_dense(g[:1 << 14], rules),
                       depth.rare_share(g[:1 << 14], rules))
    assert found["0.04"][0] and found["0.06"][0]
    assert not found["0.146"][0] and not found["0.606"][0]
    for code in ("0.146", "0.606"):
        rare, of = found[code][2]
        assert rare * depth.DENSE_SHARE > of            # dense there, had it been judged
        assert not found[code][1]                       # but too short to be judged
    assert depth.judged_at(1 << 26) == [1 << 20, 1 << 22, 1 << 24]
    assert depth.judged_at(depth.DENSE_DEPTH) == []


@pytest.fixture
def small_caps(monkeypatch):
    """The rule with its depths brought down to 2^16 (the frontier engine from there)."""
    for name in ("FRONTIER_FROM", "DENSE_DEPTH", "FRONTIER_HEAD"):
        monkeypatch.setattr(depth, name, 1 << 16)
    monkeypatch.setattr(verify_row, "ORDINARY_LEAST", 1 << 16)


def test_thinning_class_goes_on_to_the_frontier_and_a_dense_one_stops(small_caps, tmp_path):
    runs = str(tmp_path)
    dense, = solve_class(["0.04"], 1 << 16, runs)
    assert (dense["engine"], dense["cap"], dense["reached"]) == ("dense", 1 << 16, 1 << 16)
    assert is_final(dense, 1 << 30)
    deeper, = solve_class(["0.04"], 1 << 18, runs)                 # judged at 2^16 first
    assert (deeper["engine"], deeper["cap"], deeper["reached"]) == ("dense", 1 << 16, 1 << 16)
    assert deeper["certificate"]["sha256"] == dense["certificate"]["sha256"]
    thin, = solve_class(["0.146"], 1 << 17, runs)
    assert (thin["engine"], thin["cap"], thin["reached"]) == ("frontier", None, 1 << 17)
    memory = octal_game("0.146").nim_values(1 << 17, progress=False)
    assert depth.rare_count(memory, depth.mask_of_values(memory, depth._rules("0.146")),
                            depth._rules("0.146")) == thin["rare_count"]
    assert check_row(dense, 60.0, True)["error"] is None
    assert check_row(thin, 60.0, True, runs=str(tmp_path / "verify"))["error"] is None
    dense["cap"] = 1 << 15
    assert "caps it at 65536, not 32768" in check_row(dense, 60.0, True)["error"]


def test_an_earlier_rules_cap_is_deepened():
    """A row capped at 2^17 by the old rule is open to a deepening; one capped by this rule
    stays."""
    old = {"period": None, "class": "single", "cap": 1 << 17, "depth": 1 << 16}
    assert not depth.cap_holds(old) and not is_final(old, 1 << 24)
    assert depth.cap_holds({**old, "cap": depth.DENSE_DEPTH})


@pytest.mark.parametrize("line", [ln for ln in (DATA / "czajka_unsolved_dense.txt")
                                  .read_text().splitlines() if not ln.startswith("#")])
def test_czajkas_dense_games_at_2_17(line):
    """Every column of T. Czajka's UnsolvedGames.md for .04 and .06 (heap 0 counted among
    the rare, as he counts it)."""
    game, n, largest_at, largest, mask, rare, last = line.split()
    seq = depth.advance_code("0" + game, int(n))
    row = depth.summary(seq)
    assert (row["reached"], row["largest_at"], row["largest"], row["rare_mask"],
            row["rare_count"], row["last_rare"]) == (int(n), int(largest_at), int(largest),
                                                     mask, int(rare), int(last))
    assert row["cap"] is None and row["engine"] == "memory"   # dense there, judged deeper


def test_a_row_of_the_earlier_rule_is_checked_by_that_rule():
    """results/census keeps the rows the earlier rule capped at 2^17 (census.jsonl is
    append-only): verify checks such a row by the rule that made it, and refuses the cap on a
    row that rule would not have capped."""
    import json

    lines = (Path(__file__).resolve().parents[2] / "results" / "census" / "census.jsonl") \
        .read_text().splitlines()
    row = next(r for r in map(json.loads, lines) if r["code"] == "0.146" and r["cap"])
    assert (row["depth"], row["cap"]) == depth.EARLIER_RULE
    assert check_row(row, 60.0, True)["error"] is None
    g = octal_game("0.146").nim_values(1 << 17, progress=False)
    assert depth.earlier_cap(g, depth._rules("0.146")) == 1 << 17
    assert depth.cap_for(g, depth._rules("0.146"), 1 << 16) is None      # this rule: open
    kayles = octal_game("0.77").nim_values(1 << 17, progress=False)
    assert depth.earlier_cap(kayles, depth._rules("0.77")) is None
