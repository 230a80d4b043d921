#!/usr/bin/env python3
"""Rebuilds and re-checks the results folder (results/): frontier runs of heap games, each a
row below, computed into a work directory (resumable: run the same command again after a
stop) and copied into results/NAME/ without the values files (statistics, proof, rare and
record lists, manifest, picture), with results/README.md's table regenerated.

``census`` runs (or deepens, when WORK/census holds a shallower one) the census of the 1,023
three-digit octal codes to --until heap sizes (default 2^24) with the documented commands and
copies its table into results/census/: the rows (census.jsonl, which ``nimbers census verify
results/census`` re-checks), T. Czajka's and A. Flammenkamp's columns in CSV and Markdown, the
plot, each open class's rare and record values (lists/), and the SHA-256 of each table and
list (SHA256SUMS: the same for every run to the same depth).

    python tools/results.py run [--only NAME ...] [--work DIR] [--threads K]
    python tools/results.py check [--only NAME ...] [--until 2^k]
    python tools/results.py census [--until N] [--promising K] [--export-only] [--work DIR]
    python tools/results.py published [--work DIR]
    python tools/results.py certify [--only NAME ...]
    python tools/results.py lists [--folder results/census4]

``run`` computes (or goes on with) each row; ``check`` first checks each folder against its
SHA256SUMS, then recomputes the row from nothing in a temporary directory, as far as its proof
needed or to its heap count, and compares every claim (stats.json but for its seconds and
threads, proof.json, rare.csv, records.csv, certificate.json); with ``--until 2^k`` only
g(0..2^k-1), against the chain of digests stats.json records, the records and rare values
below 2^k (exit status 1 naming the first row that differs).  ``certify`` writes
the certificate of every proven period (docs/certificates.md): NAME/certificate.json for the
rows above, census/certificates.jsonl for the census's proven classes, each from values made
again here (a census certificate's SHA-256 must be its row's).  ``published``
compares the census's runs in WORK/census/runs with published value frequencies (M. Rogalski's
tables, tests/data/rogalski_frequencies.txt): every count of every table whose heap count a
run reached (exit status 1 when one differs).  ``lists`` writes the rare and record lists of
the open classes of a census folder whose rows were made in memory (results/census4's) and
whose rare heap sizes are at most 1/16 of them, from values made again and checked against
each row's SHA-256.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from nimbers.games.heap import octal_game
from nimbers.notation import read_count
from nimbers.research.census.depth import pieces
from nimbers.research.frontier import (FrontierStats, frontier_run, frontier_stats,
                                       frontier_values)
from nimbers.research.frontier.store import value_from_options

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "results"
COPIED = ("stats.json", "proof.json", "rare.csv", "records.csv", "manifest.json")

#: (folder name, game, heap sizes to reach, what the row is for)
ROWS = [
    ("grundy", "grundy", 2**32, "Grundy's game to 2^32 (A. Flammenkamp: 2^35, 1287 rare)"),
    ("officers", "0.6", 2**30, "Officers to 2^30 (J. P. Grossman: about 2^47)"),
    ("0.16", "0.16", 2**20, "solved (Gangolli and Plambeck 1989): the proof re-made"),
    ("0.56", "0.56", 2**20, "solved (Gangolli and Plambeck 1989): the last exception shown"),
    ("0.127", "0.127", 2**20, "solved (A. Flammenkamp): the position-parity mask 1+pos"),
    ("0.376", "0.376", 2**23, "solved (A. Flammenkamp 2002) in frontier mode"),
    ("0.354", "0.354", 2**25, "solved (A. Flammenkamp 2002) in frontier mode"),
    ("0.1777", "0.1777", 2**29, "solved (A. Flammenkamp; OEIS A071509): a period of 60,620,715"),
]


def _rows(only: list[str] | None) -> list[tuple[str, str, int, str]]:
    rows = [r for r in ROWS if not only or r[0] in only]
    if only and len(rows) != len(set(only) - {"census"}):
        raise SystemExit(f"unknown rows: {sorted(set(only) - {r[0] for r in rows})}")
    return rows


def _copy(run: Path, name: str) -> FrontierStats:
    out = RESULTS / name
    out.mkdir(parents=True, exist_ok=True)
    for file in COPIED:
        if (run / file).exists():
            shutil.copyfile(run / file, out / file)
    stats = frontier_stats(run)
    try:
        from nimbers.research.frontier.picture import frontier_picture
        frontier_picture(run, out / f"{name}.png")
    except ImportError as exc:
        print(f"{name}: no picture ({exc})", file=sys.stderr)
    _write_sums(out)
    return stats


def _table() -> str:
    lines = ["| row | game | heap sizes | largest (first at) | mask | rare (last) | records | "
             "period (from) | values/s | SHA-256 of the values |",
             "|---|---|---:|---:|---|---:|---:|---:|---:|---|"]
    for name, _, _, _ in ROWS:
        path = RESULTS / name / "stats.json"
        if not path.exists():
            continue
        s = FrontierStats.from_json(json.loads(path.read_text()), str(path))
        period = f"{s.period} ({s.preperiod})" if s.proven else "none proven"
        lines.append(f"| {name} | {s.code} | {s.heap_sizes:,} | {s.largest} ({s.largest_at:,}) "
                     f"| {s.mask_name} | {s.rare_count} ({s.last_rare:,}) | {s.records} | {period} "
                     f"| {s.values_per_second:,.0f} | `{s.sha256[:16]}...` |")
    return "\n".join(lines)


def _write_readme() -> None:
    readme = RESULTS / "README.md"
    text = readme.read_text(encoding="utf-8")
    start, end = "<!-- table -->", "<!-- /table -->"
    head, _, rest = text.partition(start)
    _, _, tail = rest.partition(end)
    readme.write_text(f"{head}{start}\n{_table()}\n{end}{tail}", encoding="utf-8")


def run(args: argparse.Namespace) -> int:
    for name, game, until, _ in _rows(args.only):
        began = time.monotonic()
        frontier_run(game, until, Path(args.work) / name, threads=args.threads)
        stats = _copy(Path(args.work) / name, name)
        print(f"{name}: {stats.heap_sizes:,} heap sizes, {time.monotonic() - began:.0f} s "
              f"this session, sha256 {stats.sha256}")
        _write_readme()
    return 0


#: stats.json's fields that say how a run went, not what it found: every other field must be
#: what a fresh run finds
CIRCUMSTANTIAL = ("seconds", "values_per_second", "threads")
SUMS = "SHA256SUMS"


def _summed(folder: Path) -> list[str]:
    """The files SHA256SUMS covers: every other file of folder and of its folders (lists/),
    by their paths from it."""
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*")
                  if p.is_file() and p.relative_to(folder).as_posix() != SUMS)


def _write_sums(folder: Path) -> None:
    """folder/SHA256SUMS: the SHA-256 of every other file there (``sha256sum -c SHA256SUMS``)."""
    lines = [f"{hashlib.sha256((folder / name).read_bytes()).hexdigest()}  {name}"
             for name in _summed(folder)]
    (folder / SUMS).write_text("\n".join(lines) + "\n", encoding="utf-8")


def _sums_problem(folder: Path) -> str | None:
    """What SHA256SUMS says is changed, missing or unlisted in folder, or None."""
    if not (folder / SUMS).exists():
        return f"no {SUMS}"
    pairs = [line.split("  ", 1) for line in
             (folder / SUMS).read_text(encoding="utf-8").splitlines() if line]
    listed = {name: digest for digest, name in pairs}
    present = set(_summed(folder))
    if present != set(listed):
        return f"{SUMS} lists {sorted(set(listed) ^ present)} differently from the folder"
    for name, digest in sorted(listed.items()):
        if hashlib.sha256((folder / name).read_bytes()).hexdigest() != digest:
            return f"{name} is not the file {SUMS} names"
    return None


def _full_differences(folder: Path, fresh: Path) -> list[str]:
    """Every claim of the folder a fresh run to its whole heap count does not make."""
    kept = json.loads((folder / "stats.json").read_text())
    made = frontier_stats(fresh).as_json()
    wrong = [f"stats.json {k}" for k, v in kept.items()
             if k not in CIRCUMSTANTIAL and k != "chain" and made.get(k) != v]
    chain, again = kept.get("chain") or {}, made.get("chain") or {}
    wrong += [f"stats.json chain at {k}" for k, v in chain.items() if again.get(k) != v]
    wrong += [f"stats.json lacks {k}" for k in made if k not in kept and k != "chain"]
    for file in ("proof.json", "rare.csv", "records.csv"):
        ours, theirs = folder / file, fresh / file
        if ours.exists() != theirs.exists() or (
                ours.exists() and ours.read_bytes() != theirs.read_bytes()):
            wrong.append(file)
    return wrong + _certificate_differences(folder, fresh)


def _certificate_differences(folder: Path, fresh: Path) -> list[str]:
    from nimbers.research.certificate import values_sha256

    path = folder / "certificate.json"
    proof = folder / "proof.json"
    if proof.exists() != path.exists():
        return ["certificate.json (a proof without one, or one without a proof)"]
    if not path.exists():
        return []
    cert, claimed = json.loads(path.read_text()), json.loads(proof.read_text())
    same = all(cert.get(k) == claimed.get(k) for k in ("period", "preperiod", "bound")) and \
        frontier_stats(fresh).heap_sizes >= cert["bound"] and \
        cert["sha256"] == values_sha256(frontier_values(fresh, 0, cert["bound"]))
    return [] if same else ["certificate.json"]


def _prefix_differences(folder: Path, fresh: Path, n: int) -> list[str]:
    """The claims about g(0..n-1) that a fresh run to n does not make: the chain's digest at
    n, the records below n, the rare values below n (under the same mask)."""
    kept = json.loads((folder / "stats.json").read_text())
    made = frontier_stats(fresh)
    wrong = [] if (kept.get("chain") or {}).get(str(n)) == (made.chain or {}).get(str(n)) \
        else [f"the chain's digest of g(0..{n - 1})"]
    for file in ("records.csv", "rare.csv"):
        if file == "rare.csv" and kept["mask"] != made.mask_name:
            continue
        ours = [line for line in (folder / file).read_text().splitlines()[1:]
                if int(line.split(",")[0]) < n]
        if ours != (fresh / file).read_text().splitlines()[1:]:
            wrong.append(f"{file} below {n:,}")
    return wrong


def check(args: argparse.Namespace) -> int:
    for name, game, _, _ in _rows(args.only):
        folder = RESULTS / name
        if not (folder / "stats.json").exists():
            print(f"{name}: not computed yet")
            continue
        problem = _sums_problem(folder)
        if problem:
            print(f"{name}: {problem}")
            return 1
        kept = FrontierStats.from_json(json.loads((folder / "stats.json").read_text()),
                                       str(folder / "stats.json"))
        n = kept.heap_sizes if args.until is None else min(kept.heap_sizes, read_count(
            args.until, most=2**48, least=1))
        if n < kept.heap_sizes and str(n) not in (kept.chain or {}):
            print(f"{name}: no digest of g(0..{n - 1}) recorded (its chain has "
                  f"{', '.join(sorted(kept.chain or {}, key=int)) or 'none'})")
            return 2
        began = time.monotonic()
        with tempfile.TemporaryDirectory() as work:
            frontier_run(game, n, work, threads=args.threads, progress=False)
            wrong = (_full_differences(folder, Path(work)) if n == kept.heap_sizes
                     else _prefix_differences(folder, Path(work), n))
        what = "every claim" if n == kept.heap_sizes else "the chain, records and rare values"
        print(f"{name}: {'DIFFERENT: ' + ', '.join(wrong) if wrong else 'the same: ' + what} "
              f"(g(0..{n - 1}) made again, {time.monotonic() - began:.0f} s)")
        if wrong:
            return 1
    return 0


CENSUS = RESULTS / "census"
#: what the census's table is written as: (file, nimbers census export's options)
CENSUS_EXPORTS = (("czajka.csv", ["--format", "csv"]), ("czajka.md", ["--format", "md"]),
                  ("flammenkamp.csv", ["--format", "csv", "--columns", "flammenkamp"]),
                  ("flammenkamp.md", ["--format", "md", "--columns", "flammenkamp"]))


def _nimbers(*args: str) -> None:
    command = [sys.executable, "-m", "nimbers", *args]
    print("$ nimbers " + " ".join(args), flush=True)
    subprocess.run(command, check=True)


def census(args: argparse.Namespace) -> int:
    work = Path(args.work) / "census"
    try:
        import matplotlib  # noqa: F401  (the plot: checked before anything is computed or written)
    except ImportError:
        print("results.py: the census's plot needs matplotlib (pip install 'nimbers[plot]'); "
              "nothing computed or written", file=sys.stderr)
        return 2
    began = time.monotonic()
    if not args.export_only:
        until = args.until or "2^24"
        try:
            if (work / "census.jsonl").exists():
                only = ["--promising", str(args.promising)] if args.promising else []
                _nimbers("census", "deepen", str(work), "--until", until, *only)
            else:
                _nimbers("census", "run", "--digits", "3", "--until", until, "--out", str(work))
        except subprocess.CalledProcessError as exc:    # its one line is on stderr above
            print(f"results.py: the census stopped (exit status {exc.returncode}); "
                  f"{CENSUS} is unchanged", file=sys.stderr)
            return 1
        print(f"census: {time.monotonic() - began:.0f} s this session", flush=True)
    if not (work / "census.jsonl").is_file():
        print(f"results.py: no census table in {work}", file=sys.stderr)
        return 2
    return _publish_census(work)


#: the census's results folder while it is built (beside it), and its old copy while swapped
CENSUS_BUILD, CENSUS_OLD = RESULTS / ".census.build", RESULTS / ".census.old"


def _publish_census(work: Path) -> int:
    """results/census/ made again from a snapshot of WORK/census's table, as a whole or not
    at all: built in a folder beside it from one copy of the table (the rows complete when it
    is read, whatever a deepening appends meanwhile), then swapped in by two renames (a stop
    between them leaves the old folder as results/.census.old, put back by the next run)."""
    _recover_census()
    shutil.rmtree(CENSUS_BUILD, ignore_errors=True)
    if CENSUS.exists():
        shutil.copytree(CENSUS, CENSUS_BUILD)       # README.md and anything else kept
    else:
        CENSUS_BUILD.mkdir(parents=True)
    try:
        _build_census(work, CENSUS_BUILD)
    except (subprocess.CalledProcessError, OSError, ValueError) as exc:
        shutil.rmtree(CENSUS_BUILD, ignore_errors=True)
        print(f"results.py: {exc}; {CENSUS} is unchanged", file=sys.stderr)
        return 1
    if CENSUS.exists():
        CENSUS.rename(CENSUS_OLD)
    CENSUS_BUILD.rename(CENSUS)
    shutil.rmtree(CENSUS_OLD)
    return 0


def _recover_census() -> None:
    """After a stop between the two renames: the old folder back in place, or removed."""
    if CENSUS_OLD.exists():
        if CENSUS.exists():
            shutil.rmtree(CENSUS_OLD)
        else:
            CENSUS_OLD.rename(CENSUS)


def _build_census(work: Path, out: Path) -> None:
    """The census's files in out: the table (a snapshot of WORK's), its exports, the plot,
    the lists and SHA256SUMS, every one made from the snapshot."""
    table = (work / "census.jsonl").read_bytes()
    (out / "census.jsonl").write_bytes(table[:table.rfind(b"\n") + 1])   # whole rows only
    for name, options in CENSUS_EXPORTS:
        _nimbers("census", "export", str(out), *options, "--save", str(out / name))
    _nimbers("census", "report", str(out), "--plot", str(out / "census.png"))
    lists = _copy_lists(work, out)
    # The tables and lists only: census.jsonl also keeps each row's seconds and peak memory,
    # which no two runs share (`census verify` re-checks its rows instead), and the PNG's
    # bytes depend on matplotlib's version.  The tables and lists depend on the depth alone.
    sums = [f"{hashlib.sha256((out / name).read_bytes()).hexdigest()}  {name}"
            for name in [n for n, _ in CENSUS_EXPORTS] + lists]
    (out / "SHA256SUMS").write_text("\n".join(sums) + "\n", encoding="utf-8")
    print("\n".join(sums))


def _copy_lists(work: Path, out: Path) -> list[str]:
    """Each open class's rare values and record values (heap size, value: each new largest
    value and where), from its frontier run as far as its row reached, into
    out/lists/CODE.rare.csv and CODE.records.csv; their names."""
    from nimbers.research.census.report import standing
    from nimbers.research.census.table import read_rows

    folder = out / "lists"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir()
    names = []
    for row in read_rows(str(out), repair=False):     # the snapshot's rows
        if standing(row) != "open":
            continue
        for kind in ("rare", "records"):
            # a run that went on past the row (deepening still) has its later pairs there too
            header, *pairs = (work / "runs" / row["code"] / f"{kind}.csv").read_text().splitlines()
            kept = [header] + [p for p in pairs if int(p.split(",")[0]) < int(row["reached"])]
            name = f"lists/{row['code']}.{kind}.csv"
            (out / name).write_text("\n".join(kept) + "\n", encoding="utf-8")
            names.append(name)
    return names


#: published frequencies of values: "code N value count" lines over the heap sizes 1 .. N
PUBLISHED = ROOT / "tests" / "data" / "rogalski_frequencies.txt"


def _published_tables() -> dict[tuple[str, int], dict[int, int]]:
    tables: dict[tuple[str, int], dict[int, int]] = {}
    for line in PUBLISHED.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            code, n, value, count = line.split()
            tables.setdefault((code, int(n)), {})[int(value)] = int(count)
    return tables


def _frequencies(run: Path, code: str, n: int) -> dict[int, int]:
    """The frequencies of g(1 .. n) in the frontier run there (g(n) by the mex of its options
    when the run stops at n), counted a piece of the values at a time."""
    values = frontier_values(run, 0, n)
    counts = np.zeros(1 << 16, dtype=np.int64)
    for _start, piece in pieces(values):
        counts += np.bincount(piece, minlength=1 << 16)
    counts[values[0]] -= 1      # his counts leave heap 0 out and take heap n in
    counts[value_from_options(values, n, octal_game(code).rules)] += 1
    return {int(v): int(counts[v]) for v in np.flatnonzero(counts)}


def published(args: argparse.Namespace) -> int:
    runs, differ = Path(args.work) / "census" / "runs", 0
    if not runs.is_dir():
        print(f"results.py: no census runs in {runs} (python tools/results.py census --work "
              f"{args.work} makes them)", file=sys.stderr)
        return 2
    for (code, n), theirs in sorted(_published_tables().items()):
        run = runs / code
        held = frontier_stats(run).heap_sizes if (run / "checkpoint.json").exists() else 0
        if held < n:
            print(f"{code} to {n:,}: not reached in {run}")
            continue
        ours = _frequencies(run, code, n)
        wrong = sorted(v for v in set(ours) | set(theirs) if ours.get(v) != theirs.get(v))
        differ += bool(wrong)
        print(f"{code} to {n:,}: " + (f"the same frequencies of all {len(ours)} values"
              if not wrong else f"DIFFERENT counts of the values {wrong[:8]}"))
    return 1 if differ else 0


#: proofs whose values the ordinary engine makes in memory; past it, a frontier run does
ORDINARY_UP_TO = 1 << 24


def _values_to(code: str, bound: int, work: str) -> np.ndarray:
    """g(0 .. bound-1) made again: the ordinary engine, or a frontier run in work."""
    if bound <= ORDINARY_UP_TO:
        return octal_game(code).nim_values(bound)
    frontier_run(code, bound, work, progress=False, stop_at_proof=False)
    return frontier_values(work, 0, bound)


def certify(args: argparse.Namespace) -> int:
    from nimbers.research.census.table import read_rows
    from nimbers.research.certificate import certificate, certificate_lines

    for name, game, _, _ in _rows(args.only):
        path = RESULTS / name / "proof.json"
        if not path.exists():
            continue
        proof = json.loads(path.read_text())
        with tempfile.TemporaryDirectory() as work:
            g = _values_to(game, proof["bound"], work)
            cert = certificate(proof["code"], proof["period"], proof["preperiod"], g,
                               f"results/{name}/proof.json")
        if cert["bound"] != proof["bound"]:
            raise SystemExit(f"{name}: the proof's bound {proof['bound']} is not {cert['bound']}")
        (RESULTS / name / "certificate.json").write_text(json.dumps(cert, indent=1) + "\n")
        _write_sums(RESULTS / name)
        print(f"{name}: period {cert['period']} from {cert['preperiod']}, g(0..{cert['bound'] - 1})")
    if args.only and "census" not in args.only:
        return 0
    certs = []
    for row in read_rows(str(CENSUS), repair=False):
        if row["period"] is None:
            continue
        with tempfile.TemporaryDirectory() as work:
            g = _values_to(row["code"], row["reached"], work)
            cert = certificate(row["code"], row["period"], row["preperiod"], g,
                               "results/census/census.jsonl")
        if cert["sha256"] != row["certificate"]["sha256"]:
            raise SystemExit(f"census {row['code']}: the values made again are not the row's")
        certs.append(cert)
    (CENSUS / "certificates.jsonl").write_text(certificate_lines(certs))
    print(f"census: {len(certs)} certificates")
    return 0


def lists(args: argparse.Namespace) -> int:
    """FOLDER/lists/CODE.rare.csv and CODE.records.csv for every open class of a census
    folder whose row was made in memory (no frontier run to copy them from: the four-digit
    census's rows at 2^16 and 2^18) and whose rare heap sizes are rare (at most 1/DENSE_SHARE
    of those it reached: the others' "rare" lists would hold most of their values), from its
    standard form's values made again by the ordinary engine and checked against the row's
    SHA-256; then FOLDER/SHA256SUMS."""
    from nimbers.research.census.depth import DENSE_SHARE, digests
    from nimbers.research.census.lists import row_lists
    from nimbers.research.census.report import standing
    from nimbers.research.census.table import read_rows

    folder = Path(args.folder)
    shutil.rmtree(folder / "lists", ignore_errors=True)
    (folder / "lists").mkdir()
    made = 0
    for row in read_rows(str(folder), repair=False):
        if standing(row) != "open" or row["engine"] != "memory" or \
                int(row["rare_count"]) * DENSE_SHARE > int(row["reached"]):
            continue
        g = octal_game(row["code"]).nim_values(int(row["reached"]), progress=False)
        if digests(g)[0] != row["certificate"]["sha256"]:
            raise SystemExit(f"{row['code']}: the values made again are not the row's")
        for kind, pairs in zip(("rare", "records"), row_lists(row, g)):
            text = "n,g\n" + "".join(f"{n},{v}\n" for n, v in pairs)
            (folder / "lists" / f"{row['code']}.{kind}.csv").write_text(text, encoding="utf-8")
        made += 1
    _write_sums(folder)
    print(f"{folder}: the lists of {made} open classes made in memory, sparse where they stand")
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("action", choices=("run", "check", "census", "published", "certify",
                                      "lists"))
    p.add_argument("--folder", default=str(RESULTS / "census4"),
                   help="lists: the census folder (default results/census4)")
    p.add_argument("--only", nargs="+", metavar="NAME", help="these rows only")
    p.add_argument("--work", default="runs", help="where the runs are kept (default runs/)")
    p.add_argument("--threads", type=int, default=None, help="threads (default: every CPU)")
    p.add_argument("--until", default=None,
                   help="census: the depth (default 2^24); check: re-check g(0..N-1) only, "
                        "against the chain (N a power of two it records)")
    p.add_argument("--export-only", action="store_true",
                   help="census: copy WORK/census as it stands (while a deepening goes on, "
                        "the levels it finished), computing nothing")
    p.add_argument("--promising", type=int, default=None, metavar="K",
                   help="census: deepen only the K most promising open classes "
                        "(nimbers census deepen --promising)")
    args = p.parse_args(argv)
    return {"run": run, "check": check, "census": census, "published": published,
            "certify": certify, "lists": lists}[
        args.action](args)


if __name__ == "__main__":
    sys.exit(main())
