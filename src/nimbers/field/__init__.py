"""The nim field in depth: multiplicative orders, primitive elements, discrete logarithms,
traces and norms, conjugates and minimal polynomials, quadratic equations, the polynomial
basis, and subfields.

The nimbers below 2^B (B = 2^k) form the field GF(2^B); its multiplicative group is cyclic of
order 2^B - 1 = F_0 F_1 ... F_(k-1), the product of the Fermat numbers F_j = 2^(2^j) + 1, whose
prime factors are known up to B = 512 (F_5 = 641 * 6700417, F_6 = 274177 * 67280421310721, ...).

>>> nim_order(256), nim_order(2)
(21845, 3)
>>> from nimbers import nim_pow
>>> nim_log(nim_pow(primitive_element(64), 12345), primitive_element(64))
12345
>>> minimal_polynomial(2)          # 2 (x) 2 = 3 = 2 (+) 1: x^2 + x + 1
[1, 1, 1]
>>> solve_quadratic(1, 7)          # x (x) x (+) x = 7
[12, 13]

The package, one module per concept: :mod:`~nimbers.field.group` (orders, primitive
elements), :mod:`~nimbers.field.logarithms`, :mod:`~nimbers.field.frobenius` (traces, norms,
conjugates, minimal polynomials, subfields), :mod:`~nimbers.field.quadratic` and
:mod:`~nimbers.field.polynomial_basis`; each imports only :mod:`~nimbers.field.group` and the
arithmetic below it.
"""

from __future__ import annotations

from .frobenius import MINPOLY_MAX_BITS as MINPOLY_MAX_BITS  # minimal_polynomial's default cap
from .frobenius import conjugates, in_subfield, minimal_polynomial, nim_norm, nim_trace, subfield
from .group import FERMAT_PRIME_FACTORS, group_order_factors, is_primitive, nim_order, primitive_element
from .logarithms import MAX_LOG_BITS as MAX_LOG_BITS  # the largest field with logarithms
from .logarithms import nim_log
from .polynomial_basis import from_polynomial_basis, polynomial_modulus, to_polynomial_basis
from .quadratic import solve_quadratic

__all__ = ["FERMAT_PRIME_FACTORS", "group_order_factors", "nim_order", "is_primitive",
           "primitive_element", "nim_log", "nim_trace", "nim_norm", "conjugates",
           "minimal_polynomial", "solve_quadratic", "to_polynomial_basis",
           "from_polynomial_basis", "polynomial_modulus", "subfield", "in_subfield"]
