"""Nimber arithmetic on Python ints of any size and on numpy arrays.

Every operation here is a :class:`NimUfunc`: called with Python ints it runs the compiled
scalar path (any size, no numpy overhead); called with anything else it validates the
operands and runs a real numpy ufunc, so broadcasting, ``out=``, ``.outer``, ``.reduce``,
``.accumulate`` and ``.at`` behave as numpy users expect, and array libraries that speak the
ufunc protocol (dask, ...) work too.

Arrays of unsigned integers (uint8 ... uint64) take the fast compiled loops: values below
2^(2^k) stay below 2^(2^k), so a product of uint8 arrays is a uint8 array.  Signed integer
arrays are accepted when they hold no negative value.  Object arrays (and lists) hold Python ints
of any size, or Nimbers, and follow the scalar rules element by element: a Nimber gives a
Nimber.

>>> nim_mul(5, 11)
12
>>> nim_mul.outer([0, 1, 2, 3], [0, 1, 2, 3]).tolist()
[[0, 0, 0, 0], [0, 1, 2, 3], [0, 2, 3, 1], [0, 3, 1, 2]]
"""

from __future__ import annotations

import inspect
import os
import warnings
from typing import TYPE_CHECKING, Any

import numpy as np

from . import _core, lazy
from .nimber import Nimber, bits_of_smallest_field, register_operation

if TYPE_CHECKING:
    from .typing import BinaryOperation, PowerOperation, UnaryOperation

__all__ = [
    "NimUfunc",
    "Nimber",
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

_UINT64_MAX = (1 << 64) - 1
_INT64_MAX = (1 << 63) - 1


def set_kernel(name: str) -> None:
    """Select the 64-bit kernel: ``"portable"`` (tables, any CPU), ``"clmul"`` (carry-less
    multiplication, PCLMULQDQ), ``"vpclmul"`` (the same with 256-bit VPCLMULQDQ loops for
    arrays and matrices) or ``"auto"`` (the fastest this CPU has).

    All compute the same values; the choice exists for testing and benchmarking.  The
    environment variable ``NIMBERS_KERNEL`` selects one at import.  A switch waits for no
    one: while another thread computes, it raises RuntimeError (a switch mid-way would mix
    two working bases).

    Parameters
    ----------
    name : {"auto", "portable", "clmul", "vpclmul"}
        The kernel.

    Raises
    ------
    ValueError
        For another name, or a kernel this CPU cannot run.
    RuntimeError
        While another thread computes.

    Examples
    --------
    >>> set_kernel("portable"); nim_mul(8, 8)
    13
    >>> set_kernel("auto")
    """
    _core.set_kernel(name)


def get_kernel() -> str:
    """The selected 64-bit kernel.

    Returns
    -------
    str
        ``"portable"``, ``"clmul"`` or ``"vpclmul"``.

    Examples
    --------
    >>> get_kernel() in available_kernels()
    True
    """
    return _core.get_kernel()


def available_kernels() -> tuple[str, ...]:
    """The kernels this CPU can run, fastest last; ``set_kernel("auto")`` takes the last.

    Returns
    -------
    tuple of str
        Kernel names, ``"portable"`` first.

    Examples
    --------
    >>> available_kernels()[0]
    'portable'
    """
    return _core.available_kernels()


# ---- the array path ---------------------------------------------------------------------------
#
# The ufuncs (``nim_mul.ufunc``, also ``nimbers._core.nim_mul``) are the array path: their
# loops validate (negative entries, zero divisors) and every ufunc method works as in numpy.
# A NimOp calls its ufunc directly when every operand speaks the ufunc protocol (numpy arrays
# and scalars, dask arrays, ...).  The fallback below handles what numpy cannot express on its
# own: Python ints beside arrays take the smallest unsigned dtype that holds them (numpy would
# refuse 300 beside a uint8 array), lists keep ints above 2^63 exact beside small ones (numpy
# would make floats), and anything that is not an integer gets a TypeError that says so.


def _check_int(x: int) -> int:
    if x < 0:
        raise ValueError(f"nimbers are non-negative integers, got {x}")
    return x


def _not_an_integer(x: Any) -> TypeError:
    kind = x.dtype if isinstance(x, np.ndarray) else type(x).__name__
    return TypeError(f"nim arithmetic takes integers, not {kind}")


def _int_operand(x: int) -> Any:
    """A Python int as the smallest unsigned array that holds it (objects past 64 bits)."""
    _check_int(x)
    if x > _UINT64_MAX:
        return np.array(x, dtype=object)
    return np.array(x, dtype=np.min_scalar_type(x))


def _sequence_operand(x: Any) -> np.ndarray:
    """A list (or other array-like) as an integer or object array, exact at any size."""
    arr = np.asarray(x)
    if arr.dtype.kind in "uibO":  # objects: ints of any size, Nimbers (read by the loops)
        return arr
    if arr.size == 0 and arr.dtype.kind == "f":  # an empty list: numpy guesses float64
        return arr.astype(np.uint8)
    if arr.dtype.kind == "f":  # numpy made floats of ints above 2^63 beside small ones
        objects = np.array(x, dtype=object)
        values = list(objects.flat)
        if all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in values):
            if all(0 <= v <= _UINT64_MAX for v in values):
                return objects.astype(np.uint64)
            return objects  # the object loop checks each one
    raise _not_an_integer(arr)


def _operand(x: Any) -> Any:
    """One operand of an array call, made ready for the ufunc."""
    if isinstance(x, (bool, np.bool_)):
        return np.uint8(x)
    if isinstance(x, int):
        return _int_operand(x)
    if hasattr(x, "__array_ufunc__"):
        return x  # numpy arrays and scalars, other array libraries: the ufunc takes them
    if isinstance(x, (float, complex, str, bytes)) or x is None:
        raise _not_an_integer(x)
    return _sequence_operand(x)


def _exponent(k: Any) -> Any:
    """The exponent operand of nim_pow: any integer, negative ones too."""
    if isinstance(k, (bool, np.bool_)):
        return np.int64(k)
    if isinstance(k, int):
        return np.int64(k) if -_INT64_MAX - 1 <= k <= _INT64_MAX else np.array(k, dtype=object)
    if hasattr(k, "__array_ufunc__"):
        return k
    if isinstance(k, (float, complex, str, bytes)) or k is None:
        raise TypeError(f"the exponent must be an int, not {type(k).__name__}")
    return _sequence_operand(k)


#: The type of the operations below: ``nim_mul(a, b)`` on ints returns an int (a C fast path
#: that never touches numpy); on arrays it is the numpy ufunc ``nim_mul.ufunc``, whose
#: attributes and methods (``outer``, ``reduce``, ``accumulate``, ``reduceat``, ``at``,
#: ``nin``, ``identity``, ...) it shares.
NimUfunc = _core.NimOp


def _fallback(self: Any, *args: Any, **kwargs: Any) -> Any:
    """The array path for operands that are not all arrays (see above)."""
    ufunc = self.ufunc
    if len(args) != ufunc.nin:
        raise TypeError(f"nim_{self.op} takes {ufunc.nin} operand(s), got {len(args)}")
    if self.op == "pow":
        operands = (_operand(args[0]), _exponent(args[1]))
    else:
        operands = tuple(_operand(x) for x in args)
    if any(lazy.is_lazy(x) for x in operands):
        return lazy.elementwise(ufunc, *operands, **kwargs)
    return ufunc(*operands, **kwargs)


def _with_arrays(ufunc: np.ufunc, name: str) -> Any:
    """The ufunc's method ``name`` as a NimOp attribute: numpy's own for numpy input; for
    dask arrays the lazy version (dask routes no third-party ufunc's methods); for
    ``accumulate`` and ``reduceat`` signed input is made unsigned first (numpy runs them only
    where input and output share a dtype)."""
    method = getattr(ufunc, name)
    lazy_method = getattr(lazy, name, None)
    # The operands as the call path makes them (lists exact at any size, Nimbers read as
    # their values); reduceat's second argument is indices, not an operand.
    operand_count = 2 if name == "outer" else 1
    second = _exponent if ufunc.__name__ == "nim_pow" else _operand
    # The outer product of unsigned arrays of one dtype: the C core's row-by-row linear maps
    # (numpy's iterator would copy the broadcast rows into buffers); None for other calls.
    fast_outer = _core.mul_outer if (ufunc.__name__, name) == ("nim_mul", "outer") else None

    def outer_in_core(args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        if fast_outer is None or len(args) != 2 or not kwargs.keys() <= {"out"}:
            return NotImplemented
        return fast_outer(*args, **kwargs)

    def call(*args: Any, **kwargs: Any) -> Any:
        if lazy_method is not None and any(lazy.is_lazy(a) for a in args):
            return lazy_method(ufunc, *args, **kwargs)
        args = tuple((_operand if i == 0 else second)(a) if i < operand_count else a
                     for i, a in enumerate(args))  # numpy arrays pass through unchanged
        if (result := outer_in_core(args, kwargs)) is not NotImplemented:
            return result
        if name in ("accumulate", "reduceat") and args:
            first = args[0] if hasattr(args[0], "__array_ufunc__") else _sequence_operand(args[0])
            args = (lazy.unsigned_view(first),) + args[1:]
        return method(*args, **kwargs)

    call.__name__ = name
    call.__qualname__ = f"{ufunc.__name__}.{name}"
    call.__doc__ = method.__doc__
    return call


def _signature(op: str, nin: int) -> inspect.Signature:
    """``(a, b, /, **kwargs)``: the operands, then numpy's ufunc keywords (``out=``, ...)."""
    names = ("a", "k") if op == "pow" else ("a", "b")[:nin]
    params = [inspect.Parameter(n, inspect.Parameter.POSITIONAL_ONLY) for n in names]
    params.append(inspect.Parameter("kwargs", inspect.Parameter.VAR_KEYWORD))
    return inspect.Signature(params)


def _make(op: str, doc: str) -> Any:  # typed by the protocols of nimbers.typing
    f = _core.NimOp(op, getattr(_core, f"nim_{op}"), _fallback)
    f.__doc__ = doc
    f.__name__ = f"nim_{op}"
    f.__qualname__ = f"nim_{op}"
    f.__module__ = "nimbers"
    f.__signature__ = _signature(op, f.ufunc.nin)
    register_operation(f.ufunc, f)
    if f.ufunc.nin == 2:
        for name in ("outer", "reduce", "accumulate", "reduceat"):
            setattr(f, name, _with_arrays(f.ufunc, name))
    return f


#: The operand rules every operation shares, for the docstrings below.
_ARRAYS = ("Python ints of any size take the compiled scalar path and give an\n"
           "        int; a Nimber gives a Nimber; numpy arrays, numpy scalars and lists run\n"
           "        the ufunc ``.ufunc`` with broadcasting, ``out=`` and numpy's keywords.")

nim_add: BinaryOperation = _make("add", f"""The nim-sum a (+) b: binary addition without carries, which is XOR.

    The sum of nimbers (Winning Ways, ch. 3; ONAG, ch. 6) and the rule of Nim: a position
    is lost for the player to move exactly when the nim-sum of its piles is 0 (Bouton).

    Parameters
    ----------
    a, b : int, Nimber or array_like
        Non-negative integers.
        {_ARRAYS}

    Returns
    -------
    int, Nimber or ndarray
        The nim-sum, of the operands' kind.

    Raises
    ------
    ValueError
        For a negative operand.
    TypeError
        For an operand that is not an integer (a float, a str).

    Examples
    --------
    >>> nim_add(3, 5)
    6
    >>> int(nim_add.reduce([3, 5, 7]))
    1
    """)

nim_mul: BinaryOperation = _make("mul", f"""The nim-product a (x) b.

    Conway's product (ONAG, ch. 6): the mex of a' (x) b (+) a (x) b' (+) a' (x) b' over
    a' < a and b' < b.  The nimbers below each Fermat power 2^(2^k) form the field
    GF(2^(2^k)) (Lenstra, "Nim multiplication"), so a product of two of them stays below
    2^(2^k); R. K. Guy's worked examples 8 (x) 8 = 13 and 5 (x) 11 = 12 are in McDonnell's
    J article.

    Parameters
    ----------
    a, b : int, Nimber or array_like
        Non-negative integers.
        {_ARRAYS}

    Returns
    -------
    int, Nimber or ndarray
        The nim-product, of the operands' kind (a product of uint8 arrays is uint8).

    Raises
    ------
    ValueError
        For a negative operand.
    TypeError
        For an operand that is not an integer.

    Examples
    --------
    >>> nim_mul(8, 8), nim_mul(5, 11)
    (13, 12)
    >>> nim_mul(2**64, 2**64) == 3 * 2**63
    True
    """)

nim_div: BinaryOperation = _make("div", f"""The nim-quotient a (x) b^-1.

    Parameters
    ----------
    a, b : int, Nimber or array_like
        Non-negative integers, b non-zero.
        {_ARRAYS}

    Returns
    -------
    int, Nimber or ndarray
        The x with x (x) b = a.

    Raises
    ------
    ZeroDivisionError
        For b = 0 (anywhere in an array).
    ValueError
        For a negative operand.

    Examples
    --------
    >>> nim_div(12, 11)
    5
    """)

nim_pow: PowerOperation = _make("pow", f"""The nim-power a^k: a nim-multiplied by itself k times.

    Parameters
    ----------
    a : int, Nimber or array_like
        A non-negative integer.
        {_ARRAYS}
    k : int or array_like of int
        An ordinary integer exponent (not a nimber); negative for a != 0 means the power
        of the nim-inverse.  ``nim_pow(0, 0) == 1``.

    Returns
    -------
    int, Nimber or ndarray
        The power.

    Raises
    ------
    ZeroDivisionError
        For a = 0 with k < 0.

    Examples
    --------
    >>> nim_pow(2, 2), nim_pow(2, 3), nim_pow(2, -1)
    (3, 1, 3)
    """)

nim_square: UnaryOperation = _make("square", f"""The nim-square a (x) a: the Frobenius map, linear over GF(2).

    Parameters
    ----------
    a : int, Nimber or array_like
        A non-negative integer.
        {_ARRAYS}

    Returns
    -------
    int, Nimber or ndarray
        The square.

    Examples
    --------
    >>> nim_square(2), nim_square(16)
    (3, 24)
    """)

nim_sqrt: UnaryOperation = _make("sqrt", f"""The nim square root: the unique x with x (x) x = a.

    Squaring is a bijection of every nim field (characteristic 2), so every nimber has
    exactly one square root, in the same field.

    Parameters
    ----------
    a : int, Nimber or array_like
        A non-negative integer.
        {_ARRAYS}

    Returns
    -------
    int, Nimber or ndarray
        The square root.

    Examples
    --------
    >>> nim_sqrt(3), nim_square(nim_sqrt(12345))
    (2, 12345)
    """)

nim_inv: UnaryOperation = _make("inv", f"""The nim-inverse a^-1 of a non-zero nimber.

    Parameters
    ----------
    a : int, Nimber or array_like
        A positive integer.
        {_ARRAYS}

    Returns
    -------
    int, Nimber or ndarray
        The x with a (x) x = 1, in the same field as a.

    Raises
    ------
    ZeroDivisionError
        For 0 (anywhere in an array).

    Examples
    --------
    >>> nim_inv(2), nim_mul(2, nim_inv(2))
    (3, 1)
    """)


def field_bits(a: Any) -> Any:
    """The smallest 2^k with a < 2^(2^k): the size in bits of the smallest nim field
    GF(2^(2^k)) that holds a.

    Parameters
    ----------
    a : int, Nimber or array of unsigned integers
        Non-negative integers of any size.

    Returns
    -------
    int or ndarray
        2^k (a uint8 array for arrays of up to 64 bits).

    Examples
    --------
    >>> field_bits(0), field_bits(1), field_bits(2), field_bits(15), field_bits(16)
    (1, 1, 2, 4, 8)
    >>> field_bits(2**64)
    128
    """
    if isinstance(a, (int, np.integer)) and not isinstance(a, (bool, np.bool_)):
        return bits_of_smallest_field(_check_int(int(a)))
    arr = _operand(a)
    if not isinstance(arr, np.ndarray) or arr.dtype == object:
        return np.vectorize(field_bits, otypes=[object])(arr)
    out = np.full(arr.shape, 64, dtype=np.uint8)
    for bits in (32, 16, 8, 4, 2, 1):
        out[arr < np.uint64(1 << bits)] = bits
    return out


def _kernel_from_environment() -> None:
    """NIMBERS_KERNEL selects the kernel at import; a value that cannot be used is reported
    once as a warning, and the automatic choice stays (an import never fails over it)."""
    name = os.environ.get("NIMBERS_KERNEL")
    if not name:
        return
    try:
        set_kernel(name)
    except ValueError as e:
        warnings.warn(f"NIMBERS_KERNEL={name!r} ignored ({e}); using {get_kernel()!r}",
                      RuntimeWarning, stacklevel=2)


_kernel_from_environment()
