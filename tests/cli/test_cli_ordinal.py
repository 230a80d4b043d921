"""The ``nimbers ordinal`` and ``nimbers lexicode`` subcommands: output, errors, exit codes."""

import pytest

from nimbers.cli import lexicode_command, main, ordinal_command


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("argv,expected", [
    (["ordinal", "mul", "w", "w^2"], "2"),
    (["ordinal", "mul", "ω", "ω", "ω"], "2"),
    (["ordinal", "add", "w+3", "w*2+1", "5"], "ω·3 + 7"),
    (["ordinal", "inv", "w+1"], "ω^2·2 + ω·2 + 2"),
    (["ordinal", "div", "1", "w"], "ω^2·3"),
    (["ordinal", "pow", "w^w", "5"], "4"),
    (["ordinal", "pow", "w", "-1"], "ω^2·3"),
    (["ordinal", "sqrt", "w"], "ω^2·2"),
    (["ordinal", "degree", "w^w"], "20"),
    (["ordinal", "minpoly", "w"], "x^6 + x^3 + 1"),
    (["ordinal", "mul", "w^(w^2+3)*5 + w + 2", "w", "--ascii"], "w^(w^2+4)*5 + w^2 + w*2"),
    (["ordinal", "artin-schreier", "2"], "4\n5"),
])
def test_ordinal(capsys, argv, expected):
    code, out, err = run(capsys, *argv)
    assert (code, out.strip(), err) == (0, expected, "")


def test_ordinal_lenstra_explain_nim(capsys):
    code, out, _ = run(capsys, "ordinal", "lenstra", "19")
    assert code == 0 and "excess(19) = 4" in out and "ω^3 + 4" in out
    code, out, _ = run(capsys, "ordinal", "explain", "w", "w^2")
    assert code == 0 and "= 2" in out.splitlines()
    code, out, _ = run(capsys, "ordinal", "nim", "w+3", "w*2+1", "5")
    assert code == 0 and "heap 2" in out and "ω + 6" in out
    assert ordinal_command("nim", ["w", "w"]).endswith("every move loses")


@pytest.mark.parametrize("argv,message", [
    (["ordinal", "mul", "x"], "cannot read"),
    (["ordinal", "inv", "0"], "inverse of 0"),
    (["ordinal", "div", "w"], "takes 2 arguments"),
    (["ordinal", "lenstra", "263"], "out of range"),
    (["ordinal", "mul", "w + w"], "Cantor normal form"),
    (["lexicode", "0", "3"], "at least 1"),
    (["lexicode", "5", "3", "--base", "3"], "power of 2"),
    (["lexicode", "30", "3", "--method", "greedy"], "greedy method"),
])
def test_errors(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and message in err and len(err.splitlines()) == 1


def test_lexicode(capsys):
    code, out, _ = run(capsys, "lexicode", "24", "8")
    lines = out.splitlines()
    assert code == 0 and "4096 words, dimension 12, minimum distance 8" in lines[0]
    assert len(lines) == 2 + 12
    code, out, _ = run(capsys, "lexicode", "6", "4", "--base", "4")
    assert code == 0 and out.splitlines()[2:] == ["100132", "010123", "001111"]
    assert lexicode_command(4, 2, words=True).splitlines()[1:3] == ["0000", "0011"]
    assert "dimension 8/3" in lexicode_command(5, 3, base=8)
