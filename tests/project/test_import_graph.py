"""The package's import graph has no cycle, and its floors import downwards only.

Every import counts -- at module level and inside functions (a lazy import inside a function
still ties the two modules together: arith -> nimber -> arith was such a circle) -- except
those under ``if TYPE_CHECKING:``, which never run.  The front floor (the command line, the
web playground, terminal play) sits on top: nothing below it imports it.
"""

from __future__ import annotations

import ast
import functools
import pathlib
import re

import pytest

SRC = pathlib.Path(__file__).resolve().parents[2] / "src"
PACKAGE = SRC / "nimbers"
FRONT_FLOOR = ("nimbers.cli", "nimbers.web", "nimbers.play", "nimbers.__main__")
#: deprecated aliases of front-floor modules left at their old place below it: each may
#: import its new home (lazily, when an old name is used), and nothing else upwards
DEPRECATED_ALIASES = {"nimbers.games.play": "nimbers.play"}


def _module_name(path: pathlib.Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, pathlib.Path]:
    found = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    found["nimbers._core"] = PACKAGE / "_core.pyi"  # the C extension: imports nothing
    return found


def _absolute(module: str, is_package: bool, level: int, name: str) -> str:
    if level == 0:
        return name
    base = module.split(".")
    if not is_package:
        base.pop()
    base = base[: len(base) - (level - 1)]
    return ".".join(base + ([name] if name else []))


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If):
            test = node.test
            name = getattr(test, "id", None) or getattr(test, "attr", None)
            if name == "TYPE_CHECKING":
                skipped.update(id(inner) for inner in ast.walk(node))
    return skipped


@functools.lru_cache(maxsize=1)
def import_graph() -> dict[str, set[str]]:
    """Each module of the package -> the modules of the package it imports."""
    modules = _modules()
    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        if path.suffix != ".py":
            graph[module] = set()
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skipped = _type_checking_nodes(tree)
        is_package = path.name == "__init__.py"
        imported: set[str] = set()
        for node in ast.walk(tree):
            if id(node) in skipped:
                continue
            if isinstance(node, ast.Import):
                imported.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                target = _absolute(module, is_package, node.level, node.module or "")
                for alias in node.names:
                    sub = f"{target}.{alias.name}"
                    imported.add(sub if sub in modules else target)
        graph[module] = {m for m in imported if m in modules and m != module}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_checker_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle():
    assert cycles(import_graph()) == []


def _on_front_floor(module: str) -> bool:
    return any(module == top or module.startswith(top + ".") for top in FRONT_FLOOR)


@pytest.mark.parametrize("module", sorted(m for m in import_graph() if not _on_front_floor(m)))
def test_nothing_below_the_front_floor_imports_it(module):
    upward = sorted(m for m in import_graph()[module]
                    if _on_front_floor(m) and m != DEPRECATED_ALIASES.get(module))
    assert upward == [], f"{module} imports the front floor: {upward}"


#: The floors of docs/layout.md, lowest first: a module imports only from its own floor or
#: the floors below (the package's ``__init__`` re-exports from every floor, so it is on top).
FLOORS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("C core", ("nimbers._core",)),
    ("services", ("nimbers.files", "nimbers._limits", "nimbers._progress", "nimbers._digits",
                  "nimbers._gf2", "nimbers._startup", "nimbers._version")),
    ("algebra", ("nimbers._tower", "nimbers.arith", "nimbers.nimber", "nimbers.typing", "nimbers.tables",
                 "nimbers.explain", "nimbers.linalg", "nimbers.field", "nimbers.ordinal",
                 "nimbers.lazy")),
    ("notation", ("nimbers.notation",)),
    # lexicodes are the P-positions of coin-turning games (Conway), read by subset sums
    ("games", ("nimbers.games", "nimbers.lexicode")),
    ("research", ("nimbers.research",)),
    ("front doors", ("nimbers.cli", "nimbers.web", "nimbers.play", "nimbers.__main__",
                     "nimbers")),
)


def floor_of(module: str) -> int:
    """The floor of a module: the longest prefix of FLOORS it falls under."""
    best, found = -1, None
    for level, (_, tops) in enumerate(FLOORS):
        for top in tops:
            if (module == top or module.startswith(top + ".")) and len(top) > best:
                best, found = len(top), level
    if found is None:
        raise AssertionError(f"{module} is on no floor: add it to FLOORS and docs/layout.md")
    return found


def test_the_floor_checker_places_modules():
    assert FLOORS[floor_of("nimbers.games.heap.game")][0] == "games"
    assert FLOORS[floor_of("nimbers.research.census.run")][0] == "research"
    assert FLOORS[floor_of("nimbers")][0] == "front doors"
    assert floor_of("nimbers.cli.census") > floor_of("nimbers.research.frontier")


@pytest.mark.parametrize("module", sorted(import_graph()))
def test_imports_run_down_the_floors(module):
    here = floor_of(module)
    upward = sorted(m for m in import_graph()[module]
                    if floor_of(m) > here and m != DEPRECATED_ALIASES.get(module))
    assert upward == [], (f"{module} ({FLOORS[here][0]}) imports from floors above it: "
                          + ", ".join(f"{m} ({FLOORS[floor_of(m)][0]})" for m in upward))


# ---- docs/layout.md says what is (issue 48: it was wrong in eight places) ------------------

LAYOUT = SRC.parent / "docs" / "layout.md"
#: packages whose every module the layout's table names
LISTED_WHOLE = ("nimbers", "nimbers.games", "nimbers.research", "nimbers.notation")


def layout_table() -> list[tuple[str, list[str]]]:
    """(floor, the modules its row names) from the diagram of docs/layout.md, top floor
    first: a ``name:`` sets the package of the names after it, ``;`` ends it, a trailing
    ``/`` marks a package, parentheses are comments."""
    text = LAYOUT.read_text(encoding="utf-8")
    block = text.split("```\n", 2)[1]
    rows: list[tuple[str, str]] = []
    for line in block.splitlines():
        if not line.strip() or line.strip().startswith("─"):
            continue
        floor = next((name for name, _ in FLOORS if line[:15].strip() == name), None)
        if floor is not None:
            rows.append((floor, line[15:]))
        else:
            rows[-1] = (rows[-1][0], rows[-1][1] + " " + line[15:])
    table = []
    for floor, words in rows:
        words = re.sub(r"\([^()]*\)", " ", words).replace(";", " ; ")
        prefix, names = None, []
        for word in words.split():
            if word == ";":
                prefix = None
            elif word.endswith(":"):
                prefix = word[:-1]
            elif prefix is None or word.startswith("nimbers"):
                names.append(word.rstrip("/"))
            else:
                names.append(f"{prefix}.{word.rstrip('/')}")
        table.append((floor, names))
    return table


def test_the_layout_reads_as_a_table():
    table = layout_table()
    assert [floor for floor, _ in table] == [name for name, _ in reversed(FLOORS)]
    assert ("nimbers.research.census" in dict(table)["research"]
            and "nimbers.lexicode" in dict(table)["games"])


@pytest.mark.parametrize("floor, names", layout_table(), ids=[f for f, _ in layout_table()])
def test_the_layout_names_every_module_on_its_floor(floor, names):
    modules = _modules()
    for name in names:
        assert name in modules, f"docs/layout.md names {name}, which is no module"
        assert FLOORS[floor_of(name)][0] == floor, \
            f"docs/layout.md puts {name} on {floor}, FLOORS on {FLOORS[floor_of(name)][0]}"


def test_the_layout_leaves_no_module_out():
    named = {name for _, names in layout_table() for name in names} | set(LISTED_WHOLE)
    for package in LISTED_WHOLE:
        children = {m for m in _modules() if m.rpartition(".")[0] == package}
        assert children <= named, f"docs/layout.md leaves out {sorted(children - named)}"


def test_files_is_the_one_module_that_renames_files():
    # docs/layout.md: "files ... is the one writer that renames a temporary file over its
    # target": every other module writes through nimbers.files
    text = LAYOUT.read_text(encoding="utf-8")
    assert "the one writer that renames" in text
    renaming = [str(path.relative_to(PACKAGE)) for path in sorted(PACKAGE.rglob("*.py"))
                if path.name != "files.py"
                and re.search(r"\b(os\.replace|os\.rename|shutil\.move)\(",
                              path.read_text(encoding="utf-8"))]
    assert renaming == []


def test_the_layout_names_every_statistics_class_and_best_mask():
    text = LAYOUT.read_text(encoding="utf-8")
    for module, path in _modules().items():
        if path.suffix != ".py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        defined = {n.name for n in tree.body if isinstance(n, (ast.ClassDef, ast.FunctionDef))}
        if "best_mask" in defined or any(d.endswith("Stats") for d in defined):
            assert module.removeprefix("nimbers.") in text, f"docs/layout.md: {module}"
