"""The misère census (nimbers.research.census.misere): rows equal to misere_quotient, bounds
stated per class, resumable, a torn last line dropped, the command and its tables, the same
rows from a real dask cluster."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from conftest import dask_cluster

import nimbers

from nimbers.games import misere_quotient, octal_game
from nimbers.research.census import misere
from nimbers.research.census.misere_table import csv_text, markdown

CODES = ["0.07", "0.75", "0.31", "0.137", "0.51", "4.7"]


@pytest.fixture(scope="module")
def census_dir(tmp_path_factory):
    d = str(tmp_path_factory.mktemp("misere"))
    misere.misere_census(codes=CODES, out=d, max_heap=9, workers=2)
    return d


def test_rows_equal_the_library(census_dir):
    rows = misere.misere_census(codes=CODES, out=census_dir, max_heap=9, workers=1)
    assert [r["code"] for r in rows] == sorted({r["code"] for r in rows},
                                               key=misere.standard_key)
    for r in rows:
        q = misere_quotient(octal_game(r["code"]), 9)
        assert (r["reached"], r["orders"], r["order"], r["p_size"]) == \
            (q.max_heap, list(q.orders), q.order, len(q.p_portion))
        assert (r["max_heap"], r["max_order"]) == (9, misere.DEFAULT_MAX_ORDER)
        assert r["tame"] == q.evidence().tame


def test_resumes_without_recomputing(census_dir):
    path = os.path.join(census_dir, misere.MISERE_TABLE)
    before = _read(path)
    misere.misere_census(codes=CODES, out=census_dir, max_heap=9, workers=1)
    misere.misere_census(codes=CODES, out=census_dir, max_heap=7, workers=1)   # covered
    assert _read(path) == before


def _read(path):
    with open(path, "rb") as f:
        return f.read()


def test_torn_last_line_is_dropped(census_dir, tmp_path):
    d = str(tmp_path)
    lines = _read(os.path.join(census_dir, misere.MISERE_TABLE)).split(b"\n")
    with open(os.path.join(d, misere.MISERE_TABLE), "wb") as f:
        f.write(b"\n".join(lines[:2]) + b"\n" + lines[2][:25])
    assert len(misere.read_misere_rows(d)) == 2
    assert _read(os.path.join(d, misere.MISERE_TABLE)).endswith(b"\n")
    with open(os.path.join(d, misere.MISERE_TABLE), "ab") as f:
        f.write(b"[[[\n")
    with pytest.raises(ValueError, match="line 3"):
        misere.read_misere_rows(d)


def test_bad_bounds_refused(tmp_path):
    for kw in ({"max_heap": 0}, {"max_order": 1}, {"max_heap": True}):
        with pytest.raises(ValueError):
            misere.misere_census(codes=["0.07"], out=str(tmp_path), **kw)
    with pytest.raises(ValueError):
        misere.misere_census(codes=["0.8"], out=str(tmp_path))


def test_tables(census_dir):
    rows = misere.read_misere_rows(census_dir)
    md = markdown(rows).splitlines()
    assert len(md) == 4 + len(rows) and all(line.count("|") == 14 for line in md[2:])
    text = csv_text(rows)
    assert text.splitlines()[0].startswith("code,members,heap_bound,order_cap")


def test_command(capsys, monkeypatch, tmp_path):
    from nimbers.cli import main
    codes = tmp_path / "codes.txt"
    codes.write_text(".07 .75  # two games\n", encoding="utf-8")
    d, t = tmp_path / "c", tmp_path / "t"
    argv = ["census", "misere", str(d), "--codes", str(codes), "--max-heap", "8",
            "--workers", "1", "--table", str(t)]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert out.startswith("2 classes, bounds (heap, order cap) [(8, 2048)]")
    assert (t / "misere_quotients.md").exists() and (t / "misere_quotients.csv").exists()
    assert main(["census", "misere", str(d), "--check", "--workers", "1"]) == 0
    assert "computed again: all equal" in capsys.readouterr().out
    rows = [json.loads(line) for line in _read(d / misere.MISERE_TABLE).splitlines()]
    assert {r["code"] for r in rows} == {"0.07", "0.75"}


def test_same_rows_on_a_dask_cluster(census_dir, tmp_path, capsys):
    """Two dask workers on 127.0.0.1 (the census's executor): the same rows as the local
    pool's, and --check on the cluster finds them equal."""
    pytest.importorskip("distributed", reason="dask distributed is not installed")
    from nimbers.cli import main
    src = str(Path(nimbers.__file__).resolve().parents[1])
    env = dict(os.environ, PYTHONPATH=src + os.pathsep + os.environ.get("PYTHONPATH", ""))
    with dask_cluster(env) as (address, _workers):
        rows = misere.misere_census(codes=CODES, out=str(tmp_path), max_heap=9,
                                    scheduler=address)
        assert main(["census", "misere", str(tmp_path), "--check", "--scheduler", address]) == 0
    assert "computed again: all equal" in capsys.readouterr().out
    local = {r["code"]: r for r in misere.read_misere_rows(census_dir)}
    assert len(rows) == len(local)
    for r in rows:
        assert {k: v for k, v in r.items() if k != "seconds"} == \
            {k: v for k, v in local[r["code"]].items() if k != "seconds"}


def test_each_code_its_own_class(tmp_path):
    rows = misere.misere_census(codes=["0.64", "0.65"], out=str(tmp_path), max_heap=6,
                                workers=1, each=True)
    assert [r["members"] for r in rows] == [["0.64"], ["0.65"]]


def test_dawsons_kayles_row_is_siegels_360(tmp_path):
    """The published order (tests/data/misere_quotients.json names the source)."""
    import pathlib
    data = json.loads((pathlib.Path(__file__).resolve().parents[1] / "data"
                       / "misere_quotients.json").read_text(encoding="utf-8"))
    (row,) = misere.misere_census(codes=["0.07"], out=str(tmp_path), max_heap=30, workers=1)
    assert row["reached"] == 30 and row["order"] == data["dawson_q30_order"]
    assert row["stopped"] is None and not row["tame"]


@pytest.mark.parametrize("why, kind", [
    ("heap 14: |Q_14| = 2248 exceeds max_order=2048 (proved)", "order past the cap"),
    ("heap 17: no recalibration says the position 17+1 right within the working order 4096 "
     "(2 outgrew it); |Q_17| >= 2318 (...), which exceeds max_order=2048 (certified)",
     "order past the cap"),
    ("heap 16: a candidate exceeds the working order 4096; |Q_16| >= 1120", "order cap"),
    ("heap 6: no recalibration says the position 6+5 right within the working order 4096 "
     "(24 outgrew it); |Q_6| >= 132 (...)", "recalibration"),
    ("heap 18: no candidate proved after 500 recalibrations; |Q_18| >= 460 (...)",
     "recalibration"),
    (None, None)])
def test_stop_kinds(why, kind):
    """A row's kind of stop is read off the search's reason: past the cap only when the order
    is proved or certified past it."""
    from nimbers.research.census.misere import _stopped
    assert _stopped(why) == kind


# ---- the whole game's column, and a check that checks every field (issue 53) ----------------

def test_whole_game_column(tmp_path):
    rows = misere.misere_census(codes=["0.75", "0.07"], out=str(tmp_path), max_heap=30,
                                workers=1)
    by = {r["code"]: r for r in rows}
    assert by["0.75"]["whole"] == misere_quotient(octal_game("0.75"), 30).whole.to_json()
    assert by["0.75"]["whole"]["proved"] and by["0.75"]["reached"] == 21
    assert not by["0.07"]["whole"]["proved"] and by["0.07"]["reached"] == 30
    md = markdown(rows)
    assert "proved: Q_21, period 2 from heap 8" in md and "open: no period closes" in md


def _edited(census_dir, tmp_path, edit):
    rows = [json.loads(line) for line in _read(Path(census_dir) / misere.MISERE_TABLE)
            .splitlines()]
    edit(rows)
    d = tmp_path / "edited"
    d.mkdir()
    (d / misere.MISERE_TABLE).write_text("".join(json.dumps(r) + "\n" for r in rows),
                                         encoding="utf-8")
    return d


def _row(rows, code):
    return next(r for r in rows if r["code"] == code)


@pytest.mark.parametrize("edit, message", [
    (lambda rows: _row(rows, "0.75").update(stopped="time", orders=[2, 6, 6, 9, 9, 9, 9, 9, 9],
                                            order=9), "0.75 differs"),
    (lambda rows: _row(rows, "0.75").update(unchanged_from=3), "unchanged_from"),
    (lambda rows: _row(rows, "0.07").update(generators=5), "generators"),
    (lambda rows: _row(rows, "0.75").update(members=["0.75", "0.77"]), "another normal-play"),
    (lambda rows: _row(rows, "0.75").update(whole={**_row(rows, "0.75")["whole"],
                                                   "proved": True}), "whole"),
    (lambda rows: _row(rows, "0.75").pop("reached"), "no 'reached'"),
    (lambda rows: _row(rows, "0.75").update(stopped="sleep"), "'stopped'"),
    (lambda rows: _row(rows, "0.75").update(order=7), "last of its orders")])
def test_check_catches_every_edited_field(census_dir, tmp_path, capsys, edit, message):
    from nimbers.cli import main
    d = _edited(census_dir, tmp_path, edit)
    assert main(["census", "misere", str(d), "--check", "--workers", "1"]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_codes_file_past_the_cap_is_refused_not_cut(tmp_path, capsys):
    """One reader for both census commands: a file over 1 MiB is refused (it was read up to
    1 MiB and '0.137' computed as '0.1')."""
    from nimbers.cli import main
    codes = tmp_path / "codes.txt"
    codes.write_text(" " * ((1 << 20) - 3) + "0.137\n", encoding="utf-8")
    for argv in (["census", "misere", str(tmp_path / "m"), "--codes", str(codes)],
                 ["census", "--codes", str(codes), "--out", str(tmp_path / "c")]):
        assert main(argv) == 2
        assert "1,048,576 bytes is refused" in capsys.readouterr().err
    assert not (tmp_path / "m" / misere.MISERE_TABLE).exists()
