"""The examples of docs/formats.md run as written."""

from __future__ import annotations

import doctest
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "formats.md"


def test_doc_examples() -> None:
    result = doctest.testfile(str(DOC), module_relative=False,
                              optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 20
    assert result.failed == 0
