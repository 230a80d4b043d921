"""The census of four-digit octal codes (issue 49): the codes it covers, the OEIS entries its
export names, and the published four-digit periods proven again by it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib import resources
from pathlib import Path

import numpy as np

import nimbers

from nimbers.games.heap import octal_game
from nimbers.research.census.classes import canonical, codes_up_to, normalized
from nimbers.research.export import OEIS_FILE, export_table, oeis_numbers

DATA = Path(__file__).resolve().parents[1] / "data"
SRC = str(Path(nimbers.__file__).resolve().parents[1])


def test_four_digits_are_8191_codes_holding_the_1023_of_three() -> None:
    """2 * 8^4 - 1: 0.d1..dk and 4.d1..dk, k <= 4, no trailing 0, without 0.0 (no move)."""
    four, three = codes_up_to(4), codes_up_to(3)
    assert len(four) == len(set(four)) == 8191 and len(three) == 1023
    assert set(three) <= set(four)
    assert all(canonical(c) == c for c in four)
    assert sum(1 for c in four if len(c.split(".")[1]) == 4) == 2 * 7 * 8**3
    assert {c.split(".")[0] for c in four} == {"0", "4"}


def _oeis_lines() -> list[list[str]]:
    text = resources.files("nimbers.research").joinpath(OEIS_FILE).read_text(encoding="utf-8")
    return [line.split() for line in text.splitlines() if line and not line.startswith("#")]


def test_the_codes_of_each_oeis_entry_are_one_game() -> None:
    """Every code an entry names (its own and those with values a(n-s)) plays the same game
    once the heap sizes allowing no move are dropped: the first 2000 values agree.  So the
    data file's codes can only name the class the entry is about."""
    lines = _oeis_lines()
    assert len(lines) == 110 and len({words[0] for words in lines}) == 110
    for anumber, *codes in lines:
        first = [normalized(octal_game(canonical(c)).nim_values(2048))[:2000] for c in codes]
        assert all(np.array_equal(first[0], f) for f in first), anumber


def test_the_kayles_entry_starts_with_kayles_values() -> None:
    """A002186 (Kayles, OFFSET 0): 0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7 (OEIS)."""
    assert oeis_numbers()["0.77"] == ("A002186",)
    assert octal_game("0.77").nim_values(16).tolist() == [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6,
                                                          4, 1, 2, 7]


def test_the_export_names_the_entries_of_a_class_members() -> None:
    row = {"code": "0.1777", "members": ["0.1777", "0.4763"], "period": None,
           "preperiod": None, "largest_at": 9, "largest": 17, "rare_mask": "1",
           "rare_parity": False, "rare_count": 3, "last_rare": 40, "reached": 4096,
           "class": "values", "cap": None, "first_values": [0, 1]}
    plain = {**row, "code": "0.2525", "members": ["0.2525"]}
    for columns in ("czajka", "flammenkamp"):
        lines = export_table([row, plain], "csv", columns).splitlines()
        assert lines[0].endswith(",oeis")
        assert lines[1].endswith(",A071509") and lines[2].endswith(",-")  # .1777 first


def _published() -> list[list[str]]:
    text = (DATA / "published_periods4.txt").read_text(encoding="utf-8")
    return [line.split() for line in text.splitlines() if line and not line.startswith("#")]


PUBLISHED = _published()
#: the rows re-proven here: pre-period plus twice the period below 2^16 (seconds)
SMALL = [f for f in PUBLISHED if int(f[5]) + int(f[3]) + 1 + 2 * int(f[4]) < 2**16]


def test_the_published_four_digit_periods_found() -> None:
    assert len(PUBLISHED) == 38 and len(SMALL) == 5
    assert {f[1] for f in PUBLISHED if f not in SMALL} == {"A071509"}


def test_the_census_of_four_digit_codes_proves_the_published_periods(tmp_path: Path) -> None:
    """nimbers census --codes FILE (four-digit codes and the OEIS entries' partners) to
    2^17: each published code's class proven with the published period, and its pre-period,
    taken to the code's own heap 0, the published last exception + shift + 1; the export
    names the entries."""
    codes = [f[0] for f in SMALL] + [".074", ".440", ".017", ".4763", ".1777"]
    (tmp_path / "codes.txt").write_text(" ".join(codes) + "  # four digits\n")
    out = tmp_path / "census"
    env = dict(os.environ, PYTHONPATH=SRC + os.pathsep +
               os.environ.get("PYTHONPATH", ""))
    env.pop("NIMBERS_TIME_LIMIT", None)
    done = subprocess.run([sys.executable, "-m", "nimbers", "census", "--codes",
                           str(tmp_path / "codes.txt"), "--until", "2^17", "--out", str(out),
                           "--workers", "1"], capture_output=True, text=True, env=env,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in (out / "census.jsonl").read_text().splitlines()]
    latest = {m: r for r in rows for m in r["members"]}    # later rows replace earlier
    for code, anumber, _offset, shift, period, last, *_notes in SMALL:
        row = latest[canonical(code)]
        assert row["period"] == int(period), code
        rep_dead = row["dead_heaps"][row["members"].index(row["code"])]
        dead = row["dead_heaps"][row["members"].index(canonical(code))]
        assert row["preperiod"] - rep_dead + dead == int(last) + int(shift) + 1, code
    assert latest["0.074"] is latest["0.1377"] and latest["0.017"] is latest["0.1137"]
    assert latest["0.4763"] is latest["0.1777"] and latest["0.1777"]["period"] is None
    table = subprocess.run([sys.executable, "-m", "nimbers", "census", "export", str(out),
                            "--format", "csv"], capture_output=True, text=True, env=env,
                           timeout=120).stdout
    named = {line.split(",")[0]: line.rsplit(",", 1)[1] for line in table.splitlines()[1:]}
    # the classes' standard forms: .44 (.440, with .1377 and .074), .017, .1777
    assert (named[".44"], named[".017"], named[".1777"]) == ("A071434", "A071447", "A071509")


def test_the_long_published_periods_are_listed_with_the_command_that_proves_them() -> None:
    """Not in the suite (443 million values, a 443 MB file): the data file names the commands
    that proved them again, and the digest of the values."""
    text = (DATA / "published_periods4.txt").read_text(encoding="utf-8")
    assert "nimbers heap .1777 --frontier --until 2^29 --checkpoint RUN" in text
    assert "4caf9fabe0ee5f7931d79c8851d64720037ed88946aa9c53c0172804d3475546" in text
    for fields in PUBLISHED:
        if fields not in SMALL:
            assert (fields[1], fields[4]) == ("A071509", "60620715"), fields[0]
            assert oeis_numbers()[canonical(fields[0])] == ("A071509",)
