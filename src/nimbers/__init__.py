"""nimbers: nimber arithmetic, impartial games and linear algebra over the nim field.

The arithmetic runs in a compiled C core, on Python ints of any size and on numpy arrays:

>>> import nimbers
>>> nimbers.nim_mul(5, 11)
12
>>> nimbers.Nimber(8) * nimbers.Nimber(8)
Nimber(13)

Modules, one concept each: :mod:`nimbers.arith` (the operations), :mod:`nimbers.tables`,
:mod:`nimbers.explain`, :mod:`nimbers.field`, :mod:`nimbers.linalg`, and the games in
:mod:`nimbers.games`.
"""

from .arith import *  # noqa: F403  (the public API is arith's __all__)
from .arith import __all__ as __all__

__version__ = "0.1.0"
