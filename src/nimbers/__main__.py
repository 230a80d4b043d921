"""``python -m nimbers``: the same as the ``nimbers`` command."""

from .cli import run

run()
