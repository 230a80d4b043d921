"""The misère census as tables for people: Markdown and CSV from DIR/misere.jsonl
(:mod:`.misere`), one line per class, and a summary of how far the classes went.

>>> rows = [{"code": "0.75", "members": ["0.75"], "max_heap": 12, "max_order": 2048,
...          "reached": 12, "orders": [2, 6, 6, 6, 8, 8, 8, 8, 8, 8, 8, 8], "order": 8,
...          "p_size": 2, "generators": 3, "tame": False, "unchanged_from": 5,
...          "period": [2, 8], "stopped": None, "why": None, "seconds": 0.1,
...          "whole": {"proved": False, "why": "only Q_12 is proved", "period": None,
...                    "preperiod": None, "closed_at": None}}]
>>> print(markdown(rows).splitlines()[4][:60])
| .75 | 1 | 12 | 2048 | 12 | 8 | 2 | no | 5..12 | 2 from 8 |
>>> whole_cell(rows[0])
'open: no period closes it by heap 12'
"""

from __future__ import annotations

import csv
import io
import os
from collections import Counter
from typing import Any, Sequence

from ... import files
from ...games.quotient.presentation import growth
from .classes import written

__all__ = ["markdown", "csv_text", "summary", "write_tables", "whole_cell", "COLUMNS"]

COLUMNS = ("class", "members", "heap bound", "order cap", "n reached", "order of Q_n", "P size",
           "tame", "Q_n unchanged", "pretending period (observed)", "grew at heap (order)",
           "stopped", "whole game")


def _cells(row: dict[str, Any]) -> list[str]:
    period = row.get("period")
    n = row["reached"]
    return [written(row["code"]), str(len(row["members"])), str(row["max_heap"]),
            str(row["max_order"]), str(n), str(row["order"]), str(row["p_size"]),
            "yes" if row["tame"] else "no",
            f"{row['unchanged_from']}..{n}" if n else "-",
            f"{period[0]} from {period[1]}" if period else "-",
            ", ".join(f"{h} ({o})" for h, o in growth(row["orders"])) or "-",
            _why(row), whole_cell(row)]


def _why(row: dict[str, Any]) -> str:
    if row["stopped"] is None:
        if row["whole"]["proved"]:
            return "closed (the whole game's quotient)"
        return "reached the heap bound"
    return f"heap {row['reached'] + 1}: {row['stopped']}"


def whole_cell(row: dict[str, Any]) -> str:
    """The "whole game" column: proved (where it closed, the period and pre-period of the
    pretending function) or open (why, in short)."""
    w = row["whole"]
    if w["proved"]:
        return (f"proved: Q_{w['closed_at']}, period {w['period']} from heap "
                f"{w['preperiod']}")
    if row["stopped"] is not None:
        return f"open: the search stopped at heap {row['reached'] + 1} ({row['stopped']})"
    return f"open: no period closes it by heap {row['reached']}"


def markdown(rows: Sequence[dict[str, Any]]) -> str:
    """The table in Markdown, with a line on what it proves."""
    out = ["Misère quotients Q_n (Plambeck and Siegel) of each class's standard form: proved "
           "for heaps up to n reached; \"whole game\": proved where the periodicity theorem's "
           "hypotheses hold on the computed Q_n (then Q_n is the quotient of every position), "
           "else open, nothing claimed beyond n.", "",
           "| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    out += ["| " + " | ".join(c.replace("|", "\\|") for c in _cells(r)) + " |" for r in rows]
    return "\n".join(out) + "\n"


def csv_text(rows: Sequence[dict[str, Any]]) -> str:
    """The table as CSV, with the full row of orders |Q_1| .. |Q_n| and the stop's reason."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["code", "members", "heap_bound", "order_cap", "reached", "order", "p_size",
                "tame", "generators", "unchanged_from", "period", "period_from", "stopped",
                "orders", "why", "whole", "whole_closed_at", "whole_period",
                "whole_preperiod", "whole_why", "seconds"])
    for r in rows:
        period = r.get("period") or ["", ""]
        whole = r["whole"]
        w.writerow([r["code"], " ".join(r["members"]), r["max_heap"], r["max_order"],
                    r["reached"], r["order"], r["p_size"], int(r["tame"]), r["generators"],
                    r["unchanged_from"], period[0], period[1], r["stopped"] or "",
                    " ".join(map(str, r["orders"])), r["why"] or "", int(whole["proved"]),
                    _blank(whole["closed_at"]), _blank(whole["period"]),
                    _blank(whole["preperiod"]), whole["why"], r["seconds"]])
    return buf.getvalue()


def _blank(v: Any) -> Any:
    return "" if v is None else v


def summary(rows: Sequence[dict[str, Any]]) -> str:
    """How far the classes went: one line."""
    stops = Counter(r["stopped"] or ("closed" if r["whole"]["proved"] else "heap bound")
                    for r in rows)
    bounds = sorted({(r["max_heap"], r["max_order"]) for r in rows})
    least = min((r["reached"] for r in rows), default=0)
    took = sum(r["seconds"] for r in rows)
    whole = sum(1 for r in rows if r["whole"]["proved"])
    return (f"{len(rows)} classes, bounds (heap, order cap) {bounds}: "
            + ", ".join(f"{k}: {v}" for k, v in sorted(stops.items()))
            + f"; every class reached heap {least} at least, or closed; {whole} with the "
              f"whole game's quotient proved; {took:.0f} s of work in all")


def write_tables(rows: Sequence[dict[str, Any]], directory: str) -> tuple[str, str]:
    """DIR/misere_quotients.md and DIR/misere_quotients.csv (each written whole by the one
    atomic writer, nimbers.files.write_atomically); returns their paths."""
    os.makedirs(directory, exist_ok=True)
    paths = []
    for name, text in (("misere_quotients.md", markdown(rows)),
                       ("misere_quotients.csv", csv_text(rows))):
        path = os.path.join(directory, name)
        files.write_atomically(path, text)
        paths.append(path)
    return paths[0], paths[1]
