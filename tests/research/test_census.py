"""The census of octal games (nimbers.games.census, nimbers census): classes against T. Czajka's
GameLookup.md and TrivialGames.md, the solved frontier games against SolvedGames.md, the same
table from a process pool and from a real dask cluster on 127.0.0.1, a census killed with
kill -9 and run again, verify on a good and a tampered table, the unreachable scheduler."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from conftest import dask_cluster, edited_table, free_port

import nimbers
from nimbers.games import octal_game
from nimbers.research import census
from nimbers.research.census.classes import (codes_up_to, dead_heaps, normalized,
                                                standard_form, written)
from nimbers.research.census.report import census_report
from nimbers.research.census.table import TABLE, append_row, numbered_rows, read_rows
from nimbers.research.census.verify import CensusError, verify_census
from oracle import heap_values

DATA = Path(__file__).resolve().parents[1] / "data"
#: where the nimbers under test was imported from (the source tree, or an installed package
#: when the sdist's or the wheel's tests run): the command-line runs import the same one
SRC = str(Path(nimbers.__file__).resolve().parents[1])
#: heap sizes per game in the tables compared here: small enough to be quick, and a depth
#: rather than a time, so that every run gives the same table
DEPTH = 1 << 14
#: what differs between two runs of the same census: the measurements
MEASURED = ("seconds", "peak_bytes")


def _data(name):
    for line in (DATA / name).read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            yield line.split()


def _code(text):
    return "4.0" if text == "4" else ("0" + text if text.startswith(".") else text)


def _same_classes_as_czajka(rows, codes):
    """The rows partition codes as GameLookup.md does (each row: the codes of one of its
    standard forms, all of them), and each row's code is the standard form by our rule."""
    lookup = {a: b for a, b in _data("czajka_game_lookup.txt")}
    for row in rows:
        forms = {lookup[c] for c in row["members"]}
        assert len(forms) == 1, row["members"]
        assert set(row["members"]) == {c for c in codes if lookup[c] in forms}, row["code"]
        assert row["code"] == standard_form(row["members"])
    assert len(rows) == len({lookup[c] for c in codes})


def _comparable(rows):
    return sorted((json.dumps({k: v for k, v in r.items() if k not in MEASURED}, sort_keys=True)
                   for r in rows))


def _env():
    env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("NIMBERS_TIME_LIMIT", None)
    return env


def _cli(*args, timeout=120):
    return subprocess.run([sys.executable, "-m", "nimbers", "census", *args], env=_env(),
                          capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def two_digits(tmp_path_factory):
    """The 2-digit census on a local pool, to DEPTH heap sizes per game."""
    out = str(tmp_path_factory.mktemp("census2"))
    rows = census(2, out=out, workers=2, until=DEPTH, progress=False)
    return out, rows


def test_codes_and_standard_forms():
    assert len(codes_up_to(1)) == 15 and len(codes_up_to(3)) == 1023
    assert len(set(codes_up_to(3))) == 1023
    assert standard_form(["4.11", "0.51", "4.1"]) == "0.51"      # 0. before 4. when as short
    assert standard_form(["0.2", "0.3", "4.0"]) == "4.0"          # "4" is shorter than ".2"
    assert [written(c) for c in ("0.77", "4.0", "4.3")] == [".77", "4", "4.3"]
    assert dead_heaps(octal_game("0.44").nim_values(8)) == 2      # heaps 1, 2: no move


def test_one_digit_census(tmp_path):
    rows = census(1, out=str(tmp_path), workers=2, until=DEPTH, progress=False)
    assert sorted(c for r in rows for c in r["members"]) == sorted(codes_up_to(1))
    _same_classes_as_czajka(rows, codes_up_to(1))
    for row in rows:
        assert (row["period"] is None) == (row["code"] == "0.6")   # Officers: open
        assert (row["theorem"] is None) == (row["period"] is None)


def test_two_digit_census_matches_czajkas_classes(two_digits):
    out, rows = two_digits
    members = [c for r in rows for c in r["members"]]
    assert sorted(members) == sorted(codes_up_to(2))              # each code once
    _same_classes_as_czajka(rows, codes_up_to(2))
    for row in rows:
        assert row["class"] in (("single",) if len(row["members"]) == 1 else ("proved", "values"))
    opened = {r["code"] for r in rows if r["period"] is None}
    assert {"0.6", "0.04", "0.06", "0.14", "0.36", "0.64", "0.74", "0.76"} <= opened
    assert read_rows(out) == read_rows(out, repair=False)


def test_trivial_games_as_published(two_digits):
    """Czajka's trivial games (dead heaps dropped there): the same pre-period, period and
    values; the 1- and 2-digit ones from the census, the others game by game."""
    _, rows = two_digits
    by_code = {r["code"]: r for r in rows}
    for game, prefix, period, shown in _data("czajka_trivial_games.txt"):
        code = _code(game)
        values = octal_game(code).nim_values(1200)
        seq = normalized(values)
        digits = [int(ch, 36) for ch in shown.replace("(", "").replace(")", "")]
        assert seq[:len(digits)].tolist() == digits, game
        if code in by_code:
            row = by_code[code]
            assert (row["period"], max(row["preperiod"] - row["dead_heaps"][0], 0)) == (
                int(period), int(prefix)), game
        else:
            per = octal_game(code).period()
            assert (per.period, max(per.preperiod - dead_heaps(values), 0)) == (int(period),
                                                                                 int(prefix)), game


def test_solved_frontier_games_as_published(tmp_path):
    """The solved frontier games (all but .376 and .354, whose proofs take 4.5 and 20 million
    heap sizes: benchmarks/bench_census.py): period, pre-period (from heap 0, as
    SolvedGames.md counts them), the largest value and the sparse space's statistics."""
    wanted = {_code(g): rest for g, *rest in _data("czajka_solved_games.txt")
              if g not in (".376", ".354")}
    rows = census(codes=list(wanted), out=str(tmp_path), workers=2, until=1 << 20,
                  progress=False)
    assert len(rows) == len(wanted)
    for row in rows:
        prefix, period, at, largest, mask, rare, last = wanted[row["code"]]
        assert (row["preperiod"], row["period"]) == (int(prefix), int(period)), row["code"]
        assert (row["largest_at"], row["largest"]) == (int(at), int(largest)), row["code"]
        if mask != "-":   # .127: "1+pos", the odd class of the parity mask (games.heap.stats)
            shown = row["rare_mask"] + ("+pos" if row["rare_parity"] else "")
            assert shown == mask, row["code"]
            assert (row["rare_count"], row["last_rare"]) == (int(rare), int(last)), row["code"]
    verify_census(str(tmp_path), workers=2)


def test_161_and_36_are_two_games(tmp_path):
    """.161 and .36 agree on heaps 0..518 and differ at 519 (Czajka's list has them apart;
    a slip of the literature had them as one)."""
    a, b = octal_game("0.161").nim_values(600), octal_game("0.36").nim_values(600)
    assert np.array_equal(a[:519], b[:519]) and a[519] != b[519]
    rows = census(codes=[".161", ".36"], out=str(tmp_path / "deep"), workers=2, until=1024,
                  progress=False)
    assert sorted(r["code"] for r in rows) == ["0.161", "0.36"]
    shallow = census(codes=[".161", ".36"], out=str(tmp_path / "shallow"), workers=1,
                     until=512, progress=False)
    assert len(shallow) == 1 and shallow[0]["class"] == "values"   # equal as far as computed,
    assert shallow[0]["equal_up_to"] <= 512                        # and marked so


def test_same_table_on_a_dask_cluster(two_digits, tmp_path):
    pytest.importorskip("distributed", reason="dask distributed is not installed")
    _, local = two_digits
    with dask_cluster(_env()) as (address, _workers):
        rows = census(2, out=str(tmp_path), scheduler=address, until=DEPTH, progress=False)
    assert _comparable(rows) == _comparable(local)


def test_killed_twice_and_run_again(two_digits, tmp_path):
    """kill -9 (the census and its workers) twice during a 2-digit census, a torn last line
    left behind, then the same command to the end: the same table, no row twice."""
    _, local = two_digits
    out = tmp_path / "killed"
    command = [sys.executable, "-m", "nimbers", "census", "--digits", "2", "--out", str(out),
               "--until", str(DEPTH), "--workers", "2"]
    table = out / TABLE
    for kill in range(2):
        before = len(read_rows(str(out))) if table.exists() else 0
        proc = subprocess.Popen(command, env=_env(), start_new_session=True,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and proc.poll() is None:
                if table.exists() and len(table.read_bytes().splitlines()) > before:
                    break
                time.sleep(0.01)
        finally:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    partial = read_rows(str(out))
    assert len(partial) < len(local)                     # it was stopped before the end
    with open(table, "ab") as f:                         # a write cut short
        f.write(b'{"code":"0.6","members":["0.6"')
    done = subprocess.run(command, env=_env(), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    rows = read_rows(str(out), repair=False)
    codes = [c for r in rows for c in r["members"]]
    assert len(codes) == len(set(codes)) == len(codes_up_to(2))
    assert _comparable(rows) == _comparable(local)
    assert table.read_bytes().endswith(b"\n")


def test_verify_passes_and_fails_naming_the_row(tmp_path):
    good = tmp_path / "good"
    rows = census(codes=[".16", ".77", ".161", ".36", ".6", ".61"], out=str(good), workers=2,
                  until=1 << 16, progress=False)
    assert {r["code"]: r["period"] for r in rows}["0.77"] == 12
    result = verify_census(str(good), workers=2, budget=60)
    assert result.rows == len(rows) == 5 and result.proven == 1
    done = _cli("verify", str(good), "--budget", "60")
    assert done.returncode == 0 and "5 rows verified" in done.stdout

    def tampered(name, change):
        return edited_table(good, tmp_path, name, change, TABLE)

    def period(row):
        if row["code"] == "0.77":
            row["period"] += 1
            return True
        return False

    bad, line = tampered("period", period)
    with pytest.raises(CensusError, match=rf"row {line} \(0.77\)"):
        verify_census(str(bad), workers=2, budget=60)
    done = _cli("verify", str(bad), "--budget", "60")
    assert done.returncode == 2 and f"row {line} (0.77)" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1

    def largest(row):
        if row["code"] == "0.77":
            row["largest"] += 1
            return True
        return False

    with pytest.raises(CensusError, match=r"\(0.77\): largest \d+ at largest_at \d+: the largest value"):
        verify_census(str(tampered("largest", largest)[0]), workers=1, budget=60)

    def member(row):
        if row["code"] == "0.6":
            row["members"].append("0.64")
            row["dead_heaps"].append(1)          # heap 1 allows no move in 0.64
            return True
        return False

    with pytest.raises(CensusError, match=r"\(0.6\): member 0.64 differs"):
        verify_census(str(tampered("member", member)[0]), workers=1, budget=60)


def test_unreachable_scheduler_is_one_line(tmp_path):
    pytest.importorskip("distributed", reason="dask distributed is not installed")
    began = time.monotonic()
    done = _cli("--digits", "1", "--out", str(tmp_path), "--scheduler",
                f"tcp://127.0.0.1:{free_port()}", timeout=90)
    assert done.returncode == 2 and time.monotonic() - began < 60
    assert len(done.stderr.strip().splitlines()) == 1
    assert "cannot reach the dask scheduler" in done.stderr


def test_cli_usage_errors_are_one_line(tmp_path):
    for args in (["--digits", "2"], ["verify", str(tmp_path / "none")],
                 ["--digits", "0", "--out", str(tmp_path)]):
        done = _cli(*args)
        assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1, args


def test_report(two_digits, tmp_path):
    out, rows = two_digits
    report = census_report(out, plot=None)   # the counts need no matplotlib; the plot below does
    assert report.classes == len(rows) and report.codes == 127
    assert report.solved + len(report.open) == report.classes
    assert {r["code"] for r in report.frontier} == {"0.45"}      # .16, .56: beyond DEPTH here
    text = str(report)
    assert "open" in text and ".6 " in text
    pytest.importorskip("matplotlib", reason="the plot needs matplotlib (pip install 'nimbers[plot]')")
    census_report(out, plot=str(tmp_path / "plot.png"))
    assert (tmp_path / "plot.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_torn_last_line_is_dropped(tmp_path):
    """(The rows here are not whole rows: numbered_rows reads them unchecked, as verify.)"""
    append_row(str(tmp_path), {"code": "0.77", "members": ["0.77"]})
    with open(tmp_path / TABLE, "ab") as f:
        f.write(b'{"code": "0.6", "memb')
    assert numbered_rows(str(tmp_path), repair=False) == [(1, {"code": "0.77",
                                                               "members": ["0.77"]})]
    assert (tmp_path / TABLE).read_bytes().endswith(b"memb")
    numbered_rows(str(tmp_path))
    assert (tmp_path / TABLE).read_bytes().endswith(b"]}\n")
    with open(tmp_path / TABLE, "ab") as f:
        f.write(b"not json\n")
    with pytest.raises(ValueError, match="line 2"):
        read_rows(str(tmp_path))


def test_verify_the_two_digit_table(two_digits):
    """Every row of a whole census, tiny proofs (4.0: six values) beside open games."""
    out, rows = two_digits
    result = verify_census(out, workers=2, budget=30)
    assert (result.rows, result.proven) == (len(rows), sum(r["period"] is not None for r in rows))


def test_a_proof_beyond_the_published_list(tmp_path):
    """4.344 is proven here (period 51 from heap 998; Czajka's UnsolvedGames.md lists it as
    open): the values agree with the definition's brute force up to the proof's bound."""
    row, = census(codes=["4.344"], out=str(tmp_path), workers=1, until=1 << 12, progress=False)
    assert (row["period"], row["preperiod"], row["certificate"]["bound"]) == (51, 998, 2101)
    brute = heap_values([4, 3, 4, 4], 2101)
    assert octal_game("4.344").nim_values(2101).tolist() == brute
    assert brute[998:2101 - 51] == brute[998 + 51:] and brute[997] != brute[997 + 51]


def test_bad_arguments_are_refused_at_once(tmp_path):
    out = str(tmp_path)
    for kwargs, message in (({"digits": 2, "codes": [".77"]}, "one of them"),
                            ({"codes": []}, "no codes"), ({"codes": ["1.5"]}, "before the point"),
                            ({"codes": ["0.8"]}, "octal digits"), ({"digits": 7}, "digits is"),
                            ({"digits": 1, "until": 10}, "until"), ({"digits": 1, "until": 2.5}, "until"),
                            ({"digits": 1, "workers": 0}, "workers")):
        with pytest.raises(ValueError, match=message):
            census(out=out, progress=False, **kwargs)
    with pytest.raises(TypeError):
        census(codes=".77", out=out)


def _open_row(code, reached, last_rare, largest_at, rare, cap=None, mask="1e"):
    """A whole row of an open class (the reader refuses part of one), as a census writes."""
    return {"code": code, "members": [code], "dead_heaps": [], "class": "single",
            "equal_up_to": None, "period": None, "preperiod": None, "theorem": None,
            "apparent_period": None, "reached": reached, "largest": 9,
            "largest_at": largest_at, "rare_mask": mask, "rare_parity": False,
            "rare_count": rare, "last_rare": last_rare, "p_positions": 1, "last_p": 0,
            "first_values": [0, 1], "engine": "memory", "cap": cap, "depth": reached,
            "seconds": 0.5, "peak_bytes": 1 << 20,
            "certificate": {"sha256": "0" * 64, "values": reached, "bound": None,
                            "checkpoints": {}, "offsets": True}}


def test_promising_ranks_the_longest_quiet_stretch_then_the_fewest_rare_values():
    from nimbers.research.census.report import promising, quiet_doublings

    rows = [_open_row("0.6", 2**28, 20627, 19739543, 1584),      # a record late: 3 doublings
            _open_row("0.14", 2**24, 58515, 53850, 1737),        # quiet 8 doublings
            _open_row("0.36", 2**24, 40000, 30000, 200),         # quiet 8 doublings, fewer rare
            _open_row("0.04", 2**17, 10, 10, 9000, cap=2**17),   # capped: not ranked
            _open_row("0.7", 2**24, 2**23 + 5, 10, 3)]           # a rare value just now
    assert [quiet_doublings(r) for r in rows] == [3, 8, 8, 13, 0]
    assert [r["code"] for r in promising(rows)] == ["0.36", "0.14", "0.6", "0.7"]
    assert [r["code"] for r in promising(rows, count=1)] == ["0.36"]


def test_deepen_takes_only_the_chosen_classes_further(tmp_path):
    from nimbers.research.census import census
    from nimbers.research.census.run import deepen
    from nimbers.research.census.table import read_rows

    out = str(tmp_path)
    census(codes=["0.6", "0.14", "0.36"], out=out, workers=1, until=4096, progress=False)
    deepen(out, 16384, promising=1, workers=1, progress=False)
    depths = {r["code"]: r["reached"] for r in read_rows(out)}
    assert sorted(depths.values()) == [4096, 4096, 16384]
    left = sorted(code for code, reached in depths.items() if reached == 4096)
    deepen(out, 16384, only=[left[0]], workers=1, progress=False)
    again = {r["code"]: r["reached"] for r in read_rows(out)}
    assert again[left[0]] == 16384 and again[left[1]] == 4096
    with pytest.raises(ValueError, match="no census row holds"):
        deepen(out, 16384, only=["0.7"], workers=1, progress=False)
    with pytest.raises(ValueError, match="not both"):
        deepen(out, 16384, only=["0.36"], promising=2, workers=1, progress=False)


def test_deepen_ranks_the_promising_at_the_depth_all_open_classes_share(tmp_path):
    """Stopped with one of the chosen classes deeper, a deepening picks the same classes
    again: they are ranked on their rows at the depth every open class reached."""
    import json

    from nimbers.research.census.report import promising
    from nimbers.research.census.run import _at_common_depth
    from nimbers.research.census.table import read_rows

    rows = [dict(_open_row("0.14", 2**14, 2**11, 10, 50), depth=2**14),   # quiet 3 doublings
            dict(_open_row("0.36", 2**14, 2**10, 10, 90), depth=2**14),   # quiet 4
            dict(_open_row("0.14", 2**18, 2**11, 10, 50), depth=2**18)]   # 0.14 went on: 7
    (tmp_path / "census.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    current = read_rows(str(tmp_path), repair=False)
    assert [r["code"] for r in promising(current, 1)] == ["0.14"]
    assert [r["code"] for r in promising(_at_common_depth(str(tmp_path), current), 1)] == \
        ["0.36"]


def test_promising_outside_deepen_is_a_clear_cli_error(tmp_path, capsys):
    from nimbers.cli import main

    assert main(["census", "report", str(tmp_path), "--promising", "3"]) == 2
    assert "--promising is for census deepen" in capsys.readouterr().err
