"""Fuzzes the loading of saved heap values (``HeapGame.load``, ``nimbers heap --resume``): the
state JSON and the .npy file, each either whole bytes from the fuzzer or a good save with one
part replaced by a fuzzed value (nested lists and objects of any depth, ints of any size,
strings, floats, wrong dtypes and shapes, truncated data).  A load must raise ValueError (a
clear, one-line refusal) or give a game whose answers are the true ones: every value it
holds, and the values by its period far beyond them.

    python fuzz/fuzz_saved_state.py -atheris_runs=100000
"""

import io
import json
import os
import sys
import tempfile

import atheris
import numpy as np

with atheris.instrument_imports(include=["nimbers"]):
    from nimbers.games.heap import HeapGame, octal_game

GAME = octal_game("0.77")
GAME.period()
TRUTH = GAME.nim_values(4096)
FOLDER = tempfile.mkdtemp(prefix="nimbers-fuzz-", dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
PATH = os.path.join(FOLDER, "state.npy")
GAME.save(PATH)
with open(PATH + ".json") as _f:
    GOOD_STATE = json.load(_f)
GOOD_VALUES = np.load(PATH)
FIELDS = ["format", "version", "name", "code", "kind", "rules", "count", "period"]
DTYPES = [np.uint8, np.uint16, np.uint32, np.uint64, np.int8, np.int64, np.float64, np.bool_]


def fuzzed_json(fdp, depth=0):
    """A JSON value: mostly small, sometimes deep or large."""
    kind = fdp.ConsumeIntInRange(0, 9)
    if kind == 0:
        return None
    if kind == 1:
        return fdp.ConsumeBool()
    if kind == 2:
        return fdp.ConsumeIntInRange(-2**20, 2**20)
    if kind == 3:
        return fdp.ConsumeInt(fdp.ConsumeIntInRange(1, 600))  # up to 4,800 bits
    if kind == 4:
        return fdp.ConsumeFloat()
    if kind == 5:
        return fdp.ConsumeUnicodeNoSurrogates(fdp.ConsumeIntInRange(0, 40))
    if kind == 6 and depth < 6:
        return [fuzzed_json(fdp, depth + 1) for _ in range(fdp.ConsumeIntInRange(0, 4))]
    if kind == 7 and depth < 6:
        keys = ["period", "preperiod", "checked_up_to", "theorem", "x"]
        return {keys[fdp.ConsumeIntInRange(0, 4)]: fuzzed_json(fdp, depth + 1)
                for _ in range(fdp.ConsumeIntInRange(0, 4))}
    if kind == 8:
        n = fdp.ConsumeIntInRange(1, 30_000)  # a nested list, or its text in a string
        return json.loads("[" * n + "]" * n) if n < 500 else "[" * n + "]" * n
    return {"period": fdp.ConsumeIntInRange(-3, 40), "preperiod": fdp.ConsumeIntInRange(-3, 200)}


def state_bytes(fdp):
    choice = fdp.ConsumeIntInRange(0, 4)
    if choice == 0:
        return fdp.ConsumeBytes(fdp.ConsumeIntInRange(0, 4096))
    state = dict(GOOD_STATE)
    for _ in range(fdp.ConsumeIntInRange(1, 3)):
        field = FIELDS[fdp.ConsumeIntInRange(0, len(FIELDS) - 1)]
        if fdp.ConsumeIntInRange(0, 5) == 0:
            state.pop(field, None)
        else:
            state[field] = fuzzed_json(fdp)
    text = json.dumps(state)
    if choice == 1:  # a deep structure spliced in as raw text
        n = fdp.ConsumeIntInRange(0, 40_000)
        text = text[:-1] + ', "deep": ' + "[" * n + "]" * n + "}"
    return text.encode("utf-8", "surrogatepass")


def values_bytes(fdp):
    choice = fdp.ConsumeIntInRange(0, 5)
    if choice == 0:
        return fdp.ConsumeBytes(fdp.ConsumeIntInRange(0, 512))
    values = GOOD_VALUES
    if choice == 1:
        values = values.astype(DTYPES[fdp.ConsumeIntInRange(0, len(DTYPES) - 1)])
    elif choice == 2:
        values = values.copy()
        values[fdp.ConsumeIntInRange(0, min(len(values), 256) - 1)] = fdp.ConsumeIntInRange(0, 255)
    elif choice == 3:
        values = values[: fdp.ConsumeIntInRange(0, len(values))]
    buffer = io.BytesIO()
    np.save(buffer, values, allow_pickle=False)
    data = buffer.getvalue()
    if choice == 4:
        data = data[: fdp.ConsumeIntInRange(0, len(data))]
    return data


def TestOneInput(data):
    fdp = atheris.FuzzedDataProvider(data)
    with open(PATH + ".json", "wb") as f:
        f.write(state_bytes(fdp))
    with open(PATH, "wb") as f:
        f.write(values_bytes(fdp))
    try:
        game = HeapGame.load(PATH)
    except ValueError as exc:
        assert "\n" not in str(exc), str(exc)
        return
    held = game.nim_values(game._values.known)  # what it holds: the true values
    assert np.array_equal(held, TRUTH[: len(held)]), "wrong values accepted"
    if game._values.proven is not None:  # a period it believes: true far beyond
        for heap in (4095, 10**6 + 7, 10**18 + 3):
            assert game.nim_value(heap) == GAME.nim_value(heap), "a wrong period accepted"


if __name__ == "__main__":
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()
