"""The code base stays ruff-clean (part of the README's test command)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest

from tests.conftest import PROJECT_ROOT


def test_ruff_is_clean() -> None:
    # The ruff of the interpreter running the tests, never one found on PATH.
    if importlib.util.find_spec("ruff") is None:
        pytest.fail("ruff is not installed beside this interpreter (pip install -e '.[test]')")
    done = subprocess.run([sys.executable, "-m", "ruff", "check", "dealerpp", "tests", "bench", "tools"],
                          cwd=PROJECT_ROOT,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_no_eval_or_exec_in_the_package() -> None:
    import re

    for path in (PROJECT_ROOT / "dealerpp").rglob("*.py"):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            code = line.split("#", 1)[0]
            assert not re.search(r"(^|[^.\w])(eval|exec)\(", code), f"{path}:{number}: {line}"


def test_python_version_is_supported() -> None:
    assert sys.version_info >= (3, 10)


@pytest.mark.slow  # ~15 s of CPU, a quarter of the local run; landing runs mypy itself
def test_mypy_is_clean() -> None:
    """mypy, configured in pyproject.toml (strict: the whole package and tools/)."""
    if importlib.util.find_spec("mypy") is None:
        pytest.fail("mypy is not installed beside this interpreter (pip install -e '.[test,lsp]')")
    if importlib.util.find_spec("pygls") is None:  # editor/server.py is checked against its types
        pytest.fail("mypy checks the language server against pygls: pip install -e '.[test,lsp]'")
    done = subprocess.run([sys.executable, "-m", "mypy"], cwd=PROJECT_ROOT,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
