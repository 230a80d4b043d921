"""Lexicographic codes: error-correcting codes from game theory.

The lexicode of length n and minimum distance d over the alphabet {0, ..., B-1} takes the
words in lexicographic order and keeps each one at Hamming distance at least d from every
word kept before it (Conway and Sloane, "Lexicographic codes: error-correcting codes from
game theory", IEEE Trans. Inf. Theory 32, 1986).  For B a power of 2 the result is closed
under nim-addition (digitwise XOR), and for B = 2^(2^k) under nim-multiplication by the
scalars of the nim field GF(B) too: a linear code, with a generator matrix over the nim
field.  The extended Hamming code [8, 4, 4] and the Golay code [24, 12, 8] are binary
lexicodes, the hexacode [6, 3, 4] a quaternary one.

Words are tuples of digits, first digit most significant (the word read as a base-B
number gives the lexicographic order).

>>> code = lexicode(8, 4)
>>> code.size, code.dimension, code.min_distance()
(16, 4, 4)
>>> code.words[:4].tolist()
[[0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 1, 1, 1, 1], [0, 0, 1, 1, 0, 0, 1, 1], [0, 0, 1, 1, 1, 1, 0, 0]]
>>> lexicode(24, 8).size
4096

Two methods give the same code.  ``method="greedy"`` follows the definition word by word.
``method="game"`` (the default) uses Conway and Sloane's game: a move changes at most d - 1
digits of a word, the leftmost changed digit decreasing; the codewords are the positions of
Sprague-Grundy value 0, and the value of a word is the nim-sum of the values of its single
digits, each a mex over the values of fewer digits.  So the code is the kernel of a
GF(2)-linear map, found without looking at most words.  In base 2 the game is the
coin-turning game "turn at most d - 1 coins" (Winning Ways ch. 14: Moebius for d = 6, Mogul
for d = 8), and its values come from the turning games' engine
(:func:`nimbers.games.subset_sums.any_coins_values`).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from ._gf2 import XorBasis
from ._limits import check_bytes, check_time
from .games.subset_sums import any_coins_values, words_within

__all__ = ["Lexicode", "lexicode", "digit_values"]

#: The greedy method looks at every one of the B^n words; it refuses more than this.
MAX_GREEDY_WORDS = 1 << 20
#: Neither method lists more codewords than this.
MAX_CODEWORDS = 1 << 20


@dataclass(frozen=True)
class Lexicode:
    """A lexicode: its parameters and codewords (rows of ``words``, in lexicographic order)."""

    n: int
    d: int
    base: int
    words: np.ndarray

    @property
    def size(self) -> int:
        return len(self.words)

    @property
    def dimension(self) -> int | Fraction:
        """log_B(size): the dimension over GF(B) when B = 2^(2^k) (the code is linear);
        for other B the dimension over GF(2) divided by log2(B), a Fraction when it is not
        whole."""
        bits = self.size.bit_length() - 1
        per_digit = self.base.bit_length() - 1
        return bits // per_digit if bits % per_digit == 0 else Fraction(bits, per_digit)

    def min_distance(self) -> int:
        """The least weight of a non-zero codeword (the code is closed under digitwise XOR,
        so this is its minimum distance).  n + 1 for the code {0}."""
        if self.size <= 1:
            return self.n + 1
        return int(np.count_nonzero(self.words[1:], axis=1).min())

    def generator_matrix(self) -> np.ndarray:
        """A generator matrix over the nim field GF(B), in reduced row echelon form, for
        B = 2^(2^k) (B = 2, 4, 16, 256, ...): the rows span the code by nim-linear
        combinations.

        >>> lexicode(6, 4, base=4).generator_matrix().tolist()   # the hexacode
        [[1, 0, 0, 1, 3, 2], [0, 1, 0, 1, 2, 3], [0, 0, 1, 1, 1, 1]]
        """
        if not _is_fermat_2_power(self.base):
            raise ValueError(f"the code is linear over a field only for B = 2^(2^k); B = {self.base}")
        from .linalg import row_reduce
        if self.size == 1:
            return np.zeros((0, self.n), dtype=self.words.dtype)
        reduced, pivots = row_reduce(self.words)
        return np.asarray(reduced[: len(pivots)], dtype=self.words.dtype)


def _is_fermat_2_power(b: int) -> bool:
    bits = b.bit_length() - 1
    return b == 1 << bits and bits > 0 and bits & (bits - 1) == 0


def _check(n: Any, d: Any, base: Any) -> tuple[int, int, int]:
    for name, v in (("n", n), ("d", d), ("base", base)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise TypeError(f"{name} must be an int, not {type(v).__name__}")
    n, d, base = int(n), int(d), int(base)
    if n < 1:
        raise ValueError(f"the length n must be at least 1, got {n}")
    if d < 1:
        raise ValueError(f"the minimum distance d must be at least 1, got {d}")
    if base < 2 or base & (base - 1):
        raise ValueError(f"the base must be a power of 2 (2, 4, 8, 16, ...), got {base}")
    return n, d, base


def lexicode(n: int, d: int, base: int = 2, method: str = "game") -> Lexicode:
    """The lexicode of length n and minimum distance d over {0, ..., base-1}.

    Parameters
    ----------
    n, d : int
        Length and minimum distance (d > n gives the code {0}).
    base : int
        The alphabet size, a power of 2 (linear over the nim field GF(base) when base is
        2, 4, 16 or 256 ...).
    method : {"game", "greedy"}
        Conway and Sloane's game-theoretic shortcut, or the definition word by word.

    Returns
    -------
    Lexicode

    Raises
    ------
    ValueError
        For bad parameters, or a code or a search too large to list.

    >>> lexicode(7, 3).size, lexicode(7, 3, method="greedy").size   # the Hamming code
    (16, 16)
    """
    n, d, base = _check(n, d, base)
    if method == "greedy":
        words = _greedy(n, d, base)
    elif method == "game":
        words = _by_game(n, d, base)
    else:
        raise ValueError(f"method is 'game' or 'greedy', not {method!r}")
    return Lexicode(n, d, base, words)


def _check_code_size(n: int, d: int, base: int) -> None:
    """Refuses at once a code too large to list: a lexicode is a maximal code (every word
    not kept was within d - 1 of one kept), so the balls of radius d - 1 around its words
    cover all base^n words, and it has at least base^n / V(n, d - 1) of them."""
    if d - 1 >= n or d - 1 > 64:
        return  # a small code, or a ball too costly to count: the searches' own caps decide
    ball = words_within(n, d - 1, base)
    # base^n / ball > 2^(n log2(base) - ball's bits), without forming base^n
    log2_at_least = n * (base.bit_length() - 1) - ball.bit_length()
    if log2_at_least >= MAX_CODEWORDS.bit_length() - 1:
        raise ValueError(f"the code has more than 2^{log2_at_least} words (the sphere-covering "
                         f"bound), more than can be listed ({MAX_CODEWORDS:,})")


def _digits(value: int, n: int, base: int) -> list[int]:
    out = []
    for _ in range(n):
        value, digit = divmod(value, base)
        out.append(digit)
    return out[::-1]


def _greedy(n: int, d: int, base: int) -> np.ndarray:
    total = base ** n
    if total > MAX_GREEDY_WORDS:
        raise ValueError(f"the greedy method would look at {total} words (at most "
                         f"{MAX_GREEDY_WORDS}); use method='game'")
    dtype = np.uint8 if base <= 256 else np.uint64
    # every word as a row of digits, in lexicographic order
    all_words = np.array([_digits(v, n, base) for v in range(total)], dtype=dtype)
    # the distance from each word to the nearest codeword kept so far
    nearest = np.full(total, n + 1, dtype=np.int64)
    kept = []
    for v in range(total):
        if nearest[v] >= d:
            kept.append(v)
            dist = np.count_nonzero(all_words != all_words[v], axis=1)
            np.minimum(nearest, dist, out=nearest)
    return all_words[kept]


def digit_values(n: int, d: int, base: int = 2) -> list[list[int]]:
    """The Sprague-Grundy values of the single-digit words in Conway and Sloane's game:
    ``values[i][x]`` for digit x at position i counted from the right (position 0 is the
    last digit).  A word is a codeword when the nim-sum of its digits' values is 0.

    >>> digit_values(7, 3)                   # d = 3: the columns 1, 2, 3, ... of Hamming's check matrix
    [[0, 1], [0, 2], [0, 3], [0, 4], [0, 5], [0, 6], [0, 7]]
    """
    n, d, base = _check(n, d, base)
    values: list[list[int]] = []
    if d == 1:  # no move at all: every word has value 0
        return [[0] * base for _ in range(n)]
    if base == 2:  # the game is then the coin-turning game "turn at most d - 1 coins"
        return [[0, g] for g in any_coins_values(1, d - 1, n, _HOW_TO_RAISE, unit="digit")]
    _check_sphere(n, d, base)
    # reach[c]: the nim-sums of the values of exactly c non-zero digits at distinct
    # positions to the right of the current one
    reach: list[set[int]] = [{0}] + [set() for _ in range(d - 2)]
    for position in range(n):
        sums = set().union(*reach)
        _check_work(n - position, base, len(sums), n, d)
        # the options of digit x: a smaller digit x' and up to d - 2 changes to the right,
        # so the set of their values only grows with x, and so does the mex
        row, seen, g = [0], set(sums), 0
        for x in range(1, base):
            while g in seen:
                g += 1
            row.append(g)
            seen.update([g ^ s for s in sums])
        values.append(row)
        if len(values) == n:
            break  # the sets serve the next digit only
        _check_reach(reach, row, n, d)
        for c in range(d - 2, 0, -1):
            reach[c] |= {s ^ v for s in reach[c - 1] for v in row[1:]}
    return values


#: what to do past the memory cap (the message adds the environment variable)
_HOW_TO_RAISE = "ask for a shorter length or a smaller distance,"
#: bytes a reachable nim-sum costs in a Python set of ints (the int, its slot, the spare room)
_BYTES_PER_SUM = 100


def _check_sphere(n: int, d: int, base: int) -> None:
    """Refuses at once what the Hamming bound proves too big.  The digit values span the
    code's check space, of 2^b numbers with 2^b >= V, the words within (d-1)/2 of one word
    (Hamming's bound); one value is then at least 2^(b-1), and a mex that large needs
    2^(b-1) reachable sums, each digit adding at most base of them: at least V / (2 base)."""
    ball = words_within(n, (d - 1) // 2, base)
    check_bytes(ball // (2 * base) * _BYTES_PER_SUM,
                f"the reachable nim-sums of the lexicode game (n = {n}, d = {d}, at least "
                f"{ball // (2 * base):,} of them by Hamming's bound)", _HOW_TO_RAISE)


#: Reachable nim-sums a second that a digit's row of values goes through (measured: about
#: 10 million on a shared 2-core x86 machine; set lower, so the estimate errs on refusing)
_SUMS_PER_SECOND = 5e6


def _check_work(digits_left: int, base: int, sums: int, n: int, d: int) -> None:
    """Refuses at once what the time cap cannot hold: each digit still to come goes through
    every reachable sum for each of its base - 1 values, and the sets only grow, so
    digits_left * (base - 1) * sums steps are a lower bound of the work left."""
    check_time(digits_left * (base - 1) * max(sums, 1), _SUMS_PER_SECOND,
               f"the lexicode game's digit values (n = {n}, d = {d}, base = {base})",
               _HOW_TO_RAISE.rstrip(",") + ",")


def _check_reach(reach: list[set[int]], row: list[int], n: int, d: int) -> None:
    """Refuses before the sets of reachable nim-sums outgrow the memory cap: each can grow
    by the product of its neighbour's size and the new digit values, but never past the
    2^k numbers below the largest value's next power of 2."""
    top = max((max(r) for r in reach if r), default=0) | max(row)
    universe = 1 << top.bit_length()
    bound = sum(min(universe, len(reach[c]) + len(reach[c - 1]) * (len(row) - 1))
                for c in range(1, len(reach)))
    check_bytes(2 * bound * _BYTES_PER_SUM,  # the sets and their union for the next digit
                f"the reachable nim-sums of the lexicode game (n = {n}, d = {d})",
                _HOW_TO_RAISE)


def _by_game(n: int, d: int, base: int) -> np.ndarray:
    _check_code_size(n, d, base)  # (the greedy method looks at fewer words than it may list)
    values = digit_values(n, d, base)
    m = base.bit_length() - 1  # bits per digit
    # the value map is GF(2)-linear in the bits of the word: find its kernel
    columns = []  # (value of a single bit, the bit as a word)
    for pos in range(n):
        for bit in range(m):
            x = 1 << bit
            columns.append((values[pos][x], x << (m * pos)))
    for pos in range(n):
        for x in range(1, base):
            expected = 0
            for bit in range(m):
                if x >> bit & 1:
                    expected ^= values[pos][1 << bit]
            if values[pos][x] != expected:
                raise AssertionError("digit values are additive (Conway and Sloane, Theorem)")
    basis = XorBasis()
    kernel = []
    for value, word in columns:
        remainder, combination = basis.insert(value, word)
        if remainder == 0:
            kernel.append(combination)
    if len(kernel) > MAX_CODEWORDS.bit_length() - 1:
        raise ValueError(f"the code has 2^{len(kernel)} words, more than can be listed "
                         f"({MAX_CODEWORDS})")
    words = [0]
    for k in kernel:
        words += [w ^ k for w in words]
    words.sort()
    dtype = np.uint8 if base <= 256 else np.uint64
    return np.array([_digits(w, n, base) for w in words], dtype=dtype).reshape(len(words), n)
