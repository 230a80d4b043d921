"""Doctests that need an optional extra skip, saying which, when it is not installed (issue
53: without dask, matplotlib or Pillow they failed).  Here, at the top of the project, since
the doctests are collected from src/nimbers, docs and the README as well as tests/ (whose own
conftest.py holds the tests' fixtures); tests/ skip by ``pytest.importorskip`` with a reason.

An example needs an extra when it imports it (``import dask.array as da``), or when its module
is in :data:`NEEDED_BY_MODULE` (its functions import the extra themselves).  In a Markdown
file only the examples of the fenced block that imports the extra are skipped, so the rest of
the guide is still checked.
"""

from __future__ import annotations

import importlib.util
import re

import pytest
from _pytest.doctest import DoctestItem

#: the optional packages examples may need, and what installs them
EXTRAS = {"dask": "pip install 'nimbers[test]' (dask[array])",
          "distributed": "pip install 'nimbers[cluster]'",
          "matplotlib": "pip install 'nimbers[plot]'",
          "PIL": "pip install 'nimbers[plot]' (Pillow)"}
#: modules whose doctests need an extra although no example imports it
NEEDED_BY_MODULE = {"nimbers.research.pictures": "matplotlib",
                    "nimbers.research.frontier.picture": "matplotlib"}

_IMPORT = re.compile(r"^\s*(?:import|from)\s+(" + "|".join(EXTRAS) + r")\b", re.MULTILINE)
_FENCE = re.compile(r"^\s*```")


def _installed(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def _missing_in(source: str) -> set[str]:
    return {m for m in _IMPORT.findall(source) if not _installed(m)}


def _blocks(path: str) -> list[tuple[int, int]]:
    """(first, last) line numbers, from 0, of the fenced blocks of a Markdown file."""
    with open(path, encoding="utf-8") as f:
        fences = [i for i, line in enumerate(f) if _FENCE.match(line)]
    return list(zip(fences[::2], fences[1::2]))


def _drop_examples_needing(item: DoctestItem, missing: set[str]) -> None:
    """In a Markdown doctest, the examples of each fenced block that imports a missing extra
    are left out (their block's imports would fail, and everything after in the block)."""
    examples = item.dtest.examples
    for first, last in _blocks(str(item.path)):
        inside = [e for e in examples if first < e.lineno < last]
        if _missing_in("".join(e.source for e in inside)):
            for e in inside:
                examples.remove(e)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if not isinstance(item, DoctestItem) or item.dtest is None:
            continue
        missing = _missing_in("".join(e.source for e in item.dtest.examples))
        name = item.dtest.name
        missing |= {needed for module, needed in NEEDED_BY_MODULE.items()
                    if (name == module or name.startswith(module + ".")) and not _installed(needed)}
        if not missing:
            continue
        if str(item.path).endswith(".md"):
            _drop_examples_needing(item, missing)
            continue
        names = ", ".join(sorted(missing))
        how = "; ".join(EXTRAS[m] for m in sorted(missing))
        item.add_marker(pytest.mark.skip(reason=f"needs {names}, not installed: {how}"))
