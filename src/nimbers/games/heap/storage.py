"""Saving and resuming a heap game's values: the values as a .npy file (numpy.load reads it)
and beside it, in path + ".json", the state needed to go on (the game, the count, a proven
period).  A long run saved and loaded again goes on where it stopped.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from .periodicity import Periodicity
from .values import HeapValues

__all__ = ["save_values", "load_values", "state_path"]

_SAVE_FORMAT = "nimbers heap values"


def state_path(path: str) -> str:
    """Where the state of the values saved at path is kept."""
    return path + ".json"


def save_values(path: str, store: HeapValues, code: str) -> None:
    """Writes the computed values of store (the game of this code) and their state."""
    np.save(path, store.g[: store.known], allow_pickle=False)
    per = store.proven
    state = {"format": _SAVE_FORMAT, "version": 1, "name": store.name, "code": code,
             "kind": store.kind, "rules": list(store.rules) if store.rules is not None else None,
             "count": store.known,
             "period": None if per is None else
             {"period": per.period, "preperiod": per.preperiod,
              "checked_up_to": per.checked_up_to, "theorem": per.theorem}}
    with open(state_path(path), "w", encoding="utf-8") as f:
        json.dump(state, f, indent=1)


def load_values(path: str) -> tuple[HeapValues, str]:
    """The values saved by save_values(path, ...) and the game's code."""
    try:
        with open(state_path(path), encoding="utf-8") as f:
            state = json.load(f)
    except FileNotFoundError:
        raise ValueError(f"{path}: no saved state beside it ({state_path(path)})") from None
    if not isinstance(state, dict) or state.get("format") != _SAVE_FORMAT:
        raise ValueError(f"{state_path(path)} is not a saved heap game")
    values = np.load(path, allow_pickle=False)
    try:
        store = _store_from_state(path, state, values)
        code = str(state["code"])
    except (KeyError, TypeError) as exc:
        raise ValueError(f"{state_path(path)}: not a saved heap game ({exc!r})") from None
    store.g, store.known = values.copy(), len(values)
    return store, code


def _store_from_state(path: str, state: dict[str, Any], values: np.ndarray) -> HeapValues:
    if values.ndim != 1 or values.dtype not in (np.uint8, np.uint16, np.uint32) or \
            len(values) != state["count"] or not len(values) or values[0] != 0:
        raise ValueError(f"{path}: the values do not match the saved state")
    rules = state["rules"]
    if rules is not None and not all(isinstance(d, int) and 0 <= d < 16 for d in rules):
        raise ValueError(f"{state_path(path)}: bad rules {rules!r}")
    store = HeapValues(str(state["name"]), rules, str(state["kind"]))
    per = state.get("period")
    if per is not None:
        store.proven = Periodicity(int(per["period"]), int(per["preperiod"]), True,
                                   int(per["checked_up_to"]), str(per["theorem"]))
    return store
