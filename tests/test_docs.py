"""docs/shape-language.md runs as written: its Python examples as doctests,
and each `$ dealerpp expand ...` example prints what the page shows."""

from __future__ import annotations

import contextlib
import doctest
import io
import re
import shlex

import pytest

from dealerpp import DppError, expand, preprocess
from dealerpp.cli.expand import main as expand_main
from tests.conftest import PROJECT_ROOT

SHAPE_LANGUAGE = PROJECT_ROOT / "docs" / "shape-language.md"


def test_shape_language_doctests() -> None:
    result = doctest.testfile(str(SHAPE_LANGUAGE), module_relative=False,
                              optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0 and result.attempted >= 20


def _expand_examples() -> list[tuple[str, str]]:
    """(command, expected output) for each `$ dealerpp expand` line of a console block."""
    text = SHAPE_LANGUAGE.read_text(encoding="utf-8")
    examples = []
    for block in re.findall(r"```console\n(.*?)```", text, flags=re.S):
        lines = [line.strip() if line.lstrip().startswith("$") else line
                 for line in block.splitlines()]
        indent = min((len(b) - len(b.lstrip()) for b in block.splitlines() if b.strip()),
                     default=0)
        lines = [line[indent:] if not line.startswith("$") else line for line in lines]
        command, output = None, []
        for line in [*lines, "$"]:
            if line.startswith("$"):
                if command and command.startswith("dealerpp expand "):
                    examples.append((command, "\n".join(output).strip("\n")))
                command, output = line[1:].strip(), []
            else:
                output.append(line)
    return examples


EXAMPLES = _expand_examples()


def test_the_page_has_expand_examples() -> None:
    assert len(EXAMPLES) >= 40


@pytest.mark.parametrize(("command", "expected"), EXAMPLES, ids=[c for c, _ in EXAMPLES])
def test_expand_example(command: str, expected: str) -> None:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        expand_main(shlex.split(command)[2:])
    printed = (err.getvalue() + out.getvalue()).strip("\n")
    assert printed == expected


def _error_rows() -> list[tuple[str, int, str, str | None]]:
    """(input, column, message, hint) for each row of the page's table of errors."""
    text = SHAPE_LANGUAGE.read_text(encoding="utf-8")
    rows = []
    for match in re.finditer(r"^\| `([^|]+)`(?: \(in a script\))? \| \((\d+)\) ([^|]+) \|$",
                             text, flags=re.M):
        source, column, message = match.group(1), int(match.group(2)), match.group(3)
        message, _, hint = message.partition(" — hint: ")
        rows.append((source, column, message.strip(), hint.strip() or None))
    return rows


ERROR_ROWS = _error_rows()


def test_the_page_has_the_error_table() -> None:
    assert len(ERROR_ROWS) >= 20


@pytest.mark.parametrize(("source", "column", "message", "hint"), ERROR_ROWS,
                         ids=[row[0] for row in ERROR_ROWS])
def test_error_table_row(source: str, column: int, message: str, hint: str | None) -> None:
    with pytest.raises(DppError) as caught:
        if source.startswith("x = "):
            preprocess(source + "\n", "script.dpp")
        else:
            expand(source)
    error = caught.value
    assert (error.message, error.column) == (message, column)
    if hint is not None:
        assert error.hint == hint
