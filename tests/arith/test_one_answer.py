"""One answer (issue 29, items 6 and 7): a numpy integer is an integer wherever it stands (in an
object array as beside one), a float is refused in the same words on every path (scalar,
array, the bare ufunc, its methods, dask), and an apparent period is offered with its
evidence or not at all."""

from __future__ import annotations

import numpy as np
import pytest

from nimbers import Nimber, nim_add, nim_div, nim_mul, nim_pow, nim_sqrt, nim_square

NUMPY_INTS = [np.uint8(3), np.uint16(3), np.uint32(3), np.uint64(3), np.int8(3), np.int16(3),
              np.int32(3), np.int64(3)]


@pytest.mark.parametrize("x", NUMPY_INTS, ids=lambda x: type(x).__name__)
def test_numpy_integers_in_object_arrays_are_integers(x):
    objects = np.array([x, 5], dtype=object)
    assert nim_mul(objects, 3).tolist() == [nim_mul(x, 3), nim_mul(5, 3)] == [2, 15]
    assert nim_add(objects, 1).tolist() == [2, 4]
    assert nim_pow(objects, 2).tolist() == [nim_mul(3, 3), nim_mul(5, 5)]
    assert nim_pow(np.array([2], dtype=object), np.array([x], dtype=object)).tolist() == [1]
    assert nim_sqrt(objects).tolist() == [nim_sqrt(3), nim_sqrt(5)]
    assert nim_div(objects, np.array([x, x], dtype=object)).tolist() == [1, nim_div(5, 3)]
    assert all(type(v) is int for v in nim_mul(objects, 3).tolist())


def test_numpy_bools_and_nimbers_beside_them():
    mixed = np.array([np.bool_(True), Nimber(3), 2**70, np.int64(6)], dtype=object)
    got = nim_mul(mixed, 3).tolist()
    assert got == [3, Nimber(2), nim_mul(2**70, 3), nim_mul(6, 3)]
    assert type(got[1]) is Nimber
    with pytest.raises(ValueError, match="non-negative"):
        nim_mul(np.array([np.int64(-3)], dtype=object), 3)


FLOAT_CALLS = {
    "python float": lambda: nim_mul(2.0, 3),
    "numpy float scalar": lambda: nim_mul(np.float64(2.0), 3),
    "float array and int": lambda: nim_mul(np.array([2.0]), 3),
    "int array and float array": lambda: nim_mul(np.array([3]), np.array([2.5], np.float32)),
    "float arrays": lambda: nim_mul(np.array([2.0]), np.array([3.0])),
    "complex array": lambda: nim_mul(np.array([1j]), 3),
    "float beside objects": lambda: nim_mul(np.array([2.0]), np.array([3], dtype=object)),
    "float in an object array": lambda: nim_mul(np.array([2.0], dtype=object), 3),
    "list of floats": lambda: nim_mul([2.0, 3.0], 3),
    "unary": lambda: nim_square(np.array([2.0])),
    "power": lambda: nim_pow(np.array([2.0]), 2),
    "the bare ufunc": lambda: nim_mul.ufunc(np.array([2.0]), np.array([1])),
    "outer": lambda: nim_mul.outer(np.array([2.0]), np.array([1])),
    "reduce": lambda: nim_mul.reduce(np.array([2.0, 1.0])),
    "int array and python float": lambda: nim_mul(np.array([3]), 2.5),
}


@pytest.mark.parametrize("name", list(FLOAT_CALLS))
def test_floats_are_refused_in_the_same_words_everywhere(name):
    with pytest.raises(TypeError, match="^nim arithmetic takes integers, not (float|complex)"):
        FLOAT_CALLS[name]()


def test_floats_in_dask_are_refused_in_the_same_words():
    da = pytest.importorskip("dask.array")
    x = da.from_array(np.array([2.0, 3.0]), chunks=1)
    for call in (lambda: nim_mul(x, 3), lambda: nim_mul(x, x).compute(),
                 lambda: nim_mul(da.from_array(np.array([3], dtype=np.uint8)), 2.5)):
        with pytest.raises(TypeError, match="^nim arithmetic takes integers"):
            call()


# ---- apparent periods carry their evidence ------------------------------------------------------

def test_a_short_repetition_at_the_end_is_not_offered():
    from nimbers.games.heap import octal_game
    found = octal_game("0.16").period(max_n=65536)  # period 3 over the last 41 values only
    assert found.period is None and not found.proven and found.glimpse == (3, 65495)
    assert str(found) == ("no period found up to n = 65536 (period 3 repeats in the last 41 "
                          "values only, too few to offer)")


def test_an_apparent_period_says_how_often_it_repeats_over_which_values():
    from nimbers.games.heap import octal_game
    found = octal_game("0.127").period(max_n=65536)
    assert (found.period, found.preperiod, found.proven) == (4, 46578, False)
    assert found.span == 18958 and found.repetitions == 18958 / 4
    assert "it repeats 4,739 times over g(46578) .. g(65535), 18,958 of the 65,536 values" \
        in str(found)


@pytest.mark.parametrize("code", ["0.77", "0.07", "0.137", "0.127", "0.16", "0.354", "4.7"])
@pytest.mark.parametrize("n", [100, 300, 5000])
def test_what_is_offered_has_the_evidence(code, n):
    from nimbers.games.heap import octal_game, take_break_game
    from nimbers.games.heap.periodicity import APPARENT_SHARE
    game = take_break_game(code) if code.startswith("4") else octal_game(code)
    found = game.period(max_n=n)
    if found.period is None or found.proven:
        return
    g = game.nim_values(found.checked_up_to)
    p, n0 = found.period, found.preperiod
    assert found.span * APPARENT_SHARE >= found.checked_up_to and found.span >= 3 * p
    assert (g[n0 + p:] == g[n0:len(g) - p]).all()  # and it is what the values show


def test_the_period_search_of_the_cli_goes_as_far_as_asked(capsys):
    from nimbers.cli import main
    assert main(["heap", "0.354", "1100000", "--period"]) == 0
    assert capsys.readouterr()[0].splitlines()[-1] == "no period found up to n = 1100000"
    assert main(["heap", "0.354", "20", "--period", "--max-n", "4096"]) == 0
    assert capsys.readouterr()[0].splitlines()[-1] == "no period found up to n = 4096"
    assert main(["heap", "0.127", "20", "--period", "--max-n", "65536", "--json"]) == 0
    import json
    period = json.loads(capsys.readouterr()[0])["period"]
    assert period["repetitions"] == 18958 / 4 and "4,739 times" in period["text"]


def test_the_web_sequence_shows_the_same_evidence():
    from nimbers.web.api import heap_sequence
    thin = heap_sequence("0.16", 10, 65536)
    assert thin["period"] is None and "too few to offer" in thin["text"]
    fair = heap_sequence("0.127", 10, 65536)
    assert fair["period"] == 4 and fair["repetitions"] == 18958 / 4 and "4,739 times" in fair["text"]
