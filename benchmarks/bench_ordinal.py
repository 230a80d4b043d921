"""Ordinal nimbers below ω^ω^ω: products of random ordinals of growing size against ogdoad
(Rust, `Ordinal.nim_mul`, the peer a Python user would pick; CGSuite is a JVM application),
inverses and square roots, and Lenstra's constants from their definition up to p = 257
with time and peak memory per prime.

Run:  python benchmarks/bench_ordinal.py [--upto P]   (default P = 257: several minutes;
      --upto 163 takes about a minute)
Times are thread CPU times (time.thread_time), medians of interleaved rounds.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
import tracemalloc


def cpu() -> str:
    model, flags = "?", set()
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name") and model == "?":
                model = line.split(":", 1)[1].strip()
            if line.startswith("flags"):
                flags = set(line.split(":", 1)[1].split())
    except OSError:
        pass
    wanted = [f for f in ("pclmulqdq", "avx2", "avx512f", "gfni", "vpclmulqdq") if f in flags]
    return f"{model} ({', '.join(wanted)})"


def random_ordinal(rng: random.Random, terms: int, positions: int, digits: int, bits: int):
    """terms terms ω^e·c, e using ω^(ω^0 .. ω^(positions-1)) with exponent coefficients
    below 3^digits, c below 2^bits."""
    from nimbers.ordinal import Ordinal
    out = {}
    for _ in range(terms):
        e = [rng.randrange(3 ** digits) if rng.random() < 0.6 else 0 for _ in range(positions)]
        while e and e[-1] == 0:
            e.pop()
        out[tuple(e)] = rng.randrange(1, 1 << bits)
    return Ordinal._from_dict(out)


def to_ogdoad(x):
    import ogdoad
    ogdoad_ordinal = ogdoad.Ordinal
    total = ogdoad_ordinal(0)
    for e, c in x._terms:
        exp = ogdoad_ordinal(0)
        for k, a in enumerate(e):
            if a:
                exp = exp.nim_add(ogdoad_ordinal.monomial(ogdoad_ordinal(k), a))
        total = total.nim_add(ogdoad_ordinal.monomial(exp, c))
    return total


def timed(fn, pairs) -> float:
    t = time.thread_time()
    for a, b in pairs:
        fn(a, b)
    return (time.thread_time() - t) / len(pairs)


def clear_caches() -> None:
    from nimbers.ordinal import fields, lenstra, ordinals
    for f in (lenstra.q_set, lenstra.excess, lenstra._alpha, lenstra._kappa_set, fields._Field.get,
              ordinals._mono_mul):
        f.cache_clear()


def products(rng: random.Random) -> None:
    try:
        import ogdoad  # noqa: F401
        have_peer = True
    except ImportError:
        have_peer = False
        print("(ogdoad not installed: pip install -e '.[bench]' for the peer)")
    print("\nproducts x ⊗ y of random ordinals (ω-exponents over the first `pos` odd primes, "
          "exponent coefficients < 3^2, finite coefficients < 2^16)")
    print(f"{'terms':>5} {'pos':>3} | {'nimbers (cached)':>16} {'nimbers (cold)':>14} | "
          f"{'ogdoad':>10} | ratio ogdoad/nimbers(cold)")
    from nimbers.ordinal import ordinals
    for terms, pos in [(1, 2), (2, 3), (4, 4), (8, 6), (16, 8), (32, 10)]:
        pairs = [(random_ordinal(rng, terms, pos, 2, 16), random_ordinal(rng, terms, pos, 2, 16))
                 for _ in range(max(4, 400 // (terms * terms)))]
        mine_cold, mine_warm, peer = [], [], []
        og_pairs = [(to_ogdoad(a), to_ogdoad(b)) for a, b in pairs] if have_peer else []
        for _ in range(3):
            ordinals._mono_mul.cache_clear()
            mine_cold.append(timed(lambda a, b: a * b, pairs))
            mine_warm.append(timed(lambda a, b: a * b, pairs))
            if have_peer:
                peer.append(timed(lambda a, b: a.nim_mul(b), og_pairs))
        if have_peer:  # the same answers
            for (a, b), (x, y) in zip(pairs[:5], og_pairs[:5]):
                assert to_ogdoad(a * b) == x.nim_mul(y)
        cold, warm = statistics.median(mine_cold), statistics.median(mine_warm)
        line = f"{terms:>5} {pos:>3} | {warm * 1e6:>13.1f} us {cold * 1e6:>11.1f} us |"
        if have_peer:
            p = statistics.median(peer)
            line += f" {p * 1e6:>7.1f} us | {p / cold:.2f}x"
        print(line)


def field_ops(rng: random.Random) -> None:
    print("\ninverse and square root (dense tower arithmetic in the field of the operand)")
    xs = [random_ordinal(rng, 3, 3, 1, 8) for _ in range(20)]
    try:
        import ogdoad  # noqa: F401
        og = [to_ogdoad(x) for x in xs]
    except ImportError:
        og = []
    for name, mine, peer in [("inverse", lambda x: x.inverse(), lambda x: x.checked_inv()),
                             ("sqrt", lambda x: x.sqrt(), lambda x: x.checked_sqrt())]:
        t = time.thread_time()
        for x in xs:
            mine(x)
        m = (time.thread_time() - t) / len(xs)
        line = f"{name:>8}: nimbers {m * 1e3:.2f} ms"
        if og:
            t = time.thread_time()
            for x in og:
                peer(x)
            p = (time.thread_time() - t) / len(og)
            line += f", ogdoad {p * 1e3:.3f} ms ({p / m:.3g}x)"
        print(line)


def constants(upto: int) -> None:
    from nimbers import ordinal as o
    from nimbers.ordinal.exponents import _ODD_PRIMES
    print(f"\nLenstra's constants from their definition, p <= {upto} (caches cleared first; "
          "peak = tracemalloc peak during that prime)")
    clear_caches()
    total = 0.0
    worst = (0.0, 0)
    tracemalloc.start()
    for p in [2] + [q for q in _ODD_PRIMES if q <= upto]:
        tracemalloc.reset_peak()
        t = time.thread_time()
        qs, e = o.q_set(p), o.excess(p)
        dt = time.thread_time() - t
        peak = tracemalloc.get_traced_memory()[1]
        total += dt
        worst = max(worst, (dt, p))
        if dt > 0.5 or p in (3, 19, upto):
            print(f"  p = {p:>3}: Q = {qs}, excess = {e}, {dt:6.1f} s, peak {peak / 2**20:.1f} MiB")
    tracemalloc.stop()
    print(f"  all primes <= {upto}: {total:.1f} s CPU; slowest p = {worst[1]} ({worst[0]:.1f} s)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--upto", type=int, default=257)
    args = parser.parse_args()
    print(f"CPU: {cpu()}")
    rng = random.Random(1977)
    products(rng)
    field_ops(rng)
    constants(args.upto)


if __name__ == "__main__":
    main()
