"""One file format for misère quotients (nimbers.games.quotient.saved): the CLI's --json,
MisereQuotient.save/load and play --quotient read and write the same, checked as hostile
input; and the search's time cap (nimbers._limits)."""

from __future__ import annotations

import io
import json
import time

import numpy as np
import pytest

from nimbers.games import MisereQuotient, misere_quotient, octal_game
from nimbers.games.quotient import proves, saved


def run_cli(capsys, monkeypatch, argv, stdin="q\n"):
    from nimbers.cli import main
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    try:
        code = main(argv)
    except SystemExit as e:
        code = int(e.code or 0)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_cli_json_is_what_play_reads(capsys, monkeypatch, tmp_path):
    code, out, _ = run_cli(capsys, monkeypatch, ["heap", "0.07", "--quotient", "12", "--json"])
    assert code == 0
    path = tmp_path / "q.json"
    path.write_text(out, encoding="utf-8")
    back = MisereQuotient.load(path)
    assert back == misere_quotient(octal_game("0.07"), 12)
    code, out, err = run_cli(capsys, monkeypatch, ["play", "0.07", "3", "5", "7", "--misere",
                                                   "--quotient", str(path)])
    assert code == 0 and err == "" and "heaps:" in out


def test_save_is_what_the_cli_prints(capsys, monkeypatch, tmp_path):
    q = misere_quotient(octal_game("0.75"), 9)
    q.save(tmp_path / "s.json")
    _, out, _ = run_cli(capsys, monkeypatch, ["heap", "0.75", "--quotient", "9", "--json"])
    assert json.loads(out) == json.loads((tmp_path / "s.json").read_text(encoding="utf-8"))


def test_wrong_game_refused_in_one_line(capsys, monkeypatch, tmp_path):
    misere_quotient(octal_game("0.07"), 10).save(tmp_path / "q.json")
    code, _, err = run_cli(capsys, monkeypatch, ["play", "0.77", "3", "5", "--misere",
                                                 "--quotient", str(tmp_path / "q.json")])
    assert code == 2 and len(err.strip().splitlines()) == 1 and "does not say" in err


def test_deep_nesting_refused_in_one_line(capsys, monkeypatch, tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    with pytest.raises(ValueError, match="nested deeper"):
        MisereQuotient.load(path)
    code, _, err = run_cli(capsys, monkeypatch, ["play", "0.07", "3", "--misere",
                                                 "--quotient", str(path)])
    assert code == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_brackets_inside_strings_do_not_count():
    assert saved.depth_of('{"game": "[[[[[[[[[[[[", "t": [[0]]}') == 3


def test_oversized_file_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(saved, "MAX_FILE_BYTES", 1000)
    path = tmp_path / "big.json"
    misere_quotient(octal_game("0.07"), 12).save(path)
    with pytest.raises(ValueError, match="over 1,000 bytes"):
        MisereQuotient.load(path)


def _null_table(m: int) -> dict:
    """A well-formed commutative monoid of order m (all products of non-identity elements
    equal to element 1) whose heaps are m - 1 distinct generators."""
    t = np.ones((m, m), dtype=int)
    t[0, :] = t[:, 0] = np.arange(m)
    pre = [0] + list(range(2, m)) + [1]
    n = len(pre) - 1
    return {"format": saved.FORMAT, "version": 1, "game": "0.07", "code": "0.07",
            "max_heap": n, "requested": n, "gave_up": None, "orders": [m] * n,
            "table": t.tolist(), "p_portion": [2], "pretending": pre}


def test_order_2048_table_refused_quickly(capsys, monkeypatch, tmp_path):
    path = tmp_path / "t.json"
    path.write_text(json.dumps(_null_table(2048)), encoding="utf-8")
    began = time.monotonic()
    code, _, err = run_cli(capsys, monkeypatch, ["play", "0.07", "3", "--misere",
                                                 "--quotient", str(path)])
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert time.monotonic() - began < 60          # was 170 s of associativity checks


def test_costly_associativity_refused_up_front(monkeypatch):
    monkeypatch.setenv("NIMBERS_TIME_LIMIT", "1")
    with pytest.raises(ValueError, match="associativity .* time cap"):
        MisereQuotient.from_json(_null_table(2048))


@pytest.mark.parametrize("change", [
    lambda d: d.update(orders=d["orders"][:-1] + [d["orders"][-1] + 1]),
    lambda d: d.update(readable=[1]),
    lambda d: d.update(game="x" * 300),
    lambda d: d.update(max_heap=10**7, requested=10**7),
    lambda d: d.update(gave_up=7),
])
def test_more_hostile_fields(change):
    data = misere_quotient(octal_game("0.75"), 8).to_json()
    change(data)
    with pytest.raises(ValueError):
        MisereQuotient.from_json(data)


def test_non_associative_table_is_refused():
    data = misere_quotient(octal_game("0.75"), 8).to_json()
    table = np.array(data["table"])
    a, b = 1, 2                       # swap two products: commutative, identity, but wrong
    table[a, b] = table[b, a] = table[a, a]
    data["table"] = table.tolist()
    with pytest.raises(ValueError, match="associative|products"):
        MisereQuotient.from_json(data)


def test_time_cap_stops_the_search(monkeypatch):
    monkeypatch.setenv("NIMBERS_TIME_LIMIT", "2")
    began = time.monotonic()
    # Dawson's Kayles: its quotient still grows (Kayles' closes at heap 167, within the cap)
    q = misere_quotient(octal_game("0.07"), 100_000)
    assert time.monotonic() - began < 12
    assert not q.proved and "time cap of 2 s" in (q.gave_up or "")
    assert q.max_heap >= 12 and len(q.orders) == q.max_heap    # what was proved is kept
    began = time.monotonic()
    q = misere_quotient(octal_game("0.07"), 100_000, time_limit=1)   # the keyword first
    assert time.monotonic() - began < 8 and "time cap of 1 s" in (q.gave_up or "")


def test_proves_honours_the_time_cap():
    q = misere_quotient(octal_game("0.07"), 30)
    with pytest.raises(ValueError, match="time cap"):
        proves(q, octal_game("0.07"), time_limit=1e-3)
