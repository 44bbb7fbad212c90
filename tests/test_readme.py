"""The README's Python examples run as written."""

from __future__ import annotations

import doctest
import re

from tests.conftest import PROJECT_ROOT


def test_readme_examples() -> None:
    result = doctest.testfile(str(PROJECT_ROOT / "README.md"), module_relative=False,
                              optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted >= 5


def test_every_file_the_readme_shows_is_the_file_in_the_repo() -> None:
    """A block introduced by "(`examples/NAME`):" is that file, byte for byte."""
    readme = (PROJECT_ROOT / "README.md").read_text()
    shown = re.findall(r"\(`([\w./-]+)`\):\n\n```[^\n]*\n(.*?)```", readme, re.DOTALL)
    assert shown, "the README shows no file any more: drop this test or mend the pattern"
    for name, text in shown:
        assert (PROJECT_ROOT / name).read_text() == text, f"README's copy of {name} differs"


def test_every_path_the_readme_names_exists() -> None:
    readme = (PROJECT_ROOT / "README.md").read_text()
    for name in re.findall(r"\b((?:examples|docs|bench|tests|grammar|dealerpp)/[\w./-]*\w)", readme):
        assert (PROJECT_ROOT / name).exists(), f"the README names {name}, which does not exist"
