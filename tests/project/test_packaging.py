"""The sdist: built from the project's files, it carries the licence, the changelog, the C
sources and everything the test suite needs; installed in a clean virtual environment, its
tests pass against the installed package.

Slow (a build, a compile and a whole test run: a few minutes), so it runs only when
NIMBERS_TEST_SDIST=1 (.ci/run sets it)."""

import os
import pathlib
import subprocess
import sys
import tarfile
from xml.etree import ElementTree

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(os.environ.get("NIMBERS_TEST_SDIST") != "1",
                                reason="slow: set NIMBERS_TEST_SDIST=1 to build and test the sdist")

MUST_CARRY = ["LICENSE", "CHANGELOG.md", "README.md", "pyproject.toml", "setup.py",
              "tests/conftest.py", "tests/oracle.py", "tests/data/nim_mul_16x16.txt",
              "src/nimbers/py.typed", "src/nimbers/_core.pyi", "src/nimbers/_version.py",
              "docs/guide.md", "tools/results.py", "tests/data/rogalski_frequencies.txt"]


def _run(*cmd, cwd=None):
    env = {k: v for k, v in os.environ.items() if k != "NIMBERS_TEST_SDIST"}  # no recursion
    out = subprocess.run([str(c) for c in cmd], cwd=cwd, capture_output=True, text=True, env=env)
    assert out.returncode == 0, f"{' '.join(map(str, cmd))} failed:\n{out.stdout[-3000:]}\n{out.stderr[-3000:]}"
    return out.stdout


@pytest.fixture(scope="module")
def sdist(tmp_path_factory):
    pytest.importorskip("build")
    dist = tmp_path_factory.mktemp("dist")
    _run(sys.executable, "-m", "build", "--sdist", "--outdir", dist, ROOT)
    (path,) = dist.glob("nimbers-*.tar.gz")
    return path


def test_sdist_carries_what_its_tests_need(sdist):
    with tarfile.open(sdist) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    missing = [n for n in MUST_CARRY if n not in names]
    assert not missing, f"the sdist lacks {missing}"
    assert any(n.startswith("csrc/") and n.endswith(".h") for n in names)
    assert not any(n.endswith((".so", ".pyd", ".o")) for n in names)


# the whole suite runs inside this test (about 6 minutes, more under load), past the
# 300 s every other test gets
@pytest.mark.timeout(2400)
def test_sdist_installs_and_its_tests_pass(sdist, tmp_path):
    with tarfile.open(sdist) as tar:
        if hasattr(tarfile, "data_filter"):  # Python 3.10.12+ and 3.11.4+
            tar.extractall(tmp_path, filter="data")
        else:
            tar.extractall(tmp_path)
    (project,) = tmp_path.glob("nimbers-*")
    venv = tmp_path / "venv"
    _run(sys.executable, "-m", "venv", venv)
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    _run(python, "-m", "pip", "install", "-q", f"{sdist}[test]")
    # The tests, the documents and the installed package's doctests (not src/, which has
    # no compiled core in an unpacked sdist).
    report = tmp_path / "report.xml"
    _run(python, "-m", "pytest", "-p", "no:cacheprovider", f"--junitxml={report}",
         "--pyargs", "nimbers", "tests", "docs", "README.md", cwd=project)
    suite = ElementTree.parse(report).getroot().find("testsuite")
    counts = {k: int(suite.get(k, 0)) for k in ("tests", "failures", "errors", "skipped")}
    assert counts["tests"] - counts["skipped"] > 500, counts
    assert counts["failures"] == counts["errors"] == 0, counts
