"""Work with a bound (issue 29, item 2): one typed line answers or refuses in a second or two.
Each command runs in a subprocess under a 2 GiB address-space limit (``RLIMIT_AS``), and
its CPU time (not the wall clock of this shared machine) is what is bounded; the refusals
are one line on stderr with exit status 2.  The bounds themselves are checked against the
definitions they bound."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile

import pytest

from nimbers import _limits
from nimbers.games.heap import octal_game
from nimbers.lexicode import lexicode
from nimbers.ordinal import Ordinal, order_of_two, roots, solve_artin_schreier

pytestmark = pytest.mark.skipif(bool(os.environ.get("NIMBERS_UNDER_SANITIZER")),
                                reason="RLIMIT_AS cannot be set under AddressSanitizer")
resource = pytest.importorskip("resource")  # Unix only

ADDRESS_SPACE = 2 * 1024**3
CPU_SECONDS = 2.0
ENV = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
for _name in ("NIMBERS_MEMORY_LIMIT", "NIMBERS_TIME_LIMIT"):
    ENV.pop(_name, None)  # the default caps

# Between the test and the command, a small process sets the limit and reports the
# command's CPU time (user + system) from wait4.
_TIMED = """
import os, resource, subprocess, sys
resource.setrlimit(resource.RLIMIT_AS, (int(sys.argv[1]), int(sys.argv[1])))
process = subprocess.Popen(sys.argv[3:], stdin=subprocess.DEVNULL)
_, status, usage = os.wait4(process.pid, 0)
with open(sys.argv[2], "w") as cpu:
    cpu.write(str(usage.ru_utime + usage.ru_stime))
code = os.waitstatus_to_exitcode(status)
sys.exit(code if code >= 0 else 128 - code)
"""


def nimbers(*argv: str) -> tuple[int, str, str, float]:
    """(status, stdout, stderr, CPU seconds) of ``nimbers ARGV`` under the limit."""
    with tempfile.TemporaryDirectory() as scratch:
        cpu_file = os.path.join(scratch, "cpu")
        done = subprocess.run([sys.executable, "-c", _TIMED, str(ADDRESS_SPACE), cpu_file,
                               sys.executable, "-m", "nimbers", *argv],
                              capture_output=True, env=ENV, timeout=300)
        with open(cpu_file) as cpu:
            seconds = float(cpu.read())
    return done.returncode, done.stdout.decode(), done.stderr.decode(), seconds


REFUSED_AT_ONCE = [
    (["ordinal", "lenstra", "4"], "4 is not a prime"),
    (["ordinal", "lenstra", "6"], "6 is not a prime"),
    (["ordinal", "lenstra", "256"], "256 is not a prime"),
    (["ordinal", "lenstra", "99999999999999999989"], "out of range"),
    (["heap", "grundy", "--heaps", "300000", "--misere"], "more than 10^603"),
    (["heap", "grundy", "200000", "--misere"], "on 199999 tokens"),
    (["play", "grundy", "100000", "--misere"], "on 100000 tokens"),
    (["lexicode", "10", "3", "--base", "1024"], "sphere-covering bound"),
    (["lexicode", "10", "3", "--base", str(2**31)], "sphere-covering bound"),
    (["lexicode", "10", "3", "--base", str(2**64)], "--base: at most 2^63 - 1"),
    (["lexicode", "16", "5", "--base", "16"], "sphere-covering bound"),
    (["ordinal", "inv", "w^(w^30)+1"], "inverse in the field of degree 102,180"),
    (["ordinal", "minpoly", "w^(w^30)"], "minimal polynomial in the field of degree 102,180"),
    (["ordinal", "conjugates", "w^(w^30)"], "conjugates in the field of degree 102,180"),
    (["ordinal", "artin-schreier", "w^(w^30)"], "Artin-Schreier"),
]


@pytest.mark.parametrize("argv, words", REFUSED_AT_ONCE, ids=lambda x: " ".join(x)
                         if isinstance(x, list) else "")
def test_refused_at_once_in_one_line(argv, words):
    status, out, err, seconds = nimbers(*argv)
    assert status == 2 and out == "", err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    assert words in err, err
    assert seconds < CPU_SECONDS, f"{seconds:.2f} s of CPU before the refusal"


def test_small_cases_still_answer_at_once():
    for argv, expected in [(["ordinal", "lenstra", "7"], "α_7 = κ_7^7 = ω + 1"),
                           (["ordinal", "inv", "w^(w^2)+1"], "ω^(ω^2"),
                           (["lexicode", "6", "4", "--base", "4"], "001111"),
                           (["heap", "kayles", "12", "--misere"], "1 0 2 3 0 1 3 2 1 0 2 4")]:
        status, out, err, seconds = nimbers(*argv)
        assert status == 0 and expected in out and err == "", (argv, err)
        assert seconds < CPU_SECONDS, (argv, seconds)


# ---- the bounds, against what they bound ----------------------------------------------------

def test_order_of_two_checks_its_modulus_and_its_loop():
    assert [order_of_two(p) for p in (3, 5, 7, 9, 15, 21)] == [2, 4, 3, 6, 4, 6]
    for p in (4, 6, 256, 2, 1, 0, -3):
        with pytest.raises(ValueError, match="must be odd and at least 3"):
            order_of_two(p)
    for p in (2.0, "7", True):
        with pytest.raises(TypeError):
            order_of_two(p)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="time cap"):
        order_of_two(99999999999999999989)
    with _limits.time_limit(0), pytest.raises(ValueError, match="time cap of 0 s"):
        order_of_two(1000003)
    with pytest.raises(ValueError, match="a 1002-bit number"):  # no 300-digit message
        order_of_two(2**1001 + 1)


def _positions_up_to(tokens):
    p = [1] + [0] * tokens
    for part in range(1, tokens + 1):
        for total in range(part, tokens + 1):
            p[total] += p[total - part]
    return sum(p)


def test_the_misere_refusal_names_a_true_lower_bound():
    from nimbers.games.heap.misere_play import _positions_below
    assert _positions_below(41) == f"{_positions_up_to(41):,}"
    for tokens in (201, 250, 400, 1000):
        exponent = int(_positions_below(tokens).removeprefix("10^"))
        assert 10**exponent <= _positions_up_to(tokens) < 10**(exponent + 3)
    assert _positions_below(10**1000).startswith("10^")  # any size, in integer arithmetic


def test_misere_values_refuse_before_searching():
    kayles = octal_game("0.77")
    with pytest.raises(ValueError, match="on 41 tokens"):
        kayles.misere_nim_values(42)
    assert kayles.misere_nim_values(8) == [1, 0, 2, 3, 0, 1, 3, 2]


@pytest.mark.parametrize("n, d, base", [(7, 3, 2), (8, 4, 2), (6, 4, 4), (10, 4, 4), (5, 3, 16)])
def test_the_sphere_covering_bound_holds_where_codes_are_listed(n, d, base):
    code = lexicode(n, d, base)
    from nimbers.games.subset_sums import words_within
    assert code.size * words_within(n, d - 1, base) >= base**n


def test_the_digit_values_estimate_refuses_under_a_small_cap():
    from nimbers.lexicode import digit_values
    with _limits.time_limit(0.001), pytest.raises(ValueError, match="digit values"):
        digit_values(12, 5, base=16)
    assert digit_values(4, 3, base=4)[0] == [0, 1, 2, 3]


def test_dense_ordinal_work_is_checked_against_the_time_cap():
    x = Ordinal("w^(w^3)+1")
    answers = {"inverse": x.inverse(), "minimal polynomial": x.minimal_polynomial(),
               "conjugates": x.conjugates(), "degree": x.degree(), "power": x ** 1000,
               "Frobenius map": x.sqrt()}
    assert answers["inverse"] * x == 1 and answers["Frobenius map"] ** 2 == x
    assert len(answers["conjugates"]) == answers["degree"] == len(answers["minimal polynomial"]) - 1
    with _limits.time_limit(1e-9):
        for name, call in [("inverse", x.inverse), ("minimal polynomial", x.minimal_polynomial),
                           ("conjugates", x.conjugates), ("degree", x.degree),
                           ("power", lambda: x ** 1000), ("Frobenius map", x.sqrt),
                           ("Artin-Schreier equation", lambda: solve_artin_schreier(x)),
                           ("roots", lambda: roots([1, 1, x]))]:
            with pytest.raises(ValueError, match=f"the {name} in the field of degree"):
                call()
