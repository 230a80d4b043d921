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
