"""The README's Python examples run as written."""

from __future__ import annotations

import doctest

from tests.conftest import PROJECT_ROOT


def test_readme_examples() -> None:
    result = doctest.testfile(str(PROJECT_ROOT / "README.md"), module_relative=False,
                              optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted >= 5
