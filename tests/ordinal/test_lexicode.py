"""Lexicodes against the published tables (Wikipedia's table of binary lexicodes, OEIS
A075928), the classic codes, and the greedy definition against the game shortcut."""

import numpy as np
import pytest

from nimbers import nim_mul
from nimbers.lexicode import digit_values, lexicode
from conftest import DATA


def dimension_table():
    table = {}
    for line in (DATA / "lexicode_binary_dimensions.txt").read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or not line.strip():
            continue
        n, ks = line.split(":")
        table[int(n)] = [int(k) for k in ks.split()]
    return table


@pytest.mark.parametrize("n,ks", sorted(dimension_table().items()))
def test_binary_dimensions(n, ks):
    assert [lexicode(n, d).dimension for d in range(1, n + 1)] == ks


def test_oeis_a075928():
    terms = [int(t) for line in (DATA / "oeis_A075928_lexicode_d4.txt").read_text().splitlines()
             if not line.startswith("#") for t in line.split()]
    words = lexicode(11, 4).words
    as_numbers = [int("".join(map(str, w)), 2) for w in words]
    assert as_numbers[: len(terms)] == terms


def test_classic_codes():
    ham = lexicode(8, 4)
    assert (ham.size, ham.min_distance()) == (16, 4)
    golay = lexicode(24, 8)
    assert (golay.size, golay.dimension, golay.min_distance()) == (4096, 12, 8)
    # the weight enumerator of the Golay code: 1 + 759 y^8 + 2576 y^12 + 759 y^16 + y^24
    weights = np.bincount(np.count_nonzero(golay.words, axis=1), minlength=25)
    assert {w: int(c) for w, c in enumerate(weights) if c} == {0: 1, 8: 759, 12: 2576, 16: 759, 24: 1}
    assert lexicode(23, 7).size == 4096
    hexacode = lexicode(6, 4, base=4)
    assert (hexacode.size, hexacode.dimension, hexacode.min_distance()) == (64, 3, 4)


@pytest.mark.parametrize("n,d,base", [(7, 3, 2), (9, 4, 2), (10, 5, 2), (12, 6, 2), (5, 3, 4),
                                      (6, 4, 4), (4, 2, 4), (4, 3, 8), (3, 2, 16), (4, 2, 8),
                                      (6, 1, 2), (4, 5, 2)])
def test_game_shortcut_equals_greedy_definition(n, d, base):
    game = lexicode(n, d, base)
    greedy = lexicode(n, d, base, method="greedy")
    assert np.array_equal(game.words, greedy.words)


@pytest.mark.parametrize("n,d,base", [(6, 4, 4), (5, 3, 4), (4, 3, 16), (9, 4, 2)])
def test_linear_over_the_nim_field(n, d, base):
    code = lexicode(n, d, base)
    words = {tuple(int(v) for v in w) for w in code.words}
    for w in list(words)[:20]:
        for u in list(words)[:20]:
            assert tuple(a ^ b for a, b in zip(w, u)) in words
        for scalar in range(base):
            assert tuple(nim_mul(scalar, a) for a in w) in words
    g = code.generator_matrix()
    assert g.shape == (code.dimension, n)


def test_hamming_check_columns():
    # d = 3: digit i (from the right) has value i + 1, the columns of Hamming's check matrix
    assert [row[1] for row in digit_values(15, 3)] == list(range(1, 16))


@pytest.mark.parametrize("args,exc", [((0, 3), ValueError), ((5, 0), ValueError),
                                      ((5, 3, 3), ValueError), ((5, 3, 2.0), TypeError),
                                      ((30, 3, 2), ValueError)])
def test_bad_arguments(args, exc):
    with pytest.raises(exc):
        lexicode(*args, method="greedy")
    with pytest.raises(ValueError):
        lexicode(5, 3, method="nope")
    with pytest.raises(ValueError):
        lexicode(6, 3, base=8).generator_matrix()


def test_a_game_too_big_for_memory_is_refused_at_once():
    # n = 64, d = 20: Hamming's bound forces values of 2^33 or more; refused before any
    # work (before the check, it ran on for minutes)
    for base in (2, 4):
        with pytest.raises(ValueError, match="memory cap.*shorter length"):
            digit_values(64, 20, base)
        with pytest.raises(ValueError, match="memory cap|can be listed"):  # whichever comes first
            lexicode(64, 20, base)


def test_the_sets_are_checked_as_they_grow():
    # under a small cap, the growing sets of one game are refused on the way, not at the end
    from nimbers._limits import memory_limit
    with memory_limit("150K"), pytest.raises(ValueError, match="after digit 16"):
        digit_values(24, 8)
    with memory_limit("100K"), pytest.raises(ValueError, match=r"lexicode game \(n = 12, d = 5\)"):
        digit_values(12, 5, base=4)
    assert len(digit_values(24, 8)) == len(digit_values(12, 5, base=4)) + 12


def test_binary_digit_values_are_the_turning_game_at_most_d_minus_1():
    # Conway and Sloane's binary game is "turn at most d - 1 coins", checked from the
    # definition: a digit's value is the mex of the nim-sums of at most d - 2 earlier values
    from itertools import combinations
    for d in (3, 4, 5, 6):
        values = [row[1] for row in digit_values(14, d)]
        for i, g in enumerate(values):
            sums = {0}
            for k in range(1, d - 1):
                for subset in combinations(values[:i], k):
                    s = 0
                    for v in subset:
                        s ^= v
                    sums.add(s)
            assert g == min(set(range(len(sums) + 1)) - sums)
