"""The notation of nimbers' front doors: one reader of what people type (numbers,
positions, moves, game names) and one writer of moves, shared by the command line, the web
API and terminal play, so that every door reads the same text the same way.

Floors: this package needs nothing of nimbers but :mod:`nimbers._digits`; the games
(:mod:`nimbers.games`) and the doors above them (:mod:`nimbers.cli`, :mod:`nimbers.web`,
:mod:`nimbers.play`) import it, never the other way round.

* :mod:`.numbers` -- the number rule (:func:`read_integer`, :func:`write_integer`);
* :mod:`.positions` -- heaps ``3,5``, rows ``THHTH`` or ``0,3,7``, boards ``1:2,3:5``;
* :mod:`.moves` -- moves as the literature writes them, read and said;
* :mod:`.names` -- game names as lookup keys, ``S(1,3,4)`` and ``A x B``.

>>> from nimbers.notation import read_integer, read_heaps, say_heap_move
>>> read_integer("0b1010"), read_heaps("3,5")
(10, [3, 5])
"""

from __future__ import annotations

from .moves import (HeapMove, read_board_move, read_coin_move, read_heap_move, say_board_move,
                    say_coin_move, say_count, say_heap_move, say_sizes, type_heap_move)
from .names import game_key, read_product, read_subtraction_set
from .numbers import (COUNT_RULE, MAX_DIGITS, NUMBER_RULE, NotationError, clip,
                      describe_bound, read_count, read_integer, write_integer)
from .positions import (CoinRow, items, read_cell, read_cells, read_heads, read_heaps,
                        read_numbers, read_row)

__all__ = ["NotationError", "read_integer", "read_count", "COUNT_RULE", "write_integer", "clip", "describe_bound",
           "MAX_DIGITS", "NUMBER_RULE", "items", "read_numbers", "read_heaps", "read_row",
           "read_heads", "read_cell", "read_cells", "CoinRow", "HeapMove", "read_heap_move",
           "read_coin_move", "read_board_move", "say_heap_move", "say_sizes", "say_count",
           "say_coin_move", "say_board_move", "type_heap_move", "game_key",
           "read_subtraction_set", "read_product"]
