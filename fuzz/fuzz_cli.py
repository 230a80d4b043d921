"""Fuzzes the command line: any argument list and any bytes on standard input give an answer
(status 0) or one line on stderr and status 2, never a traceback.

    python fuzz/fuzz_cli.py -atheris_runs=100000
"""

import contextlib
import io
import sys

import atheris

with atheris.instrument_imports(include=["nimbers"]):
    from nimbers.cli import main

TOKENS = ["mul", "add", "inv", "div", "pow", "sqrt", "explain", "table", "det", "rank", "solve",
          "nim", "heap", "turning", "tartan", "log", "order", "minpoly", "solve-quadratic",
          "-", "0", "1", "3", "-5", "0x1F", "0b2", "1e9", "99999999999999999999999", "", "--hex",
          "--bin", "--op", "mex", "--format", "csv", "--misere", "--heads", "0,3", "3:5",
          "--period", "--size", "ruler", "twins", "0.77", "--bits", "x", "\x00", "--nope"]


class _Stdin:
    def __init__(self, data):
        self.buffer = io.BytesIO(data)


def TestOneInput(data):
    fdp = atheris.FuzzedDataProvider(data)
    argv = [TOKENS[fdp.ConsumeIntInRange(0, len(TOKENS) - 1)]
            for _ in range(fdp.ConsumeIntInRange(0, 5))]
    stdin = fdp.ConsumeBytes(64)
    if argv and argv[0] in ("table",) and any(t.isdigit() and len(t) > 3 for t in argv):
        return  # keep each run short: big tables are valid, only slow
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdin
    sys.stdin = _Stdin(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(argv)
            except SystemExit as exc:
                code = exc.code
    finally:
        sys.stdin = old
    assert code in (0, 2), (argv, code)
    if code == 2 and argv and argv[0] != "" and "--help" not in argv:
        lines = err.getvalue().strip().splitlines()
        assert len(lines) <= 1 or err.getvalue().startswith("usage"), (argv, err.getvalue())
        assert "Traceback" not in err.getvalue()


if __name__ == "__main__":
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()
