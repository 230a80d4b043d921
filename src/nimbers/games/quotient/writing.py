"""A misère quotient written out: for a terminal (wrapped at its width), for a paper (LaTeX)
and for a notebook (HTML), as Plambeck and Siegel write one ("Misère quotients for impartial
games", JCTA 115 (2008)): the orders of Q_1 .. Q_n and where they grew, the presentation,
the generators' heaps, the P-portion, the pretending function as a table whose rows show
where it repeats, and what is proved apart from what is only observed (:mod:`.stability`).

>>> from nimbers.games import octal_game, misere_quotient
>>> lines = text_report(misere_quotient(octal_game("0.75"), 8), width=60)
>>> print(lines[0])
misère quotient of 0.75, heaps <= 8: order 8, |P| = 2
>>> max(len(line) for line in lines) <= 60
True
"""

from __future__ import annotations

import shutil
from typing import Any, Sequence

from .presentation import growth, pretending_period, wrap
from .stability import evidence

__all__ = ["text_report", "tex_report", "html_report", "terminal_width", "P_SHOWN"]

#: the most P-portion words the text shows (the rest are counted; --json has them all)
P_SHOWN = 40
_BOLD = '<td style="font-weight:bold">'
#: the narrowest width the text is wrapped at
MIN_WIDTH = 40


def terminal_width(width: int | None = None) -> int:
    """width, else the terminal's (shutil.get_terminal_size, 100 when it cannot say), at
    least MIN_WIDTH."""
    if width is None:
        width = shutil.get_terminal_size((100, 24)).columns
    return max(MIN_WIDTH, int(width))


def _title(q: Any) -> str:
    name = q.code if q.game == q.code else f"{q.game} ({q.code})"
    if q.whole.proved:
        return (f"misère quotient of {name}, the whole game (closed at heap {q.max_heap}): "
                f"order {q.order}, |P| = {len(q.p_portion)}")
    return (f"misère quotient of {name}, heaps <= {q.max_heap}: order {q.order}, "
            f"|P| = {len(q.p_portion)}")


def text_report(q: Any, width: int | None = None) -> list[str]:
    """The lines ``nimbers heap CODE --quotient N`` prints, none wider than width."""
    width = terminal_width(width)
    pres = q.presentation_data()
    lines = wrap("", _title(q).split(" "), width, sep="", indent=2)
    lines += orders_lines(q.orders, width)
    rels = pres.relation_texts()
    lines += wrap("", f"presentation ({len(pres.heaps)} generators, {len(rels)} relations):"
                  .split(" "), width, sep="", indent=2)
    names = pres.names()
    if len(pres.text()) + 2 <= width:
        lines.append("  " + pres.text())
    else:
        head = wrap("  ⟨", names, width, indent=3)
        head[-1] += " |" if rels else "⟩"
        lines += head
        if rels:
            body = wrap("   ", rels, width - 1)
            body[-1] += "⟩"
            lines += body
    lines += wrap("generators: ", [f"{n} = heap {h}" for n, h in zip(names, pres.heaps)]
                  or ["none"], width, indent=2)
    lines += _p_lines(q.p_words(), width)
    lines += pretending_lines(q.heap_words(), width, q.whole)
    for line in evidence(q).lines():
        lines += wrap("", line.split(" "), width, sep="", indent=2)
    return lines


def orders_lines(orders: Sequence[int], width: int) -> list[str]:
    """|Q_1| .. |Q_n| as two aligned rows (n above |Q_n|), wrapped, then where it grew."""
    lines = [f"orders of Q_1 .. Q_{len(orders)}:"]
    if orders:
        cell = max(len(str(len(orders))), max(len(str(o)) for o in orders))
        per_row = max(1, (width - 8) // (cell + 1))
        for s in range(0, len(orders), per_row):
            chunk = range(s + 1, min(s + per_row, len(orders)) + 1)
            lines.append("      n " + " ".join(f"{n:>{cell}}" for n in chunk))
            lines.append("  |Q_n| " + " ".join(f"{orders[n - 1]:>{cell}}" for n in chunk))
    grew = [f"{n} ({o})" for n, o in growth(orders)]
    lines += wrap("grew at heaps (to order): ", grew or ["never"], width, indent=2)
    return lines


def _p_lines(words: Sequence[str], width: int) -> list[str]:
    if not words:
        return ["P-portion (0): { }"]
    shown = list(words[:P_SHOWN])
    items = [w + ("," if i < len(shown) - 1 or len(words) > len(shown) else "")
             for i, w in enumerate(shown)]
    if len(words) > len(shown):
        items.append(f"... {len(words) - len(shown)} more}} (all: --json)")
    else:
        items[-1] += "}"
    return wrap(f"P-portion ({len(words)}): {{", items, width, sep="", indent=2)


def pretending_lines(words: Sequence[str], width: int, whole: Any = None) -> list[str]:
    """The pretending function, heap n -> word, as rows of heap sizes (the label n+ the
    first of the row): rows as long as its period when one is seen (so repeats stand in
    columns), else as many as fit; then where it repeats: proved for every heap when the
    quotient is the whole game's (whole), else observed only."""
    if whole is not None and whole.proved:
        lines = pretending_rows(words, width, (whole.period, whole.preperiod), observed=False)
        lines.append(f"  period {whole.period}, pre-period {whole.preperiod}: word(n + "
                     f"{whole.period}) = word(n) for every n >= {whole.preperiod} (proved)")
        return lines
    return pretending_rows(words, width, pretending_period(words))


def pretending_rows(words: Sequence[str], width: int, found: tuple[int, int] | None,
                    observed: bool = True) -> list[str]:
    """The rows of :func:`pretending_lines`, with the period found (observed) if any."""
    cell = max(len(w) for w in words)
    label = len(str(len(words) - 1)) + 2
    fit = max(1, (width - label - 2) // (cell + 1))
    per_row = found[0] if found and 2 <= found[0] <= fit else min(10, fit) if fit >= 10 else fit
    lines = wrap("", f"pretending function (heap n+k -> word), rows of {per_row}:".split(" "),
                 width, sep="", indent=2)
    for s in range(0, len(words), per_row):
        row = " ".join(f"{w:<{cell}}" for w in words[s:s + per_row]).rstrip()
        lines.append(f"  {str(s) + '+':>{label}} {row}")
    if found and observed:
        p, n0 = found
        lines.append(f"  repeats: word(n + {p}) = word(n) for {n0} <= n <= "
                     f"{len(words) - 1 - p} (observed)")
    return lines


def tex_report(q: Any) -> str:
    """The quotient for a paper: LaTeX (amsmath), the presentation as text math that may
    break between relations, the P-portion, the pretending function and the orders as tables."""
    pres = q.presentation_data()
    n = q.max_heap
    rels = pres.relation_texts(tex=True)
    gens = ", ".join(pres.names(tex=True)) or r"\;"
    body = (r" \mid " + r",\allowbreak\ ".join(rels)) if rels else ""
    words = [pres.word(e, tex=True) for e in q.pretending]
    w = q.whole
    name = r"\mathcal{Q}" if w.proved else rf"\mathcal{{Q}}_{{{n}}}"
    claim = (f"the whole game's quotient (periodicity theorem, closed at heap {n})" if w.proved
             else f"proved for heaps <= {n}, nothing claimed beyond")
    out = [f"% misère quotient of {q.game} ({q.code}) for heaps <= {n}: order {q.order}",
           f"% written by nimbers; {claim}",
           rf"\noindent ${name}(\mathbf{{{q.code}}}) = \langle {gens}{body} \rangle$"
           if w.proved else rf"\noindent ${name} = \langle {gens}{body} \rangle$",
           r"\[ \mathcal{P} = \{" + ", ".join(
               pres.word(e, tex=True) for e in _p_sorted(q)) + r"\} \]",
           "Generators: " + ", ".join(f"${g}$ = heap {h}" for g, h in
                                      zip(pres.names(tex=True), pres.heaps)) + ".",
           "", r"\begin{tabular}{r|" + "c" * 10 + "}",
           r"$n$ & " + " & ".join(f"+{k}" for k in range(10)) + r" \\ \hline"]
    for s in range(0, len(words), 10):
        cells = [f"${w}$" for w in words[s:s + 10]] + [""] * (10 - len(words[s:s + 10]))
        out.append(f"{s} & " + " & ".join(cells) + r" \\")
    out.append(r"\end{tabular}")
    if w.proved:
        rogue = f"; {w.rogue_text()}"
        out.append(rf"\par\noindent The pretending function has period {w.period} and "
                   rf"pre-period {w.preperiod}: $\Phi(n + {w.period}) = \Phi(n)$ for all "
                   rf"$n \ge {w.preperiod}${rogue} (periodicity theorem of Plambeck and Siegel; "
                   rf"$|\mathcal{{Q}}| = {q.order}$, $|\mathcal{{P}}| = {len(q.p_portion)}$).")
    out += ["", r"\begin{tabular}{r|" + "r" * min(15, max(1, n)) + "}"]
    for s in range(0, len(q.orders), 15):
        chunk = list(range(s + 1, min(s + 15, len(q.orders)) + 1))
        pad = [""] * (15 - len(chunk)) if s else [""] * (min(15, n) - len(chunk))
        out.append("$n$ & " + " & ".join([str(k) for k in chunk] + pad) + r" \\")
        out.append(r"$|\mathcal{Q}_n|$ & " + " & ".join(
            [str(q.orders[k - 1]) for k in chunk] + pad) + r" \\ \hline")
    out.append(r"\end{tabular}")
    return "\n".join(out)


def _p_sorted(q: Any) -> list[int]:
    pres = q.presentation_data()
    return sorted(q.p_portion, key=lambda e: (sum(pres.forms[e]), pres.word(e)))


def html_report(q: Any, table_up_to: int = 24) -> str:
    """The quotient in a notebook: the text report, and the multiplication table (P-portion
    in bold) when the order is at most table_up_to."""
    text = "\n".join(text_report(q, width=100))
    out = f"<pre>{_escape(text)}</pre>"
    if q.order > table_up_to:
        return out
    words = [q.word(e) for e in q.elements]
    head = "".join(f"<th>{_escape(w)}</th>" for w in words)
    rows = []
    for a in q.elements:
        cells = "".join(
            (_BOLD if q.is_p_element(q.multiply(a, b)) else "<td>")
            + f"{_escape(words[q.multiply(a, b)])}</td>" for b in q.elements)
        rows.append(f"<tr><th>{_escape(words[a])}</th>{cells}</tr>")
    return out + f"<table><tr><th>·</th>{head}</tr>{''.join(rows)}</table>"


def _escape(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
