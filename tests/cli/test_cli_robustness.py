"""The command line as the operating system treats it: closed or full output, closed input,
a reader that goes away early, Ctrl-C while starting, numbers past Python's digit limit.
Each case runs the real command in a subprocess: one line or none on stderr, the documented
exit status, never a traceback."""

import os
import signal
import subprocess
import sys

import pytest

from nimbers import nim_mul
from nimbers.cli import main

COMMAND = [sys.executable, "-m", "nimbers"]
ENV = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
unix_only = pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")


def nimbers(*argv, stdout=subprocess.PIPE, **kwargs):
    return subprocess.run(COMMAND + list(argv), stdout=stdout, stderr=subprocess.PIPE,
                          env=ENV, timeout=120, **kwargs)


def shell(line):
    """A shell pipeline around the command; returns (statuses of each stage, stdout, stderr)."""
    command = " ".join(f"'{c}'" for c in COMMAND)
    script = line.replace("nimbers", command) + '; echo "${PIPESTATUS[@]}" >&2'
    done = subprocess.run(["bash", "-c", script], capture_output=True, env=ENV, timeout=120)
    *err, statuses = done.stderr.decode().splitlines()
    return [int(s) for s in statuses.split()], done.stdout, "\n".join(err)


def assert_one_clean_line(err):
    assert "Traceback" not in err and "Exception ignored" not in err, err
    assert len(err.strip().splitlines()) <= 1, err


@unix_only
def test_full_output_is_one_line_and_status_1():
    with open("/dev/full", "wb") as full:
        done = nimbers("mul", "5", "11", stdout=full)
    err = done.stderr.decode()
    assert done.returncode == 1 and "No space left" in err
    assert_one_clean_line(err)


@unix_only
def test_full_output_of_a_streamed_table():
    with open("/dev/full", "wb") as full:
        done = nimbers("table", "512", "--format", "csv", stdout=full)
    assert done.returncode == 1
    assert_one_clean_line(done.stderr.decode())


@unix_only
@pytest.mark.parametrize("argv", [["--help"], ["mul", "--help"], ["--version"]])
def test_help_on_a_full_output_fails_like_any_output(argv):
    # argparse ignores a failed write of its help: the status would be 0 for nothing printed
    with open("/dev/full", "wb") as full:
        done = nimbers(*argv, stdout=full)
    err = done.stderr.decode()
    assert done.returncode == 1 and "No space left" in err
    assert_one_clean_line(err)


def test_help_on_a_closed_output_is_one_line_not_the_help_on_stderr():
    statuses, _, err = shell("nimbers --help >&-")
    assert statuses == [1] and "standard output is closed" in err
    assert_one_clean_line(err)


def test_closed_output_is_one_line_and_status_1():
    statuses, _, err = shell("nimbers mul 5 11 >&-")
    assert statuses == [1] and "standard output is closed" in err
    assert_one_clean_line(err)


def test_closed_input_is_one_line_and_status_1():
    statuses, out, err = shell("nimbers mul - <&-")
    assert statuses == [1] and out == b"" and "standard input is closed" in err
    assert_one_clean_line(err)


@pytest.mark.parametrize("line", [
    "nimbers table 4096 --format csv | head -1",
    "nimbers table 300 | head -1",
    "seq 1 200000 | nimbers inv - | head -1",
])
def test_a_pipe_closed_early_is_quiet(line):
    statuses, out, err = shell(line)
    assert len(out.splitlines()) == 1
    assert err == ""  # no message at all: the reader chose to stop
    # 141 (128 + SIGPIPE) when the command saw the pipe close, as for coreutils; 0 when it
    # finished writing before head exited
    assert statuses[-2] in (0, 141) and statuses[-1] == 0


@pytest.mark.usefixtures("python_sigint")
def test_ctrl_c_while_the_command_starts_is_quiet():
    """A SIGINT sent while the package imports numpy and the C core (the thread waits until
    the package's first line has run, then interrupts): the process ends with no output,
    status 130 (by the signal), or, if the import had already finished, answers normally.
    (Before that first line -- Python's own start-up, finding the package -- a Ctrl-C is
    Python's.)"""
    script = (
        "import os, signal, sys, threading, time\n"
        "delay = float(sys.argv[1])\n"
        "def interrupt():\n"
        "    while signal.getsignal(signal.SIGINT) is not signal.SIG_DFL: time.sleep(0.0002)\n"
        "    time.sleep(delay)\n"
        "    os.kill(os.getpid(), signal.SIGINT)\n"
        "threading.Thread(target=interrupt, daemon=True).start()\n"
        "sys.argv = ['nimbers', 'mul', '5', '11']\n"
        "from nimbers.cli import main\n"
        "sys.exit(main())\n")
    for delay in ("0", "0.005", "0.02", "0.05"):
        done = subprocess.run([sys.executable, "-c", script, delay], capture_output=True,
                              env=ENV, timeout=120, cwd=os.path.dirname(__file__))
        err = done.stderr.decode()
        assert "Traceback" not in err, (delay, err)
        assert (done.returncode, done.stdout) in {(-signal.SIGINT, b""), (130, b""),
                                                  (0, b"12\n"), (130, b"12\n")}, (delay, done)


def test_ctrl_c_during_the_work_is_one_line_and_130(monkeypatch, capsys):
    from nimbers import cli

    def interrupted(args):
        raise KeyboardInterrupt
    parser_of = cli.dispatch._parse

    def parse(argv):
        args = parser_of(argv)
        args.run = interrupted
        return args
    monkeypatch.setattr(cli.dispatch, "_parse", parse)
    assert main(["mul", "5", "11"]) == 130
    assert capsys.readouterr().err == "nimbers: interrupted\n"


@pytest.mark.usefixtures("python_sigint")
def test_a_program_that_imports_nimbers_keeps_its_ctrl_c():
    done = subprocess.run([sys.executable, "-c", "import signal, nimbers; "
                           "print(signal.getsignal(signal.SIGINT) is signal.default_int_handler)"],
                          capture_output=True, env=ENV, timeout=120)
    assert done.stdout == b"True\n"


# ---- numbers past Python's 4300-digit int/str limit -----------------------------------------

def unlimited(convert, x):
    """int(x) or str(x) with the digit limit lifted for this one call: the test, a program,
    may do that; the library may not."""
    before = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        return convert(x)
    finally:
        sys.set_int_max_str_digits(before)


@pytest.mark.parametrize("digits", [5_000, 50_000])
def test_numbers_of_any_length_on_the_command_line(digits, capsys):
    a = "7" * digits
    big = unlimited(int, a)
    assert main(["mul", a, "1"]) == 0
    assert capsys.readouterr().out.strip() == a
    assert main(["add", a, "3"]) == 0
    assert capsys.readouterr().out.strip() == unlimited(str, big ^ 3)
    assert main(["mul", a, "2"]) == 0
    assert capsys.readouterr().out.strip() == unlimited(str, nim_mul(big, 2))
    assert main(["mul", a, "1", "--hex"]) == 0
    assert capsys.readouterr().out.strip() == hex(big)


def test_numbers_of_any_length_through_a_subprocess_and_stdin():
    a = "9" * 5_000
    done = nimbers("mul", a, "1")
    assert done.returncode == 0 and done.stdout.decode().strip() == a
    done = nimbers("add", "-", input=f"{a} 0\n1 2\n".encode())
    assert done.returncode == 0 and done.stdout.decode().split() == [a, "3"]


def test_a_long_bad_number_is_one_short_line(capsys):
    assert main(["mul", "7" * 5000 + "x", "2"]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and len(err) < 200 and "5001 characters" in err


def test_the_programs_digit_limit_is_left_alone(capsys):
    before = sys.get_int_max_str_digits()
    main(["mul", "7" * 6000, "1"])
    capsys.readouterr()
    assert sys.get_int_max_str_digits() == before


@pytest.mark.parametrize("text, matrix", [(",\n1\n", [[1]]),
                                          ("\n , ,\n1 2\n3 4\n", [[1, 2], [3, 4]]),
                                          (",,,\n", None)])
def test_a_matrix_line_of_separators_alone_is_blank(text, matrix, monkeypatch, capsys):
    """Found by fuzz_cli: a line holding only commas crashed read_matrix (IndexError)."""
    import io

    from nimbers.linalg import det

    class Stdin:
        buffer = io.BytesIO(text.encode())
    monkeypatch.setattr(sys, "stdin", Stdin)
    code = main(["det", "-"])
    out, err = capsys.readouterr()
    if matrix is None:
        assert code == 2 and err == "nimbers det: -: empty matrix\n"
    else:
        assert (code, err, out.strip()) == (0, "", str(det(matrix)))


@pytest.mark.parametrize("line, said", [
    ("printf 'q\\n' | nimbers play nim 3 4 >&-", "standard output is closed"),
    ("nimbers play nim 3 4 <&-", "standard input is closed"),
])
def test_play_with_a_closed_stream_is_one_line_and_status_1(line, said):
    # input() raised RuntimeError ("lost sys.stdout") through the play loop: a traceback
    statuses, _, err = shell(line)
    assert statuses[-1] == 1 and said in err
    assert_one_clean_line(err)


@unix_only
def test_play_on_a_full_output_is_status_1_like_any_output():
    with open("/dev/full", "wb") as full:
        done = nimbers("play", "nim", "3", "4", stdout=full, input=b"q\n")
    assert done.returncode == 1 and "cannot write the output" in done.stderr.decode()
    assert_one_clean_line(done.stderr.decode())


@pytest.mark.parametrize("argv", [["play", "--help"],
                                  ["tartan", "acrostic-twins", "--heads", "1:2,3:3", "--misere"]])
def test_an_output_encoding_without_the_characters_is_one_line(argv):
    # "misère" on an ASCII-only stream: a UnicodeEncodeError traceback from the help before
    done = subprocess.run(COMMAND + argv, capture_output=True, timeout=120,
                          env=dict(ENV, PYTHONIOENCODING="ascii"))
    err = done.stderr.decode()
    assert done.returncode == 1 and "PYTHONIOENCODING=utf-8" in err
    assert_one_clean_line(err)


def test_the_command_loads_numpy_without_blas_threads():
    """numpy's OpenBLAS starts a spinning thread per core as it loads (nimbers/_startup.py):
    the command sets OPENBLAS_NUM_THREADS=1 first, so its process holds no more threads after
    the import than a plain import's (one, where numpy's BLAS is OpenBLAS, against one a
    core); a value already set is kept, and a program that imports nimbers is left alone."""
    probe = ("import os, sys\n"
             "sys.argv = [sys.argv[1]]\n"
             "import nimbers\n"
             "tasks = len(os.listdir('/proc/self/task')) if os.path.isdir('/proc/self/task') else 1\n"
             "print(os.environ.get('OPENBLAS_NUM_THREADS'), tasks)\n")
    env = {k: v for k, v in ENV.items() if k != "OPENBLAS_NUM_THREADS"}

    def start(argv0, **extra):
        done = subprocess.run([sys.executable, "-c", probe, argv0], capture_output=True,
                              text=True, env=dict(env, **extra), timeout=120, check=True)
        return done.stdout.split()

    command, library = start("nimbers"), start("analysis.py")
    assert command[0] == "1" and library[0] == "None"
    assert int(command[1]) <= int(library[1])
    assert start("nimbers", OPENBLAS_NUM_THREADS="2")[0] == "2"
