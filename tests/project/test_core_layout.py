"""The C core's two tiers and its one owner of the polynomial basis.

csrc/core/ is plain C: none of it may include Python.h (the bindings in csrc/python/ are the
only code that knows about Python), so the core can be reused, fuzzed and sanitized alone.
"""

import re
from pathlib import Path

import numpy as np
import pytest

from nimbers import _core, nim_mul
from nimbers.field import (from_polynomial_basis, polynomial_modulus, primitive_element,
                           to_polynomial_basis)

CSRC = Path(__file__).resolve().parents[2] / "csrc"


@pytest.mark.skipif(not CSRC.is_dir(), reason="the C sources are not beside the tests")
def test_core_never_includes_python():
    core = sorted((CSRC / "core").rglob("*.[ch]"))
    assert core, "csrc/core/ holds the core's sources"
    for path in core:
        text = path.read_text()
        assert not re.search(r'#\s*include\s*[<"]Python\.h[>"]', text), path.name
        assert "numpy/" not in text, path.name


@pytest.mark.skipif(not CSRC.is_dir(), reason="the C sources are not beside the tests")
def test_bindings_do_not_see_the_working_basis():
    for path in sorted((CSRC / "python").glob("*.[ch]")):
        text = path.read_text()
        assert "kernel_inline.h" not in text, path.name
        assert not re.search(r"\b(nk|tw)_(to|from)_work\b", text), path.name


def test_dead_exports_are_gone():
    for name in ("mul_portable", "square"):
        assert not hasattr(_core, name)


def test_one_polynomial_basis():
    """The carry-less kernel's basis (C) is the one field.py presents at 64 bits: same
    generator as at every other width, same modulus, and its products are carry-less."""
    alpha, low = _core.poly_basis()
    assert alpha == primitive_element(64)
    modulus = polynomial_modulus(64)
    assert modulus[0] == 1 and sum(c << i for i, c in enumerate(reversed(modulus[1:]))) == low
    assert to_polynomial_basis(alpha) == 2  # alpha is t
    for bits in (2, 4, 8, 16, 32, 64):
        g = primitive_element(bits)
        assert to_polynomial_basis(g, bits) == 2
        assert from_polynomial_basis(2, bits) == g
        if bits > 2:  # t^2 is reduced modulo f of degree 2 in GF(4)
            assert to_polynomial_basis(nim_mul(g, g), bits) == 4  # alpha^2 is t^2


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.uint32, np.uint64])
@pytest.mark.parametrize("bits", [8, 16, 32, 64])
def test_basis_maps_on_arrays_equal_the_scalar_maps(dtype, bits):
    top = min(np.iinfo(dtype).max, (1 << bits) - 1)
    a = np.array(sorted({top * i // 96 for i in range(97)}), dtype=dtype)
    for fn in (to_polynomial_basis, from_polynomial_basis):
        out = fn(a, bits)
        assert [int(v) for v in out] == [fn(int(v), bits) for v in a]
