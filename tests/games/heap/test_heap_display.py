"""A heap game in a notebook (issue 38, item 6): HeapGame shows itself as the library's other
values do (Nimber, Table, Derivation, MisereQuotient), from what is known, computing nothing."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from nimbers import Nimber
from nimbers.explain import explain_mul
from nimbers.games.heap import HeapGame, octal_game
from nimbers.games.quotient import misere_quotient
from nimbers.tables import mul_table


class Cells(HTMLParser):
    """The text of every table cell of an HTML fragment, and whether its tags balance."""

    def __init__(self) -> None:
        super().__init__()
        self.cells: list[str] = []
        self.open: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.open.append(tag)
        if tag == "td":
            self.cells.append("")

    def handle_endtag(self, tag):
        assert self.open.pop() == tag

    def handle_data(self, data):
        if self.open and self.open[-1] == "td":
            self.cells[-1] += data


def cells(fragment: str) -> list[str]:
    parser = Cells()
    parser.feed(fragment)
    assert parser.open == []
    return parser.cells


def test_every_value_type_has_a_notebook_view():
    kayles = octal_game("0.77")
    shown = [Nimber(5), mul_table(4), explain_mul(5, 11), misere_quotient(kayles, 8), kayles]
    for value in shown:
        assert isinstance(value._repr_html_(), str) and value._repr_html_().startswith("<")


def test_the_view_shows_the_values_computed_and_computes_nothing():
    kayles = octal_game("0.77")
    assert cells(kayles._repr_html_()) == ["0"]
    values = kayles.nim_values(35).tolist()
    view = kayles._repr_html_()
    assert cells(view) == [str(v) for v in values] and kayles._known == 35
    assert "35 values computed" in view


def test_the_view_stops_at_a_hundred_values_and_names_the_period():
    kayles = octal_game("0.77")
    kayles.period()
    view = kayles._repr_html_()
    assert cells(view) == [str(v) for v in kayles.nim_values(100).tolist()]
    assert "period 12 from heap 71 (proven)" in view and "period 12" in repr(kayles)


def test_names_are_escaped():
    game = HeapGame("<i>&", [3, 3], "octal", "0.33")
    assert "&lt;i&gt;&amp;" in game._repr_html_() and "<i>" not in game._repr_html_()
    assert re.fullmatch(r"<HeapGame <i>& \(0\.33\): 1 value computed>", repr(game))
