"""Modules by concept: no module of the package past 600 lines and no class past 350 (a longer
one usually holds two concepts; see docs/layout.md), and no C source or header of csrc/ past
600 lines either (the C core's files by concept: tests/project/test_c_sources.py)."""

from __future__ import annotations

import ast
import pathlib

import pytest

PACKAGE = pathlib.Path(__file__).resolve().parents[2] / "src" / "nimbers"
MODULES = sorted(PACKAGE.rglob("*.py"))
CSRC = PACKAGE.parents[1] / "csrc"
C_FILES = sorted(CSRC.rglob("*.[ch]")) if CSRC.is_dir() else []
MOST_MODULE_LINES = 600
MOST_CLASS_LINES = 350


def _name(path: pathlib.Path) -> str:
    return str(path.relative_to(PACKAGE.parent))


@pytest.mark.parametrize("path", MODULES, ids=_name)
def test_module_size(path):
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MOST_MODULE_LINES, f"{_name(path)}: {lines} lines"


@pytest.mark.parametrize("path", MODULES, ids=_name)
def test_class_sizes(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    long = [(node.name, node.end_lineno - node.lineno + 1) for node in ast.walk(tree)
            if isinstance(node, ast.ClassDef) and node.end_lineno is not None
            and node.end_lineno - node.lineno + 1 > MOST_CLASS_LINES]
    assert long == [], f"{_name(path)}: {long}"


@pytest.mark.parametrize("path", C_FILES, ids=lambda p: str(p.relative_to(CSRC.parent)))
def test_c_file_size(path):
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MOST_MODULE_LINES, f"{path.relative_to(CSRC.parent)}: {lines} lines"


def test_the_package_is_found():
    assert len(MODULES) > 50
