"""The types: mypy --strict accepts the typing tests in tests/typing/ exactly where they say
so, and reports an error on every line marked ``# E:`` (skipped when mypy is not installed)."""

import pathlib
import re

import pytest

api = pytest.importorskip("mypy.api")

HERE = pathlib.Path(__file__).resolve().parents[1] / "typing"
CASES = sorted(HERE.glob("check_*.py"))


@pytest.mark.parametrize("case", CASES, ids=lambda p: p.stem)
def test_typing_case(case):
    stdout, stderr, _ = api.run(["--strict", "--no-incremental", "--cache-dir", "/dev/null",
                                 "--no-error-summary", "--hide-error-context",
                                 "--show-error-codes", str(case)])
    reported = {}
    for line in stdout.splitlines():
        m = re.match(r"(.+?):(\d+): error: (.*)", line)
        if m and pathlib.Path(m.group(1)).name == case.name:
            reported.setdefault(int(m.group(2)), []).append(m.group(3))
    lines = case.read_text().splitlines()
    expected = {i for i, text in enumerate(lines, 1) if re.search(r"\S  # E: ", text)}
    unexpected = {n: msgs for n, msgs in reported.items() if n not in expected}
    missing = sorted(expected - set(reported))
    assert not unexpected, f"mypy errors on lines that should type-check: {unexpected}\n{stderr}"
    assert not missing, f"mypy accepted lines that must be errors: {missing}"
