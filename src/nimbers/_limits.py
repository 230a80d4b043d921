"""The memory cap, how much one computation may allocate before it refuses up front, and
the time cap, how long work counted before it starts may be estimated to run (at the end).

Anything that allocates in proportion to a number the caller typed estimates the bytes
first and calls :func:`check_bytes`, which raises a one-line ``ValueError`` naming the size,
the cap and how to go past it, instead of letting the process grow until the kernel kills
it.  The cap is, in order of precedence:

1. a ``memory_limit=`` keyword of the function called (set for the call with
   :func:`memory_limit`);
2. the environment variable ``NIMBERS_MEMORY_LIMIT``: bytes, or a number with a K, M, G or T
   suffix (powers of 1024), e.g. ``NIMBERS_MEMORY_LIMIT=16G``;
3. a quarter of physical memory, and never more than half of an address-space limit set
   with ``ulimit -v`` / ``resource.setrlimit(RLIMIT_AS)``.

Whatever the cap, a large allocation (:data:`AVAILABLE_CHECKED_FROM` bytes or more) is also
refused when it would take more than nine tenths of the memory available now (Linux's
``MemAvailable``), since it would then swap or be killed: a cap raised on purpose cannot make
memory that is not there.

>>> parse_size("2G") == 2 * 1024**3
True
>>> with memory_limit(1000):
...     check_bytes(5000, "a table of 625 values", "pass memory_limit=")  # doctest: +ELLIPSIS
Traceback (most recent call last):
    ...
ValueError: a table of 625 values would need 4.9 KiB, over the memory cap of 1000 B; pass ...
"""

from __future__ import annotations

import contextlib
import contextvars
import math
import os
import re
from typing import Callable, Iterator, TypeVar

__all__ = ["memory_cap", "check_bytes", "memory_limit", "parse_size", "describe_bytes",
           "available_memory", "available_cpus", "time_cap", "check_time", "time_limit", "parse_seconds",
           "seconds_setting"]

#: the environment variable that sets the cap
ENV = "NIMBERS_MEMORY_LIMIT"
#: the part of physical memory one computation may take by default
PHYSICAL_FRACTION = 4
#: assumed physical memory where the system cannot say (sysconf missing, e.g. Windows)
FALLBACK_PHYSICAL = 8 * 1024**3
#: allocations from this size on are checked against the memory available now too; smaller
#: ones cannot exhaust a machine that runs Python, and are not worth reading /proc for
AVAILABLE_CHECKED_FROM = 64 * 1024**2
#: the part of the available memory one allocation may take (the rest of the process grows too)
AVAILABLE_FRACTION = 0.9

_override: contextvars.ContextVar[int | None] = contextvars.ContextVar(
    "nimbers_memory_limit", default=None)

#: the environment variable that sets the time cap (seconds)
TIME_ENV = "NIMBERS_TIME_LIMIT"
#: the estimated seconds one computation may take by default, where the work can be counted
#: before it starts (listing move sets, say) and no faster method applies
DEFAULT_TIME = 120.0

_time_override: contextvars.ContextVar[float | None] = contextvars.ContextVar(
    "nimbers_time_limit", default=None)

_UNITS = {"": 1, "B": 1, "K": 1024, "M": 1024**2, "G": 1024**3, "T": 1024**4}


def parse_size(text: str) -> int:
    """Bytes from ``"123"``, ``"512M"``, ``"16G"``, ``"1.5T"`` (suffixes in powers of 1024).

    Raises
    ------
    ValueError
        When the text is not a non-negative number with an optional K/M/G/T suffix.
    """
    m = re.fullmatch(r"\s*(\d+(?:\.\d*)?)\s*([KMGTB]?)(?:i?B)?\s*", str(text), re.IGNORECASE)
    if not m:
        raise ValueError(f"a memory size must be bytes or a number with K, M, G or T, "
                         f"got {text!r}")
    return int(float(m.group(1)) * _UNITS[m.group(2).upper()])


def _physical_memory() -> int:
    try:
        return int(os.sysconf("SC_PAGE_SIZE")) * int(os.sysconf("SC_PHYS_PAGES"))
    except (AttributeError, ValueError, OSError):
        return FALLBACK_PHYSICAL


def _address_space_limit() -> int | None:
    """The soft RLIMIT_AS of this process, or None when unlimited or unknown."""
    try:
        import resource
    except ImportError:  # Windows
        return None
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    return None if soft == resource.RLIM_INFINITY or soft <= 0 else int(soft)


def available_memory() -> int | None:
    """Bytes of memory available now (Linux: ``MemAvailable`` of /proc/meminfo, elsewhere
    the free physical pages), or None when the system cannot say.

    >>> free = available_memory()
    >>> free is None or free > 0
    True
    """
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024  # given in KiB
    except (OSError, ValueError, IndexError):
        pass
    try:
        return int(os.sysconf("SC_AVPHYS_PAGES")) * int(os.sysconf("SC_PAGE_SIZE"))
    except (AttributeError, ValueError, OSError):
        return None


def available_cpus() -> int:
    """The CPUs this process may run on: its affinity mask where the system has one (Linux;
    a container or ``taskset`` narrows it), else the machine's count (macOS, Windows), at
    least 1.  The default count of a frontier run's threads and of a census's workers.

    >>> available_cpus() >= 1
    True
    """
    affinity = getattr(os, "sched_getaffinity", None)
    if affinity is not None:
        try:
            return max(1, len(affinity(0)))
        except OSError:
            pass
    return max(1, os.cpu_count() or 1)


def memory_cap() -> int:
    """The most bytes one computation may allocate (see the module for the order).

    Returns
    -------
    int
        The cap in bytes.

    Raises
    ------
    ValueError
        When ``NIMBERS_MEMORY_LIMIT`` is set but is not a size.

    >>> with memory_limit("1M"):
    ...     memory_cap()
    1048576
    """
    chosen = _chosen(_override, ENV, parse_size)
    if chosen is not None:
        return chosen
    cap = _physical_memory() // PHYSICAL_FRACTION
    limit = _address_space_limit()
    # the interpreter and numpy already hold part of a capped address space
    return cap if limit is None else min(cap, limit // 2)


_T = TypeVar("_T")


def _chosen(override: contextvars.ContextVar[_T | None], env: str,
            parse: Callable[[str], _T]) -> _T | None:
    """A cap set for this call (a keyword, through the context variable), else the
    environment variable's, else None: the order every cap follows."""
    value = override.get()
    if value is not None:
        return value
    text = os.environ.get(env, "").strip()
    return parse(text) if text else None


def describe_bytes(nbytes: float) -> str:
    """A size as a person reads it: ``"4.9 KiB"``, ``"711.0 PiB"``.

    >>> describe_bytes(3 * 1024**3), describe_bytes(2**101)
    ('3.0 GiB', '2^101 bytes')
    """
    if nbytes < 1024:
        return f"{int(nbytes)} B"
    if nbytes >= 1024**7:
        return f"2^{int(nbytes).bit_length() - 1} bytes"
    for unit in ("KiB", "MiB", "GiB", "TiB", "PiB", "EiB"):
        nbytes /= 1024
        if nbytes < 1024 or unit == "EiB":
            return f"{nbytes:.1f} {unit}"
    raise AssertionError("unreachable")  # pragma: no cover


def check_bytes(nbytes: int, what: str, how_to_raise: str,
                instead: str = "ask for less") -> None:
    """Refuse at once when ``what`` would need more than :func:`memory_cap` bytes, or (from
    :data:`AVAILABLE_CHECKED_FROM` bytes on) more than the memory available now.

    Parameters
    ----------
    nbytes : int
        The estimated allocation (an upper bound, or a close estimate).
    what : str
        What would be allocated, as the message should name it ("a table of 10^9 values").
    how_to_raise : str
        How to go past the cap in this function ("pass memory_limit='32G'"); the message
        adds the environment variable.
    instead : str
        What to do when the memory is not there, whatever the cap ("ask for less").

    Raises
    ------
    ValueError
        One line: the size, the cap or the memory available, and how to go past it or what
        to do instead.

    >>> check_bytes(100, "a tiny list", "pass memory_limit=")     # under the cap: nothing
    """
    cap = memory_cap()
    if nbytes > cap:
        raise ValueError(f"{what} would need {describe_bytes(nbytes)}, over the memory cap of "
                         f"{describe_bytes(cap)}; {how_to_raise} or set {ENV} (bytes, or with "
                         "a K/M/G suffix) to go past it")
    if nbytes < AVAILABLE_CHECKED_FROM:
        return
    available = available_memory()
    if available is not None and nbytes > available * AVAILABLE_FRACTION:
        raise ValueError(f"{what} would need {describe_bytes(nbytes)}, more than the "
                         f"{describe_bytes(available)} of memory available now; {instead}")


@contextlib.contextmanager
def memory_limit(limit: int | str | None) -> Iterator[None]:
    """Within the block, :func:`memory_cap` is ``limit`` (bytes or a size string); None
    leaves the cap as it is.  Per thread and per task (a context variable).

    This is how a function's ``memory_limit=`` keyword reaches every check it makes.
    """
    if limit is None:
        yield
        return
    value = parse_size(limit) if isinstance(limit, str) else int(limit)
    if value < 0:
        raise ValueError(f"memory_limit must be non-negative, got {limit!r}")
    token = _override.set(value)
    try:
        yield
    finally:
        _override.reset(token)


# ---- the time cap ------------------------------------------------------------------------------
# The same idea for work that loops instead of allocating: where the steps can be counted
# before the first one (move sets to list, say), their count over a measured rate estimates
# the time, and work estimated past the cap is refused at once.  Cap: a ``time_limit=``
# keyword (:func:`time_limit`), else ``NIMBERS_TIME_LIMIT`` (seconds), else DEFAULT_TIME.


def time_cap(time_limit: float | str | None = None) -> float:
    """The most seconds of estimated work one computation may start: ``time_limit`` when
    given (a function's keyword), else the cap set for the call (:func:`time_limit`), else
    ``NIMBERS_TIME_LIMIT``, else :data:`DEFAULT_TIME` -- the one place this is decided.

    >>> with time_limit(5):
    ...     time_cap(), time_cap(2)
    (5.0, 2.0)
    """
    if time_limit is not None:
        return parse_seconds(time_limit, "time_limit")
    chosen = _chosen(_time_override, TIME_ENV, lambda text: parse_seconds(text, TIME_ENV))
    return DEFAULT_TIME if chosen is None else chosen


#: the most seconds any setting of seconds may say (about 31 years: more is a slip of the
#: keyboard, and a deadline that far would overflow some clocks' arithmetic)
MOST_SECONDS = 1e9


def parse_seconds(value: float | str, name: str, *, positive: bool = False,
                  most: float = MOST_SECONDS) -> float:
    """A number of seconds, from a number or its text (``"60"``, ``"2.5"``, ``"1e4"``): the
    one reader of seconds, for keywords, environment variables and command-line options.

    Parameters
    ----------
    value : float or str
        What was given.
    name : str
        What it was given as, for the message (``"time_limit"``; empty where the message
        is prefixed with it already, as argparse does).
    positive : bool
        Refuse 0 too (an interval or a wait; a cap of 0 refuses all counted work, which
        tests use).
    most : float
        The largest number accepted.

    Raises
    ------
    ValueError
        One line naming ``name``, the range and what was given (a bool, NaN, an infinity or
        a text that is not a number are refused).

    >>> parse_seconds("2.5", "--interval"), parse_seconds(0, "time_limit")
    (2.5, 0.0)
    >>> parse_seconds("soon", "NIMBERS_TIME_LIMIT")
    Traceback (most recent call last):
        ...
    ValueError: NIMBERS_TIME_LIMIT is a number of seconds from 0 to 10^9, got 'soon'
    """
    top = f"10^{int(math.log10(most))}" if most >= 10 and math.log10(most).is_integer() \
        else f"{most:g}"
    span = f"above 0 and at most {top}" if positive else f"from 0 to {top}"
    shown = value[:40] if isinstance(value, str) else value
    what = f"{name + ' is ' if name else ''}a number of seconds {span}, got {shown!r}"
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise ValueError(what)
    if isinstance(value, str) and not value.strip().isascii():
        raise ValueError(what)  # float() reads other scripts' digits: not a setting's spelling
    try:
        seconds = float(value)
    except (ValueError, OverflowError):
        raise ValueError(what) from None
    if not (0 < seconds <= most if positive else 0 <= seconds <= most):
        raise ValueError(what)
    return seconds


def seconds_setting(given: float | str | None, env: str, default: float, *,
                    keyword: str = "the keyword", most: float = MOST_SECONDS) -> float:
    """A positive number of seconds set in the order every setting follows: ``given`` (a
    keyword) when not None, else the environment variable ``env``, else ``default``.

    >>> seconds_setting(None, "NIMBERS_NO_SUCH_SETTING", 120.0), seconds_setting(5, "X", 1.0)
    (120.0, 5.0)
    """
    if given is not None:
        return parse_seconds(given, keyword, positive=True, most=most)
    text = os.environ.get(env, "").strip()
    return parse_seconds(text, env, positive=True, most=most) if text else default


def describe_seconds(seconds: float) -> str:
    """A duration as a person reads it: ``"40 s"``, ``"12 min"``, ``"3.5 h"``, ``"2.1e+04
    years"``.

    >>> describe_seconds(42), describe_seconds(4000), describe_seconds(1e12)
    ('42 s', '67 min', '3.2e+04 years')
    """
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    if seconds < 86400 * 365:
        return f"{seconds / 3600:.1f} h"
    years = seconds / (86400 * 365)
    return f"{years:.0f} years" if years < 1000 else f"{years:.1e} years"


def check_time(steps: int, rate: float, what: str, how_to_raise: str) -> None:
    """Refuse at once when ``steps`` at ``rate`` a second would pass :func:`time_cap`.

    Parameters
    ----------
    steps : int
        The work counted before it starts (an upper bound, or a close estimate).
    rate : float
        Steps a second, as measured for this kind of step (the estimate is only as good as
        this machine is like the one it was measured on).
    what : str
        The work, as the message should name it ("listing 10^9 move sets").
    how_to_raise : str
        How to go past the cap in this function ("pass time_limit= (seconds)"); the
        message adds the environment variable.

    Raises
    ------
    ValueError
        One line: the work, the time it would take, the cap, and how to raise it.

    >>> check_time(1000, 1e6, "listing 1,000 move sets", "pass time_limit=")   # 1 ms: fine
    """
    cap = time_cap()
    seconds = steps / rate
    if seconds > cap:
        raise ValueError(f"{what} would take about {describe_seconds(seconds)}, over the time "
                         f"cap of {describe_seconds(cap)}; {how_to_raise} or set {TIME_ENV} "
                         "(seconds) to go past it")


@contextlib.contextmanager
def time_limit(limit: float | str | None) -> Iterator[None]:
    """Within the block, :func:`time_cap` is ``limit`` (seconds); None leaves it as it is.
    Per thread and per task (a context variable), like :func:`memory_limit`."""
    if limit is None:
        yield
        return
    token = _time_override.set(parse_seconds(limit, "time_limit"))
    try:
        yield
    finally:
        _time_override.reset(token)
