"""The web playground under load, on 127.0.0.1 only: requests per second and latency of its
JSON API with 1, 4 and 16 concurrent clients, beside the same library call made directly in
one process (what the HTTP server, the validation and the worker process add).

Each client is a thread with one keep-alive HTTP/1.1 connection that sends its next request
as soon as the answer arrives, for a fixed time per (endpoint, concurrency).  The load is
bounded: a few seconds per measurement, at most 16 connections, never another host.

Run:  python benchmarks/bench_web.py [--seconds 3] [--workers 2]
"""

from __future__ import annotations

import argparse
import http.client
import platform
import statistics
import threading
import time

from nimbers.web import api, make_server, serve_in_thread

# (label, path, the direct call the endpoint makes)
MIX = [
    ("calc mul 64-bit", "/api/calc?op=mul&a=18446744073709551557&b=12345678901234567",
     lambda: api.calculate("mul", 18446744073709551557, 12345678901234567)),
    ("nim hint (3 piles)", "/api/nim/hint?piles=3,5,7",
     lambda: api.nim_hint([3, 5, 7], False)),
    ("mul table 64x64", "/api/table?op=mul&n=64", lambda: api.table("mul", 64)),
    ("kayles hint", "/api/heap/hint?game=kayles&heaps=30,40,50",
     lambda: api.heap_hint("kayles", [30, 40, 50])),
    ("turning corners hint 8x8", "/api/tartan/hint?rows_game=turning-corners&rows=8&cols=8"
     "&heads=2:3,4:5,7:6", lambda: api.tartan_hint("turning-corners", "", (8, 8),
                                                   [(2, 3), (4, 5), (7, 6)])),
]


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def direct_latency(call, rounds: int = 200) -> float:
    """Median seconds of one direct call (warm)."""
    call()
    times = []
    for _ in range(rounds):
        t = time.perf_counter()
        call()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def load(port: int, path: str, clients: int, seconds: float) -> tuple[int, int, list[float]]:
    """(answers 200, other answers, latencies in seconds) of clients hammering one path."""
    latencies: list[float] = []
    counts = {"ok": 0, "other": 0}
    lock = threading.Lock()
    stop = time.perf_counter() + seconds

    def client() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        mine, ok, other = [], 0, 0
        while time.perf_counter() < stop:
            t = time.perf_counter()
            conn.request("GET", path)
            resp = conn.getresponse()
            resp.read()
            mine.append(time.perf_counter() - t)
            if resp.status == 200:
                ok += 1
            else:
                other += 1
        conn.close()
        with lock:
            latencies.extend(mine)
            counts["ok"] += ok
            counts["other"] += other

    threads = [threading.Thread(target=client) for _ in range(clients)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    return counts["ok"], counts["other"], latencies


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="per measurement")
    parser.add_argument("--workers", type=int, default=2, help="worker processes")
    args = parser.parse_args()
    server = make_server("127.0.0.1", 0, workers=args.workers)
    serve_in_thread(server)
    port = server.server_address[1]
    print(f"CPU: {cpu_model()}; Python {platform.python_version()}; "
          f"{args.workers} workers; {args.seconds:g} s a measurement; 127.0.0.1 only")
    print(f"{'endpoint':26} {'clients':>7} {'req/s':>8} {'p50 ms':>8} {'p95 ms':>8} "
          f"{'p99 ms':>8} {'direct ms':>9} {'p50/direct':>10} {'non-200':>7}")
    try:
        for label, path, call in MIX:
            direct = direct_latency(call)
            load(port, path, 1, 0.3)  # warm the workers' caches
            for clients in (1, 4, 16):
                ok, other, lat = load(port, path, clients, args.seconds)
                p50 = statistics.median(lat)
                print(f"{label:26} {clients:7d} {(ok + other) / args.seconds:8.0f} "
                      f"{p50 * 1e3:8.2f} {percentile(lat, 0.95) * 1e3:8.2f} "
                      f"{percentile(lat, 0.99) * 1e3:8.2f} {direct * 1e3:9.3f} "
                      f"{p50 / direct:10.1f} {other:7d}")
    finally:
        server.shutdown()
        server.server_close()


if __name__ == "__main__":
    main()
