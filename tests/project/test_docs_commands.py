"""Every shell command of the guide and the README runs as pasted (issue 38, item 7: the
guide's ``nimbers inv 2 | div 1 3 | pow 2 10 | sqrt 2`` broke in a shell).

The commands are the lines starting with ``nimbers `` or ``$ nimbers`` in the ```-fenced
blocks of docs/guide.md and README.md that are not Python; each cheap one runs in a fresh
directory holding the matrix files the guide makes just before it (m.txt, A.txt, B.txt), as
``python -m nimbers`` (the same program as the console script), with no input, and must exit
0 (or the status the guide says, for its examples of refusals).  Commands that start a
server, write big files or take long are skipped, each by name with its reason.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "docs" / "guide.md", ROOT / "README.md"]
FENCE = re.compile(r"^\s*```(\S*)\s*$")

def canonical(command: str) -> str:
    """A command as a shell reads it, comments dropped, written back quoted where needed."""
    return shlex.join(shlex.split(command, comments=True))


#: the commands not run: each command starting with one of these, with why (explicit: a
#: family that leaves the docs must leave this list)
SKIPPED = {
    "nimbers heap grundy --frontier": "a frontier run of hours",
    "nimbers heap 0.6 --frontier": "a frontier run of seconds on every core (tests/research run "
                                   "frontier runs)",
    "nimbers census": "a census runs minutes to hours on every core (and the commands after it "
                      "read its directory, or need a dask cluster)",
    "nimbers serve": "starts a server (and with --open a browser)",
}
#: commands the docs show being refused, with the status they say
REFUSED = {canonical("nimbers nim -3"): 2, canonical("nimbers nim ٣"): 2}
#: the files the guide writes before the commands that read them (its printf line)
FILES = {"m.txt": "1 2\n3 4\n", "A.txt": "1 2\n3 4\n", "B.txt": "1\n0\n"}


def shell_commands(path: Path) -> list[tuple[int, str]]:
    """(line number, command) of every nimbers command in the fenced blocks of a Markdown
    file that are not Python: the words as a shell reads them, comments dropped, written
    back quoted where they need it (shlex.join)."""
    found, language = [], None
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        fence = FENCE.match(line)
        if fence and language is None:
            language = fence.group(1)
        elif fence and not fence.group(1):
            language = None
        elif language is not None and language not in ("python", "pycon"):
            text = line.strip().removeprefix("$ ")
            if text.startswith("nimbers "):
                found.append((number, canonical(text)))
    return found


COMMANDS = [(f"{path.name}:{number}", command) for path in DOCS
            for number, command in shell_commands(path)]


#: options that need an optional extra, with the module and how to install it
NEEDS = {"--png": ("PIL", "Pillow is not installed (pip install 'nimbers[plot]')")}


def installed(module: str) -> bool:
    import importlib.util
    try:
        return importlib.util.find_spec(module) is not None
    except ImportError:
        return False


def skipped(command: str) -> str | None:
    """Why a command is not run, or None."""
    for option, (module, why) in NEEDS.items():
        if option in shlex.split(command) and not installed(module):
            return why
    return next((why for start, why in SKIPPED.items() if f"{command} ".startswith(f"{start} ")),
                None)


def test_the_docs_have_commands_and_every_skip_names_some_of_them():
    commands = {command for _, command in COMMANDS}
    assert len(commands) >= 30 and set(REFUSED) <= commands
    for start in SKIPPED:
        assert any(f"{c} ".startswith(f"{start} ") for c in commands), start


@pytest.mark.parametrize("where, command", COMMANDS, ids=[w for w, _ in COMMANDS])
def test_each_command_runs_as_pasted(where, command, tmp_path):
    if skipped(command):
        pytest.skip(f"{command!r}: {skipped(command)}")
    for name, text in FILES.items():
        (tmp_path / name).write_text(text)
    argv = shlex.split(command)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run([sys.executable, "-m", *argv], cwd=tmp_path, env=env, timeout=120,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True)
    assert done.returncode == REFUSED.get(command, 0), f"{where}: {command}\n{done.stderr}"
    assert "Traceback" not in done.stderr
