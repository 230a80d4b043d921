"""The test suite's own rules (issue 29, item 9): it passes when started with SIGINT ignored
(``nohup pytest &``, a script's background job, some CI runners), every test has a hard time
limit, and warnings are errors."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[1]


def test_every_test_has_a_time_limit_and_warnings_are_errors(request):
    if request.config.inipath is None or request.config.inipath.name != "pyproject.toml":
        pytest.skip("run without the project's configuration (tools/sanitize.sh passes -c "
                    "/dev/null)")
    assert float(request.config.getini("timeout")) >= 60
    assert request.config.getini("timeout_method") == "thread"
    assert request.config.getini("filterwarnings")[0] == "error"


def test_a_self_interrupting_test_passes_with_sigint_ignored():
    """The child pytest inherits SIGINT ignored, as under nohup: the test that interrupts
    itself still sees its KeyboardInterrupt (the python_sigint fixture)."""
    def ignore_sigint():
        signal.signal(signal.SIGINT, signal.SIG_IGN)

    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--timeout", "120",
         str(TESTS / "project" / "test_interrupt.py") + "::test_ctrl_c_stops_huge_tower_work[product]"],
        capture_output=True, text=True, timeout=240, preexec_fn=ignore_sigint,
        cwd=TESTS.parent, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert done.stdout.startswith(".")  # one test, passed


def test_every_slow_test_named_exists_and_the_marker_is_registered(request):
    """tests/conftest.py's SLOW (the tests python -m pytest -m "not slow" leaves out) names
    test functions that exist, so that a renamed test is not silently run in the quick set."""
    import ast

    from conftest import SLOW
    root = TESTS.parent
    for entry in SLOW:
        path, _, name = entry.partition("::")
        tree = ast.parse((root / path).read_text(encoding="utf-8"))
        assert name in {f.name for f in tree.body if isinstance(f, ast.FunctionDef)}, entry
    assert any(m.startswith("slow:") for m in request.config.getini("markers"))


def test_the_quick_set_leaves_the_slow_tests_out():
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-o", "addopts=", "-q", "-p", "no:cacheprovider",
         "--collect-only", "-m", "not slow", str(TESTS / "research" / "test_frontier.py")],
        capture_output=True, text=True, timeout=240, cwd=TESTS.parent,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "test_ctrl_c_then_resume" not in done.stdout and "deselected" in done.stdout


BLOCKER = '''
import sys
BLOCKED = {"dask", "distributed", "matplotlib", "PIL", "selenium", "mypy"}
class _Missing:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
sys.meta_path.insert(0, _Missing())
'''


def test_examples_needing_a_missing_extra_skip_with_a_reason(tmp_path):
    """Issue 53: without dask, matplotlib, Pillow, selenium or mypy, doctests failed instead
    of skipping.  The extras are hidden from a child pytest (a sitecustomize that makes them
    missing), which must pass, each skip naming what is missing."""
    (tmp_path / "sitecustomize.py").write_text(BLOCKER)
    root = TESTS.parent
    done = subprocess.run(
        # the modules by name (--pyargs): from an unpacked sdist the installed package is the
        # one imported, and src/nimbers/... as paths would be a second copy of it
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rs", "--timeout", "200",
         "--pyargs", "nimbers.lazy", "nimbers.research.pictures", "docs/guide.md",
         "tests/research/test_pictures.py"],
        capture_output=True, text=True, timeout=240, cwd=root,
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), *sys.path])})
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "needs dask, not installed" in done.stdout and "needs matplotlib" in done.stdout


def test_no_test_module_imports_another():
    """A test module imports helpers from tests/ (oracle.py, frontier_reference.py), never
    another test module: tools/sanitize.sh runs the suite with --import-mode=importlib, where a
    test module is not importable by its name (a CI run once failed on exactly that)."""
    import ast

    offenders = []
    for path in TESTS.rglob("test_*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([node.module or ""] if isinstance(node, ast.ImportFrom)
                     else [a.name for a in node.names] if isinstance(node, ast.Import) else [])
            offenders += [f"{path.relative_to(TESTS)}: {n}" for n in names
                          if n.split(".")[-1].startswith("test_")]
    assert not offenders, offenders
