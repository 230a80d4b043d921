"""Fuzzes the game rules: arbitrary take-and-break codes and turning codes (valid or not)
must give a clear error or values that match the definition (mex over the moves).

    python fuzz/fuzz_games.py -atheris_runs=1000000
"""

import sys

import atheris

with atheris.instrument_imports(include=["nimbers"]):
    from nimbers.games import grundy, take_break_game
    from nimbers.games.turning import TurningGame
    from common import CLEAR_ERRORS

ALPHABET = "0123456789ABCDEF.-+,CESF()x "


def TestOneInput(data):
    fdp = atheris.FuzzedDataProvider(data)
    text = "".join(ALPHABET[b % len(ALPHABET)] for b in fdp.ConsumeBytes(fdp.ConsumeIntInRange(0, 8)))
    n = fdp.ConsumeIntInRange(0, 14)
    try:
        game = take_break_game(text)
        values = game.nim_values(n).tolist()
    except CLEAR_ERRORS:
        pass
    else:
        cache = {}
        moves = lambda heaps: [tuple(sorted(heaps[:i] + list(left) + heaps[i + 1:]))
                               for i, h in enumerate(heaps) for _, left in game.heap_moves(h)]
        for h in range(n):
            assert values[h] == grundy((h,), lambda p: moves(list(p)), cache)
    try:
        tg = TurningGame(text)
        vals = tg.nim_values(min(n, 9)).tolist()
    except CLEAR_ERRORS:
        return
    for x, v in enumerate(vals):
        opts = set()
        for others in tg.move_sets(x):
            acc = 0
            for y in others:
                acc ^= vals[y]
            opts.add(acc)
        m = 0
        while m in opts:
            m += 1
        assert v == m


if __name__ == "__main__":
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()
