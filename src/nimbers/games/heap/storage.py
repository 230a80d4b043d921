"""Saving and resuming a heap game's values: the values as a .npy file (numpy.load reads it)
and beside it, in that file's name + ".json", the state needed to go on (the game, the count,
a proven period).  A long run saved and loaded again goes on where it stopped.

A name without ".npy" gets it, for saving and loading alike (``kk`` is ``kk.npy`` and
``kk.npy.json``).  Both files are written atomically by :func:`nimbers.files.write_atomically`
(a temporary file beside the target, synced, then renamed over it), so a run killed while
saving leaves the last save whole.  They get the mode any file the user creates gets, 0o666
less the umask (a bare temporary file would be 0o600, private to the user).

Files are input like any other: what is loaded is checked before it is believed -- the state's
size, depth and types, the array's header (shape, dtype, size) before its data is read, the
values against the rules on a sample of heaps, and a saved period against the values (its
proof recomputed, never read) -- and anything wrong is one ValueError naming the file.

>>> import os, tempfile
>>> from nimbers.games.heap import octal_game
>>> with tempfile.TemporaryDirectory() as d:
...     saved = octal_game("0.77")
...     _ = saved.nim_values(100)
...     saved.save(os.path.join(d, "kayles"))
...     sorted(os.listdir(d))
['kayles.npy', 'kayles.npy.json']
"""

from __future__ import annotations

import json
import os
import random
from typing import Any, Callable

import numpy as np

from ...files import write_atomically
from ._args import check_memory
from .periodicity import Periodicity, proof, proof_rule
from .rules import HeapRules
from .values import HeapValues

__all__ = ["save_values", "load_values", "state_path", "values_path"]

_SAVE_FORMAT = "nimbers heap values"
_KINDS = ("octal", "take-break", "subtraction", "grundy")
_DTYPES = (np.dtype(np.uint8), np.dtype(np.uint16), np.dtype(np.uint32))
#: a saved state is a few hundred bytes; anything much larger is not one
_MAX_STATE_BYTES = 1 << 16
#: moves looked at when checking saved values against the rules (about 0.1 s)
_SAMPLE_MOVES = 200_000
#: heaps checked from 0 up before the random ones
_SAMPLE_FIRST = 256


def values_path(path: str | os.PathLike[str]) -> str:
    """The .npy file that holds the values saved under this name: the name itself when it
    ends with ".npy", else the name + ".npy" (as numpy.save writes it)."""
    name = os.fspath(path)
    if not isinstance(name, str) or not name:
        raise ValueError("a file name is needed to save or load heap values, got an empty one")
    return name if name.endswith(".npy") else name + ".npy"


def state_path(path: str | os.PathLike[str]) -> str:
    """Where the state of the values saved under this name is kept."""
    return values_path(path) + ".json"


# ---- saving ------------------------------------------------------------------------------------

def save_values(path: str, store: HeapValues, code: str) -> None:
    """Writes the computed values of store (the game of this code) and their state, each
    atomically.  ValueError for a name that is empty or an existing non-regular file (a
    directory, a device); OSError when the files cannot be written."""
    npy, state_file = values_path(path), state_path(path)
    for name in dict.fromkeys([os.fspath(path), npy, state_file]):
        if os.path.exists(name) and not os.path.isfile(name):
            raise ValueError(f"{name} exists and is not a regular file: heap values are saved "
                             "to a file of their own")
    per = store.proven
    state = {"format": _SAVE_FORMAT, "version": 1, "name": store.name, "code": code,
             "kind": store.kind, "rules": list(store.rules) if store.rules is not None else None,
             "count": store.known,
             "period": None if per is None else
             {"period": per.period, "preperiod": per.preperiod,
              "checked_up_to": per.checked_up_to, "theorem": per.theorem}}
    values = store.g[: store.known]
    write_atomically(npy, lambda f: np.save(f, values, allow_pickle=False))
    write_atomically(state_file, json.dumps(state, indent=1))   # (text is written as UTF-8)


# ---- loading ------------------------------------------------------------------------------------

def load_values(path: str) -> tuple[HeapValues, str]:
    """The values saved by save_values(path, ...) and the game's code, checked."""
    npy, state_file = values_path(path), state_path(path)
    state = _read_state(state_file)
    count = state["count"]
    values = _read_values(npy, count)
    rules = state["rules"]
    store = HeapValues(state["name"], rules, state["kind"])
    store.g, store.known = values, len(values)
    _check_against_rules(npy, HeapRules(state["name"], rules, state["kind"], state["code"]),
                         values)
    if state.get("period") is not None:
        store.proven = _checked_period(state_file, state["period"], store)
    return store, state["code"]


def _read_state(state_file: str) -> dict[str, Any]:
    try:
        with open(state_file, "rb") as f:
            raw = f.read(_MAX_STATE_BYTES + 1)
    except FileNotFoundError:
        raise ValueError(f"no saved state at {state_file} (heap values are saved with it)"
                         ) from None
    except OSError as exc:
        raise ValueError(f"{state_file}: cannot be read ({exc.strerror or exc})") from None
    if len(raw) > _MAX_STATE_BYTES:
        raise ValueError(f"{state_file} is not a saved heap game (over {_MAX_STATE_BYTES:,} "
                         "bytes)")
    try:
        state = json.loads(raw.decode("utf-8"))
    except RecursionError:
        raise ValueError(f"{state_file} is not a saved heap game (nested too deeply)") from None
    except ValueError as exc:  # not UTF-8, not JSON, an integer of too many digits
        raise ValueError(f"{state_file} is not a saved heap game "
                         f"({str(exc).splitlines()[0][:80]})") from None
    return _checked_state(state_file, state)


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _checked_state(state_file: str, state: Any) -> dict[str, Any]:
    """The state with every field of the type and range it must have."""
    def bad(what: str) -> ValueError:
        return ValueError(f"{state_file} is not a saved heap game ({what})")

    if not isinstance(state, dict) or state.get("format") != _SAVE_FORMAT:
        raise bad("no nimbers format marker")
    if state.get("version") != 1:
        raise bad(f"version {state.get('version')!r}; this nimbers reads version 1")
    for key in ("name", "code", "kind"):
        value = state.get(key)
        if not isinstance(value, str) or not 0 < len(value) <= 200 or not value.isprintable():
            raise bad(f"{key} must be a short printable string")
    if state["kind"] not in _KINDS:
        raise bad(f"unknown kind {state['kind'][:40]!r}")
    rules = state.get("rules")
    if state["kind"] == "grundy":
        if rules is not None:
            raise bad("Grundy's game has no digit list")
    elif not (isinstance(rules, list) and 0 < len(rules) <= 64
              and all(_is_int(d) and 0 <= d < 16 for d in rules)):
        raise bad("rules must be a list of digits 0 to 15")
    if not _is_int(state.get("count")) or state["count"] < 1:
        raise bad("count must be a positive int")
    period = state.get("period")
    if period is not None:
        if not isinstance(period, dict) or not all(_is_int(period.get(k))
                                                   for k in ("period", "preperiod")):
            raise bad("period must hold an int period and preperiod")
        if period["period"] < 1 or period["preperiod"] < 0:
            raise bad(f"period {period['period']}, pre-period {period['preperiod']}")
    return state


class _Worded(ValueError):
    """A refusal already worded for the user (a mismatch with the state, the memory cap)."""


def _read_values(npy: str, count: int) -> np.ndarray:
    """The saved array, its header checked (1-D, an unsigned dtype of the engine, as many
    values as the state says, within the memory cap) before its data is read."""
    try:
        with open(npy, "rb") as f:
            version = np.lib.format.read_magic(f)
            if version == (1, 0):
                shape, _, dtype = np.lib.format.read_array_header_1_0(f)
            elif version == (2, 0):
                shape, _, dtype = np.lib.format.read_array_header_2_0(f)
            else:
                raise ValueError(f"numpy format {version}")
            if len(shape) != 1 or dtype not in _DTYPES or shape[0] != count:
                raise _Worded(f"{npy}: the values do not match the saved state ({dtype} of "
                                f"shape {shape}; the state says {count:,} values of uint8, "
                                "uint16 or uint32)")
            try:
                check_memory(count * dtype.itemsize, f"{count:,} saved values")
            except ValueError as exc:
                raise _Worded(str(exc)) from None
            values = np.fromfile(f, dtype=dtype, count=count)
            if len(values) != count or f.read(1):
                raise _Worded(f"{npy}: the values do not match the saved state (the data is "
                                f"not {count:,} values long)")
    except FileNotFoundError:
        raise ValueError(f"{npy}: no saved values there") from None
    except OSError as exc:
        raise ValueError(f"{npy}: cannot be read ({exc.strerror or exc})") from None
    except _Worded:
        raise
    except (ValueError, EOFError, SyntaxError, TypeError) as exc:
        message = str(exc).splitlines()[0][:120] if str(exc) else type(exc).__name__
        raise ValueError(f"{npy} is not a .npy file of heap values ({message})") from None
    if values[0] != 0:
        raise ValueError(f"{npy} does not hold heap values: g(0) = {values[0]}, not 0")
    return values


def _sample(count: int, moves_of: Callable[[int], int]) -> list[int]:
    """Heaps to check: all of the first ones, then random ones (seeded by the count, so a
    file is checked the same way every time) while the moves to look at fit the budget."""
    heaps = list(range(1, min(count, _SAMPLE_FIRST)))
    budget = _SAMPLE_MOVES - sum(moves_of(h) for h in heaps)
    rng = random.Random(count)
    for _ in range(64 if count > _SAMPLE_FIRST else 0):
        h = rng.randrange(_SAMPLE_FIRST, count)
        cost = moves_of(h)
        if cost <= budget:
            heaps.append(h)
            budget -= cost
    return heaps


def _check_against_rules(npy: str, rules: HeapRules, g: np.ndarray) -> None:
    """Each sampled g(h) is the mex of its options' values, from the saved smaller ones."""
    digits = rules.rules

    def moves_of(h: int) -> int:  # an upper bound of the moves from h
        if digits is None:
            return h // 2 + 1
        splits = sum(h // 2 + 1 for d in digits if d & 4)
        triples = sum(h * h // 12 + 1 for d in digits if d & 8)
        return len(digits) + splits + triples

    for h in _sample(len(g), moves_of):
        seen = set()
        for _, parts in rules.heap_moves(h):
            v = 0
            for part in parts:
                v ^= int(g[part])
            seen.add(v)
        mex = 0
        while mex in seen:
            mex += 1
        if int(g[h]) != mex:
            raise ValueError(f"{npy} does not hold the values of {rules.name}: g({h}) is "
                             f"{mex} by the rules, the file says {int(g[h])}")


def _checked_period(state_file: str, saved: dict[str, Any], store: HeapValues) -> Periodicity:
    """The saved period, believed only when a theorem proves it from the saved values: its
    proof (how many values, which theorem) is recomputed, and the values must repeat."""
    rule = proof_rule(store.rules, store.kind)
    p, n0 = saved["period"], saved["preperiod"]
    if rule is None:
        raise ValueError(f"{state_file}: a proven period is saved, but no theorem proves the "
                         f"periods of {store.name}")
    per = proof((p, n0), rule)
    assert per.checked_up_to is not None
    if per.checked_up_to > store.known:
        raise ValueError(f"{state_file}: period {p} with pre-period {n0} needs "
                         f"{per.checked_up_to:,} values to be proven, and {store.known:,} are saved")
    g = store.g[: store.known]
    if not np.array_equal(g[n0 + p:], g[n0: len(g) - p]):
        first = n0 + int(np.nonzero(g[n0 + p:] != g[n0: len(g) - p])[0][0])
        raise ValueError(f"{state_file}: the saved values do not have period {p} from {n0} "
                         f"(g({first}) = {int(g[first])}, g({first + p}) = {int(g[first + p])})")
    return per
