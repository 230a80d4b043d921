"""Every ``--json`` answer of the command line is structured fields, never a text wrapped in
JSON (issue 38, item 5: ``heap 0.6 1000 --stats --json`` gave ``{"stats": "<the text>"}``);
the fields are those docs/guide.md lists under "JSON output"."""

from __future__ import annotations

import json

import pytest

from nimbers.cli import main
from nimbers.games.heap import octal_game

#: one command line for each --json answer (the matrix files are written by the test)
JSON_COMMANDS = [
    ["minpoly", "8", "--json"],
    ["solve-quadratic", "1", "2", "--json"],
    ["explain", "5", "11", "--json"],
    ["explain", "--sum", "5", "11", "--json"],
    ["nim", "3", "5", "7", "--json"],
    ["heap", "0.6", "1000", "--stats", "--json"],
    ["heap", "grundy", "300", "--stats", "--json"],
    ["heap", "0.77", "200", "--stats", "--period", "--json"],
    ["heap", "0.77", "100", "--period", "--json"],
    ["heap", "0.77", "--heaps", "3,4", "--json"],
    ["heap", "0.77", "--heaps", "3,4", "--misere", "--json"],
    ["heap", "0.77", "12", "--misere", "--genus", "--json"],
    ["turning", "ruler", "16", "--json"],
    ["turning", "ruler", "--heads", "1,4", "--json"],
    ["turning", "mocking-turtles", "8", "--misere", "--json"],
    ["tartan", "turning-corners", "--size", "4", "--json"],
    ["tartan", "turning-corners", "--heads", "1:2,3:3", "--json"],
    ["solve", "A.txt", "B.txt", "--json"],
    ["heap", "0.75", "--quotient", "6", "--json"],
]


def texts(value):
    """Every string inside a JSON value."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from texts(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from texts(item)


def answer(capsys, argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert code == 0 and err == "", err
    return json.loads(out)


@pytest.mark.parametrize("argv", JSON_COMMANDS, ids=" ".join)
def test_every_json_answer_is_fields_not_text(argv, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "A.txt").write_text("1 2\n3 4\n")
    (tmp_path / "B.txt").write_text("1\n0\n")
    data = answer(capsys, argv)
    wrapped = [t for t in texts(data) if "\n" in t]
    assert wrapped == [], f"text wrapped in JSON: {wrapped[0][:80]!r}"


@pytest.mark.parametrize("code, count", [("0.6", 1000), ("0.77", 200), ("4.07", 500)])
def test_heap_stats_as_fields(code, count, capsys):
    stats = octal_game(code).stats(count)
    fields = answer(capsys, ["heap", code, str(count), "--stats", "--json"])["stats"]
    rare = stats.rare_positions.tolist()
    assert fields == {"count": count, "largest": stats.largest, "largest_at": stats.largest_at,
                      "mask": stats.mask_name, "rare_count": len(rare),
                      "last_rare": rare[-1] if rare else None, "rare_positions": rare,
                      "rare_values": stats.rare_values.tolist(),
                      "record_positions": stats.record_positions.tolist(),
                      "record_values": stats.record_values.tolist()}
    assert int(fields["mask"].split("+")[0], 16) == stats.mask


def test_heap_stats_of_a_game_without_a_sparse_space(capsys):
    fields = answer(capsys, ["heap", "0.33", "300", "--stats", "--json"])["stats"]
    assert fields["mask"] is None and fields["rare_count"] is None and fields["rare_positions"] == []
    assert fields["largest"] == max(octal_game("0.33").nim_values(300).tolist())
