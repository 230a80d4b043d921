"""census: a census of octal games (:mod:`nimbers.research.census`): its arguments and what
it runs.

    nimbers census --digits 3 --out DIR [--until 2^24] [--workers N | --scheduler tcp://H:P]
        [--dense-depth N] [--member-depth N] [--dense-member-depth N]
    nimbers census deepen DIR --until 2^26
    nimbers census verify DIR [--only CODE ...] [--until 2^k] [--full] [--budget S] [--work RUNS]
    nimbers census report DIR [--plot FILE]
    nimbers census export DIR --format md|csv|tex [--columns czajka|flammenkamp] [--save FILE]
    nimbers census compare DIR TABLE

``nimbers census ACTION --help`` shows that action's options only; an option given to an action
that does not take it is refused in one line.  Old spellings: ``--max-n`` (now ``--until``)
and ``export --out FILE`` (now ``--save FILE``: ``--out`` names a census's directory) work,
with a one-line note on stderr.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from typing import Any, Sequence

from .options import Commands, Parser, count_type, read_codes_file, seconds_type, write_out

__all__ = ["census_commands"]

SUMMARY = ("a census of octal games: every code with up to K digits, classes of the same "
           "game, periods proven, resumable, verifiable, on the cores here or a dask cluster")
EXAMPLE = ("nimbers census --digits 3 --until 2^24 --out census3;  nimbers census deepen "
           "census3 --until 2^26;  nimbers census verify census3;  nimbers census report "
           "census3;  nimbers census export census3 --format md")

#: each action: what it does (its help's description) and the options it takes
ACTIONS: dict[str, tuple[str, tuple[str, ...]]] = {
    "run": ("compute the table (the default action): every code of --digits or --codes, each "
            "class taken level by level to --until or proven, its rows in DIR/census.jsonl; "
            "run the same command again after a stop to go on",
            ("--out", "--digits", "--codes", "--until", "--workers", "--scheduler", "--plain",
             "--dense-depth", "--member-depth", "--dense-member-depth")),
    "deepen": ("take the open rows of the census in DIR on to --until (every one, the classes "
               "of --codes, or the --promising K most promising)",
               ("--until", "--codes", "--promising", "--workers", "--scheduler")),
    "verify": ("re-check every row of DIR from scratch by an engine independent of the one "
               "that made it, saying for each row how far and against what (exit 2 naming the "
               "first row that fails)",
               ("--budget", "--work", "--workers", "--scheduler", "--only", "--until", "--full")),
    "report": ("the counts, the frontier, open and capped games and a PNG plot",
               ("--plot", "--json")),
    "export": ("the table in the published columns (T. Czajka's or A. Flammenkamp's), to "
               "standard output or --save FILE", ("--format", "--columns", "--save")),
    "compare": ("every row of DIR that differs from a published TABLE, on the codes both hold "
                "and up to the depth both reached (exit 1 when one does)", ()),
    "misere": ("the misère quotients of every class", (
        "--digits", "--codes", "--out", "--workers", "--scheduler", "--max-heap", "--max-order",
        "--table", "--each-code", "--check")),
}
#: the positional arguments each action's usage shows
_POSITIONALS = {"compare": ("dir", "published")}


def _help_per_action(p: argparse.ArgumentParser) -> None:
    """census ACTION --help shows that action's help only (the command's subparsers parse
    intermixed, options before positionals, so the help action itself never sees ACTION)."""
    parse = p.parse_intermixed_args

    def parse_intermixed_args(args: Sequence[str] | None = None,
                              namespace: argparse.Namespace | None = None
                              ) -> argparse.Namespace:
        words = list(sys.argv[1:] if args is None else args)
        helps = [i for i, w in enumerate(words) if w in ("-h", "--help")]
        named = [w for w in words[:helps[0]] if not w.startswith("-")] if helps else []
        if named and named[0] in ACTIONS:
            sub = action_parser(p.prog, named[0])
            sub.print_help()
            sub.exit()
        return parse(args, namespace)

    setattr(p, "parse_intermixed_args", parse_intermixed_args)


def action_parser(prog: str, action: str) -> argparse.ArgumentParser:
    """A parser holding only action's arguments: its help is ``census ACTION --help``."""
    description, options = ACTIONS[action]
    sub = Parser(prog=f"{prog} {action}", description=description)
    for name in _POSITIONALS.get(action, () if action == "run" else ("dir",)):
        sub.add_argument(name, metavar=name.upper() if name == "dir" else "TABLE",
                         help=_POSITIONAL_HELP[name])
    _declare(sub, set(options))
    if action == "misere":
        from .census_misere import add_misere_arguments
        add_misere_arguments(sub)
    return sub


_POSITIONAL_HELP = {"dir": "the census's directory",
                    "published": "a published table (T. Czajka's columns, whitespace or CSV)"}


def add_arguments(p: argparse.ArgumentParser) -> None:
    _help_per_action(p)
    p.add_argument("action", nargs="?", default=None, choices=tuple(ACTIONS),
                   help="; ".join(f"{name}: {text}" for name, (text, _o) in ACTIONS.items())
                   + ". nimbers census ACTION --help shows an action's options")
    p.add_argument("dir", nargs="?", metavar="DIR",
                   help="the census's directory (for run, the same as --out)")
    p.add_argument("published", nargs="?", metavar="TABLE", help=_POSITIONAL_HELP["published"])
    _declare(p, None)
    p.add_argument("--max-n", type=count_type(64, 2**40), dest="max_n", help=argparse.SUPPRESS)
    from .census_misere import add_misere_arguments   # misere DIR: the misère quotients
    add_misere_arguments(p)


def _declare(p: argparse.ArgumentParser, only: set[str] | None) -> None:
    """The census's own options (all, or those in only)."""
    def add(name: str, **kwargs: Any) -> None:
        if only is None or name in only:
            p.add_argument(name, **kwargs)

    add("--out", metavar="DIR",
        help="run: the census's directory (new, empty, or a census's own): DIR/census.jsonl, "
             "one row per class and depth, appended as classes finish, with the run "
             "directory's manifest.json, progress.log and lock; run again after a kill to go "
             "on")
    add("--until", type=count_type(64, 2**40), metavar="N",
        help="the depth: heap sizes every open class is taken to (default 2^24); a larger one "
             "later continues the open rows (--max-n: its older name); verify: the heap sizes "
             "each row is made again to, at most (a power of two from 2^12: its digests "
             "record each)")
    add("--only", nargs="+", metavar="CODE",
        help="only the rows holding these codes")
    add("--full", action="store_true",
        help="the open rows of the frontier engine made again in full by a fresh frontier run "
             "too (hours for a census to 2^30; without it, by the ordinary engine to a prefix "
             "of at least 2^22 values, compared with the digests the census recorded)")
    add("--format", choices=("md", "csv", "tex"), default="md",
        help="Markdown, CSV or LaTeX (default md)")
    add("--columns", choices=("czajka", "flammenkamp"), default="czajka",
        help="T. Czajka's columns (default) or A. Flammenkamp's; both end with oeis, the OEIS "
             "entries that name a member of the class")
    add("--save", metavar="FILE",
        help="the file the export is written to (default standard output; never one of the "
             "census's own files)")
    add("--digits", type=count_type(1, 9), metavar="K",
        help="every octal code 0.d1..dk and 4.d1..dk with k <= K (K = 3: 1023 games; K = "
             "4: 8191)")
    add("--codes", metavar="FILE",
        help="the codes in FILE instead (one or more a line, like .161 0.36 4.3; '#' starts a "
             "comment); deepen: only their classes")
    add("--promising", type=count_type(1, 4096), metavar="K",
        help="only the K most promising open classes (the longest quiet stretch since a rare "
             "value or record, then the fewest rare values, on their rows at the depth every "
             "open class reached); the choice is kept in DIR/deepen.json, so a stopped run "
             "started again takes the same K; census report lists them")
    add("--budget", type=seconds_type, metavar="SECONDS",
        help="the seconds the ordinary engine may take on the open rows (default 240; proven "
             "and capped rows are made again in full whatever the budget, an open row of the "
             "frontier engine to at least 2^22 values)")
    add("--work", metavar="RUNS",
        help="where verify's own frontier runs go (--full: as large as the census's own runs); "
             "kept, so a verification stopped and started again goes on from their "
             "checkpoints (default: a temporary folder removed at the end, or by the next "
             "verify after a kill)")
    add("--workers", type=count_type(1, 4096), metavar="N",
        help="processes computing at once (default: this machine's cores)")
    add("--scheduler", metavar="tcp://HOST:PORT",
        help="run the games on a dask distributed cluster (dask scheduler and dask worker "
             "started by you; needs pip install 'nimbers[cluster]')")
    add("--plain", action="store_true",
        help="classes of equal sequences as they are, heap 0 on (default: heap sizes that "
             "allow no move dropped first, T. Czajka's convention: 174 classes for K = 3; "
             "plain gives 205)")
    add("--dense-depth", type=count_type(1 << 16, 1 << 40), metavar="N",
        help="the depth rule (recorded in DIR/census.json, kept by deepen and verify; a census "
             "that has rows keeps its own): where a code is first judged dense (no useful "
             "sparse space), a census level 2^16, 2^18, 2^20 ...; judged again at each level "
             "after it, a dense code stops there (its row's cap).  Default 2^20, for --digits "
             "4 2^18: the plain scan a dense code needs costs n^2/2, 5.5-22 s to 2^18 and 86 s "
             "to 2^20 on one core")
    add("--member-depth", type=count_type(1 << 12, 1 << 40), metavar="N",
        help="the depth rule: the members of an open class are compared with its standard "
             "form up to N heap sizes, a power of two (default 2^20; the row's equal_up_to "
             "says how far)")
    add("--dense-member-depth", type=count_type(1 << 12, 1 << 40), metavar="N",
        help="the depth rule: the members of a class capped dense are compared only up to N, "
             "at most --member-depth (default 2^20, for --digits 4 2^16)")
    add("--plot", metavar="FILE.png",
        help="where the plot goes (default DIR/census.png; needs matplotlib)")
    add("--json", action="store_true", help="the counts and rows as JSON")


def run(args: argparse.Namespace) -> str:
    action = args.action or "run"
    if args.published is not None and action != "compare":
        raise ValueError(f"census {action} takes one directory, not {args.published!r} too")
    _only_its_options(args, action)
    if action == "misere":
        from .census_misere import run_misere
        return run_misere(args)
    return {"verify": _verify, "report": _report, "deepen": _deepen, "export": _export,
            "compare": _compare}.get(action, _census)(args)


def _only_its_options(args: argparse.Namespace, action: str) -> None:
    """An option given to an action that does not take it is one line naming the actions
    that do (the old spellings --max-n and export --out work, with a one-line note)."""
    if args.max_n is not None:
        _note("--max-n is the old name of --until (it still works; --max-n of nimbers heap "
              "is a period search's limit)")
    if action == "export" and args.out is not None:
        if args.save is not None:
            raise ValueError("give the export's file once: --save FILE (--out is its old name)")
        _note("census export: --out FILE is now --save FILE (--out names a census's directory)")
        args.save, args.out = args.out, None
    allowed = set(ACTIONS[action][1]) | ({"--max-n"} if action in ("run", "deepen") else set())
    defaults = {"--format": "md", "--columns": "czajka"}
    for name in sorted({o for _t, options in ACTIONS.values() for o in options} | {"--max-n"}):
        value = getattr(args, name[2:].replace("-", "_"), None)
        if name in allowed or value in (None, False, defaults.get(name)):
            continue
        owners = [a for a, (_t, options) in ACTIONS.items() if name in options]
        raise ValueError(f"{name} is for census {' and '.join(owners) or 'run'}, not "
                         f"census {action} (see nimbers census {action} --help)")


def _note(text: str) -> None:
    sys.stderr.write(f"nimbers census: note: {text}\n")


def _directory(args: argparse.Namespace, *, out_ok: bool = False) -> str:
    found = args.dir or (args.out if out_ok else None)
    if args.dir and args.out and args.dir != args.out and out_ok:
        raise ValueError("give the directory once (DIR or --out)")
    if not found:
        action = args.action or "run"
        raise ValueError(f"census {action} needs a directory: nimbers census "
                         f"{'--out DIR' if out_ok else action + ' DIR'}")
    if os.path.exists(found) and not os.path.isdir(found):
        raise ValueError(f"{found} is not a directory")
    return str(found)


def _until(args: argparse.Namespace) -> int | None:
    if args.until is not None and args.max_n is not None and args.until != args.max_n:
        raise ValueError("give --until once (--max-n is its older name)")
    found: int | None = args.until if args.until is not None else args.max_n
    return found


def _census(args: argparse.Namespace) -> str:
    from ..research.census.report import census_report
    from ..research.census.run import DEFAULT_UNTIL, census

    out = _directory(args, out_ok=True)
    if (args.digits is None) == (args.codes is None):
        raise ValueError("give --digits K or --codes FILE")
    codes = read_codes_file(args.codes) if args.codes else None
    until = _until(args)
    census(args.digits, codes=codes, out=out, until=DEFAULT_UNTIL if until is None else until,
           workers=args.workers, scheduler=args.scheduler, offsets=not args.plain,
           rule=_rule(args, out))
    return _summary(census_report(out, plot=None), out)


def _rule(args: argparse.Namespace, out: str) -> Any:
    """The depth rule the options ask for (None when none is given): the rule of the census
    in out (or the default for --digits) with the fields given changed."""
    from ..research.census.run import rule_of

    changes = {name: getattr(args, name) for name in
               ("dense_depth", "member_depth", "dense_member_depth")
               if getattr(args, name) is not None}
    if not changes:
        return None
    try:
        return rule_of(out, args.digits, **changes)
    except ValueError as exc:       # the fields named as the options that set them
        raise ValueError(re.sub(r"\b(dense_member_depth|member_depth|dense_depth)\b",
                                lambda m: "--" + m[1].replace("_", "-"), str(exc))) from None


def _summary(report: Any, out: str) -> str:
    return (f"{str(report).splitlines()[0]}\ntable: {out}/census.jsonl (check it: nimbers "
            f"census verify {out}; read it: nimbers census report {out})")


def _deepen(args: argparse.Namespace) -> str:
    from ..research.census.report import census_report
    from ..research.census.run import deepen

    directory = _directory(args)
    until = _until(args)
    if until is None:
        raise ValueError("census deepen needs --until N (the new depth)")
    only = read_codes_file(args.codes) if args.codes else None
    deepen(directory, until, only=only, promising=args.promising, workers=args.workers,
           scheduler=args.scheduler)
    return _summary(census_report(directory, plot=None), directory)


def _export(args: argparse.Namespace) -> str:
    from ..research.census.table import read_rows, refuse_own_file
    from ..research.export import export_table

    directory = _directory(args)
    rows = read_rows(directory, repair=False)
    if not rows:
        raise ValueError(f"{directory}: no census table to export")
    text = export_table(rows, args.format, args.columns)
    if args.save is None:
        return text.rstrip("\n")
    refuse_own_file(directory, args.save)
    _write_file(args.save, text)
    return f"{args.save}: {len(rows)} rows ({args.format}, {args.columns}'s columns)"


def _write_file(path: str, text: str) -> None:
    """text into path atomically (a special file such as /dev/null: written directly); a
    failure is one line."""
    from ..files import write_atomically

    try:
        if os.path.exists(path) and not os.path.isfile(path):
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
                f.flush()
            return
        write_atomically(path, text)
    except OSError as exc:
        raise ValueError(f"cannot write {path}: {exc.strerror or exc}") from None


def _compare(args: argparse.Namespace) -> str:
    from ..research.census.table import read_rows
    from ..research.export import compare_table

    directory = _directory(args)
    if args.published is None:
        raise ValueError("census compare needs a table: nimbers census compare DIR TABLE")
    found = compare_table(read_rows(directory, repair=False), args.published)
    text = str(found)
    if found.differences:
        write_out(text, sys.stdout)
        raise SystemExit(1)
    return text


def _verify(args: argparse.Namespace) -> str:
    from ..research.census.verify import verify_census

    directory = _directory(args)
    return str(verify_census(directory, budget=240.0 if args.budget is None else args.budget,
                             workers=args.workers, scheduler=args.scheduler,
                             work=args.work, only=args.only, until=_until(args),
                             full=args.full))


def _report(args: argparse.Namespace) -> str:
    from ..research.census.report import census_report

    from ..research.census.table import PLOT, refuse_own_file

    directory = _directory(args)
    if args.plot:
        refuse_own_file(directory, args.plot, allowed=PLOT)
    report = census_report(directory, plot=args.plot or "")
    if args.json:
        data: dict[str, Any] = {k: getattr(report, k) for k in
                                ("codes", "classes", "solved", "trivial", "frontier", "open", "capped",
                                 "promising", "plot", "plot_note")}
        return json.dumps(data, indent=1)
    return str(report)


def census_commands(commands: Commands) -> None:
    """census [run|deepen|verify|report|export|compare]."""
    add_arguments(commands.add("census", SUMMARY, EXAMPLE, run))
