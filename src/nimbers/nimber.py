"""The :class:`Nimber` scalar: a nimber as a value with the field operations as operators.

Nimbers are the values of impartial games (Conway, *On Numbers and Games*, ch. 6; Berlekamp,
Conway and Guy, *Winning Ways*, ch. 3); written ``*n`` (star n).  With nim-addition
(XOR) and nim-multiplication the nimbers below each 2^(2^k) form the field GF(2^(2^k)).

**One coercion rule.**  Wherever a :class:`Nimber` meets another operand -- in arithmetic,
comparison and hashing alike -- the other operand may be a :class:`Nimber` or a
non-negative integer (a Python ``int`` or a numpy integer scalar; ``bool`` is not a
number here), and it is read as the nimber with that value:

>>> Nimber(5) * 11, 11 * Nimber(5), Nimber(5) == 5, hash(Nimber(5)) == hash(5)
(Nimber(12), Nimber(12), True, True)

A negative integer in arithmetic raises :class:`ValueError`; any other type makes the
operation return ``NotImplemented`` (so ``Nimber(5) == "5"`` is False and ``Nimber(5) * 1.5``
raises :class:`TypeError`).

**The operators.**  ``+``, ``-`` and ``^`` are the nim-sum (characteristic 2: subtraction is
addition, and the nim-sum of integers is their bitwise XOR, so ``^`` agrees with Python's
``int.__xor__``); ``*``, ``/`` and ``**`` (an ordinary integer exponent, negative allowed) are
the field operations.  The order ``<`` is the order of the integers, handy for sorting; it
is not the order of games, in which distinct nimbers are incomparable (*Winning Ways*,
ch. 2).
"""

from __future__ import annotations

import re
from typing import Any, SupportsIndex, Union

import numpy as np

from . import _core
from ._digits import from_decimal, to_decimal

__all__ = ["Nimber", "nimber_value"]


def nimber_value(x: Any) -> int:
    """The value of ``x`` under the coercion rule of :class:`Nimber`: a :class:`Nimber`, or a
    non-negative Python or numpy integer (not a bool).

    Parameters
    ----------
    x : Nimber or int
        The operand.

    Returns
    -------
    int
        Its value as a Python int.

    Raises
    ------
    TypeError
        For any other type.
    ValueError
        For a negative integer.

    Examples
    --------
    >>> nimber_value(Nimber(7)), nimber_value(np.uint8(7)), nimber_value(7)
    (7, 7, 7)
    """
    value = _value_or_none(x)
    if value is None:
        raise TypeError(f"nimbers are non-negative integers, not {type(x).__name__}")
    if value < 0:
        raise ValueError(f"nimbers are non-negative integers, got {value}")
    return value


def _value_or_none(x: Any) -> int | None:
    """The integer an operand stands for, or None when it is not an operand at all (the
    caller then answers NotImplemented).  Negative values come back for the caller to
    refuse."""
    if isinstance(x, Nimber):
        return x._value
    if isinstance(x, (bool, np.bool_)):
        return None
    if isinstance(x, (int, np.integer)):
        return int(x)
    return None


def _parse(text: str) -> int:
    """``*5``, ``5``, ``*0x1f``, ``0b101``; a lone ``*`` is star, the nimber 1."""
    s = text.strip().replace("_", "")
    body = s[1:].strip() if s.startswith("*") else s
    if s == "*":
        return 1
    try:
        value = int(body, 0) if body[:2].lower() in ("0x", "0b", "0o") else from_decimal(body)
    except ValueError:
        raise ValueError(f"not a nimber: {_clip(text)!r} (write *5, 5, 0x1f or *)") from None
    if value < 0:
        raise ValueError(f"nimbers are non-negative integers, got {_clip(text)!r}")
    return value


def _clip(text: str, keep: int = 40) -> str:
    """The start of a text for an error message (a typed number may be megabytes long)."""
    return text if len(text) <= keep else text[:keep] + f"... ({len(text)} characters)"


_INTEGER_FORMATS = frozenset("bdoxXn")

#: A format spec of the mini-language (fill, align, sign, #, 0, width, grouping, type).
_SPEC = re.compile(r"(?:(?P<fill>.)?(?P<align>[<>=^]))?(?P<sign>[-+ ])?(?P<alt>#)?"
                   r"(?P<zero>0)?(?P<width>\d+)?(?P<grouping>[,_])?(?P<type>[dn])", re.DOTALL)


def _format_integer(value: int, spec: str) -> str:
    """``format(value, spec)`` for an integer presentation type; decimal ones (``d``, ``n``)
    of numbers past Python's digit limit are laid out here from :func:`to_decimal`."""
    try:
        return format(value, spec)
    except ValueError:
        m = _SPEC.fullmatch(spec)
        if m is None or m["alt"]:
            raise
    digits = to_decimal(value)
    if m["grouping"]:
        head = len(digits) % 3 or 3
        digits = m["grouping"].join([digits[:head]] + [digits[i:i + 3]
                                                       for i in range(head, len(digits), 3)])
    sign = {"+": "+", " ": " "}.get(m["sign"] or "", "")
    width = int(m["width"] or 0)
    fill, align = m["fill"] or ("0" if m["zero"] and not m["align"] else " "), m["align"]
    align = align or ("=" if m["zero"] else ">")
    pad = fill * max(0, width - len(sign) - len(digits))
    if align == "=":
        return sign + pad + digits
    body = sign + digits
    if align == "<":
        return body + pad
    if align == "^":
        half = len(pad) // 2
        return pad[:half] + body + pad[half:]
    return pad + body

#: What a Nimber combines with (the coercion rule).
_Operand = Union["Nimber", int, "np.integer[Any]"]


class Nimber:
    """An immutable nimber ``*n``: ``+``, ``-`` and ``^`` are the nim-sum; ``*``, ``/`` and
    ``**`` the field operations.

    Parameters
    ----------
    value : int, Nimber or str, default 0
        A non-negative integer (Python or numpy), another Nimber, or the string form of a
        nimber: ``"*5"``, ``"5"``, ``"*0x1f"``, or ``"*"`` (star, the nimber 1).

    Raises
    ------
    TypeError
        For a value of another type (a bool, a float, ...).
    ValueError
        For a negative integer or a string that is not a nimber.

    Notes
    -----
    The coercion rule of the module docstring holds in every operation: a Nimber equals,
    hashes like and combines with the non-negative integer of the same value.  Results of
    arithmetic are Nimbers.  ``str`` gives the star notation of *Winning Ways*, and
    :func:`format` formats the value as an integer when the format spec ends in an
    integer presentation type (``b d o x X n``), the star notation otherwise.

    Examples
    --------
    >>> Nimber(5) * Nimber(11)
    Nimber(12)
    >>> Nimber(2) ** -1, Nimber(3) + Nimber(5), Nimber(3) ^ 5, -Nimber(7)
    (Nimber(3), Nimber(6), Nimber(6), Nimber(7))
    >>> print(Nimber(12)), Nimber("*12") == 12
    *12
    (None, True)
    >>> f"{Nimber(255):x} {Nimber(5):>4} {Nimber(5):03d}"
    'ff   *5 005'
    """

    __slots__ = ("_value",)
    _value: int

    def __init__(self, value: int | Nimber | str | np.integer[Any] = 0) -> None:
        if isinstance(value, str):
            number = _parse(value)
        else:
            number = nimber_value(value)
        object.__setattr__(self, "_value", number)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Nimber is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Nimber is immutable")

    # ---- the value ----------------------------------------------------------------------

    @property
    def value(self) -> int:
        """The nimber's value as a Python int (the n of ``*n``).

        >>> Nimber(9).value
        9
        """
        return self._value

    def __int__(self) -> int:
        return self._value

    # No __index__: with it, "ab" * Nimber(3) and [0] * Nimber(3) would repeat sequences,
    # ordinary integer uses that are wrong answers for a nimber.  int(x) is explicit.

    def __bool__(self) -> bool:
        return self._value != 0

    # ---- copying and pickling: a Nimber is immutable, so a copy is the Nimber itself ----

    def __reduce__(self) -> tuple[type[Nimber], tuple[int]]:
        return (Nimber, (self._value,))

    def __copy__(self) -> Nimber:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Nimber:
        return self

    # ---- text and display ---------------------------------------------------------------

    # Decimal text goes through to_decimal: Python's int/str digit limit (4300 digits) does
    # not apply to our own numbers, and the program's setting of it is left alone.

    def __repr__(self) -> str:
        return f"Nimber({to_decimal(self._value)})"

    def __str__(self) -> str:
        return f"*{to_decimal(self._value)}"

    def __format__(self, spec: str) -> str:
        if spec and spec[-1] in _INTEGER_FORMATS:
            return _format_integer(self._value, spec)
        return format(str(self), spec)

    def _repr_html_(self) -> str:
        return f'<span class="nimber">&lowast;{to_decimal(self._value)}</span>'

    def _repr_latex_(self) -> str:
        digits = to_decimal(self._value)
        return rf"$\ast{digits}$" if self._value < 10 else rf"$\ast{{{digits}}}$"

    # ---- comparison and hashing: by value, with the coercion rule -----------------------

    def __hash__(self) -> int:
        return hash(self._value)

    def __eq__(self, other: object) -> bool:
        v = _value_or_none(other)
        return NotImplemented if v is None else self._value == v

    def __ne__(self, other: object) -> bool:
        v = _value_or_none(other)
        return NotImplemented if v is None else self._value != v

    def __lt__(self, other: _Operand) -> bool:
        v = _value_or_none(other)
        return NotImplemented if v is None else self._value < v

    def __le__(self, other: _Operand) -> bool:
        v = _value_or_none(other)
        return NotImplemented if v is None else self._value <= v

    def __gt__(self, other: _Operand) -> bool:
        v = _value_or_none(other)
        return NotImplemented if v is None else self._value > v

    def __ge__(self, other: _Operand) -> bool:
        v = _value_or_none(other)
        return NotImplemented if v is None else self._value >= v

    # ---- arithmetic ---------------------------------------------------------------------

    def __add__(self, other: _Operand) -> Nimber:
        v = _value_or_none(other)
        return NotImplemented if v is None else Nimber(_core.add(self._value, nimber_value(v)))

    __radd__ = __add__
    __sub__ = __add__  # characteristic 2: subtraction is addition
    __rsub__ = __add__
    __xor__ = __add__  # the nim-sum of integers is their XOR
    __rxor__ = __add__

    def __neg__(self) -> Nimber:
        return self

    def __pos__(self) -> Nimber:
        return self

    def __mul__(self, other: _Operand) -> Nimber:
        v = _value_or_none(other)
        return NotImplemented if v is None else Nimber(_core.mul(self._value, nimber_value(v)))

    __rmul__ = __mul__

    def __truediv__(self, other: _Operand) -> Nimber:
        v = _value_or_none(other)
        return NotImplemented if v is None else Nimber(_core.div(self._value, nimber_value(v)))

    def __rtruediv__(self, other: _Operand) -> Nimber:
        v = _value_or_none(other)
        return NotImplemented if v is None else Nimber(_core.div(nimber_value(v), self._value))

    def __pow__(self, k: SupportsIndex) -> Nimber:
        # The exponent counts factors: an ordinary integer, not a nimber.
        if isinstance(k, (bool, Nimber)) or not isinstance(k, (int, np.integer)):
            return NotImplemented
        return Nimber(_core.pow(self._value, int(k)))

    # ---- field operations by name -------------------------------------------------------

    def sqrt(self) -> Nimber:
        """The nim square root: the unique nimber whose nim-square is this one.

        >>> Nimber(3).sqrt()
        Nimber(2)
        """
        return Nimber(_core.sqrt(self._value))

    def inverse(self) -> Nimber:
        """The nim-inverse.

        Raises
        ------
        ZeroDivisionError
            For ``Nimber(0)``.

        Examples
        --------
        >>> Nimber(2).inverse()
        Nimber(3)
        """
        return Nimber(_core.inv(self._value))

    @property
    def field_bits(self) -> int:
        """Bits of the smallest nim field GF(2^(2^k)) holding this nimber.

        >>> Nimber(16).field_bits
        8
        """
        return bits_of_smallest_field(self._value)

    # ---- the nim operations (nim_mul(Nimber(2), 3), ...) take Nimbers too ----------------

    def __array_ufunc__(self, ufunc: np.ufunc, method: str, *inputs: Any, **kwargs: Any) -> Any:
        """A nim operation (``nim_mul``, ...) given Nimbers: computed on their values, the
        result a Nimber when it is a single value.  A numpy scalar meeting a Nimber in an
        operator (``np.uint8(3) * Nimber(2)``) follows the coercion rule; numpy's own
        ufuncs on arrays are refused, since an ordinary product of nimbers would be a wrong
        answer."""
        if "out" in kwargs:
            return NotImplemented
        operation = _NIM_OPERATIONS.get(ufunc)
        if operation is None:
            return self._numpy_operator(ufunc, method, inputs)
        values = tuple(x._value if isinstance(x, Nimber) else x for x in inputs)
        result = operation(*values, **kwargs) if method == "__call__" \
            else getattr(operation, method)(*values, **kwargs)
        if isinstance(result, (int, np.integer)) and not isinstance(result, (bool, np.bool_)):
            return Nimber(int(result))
        return result

    def _numpy_operator(self, ufunc: np.ufunc, method: str, inputs: tuple[Any, ...]) -> Any:
        """``np.uint8(3) * Nimber(2)``: numpy asks the Nimber through the ufunc of ``*``."""
        operators = _OPERATORS.get(ufunc.__name__)
        if method != "__call__" or operators is None or len(inputs) != 2:
            return NotImplemented
        a, b = (_numpy_scalar(x) for x in inputs)
        if a is None or b is None:
            return NotImplemented
        if isinstance(a, Nimber):
            return getattr(a, operators[0])(b)
        return getattr(b, operators[1])(a)


def _numpy_scalar(x: Any) -> Nimber | np.integer[Any] | None:
    """A Nimber or a numpy integer scalar (numpy passes 0-d arrays for scalars), else None."""
    if isinstance(x, np.ndarray) and x.ndim == 0:
        x = x[()]
    return x if isinstance(x, (Nimber, np.integer)) else None


#: numpy's ufuncs behind the operators: the Nimber operator each stands for, and the one
#: to call on a Nimber standing on the right.
_OPERATORS = {
    "add": ("__add__", "__radd__"), "subtract": ("__sub__", "__rsub__"),
    "bitwise_xor": ("__xor__", "__rxor__"), "multiply": ("__mul__", "__rmul__"),
    "divide": ("__truediv__", "__rtruediv__"),
    "equal": ("__eq__", "__eq__"), "not_equal": ("__ne__", "__ne__"),
    "less": ("__lt__", "__gt__"), "less_equal": ("__le__", "__ge__"),
    "greater": ("__gt__", "__lt__"), "greater_equal": ("__ge__", "__le__"),
}

def bits_of_smallest_field(value: int) -> int:
    """The smallest 2^k with value < 2^(2^k), for a non-negative int (one rule for
    :attr:`Nimber.field_bits` and :func:`nimbers.arith.field_bits`).

    >>> bits_of_smallest_field(15), bits_of_smallest_field(16)
    (4, 8)
    """
    n = value.bit_length()
    return 1 if n <= 1 else 1 << (n - 1).bit_length()


#: the nim operations by their numpy ufunc, filled by :mod:`nimbers.arith` as it makes them
#: (the scalar sits below the operations: it is told of them, it does not import them)
_NIM_OPERATIONS: dict[np.ufunc, Any] = {}


def register_operation(ufunc: np.ufunc, operation: Any) -> None:
    """Tells Nimber that ufunc is the nim operation operation (see __array_ufunc__)."""
    _NIM_OPERATIONS[ufunc] = operation


# The ufuncs' object loops read Nimbers in object arrays as their values (and give Nimbers
# back), as a call on scalars does.
_core._register_nimber(Nimber)
