"""Notebook display: HTML and LaTeX reprs of tables and derivations, pictures returned as
images, progress bars that take a tqdm-like class or find the notebook, CSV streamed in
bounded memory."""

import io
import sys
import tracemalloc
import types

import numpy as np
import pytest

from nimbers.explain import explain_mul, explain_sum
from nimbers.tables import (DISPLAY_LIMIT, Table, add_table, format_table, mul_table,
                            table_image, to_csv, write_csv)


def test_tables_are_arrays_that_show_as_tables():
    t = mul_table(4)
    assert isinstance(t, Table) and isinstance(t, np.ndarray) and t.dtype == np.uint64
    assert str(t) == format_table(t) and add_table(2).op == "⊕"
    assert type(t == t) is np.ndarray and type((t == t).all()) is np.bool_
    html = t._repr_html_()
    assert html.startswith('<table class="nimbers-table">') and html.count("<tr>") == 5
    assert "<th>⊗</th>" in html and "<td>1</td>" in html
    latex = t._repr_latex_()
    assert latex.startswith(r"$\begin{array}") and r"\otimes" in latex and "2 & 0 & 2 & 3 & 1" in latex


def test_big_tables_are_cut_in_displays():
    t = mul_table(100)
    html = t._repr_html_()
    assert "&hellip;" in html and "&vellip;" in html and "<th>99</th>" in html
    assert html.count("<tr>") == DISPLAY_LIMIT + 2  # header, shown rows, the ellipsis row
    assert t._repr_latex_() is None and t[0]._repr_html_() is None


def test_tables_pickle():
    import pickle
    t = pickle.loads(pickle.dumps(add_table(3)))
    assert isinstance(t, Table) and t.op == "⊕" and t.tolist() == add_table(3).tolist()


def test_derivation_reprs():
    d = explain_mul(5, 11)
    assert repr(d) == "<Derivation 5 ⊗ 11 = 12 in 9 steps>"
    html = d._repr_html_()
    assert html.count("<tr>") == len(d.lines) and "<td>=</td><td>12</td>" in html
    latex = d._repr_latex_()
    assert latex.startswith(r"$$\begin{aligned}5 \otimes 11 &= (4 \oplus 1)")
    assert latex.endswith(r"&= 12\end{aligned}$$")
    s = explain_sum([3, 5, 7])
    assert str(s) == str(explain_sum(3, 5, 7)) and s._repr_latex_() is None
    assert s._repr_html_().startswith('<pre class="nimbers-derivation">')


def test_table_image_returns_the_picture_and_saves_it(tmp_path):
    pytest.importorskip("PIL")
    image = table_image(mul_table(16), scale=4)
    assert image.size == (64, 64) and image.mode == "RGB"
    path = tmp_path / "t.png"
    again = table_image(mul_table(16), path)
    assert path.read_bytes()[:4] == b"\x89PNG" and again.size == (16, 16)


class FakeBar:
    """A tqdm-like class that records what it is told."""
    made = []

    def __init__(self, total, desc):
        self.total, self.desc, self.count, self.closed = total, desc, 0, False
        FakeBar.made.append(self)

    def update(self, n=1):
        self.count += n

    def close(self):
        self.closed = True


def test_progress_takes_a_tqdm_like_class():
    FakeBar.made.clear()
    assert mul_table(1100, progress=FakeBar).tolist()[3][5] == 15
    (bar,) = FakeBar.made
    assert bar.total == 1100 and bar.count == 1100 and bar.closed and "multiplication" in bar.desc
    with pytest.raises(TypeError, match="tqdm-like"):
        mul_table(4, progress="yes")


def test_progress_shows_in_a_notebook(monkeypatch):
    from nimbers import _progress
    shell = type("ZMQInteractiveShell", (), {})()
    monkeypatch.setitem(sys.modules, "IPython", types.SimpleNamespace(get_ipython=lambda: shell))
    monkeypatch.setitem(sys.modules, "ipykernel", types.ModuleType("ipykernel"))
    monkeypatch.setattr(_progress, "_notebook_tqdm", lambda: None)  # no tqdm: the text bar
    assert _progress.in_notebook()
    out = io.StringIO()
    with _progress.Progress(10, "work", stream=out) as bar:  # no terminal, but a notebook
        bar.update(10)
    assert "work: [" in out.getvalue()
    FakeBar.made.clear()
    monkeypatch.setattr(_progress, "_notebook_tqdm", lambda: FakeBar)
    with _progress.Progress(10, "work") as bar:
        bar.update(10)
    assert FakeBar.made[0].count == 10


def test_not_a_notebook_outside_jupyter():
    from nimbers._progress import in_notebook
    assert not in_notebook()


def test_write_csv_streams_in_bounded_memory():
    out = io.StringIO()
    write_csv(out, 5, op="add")
    assert out.getvalue() == to_csv(add_table(5), op="add") + "\n"

    class Sink(io.TextIOBase):
        size = 0

        def write(self, s):
            self.size += len(s)
            return len(s)

    sink = Sink()
    tracemalloc.start()
    write_csv(sink, 700)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    # the whole table as one string would take all 2.7 MB; a block of rows, a fraction
    assert sink.size > 2_000_000 and peak < sink.size // 2
    with pytest.raises(ValueError):
        write_csv(out, 4, op="div")


def test_positions_show_as_coins():
    from nimbers.games.positions import Board, Row
    from nimbers.games.turning import named_game
    row = Row("THHT")
    assert str(row) == "THHT" and repr(row) == "Row('THHT')" and list(row) == [1, 2]
    html = row._repr_html_()
    assert html.count("&#9679;") == 2 and html.count("&#9675;") == 2 and "<td>3</td>" in html
    ruler = named_game("ruler")
    assert ruler.nim_value(row) == ruler.nim_value([1, 2])  # a Row is a position
    board = Board("1:2,0:0", shape=(2, 3))
    assert str(board) == "HTT\nTTH" and list(board) == [(0, 0), (1, 2)]
    assert board._repr_html_().count("&#9679;") == 2
    with pytest.raises(ValueError):
        Row([5], length=3)
    with pytest.raises(ValueError):
        Board("3:3", shape=(2, 2))
