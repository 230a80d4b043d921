"""Misère quotients written as the papers write them (nimbers.games.quotient.presentation,
.writing, .stability): names, wrapping at 100 columns, TeX, the notebook, and what is
proved apart from what is only observed."""

from __future__ import annotations

import json
import pathlib

import numpy as np
import pytest

from nimbers.games import Nim, misere_quotient, octal_game
from nimbers.games.quotient.presentation import (generator_name, present, pretending_period,
                                                 word_tex, word_text, wrap)
from nimbers.games.quotient.stability import is_tame
from nimbers.games.quotient.writing import text_report

DATA = json.loads((pathlib.Path(__file__).resolve().parents[1] / "data" / "misere_quotients.json")
                  .read_text(encoding="utf-8"))


def test_generator_names_never_g27():
    names = [generator_name(i) for i in range(60)]
    assert names[:3] == ["a", "b", "c"] and names[26:28] == ["a₁", "b₁"] and names[52] == "a₂"
    assert len(set(names)) == 60 and not any(n.startswith("g2") for n in names)
    assert generator_name(27, tex=True) == "b_{1}"
    assert word_text((0,) * 27 + (3,)) == "b₁³" and word_tex((0,) * 27 + (3,)) == "b_{1}^{3}"
    with pytest.raises(ValueError):
        generator_name(-1)


def test_many_generators_get_indexed_names():
    """30 generators whose products are all one zero element (order 32): the names run past
    z as a₁, b₁, c₁, d₁, never g27."""
    m = 32
    mul = np.full((m, m), m - 1)
    mul[0, :] = mul[:, 0] = np.arange(m)
    pres = present(mul, list(range(31)))
    assert pres.names()[24:] == ["y", "z", "a₁", "b₁", "c₁", "d₁"]
    assert pres.relation_texts()[:2] == ["a³ = a²", "ab = a²"]
    assert "d₁² = a²" in pres.relation_texts()


@pytest.mark.parametrize("width", [40, 60, 100])
def test_dawsons_kayles_q30_fits_the_width(width):
    q = misere_quotient(octal_game("0.07"), 30)
    lines = text_report(q, width=width)
    assert max(len(line) for line in lines) <= width
    assert q.order == DATA["dawson_q30_order"]


def test_cli_q30_fits_100_columns_and_shows_every_order(capsys, monkeypatch):
    from nimbers.cli import main
    monkeypatch.setenv("COLUMNS", "100")
    assert main(["heap", "0.07", "--quotient", "30"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert max(len(line) for line in out) <= 100
    rows = [line.split()[1:] for line in out if line.strip().startswith("|Q_n|")]
    orders = [int(v) for row in rows for v in row]
    assert len(orders) == 30 and orders[-1] == 360
    assert any(line.startswith("grew at heaps") and "30 (360)" in line for line in out)


def test_text_parts():
    q = misere_quotient(octal_game("0.75"), 12)
    text = q.summary(width=100)
    assert "⟨a, b, c | a² = 1, b³ = b, bc = ab, c² = b²⟩" in text
    assert "P-portion (2): {a, b²}" in text
    assert "repeats: word(n + 2) = word(n) for 8 <= n <= 10 (observed)" in text


def test_long_p_portion_is_cut_short():
    q = misere_quotient(octal_game("0.07"), 30)
    text = q.summary(width=100)
    assert f"P-portion ({len(q.p_portion)})" in text and "more} (all: --json)" in text


def test_evidence_proves_q_n_and_claims_nothing_more():
    q = misere_quotient(octal_game("0.75"), 12)
    ev = q.evidence()
    assert (ev.proved_heap, ev.order, ev.unchanged_from, ev.unchanged_run) == (12, 8, 5, 8)
    assert ev.period == (2, 8) and ev.stable_run == 5
    lines = ev.lines()
    assert lines[0].startswith("proved: Q_12") and lines[1].startswith("observed only:")
    assert lines[2].startswith("claimed: nothing for heaps over 12")


def test_pretending_period():
    assert pretending_period(list("xababab")) == (2, 1)
    assert pretending_period(list("abcd")) is None
    assert pretending_period(list("aaaa")) == (1, 0)


def test_wrap_never_passes_the_width():
    items = [f"r{i} = s{i * i}" for i in range(200)]
    for width in (20, 37, 100):
        assert all(len(line) <= width for line in wrap("head: ", items, width))


@pytest.mark.parametrize("n", range(1, 9))
def test_misere_nim_is_tame(n):
    q = misere_quotient(Nim(), n)
    assert q.evidence().tame


@pytest.mark.parametrize("code, tame", [("0.75", False), ("0.07", False), ("0.31", True),
                                        ("0.1", True), ("0.77", False)])
def test_tame_codes(code, tame):
    assert misere_quotient(octal_game(code), 12).evidence().tame is tame


def test_tame_refuses_a_wrong_p_portion():
    q = misere_quotient(Nim(), 3)
    assert is_tame(q.table, q.p_portion)
    assert not is_tame(q.table, [q.p_portion[0]])


def test_tex_and_notebook():
    q = misere_quotient(octal_game("0.75"), 8)
    tex = q.to_tex()
    assert r"\langle a, b, c \mid a^{2} = 1" in tex and r"\mathcal{P} = \{a, b^{2}\}" in tex
    assert q._repr_latex_().startswith(r"$\mathcal{Q}_{8} = \langle a, b, c \mid")
    html = q._repr_html_()
    assert "<pre>" in html and "<table>" in html and "&lt;" not in html.split("<table>")[1][:0]
    big = misere_quotient(octal_game("0.07"), 30)
    assert "<table>" not in big._repr_html_()       # 360 x 360 is not a notebook cell


def test_cli_format_tex(capsys):
    from nimbers.cli import main
    assert main(["heap", "0.75", "--quotient", "8", "--format", "tex"]) == 0
    assert r"\mathcal{Q}_{8}" in capsys.readouterr().out


@pytest.mark.parametrize("code, n", [("0.07", 30), ("0.77", 30), ("0.4", 30), ("0.35", 12)])
def test_dropped_relations_follow_from_the_kept(code, n):
    """Every relation of the rewriting system (which presents the quotient: every word
    reduces to its normal form by it) follows from the relations printed."""
    from nimbers.games.quotient.presentation import _connected
    pres = misere_quotient(octal_game(code), n).presentation_data()
    kept = list(pres.relations)
    assert set(kept) <= set(pres.rewriting) and len(kept) < len(pres.rewriting)
    for u, v in pres.rewriting:
        assert (u, v) in kept or _connected(u, v, kept, max(sum(u), sum(v)) + 3)


def test_longest_run_without_change_is_reported():
    ev = misere_quotient(octal_game("0.07"), 30).evidence()
    assert ev.longest == (14, 24) and ev.unchanged_from == 30
    assert "the longest run without change: Q_14 = ... = Q_24 (11 heap sizes)" in ev.lines()[1]
