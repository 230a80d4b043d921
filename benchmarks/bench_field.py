"""Discrete logarithms on 64 bits (Codeforces 1310F "Bad Cryptography" asks for many of them
within 3 s): nimbers against galois, side by side.

Run:  python benchmarks/bench_field.py [--galois]
(--galois also times galois's log, about 80 s for a single logarithm on this machine)
"""

import random
import sys
import time

from nimbers import nim_mul, nim_pow
from nimbers.field import nim_log, nim_order, primitive_element, solve_quadratic


def quadratic_in_products(rounds=9):
    """solve_quadratic on random 64-bit coefficients against one scalar nim_mul call, both per
    call net of the loop: thread CPU time, medians of interleaved rounds (the machine is
    shared)."""
    rng = random.Random(29)
    pairs = [(rng.getrandbits(64) | 1, rng.getrandbits(64)) for _ in range(2000)]

    def loop(fn):
        def run():
            for a, b in pairs:
                fn(a, b)
        return run

    def empty():
        for a, b in pairs:
            pass

    fns = {"solve_quadratic": loop(solve_quadratic), "nim_mul": loop(nim_mul), "loop": empty}
    times = {name: [] for name in fns}
    for _ in range(rounds):
        for name, fn in fns.items():
            t = time.thread_time()
            fn()
            times[name].append((time.thread_time() - t) / len(pairs))
    med = {name: sorted(v)[len(v) // 2] for name, v in times.items()}
    quad, mul = med["solve_quadratic"] - med["loop"], med["nim_mul"] - med["loop"]
    print(f"solve_quadratic, random 64-bit b and c: {quad * 1e9:.0f} ns per call, "
          f"nim_mul {mul * 1e9:.0f} ns -> {quad / mul:.1f} products")


def main():
    quadratic_in_products()
    rng = random.Random(1310)
    g = primitive_element(64)
    t = time.perf_counter()
    nim_log(3, 2)
    nim_log(g, g)
    print(f"one-time tables for GF(2^64): {time.perf_counter() - t:.2f} s")
    pairs = [(rng.getrandbits(64) | 1, rng.getrandbits(64) | 1) for _ in range(5000)]
    t = time.perf_counter()
    found = 0
    for a, b in pairs:
        try:
            nim_log(a, b)
            found += 1
        except ValueError:
            pass
    per = (time.perf_counter() - t) / len(pairs)
    print(f"nim_log of random 64-bit pairs: {per * 1e6:.1f} us per pair ({found} of {len(pairs)} "
          "have a logarithm)")
    xs = [rng.getrandbits(64) for _ in range(5000)]
    t = time.perf_counter()
    for x in xs:
        nim_log(nim_pow(g, x), g)
    print(f"nim_log to the primitive element: {(time.perf_counter() - t) / len(xs) * 1e6:.1f} us")
    t = time.perf_counter()
    for a, _ in pairs[:2000]:
        nim_order(a)
    print(f"nim_order of random 64-bit values: {(time.perf_counter() - t) / 2000 * 1e6:.1f} us")
    if "--galois" not in sys.argv:
        print("  (galois: run with --galois; its log took 79 s for one 64-bit element here)")
        return
    try:
        import galois
        GF = galois.GF(2**64)
        elems = [GF(x) for x, _ in pairs[:1]]
        t = time.perf_counter()
        for e in elems:
            e.log()
        gal = (time.perf_counter() - t) / len(elems)
        print(f"  galois.GF(2**64) log: {gal * 1e6:.0f} us -> nimbers {gal / per:.0f}x faster")
    except ImportError:
        print("  (galois not installed: pip install galois for that peer)")


if __name__ == "__main__":
    main()
