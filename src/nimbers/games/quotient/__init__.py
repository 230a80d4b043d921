"""Misère quotients of heap games (Plambeck; Plambeck and Siegel): the monoid that answers
the misère outcome of every sum of heaps of size at most n at once.

* :mod:`.build` -- the construction, heap by heap (the method of A. Siegel's
  MisereSolver, in our own formulation);
* :mod:`.verify` -- the checks that prove a candidate, and P read off a candidate (their
  loops in the C core, csrc/core/quotient.c);
* :mod:`.monoid` -- :class:`MisereQuotient`, the result as a value (table, P-portion,
  pretending function, presentation, JSON);
* :mod:`.presentation` -- generators, normal forms and relations as the papers write them;
* :mod:`.writing` -- the quotient for a terminal, a paper (LaTeX) and a notebook;
* :mod:`.stability` -- what is proved (Q_n) apart from what is only observed; tameness;
* :mod:`.saved` -- the one file format, read as hostile input.

``nimbers heap CODE --quotient N`` is :mod:`nimbers.cli.quotient`.

>>> from nimbers.games import Nim, octal_game
>>> [misere_quotient(Nim(), n).order for n in range(1, 9)]     # misère Nim, heaps <= n
[2, 6, 6, 10, 10, 10, 10, 18]
>>> q = misere_quotient(octal_game("0.75"), 8)
>>> q.orders, q.p_words()
((2, 6, 6, 6, 8, 8, 8, 8), ['a', 'b²'])
"""

from __future__ import annotations

import signal
import threading
import time
from typing import Any

import numpy as np

from ... import _limits
from .build import GiveUp, add_heap, identity_candidate, prove
from .monoid import MisereQuotient
from .saved import check_associative
from .whole import Closure, WholeGame, removal_bound

__all__ = ["misere_quotient", "MisereQuotient", "WholeGame", "proves"]

#: the largest candidate the search builds unless told otherwise
DEFAULT_MAX_ORDER = 2048


def misere_quotient(game: Any, max_heap: int, *, max_order: int = DEFAULT_MAX_ORDER,
                    time_limit: float | None = None, whole: bool = True) -> MisereQuotient:
    """The misère quotient Q_n of a heap game for heaps of size at most max_heap.

    Heap n is added to the proved Q_{n-1} by the mex interpolation (it pretends to be an
    element already there), else as a new generator, recalibrated at the lex-least wrong
    position until the checks of :mod:`.verify` prove it (A. Siegel's MisereSolver; see
    :mod:`.build`).
    Plambeck, "Taming the wild in impartial combinatorial games", INTEGERS 5 (2005) G05;
    Plambeck and Siegel, "Misère quotients for impartial games", JCTA 115 (2008).

    Parameters
    ----------
    game : HeapGame or Nim
        octal and take-and-break codes, subtraction games, Grundy's game, Nim.
    max_heap : int
        n: the largest heap.
    max_order : int
        The largest quotient the search keeps; candidates (reduced) may grow to
        build.WORKING_FACTOR times it on the way, and a proved Q_n past it stops the
        search with its order stated.
    time_limit : float, optional
        Seconds; by default the project's time cap (nimbers._limits: NIMBERS_TIME_LIMIT,
        else 120 s).  When it passes, the search stops with what is proved and says so.
    whole : bool
        True (the default): after each heap, the periodicity theorem of Plambeck and Siegel
        is applied to the proved Q_n (:mod:`.whole`); where its hypotheses hold, Q_n is the
        quotient of the whole game and the search stops there (q.whole says so, with the
        period and pre-period; is_losing then answers any heap sizes).  False: every heap
        up to max_heap is computed (the theorem is still applied to the result).

    Returns
    -------
    MisereQuotient
        Proved for heaps up to its max_heap; when a bound stopped the search first, that is
        the last heap proved and gave_up says where and why.

    Raises
    ------
    TypeError
        not a heap game.
    ValueError
        a bad max_heap, max_order or time_limit.

    >>> from nimbers.games import octal_game
    >>> q = misere_quotient(octal_game("0.07"), 9)           # Dawson's Kayles
    >>> q.order, q.presentation()
    (6, '⟨a, b | a² = 1, b³ = b⟩')
    >>> w = misere_quotient(octal_game("0.75"), 60).whole      # closes at heap 21
    >>> w.proved, w.period, w.preperiod, w.closed_at
    (True, 2, 8, 21)
    """
    heap_moves = _heap_moves_of(game)
    for name, v, top in (("max_heap", max_heap, 100_000), ("max_order", max_order, 1 << 20)):
        if isinstance(v, bool) or not isinstance(v, int) or not (name == "max_heap" or v >= 1) \
                or not 0 <= v <= top:
            raise ValueError(f"{name} must be an int from {0 if name == 'max_heap' else 1} "
                             f"to {top}, got {v!r}")
    seconds = _limits.time_cap(time_limit)
    options: dict[int, list[tuple[int, ...]]] = {0: []}
    # (Q_n, its orders): replaced in one store, so an alarm between two steps leaves both
    # of the same n
    state: tuple[Any, tuple[int, ...]] = (identity_candidate(), ())
    gave_up = None
    code = str(getattr(game, "code", "nim"))
    k = removal_bound(code)
    closure = Closure(k) if whole and isinstance(k, int) else None
    alarm = _Alarm(seconds)
    try:
        with alarm:
            for n in range(1, max_heap + 1):
                try:
                    options[n] = [tuple(left) for _, left in heap_moves(n)]
                    new, _ = add_heap(state[0], n, options, alarm.deadline, max_order)
                except GiveUp as e:
                    gave_up = f"heap {n}: " + (alarm.reason if "time limit" in str(e)
                                               else str(e))
                    break
                state = (new, state[1] + (new.order,))
                if closure is not None and closure.after(new.phi[:n + 1]) is not None:
                    break       # Q_n is the whole game's quotient: no heap can change it
    except _TimeUp:
        if len(state[1]) < max_heap:
            gave_up = f"heap {len(state[1]) + 1}: {alarm.reason}"
    q, orders = state
    name = str(getattr(game, "name", "Nim"))
    table = tuple(tuple(int(v) for v in row) for row in q.mul.tolist())
    p = tuple(int(e) for e in q.p.nonzero()[0])
    return MisereQuotient(name, code, len(orders), max_heap, table, p,
                          tuple(q.phi[:len(orders) + 1]), tuple(orders), gave_up)


class _TimeUp(Exception):
    """The time cap passed (raised by the alarm, inside a check of the C core too: its
    loops run the signal handlers every 20 ms)."""


class _Alarm:
    """A deadline: checked between the search's steps, and on the main thread (when no other
    alarm is set) enforced by SIGALRM as well, so that one long check cannot run past it."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.deadline = time.monotonic() + seconds
        self.cap = f"the time cap of {_limits.describe_seconds(seconds)}"
        self.how = f"pass time_limit= (--quotient-time) or set {_limits.TIME_ENV} to go past it"
        self.reason = f"{self.cap} was reached ({self.how})"
        self._old: Any = None

    def __enter__(self) -> _Alarm:
        if (threading.current_thread() is threading.main_thread()
                and hasattr(signal, "setitimer") and not signal.getitimer(signal.ITIMER_REAL)[0]):
            # (an alarm someone else set is left alone: then the deadline is checked between
            # the search's steps only)
            self._old = signal.signal(signal.SIGALRM, self._ring)
            signal.setitimer(signal.ITIMER_REAL, max(self.seconds, 1e-3))
        return self

    def _ring(self, signum: int, frame: Any) -> None:
        raise _TimeUp(self.reason)

    def __exit__(self, *exc: object) -> None:
        if self._old is not None:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self._old)


def _heap_moves_of(game: Any) -> Any:
    from ..nim import Nim
    if isinstance(game, Nim):
        return lambda h: ((h - j, (j,) if j else ()) for j in range(h))
    if callable(getattr(game, "heap_moves", None)):
        return game.heap_moves
    raise TypeError(f"misere_quotient takes a heap game or Nim, not {type(game).__name__}")


#: the heaps a loaded quotient is first proved on (cheap, and most wrong files fail there)
SMALL_HEAPS = 8


def proves(q: MisereQuotient, game: Any, *, time_limit: float | None = None) -> bool:
    """True when q says the misère outcome of every position of game's heaps up to
    q.max_heap (its P-portion and pretending function checked on every position at once by
    the checks of :mod:`.verify`): what a loaded quotient must pass before it answers.

    A quotient that says it is the whole game's (q.whole) must also be made for a game with
    the same digits: the claim follows from its data and those digits (:mod:`.whole`).

    The cheap part first: the heaps up to SMALL_HEAPS, then the associativity of the table
    (:func:`.saved.check_associative`), then every heap; all within the time cap
    (time_limit, else NIMBERS_TIME_LIMIT, else the default).

    Raises
    ------
    ValueError
        the proof would pass the time cap (the quotient is then not used).

    >>> from nimbers.games import octal_game
    >>> q = misere_quotient(octal_game("0.75"), 8)
    >>> proves(q, octal_game("0.75")), proves(q, octal_game("0.77"))
    (True, False)
    """
    heap_moves = _heap_moves_of(game)
    seconds = _limits.time_cap(time_limit)
    mul = np.array(q.table, dtype=np.int64)
    p = np.zeros(q.order, dtype=bool)
    p[list(q.p_portion)] = True
    options: dict[int, list[tuple[int, ...]]] = {}

    def proved_up_to(upto: int) -> bool:
        for h in range(len(options), upto + 1):
            options[h] = [tuple(left) for _, left in heap_moves(h)]
        return prove(mul, p, q.pretending[:upto + 1], options,
                     time_limit=max(1e-3, alarm.deadline - time.monotonic()))

    if q.whole.proved and not _same_rules(q.code, str(getattr(game, "code", "nim"))):
        return False    # its claim on the whole game is about another game's heaps
    try:
        with _Alarm(seconds) as alarm:
            if not proved_up_to(min(SMALL_HEAPS, q.max_heap)):
                return False
            check_associative(q.table, q.pretending)
            return q.max_heap <= SMALL_HEAPS or proved_up_to(q.max_heap)
    except (GiveUp, _TimeUp):
        raise ValueError(f"proving the quotient for heaps up to {q.max_heap} against "
                         f"{getattr(game, 'name', 'the game')} stopped at {alarm.cap}; "
                         f"{alarm.how}") from None


def _same_rules(code: str, other: str) -> bool:
    """True when two codes name the same moves (the same digits, or the same name)."""
    from ..codes import parse_take_break_code
    try:
        return parse_take_break_code(code).digits == parse_take_break_code(other).digits
    except (ValueError, TypeError):
        return code == other
