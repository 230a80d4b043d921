"""Every public function and method of the games modules documents itself in numpydoc:
a Parameters or Returns section and a runnable example (the examples run with
``--doctest-modules``; subclasses' overrides inherit the documented contract)."""

from __future__ import annotations

import importlib
import inspect
from typing import Any, Iterator

import pytest

MODULES = ["games.engine", "games.heap", "games.misere", "games.nim", "games.tartan",
           "games.turning", "games.theorems", "games.vocabulary", "games.positions",
           "games.subset_sums", "research.frontier.run"]
#: functions exempt from the rule (none now: the name lookup of heap codes that was, is the
#: deprecated alias nimbers.games.heap_game_from_code of the catalogue's heap_game)
EXEMPT: set[str] = set()


def _documented() -> Iterator[tuple[str, Any]]:
    for m in MODULES:
        module = importlib.import_module(f"nimbers.{m}")
        for name in module.__all__:
            obj = getattr(module, name)
            if getattr(obj, "__module__", None) != module.__name__:
                continue
            if inspect.isfunction(obj):
                yield f"{m}.{name}", obj
            elif inspect.isclass(obj) and not getattr(obj, "_is_protocol", False):
                for attr, value in vars(obj).items():
                    doc = getattr(value, "__doc__", None) or ""
                    if attr.startswith("_") or not inspect.isfunction(value) \
                            or doc.startswith("Deprecated"):
                        continue
                    yield f"{m}.{name}.{attr}", value


@pytest.mark.parametrize("name, func", [(n, f) for n, f in _documented() if n not in EXEMPT],
                         ids=lambda x: x if isinstance(x, str) else "")
def test_numpydoc_sections_and_an_example(name, func):
    doc = inspect.getdoc(func) or ""
    assert ">>>" in doc, f"{name} has no example"
    assert "Parameters\n----------" in doc or "Returns\n-------" in doc, \
        f"{name} has no Parameters or Returns section"
