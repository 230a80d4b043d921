"""Determinants over the nim field: nimbers against galois and a pure-Python elimination,
side by side in one process, and how the time grows with n.

Run:  python benchmarks/bench_linalg.py      (about half a minute; galois optional)
"""

import random
import resource
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))

import nimbers  # noqa: E402
from nimbers.linalg import det  # noqa: E402
from peers import best_of, make_pure_python  # noqa: E402


def pure_python_det(m, mul):
    """Plain Gaussian elimination with a pure-Python nim-product and inverse (a^(2^64-2))."""
    m = [row[:] for row in m]
    n = len(m)
    d = 1

    def inverse(a):
        r, e = 1, 2**64 - 2
        while e:
            if e & 1:
                r = mul(r, a)
            a = mul(a, a)
            e >>= 1
        return r

    for c in range(n):
        p = next((r for r in range(c, n) if m[r][c]), None)
        if p is None:
            return 0
        m[c], m[p] = m[p], m[c]
        d = mul(d, m[c][c])
        iv = inverse(m[c][c])
        for r in range(c + 1, n):
            if m[r][c]:
                f = mul(m[r][c], iv)
                m[r] = [x ^ mul(f, y) for x, y in zip(m[r], m[c])]
    return d


def main():
    gen = np.random.default_rng(0)
    print(f"nimbers kernel: {nimbers.get_kernel()}")
    a150 = gen.integers(0, 2**64, (150, 150), dtype=np.uint64, endpoint=False)
    ours150 = best_of(lambda: det(a150), 10)
    print(f"det 150 x 150, 64-bit entries: {ours150 * 1e3:.2f} ms")

    n = 40
    small = gen.integers(0, 2**64, (n, n), dtype=np.uint64, endpoint=False)
    ours = best_of(lambda: det(small), 10)
    pure = best_of(lambda: pure_python_det(small.tolist(), make_pure_python()), 1)
    print(f"det {n} x {n}: nimbers {ours * 1e3:.3f} ms; pure Python {pure:.2f} s "
          f"-> nimbers {pure / ours:.0f}x faster")
    try:
        import galois
        GF = galois.GF(2**64)
        g = GF(small.astype(object))
        gal = best_of(lambda: np.linalg.det(g), 1)
        print(f"  galois.GF(2**64) np.linalg.det {n} x {n}: {gal:.2f} s -> nimbers {gal / ours:.0f}x faster")
    except ImportError:
        print("  (galois not installed: pip install galois for that peer)")

    prev = None
    for size in [250, 500, 1000, 2000]:
        m = gen.integers(0, 2**64, (size, size), dtype=np.uint64, endpoint=False)
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        t = best_of(lambda: det(m), 1 if size >= 1000 else 3)
        after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        grow = f"  x{t / prev:.1f} for doubled n (n^3 would be x8)" if prev else ""
        print(f"det {size:4d} x {size:<4d}: {t:7.3f} s{grow}; matrix {m.nbytes / 2**20:.0f} MiB, "
              f"peak memory grew {(after - before) / 1024:.0f} MiB")
        prev = t

    rng = random.Random(1)
    for bits in [128, 256]:
        big = [[rng.getrandbits(bits) for _ in range(100)] for _ in range(100)]
        t = best_of(lambda: det(big), 3)
        print(f"det 100 x 100, {bits}-bit entries (arbitrary-precision path): {t * 1e3:.0f} ms")


if __name__ == "__main__":
    main()
