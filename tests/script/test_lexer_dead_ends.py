"""The lexer skips searches it knows will fail (``lexer._Misses``); the
regions it finds are those a search from scratch at every block finds."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from dealerpp.script import lexer

PIECES = ["shape{", "shape {", "}", "/*", "*/", "//", "#", '"', "\n", " ", "x", "4432"]


def regions_from_scratch(text: str) -> list[tuple[str, int, int, bool]]:
    """``lexer.regions`` with no memory between one region and the next."""
    found = []
    position = code_start = 0
    while (match := lexer._OPENER.search(text, position)) is not None:
        start, opener = match.start(), match.group()
        if opener[0] == "s":
            if not lexer.starts_token(text, start):
                position = start + 5
                continue
            region = lexer._shape_block(text, start, match.end() - 1, lexer._Misses())
        else:
            region = lexer._simple_region(text, start, opener, lexer._Misses())
        if start > code_start:
            found.append(("code", code_start, start, True))
        found.append((region.kind, region.start, region.end, region.closed))
        position = code_start = region.end
    if code_start < len(text):
        found.append(("code", code_start, len(text), True))
    return found


@given(st.lists(st.sampled_from(PIECES), max_size=40).map("".join))
def test_regions_are_those_found_from_scratch(text: str) -> None:
    found = [(r.kind, r.start, r.end, r.closed) for r in lexer.regions(text)]
    assert found == regions_from_scratch(text)


def test_unclosed_blocks_over_comments_are_each_one_brace_long() -> None:
    text = "shape{ /* } */ " * 200 + "shape{" * 200
    blocks = [r for r in lexer.regions(text) if r.kind == "shape"]
    assert len(blocks) == 400
    assert all(not r.closed and text[r.end - 1] == "{" for r in blocks)
