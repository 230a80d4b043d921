"""Frontier runs: values per second of nimbers' frontier engine for Grundy's game and Officers
(0.6), against a plain rare-value solver and T. Czajka's octal-games solver, side by side.

    python benchmarks/bench_frontier.py                       # to 2^22, about 5 minutes
    python benchmarks/bench_frontier.py --until 24            # the issue's 2^24
    python benchmarks/bench_frontier.py --peer-bin PATH       # or NIMBERS_OCTAL_GAMES_BIN=PATH
    python benchmarks/bench_frontier.py --paths avx2 --threads 1   # one path, one thread count
    python benchmarks/bench_frontier.py --games 0.166,0.364,0.064 --threads 1   # census codes
    python benchmarks/bench_frontier.py --until 24 --threads 1,2,4,8,16 --peers-alongside \
        --log rows.jsonl                                      # a many-core machine

The peers: benchmarks/peers/rare_solver.c (written here, built with cc -O2, one thread: for
each heap size the rare list marks the common values, then the splits are scanned from the
smallest heap until every smaller rare value is found, the full scan when one is missing), and
T. Czajka's `analyze` (GitHub tczajka/octal-games at commit 30baeb7; never vendored: build it
with g++ -O3 -march=native and give its path; skipped with a note when absent).  Each tool is
timed over the last doubling, heap sizes 2^(k-1) .. 2^k, where every method is in its steady
state: the solvers by the CPU time they print or that /proc shows at their 2^(k-1) and 2^k
lines, nimbers by a run to 2^(k-1) and a second run that resumes it to 2^k.  Like the solvers'
lines, nimbers' figure is the interval's own: the seconds its statistics add over the second
run (the engine's steps and the writing of their values, on the wall clock), leaving out the
process's start and the resume (reading back and checking the 2^(k-1) values).  nimbers runs
on every vector path of its block engine this CPU has (AVX-512, AVX2, portable C; forced with
NIMBERS_FRONTIER_PATH), each with every thread count, all resuming one run to 2^(k-1) made once
per game on the widest path (the values do not depend on the path: their SHA-256 is printed).  The whole
second process is printed too: its CPU time (all threads) and wall time, start and resume
included, and the rate that gives.  Run on a quiet machine: the load average is printed.
With --peers-alongside (a machine with cores to spare) the two solvers of every game run at
once, each on a core of its own, while nimbers' runs go on beside them; a run of nimbers that
would leave a peer without a core of its own waits for the peers first.  --log appends one
JSON line per measurement as it is made, so that a run cut short keeps what it measured.
Projections to 2^32 and 2^35 assume the rate of the last doubling (Grundy's game and Officers
have had no new rare value for millions of heap sizes).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_heap import child_cpu, cpu_line

HERE = Path(__file__).resolve().parent
GAMES = {"grundy": ("Grundy's game", "fe"), "0.6": ("Officers (0.6)", "1ee")}


def game_of(code: str) -> tuple[str, str]:
    """(name, the plain solver's mask) of grundy, 0.6 or any other octal code 0.ddd (its
    mask: the one making the fewest of its first 2^16 heap sizes rare, nimbers' census
    convention; a mask using the heap size's parity is refused: the plain solver has none)."""
    if code in GAMES:
        return GAMES[code]
    if not code.startswith("0."):
        raise SystemExit(f"--games: grundy, 0.6 or an octal code 0.ddd, not {code!r}")
    out = subprocess.run([sys.executable, "-c", MASK_SCRIPT, code], env=nimbers_env(),
                         check=True, capture_output=True, text=True).stdout.split()
    emask = int(out[0])
    if emask & 1:
        raise SystemExit(f"{code}: its rare heap sizes depend on their parity (mask "
                         f"{emask >> 1:x}+pos), which the plain solver does not take")
    return f"{code} (census code)", format(emask >> 1, "x")


MASK_SCRIPT = ("import sys; from nimbers.games.heap import octal_game; "
               "from nimbers.research.census.depth import mask_of_values; "
               "g = octal_game(sys.argv[1]); "
               "print(mask_of_values(g.nim_values(1 << 16), tuple(g.rules)))")


def build_plain(folder: str) -> str:
    binary = os.path.join(folder, "rare_solver")
    subprocess.run([os.environ.get("CC", "cc"), "-O2", "-o", binary,
                    str(HERE / "peers" / "rare_solver.c")], check=True)
    return binary


def run_plain(binary: str, code: str, mask: str, k: int) -> dict[str, object]:
    """CPU seconds of the plain solver over 2^(k-1) .. 2^k, and its summary line."""
    out = subprocess.run([binary, code, str(1 << k), mask], check=True, capture_output=True,
                         text=True).stdout.splitlines()
    half = next(float(line.split("seconds=")[1]) for line in out
                if line.startswith(f"n={1 << (k - 1)} "))
    done = out[-1]
    return {"cpu": float(done.split("seconds=")[1].split()[0]) - half,
            "summary": done.split(" ", 2)[2].split(" ", 1)[1]}


def run_czajka(binary: str, code: str, k: int) -> dict[str, object]:
    """CPU seconds of the peer between its 2^(k-1) and 2^k lines (read from /proc)."""
    game = "grundy" if code == "grundy" else code
    p = subprocess.Popen([binary, game], stdout=subprocess.PIPE, text=True, bufsize=1)
    marks: dict[int, float] = {}
    last = ""
    try:
        assert p.stdout is not None
        for line in p.stdout:
            if line.startswith("n=2^"):
                e = int(line[4:].split()[0])
                marks[e] = child_cpu(p.pid)
                last = line.strip()
                if e >= k:
                    break
    finally:
        os.kill(p.pid, signal.SIGKILL)
        os.wait4(p.pid, 0)
    return {"cpu": marks[k] - marks[k - 1], "summary": last}


def child_rusage_run(args: list[str], env: dict[str, str]) -> tuple[str, float, float]:
    began = time.perf_counter()
    p = subprocess.Popen(args, stdout=subprocess.PIPE, text=True, env=env)
    assert p.stdout is not None
    out = p.stdout.read()
    _, status, usage = os.wait4(p.pid, 0)
    if status:
        raise RuntimeError(f"{args[:3]} failed")
    return out, usage.ru_utime + usage.ru_stime, time.perf_counter() - began


SCRIPT = ("import sys, json, dataclasses; from nimbers.research.frontier import frontier_run; "
          "s = frontier_run(sys.argv[1], int(sys.argv[2]), sys.argv[3], "
          "threads=int(sys.argv[4]), progress=False); "
          "print(json.dumps(dataclasses.asdict(s)))")


def nimbers_env(path: str | None = None) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE.parent / "src"),
                                                        os.environ.get("PYTHONPATH", "")])}
    if path:
        env["NIMBERS_FRONTIER_PATH"] = path
    return env


def frontier_paths() -> list[str]:
    """The block engine's paths this CPU runs, widest first."""
    out = subprocess.run([sys.executable, "-c", "from nimbers import _core; "
                          "print(' '.join(_core.frontier_paths()))"], env=nimbers_env(),
                         check=True, capture_output=True, text=True).stdout
    return out.split()[::-1]


def frontier_first(code: str, k: int, folder: str) -> float:
    """A run to 2^(k-1) (widest path, two threads or up to eight where there are the cores):
    its statistics' seconds."""
    threads = max(2, min(os.cpu_count() or 2, 8))
    out, _, _ = child_rusage_run([sys.executable, "-c", SCRIPT, code, str(1 << (k - 1)), folder,
                                  str(threads)], nimbers_env())
    return float(json.loads(out)["seconds"])


def frontier_timed(code: str, k: int, threads: int, path: str, first: tuple[str, float],
                   folder: str) -> dict[str, object]:
    """The run to 2^(k-1) in first[0] (its seconds first[1]) resumed to 2^k in folder."""
    shutil.copytree(first[0], folder)
    out, cpu, wall = child_rusage_run([sys.executable, "-c", SCRIPT, code, str(1 << k), folder,
                                       str(threads)], nimbers_env(path))
    stats = json.loads(out)
    shutil.rmtree(folder)
    return {"cpu": cpu, "wall": wall, "stats": stats, "run": float(stats["seconds"]) - first[1]}


def span(seconds: float) -> str:
    for unit, size in (("days", 86400), ("h", 3600), ("min", 60)):
        if seconds >= size:
            return f"{seconds / size:.1f} {unit}"
    return f"{seconds:.0f} s"


class Peers:
    """The plain solver and Czajka's solver of every game, run one after another, or at once
    (--peers-alongside), each in a thread of its own waiting on its process."""

    def __init__(self, plain_bin: str, peer_bin: str | None, games: list[tuple[str, str]],
                 k: int, alongside: bool, log) -> None:
        self.pool = concurrent.futures.ThreadPoolExecutor(max_workers=max(1, 2 * len(games)))
        self.futures: dict[tuple[str, str], concurrent.futures.Future] = {}
        self.alongside, self.log = alongside, log
        self.jobs = [(code, "plain", lambda code=code, mask=mask: run_plain(plain_bin, code, mask, k))
                     for code, mask in games]
        if peer_bin:
            self.jobs += [(code, "czajka", lambda code=code: run_czajka(peer_bin, code, k))
                          for code, _ in games]
        if alongside:
            for job in self.jobs:
                self._start(*job)

    def _start(self, code: str, tool: str, work) -> None:
        future = self.pool.submit(work)
        future.add_done_callback(lambda f: self.log({"game": code, "tool": tool, **f.result()}))
        self.futures[(code, tool)] = future

    def running(self) -> int:
        return sum(not f.done() for f in self.futures.values())

    def wait_all(self) -> None:
        concurrent.futures.wait(list(self.futures.values()))

    def result(self, code: str, tool: str) -> dict[str, object] | None:
        if (code, tool) not in self.futures:
            job = next((j for j in self.jobs if j[:2] == (code, tool)), None)
            if job is None:
                return None
            self._start(*job)
        return self.futures[(code, tool)].result()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--until", type=int, default=22, help="k: runs to 2^k (default 22)")
    ap.add_argument("--games", default="grundy,0.6",
                    help="grundy, 0.6 and any octal codes 0.ddd, comma-separated (a census "
                         "code's mask: the one making the fewest of its first 2^16 heap sizes "
                         "rare)")
    ap.add_argument("--threads", default="1,2", help="thread counts for nimbers")
    ap.add_argument("--paths", default="all",
                    help="the block engine's paths (avx512,avx2,portable; default all this CPU runs)")
    ap.add_argument("--peer-bin", default=os.environ.get("NIMBERS_OCTAL_GAMES_BIN"),
                    help="T. Czajka's analyze program (octal-games at 30baeb7), built")
    ap.add_argument("--peers-alongside", action="store_true",
                    help="run every game's solvers at once, beside nimbers' runs (a machine "
                         "with cores to spare; nimbers' runs that need their cores wait)")
    ap.add_argument("--log", help="append a JSON line per measurement to this file")
    ap.add_argument("--no-peers", action="store_true",
                    help="time nimbers alone (a short lease): ratios against its own first row")
    args = ap.parse_args()
    k = args.until
    threads = [int(t) for t in args.threads.split(",")]
    paths = frontier_paths() if args.paths == "all" else args.paths.split(",")
    cores = os.cpu_count() or 1

    def log(row: dict[str, object]) -> None:
        if args.log:
            with open(args.log, "a", encoding="utf-8") as f:
                f.write(json.dumps({"until": k, **row}) + "\n")

    print(f"CPU: {cpu_line()}; {cores} logical CPUs")
    print(f"load average at the start: {os.getloadavg()[0]:.1f}; "
          f"Czajka's solver: {args.peer_bin or 'absent (give --peer-bin): skipped'}")
    print(f"timed: heap sizes 2^{k - 1} .. 2^{k} ({1 << (k - 1):,} values); nimbers' paths: "
          f"{', '.join(paths)}{'; the solvers run alongside' if args.peers_alongside else ''}\n")
    half = 1 << (k - 1)
    codes = args.games.split(",")
    with tempfile.TemporaryDirectory() as tmp:
        peers = Peers(build_plain(tmp), None if args.no_peers else args.peer_bin,
                      [] if args.no_peers else [(c, game_of(c)[1]) for c in codes], k,
                      args.peers_alongside, log)
        for code in codes:
            name = game_of(code)[0]
            print(f"{name}:")
            base = os.path.join(tmp, f"{code}-first")
            first = (base, frontier_first(code, k, base))
            ours = []
            for path, t in ((path, t) for path in paths for t in threads):
                if t + peers.running() > cores:
                    peers.wait_all()  # every peer keeps a core of its own
                timed = frontier_timed(code, k, t, path, first, os.path.join(tmp, f"{code}-{t}"))
                stats = timed["stats"]
                assert isinstance(stats, dict)
                run, cpu, wall = (float(timed[key]) for key in ("run", "cpu", "wall"))  # type: ignore[arg-type]
                log({"game": code, "tool": "nimbers", "path": path, "threads": t, "run": run,
                     "cpu": cpu, "wall": wall, "sha256": stats["sha256"],
                     "load": os.getloadavg()[0]})
                print(f"  nimbers, {path}, {t} thread{'s' if t > 1 else ''}: {half / run:,.0f} "
                      f"values/s (run {run:.2f} s; process CPU {cpu:.1f} s, wall {wall:.1f} s)")
                sys.stdout.flush()
                ours.append((path, t, run, cpu, wall, stats))
            plain = peers.result(code, "plain")
            if plain is None:  # --no-peers: against nimbers' first row
                plain_rate = half / ours[0][2]
                rows = []
                print(f"  (no peers: the ratios are against nimbers, {ours[0][0]}, "
                      f"{ours[0][1]} thread{'s' if ours[0][1] > 1 else ''})")
            else:
                plain_rate = half / float(plain["cpu"])  # type: ignore[arg-type]
                rows = [("plain rare-value solver (C, -O2, 1 thread)", plain_rate, "CPU",
                         str(plain["summary"]))]
            peer = peers.result(code, "czajka")
            if peer is not None:
                rows.append(("T. Czajka's octal-games (g++ -O3, 1 thread)",
                             half / float(peer["cpu"]), "CPU",  # type: ignore[arg-type]
                             str(peer["summary"])))
            for path, t, run, cpu, wall, stats in ours:
                whole = half / (cpu if t == 1 else wall)
                rows.append((f"nimbers frontier, {path}, {t} thread{'s' if t > 1 else ''}", half / run,
                             "run", f"largest {stats['largest']} at {stats['largest_at']} rare "
                             f"{stats['rare_count']} last_rare {stats['last_rare']}; sha256 "
                             f"{str(stats['sha256'])[:16]}\n      the whole process: CPU "
                             f"{cpu:.1f} s, wall {wall:.1f} s (start and resume included): "
                             f"{whole:,.0f} values/s by {'CPU' if t == 1 else 'wall'}, "
                             f"{whole / plain_rate:.1f}x"))
            print(f"  {'':<46} {'values/s':>11} {'by':>4} {'vs plain':>9} {'to 2^32':>9} "
                  f"{'to 2^35':>9}")
            for label, rate, by, summary in rows:
                print(f"  {label:<46} {rate:>11,.0f} {by:>4} {rate / plain_rate:>8.1f}x "
                      f"{span(2**32 / rate):>9} {span(2**35 / rate):>9}")
                print(f"      {summary}")
            print(f"  load average now: {os.getloadavg()[0]:.1f}\n")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
