"""The package's layers, read from the imports in its source: arrows point
down only (see docs/architecture.md)."""

from __future__ import annotations

import ast
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
             "dealerpp/records.py", "dealerpp/lengths.py", "dealerpp/stopping.py"),
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
                "dealerpp.records", "dealerpp.lengths", "dealerpp.stopping")


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


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """Every module ``path`` imports, anywhere in it (lazy imports included)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
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
