"""Gaussian elimination over GF(2) on Python ints as bit vectors, for the linear algebra of
the field's GF(2)-structure (minimal polynomials, Artin-Schreier solves, lexicode kernels).

Each vector in the basis carries a tag: which combination of the inserted vectors it is, as
a bit mask, XORed along with the vector.  A vector that reduces to 0 then says which
combination of the inputs vanishes (a linear relation), and a reduced target says which
combination of the inputs makes it (a solution).

>>> basis = XorBasis()
>>> basis.insert(0b110, 0b001), basis.insert(0b011, 0b010), basis.insert(0b101, 0b100)
((6, 1), (3, 2), (0, 7))
"""

from __future__ import annotations


class XorBasis:
    """Vectors in echelon form, keyed by their leading bit, each with its tag."""

    def __init__(self) -> None:
        self._pivots: dict[int, tuple[int, int]] = {}

    def reduce(self, vector: int, tag: int = 0) -> tuple[int, int]:
        """vector reduced until its leading bit is no pivot's (0 when it lies in the span),
        and tag changed alike."""
        while vector:
            pivot = self._pivots.get(vector.bit_length() - 1)
            if pivot is None:
                break
            vector ^= pivot[0]
            tag ^= pivot[1]
        return vector, tag

    def insert(self, vector: int, tag: int) -> tuple[int, int]:
        """Reduces vector and keeps a non-zero remainder as a new pivot.  Returns the
        remainder and its tag: (0, t) means the combination t of the inputs is 0."""
        vector, tag = self.reduce(vector, tag)
        if vector:
            self._pivots[vector.bit_length() - 1] = (vector, tag)
        return vector, tag
