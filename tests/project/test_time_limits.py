"""The time cap (issue 19, section 1): work whose steps can be counted before it starts is
refused at once, in one line naming the work, the time it would take, the cap and how to
raise it, when the estimate passes the cap.  Checked with small caps, never by waiting."""

from __future__ import annotations

import math
import time
from itertools import combinations

import pytest

from nimbers import _limits
from nimbers.games.turning import TurningGame, named_game


def listed(x):
    # "1-4F": the head and 1 to 3 other coins, the leftmost of them the first coin (coin 0)
    return sum(math.comb(max(x - 1, 0), c - 2) for c in range(2, 5))


def test_a_long_listing_is_refused_at_once_with_its_estimate():
    game = TurningGame("1-4F")
    started = time.process_time()
    with pytest.raises(ValueError) as refused:
        game.nim_values(3000)  # 4.5 * 10^9 move sets: hours of listing
    assert time.process_time() - started < 5  # counted, not listed
    message = str(refused.value)
    assert "1-4F" in message and "move sets or more" in message and "time cap of 2 min" in message
    assert "time_limit=" in message and "NIMBERS_TIME_LIMIT" in message and "\n" not in message
    # the count is a lower bound of the true one
    claimed = int(message.split("listing ")[1].split(" move sets")[0].replace(",", ""))
    assert claimed <= sum(listed(x) for x in range(3000))


def test_the_keyword_and_the_environment_raise_or_lower_the_cap(monkeypatch):
    with pytest.raises(ValueError, match="time cap of 0 s"):
        TurningGame("1-4F", time_limit=0).nim_values(60)
    assert TurningGame("1-4F", time_limit=60).nim_values(60).tolist() == \
        TurningGame("1-4F").nim_values(60).tolist()
    monkeypatch.setenv("NIMBERS_TIME_LIMIT", "0.001")
    with pytest.raises(ValueError, match="over the time cap"):
        named_game("1-4F").nim_values(300)
    assert named_game("1-4F", time_limit=100).nim_values(300)[0] == 1  # the keyword wins
    monkeypatch.setenv("NIMBERS_TIME_LIMIT", "soon")
    with pytest.raises(ValueError, match="NIMBERS_TIME_LIMIT is a number of seconds"):
        named_game("1-4F").nim_values(300)


def test_values_within_the_cap_are_the_definitions():
    # the check changes nothing it lets through.  "1-4F" from the definition: the head x and
    # the leftmost coin 0 (the head alone at x = 0), with at most two coins between
    g = TurningGame("1-4F").nim_values(40).tolist()
    for x, value in enumerate(g):
        options = {0} if x == 0 else {
            g[0] ^ _xor(g[y] for y in between)
            for k in range(3) for between in combinations(range(1, x), k)}
        assert value == min(set(range(len(options) + 1)) - options)


def _xor(values):
    total = 0
    for v in values:
        total ^= v
    return total


def test_check_time_and_its_context():
    _limits.check_time(10, 1e6, "ten steps", "pass time_limit=")
    with _limits.time_limit(1), pytest.raises(ValueError) as refused:
        _limits.check_time(10**7, 1e6, "ten million steps", "pass time_limit=")
    assert str(refused.value) == ("ten million steps would take about 10 s, over the time cap "
                                  "of 1 s; pass time_limit= or set NIMBERS_TIME_LIMIT (seconds) "
                                  "to go past it")
    with pytest.raises(ValueError, match="time_limit is a number of seconds from 0 to 10"):
        with _limits.time_limit(-1):
            pass
    assert _limits.describe_seconds(90) == "90 s" and _limits.describe_seconds(3 * 3600) == "3.0 h"


# ---- one reader of seconds, one decision of the cap (issue 48) ---------------------------------

@pytest.mark.parametrize("bad", ["soon", "-1", "nan", "inf", "1e10", "", "٣", True, None, [1]])
def test_one_reader_of_seconds_refuses_in_one_line(bad):
    with pytest.raises(ValueError) as refused:
        _limits.parse_seconds(bad, "--budget")
    message = str(refused.value)
    assert message.startswith("--budget is a number of seconds from 0 to 10^9, got ")
    assert "\n" not in message


def test_the_reader_takes_what_every_setting_took():
    assert _limits.parse_seconds("2.5", "x") == 2.5 and _limits.parse_seconds(" 1e4 ", "x") == 1e4
    assert _limits.parse_seconds(0, "x") == 0.0 and _limits.parse_seconds(7, "x") == 7.0
    with pytest.raises(ValueError, match="above 0 and at most 10\\^6"):
        _limits.parse_seconds("0", "x", positive=True, most=10**6)


def test_the_cap_is_decided_in_one_place(monkeypatch):
    monkeypatch.delenv("NIMBERS_TIME_LIMIT", raising=False)
    assert _limits.time_cap() == _limits.DEFAULT_TIME
    monkeypatch.setenv("NIMBERS_TIME_LIMIT", "30")
    assert _limits.time_cap() == 30.0
    with _limits.time_limit(5):
        assert _limits.time_cap() == 5.0 and _limits.time_cap(2) == 2.0   # the keyword wins
    with pytest.raises(ValueError, match="time_limit is a number of seconds"):
        _limits.time_cap("soon")


def test_the_quotient_search_takes_its_cap_from_the_limits(monkeypatch):
    # it decided its own before: a bad keyword named in the reader's words, the environment's
    # cap obeyed when no keyword is given
    from nimbers.games import octal_game
    from nimbers.games.quotient import misere_quotient
    with pytest.raises(ValueError, match="time_limit is a number of seconds"):
        misere_quotient(octal_game("0.07"), 5, time_limit="soon")
    monkeypatch.setenv("NIMBERS_TIME_LIMIT", "soon")
    with pytest.raises(ValueError, match="NIMBERS_TIME_LIMIT is a number of seconds"):
        misere_quotient(octal_game("0.07"), 5)


def test_a_setting_of_seconds_keyword_then_environment_then_default(monkeypatch):
    monkeypatch.delenv("NIMBERS_SOME_WAIT", raising=False)
    assert _limits.seconds_setting(None, "NIMBERS_SOME_WAIT", 120.0) == 120.0
    monkeypatch.setenv("NIMBERS_SOME_WAIT", "5")
    assert _limits.seconds_setting(None, "NIMBERS_SOME_WAIT", 120.0) == 5.0
    assert _limits.seconds_setting(3, "NIMBERS_SOME_WAIT", 120.0) == 3.0
    monkeypatch.setenv("NIMBERS_SOME_WAIT", "0")
    with pytest.raises(ValueError, match="NIMBERS_SOME_WAIT is a number of seconds above 0"):
        _limits.seconds_setting(None, "NIMBERS_SOME_WAIT", 120.0)


def test_no_other_module_reads_seconds_itself():
    # the seconds readers issue 48 found (the command line's, the cluster's) and the
    # keywords' checks (a census's and a frontier run's interval, verify's budget) are the
    # limits' one reader now: no other module words a refusal of seconds itself
    import pathlib
    import re
    package = pathlib.Path(_limits.__file__).parent
    for path in package.rglob("*.py"):
        if path.name != "_limits.py":
            text = path.read_text(encoding="utf-8")
            assert not re.search(r"raise \w+\(f?\"[^\"]*number of seconds", text), path
