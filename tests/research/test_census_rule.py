"""A census's depth rule (issue 49): where codes are first judged dense and how far a class's
members are compared, recorded per census in census.json, so the four-digit census judges
from 2^18 and compares a capped class's members only to 2^16 while the three-digit census
keeps its rule (2^20 throughout) and results/census stays valid.

The census here runs under a rule brought down to small depths (judged from 2^16, members
of an open class to 2^16, of a capped one to 2^12): .04 is dense at 2^16 (as in
test_census_dense), Officers' class (.6, .61) is not."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import nimbers
from nimbers.research import census
from nimbers.research.census import depth
from nimbers.research.census.classes import codes_up_to
from nimbers.research.census.compute import solve_class
from nimbers.research.census.depth import DepthRule, rule_for_digits
from nimbers.research.census.run import is_final
from nimbers.research.census.table import (TABLE, all_rows, census_rule, read_meta, read_rows,
                                           write_meta)
from nimbers.research.census.verify import CensusError, verify_census

RESULTS = Path(__file__).resolve().parents[2] / "results"
SRC = str(Path(nimbers.__file__).resolve().parents[1])
#: the four-digit rule's shape at small depths: judged from 2^16 (below FRONTIER_FROM, as 2^18
#: is), a capped class's members compared to 2^12
SMALL = DepthRule(1 << 16, 1 << 16, 1 << 12)
CODES = [".04", ".007", ".6", ".61"]


def _cli(*args):
    env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-m", "nimbers", "census", *args], env=env,
                          capture_output=True, text=True, timeout=120)


def _one_line_error(done):
    return done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    """CODES to 2^18 under SMALL (the process pool: the rule reaches the workers)."""
    out = str(tmp_path_factory.mktemp("rule"))
    rows = census(codes=CODES, out=out, workers=1, until=1 << 18, progress=False, rule=SMALL)
    return out, {r["code"]: r for r in rows}


def test_the_defaults():
    """Three digits (and a census of given codes): today's 2^20 throughout; four: judged from
    2^18, a capped class's members to 2^16."""
    three = rule_for_digits(3)
    assert three == rule_for_digits(None) == DepthRule(1 << 20, 1 << 20, 1 << 20)
    assert (three.dense_depth, three.member_depth) == (depth.DENSE_DEPTH, depth.MEMBER_DEPTH)
    assert rule_for_digits(4) == rule_for_digits(5) == DepthRule(1 << 18, 1 << 20, 1 << 16)
    four = rule_for_digits(4)
    assert depth.judged_at(1 << 22, four) == [1 << 18, 1 << 20]
    assert depth.judged_at(1 << 22) == [1 << 20]
    assert depth.member_depth(1 << 20, 1 << 18, False, True, four) == 1 << 16
    assert depth.member_depth(1 << 20, 1 << 20, False, False, four) == 1 << 20
    assert depth.member_depth(1 << 22, 1 << 23, True, False, four) == 1 << 23   # proven
    capped = {"period": None, "class": "single", "cap": 1 << 18, "depth": 1 << 18}
    assert depth.cap_holds(capped, four) and is_final(capped, 1 << 24, four)
    assert not depth.cap_holds(capped) and not is_final(capped, 1 << 24)     # three digits


@pytest.mark.parametrize("fields, error", [
    ((1 << 17, 1 << 20, 1 << 16), "dense_depth is a census level"),     # not 2^12 * 4^k
    ((1 << 14, 1 << 20, 1 << 16), "dense_depth is a census level"),     # below DENSE_FROM
    ((1 << 18, 3 << 18, 1 << 16), "member_depth is a power of two"),
    ((1 << 18, 1 << 20, 1 << 10), "dense_member_depth is a power of two"),
    ((1 << 18, 1 << 16, 1 << 18), "past member_depth"),
])
def test_a_bad_rule_is_refused(fields, error):
    with pytest.raises(ValueError, match=error):
        DepthRule(*fields)
    with pytest.raises(TypeError):
        DepthRule(True, 1 << 20, 1 << 16)      # type: ignore[arg-type]
    with pytest.raises(ValueError, match="a depth rule is an object"):
        DepthRule.from_json({"dense_depth": 1 << 18})


def test_a_dense_code_stops_at_the_rule_s_dense_depth(small):
    """.04, dense at 2^16, is capped there at level 2^16 and not computed at 2^18: the table
    has no row of it past 2^16, and asked for 2^18 at once (a class split off deeper) it is
    judged at 2^16 on the way and stops there; its member .007 is compared only to the rule's
    dense_member_depth (2^12)."""
    out, by = small
    dense = by["0.04"]
    assert (dense["cap"], dense["reached"], dense["depth"], dense["engine"]) == \
        (1 << 16, 1 << 16, 1 << 16, "dense")
    assert dense["members"] == ["0.04", "0.007"] and dense["class"] == "values"
    assert dense["equal_up_to"] == 4096 - 2          # dead heaps dropped, to 2^12 only
    assert [r["depth"] for r in all_rows(out) if r["code"] == "0.04"] == \
        [1 << 12, 1 << 14, 1 << 16]
    assert is_final(dense, 1 << 30, SMALL)
    again, = solve_class(["0.04", "0.007"], 1 << 18, rule=SMALL)
    assert {k: again[k] for k in ("cap", "reached", "engine", "equal_up_to")} == \
        {k: dense[k] for k in ("cap", "reached", "engine", "equal_up_to")}
    three, = solve_class(["0.04"], 1 << 16)       # the three-digit rule: judged at 2^20 only
    assert (three["cap"], three["engine"]) == (None, "memory")


def test_an_open_class_s_members_go_to_member_depth(small):
    """Officers' class at 2^18: the standard form to 2^18 (judged at 2^16 and at 2^18, not
    dense), its member compared to member_depth = 2^16."""
    _out, by = small
    officers = by["0.6"]
    assert (officers["reached"], officers["cap"], officers["engine"]) == \
        (1 << 18, None, "memory")
    assert officers["equal_up_to"] == (1 << 16) - 1        # .61: one dead heap


def test_the_rule_is_recorded_kept_and_verified(small, tmp_path):
    """census.json records the rule; the same census again keeps it (and refuses another);
    verify derives every row again under it, and refuses the rows once census.json says
    another rule (the three-digit one caps .04 nowhere at 2^16)."""
    out, by = small
    meta = read_meta(out)
    assert meta is not None and meta["rule"] == SMALL.as_json()
    assert census_rule(meta) == SMALL
    rows = census(codes=CODES, out=out, workers=1, until=1 << 18, progress=False)
    assert {r["code"]: r["cap"] for r in rows} == {c: r["cap"] for c, r in by.items()}
    with pytest.raises(ValueError, match="keeps its rule"):
        census(codes=CODES, out=out, workers=1, until=1 << 18, progress=False,
               rule=rule_for_digits(3))
    done = verify_census(out, workers=1, budget=600.0, progress=False)
    assert done.rows == len(by)
    copy = tmp_path / "edited"
    copy.mkdir()
    (copy / TABLE).write_bytes((Path(out) / TABLE).read_bytes())
    write_meta(str(copy), {**meta, "rule": rule_for_digits(3).as_json()})
    with pytest.raises(CensusError, match=r"0\.04.*caps it at None, not 65536"):
        verify_census(str(copy), workers=1, budget=600.0, progress=False, only=["0.04"])
    lines = (Path(out) / TABLE).read_text().splitlines()
    edited = [json.loads(line) for line in lines]
    last = max(i for i, r in enumerate(edited) if r["code"] == "0.04")
    edited[last]["equal_up_to"] = (1 << 16) - 2     # claims its member compared to 2^16
    (copy / TABLE).write_text("".join(json.dumps(r) + "\n" for r in edited))
    write_meta(str(copy), meta)
    with pytest.raises(CensusError, match="equal_up_to is 4094"):
        verify_census(str(copy), workers=1, budget=600.0, progress=False, only=["0.04"])


def test_a_census_json_without_a_rule_takes_its_digits_default(tmp_path):
    """A census.json written before the rule was recorded: one of every code of up to four
    digits takes the four-digit rule (results/census4's own, recorded since), a census of
    given codes and results/census (no census.json: its rows' codes) the three-digit rule."""
    four = read_meta(str(RESULTS / "census4"))     # the four-digit rule, recorded or not
    assert four is not None and census_rule(four) == rule_for_digits(4)
    assert census_rule(None, codes_up_to(3)) == rule_for_digits(3)
    assert census_rule({"codes": ["0.1777", "0.454"]}) == rule_for_digits(3)
    write_meta(str(tmp_path), {"offsets": True, "codes": codes_up_to(4), "until": 4096})
    assert census_rule(read_meta(str(tmp_path))) == rule_for_digits(4)
    write_meta(str(tmp_path), {"offsets": True, "codes": ["0.77"], "until": 4096,
                               "rule": {"dense_depth": 3}})
    with pytest.raises(ValueError, match='"rule" is not a depth rule'):
        read_meta(str(tmp_path))


def test_the_command_line_asks_for_a_rule_and_refuses_bad_ones(small, tmp_path):
    out, _by = small
    codes = tmp_path / "codes"
    codes.write_text(" ".join(CODES) + "\n")
    fresh = str(tmp_path / "fresh")
    for bad in (["--dense-depth", "2^17"], ["--dense-depth", "lots"],
                ["--member-depth", "2^14", "--dense-member-depth", "2^16"],
                ["--member-depth", "3000"]):
        done = _cli("--digits", "4", "--out", fresh, "--until", "2^12", *bad)
        assert _one_line_error(done), (bad, done.stderr)
    assert not os.path.exists(os.path.join(fresh, "census.json"))
    done = _cli("--codes", str(codes), "--out", out, "--until", "2^18", "--dense-depth", "2^20")
    assert _one_line_error(done) and "keeps its rule" in done.stderr
    done = _cli("deepen", out, "--until", "2^20", "--dense-depth", "2^18")
    assert _one_line_error(done) and "not census deepen" in done.stderr
    done = _cli("--codes", str(codes), "--out", out, "--until", "2^18",      # its own: kept
                "--dense-member-depth", "2^12")
    assert done.returncode == 0, done.stderr
    assert read_rows(out) and census_rule(read_meta(out)) == SMALL
    done = _cli("--help")
    assert done.returncode == 0 and "--dense-depth" in done.stdout
    done = _cli("verify", str(RESULTS / "census4"), "--help")
    assert done.returncode == 0 and "--budget" in done.stdout


def test_a_new_census_takes_its_digits_default(tmp_path):
    """No rule asked: the default for the census's digits (the survey of 8,191 codes is not
    run here: the rule is chosen before any work)."""
    from nimbers.research.census.run import _kept_rule

    assert _kept_rule(str(tmp_path), None, 4) == rule_for_digits(4)
    assert _kept_rule(str(tmp_path), None, 3) == _kept_rule(str(tmp_path), None, None) == \
        rule_for_digits(3)
    assert _kept_rule(str(tmp_path), SMALL, 4) == SMALL


def test_deepen_keeps_the_census_s_rule(small, tmp_path):
    """census deepen reads the rule from census.json: .04, capped at 2^16 by it, stays (the
    three-digit rule would take it on to 2^20, 86 s of plain scan); Officers' class goes on
    to 2^20, its member still compared to 2^16."""
    import shutil

    from nimbers.research.census.run import deepen

    out = str(tmp_path / "copy")
    shutil.copytree(small[0], out)
    by = {r["code"]: r for r in deepen(out, 1 << 20, workers=1, progress=False)}
    assert by["0.04"]["depth"] == 1 << 16 and by["0.04"]["cap"] == 1 << 16
    assert (by["0.6"]["depth"], by["0.6"]["reached"], by["0.6"]["equal_up_to"]) == \
        (1 << 20, 1 << 20, (1 << 16) - 1)
    assert census_rule(read_meta(out)) == SMALL


def test_a_level_takes_over_the_members_comparison_it_would_make_again(monkeypatch):
    """Past the member depth an unproven class's members are the same values compared over
    the same stretch, so a level takes the earlier row's comparison (issue 48: .764's three
    members cost some 900 s a level): the row is the one computing them again makes, with
    only the standard form computed; a row whose comparison is not what the rule gives (made
    under another rule) is compared again."""
    from nimbers.research.census import compute
    rule = DepthRule(1 << 16, 1 << 12, 1 << 12)
    earlier, = solve_class(["0.6", "0.61"], 1 << 14, rule=rule)
    assert earlier["equal_up_to"] == (1 << 12) - 1 and earlier["class"] == "values"
    again, = solve_class(["0.6", "0.61"], 1 << 16, rule=rule)
    made = []
    real = compute.advance_code
    monkeypatch.setattr(compute, "advance_code",
                        lambda code, *a, **k: made.append(code) or real(code, *a, **k))
    taken, = solve_class(["0.6", "0.61"], 1 << 16, rule=rule, earlier=earlier)
    assert made == ["0.6"]
    same = [k for k in again if k not in ("seconds", "peak_bytes")]
    assert {k: taken[k] for k in same} == {k: again[k] for k in same}
    made.clear()
    other = dict(earlier, equal_up_to=(1 << 11) - 1)         # members to 2^11 under its rule
    redone, = solve_class(["0.6", "0.61"], 1 << 16, rule=rule, earlier=other)
    assert made == ["0.6", "0.61"] and redone["equal_up_to"] == again["equal_up_to"]
