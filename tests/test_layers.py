"""The package's layers, read from the imports in its source: arrows point
down only, between the layers and between the modules of one layer: no
module reaches itself through its imports (see docs/architecture.md)."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

from tests.conftest import PROJECT_ROOT

PACKAGE = PROJECT_ROOT / "dealerpp"

# Each layer, and the layers its modules must never import.
LAYERS = {
    "cli": ("dealerpp/cli/", "dealerpp/__main__.py", "dealerpp/quick.py"),
    "editor": ("dealerpp/editor/",),
    "api": ("dealerpp/dealing.py",),  # with dealerpp/__init__.py: the library's own names
    "script": ("dealerpp/script/",),
    "shapes": ("dealerpp/shapes/",),
    "deals": ("dealerpp/deals/",),
    "lalr": ("dealerpp/lalr/",),
    "base": ("dealerpp/diagnostics.py", "dealerpp/atomic.py", "dealerpp/grammars.py",
             "dealerpp/records.py", "dealerpp/lengths.py", "dealerpp/stopping.py",
             "dealerpp/status.py"),
}
NEVER = {
    "editor": {"cli"},  # beside cli/, on the library: neither imports the other's way up
    "api": {"cli", "editor"},
    "script": {"cli", "editor", "api"},
    "shapes": {"cli", "editor", "api", "script"},
    "deals": {"cli", "editor", "api", "script", "shapes"},
    "lalr": {"cli", "editor", "api", "script", "shapes", "deals"},
    "base": {"cli", "editor", "api", "script", "shapes", "deals", "lalr"},
}
MODULE_OF_LAYER = {"cli": "dealerpp.cli", "editor": "dealerpp.editor", "api": "dealerpp.dealing",
                   "script": "dealerpp.script",
                   "shapes": "dealerpp.shapes", "deals": "dealerpp.deals",
                   "lalr": "dealerpp.lalr"}
BASE_MODULES = ("dealerpp.diagnostics", "dealerpp.atomic", "dealerpp.grammars",
                "dealerpp.records", "dealerpp.lengths", "dealerpp.stopping", "dealerpp.status")


def layer_of_path(path: Path) -> str | None:
    name = path.relative_to(PROJECT_ROOT).as_posix()
    for layer, places in LAYERS.items():
        if any(name == p or (p.endswith("/") and name.startswith(p)) for p in places):
            return layer
    return None


def layer_of_module(module: str) -> str | None:
    if module.startswith(BASE_MODULES):
        return "base"
    for layer, prefix in MODULE_OF_LAYER.items():
        if module == prefix or module.startswith(prefix + "."):
            return layer
    return None


@cache
def import_statements(path: Path) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement of ``path``, anywhere in it (lazy imports and
    ``if TYPE_CHECKING:`` ones included), read once for all the tests here.
    An import is a statement, so only statement bodies are walked, not the
    expressions (the generated tables are most of the package's nodes); a
    file without the word ``import`` (a generated table) holds none and is
    not parsed."""
    text = path.read_text()
    if "import" not in text:
        return []
    found: list[ast.Import | ast.ImportFrom] = []
    bodies: list[list[ast.stmt]] = [ast.parse(text, str(path)).body]
    while bodies:
        for node in bodies.pop():
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                found.append(node)
            for field in ("body", "orelse", "finalbody", "handlers", "cases"):
                inner = getattr(node, field, None)
                if isinstance(inner, list):
                    bodies += [inner] if field not in ("handlers", "cases") else \
                        [part.body for part in inner]
    return found


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """Every module ``path`` imports, anywhere in it (lazy imports included)."""
    found = []
    for node in import_statements(path):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif node.module and node.level == 0:
            found.append((node.lineno, node.module))
            found += [(node.lineno, f"{node.module}.{alias.name}") for alias in node.names]
    return found


def test_every_module_has_a_layer() -> None:
    for path in PACKAGE.rglob("*.py"):
        if path.name != "__init__.py" or path.parent != PACKAGE:
            assert layer_of_path(path) is not None, f"{path} belongs to no layer"


@pytest.mark.parametrize("layer", sorted(NEVER))
def test_no_arrow_runs_back_up(layer: str) -> None:
    wrong = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if layer_of_path(path) != layer:
            continue
        for line, module in imported_modules(path):
            target = layer_of_module(module)
            if target in NEVER[layer]:
                wrong.append(f"{path.relative_to(PROJECT_ROOT)}:{line}: imports {module}")
    assert wrong == []


def test_lark_is_a_build_and_test_dependency_only() -> None:
    """No module of the package imports Lark (the shipped tables need none;
    tests/lalr checks they are what Lark builds), so it is no run-time
    dependency."""
    importing = [f"{path.relative_to(PROJECT_ROOT)}:{line}"
                 for path in sorted(PACKAGE.rglob("*.py"))
                 for line, module in imported_modules(path)
                 if module == "lark" or module.startswith("lark.")]
    assert importing == []
    import re

    text = (PROJECT_ROOT / "pyproject.toml").read_text()
    runtime = re.search(r"^dependencies = \[(.*?)\]", text, re.M | re.S)
    test = re.search(r"^test = \[(.*?)\]", text, re.M | re.S)
    assert runtime is not None and test is not None
    assert "lark" not in runtime.group(1) and '"lark' in test.group(1)


def module_name(path: Path) -> str:
    parts = path.relative_to(PROJECT_ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in PACKAGE.rglob("*.py")}


def _nearest_module(name: str) -> str | None:
    while name not in MODULES:
        if "." not in name:
            return None
        name = name.rsplit(".", 1)[0]
    return name


def arrows() -> dict[str, set[str]]:
    """Each module of the package and the modules of the package it imports
    itself: at the top, in a function (a lazy import) or for the type
    checker alone (``if TYPE_CHECKING:``), all the same. ``from P import M``
    is an arrow to the module M when P.M is one; the package whose
    ``__init__`` Python runs first is no arrow of the importer's."""
    found: dict[str, set[str]] = {}
    for name, path in MODULES.items():
        imported = []
        for node in import_statements(path):
            if isinstance(node, ast.Import):
                imported += [alias.name for alias in node.names]
            elif node.module and node.level == 0:
                imported += [f"{node.module}.{alias.name}" if f"{node.module}.{alias.name}"
                             in MODULES else node.module for alias in node.names]
        found[name] = {target for target in map(_nearest_module, imported)
                       if target is not None and target != name}
    return found


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The modules that reach one another, circle by circle (Tarjan's
    strongly connected components, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                circle = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    circle.append(member)
                    if member == node:
                        break
                if len(circle) > 1:
                    found.append(sorted(circle))
    return found


def test_no_module_reaches_itself_through_its_imports() -> None:
    graph = arrows()
    described = [" <-> ".join(circle) + ": " + "; ".join(
        f"{a} -> {b}" for a in circle for b in sorted(graph[a]) if b in circle)
        for circle in circles(graph)]
    assert described == []


def test_the_circle_finder_finds_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e"}}
    assert circles(graph) == [["a", "b", "c"]]
