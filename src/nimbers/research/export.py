"""A census table in the layouts researchers read, and a published table compared with it.

Two column sets, each as the literature prints it:

* ``"czajka"``: T. Czajka's octal-games tables (SolvedGames.md, UnsolvedGames.md): game,
  prefix (the pre-period, counted from heap 0 as in SolvedGames.md), period, largest idx,
  largest, rare mask (hex; "+pos": the heap size's parity counts as one more bit), num rare
  (heap 0 counted among the rare), last rare, computed to (the heap sizes behind the row: the
  proof's bound when solved);
* ``"flammenkamp"``: A. Flammenkamp's tables of octal games: the first Grundy values (sgv,
  digits 0-9 then A-Z), type (periodic, open, or dense: no useful sparse space), rare + last,
  max + index, P-positions + last (among the heap sizes computed), period, pre-period.

Both end with ``oeis``: the A-numbers of the OEIS entries that name a member of the class
(:func:`oeis_numbers`, from the package's data file oeis_octal_games.txt, which names its
sources), "-" where none does.

One writer per format (:data:`WRITERS`: Markdown, CSV, LaTeX); rows in the order of their
standard forms, so the same table gives the same bytes.  :func:`compare_table` reads a
published table in Czajka's columns (whitespace-separated as tests/data/czajka_solved_games.txt,
or a CSV with a header) and names every row that differs.

>>> rows = [{"code": "0.45", "period": 20, "preperiod": 498, "largest_at": 37, "largest": 8,
...          "rare_mask": "f", "rare_parity": False, "rare_count": 11, "last_rare": 198,
...          "reached": 1039, "class": "proved", "members": ["0.45"], "cap": None}]
>>> print(export_table(rows, "csv", "czajka"), end="")
game,prefix,period,largest idx,largest,rare mask,num rare,last rare,computed to,oeis
.45,498,20,37,8,f,11,198,1039,A071435
>>> oeis_numbers()["0.1777"], oeis_numbers()["0.4763"]     # .4763 has values a(n-1)
(('A071509',), ('A071509',))
"""

from __future__ import annotations

import csv
import functools
import io
import re
from dataclasses import dataclass, field
from typing import Any, Callable

from .census.classes import canonical, standard_key, written
from .census.report import is_solved
from ..files import read_capped

__all__ = ["export_table", "compare_table", "Comparison", "WRITERS", "COLUMNS", "oeis_numbers",
           "OEIS_FILE"]

#: the most bytes of a published table read
MAX_TABLE_BYTES = 1 << 24
_DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
#: the OEIS entries of octal games and the codes each names (package data beside this module)
OEIS_FILE = "oeis_octal_games.txt"


@functools.lru_cache(maxsize=1)
def oeis_numbers() -> dict[str, tuple[str, ...]]:
    """Each code (the census's spelling, :func:`.census.classes.canonical`) an OEIS entry of
    octal games names, and the A-numbers of those entries, from OEIS_FILE (its header names
    the sources: the entries' pages, and their names as the jOEIS and LODA projects copy
    them)."""
    from importlib import resources

    text = resources.files(__package__).joinpath(OEIS_FILE).read_text(encoding="utf-8")
    found: dict[str, set[str]] = {}
    for number, line in enumerate(text.splitlines(), 1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        if not re.fullmatch(r"A\d{6}", words[0]) or len(words) < 2:
            raise ValueError(f"{OEIS_FILE}, line {number}: not 'A-number code ...'")
        for code in words[1:]:
            found.setdefault(canonical(code), set()).add(words[0])
    return {code: tuple(sorted(numbers)) for code, numbers in found.items()}


def _oeis(row: dict[str, Any]) -> str:
    known = oeis_numbers()
    numbers = sorted({a for code in row["members"] for a in known.get(code, ())})
    return " ".join(numbers) or "-"


def _mask(row: dict[str, Any]) -> str:
    if row.get("rare_mask") is None:
        return "-"
    return str(row["rare_mask"]) + ("+pos" if row.get("rare_parity") else "")


def _or_dash(value: Any) -> str:
    return "-" if value is None else str(value)


def _czajka(row: dict[str, Any]) -> list[str]:
    solved = is_solved(row)
    return [written(row["code"]), _or_dash(row["preperiod"] if solved else None),
            _or_dash(row["period"] if solved else None), str(row["largest_at"]),
            str(row["largest"]), _mask(row), _or_dash(row["rare_count"]),
            _or_dash(row["last_rare"]), str(row["reached"]), _oeis(row)]


def _sgv(values: list[int]) -> str:
    if all(v < len(_DIGITS) for v in values):
        return "".join(_DIGITS[v] for v in values)
    return ",".join(str(v) for v in values)


def _kind(row: dict[str, Any]) -> str:
    if is_solved(row):
        return "periodic"
    return "dense" if row.get("cap") is not None else "open"


def _flammenkamp(row: dict[str, Any]) -> list[str]:
    solved = is_solved(row)
    rare = "-" if row["rare_count"] is None else f"{row['rare_count']} / {_or_dash(row['last_rare'])}"
    return [written(row["code"]), _sgv(row.get("first_values", [])), _kind(row), rare,
            f"{row['largest']} @ {row['largest_at']}",
            f"{row.get('p_positions', '-')} / {row.get('last_p', '-')}",
            _or_dash(row["period"] if solved else None),
            _or_dash(row["preperiod"] if solved else None), _oeis(row)]


#: the column sets: their headers and how a row fills them
COLUMNS: dict[str, tuple[list[str], Callable[[dict[str, Any]], list[str]]]] = {
    "czajka": (["game", "prefix", "period", "largest idx", "largest", "rare mask", "num rare",
                "last rare", "computed to", "oeis"], _czajka),
    "flammenkamp": (["game", "sgv", "type", "rare + last", "max + index", "P-positions + last",
                     "period", "pre-period", "oeis"], _flammenkamp),
}


def _markdown(head: list[str], body: list[list[str]]) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    lines += ["| " + " | ".join(cells) + " |" for cells in body]
    return "\n".join(lines) + "\n"


def _csv(head: list[str], body: list[list[str]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(head)
    writer.writerows(body)
    return out.getvalue()


def _tex_cell(text: str) -> str:
    for a, b in (("\\", r"\textbackslash{}"), ("&", r"\&"), ("%", r"\%"), ("#", r"\#"),
                 ("_", r"\_"), ("$", r"\$"), ("{", r"\{"), ("}", r"\}")):
        text = text.replace(a, b)
    return text


def _tex(head: list[str], body: list[list[str]]) -> str:
    lines = [r"\begin{tabular}{l" + "r" * (len(head) - 1) + "}", r"\hline",
             " & ".join(_tex_cell(h) for h in head) + r" \\", r"\hline"]
    lines += [" & ".join(_tex_cell(c) for c in cells) + r" \\" for cells in body]
    return "\n".join(lines + [r"\hline", r"\end{tabular}"]) + "\n"


#: one writer per format: (header, rows of cells) -> text
WRITERS: dict[str, Callable[[list[str], list[list[str]]], str]] = {
    "md": _markdown, "csv": _csv, "tex": _tex}


def export_table(rows: list[dict[str, Any]], fmt: str = "md", columns: str = "czajka") -> str:
    """The rows of a census table as text in fmt ("md", "csv", "tex") with the column set
    columns ("czajka", "flammenkamp"); see the module docstring.

    Raises
    ------
    ValueError
        An unknown format or column set.
    """
    if fmt not in WRITERS:
        raise ValueError(f"a format is one of {', '.join(WRITERS)}, not {fmt!r}")
    if columns not in COLUMNS:
        raise ValueError(f"the columns are one of {', '.join(COLUMNS)}, not {columns!r}")
    head, fill = COLUMNS[columns]
    ordered = sorted(rows, key=lambda r: standard_key(r["code"]))
    return WRITERS[fmt](head, [fill(r) for r in ordered])


@dataclass
class Comparison:
    """Every published row of a code the census holds set against it: rows compared, one
    line per difference, and the published games the census does not hold (not differences:
    a census of some codes compared with a whole table)."""

    compared: int = 0
    differences: list[str] = field(default_factory=list)
    absent: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        head = (f"{self.compared} published rows compared (the codes the census holds; open "
                "rows up to the heap sizes both reached): ")
        head += (f"{len(self.differences)} differences" if self.differences
                 else "all equal to the census's")
        if self.absent:
            shown = ", ".join(self.absent[:12]) + (", ..." if len(self.absent) > 12 else "")
            head += f"; {len(self.absent)} not in the census, not compared ({shown})"
        return "\n".join([head] + self.differences)


#: the published columns compared, in T. Czajka's order (whitespace tables)
_COMPARED = ["game", "prefix", "period", "largest idx", "largest", "rare mask", "num rare",
             "last rare", "computed to"]


def _published(path: str) -> list[dict[str, str]]:
    """The rows of a published table: a CSV with a header, or whitespace columns in Czajka's
    order ('#' starts a comment)."""
    text = read_capped(path, MAX_TABLE_BYTES, "table")
    lines = [line for line in text.splitlines() if line.strip() and not line.startswith("#")]
    if not lines:
        raise ValueError(f"{path}: no rows in it")
    if "," in lines[0]:
        reader = csv.DictReader(io.StringIO("\n".join(lines)))
        if not reader.fieldnames or "game" not in reader.fieldnames:
            raise ValueError(f"{path}: a CSV table needs a 'game' column")
        return [dict(r) for r in reader]
    out = []
    for number, line in enumerate(lines, 1):
        cells = line.split()
        if len(cells) < 3:
            raise ValueError(f"{path}, row {number}: fewer than 3 columns")
        out.append(dict(zip(_COMPARED, cells)))
    return out


def compare_table(rows: list[dict[str, Any]], path: str) -> Comparison:
    """The census's rows against the published table in path, on the codes both hold: one
    line for every row that differs.  A solved row (ours proven, or a published period)
    states the game for every heap size; an open one only up to the heap sizes it reached
    (ours: ``reached``; theirs: a "computed to" column), and two rows are compared up to the
    heap sizes both reached: what the shallower one states must hold there for the deeper
    one (its largest value and where, and its rare values when both use the same rare mask).
    A game open on one side and solved on the other differs only by depth: not a difference.
    """
    by_code = {code: row for row in rows for code in row["members"]}
    found = Comparison()
    for published in _published(path):
        game = published["game"]
        try:
            code = canonical("4.0" if game == "4" else game)
        except ValueError:
            found.differences.append(f"{game}: not an octal code")
            continue
        row = by_code.get(code)
        if row is None:
            found.absent.append(game)
            continue
        found.compared += 1
        try:
            found.differences += _row_differences(game, row, published)
        except ValueError as exc:
            found.differences.append(f"{game}: {exc}")
    return found


#: the numbers a row states: (published column, row field)
_NUMBERS = (("largest idx", "largest_at"), ("largest", "largest"), ("num rare", "rare_count"),
            ("last rare", "last_rare"), ("prefix", "preperiod"), ("period", "period"),
            ("computed to", "reached"))


def _row_differences(game: str, row: dict[str, Any], published: dict[str, str]) -> list[str]:
    """What a published row states that the census's row contradicts (see compare_table)."""
    theirs = {column: _number(published.get(column), column) for column, _f in _NUMBERS}
    mask = published.get("rare mask")
    theirs_mask = None if mask in (None, "", "-") else mask
    solved = is_solved(row)
    ours = {column: row[name] for column, name in _NUMBERS}
    depths = (None if solved else int(row["reached"]),
              None if theirs["period"] is not None else theirs["computed to"])
    if depths[1] is None and theirs["period"] is None:
        depths = (depths[0], -1)          # an open published row of no stated depth
    out = []
    if solved and theirs["period"] is not None:
        out += [f"{game}: {c} {ours[c]} here, {theirs[c]} in the table"
                for c in ("prefix", "period") if theirs[c] is not None and ours[c] != theirs[c]]
    if depths[1] == -1:
        return out
    same_mask = theirs_mask is None or _mask(row) == theirs_mask
    if depths[0] == depths[1]:            # the same heap sizes: every column
        columns = ["largest idx", "largest"] + (["num rare", "last rare"] if same_mask else [])
        out += [f"{game}: {c} {ours[c]} here, {theirs[c]} in the table" for c in columns
                if theirs[c] is not None and ours[c] != theirs[c]]
        if not same_mask:
            out.append(f"{game}: rare mask {_mask(row)} here, {theirs_mask} in the table")
        return out
    return out + _up_to_shared(game, ours, theirs, depths, same_mask and theirs_mask is not None)


def _up_to_shared(game: str, ours: dict[str, Any], theirs: dict[str, Any],
                  depths: tuple[int | None, int | None], rare: bool) -> list[str]:
    """Rows of different depths (None: every heap size), compared on the heap sizes below
    the smaller: a record or the last rare value the deeper row places below it must be the
    shallower row's too; else the shallower row's largest (rare count) is below the
    deeper's."""
    ours_deeper = depths[1] is not None and (depths[0] is None or depths[0] > depths[1])
    deep, shallow = (ours, theirs) if ours_deeper else (theirs, ours)
    shared = depths[1] if ours_deeper else depths[0]
    assert shared is not None
    where = f" (compared on the first {shared:,} heap sizes, which both reached)"
    pairs = [("largest idx", "largest")] + ([("last rare", "num rare")] if rare else [])
    out = []
    for at, count in pairs:
        if deep[at] is None or shallow[count] is None or deep[count] is None:
            continue
        if deep[at] < shared:
            wrong = [c for c in (at, count) if shallow[c] is not None and shallow[c] != deep[c]]
        else:
            wrong = [count] if shallow[count] >= deep[count] else []
        out += [f"{game}: {c} {ours[c]} here, {theirs[c]} in the table{where}" for c in wrong]
    return out


def _number(text: str | None, column: str) -> int | None:
    if text in (None, "", "-"):
        return None
    assert text is not None
    try:
        return int(text.replace(",", ""))
    except ValueError:
        raise ValueError(f"{column} {text[:20]!r} in the table is not a number") from None
