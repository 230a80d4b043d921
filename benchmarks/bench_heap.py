"""Heap games at research scale: nimbers against T. Czajka's octal-games solver, side by side.

The peer (GitHub tczajka/octal-games, its C++ code at commit 30baeb7, before the move to old/)
is not part of nimbers: give the path of your own checkout of it, and this script builds its
`analyze` program with the checkout's own Makefile (g++ -O3 -march=native) and runs it:

    git clone https://github.com/tczajka/octal-games && git -C octal-games checkout 30baeb7
    python benchmarks/bench_heap.py --peer octal-games          # or NIMBERS_OCTAL_GAMES=...
    python benchmarks/bench_heap.py --peer-bin path/to/analyze  # an analyze already built
    python benchmarks/bench_heap.py --only 0.16,0.56            # some of the runs

Without a peer only nimbers is timed.  Times are CPU seconds of the thread (nimbers) and of
the child process (the peer, read from /proc as its lines arrive), one core each.  The peer
prints a line at every power of two and stops when it proves a period; runs "to 2^k" stop it
at its 2^k line.  The growth exponent e (time ~ n^e) is measured over the last doubling.
Runs with the peer take about ten minutes (0.376 alone is about seven for the peer).
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import signal
import subprocess
import sys
import time

from nimbers.games.heap import grundy_game, octal_game, subtraction_game

# (name, code, what): "period" proves the period; an int k computes the values to 2^k.
RUNS = [
    ("0.16", "0.16", "period"),
    ("0.56", "0.56", "period"),
    ("0.354", "0.354", "period"),
    ("0.376", "0.376", "period"),
    ("grundy", "grundy", 21),
    ("0.6", "0.6", 21),
    ("0.04", "0.04", 17),
    ("0.06", "0.06", 17),
]


def cpu_line() -> str:
    model, flags = platform.processor() or "?", set()
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as f:
            for line in f:
                if line.startswith("model name") and model in ("?", ""):
                    model = line.split(":", 1)[1].strip()
                if line.startswith("flags"):
                    flags = set(line.split(":", 1)[1].split())
                    break
    except OSError:
        pass
    simd = [f for f in ("sse4_2", "avx2", "avx512bw") if f in flags]
    return f"{model}; {os.cpu_count()} cores; SIMD: {' '.join(simd) or 'none found'}"


# ---- the peer -----------------------------------------------------------------------------


def build_peer(checkout: str) -> str:
    """Builds bin/analyze in the user's checkout with its own Makefile; returns its path."""
    flags = "CXXFLAGS=-O3 -march=native -std=c++11 -Wall -Wextra -pthread"
    subprocess.run(["make", "-C", checkout, "bin/analyze", flags], check=True,
                   stdout=subprocess.DEVNULL)
    return os.path.join(checkout, "bin", "analyze")


def child_cpu(pid: int) -> float:
    """CPU seconds (user + system) of a running child, from /proc."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run_peer(binary: str, code: str, what) -> dict:
    """Runs the peer until it proves the period or prints its 2^k line: its CPU times at each
    power-of-two line and at the end, and what it printed last."""
    p = subprocess.Popen([binary, code], stdout=subprocess.PIPE, text=True, bufsize=1)
    marks, last = {}, ""
    try:
        for line in p.stdout:
            line = line.strip()
            if line.startswith("n=2^"):
                k = int(line[4:].split()[0])
                marks[k] = child_cpu(p.pid)
                last = line
                if what != "period" and k >= what:
                    break
            elif line.startswith("Found period"):
                last = line + "; " + last
                marks["end"] = child_cpu(p.pid)
                break
    finally:
        # not p.kill(): it reaps an exited child; wait4 must, to read the CPU time
        os.kill(p.pid, signal.SIGKILL)
        _, _, usage = os.wait4(p.pid, 0)
        p.returncode = -1
    return {"cpu": usage.ru_utime + usage.ru_stime, "marks": marks, "last": last}


# ---- nimbers ------------------------------------------------------------------------------


def game_of(code: str):
    return grundy_game() if code == "grundy" else octal_game(code)


def run_ours(code: str, what) -> dict:
    game = game_of(code)
    start = time.thread_time()
    if what == "period":
        p = game.period(max_n=1 << 25, progress=False)
        cpu = time.thread_time() - start
        return {"cpu": cpu, "result": str(p), "marks": {}}
    marks = {}
    for k in range(max(what - 2, 1), what + 1):  # the last two doublings, for the exponent
        game.nim_values(1 << k, progress=False)
        marks[k] = time.thread_time() - start
    stats = game.stats(1 << what)
    cpu = time.thread_time() - start
    run = game.last_run
    result = (f"largest g({stats.largest_at}) = {stats.largest}, rare mask {stats.mask:x}"
              f"{' +parity' if stats.parity else ''}, {len(stats.rare_positions)} rare "
              f"(engine: {run.get('sparse_positions', 0)} sparse / "
              f"{run.get('exact_positions', 0)} exact positions in the last call)")
    return {"cpu": cpu, "result": result, "marks": marks}


def exponent(marks: dict, top) -> str:
    """e with time ~ n^e over the last doubling (cumulative times at 2^(top-1), 2^top)."""
    a, b = marks.get(top - 1), marks.get(top)
    if not a or not b or b <= a:
        return "-"
    return f"{math.log2(b / a):.2f}"


def exact_scan(code: str, k: int) -> float:
    """The plain scan alone (method="exact"), the cost of the method of earlier versions."""
    start = time.thread_time()
    game_of(code).nim_values(1 << k, progress=False, method="exact")
    return time.thread_time() - start


def extras() -> None:
    print("\nOther targets (nimbers alone):")
    start = time.thread_time()
    values = octal_game("0.07").nim_values(10**6 + 1, progress=False)
    print(f"  0.07 (Dawson's Kayles) values to 10^6 + 1: {time.thread_time() - start:.3f} s "
          f"(g(10^6) = {values[-1]})")
    game = octal_game("0.07")
    start = time.thread_time()
    game.period()
    value = game.nim_value(10**18)
    print(f"  0.07: period proven and g(10^18) = {value}: {time.thread_time() - start:.4f} s")
    squares = [i * i for i in range(1, 317)]
    start = time.thread_time()
    subtraction_game(squares).nim_values(10**5 + 1, progress=False)
    print(f"  subtraction of the squares, values to 10^5: {time.thread_time() - start:.3f} s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--peer", default=os.environ.get("NIMBERS_OCTAL_GAMES"),
                    help="a checkout of tczajka/octal-games at commit 30baeb7 (built here)")
    ap.add_argument("--peer-bin", default=os.environ.get("NIMBERS_OCTAL_GAMES_BIN"),
                    help="the peer's analyze program, already built")
    ap.add_argument("--only", help="comma-separated run names: " + ",".join(r[0] for r in RUNS)
                    + ",extras")
    args = ap.parse_args()
    only = set(args.only.split(",")) if args.only else None
    binary = args.peer_bin or (build_peer(args.peer) if args.peer else None)
    print(f"CPU: {cpu_line()}")
    print(f"Python {sys.version.split()[0]}; peer: {binary or 'none given (see --help)'}\n")
    print(f"{'run':<9} {'work':<14} {'nimbers':>9} {'peer':>9} {'ratio':>8} {'e ours':>7} "
          f"{'e peer':>7}")
    for name, code, what in RUNS:
        if only and name not in only:
            continue
        work = "prove period" if what == "period" else f"values to 2^{what}"
        ours = run_ours(code, what)
        peer = run_peer(binary, code, what) if binary else None
        ratio = f"{peer['cpu'] / ours['cpu']:.1f}x" if peer else "-"
        top = what if what != "period" else None
        print(f"{name:<9} {work:<14} {ours['cpu']:>8.2f}s "
              f"{(str(round(peer['cpu'], 2)) + 's') if peer else '-':>9} {ratio:>8} "
              f"{exponent(ours['marks'], top) if top else '-':>7} "
              f"{exponent(peer['marks'], top) if peer and top else '-':>7}")
        print(f"          nimbers: {ours['result']}")
        if peer:
            print(f"          peer:    {peer['last']}")
        if what != "period" and code in ("0.04", "0.06"):
            print(f"          plain scan alone (method='exact'): {exact_scan(code, what):.2f} s")
        sys.stdout.flush()
    if not only or "extras" in only:
        extras()


if __name__ == "__main__":
    main()
