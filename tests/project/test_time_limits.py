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
    with pytest.raises(ValueError, match="non-negative"):
        with _limits.time_limit(-1):
            pass
    assert _limits.describe_seconds(90) == "90 s" and _limits.describe_seconds(3 * 3600) == "3.0 h"
