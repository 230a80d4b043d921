"""Typing tests: mypy --strict checks this file (tests/arith/test_typing.py runs it).  Each
``assert_type`` must hold; each line marked ``# E:`` must be reported as an error."""

from typing import Any

import numpy as np
import numpy.typing as npt
from typing_extensions import assert_type

import nimbers
from nimbers import Nimber, nim_add, nim_inv, nim_mul, nim_pow
from nimbers.typing import NimberArray, NimberLike

assert_type(nim_mul(5, 11), int)
assert_type(nim_add(3, 5), int)
assert_type(nim_inv(2), int)
assert_type(nim_pow(2, -1), int)
assert_type(nim_mul(Nimber(5), 11), Nimber)
assert_type(nim_mul(5, Nimber(11)), Nimber)
assert_type(nim_pow(Nimber(2), 3), Nimber)
assert_type(nim_inv(Nimber(2)), Nimber)
assert_type(nim_mul(np.uint8(5), 11), np.unsignedinteger[Any])

u8: npt.NDArray[np.uint8] = np.arange(4, dtype=np.uint8)
assert_type(nim_mul(u8, u8), npt.NDArray[np.uint8])
assert_type(nim_inv(u8), npt.NDArray[np.uint8])
assert_type(nim_mul([1, 2, 3], 5), NimberArray)
assert_type(nim_mul.outer([1, 2], [3, 4]), NimberArray)

assert_type(Nimber(5) * 11, Nimber)
assert_type(Nimber(5) + Nimber(3), Nimber)
assert_type(Nimber(5) ^ 3, Nimber)
assert_type(Nimber(2) ** -1, Nimber)
assert_type(Nimber("*5").value, int)
assert_type(nimbers.__version__, str)
assert_type(nimbers.linalg.det([[1, 2], [3, 4]]), int)


def double(x: NimberLike) -> Nimber:
    return Nimber(x) + x


nim_mul("a", 3)  # E: no overload takes a str
nim_mul(1.5, 3)  # E: nor a float
Nimber(5) * 1.5  # E: a Nimber does not meet floats
nim_pow(2, 1.5)  # E: the exponent is an integer

from nimbers.explain import Derivation, explain_mul  # noqa: E402
from nimbers.tables import Table, mul_table  # noqa: E402

assert_type(mul_table(4), Table)
assert_type(explain_mul(5, 11), Derivation)
assert_type(nim_mul.outer([Nimber(2)], [3]), NimberArray)
nim_mul.outer("ab", [3])  # E: a str is no array of nimbers
