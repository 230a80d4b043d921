"""``nimbers heap CODE --quotient N``: the misère quotient of a heap game, written as the
literature writes it (orders, presentation, P-portion, pretending function, what is proved
and what is only observed), as LaTeX (--format tex) or as JSON (--json): the JSON is the
saved-quotient format that ``nimbers play GAME --misere --quotient FILE`` reads back."""

from __future__ import annotations

import argparse
import json
from typing import Any

from .options import count_type, seconds_type

from ..games.quotient import misere_quotient

__all__ = ["add_arguments", "run", "attach"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The heap command's quotient options."""
    p.add_argument("--quotient", metavar="N", type=count_type(0, 100_000),
                   help="the misère quotient for heaps up to N (Plambeck and Siegel): its "
                        "orders, presentation, P-portion and pretending function; with --json "
                        "the file play --quotient reads (e.g. nimbers heap 0.75 --quotient 10)")
    p.add_argument("--quotient-time", metavar="SECONDS", type=seconds_type, default=None,
                   help="with --quotient: stop after this many seconds, keeping what was "
                        "proved (default: NIMBERS_TIME_LIMIT, else 120)")
    p.add_argument("--quotient-order", metavar="M", type=count_type(1, 1 << 20), default=None,
                   help="with --quotient: the largest order the search may build (default "
                        "2048)")
    p.add_argument("--format", choices=["text", "tex"], default="text", dest="quotient_format",
                   help="with --quotient: text wrapped at the terminal's width (default) or "
                        "LaTeX for a paper")


def run(game: Any, args: argparse.Namespace) -> str:
    """The report of ``--quotient N`` (ValueError on a bad N, shown as a usage error)."""
    from ..games.quotient import DEFAULT_MAX_ORDER
    order = DEFAULT_MAX_ORDER if args.quotient_order is None else args.quotient_order
    q = misere_quotient(game, args.quotient, max_order=order, time_limit=args.quotient_time)
    if args.json:
        return json.dumps(q.to_json(), ensure_ascii=False)
    if args.quotient_format == "tex":
        return q.to_tex()
    return q.summary()


def attach(ruleset: Any, path: str) -> None:
    """``nimbers play GAME --misere --quotient FILE``: the heap game answers misère play
    from the quotient saved there (by MisereQuotient.save or ``--quotient N --json``),
    read as hostile input and proved against the game first (the small heaps, then
    associativity, then every heap, all within the time cap).

    Raises
    ------
    ValueError
        not a heap game, not a saved quotient, or one that does not prove for this game.
    """
    from ..games.quotient import MisereQuotient
    if not callable(getattr(ruleset, "use_quotient", None)):
        raise ValueError("--quotient is for heap games")
    ruleset.use_quotient(MisereQuotient.load(path, associativity=False))
