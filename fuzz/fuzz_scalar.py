"""Fuzzes the scalar operations with ints of any size and sign (and a few non-ints), checking
every answer against the Fermat-power oracle or the field's identities.

    python fuzz/fuzz_scalar.py -atheris_runs=1000000
"""

import sys

import atheris

with atheris.instrument_imports(include=["nimbers"]):
    import nimbers
    from common import CLEAR_ERRORS, fermat_mul, small

OPS = ["add", "mul", "div", "pow", "square", "sqrt", "inv"]
ODD = [1.5, "7", None, b"1", 2j, True, object()]


def operand(fdp):
    kind = fdp.ConsumeIntInRange(0, 20)
    if kind == 0:
        return ODD[fdp.ConsumeIntInRange(0, len(ODD) - 1)]
    return fdp.ConsumeInt(fdp.ConsumeIntInRange(1, 70))  # signed, up to 560 bits


def TestOneInput(data):
    fdp = atheris.FuzzedDataProvider(data)
    op = OPS[fdp.ConsumeIntInRange(0, len(OPS) - 1)]
    a, b = operand(fdp), operand(fdp)
    f = getattr(nimbers, "nim_" + op)
    args = (a,) if op in ("square", "sqrt", "inv") else (a, b)
    try:
        r = f(*args)
    except CLEAR_ERRORS as exc:
        bad_type = any(not isinstance(x, int) for x in args)
        if op == "pow" and isinstance(b, bool):
            bad_type = bad_type or False
        negative = any(isinstance(x, int) and x < 0 for x in (args if op != "pow" else args[:1]))
        zero = (op in ("inv",) and a == 0) or (op == "div" and b == 0) or \
            (op == "pow" and a == 0 and isinstance(b, int) and b < 0)
        if not (bad_type or negative or zero):
            raise AssertionError(f"{op}{args} raised {exc!r} on valid input") from exc
        return
    assert type(r) is int and r >= 0
    if op == "add":
        assert r == a ^ b
    elif op == "mul" and small(a) and small(b):
        assert r == fermat_mul(a, b)
    elif op == "mul":
        assert r == nimbers.nim_mul(b, a)
    elif op == "div":
        assert nimbers.nim_mul(r, b) == a
    elif op == "square":
        assert r == nimbers.nim_mul(a, a)
    elif op == "sqrt":
        assert nimbers.nim_square(r) == a
    elif op == "inv":
        assert nimbers.nim_mul(r, a) == 1
    elif op == "pow" and a and abs(b) < 50:
        expected = 1
        base = a if b >= 0 else nimbers.nim_inv(a)
        for _ in range(abs(b)):
            expected = nimbers.nim_mul(expected, base)
        assert r == expected
    assert r < 1 << max(1, nimbers.field_bits(max(a, b if isinstance(b, int) and op != "pow" else 0)))


if __name__ == "__main__":
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()
