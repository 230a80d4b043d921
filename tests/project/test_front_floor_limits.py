"""One line that used to eat the machine (#29 items 1 and 7, the command line and play): each
runs in a subprocess under a real address-space limit (RLIMIT_AS, as ``ulimit -v`` sets it)
and answers from the proven period, or refuses with one line; never numpy's "Unable to
allocate", never a bare MemoryError, and never running on (the timeouts are far above the
second these take; the old code never ended)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from nimbers.games.catalogue import heap_game

resource = pytest.importorskip("resource")  # Unix only
pytestmark = pytest.mark.skipif(bool(os.environ.get("NIMBERS_UNDER_SANITIZER")),
                                reason="RLIMIT_AS cannot be set under AddressSanitizer")

ENV = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
ENV.pop("NIMBERS_MEMORY_LIMIT", None)  # the default cap: derived from the limit below
GIB = 1024**3


def limited(argv: list[str], address_space: int = GIB, timeout: float = 60,
            stdout: int = subprocess.PIPE) -> subprocess.CompletedProcess[str]:
    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))
    return subprocess.run(argv, preexec_fn=cap, stdout=stdout, stderr=subprocess.PIPE,
                          stdin=subprocess.DEVNULL, env=ENV, timeout=timeout, text=True)


def nimbers(*argv: str, **kw: object) -> subprocess.CompletedProcess[str]:
    return limited([sys.executable, "-m", "nimbers", *argv], **kw)  # type: ignore[arg-type]


def never_numpys_words(done: subprocess.CompletedProcess[str]) -> None:
    assert "Unable to allocate" not in done.stderr and "MemoryError" not in done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.splitlines()) <= 1, done.stderr


@pytest.mark.parametrize("code,heaps", [
    ("0.07", "1000000000000000000,5"),   # Dawson's Kayles: period 34 proven
    ("0.07", "100000000,5"),
    ("0.77", "100000000000"),            # Kayles: the move's words list no moves
])
def test_a_position_of_huge_heaps_is_answered_from_the_period(code, heaps):
    done = nimbers("heap", code, "--heaps", heaps, "--json", timeout=30)
    never_numpys_words(done)
    assert done.returncode == 0, done.stderr
    game = heap_game(code)
    sizes = [int(h) for h in heaps.split(",")]
    answer = json.loads(done.stdout)
    assert answer["value"] == game.nim_value(sizes)
    i, take, left = answer["winning_move"]
    after = sizes[:i] + list(left) + sizes[i + 1:]
    assert game.nim_value(after) == 0  # the move said is a winning one


def test_many_values_of_a_periodic_game_stream_in_bounded_memory():
    # 50 million values: from the period, written a block at a time (was: numpy's
    # "Unable to allocate 381. MiB" under 1 GiB)
    done = nimbers("heap", "0.77", "50000000", stdout=subprocess.DEVNULL, timeout=120)
    never_numpys_words(done)
    assert done.returncode == 0 or "memory cap" in done.stderr, done.stderr


def test_values_not_answerable_from_a_period_are_refused_before_allocating():
    done = nimbers("heap", "0.6", str(2**31), timeout=60)  # Officers: no period proven
    never_numpys_words(done)
    assert done.returncode == 2 and "memory" in done.stderr, done.stderr


def test_python_answers_huge_heaps_from_the_period_too():
    code = ("from nimbers.games import octal_game\n"
            "g = octal_game('0.07')\n"
            "print(g.nim_value([10**18, 5]), g.winning_move([10**18, 5]) is not None)")
    done = limited([sys.executable, "-c", code], timeout=30)
    assert done.returncode == 0 and done.stdout.split()[1] == "True", done.stderr


def test_help_in_play_nim_lists_no_split_moves():
    from nimbers.play import setup_game
    game, piles = setup_game("nim")
    said = game.help(piles)
    assert "leaving 1 and 3" not in said and "-> 1 3" not in said and "piles of" not in said
    assert "take 2 from pile 1" in said
    assert game.parse("0 -> 1", piles) == [1, 5, 7]  # the form help shows is read
    kayles, heaps = setup_game("kayles")
    assert "-> 1 3" in kayles.help(heaps)  # Kayles does split


def test_nimbers_alone_is_short_usage_on_stderr_and_status_2():
    done = subprocess.run([sys.executable, "-m", "nimbers"], capture_output=True, text=True,
                          env=ENV, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("usage: nimbers") and len(done.stderr.splitlines()) == 2
    assert "nimbers --help" in done.stderr
