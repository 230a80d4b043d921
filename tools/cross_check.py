#!/usr/bin/env python3
"""Cross-checks nimbers against another solver: T. Czajka's ``analyze`` (github.com/tczajka/
octal-games, the C++ program in old/src; never vendored here), built from your checkout of his
repository, run on a few octal codes, its lines compared with nimbers' own figures.

    python tools/cross_check.py --octal-games PATH [--codes 0.16 0.56 ...] [--timeout S]

``analyze CODE`` prints, at every power of two n = 2^k, the largest value and where it first
occurs, the rare mask (the sparse space of Winning Ways ch. 4 / A. Flammenkamp), the number of
rare heap sizes and the last, and stops with "Found period start=S period=P" once the
Guy-Smith condition holds at a power of two.  Each such line is compared with nimbers'
statistics of g(0..n-1) (``games.heap.stats``) and the period with the one nimbers proves
(``HeapGame.period``).  Exit status 0 when every compared figure agrees, 1 naming the first
that differs, 2 when the program cannot be built or read.  M. Rogalski's solver (github.com/
rogalski-wmii-uni-lodz-pl/octal) publishes value frequencies instead, which
``tools/results.py published`` compares.

On 2026-11-28 (octal-games at 57e893a, g++ -O2): 0.16, 0.56, 0.127, 4.064 and 0.354 agree on
every line and on their periods (see docs/certificates.md).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from nimbers.games.heap import octal_game

SOURCES = ("analyze_exec.cc", "game.cc", "game_util.cc", "hadamard.cc", "bit_util.cc")
LINE = re.compile(r"n=2\^(\d+) largest G\[(\d+)\]=(\d+) rare_mask=([0-9a-f]+)(pos)? "
                  r"num_rare=(\d+) last_rare=(\d+)")
#: lines below 2^SMALLEST are not compared: over a handful of values several masks tie, and
#: the two programs break the tie differently (at n = 1, analyze "0", nimbers "0+pos")
SMALLEST = 10
PERIOD = re.compile(r"Found period start=(\d+) period=(\d+)")


def build(checkout: Path, into: Path) -> Path:
    """The analyze binary built from checkout/old/src with g++ -O2."""
    src = checkout / "old" / "src"
    binary = into / "analyze"
    subprocess.run(["g++", "-O2", "-std=c++11", f"-I{src}", "-o", str(binary),
                    *[str(src / name) for name in SOURCES if (src / name).exists()]],
                   check=True)
    return binary


def compare(binary: Path, code: str, timeout: float) -> tuple[list[str], str]:
    """What analyze says of code that nimbers does not (an empty list when all agree), and
    what was compared, in words."""
    try:
        out = subprocess.run([str(binary), code], capture_output=True, text=True,
                             timeout=timeout).stdout
    except subprocess.TimeoutExpired as stopped:
        out = (stopped.stdout or b"").decode() if isinstance(stopped.stdout, bytes) else \
            (stopped.stdout or "")
    lines = [m.groups() for m in LINE.finditer(out)]
    if not lines:
        return [f"{code}: no line of analyze to compare"], ""
    game = octal_game(code)
    top = 1 << max(int(k) for k, *_ in lines)
    wrong = []
    for k, at, largest, mask, pos, rare, last in lines:
        if int(k) < SMALLEST:
            continue
        s = game.stats(1 << int(k))
        theirs = (int(largest), int(at), mask + ("+pos" if pos else ""), int(rare), int(last))
        mine = (s.largest, s.largest_at, s.mask_name, s.rare_count, s.last_rare or 0)
        if theirs != mine:
            wrong.append(f"{code} at 2^{k}: analyze {theirs}, nimbers {mine}")
    found = PERIOD.search(out)
    what = f"its lines at 2^{SMALLEST} .. 2^{max(int(k) for k, *_ in lines)}"
    if found:
        per = game.period(max_n=4 * top)
        if (per.preperiod, per.period) != (int(found[1]), int(found[2])) or not per.proven:
            wrong.append(f"{code}: analyze's period {found[2]} from {found[1]}, nimbers' {per}")
        what += f" and the period {found[2]} from {found[1]}"
    else:
        what += " (no period within the timeout)"
    return wrong, what


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--octal-games", required=True, metavar="PATH",
                   help="a checkout of github.com/tczajka/octal-games")
    p.add_argument("--codes", nargs="+", default=["0.16", "0.56", "0.127", "4.064", "0.354"])
    p.add_argument("--timeout", type=float, default=120.0, metavar="S",
                   help="seconds analyze may take on one code (default 120)")
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        try:
            binary = build(Path(args.octal_games), Path(tmp))
        except (OSError, subprocess.CalledProcessError) as exc:
            print(f"cross_check: cannot build analyze: {exc}", file=sys.stderr)
            return 2
        for code in args.codes:
            wrong, what = compare(binary, code, args.timeout)
            print("\n".join(wrong) if wrong else f"{code}: analyze and nimbers agree on {what}")
            if wrong:
                return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
