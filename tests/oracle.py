"""Independent slow oracles for the tests: straight from the definitions, sharing no code
with the library."""

import pathlib
from functools import lru_cache


@lru_cache(maxsize=None)
def fermat_mul(a: int, b: int) -> int:
    """Nim-product by the Fermat-power recursion of the blog reference (Conway's rules):
    split on the largest Fermat power X = 2^(2^k) below the operands, use X (x) X = 3X/2
    and X (x) y = X * y for y < X, and distributivity."""
    if a < 2 or b < 2:
        return a * b
    k = 1
    while (1 << k) <= max(a, b):
        k <<= 1
    half = k >> 1
    X = 1 << half
    a1, a0 = a >> half, a & (X - 1)
    b1, b0 = b >> half, b & (X - 1)
    # (a1 X + a0)(b1 X + b0) = a1 b1 X^2 + (a1 b0 + a0 b1) X + a0 b0, X^2 = X + X/2
    hi = fermat_mul(a1, b1) ^ fermat_mul(a1, b0) ^ fermat_mul(a0, b1)
    lo = fermat_mul(a0, b0) ^ fermat_mul(fermat_mul(a1, b1), X >> 1)
    return (hi << half) ^ lo


def mex(values) -> int:
    s = set(values)
    m = 0
    while m in s:
        m += 1
    return m


def mex_mul_table(n: int) -> list[list[int]]:
    """The multiplication table from its definition (Turning Corners):
    T[a][b] = mex{T[a'][b] ^ T[a][b'] ^ T[a'][b'] : a' < a, b' < b}."""
    t = [[0] * n for _ in range(n)]
    for a in range(n):
        for b in range(n):
            t[a][b] = mex(t[x][b] ^ t[a][y] ^ t[x][y] for x in range(a) for y in range(b))
    return t


def load_table(path) -> list[list[int]]:
    rows = []
    for line in pathlib.Path(path).read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            rows.append([int(x) for x in line.split()])
    return rows


def brute_permanent(m) -> int:
    """The permanent over the nim field as a sum over permutations (n! terms)."""
    import itertools
    n = len(m)
    total = 0
    for p in itertools.permutations(range(n)):
        term = 1
        for i in range(n):
            term = fermat_mul(term, int(m[i][p[i]]))
        total ^= term
    return total


def heap_values(digits, n: int) -> list[int]:
    """Grundy values g(0..n-1) of a take-and-break game straight from the definition: digit
    d_k (bits 1, 2, 4: leave no heap, one heap, two heaps) after removing k tokens; digits
    None is Grundy's game (split into two unequal heaps)."""
    g = [0] * n
    for h in range(1, n):
        options = set()
        if digits is None:
            options.update(g[a] ^ g[h - a] for a in range(1, h) if 2 * a != h)
        else:
            for k, d in enumerate(digits):
                left = h - k
                if left < 0:
                    break
                if d & 1 and left == 0:
                    options.add(0)
                if d & 2 and left >= 1 and k >= 1:
                    options.add(g[left])
                if d & 4:
                    options.update(g[a] ^ g[left - a] for a in range(1, left))
        g[h] = mex(options)
    return g


def heap_moves_from_code(digits):
    """Moves of a take-and-break game straight from the definition (for brute force)."""
    def moves(heaps):
        out = []
        for i, h in enumerate(heaps):
            rest = heaps[:i] + heaps[i + 1:]
            for k, d in enumerate(digits):
                r = h - k
                if r < 0 or d == 0:
                    continue
                splits = []
                if d & 1 and r == 0:
                    splits.append(())
                if d & 2 and r >= 1 and k > 0:
                    splits.append((r,))
                if d & 4:
                    splits += [(a, r - a) for a in range(1, r)]
                if d & 8:
                    splits += [(a, b, r - a - b) for a in range(1, r) for b in range(1, r - a)]
                for s in splits:
                    out.append(tuple(sorted(rest + s)))
        return out
    return moves


def misere_value(position, moves, cache=None) -> int:
    """The misère Grundy value straight from the definition: 1 with no move, else the mex
    of the options' values (recursive: small positions only)."""
    if cache is None:
        cache = {}
    if position not in cache:
        options = moves(position)
        cache[position] = 1 if not options else mex(misere_value(o, moves, cache) for o in options)
    return cache[position]
