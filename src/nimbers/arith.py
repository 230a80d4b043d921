"""Nimber arithmetic on Python ints of any size and on numpy arrays.

Every operation here is a :class:`NimUfunc`: called with Python ints it runs the compiled
scalar path (any size, no numpy overhead); called with anything else it validates the
operands and runs a real numpy ufunc, so broadcasting, ``out=``, ``.outer``, ``.reduce``,
``.accumulate`` and ``.at`` behave as numpy users expect, and array libraries that speak the
ufunc protocol (dask, ...) work too.

Arrays of unsigned integers (uint8 ... uint64) take the fast compiled loops: values below
2^(2^k) stay below 2^(2^k), so a product of uint8 arrays is a uint8 array.  Signed integer
arrays are accepted when they hold no negative value.  Object arrays hold Python ints of any
size and follow the scalar rules.

>>> nim_mul(5, 11)
12
>>> nim_mul.outer([0, 1, 2, 3], [0, 1, 2, 3]).tolist()
[[0, 0, 0, 0], [0, 1, 2, 3], [0, 2, 3, 1], [0, 3, 1, 2]]
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from . import _core

__all__ = [
    "NimUfunc",
    "Nimber",
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

_UINT64_MAX = (1 << 64) - 1
_INT64_MAX = (1 << 63) - 1


def set_kernel(name: str) -> None:
    """Select the 64-bit kernel: ``"clmul"`` (carry-less multiplication, where the CPU has
    it), ``"portable"`` (table-based, any CPU) or ``"auto"`` (the fastest available).

    Both compute the same values; the choice exists for testing and benchmarking.  The
    environment variable ``NIMBERS_KERNEL=portable`` selects the portable kernel at import.
    Not thread-safe: select a kernel before starting threads.

    >>> set_kernel("portable"); nim_mul(8, 8)
    13
    >>> set_kernel("auto")
    """
    _core.set_kernel(name)


def get_kernel() -> str:
    """The selected 64-bit kernel, ``"clmul"`` or ``"portable"``.

    >>> get_kernel() in ("clmul", "portable")
    True
    """
    return _core.get_kernel()


# ---- validation of array operands ---------------------------------------------------------


def _check_int(x: int) -> int:
    if x < 0:
        raise ValueError(f"nimbers are non-negative integers, got {x}")
    return x


def _to_unsigned(arr: np.ndarray) -> np.ndarray:
    """An integer array as unsigned, refusing negative entries and non-integers."""
    kind = arr.dtype.kind
    if kind == "u" or kind == "O":
        return arr
    if kind == "b":
        return arr.astype(np.uint8)
    if kind == "i":
        if arr.size and arr.min() < 0:
            raise ValueError("nimbers are non-negative integers, got an array with negative entries")
        return arr.astype(np.dtype(f"u{arr.dtype.itemsize}"))
    raise TypeError(f"nimbers are non-negative integers, not an array of {arr.dtype}")


def _operand(x: Any) -> Any:
    """One operand of an array call, made ready for the ufunc."""
    if isinstance(x, np.ndarray):
        return _to_unsigned(x)
    if isinstance(x, (bool, np.bool_)):
        return np.uint8(x)
    if isinstance(x, int):
        _check_int(x)
        if x > _UINT64_MAX:
            return np.array(x, dtype=object)
        return np.array(x, dtype=np.min_scalar_type(x))
    if isinstance(x, np.integer):
        return _to_unsigned(np.asarray(x))[()]
    if hasattr(x, "__array_ufunc__") and not isinstance(x, np.generic):
        return x  # another array library: let it dispatch the ufunc itself
    if isinstance(x, (float, complex, str, bytes, np.generic)) or x is None:
        raise TypeError(f"nimbers are non-negative integers, not {type(x).__name__}")
    arr = np.asarray(x)
    if arr.size == 0 and arr.dtype.kind == "f":  # an empty list: numpy guesses float64
        arr = arr.astype(np.uint64)
    return _to_unsigned(arr)


def _exponent(k: Any) -> Any:
    """The exponent operand of nim_pow: int64, or object for exponents beyond it."""
    if isinstance(k, bool):
        return np.int64(k)
    if isinstance(k, int):
        return np.int64(k) if -_INT64_MAX - 1 <= k <= _INT64_MAX else np.array(k, dtype=object)
    arr = np.asarray(k)
    if arr.dtype.kind == "O":
        return arr
    if arr.dtype.kind not in "iub":
        raise TypeError(f"the exponent must be an int, not {arr.dtype}")
    if arr.dtype.kind == "u" and arr.size and arr.max() > _INT64_MAX:
        return arr.astype(object)
    return arr.astype(np.int64)


def _any_object(ops: tuple) -> bool:
    return any(getattr(x, "dtype", None) == object for x in ops)


def _as_objects(ops: tuple) -> tuple:
    return tuple(np.asarray(x).astype(object) if isinstance(x, (np.ndarray, np.generic)) else x
                 for x in ops)


def _is_zero_anywhere(x: Any) -> bool:
    if not isinstance(x, (np.ndarray, np.generic)):
        return False
    arr = np.asarray(x)
    return arr.dtype != object and bool((arr == 0).any())


class NimUfunc(_core.NimOp):
    """A nim operation: a C scalar path for Python ints and a numpy ufunc for arrays.

    ``nim_mul(a, b)`` on ints returns an int; on arrays (or lists) an array.  The ufunc methods
    ``outer``, ``reduce``, ``accumulate``, ``reduceat`` and ``at`` take the same operands.
    ``.ufunc`` is the underlying numpy ufunc.
    """

    def __new__(cls, op: str, doc: str) -> NimUfunc:
        ufunc = getattr(_core, f"ufunc_{op}")
        self = super().__new__(cls, op, ufunc, lambda *a, **kw: self._array_call(*a, **kw))
        return self

    def __init__(self, op: str, doc: str) -> None:
        self.__doc__ = doc
        self.__name__ = f"nim_{op}"

    def __repr__(self) -> str:
        return f"<nimbers operation {self.__name__}>"

    @property
    def nin(self) -> int:
        return self.ufunc.nin

    @property
    def identity(self) -> Any:
        return self.ufunc.identity

    def _prepare(self, operands: tuple) -> tuple:
        if self.op == "pow":
            ops = (_operand(operands[0]), _exponent(operands[1]))
        else:
            ops = tuple(_operand(x) for x in operands)
        if _any_object(ops):
            ops = _as_objects(ops)
        self._check_divisors(ops)
        return ops

    def _check_divisors(self, ops: tuple) -> None:
        if self.op == "div" and _is_zero_anywhere(ops[1]):
            raise ZeroDivisionError("nim-division by 0 (the divisor array holds a 0)")
        if self.op == "inv" and _is_zero_anywhere(ops[0]):
            raise ZeroDivisionError("0 has no nim-inverse (the array holds a 0)")
        if self.op == "pow" and isinstance(ops[1], (np.ndarray, np.generic)):
            base, k = np.asarray(ops[0]), np.asarray(ops[1])
            if base.dtype != object and k.dtype != object:
                if bool(np.logical_and(base == 0, k < 0).any()):
                    raise ZeroDivisionError("0 has no negative nim-power")

    def _array_call(self, *args: Any, **kwargs: Any) -> Any:
        if len(args) != self.ufunc.nin:
            raise TypeError(f"{self.__name__} takes {self.ufunc.nin} operand(s), got {len(args)}")
        return self.ufunc(*self._prepare(args), **kwargs)

    def outer(self, a: Any, b: Any, **kwargs: Any) -> Any:
        """The table of ``op(a[i], b[j])``, as numpy's ``ufunc.outer``."""
        return self.ufunc.outer(*self._prepare((a, b)), **kwargs)

    def reduce(self, a: Any, axis: Any = 0, **kwargs: Any) -> Any:
        """Folds the operation along an axis, as numpy's ``ufunc.reduce``."""
        return self.ufunc.reduce(self._prepare_single(a), axis=axis, **kwargs)

    def accumulate(self, a: Any, axis: int = 0, **kwargs: Any) -> Any:
        """Running folds along an axis, as numpy's ``ufunc.accumulate``."""
        return self.ufunc.accumulate(self._prepare_single(a), axis=axis, **kwargs)

    def reduceat(self, a: Any, indices: Any, axis: int = 0, **kwargs: Any) -> Any:
        """Folds over slices, as numpy's ``ufunc.reduceat``."""
        return self.ufunc.reduceat(self._prepare_single(a), indices, axis=axis, **kwargs)

    def at(self, a: np.ndarray, indices: Any, b: Any = None) -> None:
        """In-place application at the given indices, as numpy's ``ufunc.at``."""
        _to_unsigned(np.asarray(a))  # validates; ufunc.at needs the array itself
        if b is None:
            self.ufunc.at(a, indices)
        else:
            self.ufunc.at(a, indices, self._prepare((np.zeros(1, a.dtype), b))[1])

    def _prepare_single(self, a: Any) -> Any:
        arr = _operand(a)
        if not isinstance(arr, np.ndarray) or arr.ndim == 0:
            arr = np.atleast_1d(arr)
        if self.op in ("div", "pow"):
            raise TypeError(f"{self.__name__} is not associative: it has no reduce")
        return arr


nim_add = NimUfunc("add", """nim_add(a, b): the nim-sum a (+) b, which is XOR.

>>> nim_add(3, 5)
6
>>> nim_add.reduce([3, 5, 7])
1
""")

nim_mul = NimUfunc("mul", """nim_mul(a, b): the nim-product a (x) b.

Nimbers below 2^(2^k) form the field GF(2^(2^k)), so a product of two of them stays below
2^(2^k).  Works on ints of any size and on arrays of unsigned integers (or objects).

>>> nim_mul(8, 8), nim_mul(5, 11)
(13, 12)
>>> nim_mul(2**64, 2**64) == 3 * 2**63
True
""")

nim_div = NimUfunc("div", """nim_div(a, b): the nim-quotient a (x) b^-1; ZeroDivisionError for b = 0.

>>> nim_div(12, 11)
5
""")

nim_pow = NimUfunc("pow", """nim_pow(a, k): a nim-multiplied by itself k times.

k is an ordinary int and may be negative for a != 0; nim_pow(0, 0) == 1.

>>> nim_pow(2, 2), nim_pow(2, 3), nim_pow(2, -1)
(3, 1, 3)
""")

nim_square = NimUfunc("square", """nim_square(a): a (x) a, the Frobenius map (linear over GF(2)).

>>> nim_square(2), nim_square(16)
(3, 24)
""")

nim_sqrt = NimUfunc("sqrt", """nim_sqrt(a): the unique nimber whose nim-square is a.

>>> nim_sqrt(3), nim_square(nim_sqrt(12345))
(2, 12345)
""")

nim_inv = NimUfunc("inv", """nim_inv(a): the nim-inverse of a != 0; ZeroDivisionError for 0.

>>> nim_inv(2), nim_mul(2, nim_inv(2))
(3, 1)
""")


def field_bits(a: Any) -> Any:
    """The smallest 2^k with a < 2^(2^k): the size in bits of the smallest nim field
    GF(2^(2^k)) that holds a.  Ints of any size, or arrays of unsigned integers.

    >>> field_bits(0), field_bits(1), field_bits(2), field_bits(15), field_bits(16)
    (1, 1, 2, 4, 8)
    >>> field_bits(2**64)
    128
    """
    if isinstance(a, (int, np.integer)) and not isinstance(a, (bool, np.bool_)):
        n = _check_int(int(a)).bit_length()
        return 1 if n <= 1 else 1 << (n - 1).bit_length()
    arr = _operand(a)
    if not isinstance(arr, np.ndarray) or arr.dtype == object:
        return np.vectorize(field_bits, otypes=[object])(arr)
    out = np.full(arr.shape, 64, dtype=np.uint8)
    for bits in (32, 16, 8, 4, 2, 1):
        out[arr < np.uint64(1 << bits)] = bits
    return out


class Nimber:
    """An immutable nimber: ``+`` and ``-`` are the nim-sum, ``*`` ``/`` ``**`` the field
    operations.  Ordered and hashed by value; ``int(x)`` gives the value back.

    >>> Nimber(5) * Nimber(11)
    Nimber(12)
    >>> Nimber(2) ** -1, Nimber(3) + Nimber(5), -Nimber(7)
    (Nimber(3), Nimber(6), Nimber(7))
    >>> print(Nimber(12))
    *12
    """

    __slots__ = ("_value",)

    def __init__(self, value: int | Nimber = 0) -> None:
        if isinstance(value, Nimber):
            value = value._value
        elif isinstance(value, np.integer):
            value = int(value)
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"a Nimber is made from a non-negative int, not {type(value).__name__}")
        object.__setattr__(self, "_value", _check_int(value))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Nimber is immutable")

    @staticmethod
    def _other(x: Any) -> int | None:
        if isinstance(x, Nimber):
            return x._value
        if isinstance(x, int) and not isinstance(x, bool):
            return x
        return None

    def __int__(self) -> int:
        return self._value

    def __index__(self) -> int:
        return self._value

    def __bool__(self) -> bool:
        return self._value != 0

    def __hash__(self) -> int:
        return hash(("Nimber", self._value))

    def __repr__(self) -> str:
        return f"Nimber({self._value})"

    def __str__(self) -> str:
        return f"*{self._value}"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Nimber):
            return self._value == other._value
        return NotImplemented

    def __lt__(self, other: Nimber) -> bool:
        if not isinstance(other, Nimber):
            return NotImplemented
        return self._value < other._value

    def __le__(self, other: Nimber) -> bool:
        if not isinstance(other, Nimber):
            return NotImplemented
        return self._value <= other._value

    def __gt__(self, other: Nimber) -> bool:
        if not isinstance(other, Nimber):
            return NotImplemented
        return self._value > other._value

    def __ge__(self, other: Nimber) -> bool:
        if not isinstance(other, Nimber):
            return NotImplemented
        return self._value >= other._value

    def __add__(self, other: Any) -> Nimber:
        v = self._other(other)
        return NotImplemented if v is None else Nimber(_core.add(self._value, v))

    __radd__ = __add__
    __sub__ = __add__  # characteristic 2: subtraction is addition
    __rsub__ = __add__

    def __neg__(self) -> Nimber:
        return self

    def __pos__(self) -> Nimber:
        return self

    def __mul__(self, other: Any) -> Nimber:
        v = self._other(other)
        return NotImplemented if v is None else Nimber(_core.mul(self._value, v))

    __rmul__ = __mul__

    def __truediv__(self, other: Any) -> Nimber:
        v = self._other(other)
        return NotImplemented if v is None else Nimber(_core.div(self._value, v))

    def __rtruediv__(self, other: Any) -> Nimber:
        v = self._other(other)
        return NotImplemented if v is None else Nimber(_core.div(v, self._value))

    def __pow__(self, k: int) -> Nimber:
        if not isinstance(k, int) or isinstance(k, bool):
            return NotImplemented
        return Nimber(_core.pow(self._value, k))

    def sqrt(self) -> Nimber:
        """The nim square root.

        >>> Nimber(3).sqrt()
        Nimber(2)
        """
        return Nimber(_core.sqrt(self._value))

    def inverse(self) -> Nimber:
        """The nim-inverse; ZeroDivisionError for Nimber(0).

        >>> Nimber(2).inverse()
        Nimber(3)
        """
        return Nimber(_core.inv(self._value))

    @property
    def field_bits(self) -> int:
        """Bits of the smallest nim field holding this nimber."""
        return field_bits(self._value)


if os.environ.get("NIMBERS_KERNEL"):
    set_kernel(os.environ["NIMBERS_KERNEL"])
