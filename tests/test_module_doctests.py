"""The examples in the docstrings of the library's front doors run as written."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["dealerpp", "dealerpp.shapes.compiler", "dealerpp.shapes.shapeset",
           "dealerpp.script.rewrite"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0
