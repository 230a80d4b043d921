"""One notation through every front door: the same typed number, position or game name gets
the same verdict from the command line, the web API and play -- accepted with the same value,
or refused with the notation's one-line message (nimbers.notation).

The web is driven in-process through its endpoint table (the parameter readers, then the
api function, exactly as a request runs them in a worker); the command line through
``main``; play through ``setup_game``, which reads what ``nimbers play`` is given.
"""

from __future__ import annotations

import json

import pytest

from nimbers.cli import main
from nimbers.games import catalogue
from nimbers.notation import NotationError, read_integer
from nimbers.play import setup_game
from nimbers.web import api
from nimbers.web.params import BadRequest
from nimbers.web.server import ENDPOINTS

ENDPOINT = {e.path: e for e in ENDPOINTS}


def web(path: str, **query: object) -> dict:
    """An API request's answer, or {"error": message} for a 400, as the server gives them."""
    endpoint = ENDPOINT[path]
    try:
        return getattr(api, endpoint.function)(**endpoint.arguments(query))
    except (BadRequest, ValueError, TypeError) as exc:
        return {"error": str(exc)}


def cli(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse's usage errors: one line, status 2
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def play(name: str, *setup: str) -> object:
    """The starting position play sets up, or the message it refuses with."""
    try:
        return setup_game(name, list(setup))[1]
    except ValueError as exc:
        return {"error": str(exc)}


# ---- numbers -------------------------------------------------------------------------------

#: Typed numbers and what the rule reads them as (None: refused).
NUMBERS = [
    ("10", 10), ("1_0", 10), ("0x0a", 10), ("0X0A", 10), ("0b1010", 10), ("0o12", 10),
    ("+10", 10), (" 7", 7), ("7 ", 7), ("007", 7), ("0x_a", 10),
    ("\u0663", None), ("\uff11\uff10", None), ("-3", None), ("1__0", None), ("_10", None),
    ("10_", None), ("0x", None), ("3.0", None), ("1e3", None), ("ten", None), ("0b102", None),
    ("3-", None), ("+-3", None),
    # a power is a number in every door, as on the command line's counts (issue 53)
    ("2^3", 8), ("2**3", 8), ("0x2^3", 8), ("2^3^4", None), ("2^-1", None), ("^3", None),
    ("2^", None), ("2***3", None),
]


def verdict(text: str) -> tuple[int | None, str | None]:
    """The notation's own verdict: the value, or the message every door must carry."""
    try:
        return read_integer(text), None
    except NotationError as exc:
        return None, str(exc)


@pytest.mark.parametrize("text,value", NUMBERS, ids=repr)
def test_the_rule_itself(text, value):
    assert verdict(text)[0] == value


@pytest.mark.parametrize("text", [t for t, _ in NUMBERS], ids=repr)
def test_a_pile_size_reads_the_same_in_every_door(capsys, text):
    value, message = verdict(text)
    code, out, err = cli(capsys, "nim", "--json", "--", text, "3")  # "--": "-3" is no option
    hint = web("/api/nim/hint", piles=f"{text},3")
    position = play("nim", text, "3")
    if value is not None:
        assert code == 0 and json.loads(out)["nim_sum"] == value ^ 3, err
        assert hint["values"] == [value, 3]
        assert position == [value, 3]
    else:
        for said in (err, hint["error"], position["error"]):
            assert message in said and len(said.strip().splitlines()) == 1, said
        assert code == 2


@pytest.mark.parametrize("text", [t for t, _ in NUMBERS], ids=repr)
def test_a_heap_position_reads_the_same_in_every_door(capsys, text):
    value, message = verdict(text)
    code, out, err = cli(capsys, "heap", "kayles", f"--heaps={text},3", "--json")
    hint = web("/api/heap/hint", game="kayles", heaps=f"{text},3")
    position = play("kayles", text, "3")
    if value is not None:
        expected = catalogue.heap_game("kayles").nim_value([value, 3])
        assert code == 0 and json.loads(out)["value"] == expected, err
        assert hint["total"] == str(expected)
        assert position == [value, 3]
    else:
        for said in (err, hint["error"], position["error"]):
            assert message in said and len(said.strip().splitlines()) == 1, said


@pytest.mark.parametrize("text", [t for t, _ in NUMBERS if not t.endswith(" ")], ids=repr)
def test_a_board_coin_reads_the_same_in_every_door(capsys, text):
    # (a space ends a coin in every door: "7 :2" is two words, refused alike, not this test)
    value, message = verdict(text)
    code, out, err = cli(capsys, "tartan", "turning-corners", f"--heads={text}:2", "--json")
    hint = web("/api/tartan/hint", rows_game="turning-corners", rows=12, cols=12,
               heads=f"{text}:2")
    position = play("turning-corners", f"{text}:2")
    if value is not None:
        expected = catalogue.board_game("turning-corners").nim_value([(value, 2)])
        assert code == 0 and json.loads(out)["value"] == expected, err
        assert hint["total"] == str(expected)
        assert position == [(value, 2)]
    else:
        for said in (err, hint["error"], position["error"]):
            assert message in said and len(said.strip().splitlines()) == 1, said


@pytest.mark.parametrize("door", ["nim", "heap", "tartan", "turning", "table", "lexicode",
                                  "ordinal", "play", "web-calc", "web-heaps"])
def test_huge_numbers_get_our_message_never_pythons(capsys, door):
    huge = "9" * 10_000
    runs = {
        "nim": ["nim", huge, "3"], "heap": ["heap", "0.77", huge],
        "tartan": ["tartan", "twins", "twins", "--heads", f"{huge}:1"],
        "turning": ["turning", "ruler", huge], "table": ["table", huge],
        "lexicode": ["lexicode", huge, "3"], "ordinal": ["ordinal", "add", huge],
        "play": ["play", "nim", huge],
    }
    if door == "web-calc":
        said = web("/api/calc", op="mul", a="9" * 19_000, b="3")
        assert "error" not in said and len(said["result"]["dec"]) >= 19_000
        said = web("/api/calc", op="mul", a="9" * 20_000, b="3")["error"]
        assert "65536 bits" in said
        return
    if door == "web-heaps":
        said = web("/api/heap/hint", game="kayles", heaps=huge)["error"]
        assert said.startswith("heaps: at most 10000, got 99999") and len(said) < 200
        return
    code, out, err = cli(capsys, *runs[door])
    text = out + err
    assert "int_max_str_digits" not in text and "Exceeds the limit" not in text, text[:300]
    assert len(err.strip().splitlines()) <= 1 and len(err) < 400, err[:400]
    if door == "nim":  # numbers of any size: answered
        assert code == 0 and out.startswith("nim-sum: 99999")
    else:
        assert code == 2


# ---- positions -------------------------------------------------------------------------------

@pytest.mark.parametrize("typed", ["3,5", "3 5", "3, 5", " 3 ,5 ", "0x3,0b101"])
def test_heaps_are_read_alike(capsys, typed):
    code, out, _ = cli(capsys, "heap", "kayles", "--heaps", typed, "--json")
    assert code == 0 and json.loads(out)["value"] == 3 ^ 4  # Kayles: G(3) = 3, G(5) = 4
    assert web("/api/heap/hint", game="kayles", heaps=typed)["values"] == [3, 4]
    assert play("kayles", typed) == [3, 5]


@pytest.mark.parametrize("typed,heads", [("0,3,7", [0, 3, 7]), ("HTTHTTTH", [0, 3, 7]),
                                         ("0x0,3,0b111", [0, 3, 7])])
def test_coins_are_read_alike(capsys, typed, heads):
    code, out, _ = cli(capsys, "turning", "ruler", "--heads", typed, "--json")
    expected = catalogue.turning_game("ruler").nim_value(heads)
    assert code == 0 and json.loads(out)["value"] == expected
    if typed.isalpha():  # the web and play take a row of coins as H and T
        assert web("/api/turning/hint", game="ruler", row=typed)["total"] == str(expected)
        assert play("ruler", typed) == heads


# ---- game names ------------------------------------------------------------------------------

#: every listed name, and an example of each written form, by family
NAMES = [(name, catalogue.family(name)) for name in catalogue.names()] + [
    (example, family) for family, (_, examples) in catalogue.FORMS.items()
    for example in examples]


@pytest.mark.parametrize("name,family", NAMES, ids=lambda x: str(x))
def test_every_catalogue_name_works_in_every_door_of_its_family(capsys, name, family):
    assert catalogue.family(name) == family
    game, position = setup_game(name)  # nimbers play NAME starts a game
    assert position
    if family == "nim":
        assert cli(capsys, "nim", "3", "5")[0] == 0
        assert "error" not in web("/api/nim/hint", piles="3,5")
    elif family == "heap":
        code, out, err = cli(capsys, "heap", name, "--heaps", "3,5")
        assert code == 0, err
        assert "error" not in web("/api/heap/hint", game=name, heaps="3,5")
    elif family == "turning":
        code, out, err = cli(capsys, "turning", name, "--heads", "0,3")
        assert code == 0, err
        assert "error" not in web("/api/turning/hint", game=name, row="HTTH")
    else:
        code, out, err = cli(capsys, "tartan", name, "--heads", "1:2")
        assert code == 0, err
        said = web("/api/tartan/hint", rows_game=name, rows=4, cols=4, heads="1:2")
        assert "error" not in said, said


@pytest.mark.parametrize("typed,family", [("  KAYLES ", "heap"), ("Dawson\u2019s Kayles", "heap"),
                                          ("Grundy's game", "heap"), ("s(1, 3, 4)", "heap"),
                                          ("Mock Turtles", "turning"), ("at_most_3", "turning"),
                                          ("ruler \u00d7 twins", "board"), ("Turning Corners", "board")])
def test_names_as_people_type_them_read_alike(capsys, typed, family):
    assert catalogue.family(typed) == family
    position = play(typed)
    assert not isinstance(position, dict), position  # play started it
    if family == "heap":
        assert cli(capsys, "heap", typed, "--heaps", "3,5")[0] == 0
        assert "error" not in web("/api/heap/hint", game=typed, heaps="3,5")
    elif family == "turning":
        assert cli(capsys, "turning", typed, "--heads", "0,3")[0] == 0
        assert "error" not in web("/api/turning/hint", game=typed, row="HTTH")
    else:
        assert cli(capsys, "tartan", typed, "--heads", "1:2")[0] == 0
        assert "error" not in web("/api/tartan/hint", rows_game=typed, rows=4, cols=4,
                                  heads="1:2")


def test_the_web_offers_the_catalogue():
    offered = api.catalogue()
    for family, key in (("heap", "heap_games"), ("turning", "turning_games")):
        assert set(catalogue.names(family)) <= set(offered[key])
    assert set(catalogue.names("board")) <= set(offered["tartan_games"])
    for names in offered.values():
        for name in names:
            assert catalogue.family(name) in ("heap", "turning", "board")


@pytest.mark.parametrize("name", ["chess", "0.8x", "S(1,x)", "1-3Q", "ruler x chess"])
def test_an_unknown_name_is_refused_alike(capsys, name):
    try:
        catalogue.game(name)
    except ValueError as exc:
        expected = str(exc)
    else:
        pytest.fail(f"{name!r} was accepted")
    said = play(name)["error"]
    assert said == expected
    assert len(said.splitlines()) == 1


@pytest.mark.parametrize("argv,family", [(["heap", "ruler"], "coin-turning"),
                                         (["turning", "kayles"], "heap"),
                                         (["tartan", "kayles"], "heap")])
def test_a_name_of_another_family_says_which_it_is(capsys, argv, family):
    code, _, err = cli(capsys, *argv)
    assert code == 2 and f"is a {family} game, not a" in err


def test_subtraction_games_and_winning_ways_names_everywhere(capsys):
    code, out, _ = cli(capsys, "heap", "S(1,3,4)", "--heaps", "5")
    assert code == 0 and "value: 3" in out
    assert web("/api/heap/hint", game="S(1,3,4)", heaps="5")["total"] == "3"
    assert play("S(1,3,4)", "5") == [5]
    code, out, _ = cli(capsys, "turning", "mock-turtles", "4")
    assert code == 0 and out.split() == ["1", "2", "4", "7"]
    code, out, _ = cli(capsys, "turning", "mocking-turtles", "4")
    assert out.split() == ["1", "2", "4", "7"]
