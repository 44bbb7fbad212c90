"""docs/library.md runs as written (its generate examples run the real dealer)."""

from __future__ import annotations

import doctest

import pytest

from tests.conftest import PROJECT_ROOT

PAGE = PROJECT_ROOT / "docs" / "library.md"


@pytest.mark.dealer
def test_library_tour(dealer_bin: str) -> None:
    result = doctest.testfile(str(PAGE), module_relative=False,
                              optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0 and result.attempted >= 15
