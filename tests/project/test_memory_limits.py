"""Sizes a person types, under a real memory limit: each example runs in a subprocess whose
address space is capped at 2 GiB (``RLIMIT_AS``, as ``ulimit -v`` sets it).  The process
answers, streaming in bounded memory, or refuses at once with one line naming the size and
how to go past the cap; it never dies of an allocation."""

import os
import subprocess
import sys
import tempfile

import pytest

# AddressSanitizer reserves terabytes of address space for its shadow memory, so no
# RLIMIT_AS limit can be set under it (tools/sanitize.sh); the ordinary run covers these.
pytestmark = pytest.mark.skipif(bool(os.environ.get("NIMBERS_UNDER_SANITIZER")),
                                reason="RLIMIT_AS cannot be set under AddressSanitizer")

resource = pytest.importorskip("resource")  # Unix only

ADDRESS_SPACE = 2 * 1024**3
ENV = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
ENV.pop("NIMBERS_MEMORY_LIMIT", None)  # the default cap: derived from the limit below


def _limit_address_space():
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))


# Elsewhere the limit is set, and the peak measured, by a small Python process between the test and
# the command: a child's ru_maxrss counts what its parent had resident when it forked (Linux
# keeps the high-water mark across exec), and pytest itself may hold a gigabyte by then.
_MEASURED = """
import os, resource, subprocess, sys
resource.setrlimit(resource.RLIMIT_AS, (int(sys.argv[1]), int(sys.argv[1])))
process = subprocess.Popen(sys.argv[3:])
_, status, usage = os.wait4(process.pid, 0)
with open(sys.argv[2], "w") as peak:
    peak.write(str(usage.ru_maxrss))
code = os.waitstatus_to_exitcode(status)
sys.exit(code if code >= 0 else 128 - code)
"""


def run_limited(argv, stdout, stdin=subprocess.DEVNULL):
    """Runs argv under the limit; returns (status, stderr text, peak resident MiB)."""
    with tempfile.TemporaryDirectory() as scratch:
        peak_file = os.path.join(scratch, "peak")
        done = subprocess.run([sys.executable, "-c", _MEASURED, str(ADDRESS_SPACE), peak_file, *argv],
                              stdin=stdin, stdout=stdout, stderr=subprocess.PIPE, env=ENV)
        with open(peak_file) as peak:
            peak_kib = int(peak.read())
    return done.returncode, done.stderr.decode(), peak_kib / 1024


def nimbers(*argv, stdout=subprocess.DEVNULL):
    return run_limited([sys.executable, "-m", "nimbers", *argv], stdout)


def python(code):
    return run_limited([sys.executable, "-c", code], subprocess.PIPE)


def assert_refused(status, err, *words):
    assert status == 2, err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    for word in words:
        assert word in err, err


def test_a_huge_table_picture_is_refused_at_once(tmp_path):
    status, err, peak = nimbers("table", "16384", "--png", str(tmp_path / "t.png"))
    assert_refused(status, err, "16384 x 16384", "memory cap", "NIMBERS_MEMORY_LIMIT")
    assert not (tmp_path / "t.png").exists() and peak < 300


@pytest.mark.parametrize("fmt", ["csv", "text"])
def test_tables_stream_in_bounded_memory(fmt, tmp_path):
    out = tmp_path / "table.txt"
    with open(out, "w") as file:
        status, err, peak = nimbers("table", "3000", "--format", fmt, stdout=file)
    assert status == 0 and err == ""
    assert out.stat().st_size > 3000 * 3000 * 2  # the whole table was written ...
    assert peak < 200  # ... holding a few blocks of rows, not its 72 MB of values


def test_a_table_of_16384_starts_streaming_under_the_limit():
    """Built in memory, this table would need 2 GiB of values and its text 20 times that;
    streamed, its first rows come out at once (the reader then stops: a quiet 141)."""
    with subprocess.Popen([sys.executable, "-m", "nimbers", "table", "16384", "--format",
                           "csv"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV,
                          preexec_fn=_limit_address_space) as process:
        lines = [process.stdout.readline() for _ in range(3)]
        process.stdout.close()
        err = process.stderr.read().decode()
        process.wait()
    assert lines[2].startswith(b"1,0,1,2,3,")
    assert process.returncode == 141 and err == ""


def test_explanations_of_4096_bit_products_answer_in_bounded_memory():
    a = str(2**4096 - 1)
    status, err, peak = nimbers("explain", a, a)
    assert status == 0 and err == "" and peak < 300


@pytest.mark.parametrize("code, words", [
    ("from nimbers.tables import mul_table; mul_table(30000)",
     ["30000 x 30000", "memory_limit="]),
    ("from nimbers.tables import mul_table, table_image; table_image(mul_table(2048), "
     "scale=16)", ["32768 x 32768 picture", "memory_limit="]),
])
def test_library_calls_refuse_with_a_value_error(code, words):
    status, err, peak = python(
        "import sys\ntry:\n    " + code + "\nexcept ValueError as e:\n"
        "    print(e, file=sys.stderr); sys.exit(2)\n")
    assert_refused(status, err, *words, "NIMBERS_MEMORY_LIMIT")
    assert peak < 300


def test_fifty_thousand_digit_numbers_under_the_limit():
    status, err, _ = python("from nimbers import Nimber; a = '7' * 50_000; x = Nimber(a); "
                            "assert str(x) == '*' + a and repr(x * 1) == f'Nimber({a})'")
    assert status == 0, err


def test_a_raised_cap_cannot_make_memory_that_is_not_there(monkeypatch):
    from nimbers import _limits
    monkeypatch.setattr(_limits, "available_memory", lambda: 100 * 1024**2)
    with _limits.memory_limit("1T"):
        _limits.check_bytes(80 * 1024**2, "80 MiB of values", "pass memory_limit=")  # 9/10 fit
        with pytest.raises(ValueError) as refused:
            _limits.check_bytes(95 * 1024**2, "a table", "pass memory_limit=",
                                instead="ask for a smaller table")
    assert str(refused.value) == ("a table would need 95.0 MiB, more than the 100.0 MiB of "
                                  "memory available now; ask for a smaller table")
    # small allocations never read the system's figures (they are not worth a system call)
    monkeypatch.setattr(_limits, "available_memory", lambda: 0)
    _limits.check_bytes(_limits.AVAILABLE_CHECKED_FROM - 1, "a list", "pass memory_limit=")
