"""The peers a user would pick instead of nimbers, written here from the references'
descriptions (no code copied): the benchmarks time them side by side with nimbers."""

import time
from functools import lru_cache


def best_of(fn, repeat=5):
    """The fastest of repeat runs of fn(), in seconds."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def make_blog_memoized():
    """The algorithm of nim-multiplication-blog.txt: split both operands into powers of 2,
    reduce products of powers of 2 with the AND-splitting rules, memoize every call.
    Returns a fresh multiplier (with a fresh memo) each time."""
    fermat = {1 << (1 << k) for k in range(7)}
    memo = {}

    def log2(x):
        return x.bit_length() - 1

    def mul(x, y):
        key = (x, y) if x >= y else (y, x)
        if key in memo:
            return memo[key]
        x, y = key
        if y == 0:
            r = 0
        elif y == 1:
            r = x
        elif x & (x - 1):
            low = x & -x
            r = mul(low, y) ^ mul(x - low, y)
        elif y & (y - 1):
            low = y & -y
            r = mul(x, low) ^ mul(x, y - low)
        elif x in fermat:
            r = 3 * x // 2 if x == y else x * y
        elif x == y:
            p = log2(x)
            p = 1 << (p & -p)  # the lowest Fermat power dividing x
            r = mul(3 * p // 2, mul(x // p, y // p))
        else:
            t = 1 << (log2(x) & log2(y))
            r = mul(x // t * y // t, mul(t, t))
        memo[key] = r
        return r

    mul.memo = memo
    return mul


@lru_cache(maxsize=1)
def _byte_table():
    """Nim-products of bytes, by the tower rules (65,536 entries)."""
    def small(a, b, bits):
        if bits == 1:
            return a & b
        k = bits // 2
        mask, half = (1 << k) - 1, 1 << (k - 1)
        a0, a1, b0, b1 = a & mask, a >> k, b & mask, b >> k
        p0, p2, p1 = small(a0, b0, k), small(a1, b1, k), small(a0 ^ a1, b0 ^ b1, k)
        return ((p1 ^ p0) << k) | (p0 ^ small(p2, half, k))
    return [[small(a, b, 8) for b in range(256)] for a in range(256)]


def make_pure_python():
    """A good pure-Python nim-product: a byte table and Karatsuba on the Fermat tower."""
    table = _byte_table()

    def mul(a, b, bits=64):
        if bits == 8:
            return table[a][b]
        k = bits // 2
        mask = (1 << k) - 1
        a0, a1, b0, b1 = a & mask, a >> k, b & mask, b >> k
        p0 = mul(a0, b0, k)
        p2 = mul(a1, b1, k)
        p1 = mul(a0 ^ a1, b0 ^ b1, k)
        return ((p1 ^ p0) << k) | (p0 ^ mul(p2, 1 << (k - 1), k))

    return mul
