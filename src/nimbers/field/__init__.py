"""The nim field in depth (moved into a package; split by concept in the next commit)."""

from .frobenius import *  # noqa: F403
from .frobenius import __all__ as __all__
