"""Misère quotients (nimbers.games.misere_quotient): how far and how fast, on this machine.

    python benchmarks/bench_misere_quotient.py                    # everything (~12 minutes)
    python benchmarks/bench_misere_quotient.py --only octals      # the two-digit octal codes
    python benchmarks/bench_misere_quotient.py --only dawson --dawson-seconds 600
    python benchmarks/bench_misere_quotient.py --only sums
    python benchmarks/bench_misere_quotient.py --peer misere.jar  # also A. Siegel's MisereSolver

* octals: Q_12 of every octal code 0.d1d2, each with a time limit; proved or where it gave up,
  CPU seconds of the thread, and the whole sweep's time (the proved codes, and all).
* dawson: Q_n of Dawson's Kayles (0.07) as far as it goes in the time given, beside
  MisereSolver's published |Q_30(0.07)| = 360 (A. Siegel, 2007).
* sums: the misère outcome of four heaps of 0.07 from Q_30 against the bounded search of the
  positions below it (nimbers' misere_nim_value), same positions, side by side.

The peer, when given, is run as `java -jar misere.jar CODE -maxheap N` (the form in Siegel's
2007 notes) and timed as a child process; it is not part of nimbers.
"""

from __future__ import annotations

import argparse
import platform
import subprocess
import time

from nimbers.games import misere_quotient, octal_game


def cpu() -> str:
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def octals(limit: float, peer: str | None) -> None:
    print(f"two-digit octal codes, Q_12, at most {limit:g} s each")
    total = 0.0
    proved = []
    start = time.thread_time()
    for a in range(8):
        for b in range(8):
            if (a, b) == (0, 0):
                continue
            code = f"0.{a}{b}"
            t = time.thread_time()
            q = misere_quotient(octal_game(code), 12, time_limit=limit)
            dt = time.thread_time() - t
            if q.proved:
                total += dt
                proved.append(code)
            state = f"order {q.order}" if q.proved else f"gave up ({q.gave_up})"
            print(f"  {code}: {' '.join(map(str, q.orders)):40s} {state}  {dt:.2f} s", flush=True)
            if peer:
                run_peer(peer, code, 12)
    print(f"proved: {len(proved)} codes in {total:.1f} CPU s; the whole sweep "
          f"{time.thread_time() - start:.1f} CPU s")


def dawson(seconds: float, max_order: int, peer: str | None) -> None:
    t = time.thread_time()
    q = misere_quotient(octal_game("0.07"), 30)
    print(f"0.07: Q_30 of order {q.order} (proved: {q.proved}) in "
          f"{time.thread_time() - t:.2f} CPU s")
    t = time.thread_time()
    q = misere_quotient(octal_game("0.07"), 60, time_limit=seconds, max_order=max_order)
    dt = time.thread_time() - t
    print(f"0.07: Q_{q.max_heap} proved, order {q.order}, in {dt:.1f} CPU s; orders "
          f"{' '.join(map(str, q.orders))}")
    print(f"  stopped: {q.gave_up}")
    print("  MisereSolver (A. Siegel, 2007): |Q_30(0.07)| = 360")
    if peer:
        run_peer(peer, "0.07", 30)


def sums() -> None:
    game = octal_game("0.07")
    q = game.misere_quotient(30)
    positions = [[a, b, c, d] for a in range(5, 12) for b in range(5, 10)
                 for c in range(5, 9) for d in range(3, 6)]
    t = time.thread_time()
    for _ in range(10):
        for p in positions:
            game.is_losing(p, misere=True)
    print(f"four heaps of 0.07 through HeapGame.is_losing(misere=True): "
          f"{(time.thread_time() - t) / (10 * len(positions)) * 1e6:.1f} µs")
    t = time.thread_time()
    for p in positions:
        q.is_losing(p)
    fast = (time.thread_time() - t) / len(positions)
    search = octal_game("0.07")
    t = time.thread_time()
    for p in positions:
        search.misere_nim_value(p)
    slow = (time.thread_time() - t) / len(positions)
    print(f"four heaps of 0.07: quotient {fast * 1e6:.1f} µs, bounded search (memo warm "
          f"across positions) {slow * 1e6:.1f} µs, ratio {slow / fast:.0f}x")
    t = time.thread_time()
    for _ in range(1000):
        q.is_losing([27, 28, 29, 30])
    print(f"heaps 27+28+29+30 (far beyond the search): "
          f"{(time.thread_time() - t) * 1e3:.1f} µs")
    t = time.thread_time()
    for _ in range(100):
        game.winning_move([27, 28, 29, 30], misere=True)
    print(f"a winning move from 27+28+29+30: {(time.thread_time() - t) * 1e4:.1f} µs")


def run_peer(jar: str, code: str, n: int) -> None:
    t = time.monotonic()
    out = subprocess.run(["java", "-jar", jar, code, "-maxheap", str(n)],
                         capture_output=True, text=True)
    last = (out.stdout.strip().splitlines() or ["(no output)"])[-1]
    print(f"    MisereSolver {code} to {n}: {time.monotonic() - t:.1f} s wall: {last}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", choices=["octals", "dawson", "sums"])
    ap.add_argument("--limit", type=float, default=20.0, help="seconds per octal code")
    ap.add_argument("--dawson-seconds", type=float, default=600.0)
    ap.add_argument("--dawson-max-order", type=int, default=8192)
    ap.add_argument("--peer", help="MisereSolver's misere.jar (needs java)")
    args = ap.parse_args()
    print(f"CPU: {cpu()}")
    if args.only in (None, "sums"):
        sums()
    if args.only in (None, "octals"):
        octals(args.limit, args.peer)
    if args.only in (None, "dawson"):
        dawson(args.dawson_seconds, args.dawson_max_order, args.peer)


if __name__ == "__main__":
    main()
