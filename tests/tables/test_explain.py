"""Derivations: Guy's letter, and every line an equation whose value is the product."""

import random
import re

import pytest

from nimbers.explain import MAX_EXPLAIN_BITS, explain_mul, explain_sum
from oracle import fermat_mul


class _N:
    """A number whose ^ is the nim-sum and * the nim-product (the slow oracle)."""

    def __init__(self, v):
        self.v = v

    def __xor__(self, other):
        return _N(self.v ^ other.v)

    def __mul__(self, other):
        return _N(fermat_mul(self.v, other.v))


def evaluate(line: str) -> int:
    """Evaluates a derivation line independently of the library."""
    code = line.replace("⊕", "^").replace("⊗", "*")
    assert re.fullmatch(r"[0-9()^* ]+", code), code
    code = re.sub(r"\d+", lambda m: f"_N({m.group()})", code)
    return eval(code, {"_N": _N}).v


def test_guy_eight_times_eight():
    d = explain_mul(8, 8)
    assert d.value == 13
    assert d.lines == ["8 ⊗ 8", "4 ⊗ 2 ⊗ 4 ⊗ 2", "6 ⊗ 3", "(4 ⊕ 2) ⊗ (2 ⊕ 1)",
                       "(4 ⊗ 2) ⊕ (4 ⊗ 1) ⊕ (2 ⊗ 2) ⊕ (2 ⊗ 1)", "8 ⊕ 4 ⊕ 3 ⊕ 2", "13"]


def test_guy_five_times_eleven():
    d = explain_mul(5, 11)
    assert d.value == 12
    # the letter's steps, in substance
    assert "(4 ⊕ 1) ⊗ (8 ⊕ 2 ⊕ 1)" in d.lines
    assert "(6 ⊗ 2) ⊕ 7" in d.lines
    assert "8 ⊕ 3 ⊕ 7" in d.lines
    assert d.lines[-1] == "12"


@pytest.mark.parametrize("seed", range(8))
def test_every_line_is_an_equation(seed):
    rng = random.Random(seed)
    for _ in range(25):
        a, b = rng.randrange(2**16), rng.randrange(2**16)
        d = explain_mul(a, b)
        assert d.value == fermat_mul(a, b)
        for line in d.lines:
            assert evaluate(line) == d.value, (a, b, line)


def test_long_derivations_are_summarized():
    d = explain_mul(2**16 - 1, 2**16 - 1)
    assert d.summarized and d.omitted > 0 and "not shown" in str(d)
    assert len(d.lines) < 40


def test_small_cases():
    assert explain_mul(0, 7).lines == ["0 ⊗ 7", "0"]
    assert explain_mul(7, 1).lines == ["7 ⊗ 1", "7"]


def test_explain_sum_columns():
    d = explain_sum(10, 11, 4)
    assert d.value == 5
    rows = str(d).splitlines()
    assert rows[0].split("=")[1].split() == ["1", "0", "1", "0"]
    assert rows[-1].split("=")[1].split() == ["0", "1", "0", "1"]


def test_bad_input():
    with pytest.raises(ValueError):
        explain_mul(-1, 2)
    with pytest.raises(TypeError):
        explain_mul(1.5, 2)
    with pytest.raises(TypeError):
        explain_sum("3")


@pytest.mark.parametrize("seed", range(4))
def test_past_the_readable_size_a_summary_whose_lines_are_equations(seed):
    rng = random.Random(seed)
    bits = MAX_EXPLAIN_BITS + 1 + rng.randrange(60)
    a, b = rng.getrandbits(bits) | 1 << (bits - 1), rng.getrandbits(bits)
    d = explain_mul(a, b)
    assert d.summarized and "past what a derivation shows" in str(d)
    assert d.value == fermat_mul(a, b)
    for line in d.lines:
        assert evaluate(line) == d.value, (a, b, line)


def test_huge_operands_are_summarized_in_bounded_text():
    from nimbers import nim_mul
    a, b = 2**4096 - 1, 3**2500
    d = explain_mul(a, b)
    assert d.value == nim_mul(a, b) and d.summarized and len(d.lines) == 6
    assert len(str(d)) < 40 * 1300  # a few lines of numbers of about 1233 digits
    big = explain_mul(2**100_000 - 1, 2**99_999 + 7)  # written in hexadecimal
    assert big.lines[-1] == hex(big.value) and "hexadecimal" in str(big)


def test_wide_sums_are_one_line():
    d = explain_sum(2**5000 + 1, 3)
    assert d.value == 2**5000 + 1 ^ 3 and d.summarized and len(d.lines) == 1
