"""The game subcommands from a shell: ``nimbers play`` fed on standard input, and the misère
analysis of ``heap``, ``turning`` and ``tartan`` (values checked against brute force)."""

import json
import subprocess
import sys
from itertools import combinations

import pytest

from oracle import heap_moves_from_code, misere_value


def nimbers(*argv, stdin=""):
    return subprocess.run([sys.executable, "-m", "nimbers", *argv], input=stdin,
                          capture_output=True, text=True, timeout=120)


def test_play_kayles_by_name_with_stdin():
    r = nimbers("play", "kayles", "4", stdin="help\nhint\n0:2 -> 1 1\n0:1\n")
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert out.startswith("Kayles (0.77), normal play")
    assert "A legal move here:" in out and "a winning move is take 2 from heap 0" in out
    assert out.rstrip().endswith("you win!")
    assert "no heap can be moved, and the computer is to move" in out


@pytest.mark.parametrize("argv", [["dawsons-kayles", "5"], ["dawson's kayles", "5"],
                                  ["0.07", "5"], ["octal", "0.07", "5"]])
def test_play_names_and_codes(argv):
    r = nimbers("play", *argv, stdin="q\n")
    assert r.returncode == 0 and r.stdout.startswith("Dawson's Kayles (0.07)"), r


def test_play_misere_nim_says_why_it_ended():
    r = nimbers("play", "nim", "1", "1", "--misere", stdin="0:1\n")
    assert r.returncode == 0
    assert ("no stone is left, and you are to move: under misère play the player who cannot "
            "move wins") in r.stdout
    assert r.stdout.rstrip().endswith("you win!")


def test_play_misere_turning_and_board():
    r = nimbers("play", "mocking-turtles", "HTHH", "--misere", stdin="turn 2 3\n")
    assert r.returncode == 0 and r.stdout.rstrip().endswith("you win!"), r.stdout
    r = nimbers("play", "turning-corners", "1:1", "2:3", "--first", "computer", stdin="q\n")
    assert r.returncode == 0 and "Turning Corners" in r.stdout
    r = nimbers("play", "ruler x twins", "2:2", "--misere", stdin="hint\nq\n")
    assert r.returncode == 0 and "misère value" in r.stdout


def test_play_illegal_moves_are_one_line_each():
    r = nimbers("play", "kayles", "5", stdin="1 2\n0 2\nfoo\nq\n")
    said = [x.split("your move> ")[-1] for x in r.stdout.splitlines()]   # input()'s prompt
    lines = [x for x in said if x.startswith("illegal move")]
    assert lines == [
        "illegal move: there is no heap 1: the only heap is heap 0",
        "illegal move: taking 2 from heap 0 (5) may leave 1 and 2, or 3: say which, e.g. "
        "'0:2 -> 3'",
        "illegal move: 'foo' is not a move: write e.g. 'take 2 from heap 0', '0:2' or "
        "'0 -> 1 3' (the heaps left); type help for every form"]


def _acrostic_moves(heads):
    """Acrostic Twins from the definition: two coins of a row or a column, the later a head."""
    return [tuple(sorted(set(heads) ^ {other, (a, b)})) for a, b in heads
            for other in [(x, b) for x in range(a)] + [(a, y) for y in range(b)]]


def test_play_acrostic_twins_from_stdin():
    # 1:2 is worth 1 (+) 2 = 3; the hint's move leaves 1:1 (worth 0); the computer then
    # turns 1:1 with 0:1 or with 1:0, and the last line answers either
    r = nimbers("play", "acrostic-twins", "1:2",
                stdin="help\nhint\n1:1 1:2\n0:0 0:1\n0:0 1:0\n")
    assert r.returncode == 0, r.stderr
    said = [x.split("your move> ")[-1] for x in r.stdout.splitlines()]
    assert said[0].startswith("Acrostic Twins, normal play")
    assert "value 3 (an N-position): a winning move is turn 1:1 and 1:2, in row 1 (1:1 1:2)" \
        in said
    assert any(x.startswith("A legal move here: turn") for x in said)
    assert said[-2].startswith("no head can be turned, and the computer is to move")
    assert said[-1] == "you win!"
    assert [x for x in said if x.startswith("illegal move")] in (
        [], ["illegal move: coin 0:1, the right one of the move, is a tail; heads: 1:0"])


def test_play_misere_acrostic_twins_from_stdin():
    r = nimbers("play", "acrostic-twins", "1:1", "--misere", stdin="hint\n0:1 1:1\n")
    assert r.returncode == 0, r.stderr
    assert misere_value(((1, 1),), _acrostic_moves) == 1 and \
        misere_value(((0, 1),), _acrostic_moves) == 0  # the hinted move wins
    assert "misère value 1 (an N-position): a winning move is turn 0:1 and 1:1" in r.stdout
    assert "under misère play the player who cannot move wins" in r.stdout
    assert r.stdout.rstrip().endswith("you win!")


def test_play_acrostic_twins_illegal_moves_are_one_line_each():
    r = nimbers("play", "acrostic-twins", "2:3", stdin="2:3\n1:1 2:3\n0:3 2:3 1:3\n0:0 0:3\nq\n")
    said = [x.split("your move> ")[-1] for x in r.stdout.splitlines()]
    assert [x for x in said if x.startswith("illegal move")] == [
        "illegal move: a move of Acrostic Twins turns two coins, in one row or one column "
        "(e.g. '1:2 1:5'); got 1",
        "illegal move: coins 1:1 and 2:3 are in neither one row nor one column: a move of "
        "Acrostic Twins turns two coins of one row or of one column",
        "illegal move: a move of Acrostic Twins turns two coins, in one row or one column "
        "(e.g. '1:2 1:5'); got 3",
        "illegal move: coin 0:3, the right one of the move, is a tail; heads: 2:3"]


@pytest.mark.parametrize("argv", [["play", "chess"], ["play", "nim", "x"],
                                  ["play", "acrostic-twins", "4:4", "--misere"],
                                  ["play", "acrostic-twins", "1:x"],
                                  ["play", "octal", "0.77"], ["play", "ruler", "HXT"],
                                  ["play", "grundy", "2000", "2000", "--misere"],  # no quotient for it
                                  ["heap", "kayles", "--heaps", "3,x"],
                                  ["heap", "kayles", "--genus"],
                                  ["turning", "mocking-turtles", "40", "--misere"],
                                  ["tartan", "rugs", "--misere"],
                                  ["tartan", "rugs", "--heads", "5:5", "--misere"],
                                  ["tartan", "acrostic-twins", "--heads", "1:2", "3:3"],
                                  ["tartan", "acrostic-twins", "twins"],
                                  ["tartan", "twins", "twins", "--heads", "1__0:2"],
                                  ["tartan", "twins", "twins", "--heads", "\u0661:2"]])
def test_bad_game_input_is_one_line_and_status_2(argv):
    r = nimbers(*argv)
    assert r.returncode == 2, r
    assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr, r.stderr


def test_heap_misere_values_against_brute_force():
    r = nimbers("heap", "dawsons-kayles", "14", "--misere", "--json")
    data = json.loads(r.stdout)
    moves = heap_moves_from_code([0, 0, 7])
    cache = {}
    assert data["misere_values"] == [misere_value((n,) if n else (), moves, cache)
                                     for n in range(14)]
    assert "genera" not in data


def test_heap_genus_and_position():
    r = nimbers("heap", "kayles", "6", "--misere", "--genus")
    assert r.stdout.splitlines()[1] == "genera: 0^120 1^031 2^20 3^31 1^031 4^146"  # WW ch. 13
    r = nimbers("heap", "kayles", "--heaps", "3,4", "--misere")
    moves = heap_moves_from_code([0, 7, 7])
    assert misere_value((3, 4), moves) != 0
    assert r.stdout.splitlines() == [
        "Kayles (0.77)", "misère value: 2",
        "N-position under misère play: the player to move wins; a winning move: take 1 from "
        "heap 0, leaving 1 and 1 (0:1 -> 1 1)"]
    assert misere_value((1, 1, 4), moves) == 0    # the move it names wins
    assert misere_value((1, 1, 1), moves) == 0
    r = nimbers("heap", "kayles", "--heaps", "1,1,1", "--misere")
    assert "P-position under misère play" in r.stdout


def _mocking_moves(heads):
    return [tuple(sorted(set(heads) ^ set(others) ^ {x}))
            for x in heads for k in range(3) for others in combinations(range(x), k)]


def test_turning_misere_against_brute_force():
    r = nimbers("turning", "mocking-turtles", "8", "--misere", "--json")
    cache = {}
    assert json.loads(r.stdout)["misere_values"] == [misere_value((x,), _mocking_moves, cache)
                                                     for x in range(8)]
    r = nimbers("turning", "mocking-turtles", "--heads", "HTHH", "--misere", "--json")
    data = json.loads(r.stdout)
    assert data["value"] == misere_value((0, 2, 3), _mocking_moves, cache)
    assert data["winning_move"] == [2, 3] and data["text"] == "turn 2 3"
    assert misere_value((0,), _mocking_moves, cache) == 0


def test_tartan_misere_position():
    r = nimbers("tartan", "turning-corners", "--heads", "1:1,2:3", "--misere")
    assert r.returncode == 0 and r.stdout.splitlines()[0] == "Turning Corners"
    assert "misère value:" in r.stdout


def _acrostic_moves(heads):
    # Acrostic Twins from the definition (Winning Ways ch. 14): two coins of one row or one
    # column, the right (or lower) one a head
    return [tuple(sorted(set(heads) ^ {other, (a, b)}))
            for a, b in heads for other in [(x, b) for x in range(a)] + [(a, y) for y in range(b)]]


@pytest.mark.parametrize("heads", ["1:1,2:3", "0:1,1:0,2:2", "3:3"])
def test_acrostic_misere_position_against_brute_force(heads):
    r = nimbers("tartan", "acrostic-twins", "--heads", heads, "--misere", "--json")
    data = json.loads(r.stdout)
    position = tuple(sorted(tuple(int(v) for v in c.split(":")) for c in heads.split(",")))
    cache = {}
    assert data["game"] == "Acrostic Twins" and data["misere"] is True
    assert data["value"] == misere_value(position, _acrostic_moves, cache)
    assert data["losing"] == (data["value"] == 0)
    if not data["losing"]:  # the move leaves a misère P-position, and is said as typed
        turned = {tuple(c) for c in data["winning_move"]}
        after = tuple(sorted(set(position) ^ turned))
        assert misere_value(after, _acrostic_moves, cache) == 0
        typed = " ".join(f"{r}:{c}" for r, c in sorted(turned))
        assert data["text"].endswith(f"({typed})")


@pytest.mark.parametrize("command, example", [
    ("play", "nimbers play kayles 3 5 7"), ("heap", "--misere"), ("turning", "--misere"),
    ("tartan", "--misere")])
def test_help_teaches_with_examples(command, example):
    r = nimbers(command, "--help")
    assert r.returncode == 0 and example in r.stdout and "e.g." in r.stdout


def test_tartan_says_what_a_misplaced_word_is():
    r = nimbers("tartan", "acrostic-twins", "--heads", "1:2", "3:3")
    assert "'3:3' is a coin, not a game" in r.stderr and "--heads 1:2,3:3" in r.stderr
    r = nimbers("tartan", "acrostic-twins", "twins")
    assert "acrostic-twins is a board of its own" in r.stderr
