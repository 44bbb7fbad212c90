"""docs/editors.md's table of dealer's words is what hover says about them."""

from __future__ import annotations

import re

from dealerpp.editor import knowledge
from tests.conftest import PROJECT_ROOT


def test_the_table_is_the_servers() -> None:
    page = (PROJECT_ROOT / "docs" / "editors.md").read_text()
    table = page.split("## What each word means", 1)[1]
    rows = re.findall(r"^\| `([^`]+)` \| (.*) \|$", table, re.MULTILINE)
    shown = {word: line.replace("\\|", "|") for word, line in rows}
    assert shown == knowledge.every_word()


def test_every_word_of_check_has_a_line() -> None:
    """The words check knows (its vocabulary tables) all have a meaning."""
    from dealerpp.script.check.facts import FUNCTIONS, SEATS, STATEMENT_WORDS

    for word in (*STATEMENT_WORDS, *FUNCTIONS, *SEATS):
        assert knowledge.meaning(word), word
