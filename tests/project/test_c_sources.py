"""The C sources by concept, as the Python ones (docs/layout.md): no circle between the files
of csrc/ (their size: test_module_sizes.py) -- neither a header that includes itself back nor two
sources that call (or read) each other, directly or round a longer loop.  A circle means one
concept spread over two files; the layers of the core (kernels, then tower, linalg, dlog; the
frontier engine's values, state, coverage, settling, blocks, step) only look downward.

The calls are found from the text: a file depends on another when it names a function or
variable that the other defines without ``static`` (comments, strings and preprocessor lines
left out), which is what the linker would join."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

CSRC = Path(__file__).resolve().parents[2] / "csrc"
SOURCES = sorted(CSRC.rglob("*.c")) if CSRC.is_dir() else []
HEADERS = sorted(CSRC.rglob("*.h")) if CSRC.is_dir() else []

pytestmark = pytest.mark.skipif(not SOURCES, reason="the C sources are not beside the tests")

_HEAD = re.compile(r"^([A-Za-z_][\w \t*]*?[\s*])([A-Za-z_]\w*)\s*([(\[=;])", re.M)
_NOT_DEFINITIONS = {"static", "extern", "typedef", "return", "else", "goto", "case", "struct",
                    "enum", "union"}


def _name(path: Path) -> str:
    return str(path.relative_to(CSRC))


def _code(path: Path) -> str:
    """The text of path without comments, string literals and preprocessor lines."""
    text = re.sub(r"/\*.*?\*/", " ", path.read_text(), flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    text = re.sub(r'"(\\.|[^"\\\n])*"', '""', text)
    text = re.sub(r"\\\n", " ", text)
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))


def _after_parentheses(text: str, start: int) -> str:
    """What follows the parenthesis opened just before start, once it is closed."""
    depth, i = 1, start
    while depth and i < len(text):
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        i += 1
    return text[i:].lstrip()


def _definitions(code: str) -> set[str]:
    """The names a file defines for other files: functions with a body and variables, at the
    file's top level, without static."""
    names = set()
    for match in _HEAD.finditer(code):
        prefix, name, token = match.groups()
        if set(prefix.split()) & _NOT_DEFINITIONS:
            continue
        if token == "(" and not _after_parentheses(code, match.end()).startswith("{"):
            continue  # a declaration, or a call at the top of a macro's expansion
        names.add(name)
    return names


def _pasted_definitions(path: Path) -> set[str]:
    """The functions a file defines through a macro of token pasting, one per instance:
    ``#define KERNELS(T, SUF) int name_##SUF(...) {...}`` with ``KERNELS(uint8_t, u8)`` at the
    top of the file defines name_u8 (static ones left out)."""
    text = re.sub(r"/\*.*?\*/", " ", path.read_text(), flags=re.S)
    text = re.sub(r"\\\n", " ", text)
    names = set()
    for macro, params, body in re.findall(r"^\s*#\s*define\s+(\w+)\(([^)]*)\)(.*)$", text, re.M):
        params = [p.strip() for p in params.split(",")]
        pasted = [(m.group(1), m.group(2)) for m in re.finditer(r"(\w+)##(\w+)\s*\(", body)
                  if "static" not in body[:m.start()].rpartition("}")[2]]
        for args in re.findall(rf"^{macro}\(([^)]*)\)", text, re.M):
            values = dict(zip(params, (a.strip() for a in args.split(","))))
            names |= {stem + values[param] for stem, param in pasted if param in values}
    return names


def _calls() -> dict[str, set[str]]:
    """For each source, the other sources whose definitions it names."""
    codes = {_name(path): _code(path) for path in SOURCES}
    owner: dict[str, set[str]] = {}
    for path in SOURCES:
        for symbol in _definitions(codes[_name(path)]) | _pasted_definitions(path):
            owner.setdefault(symbol, set()).add(_name(path))
    return {name: {other for word in set(re.findall(r"\b[A-Za-z_]\w*\b", code))
                   for other in owner.get(word, ()) if other != name}
            for name, code in codes.items()}


def _includes() -> dict[str, set[str]]:
    """For each header, the headers of csrc/ it includes (by the path a compiler would find:
    beside it first, then csrc/core and csrc/python, the build's include folders)."""
    graph = {}
    for path in HEADERS:
        found = set()
        for target in re.findall(r'^\s*#\s*include\s*"([^"]+)"', path.read_text(), re.M):
            for folder in (path.parent, CSRC / "core", CSRC / "python"):
                if (folder / target).is_file():
                    found.add(_name((folder / target).resolve()))
                    break
        graph[_name(path)] = found
    return graph


def _circle(graph: dict[str, set[str]]) -> list[str] | None:
    """A circle of graph's edges (its files in order, the first again at the end), or None."""
    state: dict[str, int] = {}  # 1: on the path being walked, 2: done

    def walk(node: str, path: list[str]) -> list[str] | None:
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [node, nxt] if nxt in path else [node, nxt]
            if nxt not in state and (found := walk(nxt, path + [node])):
                return found
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := walk(node, [])):
            return found
    return None


def test_no_circle_of_calls():
    assert _circle(_calls()) is None


def test_no_circle_of_includes():
    assert _circle(_includes()) is None


def test_the_calls_are_found():
    """The parser sees the layers it guards: the bindings call the core, the array loops the
    scalar kernel, the frontier's coverage reads values back (and not the other way)."""
    calls = _calls()
    assert "core/heap.c" in calls["python/games.c"]
    assert "core/kernel64.c" in calls["core/kernel_arrays.c"]
    assert "core/frontier/values.c" in calls["core/frontier/cover.c"]
    assert "core/frontier/cover.c" not in calls["core/frontier/values.c"]
    assert "core/sparse.c" in calls["core/frontier/settle.c"]  # sp_has_pair_u16, pasted
    assert "core/sparse.c" in calls["core/heap_marks.c"]


def test_a_circle_is_found():
    assert _circle({"a.c": {"b.c"}, "b.c": {"c.c"}, "c.c": {"a.c"}}) is not None
    assert _circle({"a.c": {"b.c"}, "b.c": {"c.c"}, "c.c": set()}) is None
