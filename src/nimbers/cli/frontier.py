"""``nimbers heap CODE --frontier --until N --checkpoint DIR``: the options of a frontier run
(:mod:`nimbers.research.frontier`) and what the command prints."""

from __future__ import annotations

import argparse
import json

from .options import UsageError, count_type, seconds_type

__all__ = ["add_arguments", "run_command", "frontier_asked"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The frontier options of ``nimbers heap``."""
    group = parser.add_argument_group(
        "frontier runs", "long runs in bounded memory, every value streamed to DIR/values.bin, "
        "checkpointed, the period proven as soon as the values prove it; the same command "
        "started again goes on from the last checkpoint (e.g. nimbers heap grundy --frontier "
        "--until 2^28 --checkpoint runs/grundy)")
    group.add_argument("--frontier", action="store_true",
                       help="a frontier run (Grundy's game and take-and-break codes whose "
                            "moves leave at most two heaps, such as 0.6)")
    group.add_argument("--until", type=count_type(1, 2**48 - 1), metavar="N",
                       help="heap sizes to reach: 0 .. N-1 (e.g. 2^28, 10^9)")
    group.add_argument("--checkpoint", metavar="DIR", help="the run's directory")
    group.add_argument("--threads", type=count_type(1, 64), metavar="K",
                       help="threads (default: every CPU available; the block engine, which "
                       "makes nearly every value of a long run, uses at most four: with two one "
                       "prepares and one settles, with three or four the settling speculates "
                       "and the others prove; a game whose values stay below 64 uses one); "
                       "the values do not change")
    group.add_argument("--interval", type=seconds_type, default=60.0, metavar="SECONDS",
                       help="seconds between checkpoints and progress lines (default 60)")
    group.add_argument("--go-on", action="store_true",
                       help="keep computing to --until after the period is proven (by "
                            "default a run stops at its proof)")
    group.add_argument("--fresh", action="store_true",
                       help="start afresh in DIR, deleting the run there (by default a "
                            "directory holding anything but a run of this game is refused)")


def frontier_asked(args: argparse.Namespace) -> bool:
    """Whether the command line asks for a frontier run (or names one of its options)."""
    return bool(args.frontier or args.until is not None or args.checkpoint is not None)


def run_command(args: argparse.Namespace) -> str:
    """``nimbers heap CODE --frontier ...``: runs, and returns the statistics as text or JSON."""
    from ..games.catalogue import heap_game
    from ..research.frontier import frontier_run
    if not args.frontier:
        used = [o for o in ("until", "checkpoint") if getattr(args, o) is not None]
        raise UsageError(f"--{used[0] if used else 'until'} comes with --frontier")
    if args.until is None or args.checkpoint is None:
        raise UsageError("--frontier needs --until N and --checkpoint DIR (e.g. nimbers heap "
                         "grundy --frontier --until 2^24 --checkpoint runs/grundy)")
    if not args.checkpoint.strip():
        raise UsageError("--checkpoint needs a directory name, not an empty one")
    stats = frontier_run(heap_game(args.code), args.until, args.checkpoint,
                         threads=args.threads, interval=args.interval,
                         stop_at_proof=not args.go_on, fresh=args.fresh)
    if getattr(args, "json", False):
        return json.dumps(stats.as_json(), indent=1)
    return stats.summary()
