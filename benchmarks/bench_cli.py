"""The command line on a contest-sized input: ``nimbers mul -`` (one problem a line, batched
through the array path) against the loop a contest user would otherwise write (read a line,
``nim_mul`` on two ints, print), on the same files.  Each method runs in its own process;
the rounds interleave the two, and the figures are medians of the child processes' CPU time
(user + system), which the other processes on a shared machine disturb less than wall time.

Run:  python benchmarks/bench_cli.py      (about a minute)
"""

import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile

LOOP = """
import sys
from nimbers import nim_mul
out = []
for line in sys.stdin:
    a, b = map(int, line.split())
    out.append(str(nim_mul(a, b)))
sys.stdout.write("\\n".join(out) + "\\n")
"""

ROUNDS = 5


def cpu_model():
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return "unknown CPU"


def child_cpu(cmd, path):
    """CPU seconds (user + system) of one run of cmd with the file on standard input."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(path, "rb") as f:
        subprocess.run(cmd, stdin=f, stdout=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main():
    print(f"CPU: {cpu_model()}; {ROUNDS} interleaved rounds, medians of child CPU time")
    cli = [sys.executable, "-m", "nimbers", "mul", "-"]
    loop = [sys.executable, "-c", LOOP]
    rng = random.Random(2026)
    for lines, bits in [(10**6, 64), (10**6, 16), (10**5, 128)]:
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
            for _ in range(lines):
                f.write(f"{rng.getrandbits(bits)} {rng.getrandbits(bits)}\n")
            path = f.name
        try:
            times = {"cli": [], "loop": []}
            for _ in range(ROUNDS):
                times["cli"].append(child_cpu(cli, path))
                times["loop"].append(child_cpu(loop, path))
            c, p = statistics.median(times["cli"]), statistics.median(times["loop"])
            print(f"{lines:>9,} lines of two {bits:>3}-bit numbers: nimbers mul - {c:5.2f} s, "
                  f"Python loop {p:5.2f} s  ->  {p / c:4.2f}x")
        finally:
            os.unlink(path)


if __name__ == "__main__":
    main()
