"""The README tells a newcomer what is true (issue 53): the set-up's first two commands come
first; what the set-up needs agrees with pyproject.toml; the API reference's Sphinx command
comes with the extra that installs Sphinx; the quick test command uses a marker that exists;
the first hour's six commands are there."""

from __future__ import annotations

import re
import sys
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    tomllib = None

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def pyproject() -> dict:
    if tomllib is None:
        pytest.skip("tomllib is Python 3.11's")
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_the_set_up_commands_come_first():
    first_block = README.split("```\n", 2)[1].splitlines()
    assert first_block[0] == "pip install . && nimbers mul 5 11"
    assert first_block[1].startswith("pip install -e '.[test]' && python -m pytest ")


def test_what_the_set_up_needs_agrees_with_pyproject():
    needs = README[README.index("**What the set-up needs.**"):]
    least = re.fullmatch(r">=(\d+\.\d+)", pyproject()["project"]["requires-python"]).group(1)
    assert f"Python {least} or later" in needs and "C compiler" in needs
    assert re.search(r"\d+ MB", needs) and "memory" in needs


def test_the_sphinx_command_comes_with_the_docs_extra():
    assert any(d.startswith("sphinx") for d in pyproject()["project"]["optional-dependencies"]["docs"])
    at = README.index("python -m sphinx")
    assert "pip install -e '.[docs]'" in README[at - 200:at]


def test_the_quick_test_command_uses_a_registered_marker(request):
    """The marker is registered by tests/conftest.py (so that a run without pyproject.toml's
    configuration knows it too): the running configuration has it."""
    assert 'python -m pytest -m "not slow"' in README
    assert any(m.startswith("slow:") for m in request.config.getini("markers"))


def test_the_first_hour_has_its_six_commands_with_times():
    hour = README[README.index("## The first hour"):]
    block = hour.split("```\n", 2)[1].splitlines()
    wanted = ["nimbers heap 0.16 --period", "nimbers heap 0.6 --frontier", "nimbers census --digits 2",
              "--quotient", "nimbers play", "nimbers serve"]
    assert len(block) == 6 and all(any(w in line for line in block) for w in wanted)
    assert sum(bool(re.search(r"# [\d.]+ s", line)) for line in block) >= 4


def test_the_readme_lists_every_command(capsys):
    from nimbers.cli import main
    with pytest.raises(SystemExit):
        main(["--help"])
    listed = re.search(r"the `nimbers` command: `([^`]*)`", README).group(1).split()
    commands = re.findall(r"^    ([a-z][a-z-]*)", capsys.readouterr().out, re.MULTILINE)
    assert sorted(listed) == sorted(commands)
