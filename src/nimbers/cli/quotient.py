"""``nimbers heap CODE --quotient N``: the misère quotient of a heap game, printed as the
literature writes it (order, P-portion, presentation, heap words) or as JSON."""

from __future__ import annotations

import argparse
import json
from typing import Any

from .options import count_type, seconds_type

from ..games.quotient import misere_quotient

__all__ = ["add_arguments", "run"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The heap command's quotient options."""
    p.add_argument("--quotient", metavar="N", type=count_type(0, 10**6),
                   help="the misère quotient for heaps up to N (Plambeck and Siegel): its "
                        "order, P-portion, presentation and each heap's word; with --json "
                        "the table too (e.g. nimbers heap 0.75 --quotient 10)")
    p.add_argument("--quotient-time", metavar="SECONDS", type=seconds_type, default=None,
                   help="with --quotient: stop after this many seconds, keeping what was "
                        "proved")


def run(game: Any, args: argparse.Namespace) -> str:
    """The report of ``--quotient N`` (ValueError on a bad N, shown as a usage error)."""
    q = misere_quotient(game, args.quotient, time_limit=args.quotient_time)
    if args.json:
        data = q.to_json()
        data.update(order=q.order, proved=q.proved, presentation=q.presentation(),
                    generators=list(q.generators), p_words=q.p_words(),
                    heap_words=q.heap_words())
        return json.dumps(data, ensure_ascii=False)
    return q.summary()


def attach(ruleset: Any, path: str) -> None:
    """``nimbers play GAME --misere --quotient FILE``: the heap game answers misère play
    from the quotient saved there (proved against the game first).

    Raises
    ------
    ValueError
        not a heap game, not a saved quotient, or one that does not prove for this game.
    """
    from ..games.quotient import MisereQuotient
    if not callable(getattr(ruleset, "use_quotient", None)):
        raise ValueError("--quotient is for heap games")
    try:
        q = MisereQuotient.load(path)
    except OSError as e:
        raise ValueError(f"cannot read {path}: {e.strerror}") from None
    ruleset.use_quotient(q)
