"""Coin-turning games in one dimension.

A row of coins, numbered from 0 on the left (Winning Ways, ch. 14, CGSuite and
the OEIS number them from 1: coin x here is heap x + 1 there).  A move turns over a set of
coins whose rightmost coin goes from heads to tails.  Each head is an independent game, so a
position's value is the nim-sum of G(x) over its heads, where
G(x) = mex over the moves at x of the nim-sum of the OTHER coins' values.

Rules are given as CGSuite turning codes, a comma-separated list of terms; a term is a count
("3"), a range ("1-3") or an open range ("1+"), then modifiers:

====  ===================================================================
C     the coins turned are consecutive
C(n)  the coins turned lie within a span of n adjacent coins
E     the coins turned are equally spaced (an arithmetic progression)
S     the coins turned are symmetrically arranged
F     the leftmost coin of the row (coin 0) is among those turned
====  ===================================================================

>>> mocking_turtles = TurningGame("1-3", "Mocking Turtles")
>>> mocking_turtles.nim_values(8).tolist()
[1, 2, 4, 7, 8, 11, 13, 14]
>>> TurningGame("1+C").nim_values(8).tolist()       # Ruler
[1, 2, 1, 4, 1, 2, 1, 8]
>>> TurningGame("1-2").winning_move("HTHH")     # heads 0, 2, 3: values 1 ^ 3 ^ 4 = 6
[1, 3]
"""

from ..codes import Term, parse_turning_code
from ..positions import heads_of
from .closed_forms import CLOSED_FORMS, ClosedForm, closed_form, odious
from .game import MISERE_SEARCH_WORK, TurningGame
from .named import NAMED_GAMES, named_game

__all__ = ["TurningGame", "Term", "parse_code", "heads_of", "NAMED_GAMES", "named_game",
           "closed_form", "odious", "ClosedForm", "CLOSED_FORMS", "MISERE_SEARCH_WORK"]

#: the old name of the turning-code parser
parse_code = parse_turning_code
