"""Nim: the nim-sum rule (Bouton, 1902), every winning move, misère play, and the two
dynamic-programming solvers of the CMPUT 355 lecture notes (Nim, part 2) that the formula
replaces.

Words: a position whose nim-sum is 0 is a P-position: the player to move loses with best
play.  McDonnell's J article calls it *safe* (safe for the player who just moved); a
position with a non-zero nim-sum is *unsafe*, an N-position, a win for the player to move.

>>> nim_sum([3, 5, 7])
1
>>> winning_moves([3, 5, 7])
[Move(pile=0, take=1, new_size=2), Move(pile=1, take=1, new_size=4), Move(pile=2, take=1, new_size=6)]
>>> winning_moves([10, 11, 4])
[Move(pile=2, take=3, new_size=1)]
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Iterator, NamedTuple, Sequence

import numpy as np

from .._limits import check_bytes
from .._progress import Progress

__all__ = ["Move", "nim_sum", "is_losing", "winning_moves", "solve_memo", "solve_bottom_up",
           "NimSolution", "Nim"]


class Move(NamedTuple):
    """Take ``take`` stones from pile ``pile`` (0-based), leaving ``new_size``."""

    pile: int
    take: int
    new_size: int


def _piles(piles: Any) -> list[int]:
    if isinstance(piles, (str, bytes)) or not hasattr(piles, "__iter__"):
        raise TypeError("piles are a sequence of non-negative ints")
    out = []
    for p in piles:
        if isinstance(p, bool) or not isinstance(p, (int, np.integer)):
            raise TypeError(f"a pile is a non-negative int, not {type(p).__name__}")
        if p < 0:
            raise ValueError(f"a pile cannot be negative, got {p}")
        out.append(int(p))
    return out


def nim_sum(piles: Sequence[int]) -> int:
    """The nim-sum (XOR) of the pile sizes (Bouton's theorem: the position is lost for the
    player to move exactly when it is 0; Winning Ways ch. 2).

    Parameters
    ----------
    piles : sequence of int
        The pile sizes.

    Returns
    -------
    int

    Raises
    ------
    ValueError
        A pile is negative or not an integer.

    >>> nim_sum([10, 11, 4])
    5
    """
    total = 0
    for p in _piles(piles):
        total ^= p
    return total


def _losing(piles: list[int], misere: bool) -> bool:
    s = 0
    for p in piles:
        s ^= p
    if misere and all(p <= 1 for p in piles):
        return s == 1  # an odd number of single stones: the mover must take the last
    return s == 0


def is_losing(piles: Sequence[int], misere: bool = False) -> bool:
    """True for a P-position: the player to move loses with best play (the "safe" position
    of McDonnell's J article).

    Parameters
    ----------
    piles : sequence of int
        The pile sizes.
    misere : bool
        True: the player who takes the last stone loses (Winning Ways ch. 13).

    Returns
    -------
    bool

    >>> is_losing([1, 2, 3]), is_losing([1, 1], misere=True), is_losing([1, 1, 1], misere=True)
    (True, False, True)
    """
    return _losing(_piles(piles), misere)


def winning_moves(piles: Sequence[int], misere: bool = False) -> list[Move]:
    """Every move to a P-position, in pile order (none when the position is already lost).

    Normal play: pile i can go to s ^ p_i when that is smaller (s the nim-sum).  Misère play
    is the same until the move would leave only piles of 0 or 1 stones; then leave an odd
    number of single stones (Winning Ways ch. 13).

    Parameters
    ----------
    piles : sequence of int
        The pile sizes.
    misere : bool
        True: the player who takes the last stone loses.

    Returns
    -------
    list of Move
        (pile index, stones taken, the pile's new size) for each winning move.

    >>> winning_moves([3, 5, 7])
    [Move(pile=0, take=1, new_size=2), Move(pile=1, take=1, new_size=4), \
Move(pile=2, take=1, new_size=6)]
    >>> winning_moves([1, 1, 2], misere=True)      # leave an odd number of single stones
    [Move(pile=2, take=1, new_size=1)]
    """
    piles = _piles(piles)
    s = 0
    for p in piles:
        s ^= p
    moves = []
    for i, p in enumerate(piles):
        candidates = {s ^ p}
        if misere:
            candidates |= {0, 1}
        for new in sorted(candidates):
            if new < p:
                child = piles[:i] + [new] + piles[i + 1:]
                if _losing(child, misere):
                    moves.append(Move(i, p - new, new))
    return moves


class Nim:
    """Nim as a ruleset in the common vocabulary (:mod:`.vocabulary`): a position is a pile
    size or a sequence of pile sizes; a move is a :class:`Move`.  Everything is a formula:
    Bouton's nim-sum for normal play, and for misère play the same rule until only piles of
    0 or 1 stones are left (Winning Ways ch. 13: Nim is tame).

    >>> nim = Nim()
    >>> nim.nim_value([3, 5, 7]), nim.winning_move([3, 5, 7])
    (1, Move(pile=0, take=1, new_size=2))
    >>> nim.misere_nim_value([1, 1]), nim.is_losing([1, 1, 1], misere=True)
    (1, True)
    """

    name = "Nim"

    def nim_values(self, n: int) -> np.ndarray:
        """The value of a pile of k stones is k.

        Parameters
        ----------
        n : int

        Returns
        -------
        numpy.ndarray
            0, 1, ..., n - 1 (uint64).

        >>> Nim().nim_values(4).tolist()
        [0, 1, 2, 3]
        """
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
            raise ValueError(f"n must be a non-negative int, got {n!r}")
        return np.arange(int(n), dtype=np.uint64)

    def nim_value(self, position: Any) -> int:
        """The nim-sum of the piles (see :func:`nim_sum`).

        Parameters
        ----------
        position : int or sequence of int

        Returns
        -------
        int

        >>> Nim().nim_value([3, 5])
        6
        """
        return nim_sum(_position(position))

    def misere_nim_value(self, position: Any) -> int:
        """The misère Grundy value: the nim-sum, except that with only piles of 0 or 1 it is
        1 for an even number of single stones and 0 for an odd number (Winning Ways
        ch. 13).

        Parameters
        ----------
        position : int or sequence of int

        Returns
        -------
        int

        >>> Nim().misere_nim_value([1, 1, 1]), Nim().misere_nim_value([2, 3])
        (0, 1)
        """
        piles = _position(position)
        s = nim_sum(piles)
        return s ^ 1 if all(p <= 1 for p in piles) else s

    def is_losing(self, position: Any, misere: bool = False) -> bool:
        """True for a P-position (see :func:`is_losing`).

        Parameters
        ----------
        position : int or sequence of int
        misere : bool

        Returns
        -------
        bool

        >>> Nim().is_losing([2, 2]), Nim().is_losing([2, 2], misere=True)
        (True, True)
        """
        return is_losing(_position(position), misere)

    def winning_move(self, position: Any, misere: bool = False) -> Move | None:
        """The first of :func:`winning_moves`.

        Parameters
        ----------
        position : int or sequence of int
        misere : bool

        Returns
        -------
        Move or None
            None when every move loses.

        >>> Nim().winning_move([1, 2])
        Move(pile=1, take=1, new_size=1)
        """
        moves = winning_moves(_position(position), misere)
        return moves[0] if moves else None

    def moves(self, position: Any) -> Iterator[list[int]]:
        """The positions one move away, as lists of piles.

        Returns
        -------
        iterator of list of int

        >>> list(Nim().moves([1, 2]))
        [[0, 2], [1, 0], [1, 1]]
        """
        piles = _position(position)
        for i, p in enumerate(piles):
            for new in range(p):
                yield piles[:i] + [new] + piles[i + 1:]


def _position(position: Any) -> list[int]:
    if isinstance(position, (int, np.integer)) and not isinstance(position, bool):
        return _piles([position])
    return _piles(position)


class NimSolution:
    """Win/loss of every position below a start position, and a winning move for each won
    one, as computed by a dynamic-programming solver.  Positions are queried in any order
    of piles of the start's length.  (In misère play the empty position is won for the
    player to move, who has no move to make: the opponent took the last stone.)"""

    def __init__(self, start: list[int], misere: bool, method: str) -> None:
        self.start = start
        self.misere = misere
        self.method = method

    def is_losing(self, position: Sequence[int]) -> bool:
        """True when the player to move loses from position (as solved).

        Parameters
        ----------
        position : sequence of int
            Piles, as many as the start has, none above the start's pile of that rank.

        Returns
        -------
        bool

        Raises
        ------
        ValueError
            Not a position below the start.

        >>> solve_memo([3, 5, 7]).is_losing([1, 2, 3])
        True
        """
        raise NotImplementedError

    def winning_move(self, position: Sequence[int]) -> Move | None:
        """A winning move from position (as solved), or None when every move loses.

        Parameters
        ----------
        position : sequence of int
            As for :meth:`is_losing`.

        Returns
        -------
        Move or None

        >>> solve_bottom_up([2, 3]).winning_move([2, 3])
        Move(pile=1, take=1, new_size=2)
        """
        raise NotImplementedError

    def _check(self, position: Sequence[int]) -> list[int]:
        pos = _piles(position)
        if len(pos) != len(self.start):
            raise ValueError(f"the position has {len(pos)} piles, the start {len(self.start)}")
        return pos


def solve_memo(piles: Sequence[int], misere: bool = False) -> NimSolution:
    """Solves Nim by recursion with a transposition table keyed by the canonical (sorted)
    position, as in the CMPUT 355 lecture notes (Nim, part 2).  The search uses its own
    stack, so deep games do not hit Python's recursion limit.  Its cost grows with the
    number of canonical positions below the start (about the product of (pile + 1) divided
    by the symmetries); the xorsum formula answers in one pass.

    Parameters
    ----------
    piles : sequence of int
        The pile sizes.
    misere : bool
        True: the player who takes the last stone loses.

    Returns
    -------
    NimSolution

    >>> sol = solve_memo([3, 5, 7])
    >>> sol.is_losing([3, 5, 7]), sol.winning_move([3, 5, 7])
    (False, Move(pile=0, take=1, new_size=2))
    """
    start = _piles(piles)
    return _MemoSolution(start, misere)


class _MemoSolution(NimSolution):
    def __init__(self, start: list[int], misere: bool) -> None:
        super().__init__(start, misere, "memo")
        # canonical position -> canonical child it moves to (a winning move), or None if lost
        self.table: dict[tuple[int, ...], tuple[int, ...] | None] = {}
        self._solve(tuple(sorted(start)))

    @staticmethod
    def _children(pos: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        for i, p in enumerate(pos):
            if i and pos[i - 1] == p:
                continue  # equal piles give the same canonical children
            for new in range(p):
                yield tuple(sorted(pos[:i] + (new,) + pos[i + 1:]))

    def _solve(self, root: tuple[int, ...]) -> None:
        table = self.table
        # frames: [position, its children (an iterator), the child being solved]
        stack: list[list[Any]] = [[root, self._children(root), None]]
        while stack:
            frame = stack[-1]
            pos, children, pending = frame
            if pending is not None and table[pending] is None:
                table[pos] = pending  # a lost child: pos is won by moving there
                stack.pop()
                continue
            frame[2] = None
            descended = False
            for child in children:
                if child not in table:
                    frame[2] = child
                    stack.append([child, self._children(child), None])
                    descended = True
                    break
                if table[child] is None:
                    table[pos] = child
                    stack.pop()
                    descended = True
                    break
            if descended:
                continue
            # every child is won (or there is none): pos is lost, except a misère terminal
            if self.misere and not any(pos):
                table[pos] = pos  # the mover wins at once: the opponent took the last stone
            else:
                table[pos] = None
            stack.pop()

    def _lookup(self, position: Sequence[int]) -> tuple[tuple[int, ...], tuple[int, ...] | None]:
        key = tuple(sorted(self._check(position)))
        if key not in self.table:
            self._solve(key)  # outside the start's tree: solve on demand
        return key, self.table[key]

    def is_losing(self, position: Sequence[int]) -> bool:
        return self._lookup(position)[1] is None

    def winning_move(self, position: Sequence[int]) -> Move | None:
        key, child = self._lookup(position)
        if child is None or child == key:
            return None
        pos = list(position)
        # the canonical child differs from key in one pile: find it in the caller's order
        old = next(iter((Counter(key) - Counter(child)).elements()))
        new = next(iter((Counter(child) - Counter(key)).elements()))
        i = pos.index(old)
        return Move(i, old - new, new)


def solve_bottom_up(piles: Sequence[int], misere: bool = False,
                    progress: bool | None = None) -> NimSolution:
    """Solves Nim bottom-up, as in the CMPUT 355 lecture notes (Nim, part 2): every position
    below the start is numbered in mixed radix (pile i has radix start_i + 1), so every
    child is numbered lower than its parent; positions are solved in increasing order, and
    each lost position marks every position that moves to it as won, recording that move.  Memory and time grow with the
    product of (pile + 1).  The solution's ``index`` and ``position`` give that numbering.

    Parameters
    ----------
    piles : sequence of int
        The pile sizes.
    misere : bool
        True: the player who takes the last stone loses.
    progress : bool, optional
        A progress bar (default: on a terminal, for big tables).

    Returns
    -------
    NimSolution

    Raises
    ------
    ValueError
        More than 50 million positions, or a table past the memory cap.

    >>> sol = solve_bottom_up([10, 11, 4])
    >>> sol.winning_move([10, 11, 4])
    Move(pile=2, take=3, new_size=1)
    """
    start = _piles(piles)
    size = 1
    for p in start:
        size *= p + 1
    if size > 50_000_000:
        raise ValueError(f"{size} positions are too many for the bottom-up table; "
                         "use is_losing (the xorsum formula)")
    check_bytes(9 * size, f"the bottom-up table of {size:,} positions",
                "use is_losing (the xorsum formula),")
    return _BottomUpSolution(start, misere, progress)


class _BottomUpSolution(NimSolution):
    def __init__(self, start: list[int], misere: bool, progress: bool | None) -> None:
        super().__init__(start, misere, "bottom-up")
        dims = [p + 1 for p in start]
        radix = [1] * len(dims)
        for i in range(1, len(dims)):
            radix[i] = radix[i - 1] * dims[i - 1]
        size = radix[-1] * dims[-1] if dims else 1
        self.radix = radix
        self.wins = np.zeros(size, dtype=bool)
        self.winmove = np.full(size, -1, dtype=np.int64)  # index of the child moved to
        if misere:
            self.wins[0] = True  # no stone left: the opponent took the last one and lost
        coords = np.zeros(len(dims), dtype=np.int64)
        with Progress(size, "bottom-up Nim", enabled=progress, min_total=1_000_000) as bar:
            for j in range(size):
                if not self.wins[j]:
                    for x in range(len(dims)):
                        # parents: pile x larger by 1 .. up to its start size
                        count = dims[x] - 1 - coords[x]
                        if count:
                            parents = j + radix[x] * np.arange(1, count + 1)
                            fresh = parents[~self.wins[parents]]
                            self.wins[fresh] = True
                            self.winmove[fresh] = j
                _increment(coords, dims)
                if j % 65536 == 65535:
                    bar.update(65536)
            bar.update(size % 65536)

    def index(self, position: Sequence[int]) -> int:
        """The position's number in the solver's table: mixed radix, pile 0 the lowest digit
        (pile i has radix start_i + 1), so a move always leads to a lower number.

        >>> solve_bottom_up([2, 3]).index([1, 2])   # 1 + 2 * (2 + 1)
        7
        """
        pos = self._check(position)
        for p, limit in zip(pos, self.start):
            if p > limit:
                raise ValueError(f"the position {pos} is not below the start {self.start}")
        return sum(p * r for p, r in zip(pos, self.radix))

    def position(self, index: int) -> list[int]:
        """The position with this number (the inverse of :meth:`index`).

        >>> solve_bottom_up([2, 3]).position(7)
        [1, 2]
        """
        if not 0 <= index < len(self.wins):
            raise ValueError(f"positions are numbered 0 to {len(self.wins) - 1}, got {index}")
        return [index // r % (limit + 1) for r, limit in zip(self.radix, self.start)]

    def is_losing(self, position: Sequence[int]) -> bool:
        return not self.wins[self.index(position)]

    def winning_move(self, position: Sequence[int]) -> Move | None:
        j = self.index(position)
        child = int(self.winmove[j])
        if child < 0:
            return None
        diff = j - child
        for i in reversed(range(len(self.radix))):
            if diff >= self.radix[i] and diff % self.radix[i] == 0:
                take = diff // self.radix[i]
                pos = list(position)
                return Move(i, take, pos[i] - take)
        raise AssertionError("a recorded move changes exactly one pile")


def _increment(coords: np.ndarray, dims: list[int]) -> None:
    for i, d in enumerate(dims):
        coords[i] += 1
        if coords[i] < d:
            return
        coords[i] = 0
