"""The command line: every subcommand, output options, errors and exit codes."""

import subprocess
import sys

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
])
def test_arithmetic(capsys, argv, expected):
    code, out, err = run(capsys, *argv)
    assert code == 0 and out.strip() == expected and err == ""


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
    from nimbers.cli import _COMMANDS
    for name, *_ in _COMMANDS:
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


def test_heap_stats_save_and_resume(capsys, tmp_path):
    code, out, _ = run(capsys, "heap", "0.16", "20000", "--stats")
    assert code == 0
    # mask 1e as in the literature; T. Czajka's solver also ends the rare list at 13935
    assert "rare mask: 1e; 52 rare positions, the last at n = 13935" in out
    assert "largest value: 22" in out
    path = str(tmp_path / "k.npy")
    assert run(capsys, "heap", "0.77", "50", "--save", path)[0] == 0
    code, out, _ = run(capsys, "heap", "0.77", "60", "--resume", path)
    assert code == 0 and out.split()[:12] == "0 1 2 3 1 4 3 2 1 4 2 6".split()
    code, _, err = run(capsys, "heap", "0.07", "60", "--resume", path)
    assert code == 2 and "holds 0.77" in err
