"""Ordinal nimbers below ω^ω^ω (moved into a package; split by concept in the next commit)."""

from .ordinals import *  # noqa: F403
from .ordinals import MAX_FIELD_DEGREE as MAX_FIELD_DEGREE, _Field as _Field, __all__ as __all__
