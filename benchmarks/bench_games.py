"""Games: the Nim formula against the dynamic-programming solvers (their cost grows with the
product of (pile + 1)), and heap-game Grundy sequences in C.

Run:  python benchmarks/bench_games.py      (about half a minute)
"""

import time

from nimbers.games.grundy import grundy_game, octal_game
from nimbers.games.nim import is_losing, solve_bottom_up, solve_memo


def timed(fn):
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def main():
    print("Nim: the xorsum formula against the DP solvers (time to decide the start position)")
    print(f"{'position':>18} {'positions':>10} {'formula':>10} {'memo':>10} {'bottom-up':>10}")
    for start in [(3, 5, 7), (7, 7, 7, 7), (10, 12, 14, 16), (15, 15, 15, 15, 15), (20, 21, 22, 23, 24)]:
        size = 1
        for p in start:
            size *= p + 1
        f = timed(lambda: is_losing(start))
        m = timed(lambda: solve_memo(start))
        b = timed(lambda: solve_bottom_up(start))
        print(f"{str(start):>18} {size:>10} {f * 1e6:>8.1f}us {m * 1e3:>8.1f}ms {b * 1e3:>8.1f}ms"
              f"   formula {m / f:,.0f}x / {b / f:,.0f}x faster")
    print()
    for code in ["0.77", "0.07", "0.137"]:
        g = octal_game(code)
        t = timed(lambda: g.nim_values(100_000, progress=False))
        print(f"octal {code}: 100,000 Grundy values in {t:.2f} s; {g.period()}")
    t = timed(lambda: grundy_game().nim_values(30_000, progress=False))
    print(f"Grundy's game: 30,000 values in {t:.2f} s")


if __name__ == "__main__":
    main()
