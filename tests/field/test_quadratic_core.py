"""solve_quadratic's one-call path for operands below 2^64 (the C core's quadratic.c) against
the general path (the same function with bits=128, which the roots of such operands always
fit) and against the definition, x (x) x (+) b (x) x = c, under every kernel."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oracle import fermat_mul

from nimbers import _core
from nimbers.field import solve_quadratic

U64 = st.integers(0, 2**64 - 1)
EDGES = [(0, 0), (0, 5), (1, 0), (1, 1), (1, 2**63), (3, 0), (2**64 - 1, 2**64 - 1), (2**63, 1)]


@pytest.mark.usefixtures("kernel")
@settings(max_examples=300, deadline=None)
@given(U64, U64)
def test_the_core_path_equals_the_general_one(b, c):
    assert solve_quadratic(b, c) == solve_quadratic(b, c, bits=128)


@pytest.mark.parametrize("b, c", EDGES + [(random.Random(k).getrandbits(64),
                                            random.Random(-k).getrandbits(64)) for k in range(40)])
def test_roots_by_the_definition(b, c):
    roots = solve_quadratic(b, c)
    assert roots == sorted(set(roots)) and len(roots) == (1 if b == 0 else 2)
    for x in roots:
        assert fermat_mul(x, x) ^ fermat_mul(b, x) == c


def test_other_operands_take_the_general_path():
    for b, c in [(-1, 3), (2**64, 3), (True, 3), (3.0, 3), (3, 2**64)]:
        assert _core.solve_quadratic64(b, c) is None
    with pytest.raises(ValueError):
        solve_quadratic(-1, 3)
    with pytest.raises(TypeError):
        solve_quadratic(3.0, 3)
    assert solve_quadratic(3, 2**64) == solve_quadratic(3, 2**64, bits=256)
