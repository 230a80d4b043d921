"""The array loops release the GIL: two threads multiplying halves of an array run faster
than one thread doing all of it (on a machine with at least two cores).

Run:  python benchmarks/bench_threads.py
"""

import threading
import time

import numpy as np

from nimbers import nim_mul


def main():
    n = 4_000_000
    rng = np.random.default_rng(0)
    a = rng.integers(0, 2**64, n, dtype=np.uint64, endpoint=False)
    b = rng.integers(0, 2**64, n, dtype=np.uint64, endpoint=False)
    out = np.empty_like(a)

    def part(lo, hi):
        nim_mul(a[lo:hi], b[lo:hi], out=out[lo:hi])

    best1 = best2 = float("inf")
    for _ in range(3):
        t = time.perf_counter()
        part(0, n)
        best1 = min(best1, time.perf_counter() - t)
        threads = [threading.Thread(target=part, args=(0, n // 2)),
                   threading.Thread(target=part, args=(n // 2, n))]
        t = time.perf_counter()
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        best2 = min(best2, time.perf_counter() - t)
    print(f"{n:,} products: one thread {best1 * 1e3:.0f} ms, two threads {best2 * 1e3:.0f} ms "
          f"-> speed-up {best1 / best2:.2f}x (the GIL is released in the loops)")


if __name__ == "__main__":
    main()
