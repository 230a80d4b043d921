"""Arithmetic speed of nimbers against its peers, side by side in one process.

Run:  python benchmarks/bench_arith.py        (about two minutes; galois optional:
      pip install galois); --arrays runs only the array kernels' rows
Prints each figure and its ratio to the peer.
"""

import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))

import nimbers  # noqa: E402
from peers import best_of, make_blog_memoized, make_pure_python  # noqa: E402


def per_call_scalar(fn, pairs):
    """Seconds per call of fn(a, b), net of the Python loop itself."""
    def run():
        for a, b in pairs:
            fn(a, b)

    def empty():
        for a, b in pairs:
            pass

    return (best_of(run) - best_of(empty)) / len(pairs)


def main():
    rng = random.Random(1)
    print(f"nimbers kernel: {nimbers.get_kernel()}")
    pairs = [(rng.getrandbits(64), rng.getrandbits(64)) for _ in range(20000)]

    # Scalar products on random 64-bit Python ints.
    ours = per_call_scalar(nimbers.nim_mul, pairs)
    pure = per_call_scalar(make_pure_python(), pairs[:2000])
    blog = make_blog_memoized()
    few = pairs[:20]
    t = time.perf_counter()
    for a, b in few:
        blog(a, b)
    blog_t = (time.perf_counter() - t) / len(few)
    memo_kb = sum(sys.getsizeof(k) + sys.getsizeof(v) for k, v in blog.memo.items()) / 1024 / len(few)
    print(f"scalar nim_mul, 64-bit ints: {ours * 1e9:8.0f} ns/call")
    print(f"  pure Python (byte table + Karatsuba): {pure * 1e9:8.0f} ns  -> nimbers {pure / ours:6.0f}x faster")
    print(f"  blog's memoized algorithm:  {blog_t * 1e6:8.0f} us  -> nimbers {blog_t / ours:6.0f}x faster"
          f" (memo grows ~{memo_kb:.0f} KB per product)")

    # Arrays of 10^6 random uint64.
    n = 10**6
    gen = np.random.default_rng(2)
    a = gen.integers(0, 2**64, n, dtype=np.uint64, endpoint=False)
    b = gen.integers(0, 2**64, n, dtype=np.uint64, endpoint=False)
    for kernel in nimbers.available_kernels()[::-1]:
        try:
            nimbers.set_kernel(kernel)
        except ValueError:
            continue
        t = best_of(lambda: nimbers.nim_mul(a, b), 5) / n
        print(f"array nim_mul, 10^6 uint64 ({kernel}): {t * 1e9:6.1f} ns/product")
    nimbers.set_kernel("auto")
    ours_arr = best_of(lambda: nimbers.nim_mul(a, b), 5) / n
    try:
        import galois
        GF = galois.GF(2**64)
        m = 2000
        ga, gb = GF(a[:m].astype(object) % GF.order), GF(b[:m].astype(object) % GF.order)
        g = best_of(lambda: ga * gb, 3) / m
        print(f"  galois.GF(2**64) array multiply: {g * 1e9:8.0f} ns/product -> nimbers {g / ours_arr:6.0f}x faster")
        gs = per_call_scalar(lambda x, y: x * y, [(GF(x), GF(y)) for x, y in pairs[:2000]])
        print(f"  galois.GF(2**64) scalar multiply: {gs * 1e9:7.0f} ns/call  "
              f"-> nimbers scalar {gs / ours:6.0f}x faster")
    except ImportError:
        print("  (galois not installed: pip install galois for that peer)")

    # Big numbers: Karatsuba on the Fermat tower.
    prev = None
    for bits in [512, 1024, 2048, 4096, 8192]:
        xs = [(rng.getrandbits(bits), rng.getrandbits(bits)) for _ in range(50)]
        t = per_call_scalar(nimbers.nim_mul, xs)
        ratio = f"  x{t / prev:.2f} for doubled bits" if prev else ""
        print(f"nim_mul {bits:5d}-bit: {t * 1e6:8.2f} us{ratio}")
        prev = t
    x = [(rng.getrandbits(4096), rng.getrandbits(4096)) for _ in range(3)]
    pure_big = per_call_scalar(make_pure_python_big(), x)
    ours_big = per_call_scalar(nimbers.nim_mul, x)
    print(f"  pure Python 4096-bit: {pure_big * 1e3:.1f} ms -> nimbers {pure_big / ours_big:.0f}x faster")

    # Inverse and square root against one product.
    singles = [(x | 1, 0) for x, _ in pairs]
    inv = per_call_scalar(lambda x, _: nimbers.nim_inv(x), singles)
    sqrt = per_call_scalar(lambda x, _: nimbers.nim_sqrt(x), singles)
    mul = per_call_scalar(lambda x, _: nimbers.nim_mul(x, x), singles)
    print(f"nim_inv {inv * 1e9:.0f} ns, nim_sqrt {sqrt * 1e9:.0f} ns, nim_mul {mul * 1e9:.0f} ns"
          f" (same lambda wrapper): inv/mul {inv / mul:.2f}, sqrt/mul {sqrt / mul:.2f}")


def interleaved(fns, rounds=7, reps=2000):
    """Median seconds per call of each function, the functions taken in turns every round
    (thread CPU time: the machine is shared)."""
    times = {name: [] for name in fns}
    for _ in range(rounds):
        for name, fn in fns.items():
            t = time.thread_time()
            for _ in range(reps):
                fn()
            times[name].append((time.thread_time() - t) / reps)
    return {name: sorted(v)[len(v) // 2] for name, v in times.items()}


def array_protocol():
    """The ufunc model: the public operation against its raw ufunc and numpy's XOR."""
    small = np.arange(10, dtype=np.uint64)
    t = interleaved({
        "nim_mul": lambda: nimbers.nim_mul(small, small),
        "ufunc": lambda: nimbers.nim_mul.ufunc(small, small),
    }, reps=20000)
    print(f"10-element arrays: nim_mul {t['nim_mul'] * 1e9:.0f} ns/call, raw ufunc "
          f"{t['ufunc'] * 1e9:.0f} ns -> {t['nim_mul'] / t['ufunc']:.2f}x the raw ufunc")
    gen = np.random.default_rng(3)
    for dtype in (np.uint8, np.uint16, np.uint64, np.int64):
        a = gen.integers(0, 100, 10**6).astype(dtype)
        b = a[::-1].copy()
        t = interleaved({"nim_add": lambda: nimbers.nim_add(a, b),
                         "xor": lambda: np.bitwise_xor(a, b)}, reps=20)
        print(f"nim_add, 10^6 {np.dtype(dtype).name}: {t['nim_add'] * 1e9 / 1e6:.3f} ns/element,"
              f" np.bitwise_xor {t['xor'] * 1e9 / 1e6:.3f} -> {t['nim_add'] / t['xor']:.2f}x")
    u = gen.integers(0, 2**63, 10**6, dtype=np.uint64)
    i = u.astype(np.int64)
    t = interleaved({"uint64": lambda: nimbers.nim_mul(u, u), "int64": lambda: nimbers.nim_mul(i, i)},
                    reps=3)
    print(f"nim_mul, 10^6 int64 (checked in the loop) {t['int64'] * 1e9 / 1e6:.2f} ns/product,"
          f" uint64 {t['uint64'] * 1e9 / 1e6:.2f} -> {t['int64'] / t['uint64']:.2f}x")


def array_kernels():
    """The array kernels of issue #15, per element on 10^6 random uint64 (thread CPU time,
    medians of interleaved rounds), each kernel the CPU has; then the portable product from
    10^3 to 10^7 elements (its tables against the L2 cache)."""
    print(f"CPU: {cpu_model()}")
    n = 10**6
    gen = np.random.default_rng(4)
    a = gen.integers(0, 2**64, n, dtype=np.uint64, endpoint=False)
    b = gen.integers(0, 2**64, n, dtype=np.uint64, endpoint=False)
    nonzero = a | np.uint64(1)
    c = np.uint64(gen.integers(0, 2**64, dtype=np.uint64, endpoint=False))
    row, col = a[:1000], b[:1000]
    tall, short = a[:100000], b[:10]
    a8, b8 = a.astype(np.uint8), b.astype(np.uint8)
    a16, b16 = a.astype(np.uint16), b.astype(np.uint16)
    mul = nimbers.nim_mul
    for kernel in nimbers.available_kernels():
        nimbers.set_kernel(kernel)
        t = interleaved({
            "product": lambda: mul(a, b),
            "constant": lambda: mul(a, c),
            "outer 1000 x 1000": lambda: mul.outer(row, col),
            "outer 10^5 x 10": lambda: mul.outer(tall, short),
            "numpy's outer 1000 x 1000": lambda: mul.ufunc.outer(row, col),
            "reduce": lambda: mul.reduce(a),
            "accumulate": lambda: mul.accumulate(a),
            "nim_inv": lambda: nimbers.nim_inv(nonzero),
            "nim_div": lambda: nimbers.nim_div(a, nonzero),
            "uint8": lambda: mul(a8, b8),
            "uint16": lambda: mul(a16, b16),
        }, rounds=7, reps=2)
        product = t["product"]
        print(f"kernel {kernel}, ns per element (ratio to the element-wise product):")
        for name, v in t.items():
            print(f"  {name:26s} {v * 1e9 / n:6.2f} ns  {v / product:5.2f}x")
    nimbers.set_kernel("portable")
    sizes = [10**k for k in range(3, 8)]
    arrays = {m: (gen.integers(0, 2**64, m, dtype=np.uint64, endpoint=False),
                  gen.integers(0, 2**64, m, dtype=np.uint64, endpoint=False)) for m in sizes}
    calls = {m: max(1, 10**6 // m) for m in sizes}
    out = {m: np.empty(m, np.uint64) for m in sizes}
    t = interleaved({m: (lambda m=m, x=arrays[m]: [mul(x[0], x[1], out=out[m]) for _ in range(calls[m])])
                     for m in sizes}, rounds=5, reps=1)
    print("portable kernel, ns per product: " +
          ", ".join(f"10^{len(str(m)) - 1}: {t[m] * 1e9 / (m * calls[m]):.1f}" for m in sizes))
    nimbers.set_kernel("auto")


def cpu_model():
    """The CPU's model name and the flags the kernels care about, from /proc/cpuinfo."""
    try:
        info = Path("/proc/cpuinfo").read_text()
    except OSError:
        return "unknown (no /proc/cpuinfo)"
    model = next((line.split(":", 1)[1].strip() for line in info.splitlines()
                  if line.startswith("model name")), "unknown")
    flags = next((line.split(":", 1)[1].split() for line in info.splitlines()
                  if line.startswith("flags")), [])
    wanted = ["pclmulqdq", "vpclmulqdq", "avx2", "avx512f", "gfni"]
    return f"{model}; flags: {', '.join(f for f in wanted if f in flags)}"


def make_pure_python_big():
    base = make_pure_python()

    def mul(a, b):
        bits = 64
        while (1 << bits) <= max(a, b):
            bits *= 2
        return _tower(a, b, bits, base)

    return mul


def _tower(a, b, bits, base):
    if bits == 64:
        return base(a, b)
    k = bits // 2
    mask = (1 << k) - 1
    a0, a1, b0, b1 = a & mask, a >> k, b & mask, b >> k
    p0 = _tower(a0, b0, k, base)
    p2 = _tower(a1, b1, k, base)
    p1 = _tower(a0 ^ a1, b0 ^ b1, k, base)
    return ((p1 ^ p0) << k) | (p0 ^ _tower(p2, 1 << (k - 1), k, base))


if __name__ == "__main__":
    if "--arrays" not in sys.argv:  # --arrays: only the array kernels (about a minute)
        main()
        array_protocol()
    array_kernels()
