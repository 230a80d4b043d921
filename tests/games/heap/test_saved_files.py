"""Files are input too (issue 29, item 3): ``nimbers heap ... --resume F`` and
``HeapGame.load`` check what they read, and refuse anything wrong in one line (ValueError;
the CLI exits 2); ``--save`` writes whole files, where ``--resume`` then finds them.  Each
hostile file below is made from a good save by one change, as an attacker or a broken disk
would make it."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

from nimbers.cli import main
from nimbers.games.heap import HeapGame, octal_game


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def good_save(tmp_path_factory):
    """A save of Kayles with its proven period (the state) and 200 values."""
    folder = tmp_path_factory.mktemp("good")
    game = octal_game("0.77")
    game.period()
    game.save(folder / "kayles.npy")
    state = json.loads((folder / "kayles.npy.json").read_text())
    values = np.load(folder / "kayles.npy")
    return state, values


def _write(folder, state=None, values=None, raw_state=None, raw_values=None):
    path = folder / "f.npy"
    if raw_values is not None:
        path.write_bytes(raw_values)
    elif values is not None:
        np.save(path, values, allow_pickle=True)
    (folder / "f.npy.json").write_text(raw_state if raw_state is not None else json.dumps(state))
    return path


def _with(state, **changes):
    return {**state, **changes}


def _deep(depth):
    return "[" * depth + "]" * depth


def hostile_cases():
    """(name, how to make it from the good state and values, words in the refusal)."""
    kayles_small = np.array([0, 9999, 2, 3], dtype=np.uint16)
    yield "empty npy", lambda s, v: dict(state=s, raw_values=b""), "not a .npy file"
    yield "truncated npy", lambda s, v: dict(state=s, raw_values=_npy_bytes(v)[:200]), \
        "do not match"
    yield "nested 100,000 deep", lambda s, v: dict(values=v, raw_state=_deep(100_000)), \
        "not a saved heap game"
    yield "nested 20,000 deep", lambda s, v: dict(values=v, raw_state=_deep(20_000)), \
        "nested too deeply"
    yield "nested in a field", lambda s, v: dict(
        values=v, raw_state=json.dumps(_with(s, period=None))[:-1] + ', "x": ' + _deep(20_000)
        + "}"), "nested too deeply"
    yield "state of 1 MB", lambda s, v: dict(
        values=v, raw_state=json.dumps(_with(s, name="k" * 10**6))), "over 65,536 bytes"
    yield "a 5000-digit count", lambda s, v: dict(
        values=v, raw_state=json.dumps(s).replace(f'"count": {s["count"]}', '"count": ' + "9" * 5000)), \
        "not a saved heap game"
    yield "negative period", lambda s, v: dict(
        state=_with(s, period={"period": -12, "preperiod": -5}), values=v), "period -12"
    yield "period 10^30", lambda s, v: dict(
        state=_with(s, period={"period": 10**30, "preperiod": 0}), values=v), "needs"
    yield "period a bare int", lambda s, v: dict(state=_with(s, period=10**30), values=v), \
        "period must hold"
    yield "period 0", lambda s, v: dict(state=_with(s, period={"period": 0, "preperiod": 0}),
                                        values=v), "period 0"
    yield "period 1 lies", lambda s, v: dict(state=_with(s, period={"period": 1, "preperiod": 0}),
                                             values=v), "do not have period 1"
    yield "period a string", lambda s, v: dict(
        state=_with(s, period={"period": "12", "preperiod": 71}), values=v), "period must hold"
    yield "values [0, 9999, 2, 3]", lambda s, v: dict(
        state=_with(s, count=4, period=None), values=kayles_small), "g(1) is 1 by the rules"
    yield "a value off far out", lambda s, v: dict(
        state=_with(s, period=None), values=_changed(v, 150, 77)), "by the rules"
    yield "count a string", lambda s, v: dict(state=_with(s, count=str(s["count"])), values=v), \
        "count must be"
    yield "count wrong", lambda s, v: dict(state=_with(s, count=s["count"] + 1), values=v), \
        "do not match"
    yield "rules not digits", lambda s, v: dict(state=_with(s, rules=[0, 7, 99]), values=v), \
        "digits 0 to 15"
    yield "rules a string", lambda s, v: dict(state=_with(s, rules="077"), values=v), "digits"
    yield "kind unknown", lambda s, v: dict(state=_with(s, kind="misère"), values=v), \
        "unknown kind"
    yield "name not a string", lambda s, v: dict(state=_with(s, name=5), values=v), "name must"
    yield "name of two lines", lambda s, v: dict(state=_with(s, name="a\nb"), values=v), "printable"
    yield "no format", lambda s, v: dict(state={k: x for k, x in s.items() if k != "format"},
                                         values=v), "format marker"
    yield "a list, not a state", lambda s, v: dict(values=v, raw_state="[1, 2, 3]"), \
        "format marker"
    yield "not JSON", lambda s, v: dict(values=v, raw_state="{'format': 1"), "not a saved"
    yield "not UTF-8", lambda s, v: dict(values=v, raw_state="replaced below"), "not a saved"
    yield "int64 values", lambda s, v: dict(state=s, values=v.astype(np.int64)), "do not match"
    yield "2-D values", lambda s, v: dict(state=s, values=v.reshape(1, -1)), "do not match"
    yield "object array", lambda s, v: dict(state=s, values=v.astype(object)), "do not match"
    yield "g(0) not 0", lambda s, v: dict(state=_with(s, period=None), values=_changed(v, 0, 1)), \
        "g(0) = 1"
    yield "the rules of another game", lambda s, v: dict(
        state=_with(s, rules=[0, 3, 7], period=None), values=v), "by the rules"


def _npy_bytes(values):
    import io
    buffer = io.BytesIO()
    np.save(buffer, values)
    return buffer.getvalue()


def _changed(values, index, value):
    out = values.copy()
    out[index] = value
    return out


CASES = list(hostile_cases())


@pytest.mark.parametrize("name, make, words", CASES, ids=[c[0] for c in CASES])
def test_a_hostile_file_is_refused_in_one_line(name, make, words, good_save, tmp_path, capsys):
    state, values = good_save
    path = _write(tmp_path, **make(state, values))
    if name == "not UTF-8":
        (tmp_path / "f.npy.json").write_bytes(b'{"format": "\xff"}')
    with pytest.raises(ValueError) as refused:
        HeapGame.load(path)
    assert words in str(refused.value) and "\n" not in str(refused.value)
    for argv in (["heap", "0.77", "200", "--resume", str(path)],
                 ["heap", "0.77", "--heaps", "500", "--resume", str(path)]):
        code, out, err = run(capsys, *argv)
        assert code == 2 and out == "" and len(err.splitlines()) == 1, (argv, err)
        assert words in err and "Traceback" not in err


def test_a_good_save_resumes_with_the_right_answers(good_save, tmp_path, capsys):
    state, values = good_save
    path = _write(tmp_path, state=state, values=values)
    game = HeapGame.load(path)
    assert game.nim_value(10**18) == octal_game("0.77").nim_value(10**18)
    code, out, _ = run(capsys, "heap", "0.77", "--heaps", "500", "--resume", str(path))
    assert code == 0 and "P-position" not in out  # g(500) of Kayles is not 0
    code, _, err = run(capsys, "heap", "0.07", "20", "--resume", str(path))
    assert code == 2 and "holds 0.77, not 0.07" in err


def test_save_and_resume_agree_on_the_name(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, "heap", "0.77", "200", "--save", "kk")
    assert code == 0 and err == ""
    assert sorted(os.listdir(tmp_path)) == ["kk.npy", "kk.npy.json"]  # no temporary left
    for name in ("kk", "kk.npy"):
        code, out, err = run(capsys, "heap", "0.77", "300", "--resume", name)
        assert code == 0 and err == "" and out == main_output(capsys, "heap", "0.77", "300")


def main_output(capsys, *argv):
    assert main(list(argv)) == 0
    return capsys.readouterr()[0]


@pytest.mark.parametrize("target, words", [("", "empty"), ("/dev/full", "not a regular file"),
                                           (".", "not a regular file")])
def test_save_refuses_what_is_no_file(target, words, capsys):
    existed = os.path.exists("/dev/full.npy")
    code, out, err = run(capsys, "heap", "0.77", "20", "--save", target)
    assert code == 2 and out == "" and words in err and len(err.splitlines()) == 1
    assert os.path.exists("/dev/full.npy") == existed


def test_a_failed_save_leaves_the_last_one_whole(tmp_path, monkeypatch):
    game = octal_game("0.77")
    game.nim_values(100)
    path = tmp_path / "k.npy"
    game.save(path)
    before = path.read_bytes(), (tmp_path / "k.npy.json").read_bytes()

    def full_disk(*args, **kwargs):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(os, "fsync", full_disk)
    game.nim_values(300)
    with pytest.raises(OSError, match="No space left"):
        game.save(path)
    monkeypatch.undo()
    assert (path.read_bytes(), (tmp_path / "k.npy.json").read_bytes()) == before
    assert sorted(os.listdir(tmp_path)) == ["k.npy", "k.npy.json"]
    assert len(HeapGame.load(path).nim_values(100)) == 100


@pytest.mark.skipif(os.name != "posix", reason="file modes and the umask are POSIX's")
@pytest.mark.parametrize("mask", [0o022, 0o002, 0o077, 0o027], ids=oct)
def test_saved_files_follow_the_umask(mask, tmp_path, capsys, monkeypatch):
    """Files the user asks for get 0o666 less the umask, as any file they create (issue 38,
    item 3: they were 0o600, the temporary file's mode)."""
    monkeypatch.chdir(tmp_path)
    before = os.umask(mask)
    try:
        code, _, err = run(capsys, "heap", "grundy", "1000", "--save", "g.npy")
        octal_game("0.77").save(tmp_path / "k")
    finally:
        os.umask(before)
    assert code == 0 and err == ""
    modes = {name: os.stat(tmp_path / name).st_mode & 0o777 for name in sorted(os.listdir(tmp_path))}
    assert modes == dict.fromkeys(["g.npy", "g.npy.json", "k.npy", "k.npy.json"], 0o666 & ~mask)
