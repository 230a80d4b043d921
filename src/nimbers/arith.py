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


def _check_objects(arr: np.ndarray) -> np.ndarray:
    """An object array must hold non-negative ints (checked here, since a reduction over a
    single element never reaches the ufunc loop that would check it)."""
    for v in arr.flat:
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise TypeError(f"nimbers are non-negative integers, not {type(v).__name__}")
        if v < 0:
            raise ValueError(f"nimbers are non-negative integers, got {v}")
    return arr


def _to_unsigned(arr: np.ndarray) -> np.ndarray:
    """An integer array as unsigned, refusing negative entries and non-integers."""
    kind = arr.dtype.kind
    if kind == "u":
        return arr
    if kind == "O":
        return _check_objects(arr)
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
    elif arr.dtype.kind == "f":
        # numpy turns ints above 2^63 mixed with small ones into floats: keep them exact
        objects = np.array(x, dtype=object)
        if all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in objects.flat):
            arr = _check_objects(objects)
            if all(v <= _UINT64_MAX for v in arr.flat):
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
    return any(isinstance(x, (np.ndarray, np.generic)) and x.dtype.kind == "O" for x in ops)


def _as_objects(ops: tuple) -> tuple:
    return tuple(np.asarray(x).astype(object) if isinstance(x, (np.ndarray, np.generic)) else x
                 for x in ops)


def _is_zero_anywhere(x: Any) -> bool:
    if not isinstance(x, (np.ndarray, np.generic)):
        return False
    arr = np.asarray(x)
    return arr.dtype != object and bool((arr == 0).any())


#: The type of the operations below: ``nim_mul(a, b)`` on ints returns an int (a C fast path
#: that never touches numpy); on arrays, lists or numpy scalars it validates the operands and
#: runs the numpy ufunc ``.ufunc``.  The ufunc methods ``outer``, ``reduce``, ``accumulate``,
#: ``reduceat`` and ``at`` take the same operands.
NimUfunc = _core.NimOp

_NOT_ASSOCIATIVE = ("div", "pow")


def _prepare(op: str, operands: tuple, outer: bool = False) -> tuple:
    """Validated operands for the ufunc of operation ``op`` (outer: for ``ufunc.outer``,
    where every base meets every exponent)."""
    if op == "pow":
        ops = (_operand(operands[0]), _exponent(operands[1]))
    else:
        ops = tuple(_operand(x) for x in operands)
    if _any_object(ops):
        ops = _as_objects(ops)
    _check_divisors(op, ops, outer)
    return ops


def _check_divisors(op: str, ops: tuple, outer: bool = False) -> None:
    if op == "div" and _is_zero_anywhere(ops[1]):
        raise ZeroDivisionError("nim-division by 0 (the divisor array holds a 0)")
    if op == "inv" and _is_zero_anywhere(ops[0]):
        raise ZeroDivisionError("0 has no nim-inverse (the array holds a 0)")
    if op == "pow" and isinstance(ops[1], (np.ndarray, np.generic)):
        base, k = np.asarray(ops[0]), np.asarray(ops[1])
        if base.dtype != object and k.dtype != object:
            if outer:
                bad = bool((base == 0).any()) and bool((k < 0).any())
            else:
                bad = bool(np.logical_and(base == 0, k < 0).any())
            if bad:
                raise ZeroDivisionError("0 has no negative nim-power")


def _prepare_single(op: str, a: Any) -> Any:
    if op in _NOT_ASSOCIATIVE:
        raise TypeError(f"nim_{op} is not associative: it has no reduce or accumulate")
    arr = _operand(a)
    if not isinstance(arr, np.ndarray) or arr.ndim == 0:
        arr = np.atleast_1d(arr)
    return arr


def _dispatch(self: Any, method: str, *args: Any, **kwargs: Any) -> Any:
    """The array path of every NimUfunc: validate, then call the ufunc (or its method)."""
    op, ufunc = self.op, self.ufunc
    if method == "__call__":
        if len(args) != ufunc.nin:
            raise TypeError(f"nim_{op} takes {ufunc.nin} operand(s), got {len(args)}")
        return ufunc(*_prepare(op, args), **kwargs)
    if method == "outer":
        if len(args) != 2:
            raise TypeError(f"nim_{op}.outer takes 2 operands")
        return ufunc.outer(*_prepare(op, args, outer=True), **kwargs)
    if method == "at":
        if not args or not isinstance(args[0], np.ndarray):
            raise TypeError(f"nim_{op}.at needs a numpy array to change in place")
        _to_unsigned(args[0])  # validates; ufunc.at works on the array itself
        rest = args[1:2]
        if len(args) > 2:
            rest += (_prepare(op, (np.zeros(1, args[0].dtype), args[2]))[1],)
        return ufunc.at(args[0], *rest, **kwargs)
    if not args:
        raise TypeError(f"nim_{op}.{method} needs an array")
    return getattr(ufunc, method)(_prepare_single(op, args[0]), *args[1:], **kwargs)


def _make(op: str, doc: str) -> NimUfunc:
    f = _core.NimOp(op, getattr(_core, f"ufunc_{op}"), _dispatch)
    f.__doc__ = doc
    f.__name__ = f"nim_{op}"
    return f


nim_add = _make("add", """nim_add(a, b): the nim-sum a (+) b, which is XOR.

>>> nim_add(3, 5)
6
>>> int(nim_add.reduce([3, 5, 7]))
1
""")

nim_mul = _make("mul", """nim_mul(a, b): the nim-product a (x) b.

Nimbers below 2^(2^k) form the field GF(2^(2^k)), so a product of two of them stays below
2^(2^k).  Works on ints of any size and on arrays of unsigned integers (or objects).

>>> nim_mul(8, 8), nim_mul(5, 11)
(13, 12)
>>> nim_mul(2**64, 2**64) == 3 * 2**63
True
""")

nim_div = _make("div", """nim_div(a, b): the nim-quotient a (x) b^-1; ZeroDivisionError for b = 0.

>>> nim_div(12, 11)
5
""")

nim_pow = _make("pow", """nim_pow(a, k): a nim-multiplied by itself k times.

k is an ordinary int and may be negative for a != 0; nim_pow(0, 0) == 1.

>>> nim_pow(2, 2), nim_pow(2, 3), nim_pow(2, -1)
(3, 1, 3)
""")

nim_square = _make("square", """nim_square(a): a (x) a, the Frobenius map (linear over GF(2)).

>>> nim_square(2), nim_square(16)
(3, 24)
""")

nim_sqrt = _make("sqrt", """nim_sqrt(a): the unique nimber whose nim-square is a.

>>> nim_sqrt(3), nim_square(nim_sqrt(12345))
(2, 12345)
""")

nim_inv = _make("inv", """nim_inv(a): the nim-inverse of a != 0; ZeroDivisionError for 0.

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
    _value: int

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
