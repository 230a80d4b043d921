"""The command line: every subcommand, output options, errors and exit codes."""

import json
import subprocess
import sys

import numpy as np
import pytest

from nimbers.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("argv,expected", [
    (["mul", "5", "11"], "12"),
    (["mul", "8", "8"], "13"),
    (["add", "3", "5", "7"], "1"),
    (["inv", "2"], "3"),
    (["div", "1", "3"], "2"),
    (["pow", "2", "10"], "2"),
    (["pow", "2", "-1"], "3"),
    (["sqrt", "2"], "3"),
    (["mul", "0x10", "0b11"], "48"),
    (["mul", "16", "3", "--hex"], "0x30"),
    (["add", "5", "--bin"], "0b101"),
    (["mul", str(2**64), str(2**64)], str(3 * 2**63)),
    # one rule for every number on the command line: powers where --until takes them
    (["mul", "2^64", "2**64"], str(3 * 2**63)),
    (["mul", "2^64", "3"], str(3 * 2**64)),   # 3 is below the Fermat power 2^64
    (["pow", "2^2", "-1"], "15"),
])
def test_arithmetic(capsys, argv, expected):
    code, out, err = run(capsys, *argv)
    assert code == 0 and out.strip() == expected and err == ""


def test_a_power_too_large_is_refused_before_it_is_computed(capsys):
    code, out, err = run(capsys, "mul", "9^99999999999", "3")
    assert code == 2 and out == "" and "at most" in err and len(err.splitlines()) == 1


def test_explain(capsys):
    code, out, _ = run(capsys, "explain", "5", "11")
    assert code == 0 and out.splitlines()[0] == "5 ⊗ 11" and out.splitlines()[-1] == "= 12"
    code, out, _ = run(capsys, "explain", "--sum", "3", "5", "7")
    assert code == 0 and out.splitlines()[-1].startswith("⊕ 1")


def test_table(capsys, tmp_path):
    code, out, _ = run(capsys, "table", "16")
    rows = [r for r in out.splitlines() if r.startswith("|15|")]
    assert code == 0 and rows[0].split("|")[2].split()[:4] == ["0", "15", "5", "10"]
    code, out, _ = run(capsys, "table", "4", "--op", "mex", "--format", "csv")
    assert out.splitlines() == ["mex,0,1,2,3", "0,0,0,0,0", "1,0,1,2,3", "2,0,2,3,1", "3,0,3,1,2"]
    code, out, _ = run(capsys, "table", "4", "--op", "add", "--format", "csv")
    assert out.splitlines()[2] == "1,1,0,3,2"
    pytest.importorskip("PIL")
    png = tmp_path / "t.png"
    code, out, _ = run(capsys, "table", "128", "--png", str(png))
    assert code == 0 and png.exists() and png.read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize("argv", [
    ["mul", "-3", "4"], ["mul", "abc"], ["mul"], ["inv", "0"], ["div", "3", "0"],
    ["pow", "0", "-1"], ["pow", "2", "x"], ["table", "-1"], ["table", "100000"],
    ["table", "4", "--op", "nope"], ["frobnicate"], ["mul", "1.5", "2"],
    ["explain", "1", "2", "3"], ["sqrt", ""], ["mul", "5", "--wat"],
])
def test_errors_are_one_line_exit_2(capsys, argv):
    with pytest.raises(SystemExit) as exc:
        code = main(argv)
        raise SystemExit(code)
    out, err = capsys.readouterr()
    assert exc.value.code == 2
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err


def test_help_on_every_subcommand(capsys):
    from nimbers.cli import build_parser
    _, commands = build_parser()
    assert len(commands) >= 20
    for name in commands:
        with pytest.raises(SystemExit) as exc:
            main([name, "--help"])
        out, _ = capsys.readouterr()
        assert exc.value.code == 0 and "Example" in out and "nimbers " + name in out


def test_module_and_console_script_agree():
    a = subprocess.run([sys.executable, "-m", "nimbers", "mul", "5", "11"],
                       capture_output=True, text=True)
    assert a.returncode == 0 and a.stdout.strip() == "12"
    b = subprocess.run([sys.executable, "-m", "nimbers", "inv", "0"], capture_output=True, text=True)
    assert b.returncode == 2 and len(b.stderr.strip().splitlines()) == 1


# ---- the public face: version, suggestions, intermixed options, stdin batches, JSON, CSV ----


def run_stdin(capsys, monkeypatch, data, *argv):
    import io
    monkeypatch.setattr("sys.stdin", type("In", (), {"buffer": io.BytesIO(data.encode())})())
    return run(capsys, *argv)


def test_version(capsys):
    import nimbers
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0 and capsys.readouterr().out.strip() == f"nimbers {nimbers.__version__}"


@pytest.mark.parametrize("typed,suggested", [("mull", "mul"), ("tabel", "table"),
                                             ("solve-quadratc", "solve-quadratic")])
def test_misspelt_commands_get_a_suggestion(capsys, typed, suggested):
    with pytest.raises(SystemExit) as exc:
        main([typed, "3"])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and f"did you mean {suggested}" in err and len(err.splitlines()) == 1


def test_options_and_operands_in_any_order(capsys):
    code, out, _ = run(capsys, "heap", "0.77", "--period", "20")
    assert code == 0 and out.splitlines()[0].split()[:5] == ["0", "1", "2", "3", "1"]
    assert "period 12" in out.splitlines()[1]
    assert run(capsys, "mul", "5", "--hex", "11")[1].strip() == "0xc"
    with pytest.raises(SystemExit) as exc:
        main(["heap", "0.77", "--perod"])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and "(try: nimbers heap --help)" in err  # not the top level


def test_stdin_one_answer_a_line(capsys, monkeypatch):
    from nimbers import nim_div, nim_inv, nim_mul, nim_pow, nim_sqrt
    from nimbers.field import nim_log, nim_order
    big = 2**100 + 7
    cases = [
        (["mul", "-"], "5 11\n8 8\n\n1 2 3\n0x10,3\n", ["12", "13", str(nim_mul(2, 3)), "48"]),
        (["add", "-"], "3 5 7\n1\n", ["1", "1"]),
        (["mul", "-"], f"{big} {big}\n2 3\n", [str(nim_mul(big, big)), "1"]),
        (["div", "-"], "12 11\n1 3", ["5", str(nim_div(1, 3))]),
        (["pow", "-"], "2 -1\n2 10\n", ["3", str(nim_pow(2, 10))]),
        (["pow", "-"], "0x10 -0x2\n3 0b11\n", [str(nim_pow(16, -2)), str(nim_pow(3, 3))]),
        (["mul", "-"], "1_000 +5\n007 2\n", [str(nim_mul(1000, 5)), str(nim_mul(7, 2))]),
        (["inv", "-", "--hex"], "2\n3\n", [hex(nim_inv(2)), hex(nim_inv(3))]),
        (["sqrt", "-"], "2\n12345\n", [str(nim_sqrt(2)), str(nim_sqrt(12345))]),
        (["log", "-"], "3 2\n", [str(nim_log(3, 2))]),
        (["log", "-", "--base", "2"], "3\n1\n", ["2", "0"]),
        (["order", "-"], "256\n2\n", [str(nim_order(256)), "3"]),
    ]
    for argv, data, expected in cases:
        code, out, err = run_stdin(capsys, monkeypatch, data, *argv)
        assert code == 0 and out.splitlines() == expected and err == "", (argv, out, err)


@pytest.mark.parametrize("argv,data,message", [
    (["div", "-"], "12 11\n3 0\n", "line 2: nim-division by 0"),
    (["inv", "-"], "2\n\n0\n", "line 3: 0 has no nim-inverse"),
    (["div", "-"], "1 2\n3 4 5\n", "line 2: div takes 2 numbers a line, got 3"),
    (["mul", "-"], "1 2\n3 -4\n", "line 2: must be non-negative, got -4"),
    (["mul", "-"], "1 2\n3 x\n", "line 2: not a number"),
    (["mul", "-"], "\n\n", "standard input holds no numbers"),
    (["log", "-"], "3 2\n0 2\n", "line 2:"),
])
def test_stdin_errors_name_the_line(capsys, monkeypatch, argv, data, message):
    code, out, err = run_stdin(capsys, monkeypatch, data, *argv)
    assert code == 2 and message in err and len(err.splitlines()) == 1, err


def test_stdin_batches_agree_with_the_scalar_path(capsys, monkeypatch):
    import random
    from nimbers import nim_mul
    rng = random.Random(5)
    pairs = [(rng.getrandbits(64), rng.getrandbits(64)) for _ in range(2000)]
    data = "".join(f"{a} {b}\n" for a, b in pairs)
    code, out, _ = run_stdin(capsys, monkeypatch, data, "mul", "-")
    assert code == 0 and out.split() == [str(nim_mul(a, b)) for a, b in pairs]


def test_json_outputs(capsys):
    import json
    nim = json.loads(run(capsys, "nim", "3", "5", "7", "--json")[1])
    assert nim == {"nim_sum": 1, "losing": False, "winning_moves": [
        {"pile": 0, "take": 1, "new_size": 2}, {"pile": 1, "take": 1, "new_size": 4},
        {"pile": 2, "take": 1, "new_size": 6}]}
    heap = json.loads(run(capsys, "heap", "0.77", "12", "--period", "--json")[1])
    assert heap["values"][:5] == [0, 1, 2, 3, 1] and heap["period"]["period"] == 12
    assert json.loads(run(capsys, "explain", "8", "8", "--json")[1])["value"] == 13
    assert json.loads(run(capsys, "minpoly", "2", "--json")[1]) == [1, 1, 1]
    assert json.loads(run(capsys, "solve-quadratic", "1", "7", "--json")[1]) == [12, 13]
    assert json.loads(run(capsys, "turning", "ruler", "4", "--json")[1]) == [1, 2, 1, 4]
    turn = json.loads(run(capsys, "turning", "ruler", "--heads", "0,3,7", "--json")[1])
    assert set(turn) == {"value", "winning_move"} and turn["value"] == 1 ^ 4 ^ 8


def test_nim_numbers_piles_from_zero(capsys):
    code, out, _ = run(capsys, "nim", "3", "5", "7")
    assert out.splitlines()[-3:] == ["  take 1 from pile 0 (leaving 2)",
                                     "  take 1 from pile 1 (leaving 4)",
                                     "  take 1 from pile 2 (leaving 6)"]


def test_matrices_in_whitespace_csv_and_the_table_csv(capsys, tmp_path):
    from nimbers.linalg import det
    m = [[1, 2, 3], [4, 5, 6], [7, 8, 10]]
    (tmp_path / "m.txt").write_text("\n".join(" ".join(map(str, r)) for r in m) + "\n")
    (tmp_path / "m.csv").write_text("\n".join(",".join(map(str, r)) for r in m) + "\n")
    for name in ("m.txt", "m.csv"):
        assert run(capsys, "det", str(tmp_path / name))[1].strip() == str(det(m))
    code, csv_text, _ = run(capsys, "table", "6", "--op", "add", "--format", "csv")
    (tmp_path / "t.csv").write_text(csv_text)
    from nimbers.tables import add_table
    assert run(capsys, "rank", str(tmp_path / "t.csv"))[1].strip() == str(
        __import__("nimbers").linalg.rank(add_table(6)))


def test_streamed_csv_is_the_csv(capsys):
    from nimbers.tables import mul_table, to_csv
    code, out, _ = run(capsys, "table", "40", "--format", "csv")
    assert code == 0 and out == to_csv(mul_table(40)) + "\n"


def test_log_order_is_said_loudly(capsys):
    with pytest.raises(SystemExit):
        main(["log", "--help"])
    assert "A FIRST, THEN THE BASE" in capsys.readouterr().out
    assert run(capsys, "log", "--base", "2", "3")[1].strip() == "2"


def test_help_states_the_numbering(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "numbered from 0" in capsys.readouterr().out


def test_heap_stats_save_and_resume(capsys, tmp_path):
    code, out, _ = run(capsys, "heap", "0.16", "20000", "--stats")
    assert code == 0
    # mask 1e as in the literature; T. Czajka's solver also ends the rare list at 13935
    assert "rare mask: 1e; 53 rare heap sizes (heap 0 counted), the last at n = 13935" in out
    assert "largest value: 22" in out
    path = str(tmp_path / "k.npy")
    assert run(capsys, "heap", "0.77", "50", "--save", path)[0] == 0
    code, out, _ = run(capsys, "heap", "0.77", "60", "--resume", path)
    assert code == 0 and out.split()[:12] == "0 1 2 3 1 4 3 2 1 4 2 6".split()
    code, _, err = run(capsys, "heap", "0.07", "60", "--resume", path)
    assert code == 2 and "holds 0.77" in err


def test_heap_save_says_in_one_line_what_it_wrote(capsys, tmp_path):
    # issue 53: heap grundy 1000000 --save g.npy printed all the values on one line
    path = tmp_path / "g"
    code, out, err = run(capsys, "heap", "grundy", "5000", "--save", str(path))
    assert code == 0 and err == ""
    assert out.splitlines() == [f"saved g(0) .. g(4999) to {path}.npy, and the state to resume "
                                f"from (--resume) to {path}.npy.json"]
    assert len(np.load(f"{path}.npy")) == 5000
    code, out, _ = run(capsys, "heap", "grundy", "5000", "--save", str(path), "--json")
    assert code == 0 and len(json.loads(out)["values"]) == 5000   # asked for: JSON has them


def test_heap_stats_put_the_summary_first_and_fold_the_lists(capsys):
    # issue 53: about 1,000 rare n:g pairs on one line came before the summary
    code, out, _ = run(capsys, "heap", "0.6", "30000", "--stats")
    lines = out.splitlines()
    assert code == 0 and [line.split(":")[0] for line in lines[:4]] == [
        "values", "largest value", "records", "rare mask"]
    assert max(len(line) for line in lines) <= 100
    rare = int(lines[3].split("; ")[1].split()[0])
    listed = sum(len(line.split()) for line in lines[lines.index("rare n:g(n):") + 1:])
    assert rare > 200 and "more: --json" in out and listed < 220
