"""Games: the Nim formula against the dynamic-programming solvers (their cost grows with the
product of (pile + 1)), and heap-game Grundy sequences in C.

Run:  python benchmarks/bench_games.py      (about half a minute)
"""

import time

from nimbers.games import grundy_game, octal_game
from nimbers.games.nim import is_losing, solve_bottom_up, solve_memo


def timed(fn):
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def known_structure():
    """Coin-turning values: the engine (the only way before the closed forms) against the
    closed forms, and Turning Corners at large coordinates (Tartan: factor values, then one
    nim-product)."""
    from nimbers.games import TurningGame, turning_corners
    print("Coin-turning games: engine table vs closed form")
    for code, name in (("1+C", "Ruler"), ("1+", "Motley")):
        for n in (10**5,) if code == "1+C" else (3000,):  # the engine is quadratic here
            engine = timed(lambda: TurningGame(code).engine_values(n))
            closed = timed(lambda: TurningGame(code).nim_values(n))
            print(f"  {name} G(0..{n - 1}): engine {engine:.3f} s, closed form {closed:.4f} s "
                  f"({engine / closed:,.0f}x)")
        one = timed(lambda: TurningGame(code).nim_value(10**9))
        print(f"  {name} G(10^9): closed form {one * 1e6:.1f} us (engine: refused, a 10^9 table)")
    twins = TurningGame("2")
    engine = timed(lambda: twins.engine_values(3000))
    for x in (10**6, 10**9):
        t = timed(lambda: turning_corners().nim_value((x, x - 1)))
        print(f"  Turning Corners at ({x}, {x - 1}): {t * 1e6:.1f} us "
              f"(before: Twins values by the engine to x; 3000 of them took {engine:.2f} s)")
    print()


def main():
    known_structure()
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
