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
