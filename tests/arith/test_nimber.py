"""The Nimber scalar: one coercion rule in arithmetic, comparison and hashing, its string
form parsed back, format specs, pickling and copying, display in notebooks, and Nimbers
accepted by the operations and in arrays."""

import copy
import pickle
import sys

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import nimbers
from nimbers import Nimber, nim_add, nim_div, nim_inv, nim_mul, nim_pow, nim_sqrt, nim_square
from oracle import fermat_mul

values = st.integers(0, 2**130)
small = st.integers(0, 2**16)


@given(values, values)
def test_coercion_agrees_in_arithmetic_equality_and_hashing(a, b):
    x = Nimber(a)
    assert x == a and a == x and hash(x) == hash(a)
    assert {x: 1}[a] == 1 and a in {x}
    assert x * b == Nimber(a) * Nimber(b) == b * x == Nimber(nim_mul(a, b))
    assert x + b == x - b == b + x == x ^ b == b ^ x == Nimber(a ^ b)
    assert (x < b) == (a < b) and (x >= b) == (a >= b) and (b > x) == (a < b)


@given(small, small)
def test_against_the_oracle(a, b):
    assert Nimber(a) * Nimber(b) == fermat_mul(a, b)


@given(values)
def test_string_form_parses_back(a):
    assert Nimber(str(Nimber(a))) == a
    assert Nimber(repr(a)) == a and Nimber(hex(a)) == a and Nimber("*" + bin(a)) == a
    assert eval(repr(Nimber(a)), {"Nimber": Nimber}) == Nimber(a)


def test_star_alone_is_star_one():
    assert Nimber("*") == Nimber(1) and Nimber(" *12 ") == 12


@pytest.mark.parametrize("text", ["", "**5", "*-3", "-3", "five", "*5.0", "* x"])
def test_bad_strings(text):
    with pytest.raises(ValueError, match="nimber"):
        Nimber(text)


@pytest.mark.parametrize("bad,error", [(-1, ValueError), (True, TypeError), (1.0, TypeError),
                                       (None, TypeError), ([1], TypeError)])
def test_bad_values(bad, error):
    with pytest.raises(error):
        Nimber(bad)


def test_numpy_integers_follow_the_rule():
    x = Nimber(5)
    assert Nimber(np.uint8(5)) == x == np.uint64(5) and np.uint8(5) == x
    assert np.uint8(11) * x == x * np.uint8(11) == Nimber(12)
    assert type(np.uint8(11) * x) is Nimber and type(np.uint8(3) ^ x) is Nimber
    assert np.uint8(1) / Nimber(2) == Nimber(3) and np.int64(3) < x


def test_other_types_are_not_nimbers():
    x = Nimber(5)
    assert x != "5" and x != 5.0 and x != -5 and x != True  # noqa: E712
    for other in (1.5, "3", None, [1]):
        with pytest.raises(TypeError):
            x * other
    with pytest.raises(ValueError):
        x * -1
    for sequence in ("ab", [0], (0,)):
        with pytest.raises(TypeError):
            x * sequence  # no sequence repetition: a Nimber is not an index
    with pytest.raises(TypeError):
        x ** Nimber(2)  # the exponent counts factors: an ordinary int
    with pytest.raises(TypeError):
        np.arange(3) * x  # numpy's own product of an array would be a wrong answer
    with pytest.raises(ZeroDivisionError):
        x / 0


def test_format():
    assert f"{Nimber(255):x}" == "ff" and f"{Nimber(5):08b}" == "00000101"
    assert f"{Nimber(5)}" == "*5" and f"{Nimber(5):>4}" == "  *5" and f"{Nimber(7):d}" == "7"


def test_pickle_copy_and_immutability():
    x = Nimber(2**100 + 3)
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        assert pickle.loads(pickle.dumps(x, protocol)) == x
    assert copy.copy(x) is x and copy.deepcopy([x])[0] is x
    with pytest.raises(AttributeError):
        x._value = 3
    with pytest.raises(AttributeError):
        del x._value


def test_notebook_reprs():
    assert Nimber(5)._repr_html_() == '<span class="nimber">&lowast;5</span>'
    assert Nimber(5)._repr_latex_() == r"$\ast5$" and Nimber(12)._repr_latex_() == r"$\ast{12}$"


def test_operations_take_nimbers_and_give_nimbers():
    a, b = Nimber(5), Nimber(11)
    assert nim_mul(a, b) == 12 and type(nim_mul(a, b)) is Nimber
    assert nim_mul(a, 11) == nim_mul(5, b) == Nimber(12)
    assert nim_add(a, b) == Nimber(14) and nim_div(Nimber(12), 11) == a
    assert nim_pow(Nimber(2), -1) == Nimber(3) == nim_inv(Nimber(2)) == nim_sqrt(Nimber(2))
    assert nim_square(Nimber(2)) == Nimber(3)
    with pytest.raises(ZeroDivisionError):
        nim_inv(Nimber(0))


def test_arrays_of_nimbers_are_read_as_their_values():
    nimbers_list = [Nimber(2), Nimber(3), Nimber(2**70)]
    got = nim_mul(nimbers_list, 3)
    assert got.tolist() == [nim_mul(2, 3), nim_mul(3, 3), nim_mul(2**70, 3)]
    assert nim_mul([Nimber(5), 7], Nimber(11)).tolist() == [12, nim_mul(7, 11)]
    # An object ndarray goes straight to the ufunc loops: they read Nimbers as their values
    # and give a Nimber where an operand element was one.
    got = nim_mul(np.array([Nimber(5), 7], dtype=object), 3)
    assert [type(v) for v in got] == [Nimber, int] and got.tolist() == [nim_mul(5, 3), nim_mul(7, 3)]
    assert int(nim_add.reduce([Nimber(3), Nimber(5), 7])) == 1
    assert nim_mul.outer([Nimber(2)], [Nimber(3)]).tolist() == [[1]]


def test_object_arrays_of_nimbers_follow_the_scalar_rule_on_every_method():
    values = [2, 3, 2**70, 0, 11]
    as_nimbers = np.array([Nimber(v) for v in values], dtype=object)
    for name in ("nim_add", "nim_mul"):
        op = getattr(nimbers, name)
        assert op(as_nimbers, as_nimbers[::-1]).tolist() == [op(a, b) for a, b in zip(values, values[::-1])]
        assert op.outer(as_nimbers, as_nimbers).tolist() == [[op(a, b) for b in values] for a in values]
        assert op.accumulate(as_nimbers).tolist() == op.accumulate(np.array(values, dtype=object)).tolist()
        assert isinstance(op.reduce(as_nimbers), Nimber)
    nonzero = as_nimbers[as_nimbers != 0]
    assert nim_inv(nonzero).tolist() == [nim_inv(v) for v in values if v]
    assert nim_pow(as_nimbers, 3).tolist() == [nim_pow(v, 3) for v in values]
    assert all(isinstance(v, Nimber) for v in nim_sqrt(as_nimbers))
    # Errors are the scalar ones, never a wrong answer.
    with pytest.raises(ZeroDivisionError):
        nim_inv(np.array([Nimber(0)], dtype=object))
    with pytest.raises(ZeroDivisionError):
        nim_div(as_nimbers, np.array([Nimber(0)], dtype=object))
    with pytest.raises(ValueError, match="non-negative"):
        nim_mul(as_nimbers[:1], np.array([-1], dtype=object))
    with pytest.raises(TypeError, match="float"):
        nim_mul(as_nimbers[:1], np.array([1.5], dtype=object))


def test_ufunc_methods_take_lists_as_calls_do():
    # ints above 2^63 beside small ones stay exact (numpy alone would make floats)
    big = 2**63 + 5
    assert nim_mul.outer([1, big], [3]).tolist() == [[3], [nim_mul(big, 3)]]
    assert int(nim_add.reduce([1, big, 3])) == 1 ^ big ^ 3
    assert nim_pow.outer([2, 3], [-1, 2]).tolist() == [[3, 3], [2, 2]]
    assert nim_add.reduceat([1, 2, 3, 4], [0, 2]).tolist() == [3, 7]


def test_other_modules_take_nimbers():
    from nimbers.explain import explain_mul
    from nimbers.field import nim_order
    from nimbers.linalg import det
    assert nim_order(Nimber(256)) == nim_order(256)
    assert det([[Nimber(2), 1], [1, Nimber(2)]]) == det([[2, 1], [1, 2]])
    assert explain_mul(Nimber(8), 8).value == 13


def test_value_and_field_bits():
    assert Nimber(9).value == 9 and int(Nimber(9)) == 9
    assert Nimber(16).field_bits == 8 and not Nimber(0) and Nimber(1)


# ---- numbers past Python's 4300-digit int/str limit -----------------------------------------

def _unlimited(convert, *args):
    """Python's own conversion with the digit limit lifted for this call (the test is a
    program and may; the library must not)."""
    before = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        return convert(*args)
    finally:
        sys.set_int_max_str_digits(before)


@pytest.mark.parametrize("digits", [4_301, 5_000, 50_000])
def test_text_of_nimbers_past_the_digit_limit(digits):
    limit = sys.get_int_max_str_digits()
    value = _unlimited(int, "8" + "31" * (digits // 2))
    x = Nimber(value)
    assert repr(x) == "Nimber(" + _unlimited(str, value) + ")"
    assert str(x) == "*" + _unlimited(str, value)
    assert Nimber(str(x)) == x and Nimber(_unlimited(str, value)) == x
    for spec in ["d", ",d", "_d", "+d", " d", f"0{digits + 9}d", f">{digits + 5}d",
                 f"*^{digits + 4},d", f"=+{digits + 9}_d", "x", "b"]:
        assert format(x, spec) == _unlimited(format, value, spec), spec
    assert sys.get_int_max_str_digits() == limit  # the program's setting is left alone


def test_a_long_bad_nimber_string_gives_a_short_message():
    with pytest.raises(ValueError, match="characters") as error:
        Nimber("9" * 5000 + "z")
    assert len(str(error.value)) < 200
