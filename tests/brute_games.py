"""Brute-force values of 2-D coin-turning games straight from the definition, for testing
the Tartan theorem on small boards.  Shares nothing with the library but the 1-D games'
move sets (product_move_sets), which are what the product is built from."""

from typing import Iterable


def _mex(values) -> int:
    seen = set(values)
    m = 0
    while m in seen:
        m += 1
    return m


def brute_force_values(move_sets, n: int, m: int) -> list[list[int]]:
    """G(a, b) = mex over the moves at (a, b) of the nim-sum of the other coins' values;
    move_sets(a, b) lists the sets of other coins."""
    g = [[0] * m for _ in range(n)]
    for a in range(n):
        for b in range(m):
            options = []
            for others in move_sets(a, b):
                v = 0
                for (r, c) in others:
                    v ^= g[r][c]
                options.append(v)
            g[a][b] = _mex(options)
    return g


def product_move_sets(row_game, col_game):
    """The move sets of the product game, from the factors' move sets."""
    def moves(a: int, b: int) -> Iterable[list[tuple[int, int]]]:
        for rs in row_game.move_sets(a):
            rows = list(rs) + [a]
            for cs in col_game.move_sets(b):
                cols = list(cs) + [b]
                yield [(r, c) for r in rows for c in cols if (r, c) != (a, b)]
    return moves


def misere_heap_outcomes(digits):
    """Whether the player to move loses misère play of a take-and-break game (its code's
    digits d_0 d_1 ...: taking k tokens, bit 1 of d_k may leave no heap, bit 2 one heap, bit 4
    two, bit 8 three), from the definition: under the misère rule a position without a move
    is won by the player to move (the other moved last), so a position is losing when it has
    a move and every move leads to a winning one.  Positions are sorted tuples; small sums
    only."""
    known = {}

    def options(heaps):
        for i, h in enumerate(heaps):
            rest = heaps[:i] + heaps[i + 1:]
            for k, d in enumerate(digits):
                r = h - k
                if r < 0:
                    continue
                parts = ([()] if d & 1 and r == 0 and k else []) + \
                    ([(r,)] if d & 2 and r > 0 and k else [])
                parts += [(a, r - a) for a in range(1, r // 2 + 1)] if d & 4 else []
                parts += [(a, b, r - a - b) for a in range(1, r) for b in range(a, r - a)
                          if r - a - b >= b] if d & 8 else []
                for p in parts:
                    yield tuple(sorted(rest + p))

    def losing(heaps):
        heaps = tuple(sorted(heaps))
        if heaps not in known:
            moves = list(options(heaps))
            known[heaps] = bool(moves) and all(not losing(o) for o in moves)
        return known[heaps]
    return losing


def octal_options(code: str, heap: int) -> list[tuple[int, ...]]:
    """What one move on a heap may leave, from the digits of an octal code (d0.d1d2...: a
    4 before the point splits a heap in two without taking any)."""
    whole, point = code.split(".")
    digits = [int(whole or "0", 8) & 4] + [int(c, 8) for c in point]
    out = []
    for k, d in enumerate(digits):
        r = heap - k
        if r < 0:
            continue
        if d & 1 and r == 0:
            out.append(())
        if d & 2 and r > 0 and k > 0:
            out.append((r,))
        if d & 4:
            out.extend((a, r - a) for a in range(1, r // 2 + 1))
    return out
