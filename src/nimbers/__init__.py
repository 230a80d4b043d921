"""nimbers: nimber arithmetic, impartial games and linear algebra over the nim field.

The arithmetic runs in a compiled C core, on Python ints of any size and on numpy arrays:

>>> import nimbers
>>> nimbers.nim_mul(5, 11)
12
>>> nimbers.Nimber(8) * nimbers.Nimber(8)
Nimber(13)

The operations and the :class:`Nimber` scalar live at the top level; each further concept
is a submodule, imported on first use (``nimbers.linalg.det`` works after ``import
nimbers``):

=====================  ==================================================================
``nimbers.arith``      the operations (also at the top level)
``nimbers.tables``     addition and multiplication tables, the mex construction
``nimbers.explain``    step-by-step derivations of products and sums (after R. K. Guy)
``nimbers.field``      orders, logarithms, traces, minimal polynomials, quadratics
``nimbers.linalg``     determinants, rank, inverses, solving over the nim field
``nimbers.games``      Nim, Sprague-Grundy values, heap and coin-turning games
``nimbers.typing``     type aliases for annotating code that uses nimbers
``nimbers.cli``        the ``nimbers`` command
=====================  ==================================================================

>>> nimbers.linalg.det([[2, 1], [1, 2]])
2
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from . import _startup  # noqa: F401  (first: a Ctrl-C while the command starts is quiet)
from ._version import __version__
from .arith import (
    available_kernels,
    field_bits,
    get_kernel,
    nim_add,
    nim_div,
    nim_inv,
    nim_mul,
    nim_pow,
    nim_sqrt,
    nim_square,
    set_kernel,
)
from .nimber import Nimber

if TYPE_CHECKING:  # the submodules, for type checkers (imported lazily at run time)
    from . import arith as arith, cli as cli, explain as explain, field as field  # noqa: F401
    from . import games as games, linalg as linalg, tables as tables, typing as typing  # noqa: F401

#: The submodules, imported on first attribute access.
_SUBMODULES = ("arith", "cli", "explain", "field", "games", "linalg", "tables", "typing")

__all__ = [
    "Nimber",
    "__version__",
    "available_kernels",
    "field_bits",
    "get_kernel",
    "nim_add",
    "nim_div",
    "nim_inv",
    "nim_mul",
    "nim_pow",
    "nim_sqrt",
    "nim_square",
    "set_kernel",
]


# The public objects say where users find them (help(), reprs, pickles, the API reference).
for _obj in (Nimber, available_kernels, field_bits, get_kernel, set_kernel):
    _obj.__module__ = __name__
del _obj


def __getattr__(name: str) -> Any:
    if name in _SUBMODULES:
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'nimbers' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_SUBMODULES))
