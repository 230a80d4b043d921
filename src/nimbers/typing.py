"""Types for annotating code that uses nimbers (checked by mypy and other type checkers).

The operations are typed by overloads: Python ints give an int, a :class:`~nimbers.Nimber`
gives a Nimber, numpy integer scalars give a numpy scalar, arrays and nested lists give an
array.  Anything else (a str, a float) is a type error:

.. code-block:: python

    from nimbers import nim_mul, Nimber
    reveal_type(nim_mul(5, 11))          # int
    reveal_type(nim_mul(Nimber(5), 11))  # Nimber
    nim_mul("a", 3)                      # error: no overload matches

Names
-----
NimberLike
    A single nimber operand: a :class:`~nimbers.Nimber`, or a non-negative Python or numpy
    integer.
NimberArray
    What the array path returns: an array of unsigned integers, or of Python ints (object
    dtype) for nimbers of more than 64 bits.
NimberArrayLike
    An array operand: a numpy integer, bool or object array, or a (nested) list of nimbers.
BinaryOperation, UnaryOperation, PowerOperation
    The protocols of ``nim_add``/``nim_mul``/``nim_div``, of ``nim_inv``/``nim_sqrt``/
    ``nim_square``, and of ``nim_pow`` (whose exponent is an ordinary integer).

>>> from nimbers.typing import NimberLike
>>> from nimbers import Nimber
>>> def double(x: NimberLike) -> Nimber:
...     return Nimber(x) + Nimber(x)
>>> double(5)
Nimber(0)
"""

from __future__ import annotations

from typing import Any, Protocol, Sequence, TypeVar, Union, overload

import numpy as np
import numpy.typing as npt

from .nimber import Nimber

__all__ = [
    "BinaryOperation",
    "NimberArray",
    "NimberArrayLike",
    "NimberLike",
    "PowerOperation",
    "UnaryOperation",
]

NimberLike = Union[Nimber, int, "np.integer[Any]"]
NimberArray = Union["npt.NDArray[np.unsignedinteger[Any]]", "npt.NDArray[np.object_]"]
_Scalar = Union[Nimber, int, "np.integer[Any]", "np.bool_"]
NimberArrayLike = Union[
    "npt.NDArray[np.integer[Any]]",
    "npt.NDArray[np.bool_]",
    "npt.NDArray[np.object_]",
    Sequence[_Scalar],
    Sequence[Sequence[_Scalar]],
    Sequence[Sequence[Sequence[_Scalar]]],
]

_U = TypeVar("_U", bound="np.unsignedinteger[Any]")


class BinaryOperation(Protocol):
    """``nim_add``, ``nim_mul``, ``nim_div``: two operands, numpy's ufunc methods."""

    @overload
    def __call__(self, a: int, b: int, /) -> int: ...
    @overload
    def __call__(self, a: Nimber, b: NimberLike, /) -> Nimber: ...
    @overload
    def __call__(self, a: int | np.integer[Any], b: Nimber, /) -> Nimber: ...
    @overload
    def __call__(self, a: np.integer[Any], b: int | np.integer[Any], /) -> np.unsignedinteger[Any]: ...
    @overload
    def __call__(self, a: int, b: np.integer[Any], /) -> np.unsignedinteger[Any]: ...
    @overload
    def __call__(self, a: npt.NDArray[_U], b: npt.NDArray[_U] | int, /,
                 **kwargs: Any) -> npt.NDArray[_U]: ...
    @overload
    def __call__(self, a: NimberArrayLike, b: NimberArrayLike | NimberLike, /,
                 **kwargs: Any) -> NimberArray: ...
    @overload
    def __call__(self, a: NimberLike, b: NimberArrayLike, /, **kwargs: Any) -> NimberArray: ...

    def outer(self, a: NimberArrayLike, b: NimberArrayLike, /, **kwargs: Any) -> NimberArray: ...
    def reduce(self, a: NimberArrayLike, /, axis: int | None = ..., **kwargs: Any) -> Any: ...
    def accumulate(self, a: NimberArrayLike, /, axis: int = ..., **kwargs: Any) -> NimberArray: ...
    def reduceat(self, a: NimberArrayLike, indices: Sequence[int] | npt.NDArray[np.integer[Any]], /,
                 axis: int = ..., **kwargs: Any) -> NimberArray: ...
    def at(self, a: npt.NDArray[Any], indices: Any, b: Any = ..., /) -> None: ...
    @property
    def ufunc(self) -> np.ufunc: ...
    @property
    def op(self) -> str: ...
    __name__: str


class UnaryOperation(Protocol):
    """``nim_inv``, ``nim_sqrt``, ``nim_square``: one operand."""

    @overload
    def __call__(self, a: int, /) -> int: ...
    @overload
    def __call__(self, a: Nimber, /) -> Nimber: ...
    @overload
    def __call__(self, a: np.integer[Any], /) -> np.unsignedinteger[Any]: ...
    @overload
    def __call__(self, a: npt.NDArray[_U], /, **kwargs: Any) -> npt.NDArray[_U]: ...
    @overload
    def __call__(self, a: NimberArrayLike, /, **kwargs: Any) -> NimberArray: ...

    @property
    def ufunc(self) -> np.ufunc: ...
    @property
    def op(self) -> str: ...
    __name__: str


class PowerOperation(Protocol):
    """``nim_pow``: a nimber and an ordinary (possibly negative) integer exponent."""

    @overload
    def __call__(self, a: int, k: int, /) -> int: ...
    @overload
    def __call__(self, a: Nimber, k: int, /) -> Nimber: ...
    @overload
    def __call__(self, a: np.integer[Any], k: int | np.integer[Any], /) -> np.unsignedinteger[Any]: ...
    @overload
    def __call__(self, a: npt.NDArray[_U], k: int | npt.NDArray[np.integer[Any]], /,
                 **kwargs: Any) -> npt.NDArray[_U]: ...
    @overload
    def __call__(self, a: NimberArrayLike, k: int | Sequence[int] | npt.NDArray[np.integer[Any]],
                 /, **kwargs: Any) -> NimberArray: ...
    @overload
    def __call__(self, a: NimberLike, k: Sequence[int] | npt.NDArray[np.integer[Any]], /,
                 **kwargs: Any) -> NimberArray: ...

    def outer(self, a: NimberArrayLike, k: Sequence[int] | npt.NDArray[np.integer[Any]], /,
              **kwargs: Any) -> NimberArray: ...
    @property
    def ufunc(self) -> np.ufunc: ...
    @property
    def op(self) -> str: ...
    __name__: str
