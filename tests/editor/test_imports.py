"""Nothing of the language server is imported on any path but ``dealerpp
lsp`` (these run with or without the extra installed)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import PROJECT_ROOT

RUN = """\
import sys
from dealerpp.cli import main
status = main(sys.argv[1:])
sys.stdout.flush()
sys.stderr.write("\\nMODULES " + " ".join(sorted(sys.modules)))
"""
SERVER_MODULES = ("pygls", "lsprotocol", "cattrs", "dealerpp.editor", "dealerpp.cli.lsp")


@pytest.mark.parametrize("arguments", [
    ["one.dpp"], ["check", "one.dpp"], ["expand", "5+M(xxx)"], ["run", "--help"],
    ["convert", "--help"], ["show", "--help"], ["--help"],
])
def test_other_commands_import_nothing_of_the_server(tmp_path: Path,
                                                     arguments: list[str]) -> None:
    (tmp_path / "one.dpp").write_text("x = shape{north, 5+M(xxx)}\ncondition x\n")
    done = subprocess.run([sys.executable, "-c", RUN, *arguments], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60, check=False,
                          env={"PYTHONPATH": str(PROJECT_ROOT), "PATH": "/usr/bin:/bin"})
    modules = done.stderr.rpartition("\nMODULES ")[2].split()
    assert "dealerpp.cli" in modules, done.stderr
    assert [m for m in modules if m.startswith(SERVER_MODULES)] == []


def test_the_library_imports_nothing_of_the_editor_layer() -> None:
    from tests.test_layers import PACKAGE, imported_modules, layer_of_path

    wrong = [f"{path}:{line}: {module}" for path in sorted(PACKAGE.rglob("*.py"))
             if layer_of_path(path) not in ("editor", "cli")
             for line, module in imported_modules(path)
             if module.startswith(("dealerpp.editor", "pygls", "lsprotocol"))]
    assert wrong == []
